"""Benchmark the bot's solver in-process, per suite, and the bundle's start-up time.

A suite is a directory of puzzles (.txt or SDK .json files), the puzzle files named on the
command line (one suite, "files"), or a generated set: --gen SPEC, where SPEC is
    WxH[:easy|medium|hard][:unique][:key=value...]     keys: count, seed, density,
                                                       join, double, attempts, work, repairs
e.g. --gen 30x30:hard:unique:count=50:seed=1 (the same set `spoon2 gen` would write
with those flags; generated in memory). Without puzzles or --gen: puzzles/public. A suite
is named by its folder, and by as many parent folders as tell two folders of one name
apart (s3/research, s4/research); a folder, file or spec given twice, or two specs that
make the same boards, is refused.

Each puzzle is solved --repeat times with bot.solve (time.perf_counter; the median
counts) and the answer is judged by referee.judge.rules: a wrong answer, an exception or a
solve over --timeout seconds counts as not solved. Prints, per suite: solved/total,
median, p90, p99 and max time and the slowest puzzle; the solver's counters (rounds,
assumptions, eliminations, dead ends, nogoods, branches, depth: mean and max a puzzle) and
how many solves went to each stage; then one table of time by node count over all
puzzles; then the bundle (`python dist/bot.py` with this Python): its time to its first
output line on a two-island puzzle (median of --startup-runs) against a bare
`python -c pass` with its stdin closed (the bundle's first word if that names a Python,
else this Python; each runs contained as a bot does, stopped --timeout seconds after its
start), and one match through the referee on the slowest puzzle of each suite under
CodinGame's limits (first line within 1 s of the input, each later line within 100 ms of
the one before; stopped --timeout seconds after the input): won or lost and why, the
first line's time, the longest gap between two lines, the last line's time and the
number of lines. Whatever the bundle starts dies with it. --startup-runs 0 skips the
bundle altogether.

Time limits speak: a figure over half of CodinGame's limit (1000 ms for an in-process
solve and the bundle's first line, 100 ms for a gap between its lines) is marked `!`,
over the limit `!!`. A figure over the 1000 ms limit, or a match the bundle lost, fails
the bench with a line naming the puzzle and the figure or the reason; a match won
passes however late its last line came.

--json FILE writes every figure (per puzzle and per suite, the bundle's match in its
suite's `bundle`, and the lines over the limit); --compare OLD.json prints new/old time
ratios puzzle by puzzle and per suite, with the bundle's match when both runs have one
(below 1.0 is faster now); per suite, the geometric mean of its puzzles' ratios with a
95% bootstrap interval over them (seeded), `no difference` when the interval holds 1, and
a warning when the machine's load (kept in the JSON's `machine`) differed between the
runs or was heavy in either. It takes only a bench --json file made the same way: timing
the same call (--count), by the same --clock, at the same seeds (--seed: a slow board's
time is largely its seed's draw; none given is the bot's own, `Options.seed` in bot/options.py); any
other is refused before any solving.

--jobs N measures N puzzles at a time in worker processes, --dask ADDRESS on a
dask.distributed cluster (the optional `lab` extra): faster through a large set, but
puzzles timed side by side share the machine, so compare only runs made the same way.

--seed N passes N to bot.solve as the seed of its restarts (default: the bot's own, which
gives a puzzle the same answer every time). A slow board's time is largely that seed's
draw: bench a few seeds to see the spread before believing a change made a board faster.
--seed 1-8 (or a list, 1,3,5) solves each puzzle once per seed, named PUZZLE@SEED, and the
figures pool every (puzzle, seed) pair. The bundle's matches keep the bundle's own seed,
as on CodinGame.

--clock cpu times each solve by the CPU time of the solving thread, and --timeout is then
CPU seconds too (an ITIMER_PROF alarm, which counts the process's time: a solve whose
thread's time is over --timeout counts as over it, rung or not; the bundle's matches keep
the wall clock, as CodinGame does): other work on the machine then neither lengthens a
solve nor turns it into a timeout. Compare two solvers that way; judge against
CodinGame's limits with the default, --clock wall. Each suite also has its `sum`, every
solve's seconds added: with many seeds, the figure a few unlucky draws move least (even
so, two sets of four seeds of the same code can differ by tens of per cent in a stress
suite's sum).

--count N times bot.count_solutions(limit=N) instead of bot.solve: with N = 2, the check
`spoon2 gen --unique` runs on each puzzle it keeps. Every solution the count finds is
judged by the rules, and must differ from the others; a puzzle counts as solved when at
least one was found and all are right. Each suite then says how many puzzles had each
number of solutions found (`solutions found: 2 on 34  1 on 2`). The bundle plays no match
(it never counts), and --compare takes only a file of the same --count.

--peer sat times the SAT peer (referee/lab/peer.py, the `lab` extra) on the same puzzles,
interleaved with the bot, and prints per suite both sides' answered/total, timeouts
(--timeout applies to each solve, and a timeout counts as the limit), median, p99, max
and slowest puzzle, and the peer/bot ratios at the median and the max (see
referee/lab/bench/peers.py). Boards up to 100 cells a side are read (CodinGame stops at 30).

--against DIR times another checkout's bot (DIR: its root, holding bot/) against this
one on the same puzzles: each puzzle solved --repeat times a side, the two sides in turn,
the first swapped every round, each in a Python of its own, started afresh each round
(referee/lab/bench/versus.py). Per puzzle, both medians, the ratio new/old and whether the
solver's counters agree; per suite, each side's median, p99, max and slowest puzzle, and
the puzzles' geometric mean ratio with its bootstrap interval over the rounds and the
puzzles. Two versions timed so see the same machine: use it to judge a change to the
solver on a shared machine.

Progress goes to stderr (a bar on a terminal, plain lines otherwise).

Exit status: 0 every puzzle solved within the limit, 1 some puzzle not solved or a
figure over the limit (with --peer: the bot left a puzzle unanswered or answered it
wrong; the peer's timeouts are figures; with --against: a side left a puzzle unanswered,
answered it wrong, or the two answered it differently), 2 usage error (missing path, bad
--gen spec, a --compare file that cannot be read or is not a bench --json file, a --json
file that cannot be written, a --bundle that cannot start, an --against folder without
bot/).
"""

