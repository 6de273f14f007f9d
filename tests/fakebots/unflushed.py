"""Fake bot: prints the right answer to 01_simplest but never flushes, then waits.

On CodinGame stdout is a pipe, so the lines sit in the buffer: a timeout.
"""
import sys
import time

sys.stdin.readline()
print("0 0 2 0 1")
print("2 0 2 2 1")
time.sleep(600)
