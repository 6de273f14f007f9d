"""`bench --compare OLD.json`: the earlier run's file checked before any solving, then the
new/old ratios of time, puzzle by puzzle and per suite, each suite's with a bootstrap
interval over its puzzles (`no difference` when it holds 1), and a warning when the two
runs saw different or heavy machine load."""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path

from bot.options import DEFAULT

BOTS_SEED = DEFAULT.seed
from referee.history.bootstrap import paired_ratio
from referee.cli import UsageError
from referee.history.machine import busiest, busy, load_differs, load_text
from referee.lab.alarm import CLOCK_SAID, CLOCKS
from referee.terminal import safe
from referee.units import ms

SUITE_FIGURES = ("median", "p90", "p99", "max", "sum")   # the suite's times --compare reads


def compare(old: dict, suites: dict[str, dict], runs: list, machine: dict | None = None) -> None:
    """Print new/old ratios of time, puzzle by puzzle and per suite; per suite, the
    puzzles' geometric mean ratio with its interval; warnings on the machine's load."""
    old_puzzles, old_suites = old.get("puzzles", {}), old.get("suites", {})
    print("compare (new/old, below 1.0 is faster now):")
    common = [r for r in runs if r.key in old_puzzles]
    for r in sorted(common, key=lambda r: r.key):
        before = old_puzzles[r.key]["seconds"]
        print(f"  {safe(r.key)}: {ms(before)} -> {ms(r.seconds)} ms  x{_ratio(r.seconds, before)}")
    for name, s in suites.items():
        if name in old_suites:
            o = old_suites[name]
            print(f"  suite {safe(name)}: " + "  ".join(
                f"{k} x{_ratio(s[k], o[k])}" for k in SUITE_FIGURES if k in o)
                + f"  solved {o['solved']}/{o['total']} -> {s['solved']}/{s['total']}"
                + safe(_bundle_change(o.get("bundle"), s.get("bundle"))))
            ratio = paired_ratio([(old_puzzles[r.key]["seconds"], r.seconds)
                                  for r in common if r.suite == name])
            if ratio is not None:
                print(f"    per puzzle, geometric mean: {ratio.text()}")
    missing = len(runs) - len(common)
    if missing:
        print(f"  ({missing} puzzle(s) not in the old run)")
    for warning in load_warnings(old.get("machine"), machine):
        print(f"  warning: {warning}")


def load_warnings(old: dict | None, new: dict | None) -> list[str]:
    """What the machine's load says of the ratios: different load in the two runs, or
    a busy machine in either (a --json file from before the load was kept says nothing)."""
    if not all(isinstance(run, dict) and all(isinstance(v, dict) for v in run.values())
               for run in (old, new)):
        return []
    then, now = busiest(list(old.values())), busiest(list(new.values()))
    said = []
    if load_differs(then, now):
        said.append(f"the runs saw different machine load (old: {load_text(then)}; new: "
                    f"{load_text(now)}): the ratios may be the machine's")
    loaded = [(which, figures) for which, figures in (("old", then), ("new", now)) if busy(figures)]
    if loaded:
        said.append(f"a busy machine during the {' and '.join(w for w, _ in loaded)} run"
                    f"{'s' if len(loaded) > 1 else ''} ("
                    + "; ".join(f"{w}: {load_text(f)}" for w, f in loaded)
                    + "): times there hold waits for a CPU (--clock cpu leaves them out)")
    return said


def read_compared(path: str, args: argparse.Namespace) -> dict:
    """The --compare file, checked before any solving: a bench --json file, with figures
    where `compare` reads them, that timed what this run times."""
    try:
        old = json.loads(Path(path).read_text())
    except OSError as error:
        raise UsageError(f"--compare {path}: {error.strerror or error}") from None
    except ValueError as error:   # a CSV, a run --html page...
        raise UsageError(f"--compare {path}: not a bench --json file (not JSON: {error})") from None
    wrong = _not_bench_json(old)
    if wrong:
        raise UsageError(f"--compare {path}: not a bench --json file ({wrong})")
    if old.get("count", 0) != args.count:
        raise UsageError(f"--compare {path}: it timed {timed_call(old.get('count', 0))}, "
                         f"this run times {timed_call(args.count)}")
    clock = old.get("clock", "wall")
    if clock != args.clock:
        raise UsageError(f"--compare {path}: it timed solves by {CLOCK_SAID[clock]}, "
                         f"this run by {CLOCK_SAID[args.clock]}")
    then, now = _seeds_of(old.get("seed")), args.seed or (None,)
    if _as_solved(then) != _as_solved(now):   # a slow board's time is largely its seed's draw
        raise UsageError(f"--compare {path}: it solved at {_seeds_said(then)}, "
                         f"this run at {_seeds_said(now)}")
    return old


