"""Shrink a board a bot loses on to a small one it loses on the same way: delta debugging
over the islands, then over the links, of the board's known solution (referee.lab.hunt.witness).

`shrink(start, first_losing, out_of_time)` asks `first_losing(candidates)` for the first
of a list of smaller witnesses on which the bot still loses the same way (None: none
does); the caller plays them, as many at once as it likes, and confirms what needs it.

Islands: the islands, in Z order (so that a run of them is a compact block of the
board), are cut into n chunks; each chunk is tried alone (each group it falls into) and
the rest without it (its largest group). A candidate that still loses is kept and the cut
starts again from n - 1 chunks (from 2 after a chunk alone); when none does, n doubles,
up to one island a chunk. Links: the same over the links, each chunk's links made one
smaller (referee.lab.hunt.witness.Witness.reduced). The two passes take turns until neither
finds anything, then the empty rows and columns are dropped if the bot still loses then.
The board so far is what is returned when `out_of_time()` says so.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

from referee.judge.board import Cell
from referee.lab.hunt.witness import Witness

GROUPS_PER_CHUNK = 3     # a chunk alone may fall apart: its largest groups are tried


@dataclass(frozen=True)
class Shrunk:
    """Where the shrink ended: the smallest witness the bot loses on, how many rounds of
    candidates found a smaller one, and whether it ran to the end (not out of time)."""

    witness: Witness
    steps: int
    complete: bool


FirstLosing = Callable[[Sequence[Witness]], "int | None"]


def shrink(start: Witness, first_losing: FirstLosing,
           out_of_time: Callable[[], bool] = lambda: False) -> Shrunk:
    """The smallest witness the passes reach from `start`, on which the bot still loses."""
    best, steps = start, 0
    changed = True
    while changed:
        changed = False
        for units, cut in ((_islands, _island_candidates), (_reducible, _link_candidates)):
            best, found, finished = _ddmin(best, units, cut, first_losing, out_of_time)
            steps += found
            changed = changed or found > 0
            if not finished:
                return Shrunk(best, steps, complete=False)
    compact = best.compacted()
    if compact != best and not out_of_time() and first_losing([compact]) == 0:
        best, steps = compact, steps + 1
    return Shrunk(best, steps, complete=not out_of_time())


def _ddmin(best: Witness, units, cut, first_losing: FirstLosing, out_of_time):
    """One pass of delta debugging over `units(best)`, cut by `cut(best, units, chunks)`:
    (smallest witness, how many candidates were kept, False if time ran out)."""
    chunks, steps = 2, 0
    while True:
        if out_of_time():
            return best, steps, False
        items = units(best)
        if not items:
            return best, steps, True
        chunks = min(chunks, len(items))
        seen: dict[Witness, bool] = {}
        for candidate, alone in cut(best, items, chunks):
            if candidate is not None and candidate != best:
                seen.setdefault(candidate, alone)
        unique = list(seen.items())
        hit = first_losing([c for c, _ in unique]) if unique else None
        if hit is not None:
            best, steps = unique[hit][0], steps + 1
            chunks = 2 if unique[hit][1] else max(chunks - 1, 2)
        elif chunks >= len(items):
            return best, steps, True
        else:
            chunks = min(2 * chunks, len(items))


def _islands(witness: Witness) -> list[Cell]:
    """The islands in Z order: a run of them is a compact block of the board."""
    return sorted(witness.islands, key=_z_order)


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


def _z_order(cell: Cell) -> int:
    """The cell's place on the Z curve: the bits of x and y interleaved."""
    x, y = cell
    key = 0
    for bit in range(5):   # sides up to 32
        key |= ((x >> bit) & 1) << (2 * bit) | ((y >> bit) & 1) << (2 * bit + 1)
    return key
