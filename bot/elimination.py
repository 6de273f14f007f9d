"""The elimination stage, and solving as far as one stage (`bot.stages`): the rules alone
(RULES), or the rules and elimination (ELIMINATION), as the generator grades a puzzle's
difficulty. The library's: the bot always searches to the end (`bot.solve`), so the bundle
leaves this module out.
"""

from bot.assumption import changes_of, narrow
from bot.branching import completions
from bot.grid import Contradiction
from bot.options import DEFAULT
from bot.rules.engine import FULL
from bot.solver import Unsolvable, rules_for, solve, stats_within
from bot.stages import BRANCHING, ELIMINATION


def solve_to(text, stage, stats=None, within=None, options=DEFAULT):
    """The links of the solution `stage` reaches: RULES (the rules alone), ELIMINATION (and
    elimination), BRANCHING (the whole search: `solve`). Raises Unsolvable where the stage
    leaves the board unfinished (or the puzzle has no solution)."""
    if stage >= BRANCHING:
        return solve(text, stats, within, options=options)
    stats = stats_within(stats, within)
    rules = rules_for(text, options)
    grid = rules.grid
    try:
        rules.propagate(FULL, stats)
        if stage == ELIMINATION and not grid.solved() and eliminate(rules, stats):
            stats.stage = max(stats.stage, ELIMINATION)
    except Contradiction:
        raise Unsolvable("the puzzle has no solution") from None
    if not grid.solved() or not grid.valid():
        raise Unsolvable(f"not solved within stage {stage}")
    return grid.links()


def _open_nodes_by_completions(grid):
    """(completion count, node, edges, completions) for every node with open edges, fewest
    first."""
    found = []
    for i in range(len(grid.puzzle)):
        if grid.got[i] != grid.cap[i]:
            edges, choices = completions(grid, i)
            found.append((len(choices), i, edges, choices))
    found.sort()
    return found


def eliminate(rules, stats):
    """Narrow every node to its completions that survive the rules, until none is eliminated.

    Returns True if anything was narrowed; raises Contradiction if the state is dead.
    """
    grid = rules.grid
    progress = False
    changed = True
    while changed and not grid.solved():
        changed = False
        for _, _, edges, choices in _open_nodes_by_completions(grid):
            survivors = [c for c in choices if changes_of(rules, edges, c, stats) is not None]
            if not survivors:
                raise Contradiction()
            if narrow(grid, edges, survivors):
                stats.eliminations += len(choices) - len(survivors)
                rules.propagate(FULL, stats)
                changed = progress = True
                break  # the most constrained node may have changed
    return progress
