"""The bundle's start-up and pacing, as a player on CodinGame would feel them.

    python -m referee.lab.bench.startup            (make startup-bench)

1. Start-up: on each of the public tests, the time from starting `PYTHON -I -S dist/bot.py`
   to its first output line, beside the time `PYTHON -I -S -c pass` takes to exit, the two
   run in turn (interleaved pairs), `--rounds` times. The overhead is the bundle's time
   minus the bare Python's of the same pair; the figures are medians over all pairs, so a
   busy machine moves both sides of a pair alike.
2. Pacing under load: on the stress boards up to 30x30 (CodinGame's largest), the largest
   gap between two output lines, which CodinGame allows 100 ms. One run of each board
   picks the `--boards` with the largest gap; each of those then runs `--runs` times with
   a CPU-busy process beside it, and the gaps of all its runs give its max and p99.

Start-up times are wall clock, read by this process from the bundle's stdout pipe. Pacing
times are the referee's: each match is played as `run` plays it (in its box), each line
stamped by the referee's stamper, at real-time priority where allowed, so a busy machine
delays the bot's lines and not their stamps. Nothing here imports the bot: it runs the
bundle as CodinGame does.
"""

from __future__ import annotations

import argparse
import os
import select
import statistics
import subprocess
import sys
import time
from pathlib import Path

from referee.judge.board import load_board, puzzle_files
from referee.box.one_match import play_one
from referee.lab.figures import percentile
from referee.judge.limits import Limits
from referee.home import ROOT

BUNDLE = ROOT / "dist" / "bot.py"
PUBLIC = ROOT / "puzzles" / "public"
STRESS = ROOT / "puzzles" / "stress"
MAX_SIDE = 30            # CodinGame's boards are at most 30x30
TURN_LIMIT_MS = 100      # CodinGame: each line after the first within 100 ms of the one before
RUN_TIMEOUT_S = 30       # a run still printing after this is stopped
READ_BYTES = 65536
# The process beside the bundle under load: it spins until this one is gone, even killed.
BUSY = "import os\nparent = os.getppid()\nwhile os.getppid() == parent:\n    pass\n"


def line_times(argv: list[str], text: str, timeout_s: float = RUN_TIMEOUT_S) -> list[float]:
    """Seconds from starting `argv` to each line it prints on stdout, `text` on its stdin
    (kept open, as CodinGame does); the process is gone when this returns."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, cwd=ROOT)
    times = []
    try:
        proc.stdin.write(text.encode())
        proc.stdin.flush()
        fd = proc.stdout.fileno()
        while True:
            left = start + timeout_s - time.perf_counter()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                break
            chunk = os.read(fd, READ_BYTES)
            if not chunk:
                break
            times += [time.perf_counter() - start] * chunk.count(b"\n")
    finally:
        proc.kill()
        proc.wait()
        proc.stdin.close()
        proc.stdout.close()
    return times


def exit_seconds(argv: list[str]) -> float:
    """Seconds from starting `argv` (stdin empty) to its exit. A blocking wait: one with a
    timeout polls, at intervals that double up to 50 ms, and would round the time up."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, cwd=ROOT)
    proc.wait()
    return time.perf_counter() - start


def startup(python: str, bundle: Path, puzzles: list[Path], rounds: int) -> list[dict]:
    """Per puzzle: the (bundle first line, bare exit) seconds of each interleaved pair."""
    pairs = {path: [] for path in puzzles}
    for _ in range(rounds):
        for path in puzzles:
            bare = exit_seconds([python, "-I", "-S", "-c", "pass"])
            lines = line_times([python, "-I", "-S", str(bundle)], path.read_text())
            pairs[path].append((lines[0] if lines else None, bare))
    return [{"puzzle": path.stem, "pairs": found} for path, found in pairs.items()]


def startup_report(rows: list[dict]) -> list[str]:
    """The start-up table: per puzzle and over all pairs, medians in ms."""
    out = [f"{'puzzle':<28} {'bundle ms':>9} {'bare ms':>8} {'overhead ms':>11} {'ratio':>6}"]
    every = []
    for row in rows:
        pairs = [(b, p) for b, p in row["pairs"] if b is not None]
        if len(pairs) < len(row["pairs"]):
            out.append(f"{row['puzzle']:<28} printed no line in {len(row['pairs']) - len(pairs)} run(s)")
        if pairs:
            out.append(_startup_line(row["puzzle"], pairs))
            every += pairs
    if every:
        out.append(_startup_line(f"all {len(rows)} ({len(every)} pairs)", every))
    return out


