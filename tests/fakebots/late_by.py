"""Fake bot: reads the puzzle, prints a first line, then is late on the second by burning
CPU until it is killed, in one of three ways:

  burn MARKER   on one CPU, as if alone on it;
  crowd MARKER  in two processes moved to one CPU before the first line: more busy
                threads than CPUs;
  starve N      moved to CPU N, where a test keeps a process of higher priority busy.

With a MARKER, the bot first waits (3 s at most) for its session to be raised to the
highest priority, as a test does to the process whose command line holds MARKER: its
CPU is then its own, whatever else the machine runs.

usage: late_by.py burn MARKER | late_by.py crowd MARKER | late_by.py starve N
"""

import os
import sys
import time


def raised() -> bool:
    try:
        with open("/proc/self/autogroup") as file:
            return file.read().split()[-1] == "-20"
    except OSError:
        return False


def main() -> None:
    height = int(sys.stdin.readline() and sys.stdin.readline())
    for _ in range(height):
        sys.stdin.readline()
    how = sys.argv[1]
    deadline = time.monotonic() + 3.0
    while how in ("burn", "crowd") and not raised() and time.monotonic() < deadline:
        time.sleep(0.002)
    if how == "crowd":
        os.sched_setaffinity(0, {max(os.sched_getaffinity(0))})
        if os.fork() == 0:   # on the same CPU, from its first instruction
            burn()
    print("0 0 2 0 1", flush=True)
    if how == "starve":
        os.sched_setaffinity(0, {int(sys.argv[2])})
    burn()


def burn() -> None:
    while True:
        pass


main()
