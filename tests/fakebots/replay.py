"""Fake bot: replays output lines from a file, optionally slowly, then exits or hangs.

usage: replay.py SOURCE [--sleep-ms MS[,MS...]] [--stamp] [--exit N] [--hang]
SOURCE is a file of output lines, a solution file (puzzle, blank line, output lines),
or a directory of solution files, searched for the puzzle read on stdin.
--sleep-ms: sleep before each line (the last value repeats); --stamp: write
time.perf_counter() to stderr just before each line; --exit N: exit status
after the lines; --hang: sleep instead of exiting (stdin stays open, so no EOF).
"""

import argparse
import os
import sys
import time


def read_puzzle():
    """Read the input line by line, as a real bot must (stdin is never closed)."""
    width = sys.stdin.readline()
    height = sys.stdin.readline()
    rows = [sys.stdin.readline() for _ in range(int(height))]
    return "".join([width, height, *rows]).strip()


def lines_for(source, puzzle):
    if os.path.isdir(source):
        for name in sorted(os.listdir(source)):
            text = open(os.path.join(source, name)).read()
            board, _, output = text.partition("\n\n")
            if board.strip() == puzzle:
                return output.splitlines()
        sys.exit("replay.py: no solution for this puzzle in " + source)
    text = open(source).read()
    if "\n\n" in text:
        text = text.partition("\n\n")[2]
    return text.splitlines()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("source")
    parser.add_argument("--sleep-ms", default="0")
    parser.add_argument("--exit", type=int, default=0)
    parser.add_argument("--hang", action="store_true")
    parser.add_argument("--stamp", action="store_true")
    args = parser.parse_args()
    sleeps = [float(ms) / 1000 for ms in args.sleep_ms.split(",")]
    lines = lines_for(args.source, read_puzzle())
    for index, line in enumerate(lines):
        time.sleep(sleeps[min(index, len(sleeps) - 1)])
        if args.stamp:
            print(repr(time.perf_counter()), file=sys.stderr, flush=True)
        print(line, flush=True)
    if args.hang:
        time.sleep(600)
    sys.exit(args.exit)


main()
