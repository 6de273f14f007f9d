"""Play a bot on puzzles and judge every match as CodinGame would.

  spoon2 run                                  dist/bot.py on the 13 public tests
  spoon2 run --bot bot.py my/puzzles          Python: a .py script, run by this Python
  spoon2 run --bot "python3 -m mybot" p.txt   Python: any command, words quoted as one
  spoon2 run --bot ./a.out                    C++: g++ -O2 -o a.out hashi.cpp, run from here
  spoon2 run --bot "java -cp build Player"    Java: javac -d build Player.java
  spoon2 run --bot "node bot.js"              JavaScript
  spoon2 run --bot ./a.out --bot ./b.out      two bots side by side

A bot's paths are read from the working folder (./a.out, ../x/bot.py, bot.js), as a shell
reads them, and the bot is started with them made absolute; a bare word (java, node,
python3) is looked up on PATH. A .py script named first that is not executable is run by
the Python that runs spoon2 (an executable one by its #! line).

Puzzles are .txt files in CodinGame's input format or CodinGame SDK test files
(.json with a `testIn` field; the match is named by its `title`, and its
`isValidator` is shown as a column); a directory stands for every such file in it.
--gen SPEC adds a generated set, the same SPEC as `bench --gen`
(WxH[:easy|medium|hard][:unique][:count=N:seed=S:density=D...], N at most 1000: the
set is made whole before the first match): the bot is played
as a process on boards like CodinGame's hidden validators, and nothing is written
unless --out DIR asks for the puzzles (NAME.txt, with NAME.solution beside it). NAME
is the one `gen` and `bench --gen` give; when two SPECs would give one name (they
differ only in density, join, ...), each of them adds the settings it changes from
its preset (5x5:density=0.6 then makes 5x5_any_s1_density0.6_000).
Without puzzles or --gen, the 13 public tests in puzzles/public are played. A puzzle,
folder or SPEC named twice (or two SPECs that make the same boards) is refused.

Run as root, each match's processes get the same share of the CPU as every other match,
and at most --cpu-cap CPUs at once; the first line of the report says `CPU shared`, or
`CPU not shared` where the kernel gives no cpu cgroup (docs/CONTAINMENT.md).

Prints one row per match (puzzle, verdict, turns, first-line ms, slowest later
line ms, CPU ms, peak MB), first-line and per-turn latency percentiles with the
slowest puzzle, and for each lost match the reason, the offending line, the
board with the links placed so far, and the command that replays just that
match (a generated puzzle is replayed from its file when --out wrote one; without
--out, with its whole --gen set, which a note on the line says when the set holds
more). A first line over half its limit, or a later line over half the turn limit,
is marked `!` (`!!` over the limit, which loses the match), in colour on a terminal.
Progress goes to stderr. The last line is `N passed, N failed`.

--bot twice plays two bots, A and B, on the same puzzles: on each puzzle their
matches run one after the other (A then B, B then A on the next puzzle) so that
machine drift hits both. The table shows both side by side; a summary says where
only one wins and which is faster (B/A ratios of first-line and CPU time on the
puzzles both win: median, min, max). JSON, CSV and HTML carry both bots' matches.

--json FILE keeps every result with all output lines and latencies; --csv FILE one
row per match for a spreadsheet. In both, exit_status is the bot's own exit status
(negative: killed by that signal) when the bot exited by itself (a crash, an exit with
links missing, or after its last line); it is empty (null) when the referee stopped
the bot (still running after a win, a losing line or a timeout; at the memory cap):
that status would only say how the referee stopped it.

--html FILE writes one self-contained page (no network, no external asset) with the
table and every match replayable: the board as SVG, a turn slider and step buttons,
the losing link in red with the verdict and reason, each line's latency against its
limit. Open it in any browser. When a match is lost it writes a second page beside
it, FILE with the suffix .play.html (r.html: r.play.html), where each lost position,
linked from the first page, can be played on by hand; where the lab is installed, its
hint, check and solve work on the bot's links (check: which of them no solution holds),
for each position the solver works out within 5 s.
Each output needs a path of its own: two at one path are refused.

Every run is recorded in a local SQLite database (--db PATH; default: $SPOON2_HISTORY,
else $XDG_DATA_HOME/spoon2/history.sqlite, else ~/.local/share/spoon2/history.sqlite):
the bot's command and its version (a hash of its program and the files beside it that it
can load), named by --label NAME (once per --bot), each line's latency, CPU, peak memory,
the mode, the machine's load. A run stopped by Ctrl-C or SIGTERM is recorded with the
matches it finished, marked stopped. `history` lists the runs and ranks the versions,
`compare ID ID` sets two side by side; --no-record leaves the database alone. A database
that cannot be written costs a warning on stderr, never the run.

A match the referee cannot play to a verdict (the bot cannot be started, or the referee
fails inside it) gets verdict `error` with the reason, and the other matches are played
as usual; the files are written for every match. Each match's TMPDIR is removed whatever
the bot left in it; what cannot be removed is said under the table and in the JSON
(`cleanup`).

Exit status: 0 when every match is won, 1 when any is lost or in error, 2 on a usage error
(missing bot, unreadable or malformed puzzle, bad --gen SPEC).
"""

