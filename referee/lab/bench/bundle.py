"""The bundle as bench plays it: its start-up against a bare Python, and its match on a
suite's slowest puzzle under CodinGame's limits, bounded in total time.

Start-up (`startup_times`): the bundle's time to its first line on a one-link board, beside
`python -c pass`, runs interleaved, each contained like a bot in a match. The match
(`play`): the referee's limits stop a silent bundle (no first line within 1 s, no later line
within 100 ms of the one before); a bundle that keeps printing within them is stopped
`timeout_s` after the input, as bench stops an in-process solve at its --timeout.
"""

from __future__ import annotations

import math
import re
import statistics
import sys
from dataclasses import replace
from pathlib import Path
from typing import Sequence

from referee.judge.board import Board
from referee.cli import UsageError
from referee.cli.args import command_argv
from referee.judge.limits import Limits
from referee.judge.match import Event, EventKind, Transport, play_match
from referee.judge.result import MatchResult, Usage
from referee.judge.rules import Verdict
from referee.box.runner import BotProcess, BotStartError
from referee.home import ROOT

DEFAULT_BUNDLE = None  # this Python on dist/bot.py: a pyenv shim would add ~70 ms to each start
BUNDLE_SCRIPT = "dist/bot.py"
STARTUP_PUZZLE = "3\n1\n1.1\n"


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


def first_line_seconds(command: list[str], text: str, limit: float, close_stdin: bool = False,
                       tmp_parent: str | None = None) -> float | None:
    """Seconds from the start (the launcher's mark: the command is exec'ing) to its first
    stdout line, or to its exit if it prints none; None if it cannot start. It runs
    contained as a bot in a match (referee.box.runner), `text` on its stdin, which stays open
    unless `close_stdin`; one still silent after `limit` s is stopped, and the figure is
    the time it was given (a board the solver times out on would run on for minutes).
    Every process it started is gone when this returns."""
    try:
        proc = BotProcess(command, cwd=str(ROOT), tmp_parent=tmp_parent)
    except BotStartError:
        return None
    with proc:
        start = proc.send(text)
        if close_stdin:
            proc.close_input()
        return proc.read_line(start + limit).at - start


def startup_times(bundle: list[str], runs: int, limit: float) -> dict:
    """Median bundle time to first line and `PYTHON -c pass` time to exit, runs interleaved,
    each stopped after `limit` s. PYTHON is the bundle command's first word when that is a
    Python, else this one (`python` in the figures says which): a wrapper script given
    `-c pass` would start the bot again, not a bare Python."""
    python = bundle[0] if is_python(bundle[0]) else sys.executable
    bundle_times, bare_times = [], []
    for _ in range(runs):
        bundle_times.append(first_line_seconds(bundle, STARTUP_PUZZLE, limit))
        bare_times.append(first_line_seconds([python, "-c", "pass"], "", limit, close_stdin=True))
    median = (lambda xs: None if None in xs else statistics.median(xs))
    return {"runs": runs, "bundle_first_line": median(bundle_times),
            "python_pass": median(bare_times), "python": python,
            "python_is_bundles": python == bundle[0]}


def is_python(program: str) -> bool:
    """The program is named as a Python interpreter: python, python3.11, pypy3 (a path too)."""
    return re.fullmatch(r"(python|pypy)[0-9.]*", Path(program).name) is not None


def bundle_argv(command: str | None) -> list[str]:
    """The bundle's argv, run from the project root; one that cannot start is a usage error."""
    if command is None:
        if not (ROOT / BUNDLE_SCRIPT).is_file():
            raise UsageError(f"{BUNDLE_SCRIPT} not found: build it with `make build`, or give --bundle")
        return [sys.executable, BUNDLE_SCRIPT]
    return command_argv(command, "--bundle", ROOT)
