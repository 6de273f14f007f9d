"""Counting a puzzle's solutions: the library's (the generator's uniqueness check, the
tests'), not the bot's, so the bundle leaves it out. It goes through the same strategy as
`solve`."""

from bot.options import DEFAULT
from bot.solver import answers, rules_for, stats_within


def find_solutions(text, limit=2, stats=None, within=None, seed=None, options=DEFAULT):
    """Up to `limit` of the puzzle's connected solutions, each a sorted list of links
    (`within`, `seed` and `options` as for `solve`)."""
    stats = stats_within(stats, within)
    rules = rules_for(text, options, seed)
    found = []
    # The search that learns starts from the root: what the node search found, it finds.
    search = answers(rules, stats, handed_over=found.clear)
    try:
        for solved in search:
            if solved.valid():
                links = sorted(solved.links())
                if links not in found:  # the walk and the search may both find it
                    found.append(links)
                    if len(found) >= limit:
                        break
    finally:
        search.close()
    return found


def count_solutions(text, limit=2, stats=None, within=None, seed=None, options=DEFAULT):
    """Count the puzzle's connected solutions, stopping at `limit`."""
    return len(find_solutions(text, limit, stats, within, seed, options))
