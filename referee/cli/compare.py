"""Set recorded runs side by side: per puzzle and overall, the second side's time over the first's.

  spoon2 compare 3 7            run 7 against run 3 (ids from `spoon2 history`)
  spoon2 compare 3,4,5 7,8,9    three runs a side: the interval then holds run-to-run noise

The runs are paired puzzle by puzzle (same name and file), on the puzzles every run won.
For each: the wall time from the input to the last line, and the bot's CPU time, on each
side (the median of its runs) and as a ratio (second/first). Overall: the geometric mean of
the puzzles' ratios with a 95% bootstrap interval (seeded by --seed: the same runs print
the same interval), and `no difference` when the interval holds 1. The bootstrap draws the
puzzles and, with several runs a side, the runs: with one run a side it cannot see a whole
run slowed alike (a busy machine, a cold cache), and a note says so. A warning says when
the sides saw different machine load, or a run saw a busy one (/proc/loadavg per CPU and
/proc/pressure/cpu, at its start and end), or the runs ran in different modes (the
containment, the box, how memory was counted, the memory and CPU caps), whose figures do
not compare. Each run is shown with its bot, its version and the version's name (`run
--label`), and whether it was stopped early.

Exit status: 0 compared, 1 no puzzle won in every run, 2 usage error (an id not in the
history, no database or a damaged one).
"""

from __future__ import annotations

import argparse
import statistics

from referee.history.bootstrap import SEED, grouped_ratio
from referee.cli.args import integer, output_path
from referee.cli.history import open_runs
from referee.history.machine import busiest, busy, load_differs, load_text
from referee.history.store import Run
from referee.history.summary import mode_text, played, version_name
from referee.terminal import safe

UNKNOWN_WHEN_NONE = ("memory_cap_mb",)   # None: not recorded, so no difference to warn of
FIGURES = ("wall", "cpu")


def id_list(text: str) -> list[int]:
    """An argparse type: a run id, or several joined by commas (3,4,5)."""
    one = integer(low=1)
    ids = [one(part) for part in text.split(",")]
    if len(set(ids)) != len(ids):
        raise argparse.ArgumentTypeError(f"a run named twice in {text!r}")
    return ids


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("first", type=id_list, metavar="ID[,ID...]",
                        help="the run (or runs) to compare with")
    parser.add_argument("second", type=id_list, metavar="ID[,ID...]",
                        help="the run (or runs) compared")
    parser.add_argument("--db", type=output_path, metavar="PATH",
                        help="the history database (default: as `run` records)")
    parser.add_argument("--seed", type=integer(low=0), default=SEED, metavar="N",
                        help="the bootstrap's seed (default: %(default)s)")


def execute(args: argparse.Namespace) -> int:
    runs = open_runs(args.db, args.first + args.second)
    first, second = runs[:len(args.first)], runs[len(args.first):]
    a, b = _said(args.first), _said(args.second)
    print(f"compare {b}{_names(second)} with {a}{_names(first)} (ratios: {b} / {a})")
    for run in runs:
        print(f"  run {run.id}: {safe(run.bot)}  version {run.bot_hash}{_named(run)}  "
              f"{run.started}  {mode_text(run.setup)}  "
              f"{load_text(busiest([run.load_start, run.load_end]))}{_stopped(run)}")
    sides = [[figures(run) for run in side] for side in (first, second)]
    puzzles = [key for key in sides[0][0] if all(key in run for side in sides for run in side)]
    if not puzzles:
        print("no puzzle won in every run: nothing to compare")
        return 1
    print("\n".join(pair_table(puzzles, sides, a, b)))
    left = len({key for side in sides for run in side for key in run}) - len(puzzles)
    if left:
        print(f"({left} puzzle(s) not won in every run left out)")
    for figure, title in (("wall", "wall, input to last line"), ("cpu", "CPU")):
        ratio = grouped_ratio(*[[{k: run[k][figure] for k in puzzles} for run in side]
                                for side in sides], seed=args.seed)
        print(f"{title + ':':<26}{ratio.text() if ratio else '-'}")
    if len(first) == 1 or len(second) == 1:
        print("note: one run a side: the interval holds the spread between puzzles, not a "
              "whole run slowed alike; give several runs a side (ID,ID,...) to include it")
    for warning in warnings(first, second):
        print(f"warning: {warning}")
    return 0


