"""One way to lose, chased: from the board the hunt found it on to the smallest board the
shrink reaches, then that board replayed.

A `Chase` hands the hunt's loop one match at a time (`take`) and is told each result
(`receive`): a round of the shrink's candidates (referee.lab.hunt.shrink.Shrinker) is
played in order, up to `width` at once, and the first candidate on which the bot loses
the same way (a loss of its own: referee.lab.hunt.matches.lost) is the round's answer,
as one match at a time would find it; results of a round already answered are dropped.
When the shrink ends (or is stopped: `stop`, cut short) the smallest board is replayed
REPLAYS times, each a single match as `run` plays it, and the chase is done.

Wrong answers and crashes are chased first, a bot over its memory next, timeouts last
(RANK): a chase of lower rank plays only when those above it have nothing to play.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from referee.judge.result import MatchResult
from referee.judge.rules import Verdict
from referee.lab.hunt.matches import lost
from referee.lab.hunt.shrink import Shrinker
from referee.lab.hunt.witness import Witness

REPLAYS = 3              # each reported board is played this many times more
SHRINK_BUSY_REPLAYS = 1  # a shrink's candidate whose timeout was the machine's: once more
RANK = {Verdict.TIMEOUT: 2, Verdict.MEMORY: 1}   # any other way to lose: 0, chased first


@dataclass(frozen=True)
class Found:
    """Where a hunt met a way to lose: the board, its result, when, and after how many
    bot runs of the hunt."""

    name: str
    witness: Witness
    result: MatchResult
    after_s: float
    runs: int


@dataclass(frozen=True)
class Work:
    """One match a chase asks for: a candidate of round `round` (index `index`), or a
    replay (round None)."""

    chase: "Chase"
    witness: Witness
    round: int | None
    index: int
    busy_replays: int


class Chase:
    """A way to lose from the board found to its smallest board, replayed (see the module)."""

    def __init__(self, found: Found, order: int, width: int = 1):
        self.found = found
        self.verdict = found.result.verdict
        self.rank = (RANK.get(self.verdict, 0), order)
        self.width = width                 # candidates of a round in play at once
        self.shrinker = Shrinker(found.witness)
        self.kept = {found.witness: found.result}   # the losing result on each board kept
        self.runs = 0                      # matches the shrink played, replays included
        self.started: float | None = None  # when its first match was handed out
        self.shrink_s = 0.0
        self.cut_short = False
        self.replays: list[MatchResult] = []
        self._round = 0
        self._answers: list[MatchResult | None] = []
        self._handed = 0                   # candidates of this round handed out
        self._replays_handed = 0
        self._new_round()

    @property
    def shrinking(self) -> bool:
        return not self.shrinker.done and not self.cut_short

    @property
    def done(self) -> bool:
        return not self.shrinking and len(self.replays) == REPLAYS

    @property
    def best(self) -> Witness:
        return self.shrinker.best

    def has_work(self) -> bool:
        """Whether `take` has a match to hand out now."""
        if self.shrinking:
            in_play = self._handed - sum(a is not None for a in self._answers[:self._handed])
            return (self._handed < len(self._answers) and in_play < self.width
                    and not any(self._loses(a) for a in self._answers[:self._handed]))
        return self._replays_handed < REPLAYS

    def take(self) -> Work:
        """The next match to play (only when `has_work`)."""
        if self.started is None:
            self.started = time.monotonic()
        if self.shrinking:
            index = self._handed
            self._handed += 1
            return Work(self, self.shrinker.candidates[index], self._round, index,
                        SHRINK_BUSY_REPLAYS)
        self._replays_handed += 1
        return Work(self, self.best, None, self._replays_handed - 1, 0)

    def receive(self, work: Work, result: MatchResult) -> None:
        """A match's result: a candidate's (its round answered when it can be) or a replay's."""
        if work.round is None:
            self.replays.append(result)
            return
        self.runs += 1 + result.replayed
        if work.round != self._round or not self.shrinking:
            return   # a round already answered, or a shrink stopped
        self._answers[work.index] = result
        hit = None
        for index, answer in enumerate(self._answers):
            if answer is None:
                return   # an earlier candidate is still in play
            if self._loses(answer):
                hit = index
                break
        if hit is not None:
            self.kept[self.shrinker.candidates[hit]] = self._answers[hit]
        self.shrinker.answer(hit)
        self._new_round()

    def stop(self) -> None:
        """No more shrinking: the board so far is replayed."""
        if self.shrinking:
            self.cut_short = True
            self._end_shrink()

    @property
    def result(self) -> MatchResult:
        """The losing match on the smallest board."""
        return self.kept[self.best]

    def _loses(self, result: MatchResult | None) -> bool:
        return result is not None and result.verdict is self.verdict and lost(result)

    def _new_round(self) -> None:
        self._round += 1
        self._answers = [None] * len(self.shrinker.candidates)
        self._handed = 0
        if self.shrinker.done:
            self._end_shrink()

    def _end_shrink(self) -> None:
        self.shrink_s = time.monotonic() - self.started if self.started is not None else 0.0
