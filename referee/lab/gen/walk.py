"""The walk: random Hashi puzzles with a known solution, grown as a network of bridges.

`generate(width, height, rng)` grows a connected set of islands by a stack walk (the seed
applet's method): one island at a random cell; for the island on top of the stack, each
direction is tried once in random order; a direction's free run (cells with no island and
no bridge) gets 1 or 2 bridges to a new island placed at a random distance inside the run
(the new island is pushed), or, sometimes, to the existing island that ends the run. An
island is popped when all its directions are spent. A new island is never placed on a
bridge's path nor beyond another island, so every bridge joins nearest neighbours and no
two bridges cross. The islands' values are the sums of their bridges, so every puzzle is
connected and solvable, and the links returned are one solution.

All randomness comes from the `random.Random` passed in; `puzzle_rng(seed, index)` gives a
per-puzzle generator, so the same arguments always give the same puzzle.

Density is the target number of islands as a fraction of the cells: `density=0.15` on
30x30 asks for 135 islands. The walk stops there, or earlier when no island can grow
(about 0.2 to 0.3 of the cells is the most a walk reaches; 1.0 is the densest legal board).

Links are `(x1, y1, x2, y2, n)` tuples; `links_text` makes the puzzle a set of links
solves, and `connected` asks the judge's rules whether they join every island. The walk
needs no solver: referee.lab.gen.grading and referee.lab.gen.hardening select among its puzzles.
"""

from __future__ import annotations

import random

from referee.judge.board import MAX_SIDE, Board, parse_board
from referee.judge.rules import judge_text

DIRECTIONS = ((1, 0), (0, 1), (-1, 0), (0, -1))  # right, down, left, up
DEFAULT_DENSITY = 0.15   # islands per cell
DEFAULT_JOIN = 0.3       # chance to bridge to an existing island that ends a free run
DEFAULT_DOUBLE = 0.5     # chance that a new bridge is a double one
MIN_ISLANDS = 2

Link = tuple[int, int, int, int, int]  # x1, y1, x2, y2, n with (x1, y1) < (x2, y2)


def puzzle_rng(seed: int | str, index: int) -> random.Random:
    """The random generator of puzzle `index` in a set made with `seed` (stable across runs)."""
    return random.Random(f"spoon2:{seed}:{index}")


def target_islands(width: int, height: int, density: float) -> int:
    """How many islands `density` asks for on a width x height board."""
    if not 0 < density <= 1:
        raise ValueError(f"density must be in (0, 1], got {density}")
    cells = width * height
    return max(min(MIN_ISLANDS, cells), min(cells, round(density * cells)))


def generate(width: int, height: int, rng: random.Random, density: float = DEFAULT_DENSITY,
             join: float = DEFAULT_JOIN, double: float = DEFAULT_DOUBLE,
             max_length: int | None = None, squares: bool = True,
             touching: bool = True) -> tuple[str, list[Link]]:
    """Return (puzzle text in CodinGame's input format, its known solution as links).

    `max_length` caps a bridge's length in cells (None: the free run decides); short
    bridges pack islands closer, which lets dense targets be reached. `squares=False`
    never places four islands in a 2x2 block, whose links can often be rotated into a
    second solution that no added island can rule out. `touching=False` never places a new
    island next to another one, so every link has inner cells where an island can be added.
    """
    if not (1 <= width <= MAX_SIDE and 1 <= height <= MAX_SIDE) or width * height < 2:
        raise ValueError(f"a board is 1..{MAX_SIDE} x 1..{MAX_SIDE} with at least 2 cells, "
                         f"got {width}x{height}")
    target = target_islands(width, height, density)
    value: dict[tuple[int, int], int] = {}
    bridged: set[tuple[int, int]] = set()       # empty cells a bridge passes over
    links: dict[tuple[tuple[int, int], tuple[int, int]], int] = {}

    start = (rng.randrange(width), rng.randrange(height))
    value[start] = 0
    stack = [(start, _shuffled(rng))]
    while stack and len(value) < target:
        island, directions = stack[-1]
        if not directions:
            stack.pop()
            continue
        dx, dy = directions.pop()
        run, end = _free_run(island, dx, dy, width, height, value, bridged)
        if max_length is not None:
            run = run[:max_length]
        pair = tuple(sorted((island, end))) if end is not None else None
        can_join = pair is not None and len(run) == _gap(island, end) and pair not in links
        if can_join and (not run or rng.random() < join):
            other, path = end, run
        else:
            places = [k for k in range(len(run))
                      if (squares or not completes_square(run[k], value))
                      and (touching or not _touches(run[k], value))]
            if not places:
                continue
            k = rng.choice(places)
            other, path = run[k], run[:k]
        n = 2 if rng.random() < double else 1
        value[island] += n
        value[other] = value.get(other, 0) + n
        bridged.update(path)
        links[tuple(sorted((island, other)))] = n
        if other != end:
            stack.append((other, _shuffled(rng)))

    if len(value) < 2:
        raise ValueError(f"a {width}x{height} board cannot hold two islands")
    return board_text(width, height, value), sorted((*a, *b, n) for (a, b), n in links.items())


