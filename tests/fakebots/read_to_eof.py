"""Fake bot: reads stdin to EOF before answering; hangs because stdin stays open (timeout)."""
import sys

sys.stdin.read()
print("0 0 2 0 1", flush=True)
