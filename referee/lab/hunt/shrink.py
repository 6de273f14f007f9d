"""Shrink a board a bot loses on to a small one it loses on the same way: delta debugging
over the islands, then over the links, of the board's known solution (referee.lab.hunt.witness).

A `Shrinker` goes one round at a time, so that a hunt can play its candidates beside
other matches: `candidates` is a list of smaller witnesses (empty once the shrink has
ended), `answer(hit)` tells it the index of the first on which the bot still loses the
same way (None: none does), and `best` is the smallest board so far. `shrink(start,
first_losing, out_of_time)` runs one to its end, asking `first_losing(candidates)`.

Islands: the islands, in Z order (so that a run of them is a compact block of the
board), are cut into n chunks; each chunk is tried alone (each group it falls into) and
the rest without it (its largest group). A candidate that still loses is kept and the cut
starts again from n - 1 chunks (from 2 after a chunk alone); when none does, n doubles,
up to one island a chunk. Links: the same over the links, each chunk's links made one
smaller (referee.lab.hunt.witness.Witness.reduced). The two passes take turns until neither
finds anything. Every candidate is compacted (its empty rows and columns dropped), so the
board so far has none wherever the shrink stops; a start that never shrank is tried
compacted last.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Generator, Sequence

from referee.judge.board import Cell
from referee.lab.hunt.witness import Witness

GROUPS_PER_CHUNK = 3     # a chunk alone may fall apart: its largest groups are tried

FirstLosing = Callable[[Sequence[Witness]], "int | None"]
Rounds = Generator[list[Witness], "int | None", bool]


@dataclass(frozen=True)
class Shrunk:
    """Where the shrink ended: the smallest witness the bot loses on, how many rounds of
    candidates found a smaller one, and whether it ran to the end (not out of time)."""

    witness: Witness
    steps: int
    complete: bool


class Shrinker:
    """One shrink, a round at a time (see the module)."""

    def __init__(self, start: Witness):
        self.best = start
        self.steps = 0             # rounds that found a smaller board
        self.done = False
        self.candidates: list[Witness] = []
        self._rounds = self._search()
        self._next(None)

    def answer(self, hit: int | None) -> None:
        """The first candidate the bot loses on (None: none); the next round follows."""
        if hit is not None:
            self.best = self.candidates[hit]
            self.steps += 1
        self._next(hit)

    def _next(self, hit: int | None) -> None:
        try:
            self.candidates = self._rounds.send(hit)
        except StopIteration:
            self.candidates, self.done = [], True

    def _search(self) -> Rounds:
        changed = True
        while changed:
            changed = False
            for units, cut in ((_islands, _island_candidates), (_reducible, _link_candidates)):
                found = yield from self._ddmin(units, cut)
                changed = changed or found
        compact = self.best.compacted()
        if compact != self.best:
            yield [compact]
        return True

    def _ddmin(self, units, cut) -> Rounds:
        """One pass of delta debugging over `units(best)`, cut by `cut(best, units, chunks)`:
        whether it found a smaller board."""
        chunks, found = 2, False
        while True:
            items = units(self.best)
            if not items:
                return found
            chunks = min(chunks, len(items))
            seen: dict[Witness, bool] = {}
            for candidate, alone in cut(self.best, items, chunks):
                if candidate is not None and (candidate := candidate.compacted()) != self.best:
                    seen.setdefault(candidate, alone)
            unique = list(seen.items())
            hit = (yield [c for c, _ in unique]) if unique else None
            if hit is not None:
                found = True
                chunks = 2 if unique[hit][1] else max(chunks - 1, 2)
            elif chunks >= len(items):
                return found
            else:
                chunks = min(2 * chunks, len(items))


def shrink(start: Witness, first_losing: FirstLosing,
           out_of_time: Callable[[], bool] = lambda: False) -> Shrunk:
    """The smallest witness the passes reach from `start`, on which the bot still loses."""
    shrinker = Shrinker(start)
    while not shrinker.done and not out_of_time():
        shrinker.answer(first_losing(shrinker.candidates))
    return Shrunk(shrinker.best, shrinker.steps, complete=shrinker.done)


def _islands(witness: Witness) -> list[Cell]:
    return witness.in_z_order()


def _island_candidates(witness: Witness, cells: list[Cell], chunks: int):
    """(candidate, whether it is a chunk alone) for a cut of the islands into `chunks`:
    each chunk alone (its largest groups), then all but each chunk (the largest group)."""
    parts = _split(cells, chunks)
    if chunks > 2:   # with two chunks, each alone is the other's rest
        for part in parts:
            for group in witness.groups(part)[:GROUPS_PER_CHUNK]:
                yield group, True
    for index in range(len(parts)):
        yield witness.keep([cell for k, part in enumerate(parts) if k != index
                            for cell in part]), False


def _reducible(witness: Witness) -> list[int]:
    """The links' indices, when one of them can be made smaller (a double, or a loop
    to open); none on a tree of single links."""
    loops = len(witness.links) > len(witness.islands) - 1
    if loops or any(link[4] == 2 for link in witness.links):
        return list(range(len(witness.links)))
    return []


def _link_candidates(witness: Witness, indices: list[int], chunks: int):
    """Each chunk of the links made one smaller (never a chunk alone)."""
    for part in _split(indices, chunks):
        yield witness.reduced(part), False


def _split(items: list, chunks: int) -> list[list]:
    """`items` in `chunks` runs of nearly equal length, in order."""
    size, extra = divmod(len(items), chunks)
    parts, start = [], 0
    for k in range(chunks):
        end = start + size + (1 if k < extra else 0)
        parts.append(items[start:end])
        start = end
    return [part for part in parts if part]
