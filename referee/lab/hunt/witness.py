"""A board kept with one solution of it, and the changes that keep both valid.

A `Witness` is a set of links (x1, y1, x2, y2, n) on a width x height board; the puzzle
is the one they solve (each island's value is the sum of its links: `links_text`). The
links never cross nor pass over an island, and join every island. Every change here
keeps those properties, so each board it makes is a valid, solvable CodinGame puzzle
with the links left as the proof, and no solver is needed to say so:

  keep(cells)    the links among some islands: the islands left out go with their links
                 and their neighbours' values drop; of the groups the rest falls into,
                 one is kept (`groups` gives them all, largest first)
  reduced(links) a double link made single, a single link dropped, for each link named
                 in turn, skipping a change that would split the board or leave an
                 island with no link
  compacted()    the empty rows and columns dropped, the board cropped to its islands:
                 the same neighbours, the same crossings, the same solutions
  at_most(n)     the first n islands in Z order (a compact block of the board), the
                 largest group they fall into kept, compacted

Removing an island may open a line of sight between two others: the puzzle gains candidate
links, never loses its solution.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from referee.judge import geometry
from referee.judge.board import Board, Cell, parse_board
from referee.lab.gen.walk import Link, links_text


@dataclass(frozen=True)
class Witness:
    """Links on a width x height board: a puzzle and one solution of it."""

    width: int
    height: int
    links: tuple[Link, ...]

    @cached_property
    def islands(self) -> dict[Cell, int]:
        """{cell: value}, each value the sum of the island's links."""
        value: dict[Cell, int] = {}
        for x1, y1, x2, y2, n in self.links:
            for cell in ((x1, y1), (x2, y2)):
                value[cell] = value.get(cell, 0) + n
        return value

    @property
    def text(self) -> str:
        """The puzzle in CodinGame's input format."""
        return links_text(self.width, self.height, list(self.links))

    def board(self) -> Board:
        return parse_board(self.text)

    def groups(self, cells) -> list[Witness]:
        """The links among `cells`, one witness per connected group of two islands or
        more, largest first (ties: the group whose first island comes first)."""
        inside = set(cells)
        kept = [link for link in self.links if link[:2] in inside and link[2:4] in inside]
        found = _groups(kept)   # a group holds a link, so two islands at least
        found.sort(key=lambda links: (-len(_ends(links)), min(_ends(links))))
        return [Witness(self.width, self.height, tuple(links)) for links in found]

    def keep(self, cells) -> Witness | None:
        """The largest group of the links among `cells` (None: no two islands linked)."""
        found = self.groups(cells)
        return found[0] if found else None

    def reduced(self, indices) -> Witness:
        """Each link named by index made one link smaller, in turn (a double becomes
        single, a single goes), skipping a change that would leave an island with no
        link or split the islands in two groups."""
        links = list(self.links)
        for index in indices:
            x1, y1, x2, y2, n = links[index]
            if n == 2:
                links[index] = (x1, y1, x2, y2, 1)
                continue
            rest = [link for k, link in enumerate(links) if k != index and link is not None]
            if len(_groups(rest)) == 1 and len(_ends(rest)) == len(_ends(
                    [link for link in links if link is not None])):
                links[index] = None
        return Witness(self.width, self.height, tuple(link for link in links if link is not None))

    def in_z_order(self) -> list[Cell]:
        """The islands in Z order: a run of them is a compact block of the board."""
        return sorted(self.islands, key=_z_order)

    def at_most(self, islands: int) -> Witness:
        """This board when it has at most `islands` islands; else the largest group of its
        first `islands` islands in Z order, compacted (at least one link is kept)."""
        if len(self.islands) <= islands:
            return self
        kept = self.keep(self.in_z_order()[:max(islands, 2)])
        return (kept or Witness(self.width, self.height, self.links[:1])).compacted()

    def compacted(self) -> Witness:
        """The board without its empty rows and columns: every coordinate renumbered in
        order, so the islands' order along each row and column stays as it was."""
        xs = sorted({x for x, _ in self.islands})
        ys = sorted({y for _, y in self.islands})
        column, row = {x: i for i, x in enumerate(xs)}, {y: i for i, y in enumerate(ys)}
        links = tuple(sorted((column[x1], row[y1], column[x2], row[y2], n)
                             for x1, y1, x2, y2, n in self.links))
        return Witness(len(xs), len(ys), links)


def _ends(links) -> set[Cell]:
    return {cell for link in links for cell in (link[:2], link[2:4])}


def _groups(links) -> list[list[Link]]:
    """The links split by the connected groups of islands they join."""
    ends = [(link[:2], link[2:4]) for link in links]
    found = geometry.groups(sorted({cell for pair in ends for cell in pair}), ends)
    group_of = {cell: i for i, group in enumerate(found) for cell in group}
    grouped: dict[int, list[Link]] = {}
    for link in links:
        grouped.setdefault(group_of[link[:2]], []).append(link)
    return list(grouped.values())


def _z_order(cell: Cell) -> int:
    """The cell's place on the Z curve: the bits of x and y interleaved."""
    x, y = cell
    key = 0
    for bit in range(5):   # sides up to 32
        key |= ((x >> bit) & 1) << (2 * bit) | ((y >> bit) & 1) << (2 * bit + 1)
    return key