from __future__ import annotations

import argparse
import json
import math
import signal
import statistics
import sys
import threading
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path

from referee.judge.board import BoardError, load_board, parse_board, puzzle_files
from referee.cli import UsageError
from referee.home import ROOT, in_checkout
import bot
from referee.cli.args import (integer, number, output_path, real_path, refuse_twice,
                                   seed_list, unwritable)
from referee.lab.bench import bundle as lab_bundle, peers, versus
from referee.lab.alarm import CLOCKS, Alarm, NoAlarm, SolveTimeout
from referee.history.machine import load_now
from referee.lab.bench.comparison import compare, read_compared, timed_call
from referee.lab.counters import COUNTERS, counters, stage_name
from referee.lab.gen.sets import generate_named, parse_spec, refuse_same_boards
from referee.lab.figures import percentile
from referee.judge.board import LAB_MAX_SIDE
from referee.lab.gen.walk import solution_text
from referee.lab.workers import add_worker_options, workers_from_args
from referee.judge.limits import FIRST_LINE_LIMIT_S, TURN_LIMIT_S
from referee.report.progress import Progress, SetProgress
from referee.report.tables import MARK_HALF, MARK_OVER, limit_mark
from referee.judge.rules import judge_text
from referee.box.runner import BotStartError
from referee.terminal import safe
from referee.units import ms
from referee.files import write_new

EXIT_OK, EXIT_UNSOLVED = 0, 1  # usage errors exit 2 from the dispatcher
PUBLIC = "puzzles/public"
NODE_BUCKETS = (0, 25, 50, 100, 150, 200, 300, 500)   # lower bounds of the node-count rows
JSON_VERSION = 2   # 2: the bundle's match per suite replaced startup's slowest_first_line


