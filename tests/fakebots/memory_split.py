"""Fake bot: starts CHILDREN processes that each hold MB megabytes (touched, so resident),
waits until all hold it and HOLD_S more, then prints the solution of 01_simplest.

usage: memory_split.py MARKER CHILDREN MB [HOLD_S]
Each process stays under a per-process cap; together they are over the bot's cap.
"""
import os
import sys
import time

count, size = int(sys.argv[2]), int(sys.argv[3]) * 2**20
hold_s = float(sys.argv[4]) if len(sys.argv) > 4 else 0.5
sys.stdin.readline()
ready_r, ready_w = os.pipe()
for _ in range(count):
    if os.fork() == 0:
        hog = bytearray(size)          # zero-filled: every page touched
        os.write(ready_w, b"x")
        time.sleep(600)
        os._exit(0)
got = 0
while got < count:
    got += len(os.read(ready_r, count))
print(f"{count} children hold {size * count >> 20} MB", file=sys.stderr, flush=True)
time.sleep(hold_s)
print("0 0 2 0 1", flush=True)
print("2 0 2 2 1", flush=True)
time.sleep(600)
