"""What the box costs: the same matches played boxed (bwrap) and unboxed, in turn.

    python -m referee.lab.box_cost [--rounds N] [--bot CMD] [PUZZLE ...]

Each round plays every puzzle (default: the public tests) once in each mode, the order of
the modes alternating between rounds; it prints, per mode, the median wall time of a whole
round and of one match, the ratio boxed/unboxed round by round (median and worst), and the
bot's first-line latency (median, p99, max and the slowest puzzle). The bot defaults to
dist/bot.py run by a Python that the box user can reach unboxed too.
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import statistics
import sys
import time
from pathlib import Path

from referee import box
from referee.board import load_board
from referee.containment import Mode, choose_mode
from referee.runner import run_match

ROOT = Path(__file__).resolve().parents[2]
MODES = (Mode.BWRAP, Mode.SUBREAPER)


def reachable_python() -> str:
    """This Python, unless a box user could not run it unboxed (it lies under /root)."""
    if os.geteuid() != 0 or box.unreachable([sys.executable], "/", os.defpath,
                                            box.BOX_UID_BASE) is None:
        return sys.executable
    return shutil.which("python3", path="/usr/local/bin:/usr/bin:/bin") or sys.executable


def play_round(mode: Mode, argv: list[str], boards: list) -> tuple[float, dict[str, float]]:
    """Wall seconds for all the matches, and each puzzle's first-line latency."""
    firsts = {}
    start = time.perf_counter()
    for name, board in boards:
        result = run_match(board, argv, name=name, mode=mode)
        if result.first_line_s is not None:
            firsts[name] = result.first_line_s
        if not result.won:
            print(f"  {mode.value} {name}: {result.verdict.value}: {result.reason}")
    return time.perf_counter() - start, firsts


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m referee.lab.box_cost",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("puzzles", nargs="*", help="puzzle files (default: the public tests)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--bot", help="the bot's command (default: dist/bot.py)")
    args = parser.parse_args(argv)
    try:
        choose_mode("bwrap")
    except Exception as error:   # no bubblewrap here: nothing to compare
        print(f"box_cost: {error}", file=sys.stderr)
        return 2
    paths = [Path(p) for p in args.puzzles] or sorted((ROOT / "puzzles" / "public").glob("*.txt"))
    boards = [(path.stem, load_board(path)) for path in paths]
    command = shlex.split(args.bot) if args.bot else [reachable_python(),
                                                     str(ROOT / "dist" / "bot.py")]
    walls: dict[Mode, list[float]] = {mode: [] for mode in MODES}
    firsts: dict[Mode, dict[str, list[float]]] = {mode: {} for mode in MODES}
    for round_number in range(args.rounds):
        for mode in MODES if round_number % 2 == 0 else reversed(MODES):
            wall, first = play_round(mode, command, boards)
            walls[mode].append(wall)
            for name, seconds in first.items():
                firsts[mode].setdefault(name, []).append(seconds)
    report(walls, firsts, len(boards), args.rounds)
    return 0


def report(walls, firsts, matches: int, rounds: int) -> None:
    print(f"box_cost: {matches} matches a round, {rounds} rounds, modes in turn")
    print(f"{'mode':<10} {'round s':>8} {'match ms':>9} {'first p50':>10} {'p99':>7} "
          f"{'max':>7}  slowest")
    for mode in MODES:
        medians = {name: statistics.median(v) for name, v in firsts[mode].items()}
        values = list(medians.values())
        slowest = max(medians, key=medians.get)
        round_s = statistics.median(walls[mode])
        print(f"{mode.value:<10} {round_s:>8.2f} {round_s / matches * 1000:>9.1f} "
              f"{statistics.median(values) * 1000:>10.1f} {percentile(values, 0.99) * 1000:>7.1f} "
              f"{max(values) * 1000:>7.1f}  {slowest}")
    ratios = [boxed / bare for boxed, bare in zip(walls[Mode.BWRAP], walls[Mode.SUBREAPER])]
    print(f"boxed/unboxed whole round: median x{statistics.median(ratios):.2f}, "
          f"worst x{max(ratios):.2f} (round by round)")


if __name__ == "__main__":
    sys.exit(main())