@dataclass
class PuzzleRun:
    """One puzzle's figures: median solve seconds, verdict, counters of the last solve."""

    suite: str
    name: str
    nodes: int
    seconds: float
    solved: bool
    error: str = ""
    stage: str = ""
    counters: dict = field(default_factory=dict)
    tag: str = ""   # "@SEED" when the run benches several seeds
    found: int = -1  # with --count: how many distinct solutions were found (-1: not counted)

    @property
    def key(self) -> str:
        return f"{self.suite}/{self.name}{self.tag}"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("puzzles", nargs="*", metavar="PUZZLE_OR_DIR",
                        help="puzzle files or directories (default: puzzles/public unless --gen)")
    parser.add_argument("--gen", action="append", default=[], metavar="SPEC",
                        help="a generated suite, e.g. 30x30:hard:unique:count=50:seed=1 "
                             "(repeatable; default: none)")
    parser.add_argument("--repeat", type=integer(1), default=3, metavar="K",
                        help="solves per puzzle, the median counts (default: 3)")
    parser.add_argument("--timeout", type=number(low=0.0, high=86_400.0, low_open=True),
                        default=60.0, metavar="S",
                        help="seconds one solve, or the bundle's match, may take before it "
                             "counts as unsolved or lost (default: 60)")
    parser.add_argument("--json", type=output_path, default=None, metavar="FILE",
                        help="write every figure as JSON (default: no file)")
    parser.add_argument("--compare", default=None, metavar="OLD.json",
                        help="print time ratios against an earlier --json run (default: none)")
    parser.add_argument("--seed", type=seed_list, default=None, metavar="N|A-B|LIST",
                        help="the seed of the solver's restarts, passed to bot.solve; a range "
                             "or list solves each puzzle once per seed (default: the bot's own)")
    parser.add_argument("--clock", choices=CLOCKS, default="wall",
                        help="time solves, and --timeout, by the wall clock or by the CPU time "
                             "of the solving thread (default: wall)")
    parser.add_argument("--bundle", default=lab_bundle.DEFAULT_BUNDLE, metavar="CMD",
                        help="the bundled bot whose start-up is timed and which plays each "
                             "suite's slowest puzzle; its first word, if a Python, runs "
                             "`-c pass` for comparison (default: this Python on dist/bot.py)")
    add_worker_options(parser)
    parser.add_argument("--peer", choices=["sat"], default=None,
                        help="also time the SAT peer on each puzzle, interleaved with the bot "
                             "(default: bot only)")
    parser.add_argument("--count", type=integer(1), default=0, metavar="N",
                        help="time bot.count_solutions(limit=N) instead of bot.solve; every "
                             "solution it finds is judged (default: time bot.solve)")
    parser.add_argument("--against", default=None, metavar="DIR",
                        help="time another checkout's bot (DIR holds its bot/) against this "
                             "one, solve for solve in turn, --repeat rounds a side; no "
                             "bundle (default: this bot alone)")
    parser.add_argument("--startup-runs", type=integer(0), default=5, metavar="N",
                        help="start-up measurements, the median counts; 0 skips them and "
                             "the bundle's matches (default: 5)")


# -- loading ----------------------------------------------------------------------------

def load_suites(args: argparse.Namespace, workers=None) -> list[tuple[str, list[tuple[str, str]]]]:
    """[(suite name, [(puzzle name, text)])] from the paths and --gen specs. A suite and a
    puzzle keep one name each in the report and the JSON (`distinct_names`)."""
    suites: list[tuple[str, list[tuple[str, str]]]] = []
    paths = [Path(p) for p in args.puzzles]
    if not paths and not args.gen:
        paths = [in_checkout(PUBLIC, "give PUZZLE files or --gen SPEC")]
    refuse_twice([str(real_path(p)) for p in paths], [str(p) for p in paths])
    try:
        members = [puzzle_files(path) for path in paths]
    except BoardError as error:
        raise UsageError(str(error)) from None
    files = [file for found in members for file in found]   # a file also inside a folder given
    refuse_twice([str(real_path(f)) for f in files], [str(f) for f in files])
    directories = [(p, found) for p, found in zip(paths, members) if p.is_dir()]
    files = [p for p in paths if not p.is_dir()]
    for (_, found), name in zip(directories, distinct_names([p for p, _ in directories])):
        suites.append((name, [(p.stem, _read(p)) for p in found]))
    if files:
        names = distinct_names(files, stems=True)
        suites.append(("files", [(name, _read(path)) for path, name in zip(files, names)]))
    named = [name for name, _ in suites] + args.gen
    refuse_twice(named, named, "suite ")
    try:   # every spec checked before any set is made: a bad one costs no work
        specs = [(text, parse_spec(text)) for text in args.gen]
    except ValueError as error:
        raise UsageError(f"--gen: {error}") from None
    refuse_same_boards(specs)
    for text, spec in specs:
        progress = SetProgress(f"gen {text}", spec.count, spec.max_attempts)
        kept, verdicts = generate_named(
            text, spec, on_attempt=progress.attempt, workers=workers)
        progress.close(f"tried {sum(verdicts.values())}, kept {len(kept)} of {spec.count}")
        if not kept:
            raise UsageError(f"--gen {text}: no puzzle found within the attempts")
        suites.append((text, [(g.name, g.text) for g in kept]))
    return suites