def _said(ids: list[int]) -> str:
    return f"run {ids[0]}" if len(ids) == 1 else f"runs {','.join(map(str, ids))}"


def _names(side: list[Run]) -> str:
    """' (fast)': the names of a side's versions, each once; '' when none was named."""
    names = version_name(side)
    return f" ({safe(names)})" if names else ""


def _named(run: Run) -> str:
    return f" {safe(run.label)}" if run.label else ""


def _stopped(run: Run) -> str:
    return f"  ({played(run)})" if run.stopped else ""


def figures(run: Run) -> dict:
    """{(puzzle, path): {"wall": ms input to last line, "cpu": ms}} of the puzzles it won."""
    return {(m.puzzle, m.path): {"wall": sum(m.latencies_ms), "cpu": m.cpu_ms}
            for m in run.matches if m.won and m.latencies_ms}


def pair_table(puzzles, sides, a: str, b: str) -> list[str]:
    """A row per puzzle: each side's median wall and CPU ms and their ratios."""
    width = max(len("puzzle"), *(len(safe(key[0])) for key in puzzles))
    head = [f"wall {a}", f"wall {b}", "ratio", f"cpu {a}", f"cpu {b}", "ratio"]
    cells = [[safe(key[0])] + [cell for figure in FIGURES for cell in _cells(sides, key, figure)]
             for key in puzzles]
    widths = [max(len(h), *(len(row[k + 1]) for row in cells)) for k, h in enumerate(head)]
    rows = [f"{'puzzle':<{width}}  " + " ".join(h.rjust(w) for h, w in zip(head, widths))]
    rows += [f"{row[0]:<{width}}  " + " ".join(c.rjust(w) for c, w in zip(row[1:], widths))
             for row in cells]
    return rows


def _cells(sides, key, figure: str) -> list[str]:
    values = [[run[key][figure] for run in side] for side in sides]
    if any(v is None for side in values for v in side):
        return ["-", "-", "-"]
    old, new = (statistics.median(side) for side in values)
    return [f"{old:.1f}", f"{new:.1f}", f"x{new / old:.2f}" if old else "-"]


def warnings(first: list[Run], second: list[Run]) -> list[str]:
    """What keeps the runs' figures from comparing: load, modes."""
    said = []
    a = busiest([s for run in first for s in (run.load_start, run.load_end)])
    b = busiest([s for run in second for s in (run.load_start, run.load_end)])
    if load_differs(a, b):
        said.append(f"the two sides saw different machine load ({_said([r.id for r in first])}: "
                    f"{load_text(a)}; {_said([r.id for r in second])}: {load_text(b)}): "
                    "the ratio may be the machine's")
    loaded = [(run.id, busiest([run.load_start, run.load_end])) for run in first + second]
    loaded = [(run_id, figures_) for run_id, figures_ in loaded if busy(figures_)]
    if loaded:
        said.append(f"a busy machine during {_said([i for i, _ in loaded])} ("
                    + "; ".join(f"{i}: {load_text(f)}" for i, f in loaded)
                    + "): times there hold waits for a CPU and a shared cache; "
                    "the CPU ratio is the steadier one")
    modes = [run.setup.mode() for run in first + second]
    for key in modes[0]:
        seen = {mode[key] for mode in modes} - ({None} if key in UNKNOWN_WHEN_NONE else set())
        if len(seen) > 1:
            said.append(f"the runs ran with {key} {' and '.join(sorted(map(str, seen)))}: "
                        "figures from different modes do not compare")
    return said
