"""Fake bot: fills 1 GiB (every page written), over the 768 MB cap, then tries to win."""
import sys

sys.stdin.readline()
print("allocating 1 GiB", file=sys.stderr, flush=True)
hog = bytearray(1024 ** 3)
block = b"x" * 2**20
for start in range(0, len(hog), len(block)):   # written: resident, not only reserved
    hog[start:start + len(block)] = block
print("0 0 2 0 1", flush=True)  # reached only when nothing stops it
print("2 0 2 2 1", flush=True)