def _startup_line(name: str, pairs: list[tuple[float, float]]) -> str:
    bundle = statistics.median(b for b, _ in pairs) * 1000
    bare = statistics.median(p for _, p in pairs) * 1000
    overhead = statistics.median(b - p for b, p in pairs) * 1000
    ratio = statistics.median(b / p for b, p in pairs)
    return f"{name:<28} {bundle:9.1f} {bare:8.1f} {overhead:11.1f} {ratio:6.2f}"


def import_times(argv: list[str], text: str) -> dict[str, float]:
    """{module: seconds} its import took itself (`-X importtime`, children apart), when
    `argv` (a Python and its arguments) runs with `text` on its stdin. For the bundle's
    modules that is compiling and running them."""
    run = subprocess.run([argv[0], "-X", "importtime", *argv[1:]], input=text,
                         capture_output=True, text=True, cwd=ROOT, timeout=RUN_TIMEOUT_S)
    found = {}
    for line in run.stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            own, _, name = line.removeprefix("import time:").split("|")
            if own.strip().isdigit():
                found[name.strip()] = int(own) / 1e6
    return found


def where_it_goes(python: str, bundle: Path, puzzle: Path, runs: int) -> list[str]:
    """Where the bundle's start-up goes on `puzzle`, medians of `runs`: its own modules
    (compiled and run), and the standard library's that a bare Python does not import."""
    bare = set(import_times([python, "-I", "-S", "-c", "pass"], ""))
    ours, stdlib = [], []
    for _ in range(runs):
        times = import_times([python, "-I", "-S", str(bundle)], puzzle.read_text())
        ours.append({name: t for name, t in times.items() if name.split(".")[0] == "bot"})
        stdlib.append(sum(t for name, t in times.items()
                          if name.split(".")[0] != "bot" and name not in bare))
    total = statistics.median(sum(run.values()) for run in ours) * 1000
    names = sorted(set().union(*ours))
    top = sorted(names, key=lambda n: -statistics.median(run.get(n, 0.0) for run in ours))[:3]
    most = ", ".join(f"{n} {statistics.median(run.get(n, 0.0) for run in ours) * 1000:.1f}"
                     for n in top)
    return [f"where it goes on {puzzle.stem} (-X importtime, which adds its own time; "
            f"medians of {runs} runs):",
            f"  the bundle's {max(len(run) for run in ours)} modules, compiled and run: "
            f"{total:.1f} ms (most: {most})",
            f"  the standard-library modules they import: {statistics.median(stdlib) * 1000:.1f} ms"]


def judged_times(argv: list[str], board: Path) -> list[float]:
    """The times of a judged match's lines from its input, as the referee's stamper saw
    them; limits far beyond CodinGame's, so that every gap of the run is seen."""
    limits = Limits(first_line_s=RUN_TIMEOUT_S, turn_s=RUN_TIMEOUT_S)
    result = play_one(load_board(board), argv, limits, board.name, str(board))
    times, at = [], 0.0
    for latency in result.latencies_s:
        at += latency
        times.append(at)
    return times


def gaps(times: list[float]) -> list[float]:
    """Seconds between each line and the one before, from the second line on."""
    return [b - a for a, b in zip(times, times[1:])]


def stress_boards(root: Path = STRESS, max_side: int = MAX_SIDE) -> list[Path]:
    """The stress boards no wider or higher than `max_side`."""
    return [path for folder in sorted(p for p in root.iterdir() if p.is_dir())
            for path in puzzle_files(folder) if _fits(path, max_side)]


def _fits(path: Path, max_side: int) -> bool:
    width, height = path.read_text().split()[:2]
    return int(width) <= max_side and int(height) <= max_side


def slowest(argv: list[str], boards: list[Path], count: int) -> list[tuple[Path, float]]:
    """The `count` boards with the largest gap between lines in one run each, and that gap."""
    found = []
    for board in boards:
        found.append((board, max(gaps(judged_times(argv, board)), default=0.0)))
    return sorted(found, key=lambda pair: -pair[1])[:count]


def under_load(argv: list[str], board: Path, runs: int) -> dict:
    """`runs` runs of `board` with a CPU-busy process beside each: lines, first line, gaps."""
    busy = subprocess.Popen([sys.executable, "-c", BUSY])
    try:
        found = [judged_times(argv, board) for _ in range(runs)]
    finally:
        busy.kill()
        busy.wait()
    all_gaps = [gap for times in found for gap in gaps(times)]
    return {"board": board, "lines": [len(times) for times in found],
            "first": [times[0] for times in found if times], "gaps": all_gaps,
            "over": sum(max(gaps(times), default=0.0) * 1000 > TURN_LIMIT_MS for times in found)}


