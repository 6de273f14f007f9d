"""Profile one solve: where the bot's time goes, by phase, by module and by function.

Solves PUZZLE (a .txt or SDK .json file; default puzzles/public/13_expert.txt) --repeat
times in-process under cProfile, then prints:
  - the wall time of one solve without the profiler (median of --repeat);
  - phases, as cProfile's cumulative time per solve: parse (bot.puzzle.parse), grid set-up
    (bot.grid.Grid.__init__), the rules (bot.rules.Rules.propagate, every call, also those
    inside the searches), the node search (bot.assumption's solutions and eliminate; the
    outermost one's time), the search that learns (bot.learning.learned_solutions) and the
    output (formatting the links as the bot's CLI prints them);
  - own time per module of bot/ (where the time is spent, not passed through);
  - the --top functions by own time, with calls and cumulative time;
  - the solver's counters (propagation rounds, assumptions, eliminations, dead ends,
    nogoods, branches, maximum depth, deepest stage).
Times under the profiler are inflated by its overhead; compare them with each other.
--what count profiles bot.count_solutions(text, 2) (the uniqueness check `gen --unique`
runs) instead of bot.solve.

--bot CMD profiles a player's own bot instead, played through the referee on each PUZZLE
(default: the public tests), each line's CPU read from the kernel (all of the bot's threads
and processes). A Python bot (`python bot.py`, `python -m pkg`; its file unchanged) has its
stack sampled every --interval ms by a signal handler in its own process, which slows it:
the match runs under CodinGame's limits times --slack, and is played again until --samples
samples of the bot's code are pooled (at most --repeat matches); a table per slow line (the
first line, and any over half of CodinGame's limit) names the functions that took the
time, and --flame FILE gets a flame graph in speedscope's format
(https://www.speedscope.app). Another language runs as itself: its lines' wall and CPU
time, slowest first, and the command of its own profiler (JFR, node --cpu-prof, perf).
--overhead plays each puzzle --repeat times with and without the profiler and prints the
ratios of their latencies instead. More: docs/PROFILING.md.

Exit status: 0 solved (or counted; with --bot: every match won), 1 the solver found no
solution or a wrong one (with --bot: a match lost), 2 usage error (missing or malformed
puzzle, a bot that cannot start).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import statistics
import sys
import time
from pathlib import Path

from referee.judge.board import BoardError, load_board
from referee.cli import UsageError
from referee.cli.args import number, output_path
from referee.home import ROOT, in_checkout
import bot
from referee.lab.profile import bot_match
from referee.lab.counters import COUNTERS, stage_name
from referee.lab.gen.walk import solution_text
from referee.judge.rules import judge_text
from referee.terminal import safe
from referee.units import ms

EXIT_OK, EXIT_UNSOLVED = 0, 1  # usage errors exit 2 from the dispatcher
DEFAULT_PUZZLE = "puzzles/public/13_expert.txt"
DEFAULT_FLAME = "out/profile.speedscope.json"   # out/ is git-ignored
DEFAULT_SLACK = 3.0   # the profiled bot's limits: CodinGame's times this
DEFAULT_REPEAT = 5
DEFAULT_POOLED = 10   # with --bot: at most this many matches of a puzzle pooled
DEFAULT_INTERVAL_MS = 0.5
DEFAULT_SAMPLES = 200
BOT_DEFAULTS = {"flame": DEFAULT_FLAME, "slack": DEFAULT_SLACK, "overhead": False,
                "interval": DEFAULT_INTERVAL_MS, "samples": DEFAULT_SAMPLES}

# (label, module file, function names): the phases, by cProfile's cumulative time.
PHASES = (
    ("parse", "puzzle.py", ("parse",)),
    ("grid set-up", "grid.py", ("__init__",)),
    ("rules", "rules/engine.py", ("propagate",)),
    ("node search", "assumption.py", ("solutions", "eliminate")),
    ("search that learns", "learning.py", ("learned_solutions",)),
    ("output", "profiler.py", ("format_output",)),
)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("puzzle", nargs="*", metavar="PUZZLE",
                        help="the puzzle file (default: puzzles/public/13_expert.txt); with "
                             "--bot, puzzle files or folders (default: puzzles/public)")
    parser.add_argument("--repeat", type=int, default=None, metavar="K",
                        help="solves to profile, figures are per solve (default: 5); with "
                             "--bot --overhead, matches per puzzle each way (default: 5); "
                             "with --bot, at most K matches of a puzzle pooled for a Python "
                             f"bot (default: {DEFAULT_POOLED})")
    parser.add_argument("--top", type=int, default=15, metavar="N",
                        help="functions to list by own time (default: 15)")
    parser.add_argument("--what", choices=("solve", "count"), default="solve",
                        help="profile bot.solve or bot.count_solutions(text, 2) (default: solve)")
    parser.add_argument("--bot", metavar="CMD", help="profile this bot, played through the "
                        "referee, turn by turn (default: the solver in-process)")
    parser.add_argument("--flame", type=output_path, default=DEFAULT_FLAME, metavar="FILE",
                        help="with --bot: a Python bot's flame graph, to write "
                             f"(default: {DEFAULT_FLAME})")
    parser.add_argument("--slack", type=number(low=1.0, high=100.0), default=DEFAULT_SLACK,
                        metavar="X", help="with --bot: play under CodinGame's limits times X "
                        "(default: %(default)g)")
    parser.add_argument("--interval", type=number(low=0.05, high=100.0),
                        default=DEFAULT_INTERVAL_MS, metavar="MS",
                        help="with --bot: a Python bot's stack is sampled every MS "
                        "milliseconds (default: %(default)g)")
    parser.add_argument("--samples", type=int, default=DEFAULT_SAMPLES, metavar="N",
                        help="with --bot: a Python bot's match is played again until N samples "
                        "of its code are pooled, at most --repeat matches (default: %(default)s)")
    parser.add_argument("--overhead", action="store_true", help="with --bot: time each "
                        "puzzle with and without the profiler, and print the ratios")


def bot_puzzles(named: list[str]) -> list[tuple[str, object, Path]]:
    """(name, board, path) of each puzzle file named or in a named folder (default: the
    public tests), as `run` reads them."""
    from referee.cli.args import puzzle_paths
    from referee.judge.board import sdk_fields

    puzzles = []
    for path in puzzle_paths(named):
        try:
            board = load_board(path)
        except BoardError as error:
            raise UsageError(str(error)) from None
        puzzles.append((sdk_fields(path)[0] or path.stem, board, path))
    return puzzles


def format_output(links) -> str:
    """The bot's output lines, printed as its CLI prints them (one flushed print per link)."""
    buffer = io.StringIO()
    for link in links:
        print(*link, file=buffer, flush=True)
    return buffer.getvalue()


