"""A small Python bot, its whole run under 100 ms: `think()` works 20 ms in pure Python
before the first line, then slow_third.py's search (without its slow part) solves the
puzzle. `profile --bot` must gather enough samples of so short a run to name `think`."""

import sys
import time

from slow_third import read_puzzle, solve

THINK_S = 0.020


def think():
    """20 ms of arithmetic: the part a profile of this bot must show."""
    end = time.perf_counter() + THINK_S
    total = 0
    while time.perf_counter() < end:
        total += sum(k * k for k in range(50))
    return total


def main():
    nodes = read_puzzle(sys.stdin)
    think()
    links = solve(nodes)
    if links is None:
        print("no solution", file=sys.stderr)
        sys.exit(1)
    for (a, b), n in sorted(links.items()):
        print(a[0], a[1], b[0], b[1], n, flush=True)


if __name__ == "__main__":
    main()
