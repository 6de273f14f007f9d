"""Play a bot on puzzles and judge every match as CodinGame would.

Puzzles are .txt files in CodinGame's input format or CodinGame SDK test files
(.json with a `testIn` field); a directory stands for every such file in it.
Without puzzles, the 13 public tests in puzzles/public are played.

Prints one row per match (puzzle, verdict, turns, first-line ms, slowest later
line ms, CPU ms, peak MB), first-line and per-turn latency percentiles with the
slowest puzzle, and for each lost match the reason, the offending line, the
board with the links placed so far, and the command that replays just that
match. Progress goes to stderr. The last line is `N passed, N failed`.

--html FILE writes one self-contained page (no network, no external asset) with the
table and every match replayable: the board as SVG, a turn slider and step buttons,
the losing link in red with the verdict and reason, each line's latency against its
limit. Open it in any browser.

Exit status: 0 when every match is won, 1 when any is lost, 2 on a usage error
(missing bot, unreadable or malformed puzzle).
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from referee.board import Board, BoardError, load_board
from referee.commands import UsageError
from referee.limits import FIRST_LINE_LIMIT_S, KILL_GRACE_S, TURN_LIMIT_S, Limits
from referee.report import latency_stats, latency_summary, loss_details, summary_line, table
from referee.result import MatchResult
from referee.proctree import adopt_orphans
from referee.runner import BotStartError, run_match
from referee.play import build_page, puzzle_entry
from referee.viewer import build_html

# The bundle, run by the Python that runs the referee: a `python3` found on PATH can be a
# wrapper script (pyenv's shim took 0.2 s a start here) whose delay CodinGame never has.
DEFAULT_BOT = shlex.join([sys.executable, "dist/bot.py"])
DEFAULT_PUZZLES = Path(__file__).resolve().parents[2] / "puzzles" / "public"
PUZZLE_SUFFIXES = (".txt", ".json")


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("puzzles", nargs="*", metavar="PUZZLE_OR_DIR",
                        help="puzzle files or directories (default: the public tests)")
    parser.add_argument("--bot", default=DEFAULT_BOT, metavar="CMD",
                        help="the command that starts the bot (default: dist/bot.py run by the "
                             "Python that runs the referee)")
    parser.add_argument("--first-line-ms", type=_positive, default=FIRST_LINE_LIMIT_S * 1000,
                        metavar="MS", help="limit for the first line, from the input "
                        "(default: %(default)g)")
    parser.add_argument("--turn-ms", type=_positive, default=TURN_LIMIT_S * 1000, metavar="MS",
                        help="limit for each later line, from the previous one "
                        "(default: %(default)g)")
    parser.add_argument("--jobs", type=int, default=1, metavar="N",
                        help="matches played at once (default: 1); parallel matches "
                        "compete for the CPU and distort timings")
    parser.add_argument("--json", metavar="FILE", help="also write every result, with all "
                        "output lines and latencies, as JSON to FILE")
    parser.add_argument("--html", metavar="FILE", help="also write a self-contained HTML "
                        "report to FILE: every match replayable in a browser")
    parser.add_argument("--quiet", action="store_true",
                        help="no progress, table or latency summary: only losses and the last line")


def execute(args: argparse.Namespace) -> int:
    argv = bot_argv(args.bot)
    puzzles = [(path, _load(path)) for path in puzzle_paths(args.puzzles)]
    if args.jobs < 1:
        raise UsageError(f"--jobs must be at least 1, got {args.jobs}")
    if args.json and not Path(args.json).resolve().parent.is_dir():
        raise UsageError(f"cannot write --json {args.json}: no such directory")
    if args.html and not Path(args.html).resolve().parent.is_dir():
        raise UsageError(f"cannot write --html {args.html}: no such directory")
    limits = Limits(first_line_s=args.first_line_ms / 1000, turn_s=args.turn_ms / 1000)
    adopt_orphans()  # this process runs only bots: catch children that escape and outlive them
    progress = Progress(len(puzzles), enabled=not args.quiet)
    results = play_all(puzzles, argv, limits, args.jobs, progress)
    progress.done()
    replays = [replay_command(args, r) for r in results]
    # Files first: a reader that closes stdout early (`| head`) must not cost them.
    if args.json:
        write_json(args, results, replays)
    if args.html:
        write_html(args, results, replays, limits)
    status = 0 if all(r.won for r in results) else 1
    try:
        print_report(results, replays, quiet=args.quiet)
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return status


def bot_argv(command: str) -> list[str]:
    """Split the bot command and check it can start: the program and any .py script exist."""
    try:
        argv = shlex.split(command)
    except ValueError as error:
        raise UsageError(f"cannot parse --bot {command!r}: {error}") from None
    if not argv:
        raise UsageError("--bot is empty")
    if shutil.which(argv[0]) is None:
        raise UsageError(f"bot program not found: {argv[0]}")
    for arg in argv[1:]:
        if arg.endswith(".py") and not arg.startswith("-") and not Path(arg).is_file():
            hint = " (build it with `make build`)" if command == DEFAULT_BOT else ""
            raise UsageError(f"bot script not found: {arg}{hint}")
    return argv


def puzzle_paths(args: list[str]) -> list[Path]:
    """The puzzle files named, directories expanded (sorted), default the public tests."""
    paths = []
    for arg in args or [str(_relative(DEFAULT_PUZZLES))]:
        path = Path(arg)
        if path.is_dir():
            found = sorted(p for p in path.iterdir() if p.suffix.lower() in PUZZLE_SUFFIXES)
            if not found:
                raise UsageError(f"no .txt or .json puzzle in directory {arg}")
            paths.extend(found)
        elif path.is_file():
            paths.append(path)
        else:
            raise UsageError(f"no such puzzle file or directory: {arg}")
    return paths


def _load(path: Path) -> Board:
    try:
        return load_board(path)
    except BoardError as error:
        raise UsageError(str(error)) from None


def play_all(puzzles: list[tuple[Path, Board]], argv: list[str], limits: Limits, jobs: int,
             progress: "Progress") -> list[MatchResult]:
    """Play every match, in parallel threads when jobs > 1; results in puzzle order."""
    def play(item: tuple[Path, Board]) -> MatchResult:
        path, board = item
        try:
            result = run_match(board, argv, limits, name=path.stem, path=str(path))
        except BotStartError as error:
            raise UsageError(str(error)) from None
        progress.step(result)
        return result

    if jobs == 1:
        return [play(item) for item in puzzles]
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(play, puzzles))


def replay_command(args: argparse.Namespace, result: MatchResult) -> str:
    """The command that plays just this match again with the same bot and limits."""
    parts = ["python", "-m", "referee", "run", "--bot", args.bot]
    if args.first_line_ms != FIRST_LINE_LIMIT_S * 1000:
        parts += ["--first-line-ms", f"{args.first_line_ms:g}"]
    if args.turn_ms != TURN_LIMIT_S * 1000:
        parts += ["--turn-ms", f"{args.turn_ms:g}"]
    return shlex.join(parts + [result.path])


def print_report(results: list[MatchResult], replays: list[str], quiet: bool) -> None:
    sections = [] if quiet else [table(results), latency_summary(results)]
    sections += [loss_details(r, c) for r, c in zip(results, replays) if not r.won]
    sections.append(summary_line(results))
    print("\n\n".join(sections), flush=True)


def write_json(args: argparse.Namespace, results: list[MatchResult], replays: list[str]) -> None:
    matches = [dict(r.to_json(), replay=c) for r, c in zip(results, replays)]
    data = {
        "bot": args.bot,
        "limits": {"first_line_ms": args.first_line_ms, "turn_ms": args.turn_ms,
                   "kill_grace_ms": KILL_GRACE_S * 1000},
        "passed": sum(r.won for r in results),
        "failed": sum(not r.won for r in results),
        "latency_ms": latency_stats(results),
        "matches": matches,
    }
    try:
        Path(args.json).write_text(json.dumps(data, indent=1) + "\n")
    except OSError as error:
        raise UsageError(f"cannot write --json {args.json}: {error.strerror or error}") from None


def write_html(args: argparse.Namespace, results: list[MatchResult], replays: list[str],
               limits: Limits) -> None:
    page = build_html(results, replays, limits, bot=args.bot,
                      title=f"referee run: {summary_line(results)}")
    lost = [puzzle_entry(r.name, r.board) for r in results if not r.won]
    try:
        Path(args.html).write_text(page, encoding="utf-8")
        if lost:   # the report links each lost position to this page (viewer.js, playerLink)
            Path(args.html).with_suffix(".play.html").write_text(
                build_page(lost, "lost matches"), encoding="utf-8")
    except OSError as error:
        raise UsageError(f"cannot write --html {args.html}: {error.strerror or error}") from None


class Progress:
    """One note per finished match on stderr: a rewritten line on a terminal, plain lines otherwise."""

    def __init__(self, total: int, enabled: bool = True):
        self.total = total
        self.count = 0
        self.enabled = enabled
        self.terminal = sys.stderr.isatty()
        self._lock = threading.Lock()

    def step(self, result: MatchResult) -> None:
        with self._lock:
            self.count += 1
            if not self.enabled:
                return
            note = f"[{self.count}/{self.total}] {result.name}: {result.verdict.value}"
            if self.terminal:
                sys.stderr.write("\r\033[K" + note)
            else:
                sys.stderr.write(note + "\n")
            sys.stderr.flush()

    def done(self) -> None:
        if self.enabled and self.terminal and self.count:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()


def _positive(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be positive, got {text}")
    return value


def _relative(path: Path) -> Path:
    """The path relative to the working directory when it lies below it."""
    try:
        return path.relative_to(Path.cwd())
    except ValueError:
        return path
