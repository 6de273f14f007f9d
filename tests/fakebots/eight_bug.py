"""Hostile bot for `hunt`: the solver's answer, except that on a board with an island of
8 it prints that island's first link twice, a third link: a bug a hunt must find and
shrink to the 5 islands an 8 needs (its 4 neighbours, each joined by a double link).

usage: eight_bug.py [SOLVER] (reads the puzzle on stdin, as a CodinGame bot does)

SOLVER is the folder of the solver's package (default: the checkout's bot/): a box shows a
bot only the files its command names, so a boxed hunt names it.
"""

import sys
from pathlib import Path

SOLVER = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[2] / "bot"
sys.path.insert(0, str(SOLVER.parent))

import bot  # noqa: E402


def read_puzzle() -> str:
    """The puzzle's lines, read one by one: stdin stays open, as on CodinGame."""
    width = sys.stdin.readline()
    height = sys.stdin.readline()
    return "".join([width, height, *(sys.stdin.readline() for _ in range(int(height)))])


def eights(text: str) -> set[tuple[int, int]]:
    rows = text.split("\n")[2:]
    return {(x, y) for y, row in enumerate(rows) for x, char in enumerate(row) if char == "8"}


def main() -> None:
    text = read_puzzle()
    links = bot.solve(text)
    bad = eights(text)
    lines = []
    for x1, y1, x2, y2, n in links:
        lines.append(f"{x1} {y1} {x2} {y2} {n}")
        if bad and ((x1, y1) in bad or (x2, y2) in bad):
            lines.append(lines[-1])   # the bug: the link again, over the two allowed
            bad = set()
    print("\n".join(lines), flush=True)


if __name__ == "__main__":
    main()