def load_report(rows: list[dict]) -> list[str]:
    """The pacing table: per board, its lines, first line and gaps in ms; then the worst."""
    out = [f"{'board':<44} {'runs':>4} {'lines':>5} {'first ms':>8} {'max gap ms':>10} "
           f"{'p99 gap ms':>10}"]
    for row in rows:
        top = max(row["gaps"], default=0.0) * 1000
        p99 = percentile(row["gaps"], 99) * 1000 if row["gaps"] else 0.0
        first = max(row["first"], default=0.0) * 1000
        name = str(row["board"].relative_to(STRESS)) if row["board"].is_relative_to(STRESS) \
            else row["board"].name
        out.append(f"{name:<44} {len(row['lines']):4} {min(row['lines'], default=0):5} "
                   f"{first:8.1f} {top:10.1f} {p99:10.1f}")
    worst = max(rows, key=lambda row: max(row["gaps"], default=0.0), default=None)
    if worst is not None:
        top = max(worst["gaps"], default=0.0) * 1000
        p99 = percentile(worst["gaps"], 99) * 1000 if worst["gaps"] else 0.0
        verdict = "within" if top <= TURN_LIMIT_MS else "OVER"
        out.append(f"largest gap: {top:.1f} ms (p99 {p99:.1f} ms) on {worst['board'].name}, "
                   f"{verdict} CodinGame's {TURN_LIMIT_MS} ms")
        runs = sum(len(row["lines"]) for row in rows)
        out.append(f"runs with a gap over {TURN_LIMIT_MS} ms: "
                   f"{sum(row.get('over', 0) for row in rows)} of {runs}")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m referee.lab.bench.startup",
                                     description=__doc__.splitlines()[0], allow_abbrev=False)
    parser.add_argument("--python", default=os.path.realpath(sys.executable),
                        help="the interpreter for both sides (default: this one's binary)")
    parser.add_argument("--bundle", type=Path, default=BUNDLE, help="default: dist/bot.py")
    parser.add_argument("--rounds", type=int, default=15, metavar="N",
                        help="start-up pairs per public test, 0 for none (default: 15)")
    parser.add_argument("--boards", type=int, default=3, metavar="K",
                        help="stress boards run under load, those with the largest gap, 0 for none "
                        "(default: 3)")
    parser.add_argument("--runs", type=int, default=10, metavar="N",
                        help="runs of each of those boards under load (default: 10)")
    parser.add_argument("--stress", type=Path, default=STRESS, metavar="DIR",
                        help="where the stress boards are (default: puzzles/stress)")
    args = parser.parse_args(argv)
    if min(args.rounds, args.boards) < 0 or args.runs < 1:
        parser.error("--rounds and --boards must be at least 0, --runs at least 1")
    bundle = [args.python, "-I", "-S", str(args.bundle)]
    if args.rounds:
        print(f"start-up: {_shown(args.bundle)} to its first line against `"
              f"{Path(args.python).name} -I -S -c pass` (Python {_version(args.python)}), "
              f"{args.rounds} interleaved pairs a public test; medians", flush=True)
        rows = startup(args.python, args.bundle, puzzle_files(PUBLIC), args.rounds)
        print("\n".join(startup_report(rows)), flush=True)
        print("\n".join(where_it_goes(args.python, args.bundle, PUBLIC / "13_expert.txt",
                                     args.rounds)), flush=True)
    if args.boards:
        print("\n".join(pacing(bundle, args.stress, args.boards, args.runs)))
    return 0


def _shown(path: Path) -> str:
    """`path` relative to the project where it is inside it."""
    path = path.resolve()
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def _version(python: str) -> str:
    """The version `python` reports, as 3.11.7."""
    run = subprocess.run([python, "-I", "-S", "-c", "import sys; print(sys.version.split()[0])"],
                         capture_output=True, text=True, timeout=RUN_TIMEOUT_S)
    return run.stdout.strip() or "?"


def pacing(bundle: list[str], stress: Path, count: int, runs: int) -> list[str]:
    """The pacing part of the report: the boards picked, then their runs under load."""
    boards = stress_boards(stress)
    print(f"\npacing under load: the largest gap of one run on each of {len(boards)} stress "
          f"boards up to {MAX_SIDE}x{MAX_SIDE}; the {count} largest, {runs} runs each beside a "
          f"CPU-busy process", flush=True)
    picked = slowest(bundle, boards, count)
    return load_report([under_load(bundle, board, runs) for board, _ in picked])


if __name__ == "__main__":
    sys.exit(main())
