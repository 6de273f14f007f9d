"""A There Is No Spoon - Episode 2 (Hashi) solver: `solve(text)` returns the links."""

import importlib

from bot.options import DEFAULT, Options
from bot.puzzle import PuzzleError, Puzzle, parse
from bot.solver import Unsolvable, count_solutions, find_solutions, solve
from bot.work import Limit, OverLimit, Stats

__all__ = ["DEFAULT", "Limit", "Options", "OverLimit", "PuzzleError", "Puzzle", "Stats", "Unsolvable",
           "count_solutions", "find_solutions", "parse", "solve"]


def __getattr__(name):
    """`bot.explain` loads the explainer on first use: `solve` and the bundle never hold it."""
    if name == "explain":
        return getattr(importlib.import_module("bot.explainer"), "explain")
    raise AttributeError(f"module 'bot' has no attribute {name!r}")