def distinct_names(paths: list[Path], stems: bool = False) -> list[str]:
    """Each path's name (a file's without its suffix when `stems`), lengthened by as many of
    its parent folders as tell it from the others': two folders named research, from two
    seeds of `stress-gen`, become s3/research and s4/research, so neither suite's figures
    are pooled with the other's or overwrite them in the JSON."""
    parts = [real_path(p).parts for p in paths]
    last = [p.stem if stems else p.name for p in paths]
    depth = [1] * len(paths)
    while True:
        names = [str(Path(*parts[i][-depth[i]:-1], last[i])) for i in range(len(paths))]
        shared = {n for n in names if names.count(n) > 1}
        if not shared:
            return names
        for i, n in enumerate(names):
            if n not in shared:
                continue
            if depth[i] < len(parts[i]):
                depth[i] += 1
            else:   # a stem shared in one folder (x.txt, x.json): the suffix tells them apart
                last[i], depth[i] = paths[i].name, 1


def _read(path: Path) -> str:
    """The puzzle text in CodinGame's input format (SDK .json files are converted)."""
    try:
        return load_board(path, max_side=LAB_MAX_SIDE).to_text()
    except BoardError as error:   # its message starts with the file's name
        raise UsageError(str(error)) from None


# -- measuring --------------------------------------------------------------------------

def measure(suite: str, name: str, text: str, repeat: int, timeout: float,
            seed: int | None = None, clock: str = "wall", tag: str = "",
            count: int = 0, solver=bot) -> PuzzleRun:
    """Solve `repeat` times; the median time, the judged answer and the last counters
    (`seed`: the solver's restarts, None for the bot's own; `clock`: a key of CLOCKS;
    `tag`: appended to the puzzle's key; `count`: if not 0, time the count of up to that
    many solutions instead, each found judged; `solver`: what provides `Stats`, `solve`
    and `find_solutions`, the bot unless a test fakes it)."""
    seeded = {} if seed is None else {"seed": seed}
    board = parse_board(text, max_side=LAB_MAX_SIDE)
    times, answer, error, stats = [], None, "", None  # answer: links, or solutions if counted
    now, _, _, unit = CLOCKS[clock]
    # A dask worker solves in a thread, where Python allows no signal handler.
    use_alarm = (hasattr(signal, "setitimer")
                 and threading.current_thread() is threading.main_thread())
    with (Alarm(clock, timeout) if use_alarm else NoAlarm()) as alarm:
        for _ in range(repeat):
            stats = solver.Stats()
            start = now()
            try:
                if count:
                    answer = alarm.call(lambda: solver.find_solutions(
                        text, limit=count, stats=stats, **seeded))
                else:
                    answer = alarm.call(lambda: solver.solve(text, stats=stats, **seeded))
            except SolveTimeout:
                error = f"over {timeout:g} {unit}"
            except Exception as exc:  # any crash of the solver is a result, not our failure
                error = f"{type(exc).__name__}: {exc}"
            times.append(now() - start)
            if not error and times[-1] > timeout:   # no alarm in a thread; CPU timers differ
                error = f"over {timeout:g} {unit}"
            if error:
                break
    solved, found = False, -1
    if not error and count:
        found = len(answer)
        error = _counted_error(board, answer)
        solved = not error
    elif not error:
        outcome = judge_text(board, solution_text(answer))
        solved = outcome.won
        if not solved:
            error = f"wrong answer: {outcome.reason}"
    return PuzzleRun(suite, name, len(board.nodes), statistics.median(times), solved, error,
                     stage_name(stats), counters(stats), tag, found)


def _counted_error(board, solutions: list) -> str:
    """Why the solutions a count found are not a right answer ("" if they are): none
    found, one the rules refuse, or the same solution twice."""
    if not solutions:
        return "no solution found"
    for index, links in enumerate(solutions, 1):
        outcome = judge_text(board, solution_text(links))
        if not outcome.won:
            return f"wrong solution {index} of {len(solutions)}: {outcome.reason}"
    if len({tuple(sorted(links)) for links in solutions}) < len(solutions):
        return "the same solution found twice"
    return ""


def _measure_job(job: tuple) -> PuzzleRun:
    """measure(*job): one task for the workers."""
    return measure(*job)


