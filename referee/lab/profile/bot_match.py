"""`profile --bot CMD PUZZLE...`: where a player's own bot spends its time, turn by turn.

Each puzzle is played through the referee with the bot started by `bot_sampler.py` (its
file unchanged): a Python bot's stack is sampled every millisecond by a thread of its own
process, another bot's main thread's CPU time is read from /proc as often. After the match
the samples are split at the referee's stamps of the bot's lines. For a Python bot, the
first line and each line over half of CodinGame's limit get a table of the functions that
held the time (own: at the top of the stack; cum: anywhere in it), and a flame graph file
(speedscope's format) holds every match and every such line; another bot gets every
line's wall and CPU time. Profiling slows the bot, so the match is played under
CodinGame's limits times --slack; `--overhead` measures by how much.
"""

from __future__ import annotations

import re
import statistics
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from referee.judge.board import Board
from referee.cli import UsageError
from referee.cli.args import command_argv, unwritable
from referee.box.sandbox import Mode
from referee.judge.limits import FIRST_LINE_LIMIT_S, MEMORY_LIMIT_BYTES, TURN_LIMIT_S, Limits
from referee.judge.match import play_match
from referee.box.reaper import remove_tree
from referee.judge.result import MatchResult
from referee.box.runner import BotProcess, BotStartError, run_match
from referee.lab.profile.speedscope import FlameFile
from referee.lab.profile.turn_samples import Samples, Turn, read_samples, split_turns
from referee.terminal import safe
from referee.units import ms
from referee.files import write_new

SAMPLER = Path(__file__).with_name("sampler.py")
INTERVAL_S = 0.001
PYTHON_NAME = re.compile(r"(python|pypy)[0-9.]*")
FLAGS_WITH_VALUE = ("-X", "-W", "-Q")
CODINGAME = Limits()
RATIO_FLOOR_S = 0.001   # later lines faster than this get no overhead ratio: clock noise
NEXT_TOOLS = {   # what to reach for when the bot is not Python
    "java": "async-profiler (asprof) or JFR: java -XX:+FlightRecorder",
    "node": "node --cpu-prof (or --prof) on one puzzle: `node --cpu-prof bot.js < puzzle.txt`",
    "": "perf: `perf record -g -- CMD < puzzle.txt`, then `perf report`",
}


@dataclass(frozen=True)
class Profiled:
    """One match played under the sampler, its samples split by line."""

    result: MatchResult
    samples: Samples
    turns: list[Turn]


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


def sampled_command(argv: list[str], fd: int) -> list[str]:
    """The command that runs the bot under the sampler, its records going down `fd`."""
    common = [str(SAMPLER), "--fd", str(fd), "--interval", f"{INTERVAL_S:g}"]
    python = python_target(argv)
    if python is None:
        return [sys.executable, *common, "--exec", "--", *argv]
    interpreter, target = python
    return [*interpreter, *common, *target]


def language(argv: list[str]) -> str:
    """'python', 'java', 'node' or '' (a native program, or one not told apart)."""
    name = Path(argv[0]).name
    if PYTHON_NAME.fullmatch(name):
        return "python"
    return next((k for k in ("java", "node") if name.startswith(k)), "")


class _Stamped:
    """The bot's transport, keeping when the input went: the samples' zero."""

    def __init__(self, inner: BotProcess):
        self.inner = inner
        self.sent_at: float | None = None

    def send(self, text: str) -> float:
        self.sent_at = self.inner.send(text)
        return self.sent_at

    def __getattr__(self, name):
        return getattr(self.inner, name)


def play_sampled(board: Board, name: str, argv: list[str], limits: Limits,
                 mode: Mode | None = None) -> Profiled:
    """One match with the bot under the sampler; raises BotStartError if it cannot start."""
    folder = tempfile.mkdtemp(prefix="referee-profile-")
    try:
        with tempfile.TemporaryFile(dir=folder) as records:
            fd = records.fileno()
            bot = BotProcess(sampled_command(argv, fd), memory_limit_bytes=MEMORY_LIMIT_BYTES,
                             tmp_parent=folder, mode=mode, pass_fds=(fd,))
            stamped = _Stamped(bot)
            result = play_match(board, stamped, limits, name=name)
            records.seek(0)
            samples = read_samples(records.read())
    finally:
        remove_tree(folder)
    sent = stamped.sent_at if stamped.sent_at is not None else 0.0
    return Profiled(result, samples, split_turns(samples, sent, result.latencies_s))