from __future__ import annotations

import argparse
import io
import os
import shlex
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path

from referee.judge.board import Board, BoardError, load_board, parse_board, sdk_fields
from referee.cli import UsageError, lab_part
from referee.cli.args import (bot_argv, default_bot, integer, label_type, number, output_path,
                              puzzle_paths, spoon2_words, version_labels)
from referee.cli.run_files import (check_inputs, check_outputs, write_csv, write_html,
                                       write_json, write_outputs)
from referee.judge.limits import (CPU_CAP_CPUS, FIRST_LINE_LIMIT_S, MEMORY_LIMIT_BYTES, TURN_LIMIT_S,
                                  Limits)
from referee.report.tables import (cleanup_notes, latency_summary, loss_details, loss_line,
                            summary_line, table,
                            versus_stats, versus_summary, versus_table)
from referee.report.progress import Progress, SetProgress
from referee.judge.result import MatchResult
from referee.box.bubblewrap import start_probe
from referee.box.cgroups import cap_cpu
from referee.box.sandbox import MODES, ContainmentError, Mode, choose_mode, describe
from referee.box.one_match import play_one
from referee.box.crew import Crew
from referee.box.stamper_client import StamperServer
from referee.terminal import safe, use_colour
from referee.history.record import Plan, record_after_run
from referee.history.store import ENV_VAR, DEFAULT_DB
from referee.files import write_new

# The checkout's bundle, run by the Python that runs the referee: a `python3` found on
# PATH can be a wrapper script (pyenv's shim took 0.2 s a start here) whose delay
# CodinGame never has.
LABELS = ("A", "B")                  # the bots of a two-bot run, in --bot order
SOLUTION_SUFFIX = ".solution"        # as `referee gen` writes a known solution