def bundle_matches(bundle: list[str], suites_in: list, suites: dict[str, dict],
                   timeout: float) -> None:
    """Play the bundle on each suite's slowest puzzle; the figures go in the suite's `bundle`."""
    progress = Progress("bundle", len(suites_in))
    for suite, puzzles in suites_in:
        name = suites[suite]["slowest_board"]
        key = f"{suite}/{name}"
        board = parse_board(dict(puzzles)[name], max_side=LAB_MAX_SIDE)
        try:
            result = lab_bundle.play(board, bundle, timeout, name=key, cwd=str(ROOT))
        except BotStartError as error:
            raise UsageError(f"--bundle: {error}") from None
        suites[suite]["bundle"] = lab_bundle.figures(key, result)
        progress.step(f"{key}: {result.verdict.value}")
    progress.close()


# -- figures ----------------------------------------------------------------------------

def suite_summary(runs: list[PuzzleRun]) -> dict:
    """Solved/total, time percentiles, the slowest puzzle, counters and stages of one suite."""
    times = [r.seconds for r in runs]
    slowest = max(runs, key=lambda r: r.seconds)
    stages: dict[str, int] = {}
    for r in runs:
        stages[r.stage] = stages.get(r.stage, 0) + 1
    return {
        "solved": sum(r.solved for r in runs), "total": len(runs),
        "median": statistics.median(times), "p90": percentile(times, 90),
        "p99": percentile(times, 99), "max": slowest.seconds,
        "slowest": slowest.name + slowest.tag, "slowest_board": slowest.name,
        "sum": math.fsum(times),
        "mean_nodes": statistics.mean(r.nodes for r in runs),
        "counters_mean": {k: statistics.mean(r.counters[k] for r in runs) for k in COUNTERS},
        "counters_max": {k: max(r.counters[k] for r in runs) for k in COUNTERS},
        "stages": stages,
        "found": _found(runs),
    }


def _found(runs: list[PuzzleRun]) -> dict[str, int]:
    """With --count: how many puzzles had each number of solutions found ({} otherwise)."""
    found = Counter(r.found for r in runs if r.found >= 0)
    return {str(n): found[n] for n in sorted(found)}  # (JSON keys are strings)


def node_table(runs: list[PuzzleRun]) -> list[tuple[str, int, float, float]]:
    """(node range, puzzles, median s, max s) per node-count bucket that has puzzles."""
    rows = []
    bounds = list(NODE_BUCKETS) + [math.inf]
    for low, high in zip(bounds, bounds[1:]):
        times = [r.seconds for r in runs if low <= r.nodes < high]
        if times:
            label = f"{low}-{high - 1}" if high != math.inf else f"{low}+"
            rows.append((label, len(times), statistics.median(times), max(times)))
    return rows


def timed(seconds: float) -> str:
    """Milliseconds, marked when over half the first-line limit (`!`) or over it (`!!`)."""
    return ms(seconds) + limit_mark(seconds, FIRST_LINE_LIMIT_S)


def over_limit(runs: list[PuzzleRun], startup: dict | None,
               suites: dict[str, dict] | None = None) -> list[str]:
    """One line per figure over CodinGame's first-line limit (the puzzle, the figure, the
    limit) and per match the bundle lost (the puzzle, the reason), but for a puzzle the
    solver too left unsolved, unless the match was lost by a timeout."""
    limit = f"over CodinGame's {FIRST_LINE_LIMIT_S * 1000:g} ms limit for the first line"
    lines = [f"OVER LIMIT {r.key}: solve {ms(r.seconds)} ms in-process, {limit}"
             for r in runs if r.seconds > FIRST_LINE_LIMIT_S]
    if startup is not None:
        bundle = startup.get("bundle_first_line")
        if bundle is not None and bundle > FIRST_LINE_LIMIT_S:
            lines.append(f"OVER LIMIT start-up puzzle (3x1, two islands): bundle first line "
                         f"{ms(bundle)} ms (median of {startup['runs']}), {limit}")
    # A puzzle the solver found unsolvable is lost by every bot: only a timeout says more.
    unsolved = {r.key for r in runs if not r.solved}
    for match in _matches(suites):
        if not match["won"] and (match["puzzle"] not in unsolved or match["verdict"] == "timeout"):
            lines.append(f"OVER LIMIT {match['puzzle']}: the bundle lost its match under "
                         f"CodinGame's limits ({match['verdict']}: {match['reason']})")
    return lines