def _not_bench_json(old) -> str:
    """What keeps `old` from being a bench --json file `compare` can read ('' if nothing).
    Older versions of the file are read too: they lack some keys, never change one."""
    if not isinstance(old, dict):
        return "not a JSON object"
    puzzles, suites = old.get("puzzles"), old.get("suites")
    if not isinstance(puzzles, dict) or not isinstance(suites, dict):
        return "no puzzles and suites"
    if not _count(old.get("count", 0)):
        return "its count is not a number"
    if old.get("clock", "wall") not in tuple(CLOCKS):   # (a list in it is no key)
        return "its clock is neither wall nor cpu"
    if _seeds_of(old.get("seed")) is None:
        return "its seed is not a seed or a list of them"
    for key, run in puzzles.items():
        if not isinstance(run, dict) or not _figure_ok(run.get("seconds")):
            return f"puzzle {key[:80]!r} has no seconds"
    for name, suite in suites.items():
        if not isinstance(suite, dict) or not (_count(suite.get("solved"))
                                               and _count(suite.get("total"))):
            return f"suite {name[:80]!r} has no solved and total"
        if not all(_figure_ok(suite[k]) for k in SUITE_FIGURES if k in suite):
            return f"suite {name[:80]!r} has a time that is not a number"
        match = suite.get("bundle")   # absent, None, or a match with its last line
        if match is not None and not (isinstance(match, dict)
                                      and _figure_ok(match.get("last_line"), optional=True)):
            return f"suite {name[:80]!r} has a bundle match without its figures"
    return ""


def _count(value) -> bool:
    return type(value) is int and value >= 0


def _figure_ok(value, optional: bool = False) -> bool:
    """A finite number of seconds (or None when `optional`); JSON's true is no number."""
    if value is None:
        return optional
    return type(value) in (int, float) and math.isfinite(value)


def _seeds_of(seed) -> tuple | None:
    """The seeds a file's `seed` names ((None,): the bot's own), None if it names none."""
    listed = seed if isinstance(seed, list) else [seed]
    if seed is None or (listed and all(_count(n) for n in listed)):
        return tuple(listed)
    return None


def _as_solved(seeds: tuple) -> set:
    """The seeds the solves were drawn from: the bot's own (None) is its SEED, so a run
    without --seed compares with one at --seed 1."""
    return {BOTS_SEED if seed is None else seed for seed in seeds}


def _seeds_said(seeds: tuple) -> str:
    """'the bot's own seed', 'seed 3' or 'seeds 1-8,11'."""
    if seeds == (None,):
        return "the bot's own seed"
    spans = []   # [first, last] of each run of consecutive seeds
    for n in seeds:
        if spans and n == spans[-1][1] + 1:
            spans[-1][1] = n
        else:
            spans.append([n, n])
    text = ",".join(f"{a}-{b}" if b > a else f"{a}" for a, b in spans)
    return f"seed{'s' if len(seeds) > 1 else ''} {text}"


def timed_call(count: int) -> str:
    return f"bot.count_solutions(limit={count})" if count else "bot.solve"


def _ratio(new: float, old: float) -> str:
    return f"{new / old:.2f}" if old > 0 else "inf"


def _bundle_change(old: dict | None, new: dict | None) -> str:
    """'  bundle won -> lost', with the last line's ratio when both played the same puzzle
    to a last line; '' unless both runs played a match (older files have none)."""
    if not old or not new:
        return ""
    text = "  bundle " + " -> ".join("won" if m.get("won") else "lost" for m in (old, new))
    if old.get("puzzle") == new["puzzle"] and old.get("last_line") and new["last_line"]:
        text += f", last line x{_ratio(new['last_line'], old['last_line'])}"
    return text
