"""Hostile bot for `hunt`: the solver's answer, but on a board of more than 60 islands it
sleeps past any limit: a timeout a hunt must shrink to a board of 61 islands or a few more.

usage: slow_past_60.py [SOLVER] (reads the puzzle on stdin, as a CodinGame bot does)

SOLVER is the folder of the solver's package (default: the checkout's bot/): a box shows a
bot only the files its command names, so a boxed hunt names it.
"""

import sys
import time
from pathlib import Path

SOLVER = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[2] / "bot"
sys.path.insert(0, str(SOLVER.parent))

import bot  # noqa: E402

ISLANDS = 60
SLEEP_S = 600


def read_puzzle() -> str:
    """The puzzle's lines, read one by one: stdin stays open, as on CodinGame."""
    width = sys.stdin.readline()
    height = sys.stdin.readline()
    return "".join([width, height, *(sys.stdin.readline() for _ in range(int(height)))])


def main() -> None:
    text = read_puzzle()
    if sum(char.isdigit() for char in "".join(text.split("\n")[2:])) > ISLANDS:
        time.sleep(SLEEP_S)
    links = bot.solve(text)
    print("\n".join(f"{x1} {y1} {x2} {y2} {n}" for x1, y1, x2, y2, n in links), flush=True)


if __name__ == "__main__":
    main()
