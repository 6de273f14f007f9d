"""Fake bot: fills a heap of MB megabytes, forks CHILDREN children that keep it without
writing to it (shared copy-on-write), then wins 01_simplest.

usage: shared_heap.py MARKER MB CHILDREN
"""
import os
import sys
import time

size, count = int(sys.argv[2]) * 2**20, int(sys.argv[3])
sys.stdin.readline()
heap = bytearray(size)
block = b"x" * 2**20
for start in range(0, size, len(block)):    # every page written: resident
    heap[start:start + len(block)] = block
for _ in range(count):
    if os.fork() == 0:
        time.sleep(600)
        os._exit(0)
time.sleep(0.3)
print("0 0 2 0 1", flush=True)
print("2 0 2 2 1", flush=True)
time.sleep(600)
