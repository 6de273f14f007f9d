"""Fake bot: floods stderr and stdout with endless text and no newline (malformed, cut)."""
import os
import sys

sys.stdin.readline()
chunk = b"x" * 65536
while True:
    os.write(2, chunk)
    os.write(1, chunk)