@dataclass(frozen=True)
class Puzzle:
    """A board to play and where it came from: a file, or a --gen SPEC when not written."""

    name: str
    board: Board
    path: str = ""
    validator: bool | None = None    # an SDK test file's isValidator
    gen: str = ""
    set_size: int = 0                # how many puzzles its --gen SPEC made


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("puzzles", nargs="*", metavar="PUZZLE_OR_DIR",
                        help="puzzle files or directories (default: the public tests, "
                             "unless --gen)")
    parser.add_argument("--bot", action="append", default=None, metavar="CMD",
                        help="the command that starts the bot; twice for two bots A and B "
                             "side by side (default: dist/bot.py run by the Python that "
                             "runs the referee)")
    parser.add_argument("--gen", action="append", default=[], metavar="SPEC",
                        help="also play a generated set, e.g. 30x30:count=20:seed=7 "
                             "(repeatable; as `bench --gen`; default: none)")
    parser.add_argument("--out", type=output_path, metavar="DIR", help="write the --gen "
                        "puzzles to DIR as NAME.txt and NAME.solution (default: nothing is "
                        "written)")
    parser.add_argument("--first-line-ms", type=_positive, default=FIRST_LINE_LIMIT_S * 1000,
                        metavar="MS", help="limit for the first line, from the input "
                        "(default: %(default)g)")
    parser.add_argument("--turn-ms", type=_positive, default=TURN_LIMIT_S * 1000, metavar="MS",
                        help="limit for each later line, from the previous one "
                        "(default: %(default)g)")
    parser.add_argument("--replay-busy", type=integer(0), default=0, metavar="N",
                        help="play a match lost on time while the bot waited most of the "
                        "time for a CPU others held (marked busy) again, up to N times; the "
                        "last result stands (default: 0)")
    parser.add_argument("--jobs", type=integer(), default=1, metavar="N",
                        help="matches played at once (default: 1); parallel matches "
                        "compete for the CPU and distort timings")
    parser.add_argument("--cpu-cap", type=_cpus, default=CPU_CAP_CPUS, metavar="CPUS",
                        help="CPUs each match's processes may use at once, together, where "
                        "the kernel gives a cpu cgroup (root); 'none': no cap (default: "
                        "%(default)g)")
    parser.add_argument("--json", type=output_path, metavar="FILE", help="also write every "
                        "result, with all output lines and latencies, as JSON to FILE")
    parser.add_argument("--csv", type=output_path, metavar="FILE", help="also write one row "
                        "per match as CSV to FILE, for a spreadsheet")
    parser.add_argument("--html", type=output_path, metavar="FILE", help="also write a "
                        "self-contained HTML report to FILE: every match replayable in a "
                        "browser; when a match is lost, also FILE with the suffix .play.html, "
                        "its position to play on")
    parser.add_argument("--colour", "--color", choices=("auto", "always", "never"),
                        default="auto", help="colour the marks (default: auto, when stdout "
                        "is a terminal and NO_COLOR is unset)")
    parser.add_argument("--contain", choices=("auto", *MODES), default=None,
                        help="how the bot's processes are contained (default: auto, the best "
                        "the machine allows: bwrap, pidns, subreaper; or REFEREE_CONTAIN)")
    parser.add_argument("--quiet", action="store_true",
                        help="no progress, table or latency summary: one line per loss "
                        "(puzzle, verdict, line, reason) and the last line")
    parser.add_argument("--db", type=output_path, metavar="PATH", help="the history database "
                        f"the run is recorded in (default: ${ENV_VAR}, else {DEFAULT_DB})")
    parser.add_argument("--no-record", action="store_true", help="do not record the run")
    parser.add_argument("--label", action="append", type=label_type, metavar="NAME",
                        help="name the bot's version in the history, as `history` and "
                        "`compare` show it (once per --bot; default: none)")


