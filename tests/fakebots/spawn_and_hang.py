"""Fake bot: starts two children, one in its own session (escaping the group), prints one
legal line of 01_simplest, then hangs.

usage: spawn_and_hang.py PIDFILE   (writes its own pid and its children's, one a line)
"""
import os
import subprocess
import sys
import time

if sys.argv[1] == "--child":
    time.sleep(600)
    sys.exit(0)
sys.stdin.readline()
me = os.path.abspath(__file__)
kids = [subprocess.Popen([sys.executable, me, "--child"]),
        subprocess.Popen([sys.executable, me, "--child"], start_new_session=True)]
with open(sys.argv[1], "w") as pids:
    pids.write("\n".join(str(p) for p in [os.getpid()] + [k.pid for k in kids]) + "\n")
print("0 0 2 0 1", flush=True)
time.sleep(600)
