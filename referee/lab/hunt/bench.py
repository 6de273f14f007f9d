"""How fast `hunt` catches and shrinks the two hostile bots of the tests: a figure to watch,
not a test (the machine's load moves it).

    python -m referee.lab.hunt.bench [--seed N] [--jobs N] [--out DIR]    (make hunt-bench)

tests/fakebots/eight_bug.py answers wrongly (a third link) on any board with an 8: it must
be caught and shrunk to at most 9 islands (5 is the least an 8 needs) within 120 s.
tests/fakebots/slow_past_60.py times out on boards of more than 60 islands: it must be
shrunk to at most 70 islands (61 is the least). Each is hunted until its first loss is
shrunk; per bot the table gives the verdict, the seconds to the first loss and to shrink
it, the islands before and after, the bot runs of each part, and the wall time.

Exit status: 0 both bots met their mark, 1 one did not, 2 usage error.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from referee.cli import UsageError
from referee.cli.args import integer, output_path
from referee.box.sandbox import choose_mode
from referee.home import in_checkout
from referee.lab.hunt.command import hunt
from referee.lab.hunt.matches import BotRuns
from referee.lab.hunt.report import write_loss
from referee.judge.limits import Limits

# (bot script, the most islands its small board may have, seconds the hunt may take)
CASES = (("tests/fakebots/eight_bug.py", 9, 120.0),
         ("tests/fakebots/slow_past_60.py", 70, 600.0))
HEAD = ("bot", "verdict", "first loss s", "shrink s", "islands", "runs to find",
        "shrink runs", "wall s", "mark")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m referee.lab.hunt.bench",
                                     description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=integer(0), default=1, help="the hunts' seed (default: 1)")
    parser.add_argument("--jobs", type=integer(1), default=1, help="matches at once (default: 1)")
    parser.add_argument("--out", type=output_path, default="out/hunt-bench", metavar="DIR",
                        help="where the small boards go (default: out/hunt-bench)")
    args = parser.parse_args(argv)
    try:
        rows = [bench(script, most, seconds, args) for script, most, seconds in CASES]
    except UsageError as error:
        print(f"{parser.prog}: error: {error}", file=sys.stderr)
        return 2
    print(table([HEAD, *rows]))
    return 0 if all(row[-1] == "met" for row in rows) else 1


def bench(script: str, most: int, seconds: float, args: argparse.Namespace) -> tuple[str, ...]:
    """Hunt one bot until its first loss is shrunk: its row of the table."""
    bot = in_checkout(script, "the benchmark's bots are the checkout's tests")
    solver = in_checkout("bot", "the benchmark's bots use the checkout's solver")
    runs = BotRuns([sys.executable, str(bot), str(solver)], Limits(), args.jobs,
                   choose_mode(None))   # the solver named: a box shows the bot only that
    start = time.monotonic()
    try:
        hunted = hunt(runs, args.seed, seconds, wanted=1)
    finally:
        runs.close()
    wall = time.monotonic() - start
    if not hunted.losses:
        return (Path(script).stem, "none", "-", "-", "-", "-", "-", f"{wall:.1f}", "missed")
    loss = hunted.losses[0]
    out = Path(args.out) / Path(script).stem
    out.mkdir(parents=True, exist_ok=True)
    write_loss(out, loss)
    after = len(loss.shrunk.islands)
    met = after <= most and wall <= seconds and loss.complete
    return (Path(script).stem, loss.verdict, f"{loss.found_after_s:.1f}", f"{loss.shrink_s:.1f}",
            f"{len(loss.found.islands)} -> {after}", str(loss.runs_to_find),
            str(loss.shrink_runs), f"{wall:.1f}", "met" if met else f"missed (<= {most})")


def table(rows: list[tuple[str, ...]]) -> str:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(f"{cell:<{w}}" for cell, w in zip(row, widths)).rstrip()
                     for row in rows)


if __name__ == "__main__":
    sys.exit(main())
