"""Set two recorded runs side by side: per puzzle and overall, the second's time over the first's.

  spoon2 compare 3 7        run 7 against run 3 (ids from `spoon2 history`)

The runs are paired puzzle by puzzle (same name and file), on the puzzles both won. For
each: the wall time from the input to the last line, and the bot's CPU time, in both runs
and as a ratio (second/first). Overall: the geometric mean of the puzzles' ratios with a
95% bootstrap interval over the puzzles (seeded by --seed: the same runs print the same
interval), and `no difference` when the interval holds 1. The interval knows only the
spread between puzzles, not a whole run slowed alike: a warning says when the two runs
saw different machine load, or either saw a busy one (/proc/loadavg per CPU and
/proc/pressure/cpu, at its start and end), or they ran under different containment, box
or memory modes, whose figures do not compare.

Exit status: 0 compared, 1 no puzzle won in both runs, 2 usage error (an id not in the
history, no database or a damaged one).
"""

from __future__ import annotations

import argparse

from referee.bootstrap import SEED, paired_ratio
from referee.commands.args import integer, output_path
from referee.commands.history import open_runs
from referee.history.machine import busiest, busy, load_differs, load_text
from referee.history.store import Run
from referee.terminal import safe

MODES = ("containment", "box", "memory_mode")


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("first", type=integer(low=1), metavar="ID", help="the run to compare with")
    parser.add_argument("second", type=integer(low=1), metavar="ID", help="the run compared")
    parser.add_argument("--db", type=output_path, metavar="PATH",
                        help="the history database (default: as `run` records)")
    parser.add_argument("--seed", type=integer(low=0), default=SEED, metavar="N",
                        help="the bootstrap's seed (default: %(default)s)")


def execute(args: argparse.Namespace) -> int:
    first, second = open_runs(args.db, [args.first, args.second])
    print(f"compare run {second.id} with run {first.id} (ratios: run {second.id} / run {first.id})")
    for run in (first, second):
        print(f"  run {run.id}: {safe(run.bot)}  version {run.bot_hash}  {run.started}  "
              f"{run.containment}  {load_text(busiest([run.load_start, run.load_end]))}")
    pairs = paired(first, second)
    if not pairs:
        print("no puzzle won in both runs: nothing to compare")
        return 1
    print("\n".join(pair_table(pairs, first.id, second.id)))
    left = len({m.puzzle for m in first.matches} | {m.puzzle for m in second.matches}) - len(pairs)
    if left:
        print(f"({left} puzzle(s) not won in both runs left out)")
    wall = paired_ratio([(a["wall"], b["wall"]) for _, a, b in pairs], seed=args.seed)
    cpu = paired_ratio([(a["cpu"], b["cpu"]) for _, a, b in pairs
                        if a["cpu"] is not None and b["cpu"] is not None], seed=args.seed)
    print(f"wall, input to last line: {wall.text() if wall else '-'}")
    print(f"CPU:                      {cpu.text() if cpu else '-'}")
    for warning in warnings(first, second):
        print(f"warning: {warning}")
    return 0


def paired(first: Run, second: Run) -> list[tuple[str, dict, dict]]:
    """(puzzle, first's figures, second's) for each puzzle both runs won, in first's order."""
    def figures(run: Run) -> dict:
        return {(m.puzzle, m.path): {"wall": sum(m.latencies_ms), "cpu": m.cpu_ms}
                for m in run.matches if m.won and m.latencies_ms}
    a, b = figures(first), figures(second)
    return [(key[0], a[key], b[key]) for key in a if key in b]


def pair_table(pairs, first_id: int, second_id: int) -> list[str]:
    width = max(len("puzzle"), *(len(safe(p)) for p, _, _ in pairs))
    rows = [f"{'puzzle':<{width}}  {f'wall {first_id}':>9} {f'wall {second_id}':>9} {'ratio':>6}"
            f"  {f'cpu {first_id}':>9} {f'cpu {second_id}':>9} {'ratio':>6}"]
    for puzzle, a, b in pairs:
        rows.append(f"{safe(puzzle):<{width}}  {a['wall']:>9.1f} {b['wall']:>9.1f} "
                    f"{_x(a['wall'], b['wall']):>6}  {_ms(a['cpu']):>9} {_ms(b['cpu']):>9} "
                    f"{_x(a['cpu'], b['cpu']):>6}")
    return rows


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


def _x(old: float | None, new: float | None) -> str:
    return f"x{new / old:.2f}" if old and new is not None else "-"


def warnings(first: Run, second: Run) -> list[str]:
    """What keeps the two runs' figures from comparing: load, modes, limits."""
    said = []
    a, b = busiest([first.load_start, first.load_end]), busiest([second.load_start, second.load_end])
    if load_differs(a, b):
        said.append(f"the runs saw different machine load (run {first.id}: {load_text(a)}; "
                    f"run {second.id}: {load_text(b)}): the ratio may be the machine's")
    for run, figures in ((first, a), (second, b)):
        if busy(figures):
            said.append(f"run {run.id} ran on a busy machine ({load_text(figures)}): its wall "
                        "times hold waits for a CPU that the interval cannot see; the CPU "
                        "ratio is the steadier one")
    for mode in MODES:
        if getattr(first, mode) != getattr(second, mode):
            said.append(f"run {first.id} ran with {mode} {getattr(first, mode)}, run {second.id} "
                        f"with {getattr(second, mode)}: figures from different modes do not compare")
    return said
