"""Why each link is sure: the solver's reasoning as steps a person can follow.

`explain(text)` returns the Steps that lead from the empty board to a solution, in order:
each names its edge, the bound it moved ("lo": at least, "hi": at most) and the new value,
the rule (magicVal, sieve, crossing, isolation, connectivity, elimination, search), the
cells it read and one sentence. `replay(text, steps)` applies the bounds and returns the
links they leave.

It is a second, independent implementation of the rules the bot runs (bot/rules/), kept in
the lab beside the referee's judge and the SAT peer: its own geometry (from the referee's
Board), bounds, rules and driver, and of the bot only the public `bot.solve` (a "search"
step, when no deduction decides) and `bot.Unsolvable`. A rule the bot gets wrong then shows
as an explanation that fails to replay to the bot's answer (tests/lab/test_explain.py), and
the bot holds one copy of each rule, costing its solves nothing for the sake of sentences.
"""

from bot.solver import Unsolvable, solve   # the public bot.solve, bot.Unsolvable
from referee.lab.explain.engine import run
from referee.lab.explain.geometry import geometry
from referee.lab.explain.state import Contradiction, Step

__all__ = ["Step", "explain", "replay"]


def explain(text):
    """The steps from the empty board to a solution of the puzzle `text`.

    Raises BoardError (a ValueError) for malformed text, Unsolvable when there is no solution.
    """
    puzzle = geometry(text)

    def answer():
        edge = {(puzzle.pos[a], puzzle.pos[b]): e for e, (a, b) in enumerate(puzzle.ends)}
        count = [0] * len(puzzle.ends)
        for x1, y1, x2, y2, n in solve(text):
            count[edge[min((x1, y1), (x2, y2), key=_reading), max((x1, y1), (x2, y2), key=_reading)]] = n
        return count

    try:
        return run(puzzle, answer)
    except Contradiction as why:
        raise Unsolvable(f"the puzzle has no solution: {why}") from None


def _reading(cell):
    """Reading order (row, then column): how the puzzle orders an edge's ends."""
    return cell[1], cell[0]


def replay(text, steps):
    """The links (x1, y1, x2, y2, n) the steps' bounds leave, checking each bound narrows."""
    puzzle = geometry(text)
    lo = [0] * len(puzzle.ends)
    hi = [2] * len(puzzle.ends)
    for step in steps:
        if step.bound == "lo":
            if not lo[step.edge] < step.value <= hi[step.edge]:
                raise ValueError(f"step {step} does not raise lo within {lo[step.edge]}..{hi[step.edge]}")
            lo[step.edge] = step.value
        else:
            if not lo[step.edge] <= step.value < hi[step.edge]:
                raise ValueError(f"step {step} does not lower hi within {lo[step.edge]}..{hi[step.edge]}")
            hi[step.edge] = step.value
    if lo != hi:
        raise ValueError("the steps leave some edge undecided")
    return [(*puzzle.pos[a], *puzzle.pos[b], lo[e])
            for e, (a, b) in enumerate(puzzle.ends) if lo[e]]