def _bot_dir() -> str:
    return os.path.dirname(os.path.abspath(bot.__file__))


def run_once(text: str, what: str):
    """One solve (or count) with fresh counters: (result, stats)."""
    stats = bot.Stats()
    if what == "count":
        return bot.count_solutions(text, 2, stats=stats), stats
    links = bot.solve(text, stats=stats)
    format_output(links)
    return links, stats


def profile(text: str, repeat: int, what: str):
    """(median wall seconds unprofiled, pstats.Stats over `repeat` profiled runs, result, stats)."""
    walls = []
    for _ in range(repeat):
        start = time.perf_counter()
        run_once(text, what)
        walls.append(time.perf_counter() - start)
    profiler = cProfile.Profile()
    for _ in range(repeat):
        profiler.enable()
        result, stats = run_once(text, what)
        profiler.disable()
    return statistics.median(walls), pstats.Stats(profiler), result, stats


def phase_rows(table: dict, repeat: int) -> list[tuple[str, float, int]]:
    """(phase label, cumulative seconds per solve, calls per solve) for each phase."""
    bot_dir = _bot_dir()
    rows = []
    for label, module, names in PHASES:
        seconds = calls = 0
        for (filename, _, name), (_, ncalls, _, cumtime, _) in table.items():
            in_module = (os.path.basename(filename) == module if module == "profiler.py"
                         else _in_bot(filename, bot_dir) == module)
            if in_module and name in names:
                # The search's entry points call each other: the outermost one's
                # cumulative time holds the others', so take the largest, not the sum.
                seconds = max(seconds, cumtime)
                calls += ncalls
        rows.append((label, seconds / repeat, calls // repeat))
    return rows


def module_rows(table: dict, repeat: int) -> list[tuple[str, float]]:
    """(bot module, own seconds per solve), largest first."""
    bot_dir = _bot_dir()
    own: dict[str, float] = {}
    for (filename, _, _), (_, _, tottime, _, _) in table.items():
        inside = _in_bot(filename, bot_dir)
        if inside is not None:
            name = "bot/" + inside
            own[name] = own.get(name, 0.0) + tottime
    return sorted(((m, s / repeat) for m, s in own.items()), key=lambda row: -row[1])


def _in_bot(filename: str, bot_dir: str) -> str | None:
    """`filename`'s path inside bot/ (e.g. "rules/engine.py"), or None if outside it."""
    path = os.path.abspath(filename)
    if not path.startswith(bot_dir + os.sep):
        return None
    return os.path.relpath(path, bot_dir).replace(os.sep, "/")


def top_rows(table: dict, repeat: int, n: int) -> list[tuple[str, float, int, float]]:
    """(function, own seconds, calls, cumulative seconds) per solve, by own time."""
    rows = []
    for (filename, line, name), (_, ncalls, tottime, cumtime, _) in table.items():
        where = f"{_short(filename)}:{line}({name})" if line else name
        rows.append((where, tottime / repeat, ncalls // repeat, cumtime / repeat))
    rows.sort(key=lambda row: -row[1])
    return rows[:n]


def _short(filename: str) -> str:
    path = Path(filename)
    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return path.name


def execute(args: argparse.Namespace) -> int:
    if args.repeat is None:
        pooled = args.bot is not None and not args.overhead
        args.repeat = DEFAULT_POOLED if pooled else DEFAULT_REPEAT
    if args.repeat < 1 or args.top < 0 or args.samples < 0:
        raise UsageError("--repeat must be at least 1, --top and --samples not negative")
    if args.bot is not None:
        return bot_match.execute(args, bot_puzzles(args.puzzle))
    bot_only = [f"--{name}" for name, default in BOT_DEFAULTS.items()
                if getattr(args, name) != default]
    if bot_only:
        raise UsageError(f"{bot_only[0]} profiles a bot: give --bot CMD")
    if len(args.puzzle) > 1:
        raise UsageError("one puzzle at a time without --bot")
    puzzle = args.puzzle[0] if args.puzzle else str(in_checkout(DEFAULT_PUZZLE, "give PUZZLE"))
    try:
        board = load_board(puzzle)
    except BoardError as error:
        raise UsageError(str(error)) from None
    text = board.to_text()
    try:
        wall, profiled, result, stats = profile(text, args.repeat, args.what)
    except (bot.Unsolvable, bot.PuzzleError) as error:
        print(f"profile: {puzzle}: {error}", file=sys.stderr)
        return EXIT_UNSOLVED
    table = profiled.stats  # (file, line, function) -> (cc, ncalls, tottime, cumtime, callers)
    total = profiled.total_tt / args.repeat
    print(f"puzzle {safe(puzzle)}: {board.width}x{board.height}, {len(board.nodes)} nodes; "
          f"{args.what} x{args.repeat}")
    print(f"wall time per {args.what}: {ms(wall, '.2f')} ms unprofiled (median), "
          f"{ms(total, '.2f')} ms under cProfile")
    print("phases (cumulative ms per solve; the search includes the rules it calls):")
    for label, seconds, calls in phase_rows(table, args.repeat):
        share = 100 * seconds / total if total else 0.0
        print(f"  {label:<20} {ms(seconds, '.2f'):>10} ms {share:5.1f}%  calls {calls}")
    print("own time by module (ms per solve):")
    for module, seconds in module_rows(table, args.repeat):
        share = 100 * seconds / total if total else 0.0
        print(f"  {module:<20} {ms(seconds, '.2f'):>10} ms {share:5.1f}%")
    if args.top:
        print(f"top {args.top} functions by own time (per solve):")
        print(f"  {'own ms':>9} {'calls':>8} {'cum ms':>9}  function")
        for where, own, calls, cum in top_rows(table, args.repeat, args.top):
            print(f"  {ms(own, '.2f'):>9} {calls:>8} {ms(cum, '.2f'):>9}  {where}")
    counters = "  ".join(f"{k} {getattr(stats, k)}" for k in COUNTERS)
    print(f"counters: {counters}  stage {stage_name(stats)}")
    if args.what == "count":
        print(f"solutions: {result}{' or more' if result >= 2 else ''}")
        return EXIT_OK if result else EXIT_UNSOLVED   # none found: the help promises 1
    outcome = judge_text(board, solution_text(result))
    print(f"answer: {outcome.verdict.value}" + ("" if outcome.won else f" ({outcome.reason})"))
    return EXIT_OK if outcome.won else EXIT_UNSOLVED

