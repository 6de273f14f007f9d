"""Measure the referee's timing error: its gaps between lines against the bot's own.

    .venv/bin/python -m tests.fakebots.timing_error [--busy N] [--gap-ms MS] [--runs R] [PUZZLE...]

The bot (paced.py) writes each solution line GAP_MS after the previous one by its own
clock and logs the time of each write; the referee's gap for a line minus the bot's is
the referee's error (reading, waking up, its own work). --busy N runs N processes that
spin beside the referee, as a loaded machine. Prints, per puzzle, the verdicts and the
error's median, 99th percentile and maximum (ms); then the same over all lines. The
referee's stamps come from its stamping process, so its own load does not show in them.
Solutions come from dist/bot.py, solved once.
"""

import argparse
import multiprocessing
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from referee.judge.board import load_board
from referee.judge.match import play_match
from referee.box.runner import BotProcess
from tests.fakebots.procs import box_python

ROOT = Path(__file__).resolve().parents[2]
PACED = Path(__file__).with_name("paced.py")
DEFAULT_PUZZLES = ["puzzles/public/13_expert.txt", "puzzles/public/08_advanced.txt"]


def spin() -> None:
    while True:
        pass


def write_solutions(puzzles: list[Path], folder: Path) -> None:
    """puzzle, blank line, the project's bot's output: the files paced.py reads."""
    for k, path in enumerate(puzzles):
        text = path.read_text()
        out = subprocess.run([sys.executable, str(ROOT / "dist" / "bot.py")], input=text,
                             capture_output=True, text=True, timeout=60, check=True).stdout
        (folder / f"{k:03}.txt").write_text(f"{text.strip()}\n\n{out}")


def play_once(path: Path, folder: Path, gap_ms: float) -> tuple[str, list[float]]:
    """The verdict and the per-gap errors (s)."""
    bot = BotProcess([box_python(), str(PACED), str(folder), str(gap_ms), "-"])
    result = play_match(load_board(path), bot)
    # the bot's clock just before each write: a bot preempted inside its write (by the
    # stamper it wakes) would stamp `after` late
    writes = [float(line.split()[0]) for line in result.usage.stderr_tail.splitlines()
              if line and line[0].isdigit()]
    own = [b - a for a, b in zip(writes, writes[1:])]
    errors = [ref - mine for ref, mine in zip(result.latencies_s[1:], own)]
    verdict = result.verdict.value if result.won else f"{result.verdict.value} ({result.reason})"
    return verdict, errors


def summary(errors: list[float]) -> str:
    ms = sorted(e * 1000 for e in errors)
    p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
    return (f"median {statistics.median(ms):.2f}, p99 {p99:.2f}, max {ms[-1]:.2f}, "
            f"min {ms[0]:.2f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("puzzles", nargs="*", default=DEFAULT_PUZZLES)
    parser.add_argument("--busy", type=int, default=0)
    parser.add_argument("--gap-ms", type=float, default=95.0)
    parser.add_argument("--runs", type=int, default=1)
    args = parser.parse_args()
    puzzles = [ROOT / p for p in args.puzzles]
    spinners = [multiprocessing.Process(target=spin, daemon=True) for _ in range(args.busy)]
    for proc in spinners:
        proc.start()
    every: list[float] = []
    try:
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp) / "solutions"
            folder.mkdir()
            write_solutions(puzzles, folder)
            for path in puzzles:
                for _ in range(args.runs):
                    verdict, errors = play_once(path, folder, args.gap_ms)
                    every += errors
                    print(f"{path.name}: {verdict}, {len(errors)} gaps, {summary(errors)}",
                          flush=True)
    finally:
        for proc in spinners:
            proc.kill()
    print(f"all: {len(every)} gaps, {summary(every)} (busy processes: {args.busy}, "
          f"cores: {os.cpu_count()})")


if __name__ == "__main__":
    main()
