"""How well `hunt` finds bugs first: the tests' hostile bots hunted as a player would, and
each reported board replayed with the command the hunt printed. Figures to watch, not a
test (the machine's load moves them).

    python -m referee.lab.hunt.bench [--seeds 1-5] [--time 45] [--long 180] [--out DIR]
                                                                        (make hunt-bench)

tests/fakebots/slow_and_wrong.py sleeps past the first line's limit on a board of more
than 40 islands, and prints a crossing link on many smaller ones. For each of --seeds it
is hunted for --time seconds: the crossing must be reported shrunk to at most 15 islands.
Once more, seed 1 for --long seconds: the timeout must be reported too (it counts only
when the judge puts the lateness down to the bot: on a machine busy with other work it
may count nowhere, and the row says how many boards were left undecided).
tests/fakebots/eight_bug.py prints a third link on any board with an 8: hunted until its
first loss is shrunk, to at most 9 islands (5 is the least an 8 needs) within 120 s.

Every board a hunt reports is played again REPLAYS times with the command it printed,
beside a process that keeps a CPU busy: it must lose the same way at least twice. A row
per way to lose: when it was found, the islands before and after the shrink, the
shrink's seconds and bot runs, how the hunt's own replays went, and the printed
command's; then the medians and the worst case of the first case.

Exit status: 0 every mark met, 1 one was not, 2 usage error.
"""

from __future__ import annotations

import argparse
import re
import shlex
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, replace
from pathlib import Path

from referee.cli.args import integer, number, output_path, seed_list, spoon2_words
from referee.home import ROOT

REPLAYS = 3             # the printed command, played this many times
REPLAYS_LOST = 2        # ... and lost the same way at least this often
SLOW_AND_WRONG = "tests/fakebots/slow_and_wrong.py"
EIGHT_BUG = "tests/fakebots/eight_bug.py"
BUSY = "while True: pass"
LOSS = re.compile(r"^LOSS (\w+): found on board \S+ \((\d+) islands\) after ([\d.]+) s", re.M)
SHRUNK = re.compile(r"^shrunk to (\d+) islands on \S+ in ([\d.]+) s and (\d+) bot runs", re.M)
HUNT_REPLAYS = re.compile(r"^replayed \d+ times: lost (\d+) of (\d+)", re.M)
REPLAY = re.compile(r"^  replay: (.*)$", re.M)
UNDECIDED = re.compile(r"^boards undecided: (\d+)", re.M)
HEAD = ("bot", "seed", "s", "way to lose", "found s", "islands", "shrink s", "runs",
        "hunt replays", "printed replays", "mark")


@dataclass(frozen=True)
class Reported:
    """One way to lose as a hunt printed it, and how its printed command replayed."""

    verdict: str
    found_s: float
    before: int
    after: int
    shrink_s: float
    runs: int
    hunt_lost: str       # "k/n": the hunt's own replays
    command: str
    replayed_lost: int = 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m referee.lab.hunt.bench",
                                     description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=seed_list, default=(1, 2, 3, 4, 5), metavar="LIST",
                        help="the hunts of the first case (default: 1-5)")
    parser.add_argument("--time", type=number(low=0.0, low_open=True), default=45.0,
                        metavar="SECONDS", help="each of those hunts (default: %(default)g)")
    parser.add_argument("--long", type=number(low=0.0, low_open=True), default=180.0,
                        metavar="SECONDS", help="the hunt that must find the timeout too "
                        "(default: %(default)g)")
    parser.add_argument("--jobs", type=integer(1), default=1, metavar="N",
                        help="each hunt's --jobs (default: 1)")
    parser.add_argument("--out", type=output_path, default="out/hunt-bench", metavar="DIR",
                        help="where the hunts write (default: out/hunt-bench)")
    args = parser.parse_args(argv)
    rows, found = [HEAD], []
    met = True
    for seed in args.seeds:
        reported, ok = case(args, SLOW_AND_WRONG, seed, args.time, {"crossing": 15}, rows)
        found += [r for r in reported if r.verdict == "crossing"]
        met = met and ok
    for script, seconds, marks, extra in (
            (SLOW_AND_WRONG, args.long, {"crossing": 15, "timeout": 30 * 30}, ()),
            (EIGHT_BUG, 120.0, {"third_link": 9}, ("--losses", "1"))):
        _, ok = case(args, script, 1, seconds, marks, rows, extra)
        met = met and ok
    print(table(rows))
    print(figures(found, len(args.seeds), args.time))
    return 0 if met else 1


