"""The library entry points: text in, links out.

A puzzle goes through the intersection rules, then elimination, then search: first the node
search (`bot.assumption`), which is fastest where a few guesses settle the board, and past
its branch budget the search that learns from its contradictions (`bot.learning`), which
keeps the worst case small on boards where guessing node by node thrashes.
"""

import sys

from bot.assumption import Budget, OutOfBranches, first_solution, solutions
from bot.grid import Grid
from bot.learning import learned_solutions
from bot.tuning import NODE_SEARCH_BRANCHES, SEED
from bot.work import BRANCHING, Stats
from bot.puzzle import parse


class Unsolvable(Exception):
    """The puzzle has no solution."""


def _grid(text):
    puzzle = parse(text)
    # Each branch is a few generator frames; keep deep searches on big boards legal.
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 1000 + 8 * len(puzzle.ends)))
    return Grid(puzzle)


def _stats(stats, within):
    stats = Stats() if stats is None else stats
    if within is not None:
        stats.keep_to(within)
    return stats


def solve(text, stats=None, stage=BRANCHING, within=None, sure=None, seed=SEED, press=None):
    """Solve CodinGame puzzle text; return its links as (x1, y1, x2, y2, n) tuples.

    Raises PuzzleError for malformed text and Unsolvable when no solution exists (or none
    is found within `stage`). Pass a Stats to collect counters, and a Limit as `within` to
    bound the work (OverLimit past it). `sure`, if given, is called with the links known to
    be in every solution (as the answer's tuples), each time the search proves more.
    `seed` draws the search's restarts: another seed takes another path (a slow board's
    time is largely that draw), and the answer may be another solution. `press`, given
    with `sure`, is the caller's clock for lines to print (`bot.pacing.Pacer`): once its
    sure links run out, the search guesses links for `sure`, and the answer holds them
    (Unsolvable if no solution does).
    """
    stats = _stats(stats, within)
    grid = _grid(text)
    if stage == BRANCHING:
        links = _first_links(grid, stats, sure, seed, press)
    else:
        # Read the links before the generator is closed: closing reverts the grid.
        links = next((g.links() for g in solutions(grid, stats, stage) if g.valid()), None)
    if links is None:
        raise Unsolvable("the puzzle has no solution")
    return links


def _first_links(grid, stats, sure, seed, press):
    try:
        # The budget is read from this module, not left to Budget's default, so that a
        # test may set NODE_SEARCH_BRANCHES here to 0 and reach the search that learns.
        return first_solution(grid, stats, Budget(NODE_SEARCH_BRANCHES), sure=sure)
    except OutOfBranches:
        return next((found.links()
                     for found in learned_solutions(grid, stats, sure, seed, True, press)), None)


def find_solutions(text, limit=2, stats=None, within=None, seed=SEED):
    """Up to `limit` of the puzzle's connected solutions, each a sorted list of links
    (`within`: a Limit on the work, `seed` the restarts' draw, as for `solve`)."""
    stats = _stats(stats, within)
    grid = _grid(text)
    found = []
    search = solutions(grid, stats, BRANCHING, budget=Budget(NODE_SEARCH_BRANCHES))
    try:
        for solved in search:
            if solved.valid():
                found.append(sorted(solved.links()))
                if len(found) >= limit:
                    return found
        return found
    except OutOfBranches:
        pass
    finally:
        search.close()
    found = []
    for solved in learned_solutions(grid, stats, seed=seed, walk=True):
        links = sorted(solved.links())
        if links not in found:  # the walk and the search may both find it
            found.append(links)
            if len(found) >= limit:
                break
    return found


def count_solutions(text, limit=2, stats=None, within=None, seed=SEED):
    """Count the puzzle's connected solutions, stopping at `limit`."""
    return len(find_solutions(text, limit, stats, within, seed))
