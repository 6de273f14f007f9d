"""Fake bot: hands its stdout to a child in its own session (out of the group) and exits.

The child prints the winning line of 01_simplest and lingers: it has outlived its parent
and left the group, so only a referee that adopts orphans can still kill it.
usage: escape_and_win.py PIDFILE   (writes the child's pid)
"""
import os
import subprocess
import sys
import time

if sys.argv[1] == "--child":
    time.sleep(0.2)   # the parent is gone by now
    print("2 0 2 2 1", flush=True)
    time.sleep(600)
    sys.exit(0)
sys.stdin.readline()
child = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--child"],
                         start_new_session=True)
with open(sys.argv[1], "w") as pids:
    pids.write(f"{child.pid}\n")
print("0 0 2 0 1", flush=True)
