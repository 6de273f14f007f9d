"""`profile --bot CMD PUZZLE...`: where a player's own bot spends its time, turn by turn.

Each puzzle is played through the referee while a thread of the referee reads the bot's
CPU time (cpu_clock.py: every process and thread of it). A Python bot is started by
`sampler.py` (its file unchanged), whose thread samples the bot's stack every --interval;
a small bot's match is played again until --samples samples of its code are pooled (at
most --repeat matches). After each match the samples and the CPU are split at the
referee's stamps of the bot's lines. For a Python bot, the first line and each line over
half of CodinGame's limit get a table of the functions that held the time (own: at the
top of the stack; cum: anywhere in it), and a flame graph file (speedscope's format)
holds every puzzle and every such line; another bot runs as itself and gets its lines'
wall and CPU time, slowest first, and the command of its language's own profiler.
Profiling slows a Python bot, so the match is played under CodinGame's limits times
--slack; `--overhead` measures by how much.
"""

from __future__ import annotations

import re
import sys
import tempfile
from pathlib import Path

from referee.judge.board import Board
from referee.cli import UsageError
from referee.cli.args import command_argv, unwritable
from referee.box.sandbox import Mode
from referee.judge.limits import FIRST_LINE_LIMIT_S, MEMORY_LIMIT_BYTES, TURN_LIMIT_S, Limits
from referee.judge.match import play_match
from referee.box.reaper import remove_tree
from referee.judge.result import MatchResult, Usage
from referee.box.runner import BotProcess, BotStartError, run_match
from referee.lab.profile.cpu_clock import CpuPoller
from referee.lab.profile.next_tools import next_tool
from referee.lab.profile.pooled import Profiled, pool_lines
from referee.lab.profile.report import (limits_line, other_report, overhead_rows,
                                        python_report, sampling_line)
from referee.lab.profile.speedscope import FlameFile
from referee.lab.profile.turn_samples import Samples, read_samples, split_turns
from referee.terminal import safe
from referee.files import write_new

SAMPLER = Path(__file__).with_name("sampler.py")
PYTHON_NAME = re.compile(r"(python|pypy)[0-9.]*")
FLAGS_WITH_VALUE = ("-X", "-W", "-Q")


def python_target(argv: list[str]) -> tuple[list[str], list[str]] | None:
    """(the interpreter and its flags, the sampler's arguments naming the bot) for a Python
    bot's command; None for another language. `python -c` has no file to run: refused."""
    if not PYTHON_NAME.fullmatch(Path(argv[0]).name):
        return None
    i = 1
    while i < len(argv) and argv[i].startswith("-") and argv[i] != "-":
        if argv[i] == "-m" and i + 1 < len(argv):
            return argv[:i], ["-m", argv[i + 1], "--", *argv[i + 2:]]
        if argv[i].startswith("-c"):
            raise UsageError("--bot: python -c has no file to profile: give the bot's .py file")
        i += 2 if argv[i] in FLAGS_WITH_VALUE else 1
    if i == len(argv):
        raise UsageError("--bot: a Python command without the bot's file or -m module")
    return argv[:i], ["--", *argv[i:]]


def sampled_command(argv: list[str], fd: int, interval_s: float) -> list[str]:
    """The command that runs a Python bot under the sampler, its records going down `fd`;
    another bot's command as it is."""
    python = python_target(argv)
    if python is None:
        return argv
    interpreter, target = python
    return [*interpreter, str(SAMPLER), "--fd", str(fd), "--interval", f"{interval_s:g}", *target]


def language(argv: list[str]) -> str:
    """'python', 'java', 'node' or '' (a native program, or one not told apart)."""
    name = Path(argv[0]).name
    if PYTHON_NAME.fullmatch(name):
        return "python"
    return next((k for k in ("java", "node") if name.startswith(k)), "")


class _Watched:
    """The bot's transport, its CPU read as it plays; keeps when the input went."""

    def __init__(self, inner: BotProcess):
        self.inner = inner
        self.poller = CpuPoller(inner.sandbox)
        self.sent_at: float | None = None

    def send(self, text: str) -> float:
        self.sent_at = self.inner.send(text)
        return self.sent_at

    def close(self) -> Usage:
        self.poller.stop()   # before the box and its cgroup go
        return self.inner.close()

    def __getattr__(self, name):
        return getattr(self.inner, name)


def play_profiled(board: Board, name: str, argv: list[str], limits: Limits,
                  interval_s: float, mode: Mode | None = None) -> Profiled:
    """One match with its CPU read (and, for a Python bot, its stack sampled); raises
    BotStartError if the bot cannot start."""
    folder = tempfile.mkdtemp(prefix="referee-profile-")
    try:
        with tempfile.TemporaryFile(dir=folder) as records:
            fd = records.fileno()
            sampled = python_target(argv) is not None
            bot = BotProcess(sampled_command(argv, fd, interval_s),
                             memory_limit_bytes=MEMORY_LIMIT_BYTES, tmp_parent=folder,
                             mode=mode, pass_fds=(fd,) if sampled else ())
            try:
                watched = _Watched(bot)
            except BaseException:
                bot.close()   # no thread to read its CPU: the match is not played
                raise
            result = play_match(board, watched, limits, name=name)
            records.seek(0)
            samples = read_samples(records.read())
    finally:
        remove_tree(folder)
    cpu = watched.poller.stop()
    sent = watched.sent_at if watched.sent_at is not None else 0.0
    return Profiled(result, samples, cpu, split_turns(samples, cpu, sent, result.latencies_s), sent)


