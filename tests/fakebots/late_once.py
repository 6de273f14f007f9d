"""Fake bot: silent past any limit the first time it is started with a STATE file that is
not there yet (it makes the file), then the solver's answer every time after: a timeout
that a replay clears, as a busy machine would make one.

usage: late_once.py STATE (reads the puzzle on stdin)
"""

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import bot  # noqa: E402


def main() -> None:
    width = sys.stdin.readline()
    height = sys.stdin.readline()
    text = "".join([width, height, *(sys.stdin.readline() for _ in range(int(height)))])
    state = Path(sys.argv[1])
    if not state.exists():
        state.touch()
        time.sleep(600)
    links = bot.solve(text)
    print("\n".join(f"{x1} {y1} {x2} {y2} {n}" for x1, y1, x2, y2, n in links), flush=True)


if __name__ == "__main__":
    main()
