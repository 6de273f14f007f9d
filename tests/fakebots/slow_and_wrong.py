"""Hostile bot for `hunt`: slow on big boards and wrong on some small ones, the bot a hunt
must not spend on its timeouts before it finds its wrong answer.

On a board of more than 40 islands it sleeps 1.1 s before its first line (then prints the
solver's answer): a timeout under CodinGame's 1 s. On a smaller board it prints the
solver's answer, but where a link the board allows (two islands facing each other with
nothing between) crosses one of the answer's links and is not in the answer itself, it
prints that link once, right after the first answer's link it crosses: a crossing. A board
with no such pair is won; the least board that has one is 5 islands (a + of four islands
around no island, and one more to join them).

usage: slow_and_wrong.py [SOLVER] (reads the puzzle on stdin, as a CodinGame bot does)

SOLVER is the folder of the solver's package (default: the checkout's bot/): a box shows a
bot only the files its command names, so a boxed hunt names it.
"""

import sys
import time
from pathlib import Path

SOLVER = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[2] / "bot"
sys.path.insert(0, str(SOLVER.parent))

import bot  # noqa: E402

ISLANDS = 40
SLEEP_S = 1.1


def read_puzzle() -> str:
    """The puzzle's lines, read one by one: stdin stays open, as on CodinGame."""
    width = sys.stdin.readline()
    height = sys.stdin.readline()
    return "".join([width, height, *(sys.stdin.readline() for _ in range(int(height)))])


def islands(text: str) -> list[tuple[int, int]]:
    rows = text.split("\n")[2:]
    return [(x, y) for y, row in enumerate(rows) for x, char in enumerate(row)
            if char.isdigit()]


def candidates(cells: list[tuple[int, int]]) -> list[tuple[int, int, int, int]]:
    """Each island with its nearest neighbour to the right and below."""
    found = []
    for x, y in cells:
        right = min((c for c in cells if c[1] == y and c[0] > x), default=None)
        below = min((c for c in cells if c[0] == x and c[1] > y), default=None,
                    key=lambda c: c[1])
        found += [(x, y, *c) for c in (right, below) if c is not None]
    return found


def crosses(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    """One link across the other, strictly between the ends of both."""
    (ax1, ay1, ax2, ay2), (bx1, by1, bx2, by2) = a, b
    if ay1 == ay2 and bx1 == bx2:
        return ax1 < bx1 < ax2 and by1 < ay1 < by2
    if ax1 == ax2 and by1 == by2:
        return crosses(b, a)
    return False


def main() -> None:
    text = read_puzzle()
    cells = islands(text)
    if len(cells) > ISLANDS:
        time.sleep(SLEEP_S)
    links = bot.solve(text)
    lines = [f"{x1} {y1} {x2} {y2} {n}" for x1, y1, x2, y2, n in links]
    if len(cells) <= ISLANDS:
        drawn = [link[:4] for link in links]
        wrong = next((c for c in candidates(cells) if c not in drawn
                      and any(crosses(c, link) for link in drawn)), None)
        if wrong is not None:
            after = next(k for k, link in enumerate(drawn) if crosses(wrong, link))
            lines.insert(after + 1, "%d %d %d %d 1" % wrong)
    print("\n".join(lines), flush=True)


if __name__ == "__main__":
    main()