def play_plain(board: Board, name: str, argv: list[str], limits: Limits,
               mode: Mode | None = None) -> MatchResult:
    """The same match without the sampler: the overhead's baseline."""
    folder = tempfile.mkdtemp(prefix="referee-profile-")
    try:
        return run_match(board, argv, limits, name=name, tmp_parent=folder, mode=mode)
    finally:
        remove_tree(folder)


def slow(turn: Turn) -> bool:
    """The first line, and any line over half of CodinGame's limit for it."""
    return turn.number == 1 or turn.latency_s > CODINGAME.for_turn(turn.number) / 2


def turn_table(profiled: Profiled, turn: Turn, top: int) -> list[str]:
    """The line's times and the functions that held them, by own time."""
    limit = CODINGAME.for_turn(turn.number)
    cpu = "" if turn.cpu_s is None else f", CPU {ms(turn.cpu_s)} ms"
    lines = [f"line {turn.number}: {ms(turn.latency_s)} ms (CodinGame's limit {ms(limit, 'g')} ms)"
             f"{cpu}, {turn.samples} samples"]
    if not turn.own or not top:
        return lines
    lines.append(f"  {'own ms':>8} {'cum ms':>8}  function")
    for frame_id, own in turn.own.most_common(top):
        frame = profiled.samples.frames.get(frame_id)
        where = f"{frame.function}  {_short(frame.file)}:{frame.line}" if frame else f"frame {frame_id}"
        lines.append(f"  {ms(own):>8} {ms(turn.total[frame_id]):>8}  {safe(where)}")
    return lines


def _short(file: str) -> str:
    """A file's path from the working directory when it is below it."""
    try:
        return str(Path(file).resolve().relative_to(Path.cwd()))
    except (ValueError, OSError):
        return file


def report_match(profiled: Profiled, top: int, lang: str) -> list[str]:
    """The match's verdict line, then a table for each slow line."""
    r = profiled.result
    slow_turns = [t for t in profiled.turns if slow(t)]
    shown = (f"{len(slow_turns)} shown (the first, and any over half of CodinGame's limit)"
             if lang == "python" else "CPU: the main thread's")
    lines = [f"{safe(r.name)}: {r.verdict.value}, {len(r.lines)} line(s); {shown}"]
    if not r.won:
        lines.append(f"  {safe(r.reason)}")
    if lang != "python":
        return lines + line_times(profiled.turns)
    for turn in slow_turns:
        lines += turn_table(profiled, turn, top)
    return lines


def line_times(turns: list[Turn]) -> list[str]:
    """Every line's wall time and its main thread's CPU time, `!` on the slow ones."""
    rows = [f"  {'line':>5} {'wall ms':>9} {'cpu ms':>9}"]
    for turn in turns:
        cpu = "-" if turn.cpu_s is None else ms(turn.cpu_s)
        rows.append(f"  {turn.number:>5} {ms(turn.latency_s):>9} {cpu:>9}{'  !' if slow(turn) and turn.number > 1 else ''}")
    return rows


def overhead_rows(pairs: list[tuple[str, list[MatchResult], list[MatchResult]]]) -> list[str]:
    """Per puzzle: the median first line and slowest later line, unprofiled and profiled,
    and the ratios; then the median and max of the ratios over the puzzles."""
    lines = [f"{'puzzle':<24} {'first ms':>9} {'profiled':>9} {'ratio':>6}"
             f" {'slowest later':>13} {'profiled':>9} {'ratio':>6}"]
    firsts, laters = [], []
    for name, plain, sampled in pairs:
        a, b = _median_first(plain), _median_first(sampled)
        c, d = _median_later(plain), _median_later(sampled)
        firsts.append(b / a if a else None)
        laters.append(d / c if c >= RATIO_FLOOR_S else None)   # under it: the clock's noise
        lines.append(f"{safe(name)[:24]:<24} {ms(a):>9} {ms(b):>9} {_x(firsts[-1]):>6}"
                     f" {ms(c):>13} {ms(d):>9} {_x(laters[-1]):>6}")
    for label, ratios in (("first line", firsts), ("slowest later line", laters)):
        known = [x for x in ratios if x is not None]
        if known:
            lines.append(f"{label}: profiled/unprofiled median x{statistics.median(known):.2f}, "
                         f"max x{max(known):.2f} over {len(known)} puzzle(s)")
    return lines


