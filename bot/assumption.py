"""Assumption search, for when the rules stall.

Elimination first (the seed paper's assumption search): assume a bound on one edge, run the
rules, and if that ends in a contradiction the opposite bound must hold. When no assumption
can be eliminated, branch depth-first on the most constrained node's edge. Every assumption
is undone with `Grid.revert`, so the search never mutates state it cannot restore.
"""

from bot.grid import Contradiction
from bot.intersection import propagate

RULES, ELIMINATION, BRANCHING = 1, 2, 3
STAGE_NAMES = {RULES: "rules", ELIMINATION: "elimination", BRANCHING: "branching"}


class Stats:
    """Counters that explain a solve's time."""

    __slots__ = ("rounds", "assumptions", "eliminations", "branches", "max_depth", "stage")

    def __init__(self):
        self.rounds = self.assumptions = self.eliminations = 0
        self.branches = self.max_depth = 0
        self.stage = RULES  # the deepest stage the solve needed

    def as_dict(self):
        return {name: getattr(self, name) for name in self.__slots__}


def _assumptions(grid, e):
    """What to assume on edge e, each with the bound that holds if the assumption fails."""
    low, high = grid.lo[e], grid.hi[e]
    return (((grid.raise_lo, low + 1), (grid.lower_hi, low)),    # one more link / none more
            ((grid.lower_hi, high - 1), (grid.raise_lo, high)))  # one fewer than max / max


def _fails(grid, e, setter, count, stats):
    """Try one assumption on edge e and undo it; True if it leads to a contradiction."""
    stats.assumptions += 1
    mark = grid.mark()
    try:
        setter(e, count)
        propagate(grid, stats)
        return False
    except Contradiction:
        return True
    finally:
        grid.revert(mark)


def eliminate(grid, stats):
    """Fix every edge bound whose opposite assumption is contradictory, until none is.

    Returns True if anything was fixed; raises Contradiction if the state itself is dead.
    """
    progress = False
    changed = True
    while changed and not grid.solved():
        changed = False
        for e in grid.open_edges():
            for (setter, count), (fallback, bound) in _assumptions(grid, e):
                if grid.lo[e] == grid.hi[e]:
                    break
                if _fails(grid, e, setter, count, stats):
                    stats.eliminations += 1
                    fallback(e, bound)
                    propagate(grid, stats)
                    changed = progress = True
                    break
    return progress


def choose_edge(grid):
    """An open edge at the most constrained node: least spare capacity, fewest open edges."""
    p = grid.puzzle
    lo, hi, got, cap = grid.lo, grid.hi, grid.got, grid.cap
    best, best_key = None, None
    for i, value in enumerate(p.value):
        if got[i] == value:
            continue
        open_edges = [e for e, _ in p.node_edges[i] if lo[e] != hi[e]]
        if not open_edges:
            continue
        key = (cap[i] - value, len(open_edges))
        if best_key is None or key < best_key:
            best, best_key = open_edges[0], key
    return best


def solutions(grid, stats, stage=BRANCHING, depth=0):
    """Yield `grid` each time it holds a solution (consume it before resuming).

    Explores only as deep as `stage` allows: RULES, ELIMINATION or BRANCHING (complete).
    The grid is back in its entry state once the generator is exhausted or closed.
    """
    stats.max_depth = max(stats.max_depth, depth)
    mark = grid.mark()
    try:
        try:
            propagate(grid, stats)
            if not grid.solved() and stage >= ELIMINATION and eliminate(grid, stats):
                stats.stage = max(stats.stage, ELIMINATION)
        except Contradiction:
            return
        if grid.solved():
            yield grid
        elif stage >= BRANCHING:
            yield from _branch(grid, stats, stage, depth)
    finally:
        grid.revert(mark)


def _branch(grid, stats, stage, depth):
    """Split the most constrained edge into "one more link" and "no more links"."""
    stats.stage = BRANCHING
    stats.branches += 1
    e = choose_edge(grid)
    for setter, count in ((grid.raise_lo, grid.lo[e] + 1), (grid.lower_hi, grid.lo[e])):
        mark = grid.mark()
        try:
            setter(e, count)
        except Contradiction:
            grid.revert(mark)
            continue
        yield from solutions(grid, stats, stage, depth + 1)
        grid.revert(mark)