def execute(args: argparse.Namespace) -> int:
    bots = args.bot or [default_bot()]
    if len(bots) > len(LABELS):
        raise UsageError(f"--bot: at most {len(LABELS)} bots, got {len(bots)}")
    argvs = [bot_argv(command) for command in bots]
    labels = LABELS[:len(bots)] if len(bots) > 1 else ("",)
    names = version_labels(args.label, len(bots))
    if args.jobs < 1:
        raise UsageError(f"--jobs must be at least 1, got {args.jobs}")
    check_outputs(args)
    if args.out and not args.gen:
        raise UsageError("--out writes the --gen puzzles: give --gen SPEC too")
    paths = puzzle_paths(args.puzzles, default=not args.gen)
    check_inputs(args, paths + [arg for argv in argvs for arg in argv if os.path.isfile(arg)])
    StamperServer.warm()   # these start while the puzzles are read and the bots hashed
    start_probe()
    puzzles = [_load(path) for path in paths]
    puzzles += generated(args.gen, args.out, quiet=args.quiet)
    limits = Limits(first_line_s=args.first_line_ms / 1000, turn_s=args.turn_ms / 1000)
    try:
        mode = choose_mode(args.contain)
    except ContainmentError as error:
        raise UsageError(str(error)) from None
    cap_cpu(args.cpu_cap)
    progress = Progress("run", len(puzzles) * len(bots), enabled=not args.quiet)
    finished: dict[tuple[int, int], MatchResult] = {}
    cpu_cap = None if args.cpu_cap is None else f"{args.cpu_cap:g}"
    plan = Plan.make(bots, argvs, sides=labels, labels=names, containment=mode.value,
                     limits=limits, memory_cap_bytes=MEMORY_LIMIT_BYTES, cpu_cap=cpu_cap,
                     puzzles=[(p.name, p.board) for p in puzzles], recorded=not args.no_record)
    try:
        pairs = play_all(puzzles, argvs, labels, limits, args.jobs, progress, mode, finished,
                         args.replay_busy)
    except KeyboardInterrupt:   # Ctrl-C or SIGTERM: what was played is still worth reading
        progress.close()
        print_stopped(args, puzzles, bots, finished, limits, len(puzzles) * len(bots))
        record_after_run(args, plan, [finished[key] for key in sorted(finished)], stopped=True)
        raise
    progress.close()
    results = [r for pair in pairs for r in pair]
    record_after_run(args, plan, results)
    replays = [replay_command(args, bots[labels.index(r.bot)], puzzle)
               for puzzle, pair in zip(puzzles, pairs) for r in pair]
    stats = versus_stats(pairs, labels) if len(bots) > 1 else None
    # Files first: a reader that closes stdout early (`| head`) must not cost them; a file
    # that cannot be written (its folder removed meanwhile) costs only itself.
    versus = versus_summary(stats, labels) if stats else ""
    writers = [(f"--json {args.json}", args.json,
                lambda: write_json(args, bots, labels, results, replays, stats)),
               (f"--csv {args.csv}", args.csv,
                lambda: write_csv(args.csv, bots, labels, results, limits)),
               (f"--html {args.html}", args.html,
                lambda: write_html(args, bots, labels, results, replays, limits, versus))]
    failed = write_outputs([(what, write) for what, wanted, write in writers if wanted])
    status = 0 if all(r.won for r in results) and not failed else 1
    try:
        print_report(results, replays, pairs, labels, bots, stats, limits, quiet=args.quiet,
                     colour=use_colour(args.colour, sys.stdout),
                     header=f"referee run: {len(results)} match(es), containment {mode.value} "
                     f"({describe(mode)})")
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    for line in failed:
        print(f"run: {line}", file=sys.stderr)
    return status


def _load(path: Path) -> Puzzle:
    try:
        board = load_board(path)
    except BoardError as error:
        raise UsageError(str(error)) from None
    title, validator = sdk_fields(path)
    return Puzzle(title or path.stem, board, str(path), validator)


def generated(specs: list[str], out: str | None, quiet: bool = False) -> list[Puzzle]:
    """The puzzles of each --gen SPEC (as `bench --gen` makes them), written to `out` if given."""
    if not specs:
        return []   # and the lab, which imports the bot, stays unloaded
    sets = lab_part("sets")
    try:   # every spec checked before any set is made: a bad one costs no work
        parsed = [(text, sets.parse_spec(text)) for text in specs]
    except ValueError as error:
        raise UsageError(f"--gen: {error}") from None
    sets.refuse_same_boards(parsed)
    directory = Path(out) if out else None
    if directory is not None:
        try:
            directory.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise UsageError(f"cannot create --out {out}: {error.strerror or error}") from None
    names = [spec.name for _, spec in parsed]
    puzzles = []
    for text, spec in parsed:
        progress = SetProgress(f"gen {text}", spec.count, spec.max_attempts,
                                  stream=io.StringIO() if quiet else None)
        kept, verdicts = sets.generate_named(
            text, spec, on_attempt=progress.attempt)
        progress.close(f"tried {sum(verdicts.values())}, kept {len(kept)} of {spec.count}")
        if not kept:
            raise UsageError(f"--gen {text}: no puzzle found within the attempts")
        if len(kept) < spec.count:   # said even with --quiet: the set is not what was asked
            print(f"run: --gen {text}: only {len(kept)} of {spec.count} puzzles found within "
                  f"the attempts; playing those", file=sys.stderr)
        # gen's names, unless another set has them too (a SPEC that differs only in
        # density, join, ...): its files would overwrite this set's.
        prefix = spec.boards_name if names.count(spec.name) > 1 else spec.name
        for index, puzzle in enumerate(kept):
            name = f"{prefix}_{index:03d}"
            path = "" if directory is None else write_puzzle(directory, name, puzzle, out)
            puzzles.append(Puzzle(name, parse_board(puzzle.text), path, gen=text,
                                  set_size=len(kept)))
    return puzzles


