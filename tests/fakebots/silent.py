"""Fake bot: reads the puzzle and never answers (timeout on the first line)."""
import sys
import time

sys.stdin.readline()
height = int(sys.stdin.readline())
for _ in range(height):
    sys.stdin.readline()
time.sleep(600)
