"""Fills a file in /dev/shm (`shm`) or in its TMPDIR (`tmp`) with MB megabytes, closes it
and keeps it: tmpfs pages that no process maps or holds open.

usage: fill_file.py shm|tmp MARKER MB
"""
import os
import sys
import time

where, marker, megabytes = sys.argv[1], sys.argv[2], int(sys.argv[3])
folder = "/dev/shm" if where == "shm" else os.environ["TMPDIR"]
block = b"x" * 2**20
written = 0
try:
    with open(os.path.join(folder, f"hostile-{marker}"), "wb") as file:
        for written in range(1, megabytes + 1):
            file.write(block)
            file.flush()
            if written % 100 == 0:
                print(f"{where}: {written} MB written", file=sys.stderr, flush=True)
except OSError as error:
    print(f"{where}: stopped after {written} MB: {error.strerror}", file=sys.stderr, flush=True)
print(f"{where}: {written} MB written and closed", file=sys.stderr, flush=True)
print("0 0 2 0 1\n2 0 2 2 1", flush=True)
time.sleep(600)
