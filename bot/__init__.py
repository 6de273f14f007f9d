"""A There Is No Spoon - Episode 2 (Hashi) solver: `solve(text)` returns the links.

Each name is loaded from its module on first use: the bot's own entry point, and the bundle
built from it, hold only what the bot runs (not the counting of solutions).
"""

import importlib

_HOMES = {
    "DEFAULT": "bot.options", "Options": "bot.options",
    "Puzzle": "bot.puzzle", "PuzzleError": "bot.puzzle", "parse": "bot.puzzle",
    "Unsolvable": "bot.solver", "solve": "bot.solver", "solve_to": "bot.elimination",
    "count_solutions": "bot.counting", "find_solutions": "bot.counting",
    "Limit": "bot.limits", "OverLimit": "bot.limits", "Stats": "bot.stats",
}
__all__ = sorted(_HOMES)


def __getattr__(name):
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'bot' has no attribute {name!r}")
    return getattr(importlib.import_module(home), name)
