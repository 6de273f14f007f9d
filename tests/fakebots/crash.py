"""Fake bot: places one legal link on 01_simplest, then raises (crash, status 1)."""
import sys

sys.stdin.readline()
print("0 0 2 0 1", flush=True)
raise RuntimeError("boom")