def write_puzzle(directory: Path, name: str, puzzle, out: str) -> str:
    """Write a generated puzzle and its solution to --out; the puzzle file's path."""
    path = directory / f"{name}.txt"
    try:
        write_new(path, puzzle.text)
        write_new(path.with_suffix(SOLUTION_SUFFIX), lab_part("walk").solution_text(puzzle.links))
    except OSError as error:
        raise UsageError(f"cannot write to --out {out}: {error.strerror or error}") from None
    return str(path)


def play_all(puzzles: list[Puzzle], argvs: list[list[str]], labels: tuple[str, ...],
             limits: Limits, jobs: int, progress: Progress, mode: Mode | None = None,
             finished: dict | None = None, replay_busy: int = 0) -> list[list[MatchResult]]:
    """Every bot on every puzzle: one list per puzzle, its results in bot order.

    The bots' matches on a puzzle are played one after the other, in turns: A then B,
    then B then A on the next puzzle, so neither bot always goes first. `finished` gets
    each match's result, keyed (puzzle index, bot index), as it ends: all there is to show
    when Ctrl-C stops the run (a match cut short by it is left out). A match lost on time
    while the bot waited for a CPU others held (`busy`) is played again, up to
    `replay_busy` times: the last result stands, so a replay wins only by arriving in time.
    """
    finished = {} if finished is None else finished
    order = [(i, k) for i in range(len(puzzles))
             for k in (range(len(argvs)) if i % 2 == 0 else reversed(range(len(argvs))))]

    stop = threading.Event()

    def play(item: tuple[int, int]) -> MatchResult:
        puzzle, k = puzzles[item[0]], item[1]
        result = play_one(puzzle.board, argvs[k], limits, name=puzzle.name, path=puzzle.path,
                          mode=mode, stop=stop, crew=crew)
        for replayed in range(1, replay_busy + 1):
            if not result.busy or stop.is_set():
                break
            result = replace(play_one(puzzle.board, argvs[k], limits, name=puzzle.name,
                                      path=puzzle.path, mode=mode, stop=stop),
                             replayed=replayed)
        result = replace(result, validator=puzzle.validator, bot=labels[k])
        if not stop.is_set():
            finished[item] = result
        who = f" ({result.bot})" if result.bot else ""
        progress.step(f"{safe(result.name)}{who}: {result.verdict.value}")
        return result

    # the next match's bot made while one plays, the last finished behind (referee/box/crew.py)
    crew = Crew({Crew.key(argv, mode): len(puzzles) for argv in argvs}, workers=jobs)
    with crew:
        if jobs == 1:
            played = [play(item) for item in order]
        else:
            with ThreadPoolExecutor(max_workers=jobs) as pool:
                try:
                    played = list(pool.map(play, order))
                except BaseException:
                    # Ctrl-C or SIGTERM (a match that fails gets an `error` result instead):
                    # the matches still running end now, their bots killed, not at their
                    # limits (nor shown as timeouts).
                    stop.set()
                    raise
    pairs: list[list[MatchResult]] = [[None] * len(argvs) for _ in puzzles]  # type: ignore[list-item]
    for (i, k), result in zip(order, played):
        pairs[i][k] = result
    return pairs


