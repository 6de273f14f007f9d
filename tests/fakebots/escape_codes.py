"""Fake bot: prints a legal line, writes terminal escape codes to stderr, then crashes.

A terminal that received them raw would clear the screen, set its title and show a
fake summary line.
"""
import sys

sys.stdin.readline()
sys.stderr.write("\x1b[2J\x1b[H\x1b]0;pwned\x07\r13 passed, 0 failed\x1b[8m\n")
sys.stderr.flush()
print("0 0 2 0 1", flush=True)
sys.exit(3)
