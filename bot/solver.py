"""The library entry points: text in, links out."""

import sys

from bot.assumption import BRANCHING, Stats, first_solution, solutions
from bot.grid import Grid
from bot.puzzle import parse


class Unsolvable(Exception):
    """The puzzle has no solution."""


def _grid(text):
    puzzle = parse(text)
    # Each branch is a few generator frames; keep deep searches on big boards legal.
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 1000 + 8 * len(puzzle.ends)))
    return Grid(puzzle)


def solve(text, stats=None, stage=BRANCHING):
    """Solve CodinGame puzzle text; return its links as (x1, y1, x2, y2, n) tuples.

    Raises PuzzleError for malformed text and Unsolvable when no solution exists (or none
    is found within `stage`). Pass a Stats to collect counters.
    """
    stats = Stats() if stats is None else stats
    grid = _grid(text)
    if stage == BRANCHING:
        links = first_solution(grid, stats)
    else:
        # Read the links before the generator is closed: closing reverts the grid.
        links = next((g.links() for g in solutions(grid, stats, stage)), None)
    if links is None:
        raise Unsolvable("the puzzle has no solution")
    return links


def find_solutions(text, limit=2, stats=None):
    """Up to `limit` of the puzzle's connected solutions, each a sorted list of links."""
    stats = Stats() if stats is None else stats
    found = []
    search = solutions(_grid(text), stats, BRANCHING)
    try:
        for grid in search:
            found.append(sorted(grid.links()))
            if len(found) >= limit:
                break
    finally:
        search.close()
    return found


def count_solutions(text, limit=2, stats=None):
    """Count the puzzle's connected solutions, stopping at `limit`."""
    return len(find_solutions(text, limit, stats))