def replay_command(args: argparse.Namespace, bot: str, puzzle: Puzzle) -> str:
    """The command that plays this match again with the same bot and limits. A generated
    puzzle not written with --out is replayed with its whole set (the same every time):
    a shell comment says so, and how to get a line for just this puzzle."""
    parts = [*spoon2_words(), "run", "--bot", bot]
    if args.first_line_ms != FIRST_LINE_LIMIT_S * 1000:
        parts += ["--first-line-ms", f"{args.first_line_ms:g}"]
    if args.turn_ms != TURN_LIMIT_S * 1000:
        parts += ["--turn-ms", f"{args.turn_ms:g}"]
    if args.cpu_cap != CPU_CAP_CPUS:
        parts += ["--cpu-cap", "none" if args.cpu_cap is None else f"{args.cpu_cap:g}"]
    if puzzle.path:
        return shlex.join(parts + [puzzle.path])
    command = shlex.join(parts + ["--gen", puzzle.gen])
    if puzzle.set_size > 1:
        command += (f"  # plays all {puzzle.set_size} of its set: add --out DIR to write "
                    f"{puzzle.name}.txt and get a replay of just this one")
    return command


def losses(results: list[MatchResult], replays: list[str], quiet: bool) -> list[str]:
    """The report's sections on lost matches: each explained, its board drawn; with
    `quiet`, one section of one line per loss."""
    if not quiet:
        return [loss_details(r, c) for r, c in zip(results, replays) if not r.won]
    lines = [loss_line(r) for r in results if not r.won]
    return ["\n".join(lines)] if lines else []


def print_stopped(args: argparse.Namespace, puzzles: list[Puzzle], bots: list[str],
                  finished: dict[tuple[int, int], MatchResult], limits: Limits,
                  total: int) -> None:
    """The report of the matches that ended before Ctrl-C or SIGTERM stopped the run."""
    keys = sorted(finished)
    results = [finished[key] for key in keys]
    replays = [replay_command(args, bots[k], puzzles[i]) for i, k in keys]
    sections = [] if args.quiet or not results else [table(results, limits)]
    sections += losses(results, replays, args.quiet)
    sections.append(f"stopped after {len(results)} of {total} match(es): {summary_line(results)}")
    try:
        print("\n\n".join(sections), flush=True)
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def print_report(results: list[MatchResult], replays: list[str], pairs: list[list[MatchResult]],
                 labels: tuple[str, ...], bots: list[str], stats: dict | None, limits: Limits,
                 quiet: bool, colour: bool = False, header: str = "") -> None:
    """The table under the header line (with two bots: their commands, the side-by-side
    table and the versus summary), latencies, each loss, and the last line."""
    sections: list[str] = []
    head = [header] if header else []
    if not quiet and stats is None:
        sections += ["\n".join(head + [table(results, limits, colour)]), latency_summary(results)]
    elif not quiet:
        groups = [(label, [pair[k] for pair in pairs]) for k, label in enumerate(labels)]
        commands = [f"{label}: {safe(bot)}" for label, bot in zip(labels, bots)]
        sections += ["\n".join(head + commands),
                     versus_table(pairs, labels, limits, colour),
                     latency_summary(groups[0][1], groups[0][0], more=groups[1:]),
                     versus_summary(stats, labels)]
    sections += losses(results, replays, quiet)
    sections += [cleanup_notes(results)] if any(r.cleanup for r in results) else []
    sections.append(summary_line(results))
    print("\n\n".join(sections), flush=True)


# A limit is a positive number of milliseconds, at most a day (select() takes no infinity).
_positive = number(low=0.0, high=86_400_000.0, low_open=True)
_cpu_count = number(low=0.1, high=1024.0)


def _cpus(text: str) -> float | None:
    return None if text == "none" else _cpu_count(text)