def _matches(suites: dict[str, dict] | None) -> list[dict]:
    """The bundle's match of each suite that has one."""
    return [s["bundle"] for s in (suites or {}).values() if s.get("bundle")]


def _figure(seconds: float | None, limit: float | None = None) -> str:
    """'612.0 ms' marked against `limit` if given; '-' when there is no figure."""
    if seconds is None:
        return "-"
    return f"{ms(seconds)}{limit_mark(seconds, limit) if limit else ''} ms"


def match_line(match: dict) -> str:
    """One match of the bundle: won or lost (why), first line, longest gap, last line, lines."""
    outcome = "won" if match["won"] else f"lost ({match['verdict']}: {match['reason']})"
    return (f"bundle on {match['puzzle']}: {outcome}  "
            f"first line {_figure(match['first_line'], FIRST_LINE_LIMIT_S)}  "
            f"longest gap {_figure(match['longest_gap'], TURN_LIMIT_S)}  "
            f"last line {_figure(match['last_line'])}  lines {match['lines']}")


def print_report(suites: dict[str, dict], runs: list[PuzzleRun], startup: dict | None) -> None:
    out = sys.stdout
    for name, s in suites.items():
        print(f"suite {safe(name)}: solved {s['solved']}/{s['total']}  nodes(mean) {s['mean_nodes']:.0f}  "
              f"median {timed(s['median'])} ms  p90 {timed(s['p90'])} ms  p99 {timed(s['p99'])} ms  "
              f"max {timed(s['max'])} ms  slowest {safe(s['slowest'])}  sum {ms(s['sum'])} ms",
              file=out)
        mean, top = s["counters_mean"], s["counters_max"]
        print("  counters (mean/max per puzzle): " + "  ".join(
            f"{k} {mean[k]:.1f}/{top[k]}" for k in COUNTERS), file=out)
        print("  deepest stage the solve used: " + "  ".join(f"{k} {v}" for k, v in sorted(s["stages"].items())),
              file=out)
        if s.get("found"):
            print("  solutions found: " + "  ".join(f"{n} on {k}" for n, k in s["found"].items()),
                  file=out)
    failed = [r for r in runs if not r.solved]
    for r in failed:
        print(f"NOT SOLVED {safe(r.key)}: {safe(r.error)}", file=out)
    print("time by node count:", file=out)
    print(f"  {'nodes':>9} {'puzzles':>8} {'median ms':>10} {'max ms':>10}", file=out)
    for label, count, median, top in node_table(runs):
        print(f"  {label:>9} {count:>8} {timed(median):>10} {timed(top):>10}", file=out)
    figures = [r.seconds for r in runs]
    if startup is not None:
        bundle, bare = startup["bundle_first_line"], startup["python_pass"]
        if bundle is None or bare is None:
            print("start-up: could not start the bundle or python3", file=out)
        else:
            figures.append(bundle)
            print(f"start-up: bundle first line {timed(bundle)} ms  python -c pass (to exit) {ms(bare)} ms  "
                  f"difference {ms(bundle - bare)} ms  (median of {startup['runs']})", file=out)
            if not startup.get("python_is_bundles", True):
                print(f"  (python -c pass ran on {safe(startup['python'])}: the bundle's first "
                      f"word is no Python)", file=out)
    matches = _matches(suites)
    if matches:
        print(f"the bundle on each suite's slowest puzzle, one match under CodinGame's limits "
              f"(first line {ms(FIRST_LINE_LIMIT_S, 'g')} ms, each later line "
              f"{ms(TURN_LIMIT_S, 'g')} ms):", file=out)
    for match in matches:
        print("  " + safe(match_line(match)), file=out)
    figures += [m["first_line"] for m in matches if m["first_line"] is not None]
    gaps = [m["longest_gap"] for m in matches if m["longest_gap"] is not None]
    if any(limit_mark(f, FIRST_LINE_LIMIT_S) for f in figures) or \
            any(limit_mark(g, TURN_LIMIT_S) for g in gaps):
        print(f"{MARK_HALF} over half of CodinGame's {ms(FIRST_LINE_LIMIT_S, 'g')} ms first-line "
              f"limit ({ms(TURN_LIMIT_S, 'g')} ms for a gap between lines), {MARK_OVER} over it",
              file=out)
    overs = over_limit(runs, startup, suites)
    for line in overs:
        print(safe(line), file=out)   # the puzzle names come from files
    total = len(runs)
    tail = f", {len(overs)} figure(s) over the limit" if overs else ""
    print(f"{total - len(failed)}/{total} solved{tail}", file=out)


