"""The hunt's loop: new boards and the shrinks of the losses found, side by side.

The bot plays on `jobs` slots (referee.lab.hunt.matches.BotRuns). Each time a slot is
free it goes to the shrinking, or to the next board of the hunt (referee.lab.hunt.boards,
small ones first). When both want it, each gets its share of the slots' time: the
shrinking SHRINK_SHARE, the hunt the rest, counted in seconds of matches played (those
under way included). Among the losses being chased (referee.lab.hunt.chase) the slot
goes to the first by rank: wrong answers and crashes before a bot over its memory, before
timeouts; a chase waiting for its round's results lets the next one play.

A board lost in a way of `verdicts` not met before starts a chase; any other loss is
counted (`seen`), as is a timeout the machine made (`undecided`), which is no loss.
Results are taken in the boards' order, so the board a way to lose is found on is the
same with one slot or many. The loop ends at `seconds` (shrinks under way stop there),
once `wanted` ways to lose are shrunk, when every way of `verdicts` is found and
shrunk, or at a match the referee could not play; every chase then ends with its
replays, and each is told (`tell`) as it is done.
"""

from __future__ import annotations

import time
from collections import Counter
from concurrent.futures import FIRST_COMPLETED, Future, wait
from dataclasses import dataclass, field
from typing import Callable

from referee.judge.result import MatchResult
from referee.judge.rules import Verdict
from referee.lab.hunt.boards import Bounds, hunt_board
from referee.lab.hunt.chase import Chase, Found, Work
from referee.lab.hunt.matches import BotRuns, lost, undecided
from referee.lab.hunt.report import Loss
from referee.lab.hunt.witness import Witness
from referee.report.progress import Progress

SHRINK_SHARE = 0.5     # of the slots' time, when the shrinking and the hunt both want them
TICK_S = 0.5           # the loop looks at the clock at least this often
LOSSES = frozenset(v for v in Verdict if v not in (Verdict.WIN, Verdict.ERROR))


@dataclass(frozen=True)
class Plan:
    """What a hunt looks for, and for how long."""

    seed: int = 1
    seconds: float = 60.0
    bounds: Bounds = Bounds()
    verdicts: frozenset[Verdict] = LOSSES   # the ways to lose chased
    wanted: int | None = None               # stop once this many are shrunk


@dataclass
class Hunted:
    """What a hunt did: the losses chased, boards played, bot runs, wall time."""

    losses: list[Loss] = field(default_factory=list)
    boards: int = 0
    runs: int = 0
    wall_s: float = 0.0
    seen: Counter = field(default_factory=Counter)   # boards lost, per verdict
    undecided: int = 0                # boards whose timeout the machine made
    error: MatchResult | None = None  # a match the referee could not play


@dataclass
class HuntBoard:
    """A board of the hunt in play."""

    index: int
    name: str
    witness: Witness


