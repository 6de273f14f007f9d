"""The bot's matches in a hunt: each board played as `run` plays it, the runs counted, as
many at once as --jobs says, and a timeout counted only when the lateness was the bot's.

A timeout can be the machine's doing: the judge marks one `busy` when the bot was kept
waiting by something else than itself (referee.judge.match; the result's `busy`). Such a
timeout is no loss of the bot's, nor a win: `undecided`. A match so marked may be played
again (`busy_replays` times) before it is left undecided; any other result stands as it
is, so `run`'s verdicts and the hunt's agree. Every match is played by
referee.box.one_match.play_one (the runner, containment and limits of `run`), in threads
of a pool: each match is a process of its own.
"""

from __future__ import annotations

import threading
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import replace
from typing import Callable

from referee.box.one_match import play_one
from referee.box.sandbox import Mode
from referee.lab.hunt.witness import Witness
from referee.judge.limits import Limits
from referee.judge.result import MatchResult
from referee.judge.rules import Verdict

PlayOne = Callable[..., MatchResult]


def undecided(result: MatchResult) -> bool:
    """A timeout the judge put down to the machine, not to the bot."""
    return result.verdict is Verdict.TIMEOUT and result.busy


def lost(result: MatchResult) -> bool:
    """A loss that is the bot's own: lost, and not undecided."""
    return not result.won and not undecided(result)


class BotRuns:
    """Plays witnesses with one bot command; `runs` counts every match played.
    `play` is the match itself (play_one; a stand-in in tests)."""

    def __init__(self, argv: list[str], limits: Limits, jobs: int = 1, mode: Mode | None = None,
                 play: PlayOne = play_one):
        self.argv = argv
        self.limits = limits
        self.jobs = jobs
        self.mode = mode
        self.runs = 0
        self.stop = threading.Event()    # set on Ctrl-C: the matches under way end now
        self._play = play
        self._lock = threading.Lock()
        self._pool = ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="hunt-match")

    def close(self) -> None:
        """Wait for the matches under way (all of them end at once after `stop`)."""
        self._pool.shutdown(wait=True, cancel_futures=True)

    def play(self, witness: Witness, name: str, busy_replays: int = 0) -> MatchResult:
        """One match, played again while it is undecided, up to `busy_replays` times;
        the last result, its `replayed` the times it was played again."""
        result = self.match(witness, name)
        replayed = 0
        while undecided(result) and replayed < busy_replays and not self.stop.is_set():
            result = self.match(witness, name)
            replayed += 1
        return replace(result, replayed=replayed) if replayed else result

    def submit(self, witness: Witness, name: str, busy_replays: int = 0) -> Future:
        """`play` in the pool: a future of its result."""
        return self._pool.submit(self.play, witness, name, busy_replays)

    def match(self, witness: Witness, name: str) -> MatchResult:
        """One match, counted."""
        with self._lock:
            self.runs += 1
        return self._play(witness.board(), self.argv, self.limits, name=name, mode=self.mode,
                          stop=self.stop)