def check_writable(name: str, option: str) -> None:
    """The file can be written: a usage error now rather than after the whole bench."""
    why = unwritable(name)
    if why:
        raise UsageError(f"cannot write {option} {name}: {why}")



# -- command ----------------------------------------------------------------------------

def execute(args: argparse.Namespace) -> int:
    if args.repeat < 1:
        raise UsageError("--repeat must be at least 1")
    seeds = args.seed or (None,)
    if args.peer and len(seeds) > 1:
        raise UsageError("--peer takes one --seed")
    if args.peer and args.count:
        raise UsageError("--count times the bot's count alone, without --peer")
    if args.peer and args.clock != "wall":
        raise UsageError("--clock cpu times the bot alone: the peer keeps the wall clock")
    if args.peer and args.compare:
        raise UsageError("--compare does not apply to --peer runs")
    if args.against:
        refused = [option for option, given in (
            ("--peer", args.peer), ("--compare", args.compare), ("--count", args.count),
            ("--jobs", args.jobs != 1), ("--dask", args.dask), ("several seeds", len(seeds) > 1))
            if given]
        if refused:
            raise UsageError(f"--against takes no {refused[0]}: its solves alternate in turn")
        against = versus.check_against(args.against)
    if args.json:
        check_writable(args.json, "--json")
    if args.against:
        return versus.run_versus(load_suites(args), against, args.repeat, args.timeout,
                                 args.clock, seeds[0], args.json)
    old = read_compared(args.compare, args) if args.compare else None
    # A count is not a match: the bundle plays only where solves are timed.
    bundle = (lab_bundle.bundle_argv(args.bundle) if args.startup_runs > 0 and not args.peer
              and not args.count else None)
    load_start = load_now()
    with workers_from_args(args) as workers:
        suites_in = load_suites(args, workers)
        if args.peer:
            return peers.run(suites_in, args.repeat, args.timeout, args.json, seeds[0])
        jobs = [(suite, name, text, args.repeat, args.timeout, seed, args.clock,
                 f"@{seed}" if len(seeds) > 1 else "", args.count)
                for suite, puzzles in suites_in for name, text in puzzles for seed in seeds]
        progress = Progress("bench", len(jobs))
        runs: list[PuzzleRun] = []
        for run in workers.in_order(_measure_job, jobs):
            runs.append(run)
            progress.update(len(runs), run.key)
    progress.close(f"{len(runs)} puzzles timed" if len(seeds) == 1
                   else f"{len(runs)} solves timed: each puzzle at {len(seeds)} seeds")
    suites = {suite: suite_summary([r for r in runs if r.suite == suite]) for suite, _ in suites_in}
    startup = None
    if bundle is not None:
        startup = lab_bundle.startup_times(bundle, args.startup_runs, args.timeout)
        bundle_matches(bundle, suites_in, suites, args.timeout)
    if args.clock != "wall" or len(seeds) > 1 or args.count:
        print(f"times: {'CPU of the solving thread' if args.clock == 'cpu' else 'wall clock'}"
              + (f"; each puzzle at {len(seeds)} seeds, PUZZLE@SEED" if len(seeds) > 1 else "")
              + (f"; {timed_call(args.count)}, not bot.solve" if args.count else ""))
    print_report(suites, runs, startup)
    machine = {"start": load_start, "end": load_now()}
    if old is not None:
        compare(old, suites, runs, machine)
    if args.json:
        data = {"version": JSON_VERSION, "repeat": args.repeat,
                "seed": list(seeds) if len(seeds) > 1 else seeds[0], "clock": args.clock,
                "count": args.count,
                "puzzles": {r.key: asdict(r) for r in runs}, "suites": suites, "startup": startup,
                "over_limit": over_limit(runs, startup, suites), "machine": machine}
        try:
            write_new(args.json, json.dumps(data, indent=1, sort_keys=True) + "\n")
        except OSError as error:
            raise UsageError(f"--json {args.json}: {error.strerror}") from None
    solved = all(r.solved for r in runs)
    return EXIT_OK if solved and not over_limit(runs, startup, suites) else EXIT_UNSOLVED

