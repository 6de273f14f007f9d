"""The bot's matches in a hunt: each board played as `run` plays it, the runs counted,
a timeout played again before it counts, and as many matches at once as --jobs says.

A timeout can be the machine's doing (another process had the CPU), so a match lost on
time is replayed at once: only a second timeout makes it the bot's; otherwise the replay's
result stands. Every match is played by referee.box.one_match.play_one (the runner,
containment and limits of `run`), in threads: each match is a process of its own.
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Sequence

from referee.box.one_match import play_one
from referee.box.sandbox import Mode
from referee.lab.hunt.witness import Witness
from referee.judge.limits import Limits
from referee.judge.result import MatchResult
from referee.judge.rules import Verdict


class BotRuns:
    """Plays witnesses with one bot command; `runs` counts every match played."""

    def __init__(self, argv: list[str], limits: Limits, jobs: int = 1, mode: Mode | None = None):
        self.argv = argv
        self.limits = limits
        self.jobs = jobs
        self.mode = mode
        self.runs = 0
        self.stop = threading.Event()    # set on Ctrl-C: the matches under way end now
        self._lock = threading.Lock()
        self._pool = ThreadPoolExecutor(max_workers=jobs) if jobs > 1 else None

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True)

    def play(self, witness: Witness, name: str) -> MatchResult:
        """One match, and a second one when the first is a timeout (see the module)."""
        result = self._match(witness, name)
        if result.verdict is Verdict.TIMEOUT:
            again = self._match(witness, name)
            if again.verdict is not Verdict.TIMEOUT:
                return again
        return result

    def play_all(self, items: Sequence[tuple[Witness, str]]) -> list[MatchResult]:
        """`play` on each (witness, name), up to `jobs` at once; the results in order."""
        if self._pool is None:
            return [self.play(witness, name) for witness, name in items]
        try:
            return list(self._pool.map(lambda item: self.play(*item), items))
        except BaseException:   # Ctrl-C or SIGTERM: the other matches end, their bots killed
            self.stop.set()
            raise

    def first_losing(self, candidates: Sequence[Witness], verdict: Verdict, name: str,
                     kept: dict[Witness, MatchResult]) -> int | None:
        """The index of the first candidate the bot loses on with `verdict` (None: none),
        played `jobs` at a time in order; the losing result goes in `kept`."""
        for start in range(0, len(candidates), self.jobs):
            batch = candidates[start:start + self.jobs]
            results = self.play_all([(witness, name) for witness in batch])
            for offset, result in enumerate(results):
                if result.verdict is verdict:
                    kept[batch[offset]] = result
                    return start + offset
        return None

    def _match(self, witness: Witness, name: str) -> MatchResult:
        with self._lock:
            self.runs += 1
        return play_one(witness.board(), self.argv, self.limits, name=name, mode=self.mode,
                        stop=self.stop)