class Hunt:
    """One hunt: its slots, its boards, its chases (see the module)."""

    def __init__(self, runs: BotRuns, plan: Plan, tell: Callable[[Loss], None],
                 progress: Progress | None, hunted: Hunted):
        self.runs, self.plan, self.tell = runs, plan, tell
        self.progress, self.hunted = progress, hunted
        self.start = time.monotonic()
        self.deadline = self.start + plan.seconds
        self.chases: list[Chase] = []
        self.closing = False
        self._next_board = 0
        self._waiting: dict[int, tuple[HuntBoard, MatchResult]] = {}   # results ahead of their turn
        self._used = {"hunt": 0.0, "shrink": 0.0}
        self._in_play: dict[Future, tuple[str, object, float]] = {}

    def run(self) -> Hunted:
        try:
            while True:
                now = time.monotonic()
                if now >= self.deadline or self._over():
                    self._close()
                self._fill(now)
                if not self._in_play:
                    break
                done, _ = wait(self._in_play, timeout=TICK_S, return_when=FIRST_COMPLETED)
                for future in done:
                    kind, item, started = self._in_play.pop(future)
                    self._used[kind] += time.monotonic() - started
                    self._receive(item, future.result())
        except BaseException:   # Ctrl-C or SIGTERM: the matches under way end now
            self.runs.stop.set()
            raise
        finally:
            self._account()
        return self.hunted

    def _over(self) -> bool:
        """No more hunting nor shrinking is wanted."""
        if self.hunted.error is not None:
            return True
        shrunk = sum(not c.shrinking for c in self.chases)
        if self.plan.wanted is not None and shrunk >= self.plan.wanted:
            return True
        found = {c.verdict for c in self.chases}
        return found >= self.plan.verdicts and shrunk == len(self.chases)

    def _close(self) -> None:
        """No new board; every shrink stops where it is and goes to its replays."""
        self.closing = True
        for chase in self.chases:
            chase.stop()

    def _fill(self, now: float) -> None:
        while len(self._in_play) < self.runs.jobs:
            chase = next((c for c in sorted(self.chases, key=lambda c: c.rank) if c.has_work()),
                         None)
            hunting = not self.closing
            if chase is None and not hunting:
                return
            if chase is not None and (not hunting or self._shrink_turn(now)):
                work = chase.take()
                future = self.runs.submit(work.witness, f"shrink {chase.verdict.value}",
                                          work.busy_replays)
                self._in_play[future] = ("shrink", work, now)
            else:
                board = HuntBoard(self._next_board, *hunt_board(self.plan.seed, self._next_board,
                                                           self.plan.bounds))
                self._next_board += 1
                self._in_play[self.runs.submit(board.witness, board.name)] = ("hunt", board, now)

    def _shrink_turn(self, now: float) -> bool:
        """The shrinking's turn, by the share of the slots' time each has had."""
        used = dict(self._used)
        for kind, _, started in self._in_play.values():
            used[kind] += now - started
        return used["shrink"] * (1 - SHRINK_SHARE) <= used["hunt"] * SHRINK_SHARE

    def _receive(self, item, result: MatchResult) -> None:
        if isinstance(item, Work):
            chase = item.chase
            chase.receive(item, result)
            if chase.done:
                self._told(chase)
        else:
            self._waiting[item.index] = (item, result)
            while self.hunted.boards in self._waiting:
                self._judge(*self._waiting.pop(self.hunted.boards))
        self._account()
        if self.progress is not None:
            self.progress.update(self.hunted.boards, self._note())

    def _judge(self, board: HuntBoard, result: MatchResult) -> None:
        """A board of the hunt played: a new way to lose is chased."""
        self.hunted.boards += 1
        if result.verdict is Verdict.ERROR:
            self.hunted.error = self.hunted.error or result
            return
        if undecided(result):
            self.hunted.undecided += 1
        if not lost(result):
            return
        self.hunted.seen[result.verdict] += 1
        if (self.closing or result.verdict not in self.plan.verdicts
                or any(c.verdict is result.verdict for c in self.chases)):
            return
        found = Found(board.name, board.witness, result, time.monotonic() - self.start,
                      self.runs.runs)
        self.chases.append(Chase(found, len(self.chases), width=self.runs.jobs))

    def _told(self, chase: Chase) -> None:
        loss = Loss(board=chase.found.name, found=chase.found.witness,
                    found_after_s=chase.found.after_s, runs_to_find=chase.found.runs,
                    shrunk=chase.best, result=chase.result, shrink_s=chase.shrink_s,
                    shrink_runs=chase.runs, complete=not chase.cut_short,
                    replays=tuple(chase.replays))
        self.hunted.losses.append(loss)
        self._account()
        self.tell(loss)

    def _note(self) -> str:
        note = f"boards, {self.runs.runs} bot runs, {len(self.chases)} way(s) to lose"
        shrinking = [c for c in self.chases if c.shrinking]
        if shrinking:
            first = min(shrinking, key=lambda c: c.rank)
            note += f"; shrinking {first.verdict.value}: {len(first.best.islands)} islands"
        return note

    def _account(self) -> None:
        self.hunted.runs, self.hunted.wall_s = self.runs.runs, time.monotonic() - self.start


def hunt(runs: BotRuns, plan: Plan, tell: Callable[[Loss], None] = lambda loss: None,
         progress: Progress | None = None, hunted: Hunted | None = None) -> Hunted:
    """Hunt and shrink as `plan` says; `hunted` is filled as it goes (see the module)."""
    hunted = Hunted() if hunted is None else hunted
    return Hunt(runs, plan, tell, progress, hunted).run()