def _median_first(results: list[MatchResult]) -> float:
    return statistics.median(r.first_line_s or 0.0 for r in results)


def _median_later(results: list[MatchResult]) -> float:
    """The median over the matches of each one's slowest later line (0 without any)."""
    return statistics.median(r.slowest_turn_s or 0.0 for r in results)


def _x(ratio: float | None) -> str:
    return "-" if ratio is None else f"x{ratio:.2f}"


def write_flame(path: str, flame: FlameFile) -> None:
    try:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        write_new(path, flame.text())
    except OSError as error:
        raise UsageError(f"cannot write --flame {path}: {error.strerror or error}") from None


def scaled(slack: float) -> Limits:
    return Limits(first_line_s=FIRST_LINE_LIMIT_S * slack, turn_s=TURN_LIMIT_S * slack)


def limits_line(slack: float) -> str:
    limits = scaled(slack)
    return (f"limits: CodinGame's x{slack:g} (first line {ms(limits.first_line_s, 'g')} ms, "
            f"later lines {ms(limits.turn_s, 'g')} ms), as the profiler slows the bot; "
            "lines are shown by CodinGame's own limits")


def execute(args, puzzles: list[tuple[str, Board]]) -> int:
    """Profile the bot on each puzzle (or, with --overhead, time it with and without the
    sampler); 0 when every match is won, 1 otherwise."""
    argv = command_argv(args.bot, "--bot")
    lang = language(argv)
    python_target(argv)   # a `python -c` bot is refused before any match
    if not args.overhead:
        why = unwritable(args.flame) if Path(args.flame).parent.is_dir() else ""
        if why:
            raise UsageError(f"cannot write --flame {args.flame}: {why}")
    limits = scaled(args.slack)
    print(f"profile --bot {safe(args.bot)}: {len(puzzles)} puzzle(s)")
    print(limits_line(args.slack))
    if args.overhead:
        return _overhead(argv, puzzles, limits, args.repeat)
    flame = FlameFile(f"spoon2 profile --bot {args.bot}")
    won = True
    for name, board in puzzles:
        try:
            profiled = play_sampled(board, name, argv, limits)
        except BotStartError as error:
            raise UsageError(f"--bot: {error}") from None
        won &= profiled.result.won
        print("\n".join(report_match(profiled, args.top, lang)))
        flame.add(name, profiled.samples)
        for turn in profiled.turns:
            if slow(turn):
                flame.add_turn(name, profiled.samples, turn)
    if lang == "python":
        write_flame(args.flame, flame)
        print(f"flame graph: {safe(args.flame)} (open it in https://www.speedscope.app)")
    else:
        print("not Python: each line's wall and CPU time only (the first line holds the "
              f"sampler's start); next, try {NEXT_TOOLS[lang]}")
    return 0 if won else 1


def _overhead(argv: list[str], puzzles: list[tuple[str, Board]], limits: Limits,
              repeat: int) -> int:
    """Each puzzle `repeat` times unprofiled and profiled, interleaved; the ratios."""
    pairs = []
    for name, board in puzzles:
        plain, sampled = [], []
        for _ in range(repeat):
            try:
                plain.append(play_plain(board, name, argv, limits))
                sampled.append(play_sampled(board, name, argv, limits).result)
            except BotStartError as error:
                raise UsageError(f"--bot: {error}") from None
        pairs.append((name, plain, sampled))
    print("\n".join(overhead_rows(pairs)))
    lost = [(r, way) for _, plain, sampled in pairs
            for way, results in (("unprofiled", plain), ("profiled", sampled))
            for r in results if not r.won]
    for r, way in lost:
        print(f"lost {safe(r.name)} ({way}): {r.verdict.value}, {safe(r.reason)}")
    return 0 if not lost else 1
