"""The match: the turn loop, the time limits and the verdict, over any transport.

The loop never touches a process or a clock itself: a `Transport` delivers the
bot's lines with their arrival times (`perf_counter` seconds). The runner's
`BotProcess` is the real transport; tests use a scripted one.

Order of decisions on each awaited line: a line later than its limit is a
timeout (even if it would have won); a cut over-long line is malformed; then
the rules judge it. Lateness is never forgiven, whatever kept the bot: the times come
from a process the bot cannot slow down (referee/box/stamper.py), and a bot can make its own
machine busy. A line lost on time says where the bot's time went (running, waiting for a
CPU, asleep, reading a stdin that never ends), and when the bot waited for a CPU others
held most of the time, the loss is marked `busy`, so that it can be replayed; the mark
changes no verdict. When the output ends: a non-zero exit is a crash, a clean exit
lets the rules judge the end (incomplete or disconnected), and a bot that closed its
output but does not exit in time is a timeout. A bot over the memory cap never wins.
"""

from __future__ import annotations

import enum
import signal
from dataclasses import dataclass
from typing import Protocol

from referee.judge.board import Board
from referee.judge.limits import BUSY_SHARE, MAX_LINE_BYTES, Limits
from referee.judge.result import Lateness, MatchResult, Usage
from referee.judge.rules import Judge, Outcome, Verdict
from referee.units import ms


class EventKind(enum.Enum):
    LINE = "line"          # a complete output line arrived
    EOF = "eof"            # the bot closed its stdout (usually: it exited)
    TIMEOUT = "timeout"    # the deadline passed with no line


SILENCE, LATE = "silence", "late"   # how a line was lost on time: none came, or late


@dataclass(frozen=True)
class Event:
    """What a transport saw by a deadline; `at` is when (perf_counter seconds)."""

    kind: EventKind
    at: float
    text: str = ""
    cut: bool = False      # the line was longer than MAX_LINE_BYTES and was cut


class Transport(Protocol):
    """The bot as the match sees it."""

    def send(self, text: str) -> float:
        """Write the input, keep stdin open; return when it was written."""

    def read_line(self, deadline: float) -> Event:
        """The next line, EOF, or TIMEOUT once `deadline` passes."""

    def wait_exit(self, deadline: float) -> int | None:
        """The exit status (negative: killed by a signal), or None if still running at deadline."""

    def close(self) -> Usage:
        """Stop the bot for good (idempotent) and report what it used."""


def play_match(board: Board, transport: Transport, limits: Limits = Limits(),
               name: str = "", path: str = "") -> MatchResult:
    """Play one match to its verdict; the transport is always closed."""
    lines: list[str] = []
    latencies: list[float] = []
    try:
        outcome, waited = _play(board, transport, limits, lines, latencies)
    finally:
        usage = transport.close()
    if usage.over_memory and (outcome.line is None or outcome.verdict is Verdict.WIN):
        # killed at the cap: the end of output, crash or timeout that followed came from that
        outcome = Outcome(Verdict.MEMORY, usage.over_memory, outcome.turn)
    elif outcome.verdict is Verdict.CRASH:
        outcome = _with_stderr_hint(outcome, usage.stderr_tail)
    lateness = usage.lateness if waited and outcome.verdict is Verdict.TIMEOUT else None
    busy = lateness is not None and _busy(lateness, waited == SILENCE)
    if lateness is not None:
        outcome = Outcome(outcome.verdict, f"{outcome.reason}; "
                          f"{_lateness_text(lateness, waited == SILENCE)}", outcome.turn,
                          outcome.line)
    return MatchResult(name=name, board=board, verdict=outcome.verdict, reason=outcome.reason,
                       turn=outcome.turn, line=outcome.line, lines=tuple(lines),
                       latencies_s=tuple(latencies), usage=usage, path=path, busy=busy)


