"""Fake bot: holds MB megabytes of shared memory that no page table shows, then tries to
win 01_simplest.

usage: shm_hold.py MARKER MB memfd|shm|shm-mapped|shm-closed|shm-open [NAME]
memfd: a memfd, filled, its descriptor kept. shm: a file /dev/shm/NAME, filled, kept
open. shm-mapped: the same, mapped and its descriptor closed. shm-closed: the same,
closed at once (nothing shows it afterwards). shm-open: opens /dev/shm/NAME, which
must exist already, and holds it without writing. Each is filled before the first line.
"""
import mmap
import os
import sys
import time

size, how = int(sys.argv[2]) * 2**20, sys.argv[3]
name = sys.argv[4] if len(sys.argv) > 4 else sys.argv[1]
sys.stdin.readline()
if how == "memfd":
    fd = os.memfd_create(sys.argv[1])
elif how == "shm-open":
    fd, size = os.open(f"/dev/shm/{name}", os.O_RDWR), 0
else:
    fd = os.open(f"/dev/shm/{name}", os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
block = b"x" * 2**20
for _ in range(size // 2**20):
    os.write(fd, block)
if how == "shm-mapped":
    kept = mmap.mmap(fd, size)
if how in ("shm-mapped", "shm-closed"):
    os.close(fd)
time.sleep(0.3)
print("0 0 2 0 1", flush=True)
print("2 0 2 2 1", flush=True)
time.sleep(600)