def _shuffled(rng: random.Random) -> list[tuple[int, int]]:
    directions = list(DIRECTIONS)
    rng.shuffle(directions)
    return directions


def completes_square(cell: tuple[int, int], value) -> bool:
    """True if an island on `cell` would make a 2x2 block of islands."""
    x, y = cell
    return any((x + dx, y) in value and (x, y + dy) in value and (x + dx, y + dy) in value
               for dx in (-1, 1) for dy in (-1, 1))


def _touches(cell: tuple[int, int], value) -> bool:
    """True if an island is next to `cell` (left, right, above or below)."""
    x, y = cell
    return any((x + dx, y + dy) in value for dx, dy in DIRECTIONS)


def _gap(a: tuple[int, int], b: tuple[int, int]) -> int:
    """Cells strictly between two cells in one line."""
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) - 1


def _free_run(island, dx, dy, width, height, value, bridged):
    """The free cells from `island` in one direction, and the island that ends them (or None)."""
    run = []
    x, y = island[0] + dx, island[1] + dy
    while 0 <= x < width and 0 <= y < height:
        if (x, y) in value:
            return run, (x, y)
        if (x, y) in bridged:
            return run, None
        run.append((x, y))
        x, y = x + dx, y + dy
    return run, None


def board_text(width: int, height: int, value: dict[tuple[int, int], int]) -> str:
    """The puzzle in CodinGame's input format, as the judge's Board writes it."""
    return Board(width, height, value).to_text()


def solution_text(links: list[Link]) -> str:
    """The links as a bot would print them: one `x1 y1 x2 y2 n` line each."""
    return "".join(" ".join(map(str, link)) + "\n" for link in links)


def links_text(width: int, height: int, links: list[Link]) -> str:
    """The puzzle whose islands are the links' ends, valued by the sum of their links."""
    value: dict[tuple[int, int], int] = {}
    for x1, y1, x2, y2, n in links:
        for cell in ((x1, y1), (x2, y2)):
            value[cell] = value.get(cell, 0) + n
    return board_text(width, height, value)


def ordered(a: tuple[int, int], b: tuple[int, int], n: int) -> Link:
    """The link of `n` bridges between two cells, its ends in order."""
    return (*min(a, b), *max(a, b), n)


def connected(links: list[Link]) -> bool:
    """True if the links join all their islands into one group.

    They always fill the puzzle they make (`links_text`) and never cross, so the judge's
    verdict on them is a win exactly when they are connected.
    """
    width = 1 + max(max(link[0], link[2]) for link in links)
    height = 1 + max(max(link[1], link[3]) for link in links)
    board = parse_board(links_text(width, height, links))
    return judge_text(board, solution_text(links)).won