def _play(board: Board, transport: Transport, limits: Limits,
          lines: list[str], latencies: list[float]) -> tuple[Outcome, str]:
    """The turn loop; fills `lines` and `latencies` as lines arrive. The outcome, and
    SILENCE or LATE where it is a line lost on time (else "")."""
    judge = Judge(board)
    previous = transport.send(board.to_text())
    while True:
        turn = len(lines) + 1
        limit = limits.for_turn(turn)
        event = transport.read_line(previous + limit + limits.grace_s)
        if event.kind is EventKind.TIMEOUT:
            return Outcome(Verdict.TIMEOUT, _silence_reason(turn, limit), turn), SILENCE
        if event.kind is EventKind.EOF:
            return _judge_end(judge, transport, turn, previous + limit + limits.grace_s), ""
        latency = event.at - previous
        lines.append(event.text)
        latencies.append(latency)
        if latency > limit:
            return Outcome(Verdict.TIMEOUT, _late_reason(turn, latency, limit), turn,
                           event.text), LATE
        if event.cut:
            return Outcome(Verdict.MALFORMED, f"the line is longer than {MAX_LINE_BYTES} bytes",
                           turn, event.text), ""
        outcome = judge.feed(event.text)
        if outcome is not None:
            return outcome, ""
        previous = event.at


def _judge_end(judge: Judge, transport: Transport, turn: int, deadline: float) -> Outcome:
    """The output ended: judge by how the bot exits."""
    status = transport.wait_exit(deadline)
    if status is None:
        return Outcome(Verdict.TIMEOUT, f"the bot closed its output after {turn - 1} line(s) "
                       "but did not exit in time", turn)
    if status != 0:
        return Outcome(Verdict.CRASH, f"the bot {describe_exit(status)} after {turn - 1} "
                       "line(s), before winning", turn)
    return judge.finish()


def describe_exit(status: int) -> str:
    """'exited with status 3' or 'was killed by signal 9 (SIGKILL)'."""
    if status >= 0:
        return f"exited with status {status}"
    try:
        signame = f" ({signal.Signals(-status).name})"
    except ValueError:
        signame = ""
    return f"was killed by signal {-status}{signame}"


def _silence_reason(turn: int, limit: float) -> str:
    if turn == 1:
        return f"no output line within {ms(limit, 'g')} ms of the input"
    return f"no line {turn} within {ms(limit, 'g')} ms of line {turn - 1}"


def _late_reason(turn: int, latency: float, limit: float) -> str:
    since = "the input" if turn == 1 else f"line {turn - 1}"
    return f"line {turn} came {ms(latency)} ms after {since}, over the {ms(limit, 'g')} ms limit"


def _busy(lateness: Lateness, silent: bool) -> bool:
    """The bot waited most of the interval for a CPU others held. Not a silent bot
    blocked reading stdin at the end: no input was coming, however long it waited."""
    return (lateness.machine_wait_s >= BUSY_SHARE * lateness.window_s
            and not (silent and lateness.reading_stdin))


def _lateness_text(lateness: Lateness, silent: bool) -> str:
    """Where the time went, the largest part first: 'asleep 148 of 150 ms, running 1 ms'.
    A silent bot blocked reading stdin is told why no more input comes."""
    stdin = silent and lateness.reading_stdin
    parts = [(lateness.asleep_s, "waiting for input after the last row" if stdin else "asleep"),
             (lateness.running_s, "running"),
             (lateness.machine_wait_s, "waiting for a CPU others held"),
             (lateness.own_wait_s, f"waiting for a CPU behind {lateness.own_wait_cause}")]
    (most, title), *rest = sorted(parts, key=lambda part: -part[0])
    text = ", ".join([f"{title} {ms(most, '.0f')} of {ms(lateness.window_s, '.0f')} ms",
                      *(f"{name} {ms(seconds, '.0f')} ms" for seconds, name in rest
                        if round(seconds * 1000) >= 1)])
    if stdin:
        text += " (CodinGame keeps stdin open: read exactly the lines given)"
    return text


def _with_stderr_hint(outcome: Outcome, stderr_tail: str) -> Outcome:
    """Add the last stderr line to a crash reason: it usually names the error."""
    last = next((l.strip() for l in reversed(stderr_tail.split("\n")) if l.strip()), "")
    if not last:
        return outcome
    last = last if len(last) <= 100 else last[:100] + "..."
    return Outcome(outcome.verdict, f"{outcome.reason} (stderr: {last})", outcome.turn,
                   outcome.line)
