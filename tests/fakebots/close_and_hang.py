"""Fake bot: closes its stdout without a line and keeps running (timeout, not incomplete)."""
import os
import sys
import time

sys.stdin.readline()
os.close(1)
time.sleep(600)
