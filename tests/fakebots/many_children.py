"""Fake bot: forks COUNT idle children, then wins 01_simplest.

usage: many_children.py MARKER COUNT
Each child is a copy of this small Python process: its pages are shared with the parent
copy-on-write, so together they use little more than one process.
"""
import os
import sys
import time

count = int(sys.argv[2])
sys.stdin.readline()
for _ in range(count):
    if os.fork() == 0:
        time.sleep(600)
        os._exit(0)
time.sleep(0.5)    # long enough for several memory samples of all of them
print("0 0 2 0 1", flush=True)
print("2 0 2 2 1", flush=True)
time.sleep(600)