def play_pooled(board: Board, name: str, argv: list[str], limits: Limits, interval_s: float,
                want: int, most: int) -> list[Profiled]:
    """The match, played again until `want` samples of the bot's code are pooled, `most`
    matches are played or one is lost."""
    matches = [play_profiled(board, name, argv, limits, interval_s)]
    while (len(matches) < most and matches[-1].result.won
           and sum(m.bot_samples for m in matches) < want):
        matches.append(play_profiled(board, name, argv, limits, interval_s))
    return matches


def play_plain(board: Board, name: str, argv: list[str], limits: Limits,
               mode: Mode | None = None) -> MatchResult:
    """The same match without the profiler: the overhead's baseline."""
    folder = tempfile.mkdtemp(prefix="referee-profile-")
    try:
        return run_match(board, argv, limits, name=name, tmp_parent=folder, mode=mode)
    finally:
        remove_tree(folder)


def write_flame(path: str, flame: FlameFile) -> None:
    try:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        write_new(path, flame.text())
    except OSError as error:
        raise UsageError(f"cannot write --flame {path}: {error.strerror or error}") from None


def scaled(slack: float) -> Limits:
    return Limits(first_line_s=FIRST_LINE_LIMIT_S * slack, turn_s=TURN_LIMIT_S * slack)


def execute(args, puzzles: list[tuple[str, Board, Path]]) -> int:
    """Profile the bot on each puzzle (or, with --overhead, time it with and without the
    profiler); 0 when every match is won, 1 otherwise."""
    argv = command_argv(args.bot, "--bot")
    lang = language(argv)
    python_target(argv)   # a `python -c` bot is refused before any match
    if not args.overhead and lang == "python":
        why = unwritable(args.flame) if Path(args.flame).parent.is_dir() else ""
        if why:
            raise UsageError(f"cannot write --flame {args.flame}: {why}")
    limits, interval_s = scaled(args.slack), args.interval / 1000
    print(f"profile --bot {safe(args.bot)}: {len(puzzles)} puzzle(s)")
    print(limits_line(args.slack, limits))
    try:
        if args.overhead:
            return _overhead(argv, puzzles, limits, args.repeat, interval_s)
        if lang == "python":
            return _python(args, argv, puzzles, limits, interval_s)
        return _other(args, argv, lang, puzzles, limits, interval_s)
    except BotStartError as error:
        raise UsageError(f"--bot: {error}") from None


def _python(args, argv: list[str], puzzles, limits: Limits, interval_s: float) -> int:
    print(sampling_line(interval_s, args.samples, args.repeat))
    flame = FlameFile(f"spoon2 profile --bot {args.bot}")
    won = True
    for name, board, _ in puzzles:
        matches = play_pooled(board, name, argv, limits, interval_s, args.samples, args.repeat)
        won &= all(m.result.won for m in matches)
        lines = pool_lines(matches)
        print("\n".join(python_report(name, matches, lines, args.top)))
        flame.add(name, [(m.samples, 0, len(m.samples.times)) for m in matches])
        for line in lines:
            if line.slow:
                flame.add(f"{name} line {line.number}", line.segments)
    write_flame(args.flame, flame)
    print(f"flame graph: {safe(args.flame)} (open it in https://www.speedscope.app)")
    return 0 if won else 1


def _other(args, argv: list[str], lang: str, puzzles, limits: Limits, interval_s: float) -> int:
    won = True
    for name, board, _ in puzzles:
        profiled = play_profiled(board, name, argv, limits, interval_s)
        won &= profiled.result.won
        print("\n".join(other_report(profiled, args.top)))
        if not profiled.cpu.times:
            print("  (no CPU reading: the bot's processes could not be read)")
    texts = [path for _, _, path in puzzles if path.suffix == ".txt"]
    puzzle = str(texts[0]) if texts else "PUZZLE.txt"
    print("not Python: wall and CPU time per line; inside a line, its language's own "
          "profiler, run from this folder:")
    print("\n".join(next_tool(argv, lang, puzzle)))
    return 0 if won else 1


def _overhead(argv: list[str], puzzles, limits: Limits, repeat: int, interval_s: float) -> int:
    """Each puzzle `repeat` times unprofiled and profiled, interleaved; the ratios."""
    pairs = []
    for name, board, _ in puzzles:
        plain, sampled = [], []
        for _ in range(repeat):
            plain.append(play_plain(board, name, argv, limits))
            sampled.append(play_profiled(board, name, argv, limits, interval_s).result)
        pairs.append((name, plain, sampled))
    print("\n".join(overhead_rows(pairs)))
    lost = [(r, way) for _, plain, sampled in pairs
            for way, results in (("unprofiled", plain), ("profiled", sampled))
            for r in results if not r.won]
    for r, way in lost:
        print(f"lost {safe(r.name)} ({way}): {r.verdict.value}, {safe(r.reason)}")
    return 0 if not lost else 1
