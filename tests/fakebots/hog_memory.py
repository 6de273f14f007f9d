"""Fake bot: tries to hold 1 GiB, over the 768 MB limit (MemoryError: crash)."""
import sys

sys.stdin.readline()
print("allocating 1 GiB", file=sys.stderr, flush=True)
hog = bytearray(1024 ** 3)
print("0 0 2 0 1", flush=True)  # reached only without a memory limit
