"""The bot's entry point into the solver, and the one strategy every answer goes through
(`answers`). Counting solutions, which only the library needs, is in `bot.counting`.

A puzzle goes through the rules, then the node search within its branch budget
(`bot.assumption`: fastest where a few guesses settle the board), and past the budget the
search that learns from its contradictions (`bot.learning`: it keeps the worst case small
where guessing node by node thrashes), taking turns with the walk and, when pressed for a
line, proving and guessing.
"""

import sys

from bot.assumption import Budget, OutOfBranches, solutions
from bot.grid import Grid
from bot.options import DEFAULT
from bot.puzzle import parse
from bot.rules.engine import Rules
from bot.stats import Stats


class Unsolvable(Exception):
    """The puzzle has no solution."""


def answers(rules, stats, sure=None, press=None, handed_over=None):
    """Yield the grid each time it holds a solution (consume it before resuming).

    1. The rules, then the node search, which probes at every branch and stops at its
       budget (`Options.node_search_branches`).
    2. Past the budget, the hand-over: the grid is back at the root, the rules keep their
       cursors, and `handed_over`, if given, is called.
    3. The search that learns, with the walk beside it on near-trees; given `press`, it
       proves and guesses links when the sure ones run out.
    `sure`, if given, hears the links every solution holds, each time they grow.
    """
    try:
        yield from solutions(rules, stats, budget=Budget.of(rules.options), sure=sure)
        return
    except OutOfBranches:
        pass
    if handed_over is not None:
        handed_over()
    # Imported here, not at the top: most puzzles never get here, and the bot starts sooner
    # without compiling the search that learns (and `random`).
    from bot.learning import learned_solutions
    yield from learned_solutions(rules, stats, sure, walk=True, press=press)


def solve(text, stats=None, within=None, sure=None, seed=None, press=None, options=DEFAULT):
    """Solve CodinGame puzzle text; return its links as (x1, y1, x2, y2, n) tuples.

    Raises PuzzleError for malformed text and Unsolvable when no solution exists (to stop
    at an earlier stage, see `bot.elimination.solve_to`). Pass a Stats to collect counters, and
    a Limit as `within` to bound the work (OverLimit past it). `sure`, if given, is called
    with the links known to be in every solution (as the answer's tuples), each time the
    search proves more.
    `seed` (else `options.seed`) draws the search's restarts: another seed takes another
    path, and the answer may be another solution. `press`, given with `sure`, is the
    caller's clock for lines to print (`bot.pacing.Pacer`): once its sure links run out,
    the search guesses links for `sure`, and the answer holds them (Unsolvable if no
    solution does). `options` (`bot.options.Options`) tunes the search.
    """
    stats = stats_within(stats, within)
    rules = rules_for(text, options, seed)
    found = answers(rules, stats, sure, press)
    # Read the links before the generator is closed: closing reverts the grid.
    links = next((grid.links() for grid in found if grid.valid()), None)
    found.close()
    if links is None:
        raise Unsolvable("the puzzle has no solution")
    return links


def rules_for(text, options, seed=None):
    """The rule engine over a fresh grid of puzzle `text`, with `options` (and `seed`, if
    given, in place of theirs)."""
    puzzle = parse(text)
    # Each branch is a few generator frames; keep deep searches on big boards legal.
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 1000 + 8 * len(puzzle.ends)))
    if seed is not None and seed != options.seed:
        options = options.replace(seed=seed)
    return Rules(Grid(puzzle), options)


def stats_within(stats, within):
    """`stats` (a fresh Stats if None), kept to the Limit `within` if given."""
    stats = Stats() if stats is None else stats
    if within is not None:
        stats.limit = within
    return stats
