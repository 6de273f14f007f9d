"""The bundle's match on one puzzle under CodinGame's limits, bounded in total time.

The referee's limits stop a silent bundle (no first line within 1 s, no later line
within 100 ms of the one before). A bundle that keeps printing within them is stopped
`timeout_s` after the input, as bench stops an in-process solve at its --timeout.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Sequence

from referee.board import Board
from referee.limits import Limits
from referee.match import Event, EventKind, Transport, play_match
from referee.result import MatchResult, Usage
from referee.rules import Verdict
from referee.runner import BotProcess


class Bounded:
    """A transport whose deadlines never pass `timeout_s` after the input (0: unbounded)."""

    def __init__(self, inner: Transport, timeout_s: float):
        self.inner = inner
        self.timeout_s = timeout_s
        self.stop_at = math.inf
        self.stopped = False       # a deadline was cut short and passed: the match was stopped

    def send(self, text: str) -> float:
        sent = self.inner.send(text)
        if self.timeout_s > 0:
            self.stop_at = sent + self.timeout_s
        return sent

    def read_line(self, deadline: float) -> Event:
        event = self.inner.read_line(min(deadline, self.stop_at))
        self.stopped |= event.kind is EventKind.TIMEOUT and deadline > self.stop_at
        return event

    def wait_exit(self, deadline: float) -> int | None:
        status = self.inner.wait_exit(min(deadline, self.stop_at))
        self.stopped |= status is None and deadline > self.stop_at
        return status

    def close(self) -> Usage:
        return self.inner.close()


def play(board: Board, argv: Sequence[str], timeout_s: float, name: str = "",
         cwd: str | None = None, tmp_parent: str | None = None) -> MatchResult:
    """One match under CodinGame's default limits, stopped `timeout_s` after the input.

    As runner.run_match, with the bound; raises runner.BotStartError if the bundle
    cannot start. Every process of the bundle is gone when it returns.
    """
    bot = Bounded(BotProcess(argv, cwd=cwd, tmp_parent=tmp_parent), timeout_s)
    result = play_match(board, bot, Limits(), name=name)
    if bot.stopped:   # the referee's reason would blame a limit the bundle kept
        reason = f"still playing {timeout_s:g} s after the input (bench --timeout), stopped"
        result = replace(result, verdict=Verdict.TIMEOUT, reason=reason)
    return result


def figures(key: str, result: MatchResult) -> dict:
    """The match for a report and JSON: verdict, reason, and times in seconds from the
    input (first line, last line) or from the line before (longest gap)."""
    return {"puzzle": key, "verdict": result.verdict.value, "won": result.won,
            "reason": result.reason, "first_line": result.first_line_s,
            "longest_gap": result.slowest_turn_s,
            "last_line": sum(result.latencies_s) if result.latencies_s else None,
            "lines": len(result.lines)}