def case(args: argparse.Namespace, script: str, seed: int, seconds: float,
         marks: dict[str, int], rows: list, extra: tuple[str, ...] = ()) -> tuple[list, bool]:
    """One hunt and the replays of what it reported: its rows, and whether every way to
    lose of `marks` was reported with at most that many islands, each replayed as it lost."""
    out = Path(args.out) / f"{Path(script).stem}-{seed}-{seconds:g}s"
    bot = f"{script} bot/"   # the bot imports the checkout's solver: a box shows it only what it names
    argv = [sys.executable, "-m", "referee", "hunt", "--bot", bot, "--seed", str(seed),
            "--time", f"{seconds:g}", "--jobs", str(args.jobs), "--out", str(out), *extra]
    start = time.monotonic()
    done = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True)
    wall = time.monotonic() - start
    reported = [replayed(r) for r in parse(done.stdout)]
    by_verdict = {r.verdict: r for r in reported}
    small = all(verdict in by_verdict and by_verdict[verdict].after <= most
                for verdict, most in marks.items())
    met = done.returncode == 1 and small and all(r.replayed_lost >= REPLAYS_LOST
                                                 for r in reported)
    name = Path(script).stem
    for r in reported:
        rows.append((name, str(seed), f"{seconds:g}", r.verdict, f"{r.found_s:.1f}",
                     f"{r.before} -> {r.after}", f"{r.shrink_s:.1f}", str(r.runs), r.hunt_lost,
                     f"{r.replayed_lost}/{REPLAYS}", ""))
    missing = [v for v in marks if v not in by_verdict]
    undecided = UNDECIDED.search(done.stdout)
    note = f"; {undecided.group(1)} undecided" if undecided else ""
    status = "met" if met else ("missed: no " + ", ".join(missing) if missing else "missed")
    rows.append((name, str(seed), f"{seconds:g}", "(the hunt)", "", "", "", "", "", "",
                 f"{status} (wall {wall:.0f} s{note})"))
    if done.returncode not in (0, 1):
        print(done.stderr, file=sys.stderr)
    return reported, met


def parse(stdout: str) -> list[Reported]:
    """The ways to lose a hunt printed, each with its replay command."""
    found = []
    blocks = stdout.split("\nLOSS ")
    for block in ["LOSS " + b if k else b for k, b in enumerate(blocks)]:
        loss, shrunk = LOSS.search(block), SHRUNK.search(block)
        lost, replay = HUNT_REPLAYS.search(block), REPLAY.search(block)
        if not (loss and shrunk and lost and replay):
            continue
        found.append(Reported(loss.group(1), float(loss.group(3)), int(loss.group(2)),
                              int(shrunk.group(1)), float(shrunk.group(2)), int(shrunk.group(3)),
                              f"{lost.group(1)}/{lost.group(2)}", replay.group(1)))
    return found


def replayed(reported: Reported) -> Reported:
    """The printed command played REPLAYS times beside a busy process: how often it lost
    the same way."""
    words = shlex.split(reported.command)
    start = spoon2_words()
    if words[:len(start)] == start:   # this Python runs it, as the hunt ran
        words = [sys.executable, "-m", "referee", *words[len(start):]]
    busy = subprocess.Popen([sys.executable, "-c", BUSY])
    try:
        lost = 0
        for _ in range(REPLAYS):
            done = subprocess.run([*words, "--quiet"], cwd=ROOT, capture_output=True, text=True)
            lost += done.stdout.startswith(f"LOST {reported.verdict}:")
    finally:
        busy.kill()
        busy.wait()
    return replace(reported, replayed_lost=lost)


def figures(found: list[Reported], seeds: int, seconds: float) -> str:
    """The first case's medians and worst case."""
    if not found:
        return f"crossing reported in 0 of {seeds} hunts of {seconds:g} s"
    after = [r.after for r in found]
    when = [r.found_s for r in found]
    return (f"crossing reported in {len(found)} of {seeds} hunts of {seconds:g} s: shrunk to "
            f"{statistics.median(after):g} islands median (max {max(after)}), found after "
            f"{statistics.median(when):.1f} s median (max {max(when):.1f})")


def table(rows: list[tuple[str, ...]]) -> str:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(f"{cell:<{w}}" for cell, w in zip(row, widths)).rstrip()
                     for row in rows)


if __name__ == "__main__":
    sys.exit(main())
