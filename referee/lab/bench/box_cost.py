"""What the box costs: the same matches played boxed (bwrap) and unboxed, in turn.

    python -m referee.lab.bench.box_cost [--rounds N] [--bot CMD] [--against REV] [PUZZLE ...]

Each round plays every puzzle (default: the public tests) once in each mode, as `run`
does (the next match's box made while one plays), the order of the modes alternating
between rounds; it prints, per mode, the median wall time of a whole round and of one
match, the ratio boxed/unboxed round by round (median and worst), and the bot's first-line
latency (median, p99, max and the slowest puzzle). The bot defaults to dist/bot.py run by
a Python that the box user can reach unboxed too.

With --against REV (a git revision of this checkout, e.g. the referee before the box), it
times instead whole `python -m referee run --quiet` processes of this referee and of REV's
(its referee/ taken with git archive; this one's copied alike, and both compiled to
bytecode first, as an installed package is), in turn, on the same bot and puzzles: each
one's median wall time, the ratio pair by pair, and the difference per match. Their history
goes to a database of the measure's own.
"""

from __future__ import annotations

import argparse
import compileall
import io
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

from referee.box import bubblewrap
from referee.judge.board import load_board
from referee.box.sandbox import Mode, choose_mode
from referee.box.one_match import play_one
from referee.judge.limits import Limits
from referee.box.crew import Crew
from referee.home import ROOT

MODES = (Mode.BWRAP, Mode.SUBREAPER)


def reachable_python() -> str:
    """This Python, unless a box user could not run it unboxed (it lies under /root)."""
    if os.geteuid() != 0 or bubblewrap.unreachable([sys.executable], "/", os.defpath,
                                            bubblewrap.BOX_UID_BASE) is None:
        return sys.executable
    return shutil.which("python3", path="/usr/local/bin:/usr/bin:/bin") or sys.executable


def play_round(mode: Mode, argv: list[str], boards: list) -> tuple[float, dict[str, float]]:
    """Wall seconds for all the matches, and each puzzle's first-line latency."""
    firsts = {}
    start = time.perf_counter()
    with Crew({Crew.key(argv, mode): len(boards)}) as crew:
        results = [play_one(board, argv, Limits(), name, mode=mode, crew=crew)
                   for name, board in boards]
    for name, result in zip((name for name, _ in boards), results):
        if result.first_line_s is not None:
            firsts[name] = result.first_line_s
        if not result.won:
            print(f"  {mode.value} {name}: {result.verdict.value}: {result.reason}")
    return time.perf_counter() - start, firsts


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m referee.lab.bench.box_cost",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("puzzles", nargs="*", help="puzzle files (default: the public tests)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--bot", help="the bot's command (default: dist/bot.py)")
    parser.add_argument("--against", metavar="REV",
                        help="time whole runs of this referee against REV's, in turn")
    args = parser.parse_args(argv)
    try:
        choose_mode("bwrap")
    except Exception as error:   # no bubblewrap here: nothing to compare
        print(f"box_cost: {error}", file=sys.stderr)
        return 2
    paths = [Path(p) for p in args.puzzles] or sorted((ROOT / "puzzles" / "public").glob("*.txt"))
    command = shlex.split(args.bot) if args.bot else [reachable_python(),
                                                     str(ROOT / "dist" / "bot.py")]
    if args.against:
        return against(args.against, command, paths, args.rounds)
    boards = [(path.stem, load_board(path)) for path in paths]
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


def against(revision: str, bot: list[str], paths: list[Path], rounds: int) -> int:
    """Whole runs of this referee and of `revision`'s, in turn: the wall time each takes."""
    with tempfile.TemporaryDirectory(prefix="box-cost-") as folder:
        this, old = Path(folder) / "this", Path(folder) / "old"
        # both from a folder of their own, alike: neither is a checkout nor finds one
        shutil.copytree(ROOT / "referee", this / "referee",
                        ignore=shutil.ignore_patterns("__pycache__"))
        why = take_referee(revision, old)
        if why:
            print(f"box_cost: cannot take referee/ of {revision!r} from git: {why}",
                  file=sys.stderr)
            return 2
        for copy in (this, old):   # compiled alike, as an installed referee is (where no
            compileall.compile_dir(copy, quiet=1)   # bytecode is written, each run compiles)
        tail = [sys.executable, "-m", "referee", "run", "--quiet", "--bot", shlex.join(bot),
                *(str(path.resolve()) for path in paths)]
        env = {**os.environ, "SPOON2_HISTORY": str(Path(folder) / "history.sqlite")}
        walls = time_runs({"this": this, revision: old}, tail, rounds, env)
    print(f"box_cost: whole `run --quiet` of {len(paths)} puzzles, {rounds} runs each, in turn")
    for name, values in walls.items():
        print(f"{name:<12} median {statistics.median(values):6.2f} s   "
              f"min {min(values):6.2f}   max {max(values):6.2f}")
    ratios = [new / old for new, old in zip(walls["this"], walls[revision])]
    extra = (statistics.median(walls["this"]) - statistics.median(walls[revision])) / len(paths)
    print(f"this/{revision}: median x{statistics.median(ratios):.2f}, worst "
          f"x{max(ratios):.2f} (run by run); {extra * 1000:+.0f} ms a match")
    return 0


def take_referee(revision: str, folder: Path) -> str:
    """Unpack `revision`'s referee/ into `folder`; what went wrong ("" if nothing)."""
    try:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", revision, "referee"],
                                 capture_output=True, check=True).stdout
    except subprocess.CalledProcessError as error:
        return error.stderr.decode().strip()
    except OSError as error:
        return str(error)
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    return ""


def time_runs(folders: dict[str, Path], command: list[str], rounds: int,
              env: dict[str, str]) -> dict[str, list[float]]:
    """`command` run in each folder in turn, `rounds` times: the wall seconds of each run
    (the history it records goes to `env`'s database, not the user's)."""
    walls: dict[str, list[float]] = {name: [] for name in folders}
    for round_number in range(rounds):
        for name in folders if round_number % 2 == 0 else reversed(list(folders)):
            start = time.perf_counter()
            done = subprocess.run(command, cwd=folders[name], stdin=subprocess.DEVNULL,
                                  capture_output=True, text=True, env=env)
            walls[name].append(time.perf_counter() - start)
            if done.returncode != 0:
                print(f"  {name}: exit {done.returncode}: {done.stdout.strip()[-200:]}")
    return walls


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
