"""A There Is No Spoon - Episode 2 (Hashi) solver: `solve(text)` returns the links."""

from bot.puzzle import PuzzleError, Puzzle, parse
from bot.solver import Unsolvable, count_solutions, find_solutions, solve
from bot.work import Limit, OverLimit, Stats

__all__ = ["Limit", "OverLimit", "PuzzleError", "Puzzle", "Stats", "Unsolvable",
           "count_solutions", "find_solutions", "parse", "solve"]
