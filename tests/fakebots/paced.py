"""Fake bot: writes a puzzle's solution lines GAP_MS apart by its own clock, and logs when.

usage: paced.py SOLUTIONS_DIR GAP_MS [LOG]
SOLUTIONS_DIR holds files of a puzzle, a blank line and its output lines (as replay.py
reads). The first line goes at once; line k at first + (k - 1) * GAP_MS, on an absolute
schedule, so a late wake-up does not push the later lines back. LOG (- for stderr) gets one
`monotonic_before monotonic_after` line per write: the bot's own view of its gaps,
comparable with the referee's (both read CLOCK_MONOTONIC).
"""

import os
import sys
import time


def read_puzzle():
    width = sys.stdin.readline()
    height = sys.stdin.readline()
    rows = [sys.stdin.readline() for _ in range(int(height))]
    return "".join([width, height, *rows]).strip()


def solution(folder, puzzle):
    for name in sorted(os.listdir(folder)):
        board, _, output = open(os.path.join(folder, name)).read().partition("\n\n")
        if board.strip() == puzzle:
            return output.splitlines()
    sys.exit("paced.py: no solution for this puzzle")


def main():
    folder, gap_s = sys.argv[1], float(sys.argv[2]) / 1000
    lines = solution(folder, read_puzzle())
    log = None
    if len(sys.argv) > 3:   # "-": stderr, which a box lets through
        log = sys.stderr if sys.argv[3] == "-" else open(sys.argv[3], "w", buffering=1)
    start = time.monotonic()
    for k, line in enumerate(lines):
        wait = start + k * gap_s - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        before = time.monotonic()
        os.write(1, (line + "\n").encode())
        after = time.monotonic()
        if log:   # written as it goes: the referee kills the bot after its last line
            log.write(f"{before:.6f} {after:.6f}\n")
    time.sleep(600)


if __name__ == "__main__":
    main()
