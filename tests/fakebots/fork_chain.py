"""Fake bot: a fork chain. The bot prints the first line of 01_simplest, then forks a
child in a new session and exits; that child prints the winning line and does the same,
again and again, so no process of the bot lives long and none stays in its group.

usage: fork_chain.py MARKER [--every-ms MS] [--for-s S] [--hang]
MARKER only has to appear in the command line (forks keep it) so tests can find survivors.
Each link lives --every-ms (default 5) before it forks; the chain runs --for-s seconds
(default 60). With --hang the winning line is never printed and the links keep the
output open: the match waits for the line.
"""
import os
import sys
import time

every_s, lasts_s = 0.005, 60.0
args = sys.argv[2:]
if "--every-ms" in args:
    every_s = float(args[args.index("--every-ms") + 1]) / 1000
if "--for-s" in args:
    lasts_s = float(args[args.index("--for-s") + 1])

sys.stdin.readline()
print("0 0 2 0 1", flush=True)
end = time.monotonic() + lasts_s
link = 0
while time.monotonic() < end:
    if os.fork() != 0:
        os._exit(0)        # the parent goes; its child carries on in a session of its own
    os.setsid()
    link += 1
    if link == 1 and "--hang" not in args:
        print("2 0 2 2 1", flush=True)
        for stream in (0, 1, 2):   # later links hold no pipe of the referee
            os.dup2(os.open(os.devnull, os.O_RDWR), stream)
    if every_s:
        time.sleep(every_s)
os._exit(0)
