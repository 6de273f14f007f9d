"""Grading and uniqueness: which solver stage a puzzle needs, and islands that make it unique.

Tatham's rule: keep a puzzle only if the solver at the target level proves it.
`classify` names the deepest solver stage a puzzle needs (easy: the rules, medium:
elimination, hard: branching); `grade` adds how much elimination it took, for the local
search in referee.lab.gen.hardening. `make_unique` adds islands on the known solution's links
until `bot.count_solutions` proves it unique (`two_solutions` reads a second solution with
bot.find_solutions, to know where to add one). Every solver call has a budget in
propagation rounds (`OverBudget`, the solver's OverLimit), never in seconds, so the same
arguments give the same puzzles on any machine.
"""

from __future__ import annotations

import random

import bot
from bot.stages import ELIMINATION, RULES
from referee.judge.geometry import inner_cells
from referee.lab.gen.walk import Link, completes_square, links_text, ordered

EASY, MEDIUM, HARD = "easy", "medium", "hard"
DIFFICULTIES = (EASY, MEDIUM, HARD)
DEFAULT_WORK = 20000  # propagation rounds one solver check may spend before giving up


OverBudget = bot.OverLimit   # the solver spent its work budget without an answer


def budget(work: int) -> bot.Stats:
    """Counters for one solver check that may spend `work` propagation rounds.

    Counting rounds, not seconds, keeps the verdict (and so the generated files) the same
    on every machine.
    """
    return bot.Stats(bot.Limit(rounds=work))


def classify(text: str, work: int = DEFAULT_WORK) -> str:
    """The deepest solver stage the puzzle needs: easy (rules), medium (elimination), hard.

    Raises OverBudget if elimination alone spends more than `work` rounds.
    """
    for stage, name in ((RULES, EASY), (ELIMINATION, MEDIUM)):
        try:
            bot.solve_to(text, stage, stats=budget(work))
            return name
        except bot.Unsolvable:
            pass
    return HARD


def classify_or_none(text: str, work: int) -> str:
    """The difficulty, or "unknown" when the solver runs over budget."""
    try:
        return classify(text, work)
    except OverBudget:
        return "unknown"


def is_unique(text: str, work: int = DEFAULT_WORK) -> bool:
    """True if the solver proves exactly one solution (OverBudget if it cannot tell in time)."""
    return bot.count_solutions(text, 2, stats=budget(work)) == 1


def two_solutions(text: str, work: int = DEFAULT_WORK) -> list[list[Link]]:
    """Up to two solutions of the puzzle, each a sorted list of links (OverBudget if slow)."""
    return bot.find_solutions(text, 2, stats=budget(work))


def grade(text: str, work: int = DEFAULT_WORK) -> tuple[int, int] | None:
    """(0 easy / 1 medium / 2 hard, assumptions elimination tried): higher is harder; None
    when the puzzle is not unique or the solver runs over budget.

    Cheapest first: the rules, then the uniqueness proof, then elimination (its probes are
    90% of a walk's time: cProfile of `harden` on 20x20), which a non-unique puzzle skips.
    """
    try:
        try:
            bot.solve_to(text, RULES, stats=budget(work))
            return 0, 0
        except bot.Unsolvable:
            pass
        if not is_unique(text, work):
            return None
        stats = budget(work)
        try:
            bot.solve_to(text, ELIMINATION, stats=stats)
            return 1, stats.assumptions
        except bot.Unsolvable:
            return 2, 0
    except OverBudget:
        return None


def apply_repair(links: list[Link], repair: tuple) -> list[Link]:
    """Apply one repair; the known solution stays a solution of the new puzzle.

    ("split", link, cell): a new island on `cell` of `link`'s path, linked to both ends.
    ("leaf", end, cell, n): a new island on a free `cell`, linked to the island `end`.
    """
    if repair[0] == "split":
        _, link, cell = repair
        rest = [other for other in links if other != link]
        return sorted(rest + [ordered(link[:2], cell, link[4]), ordered(cell, link[2:4], link[4])])
    _, end, cell, n = repair
    return sorted(links + [ordered(end, cell, n)])


def repair_choices(known: list[Link], other: list[Link]) -> list[tuple]:
    """Ways to add an island that keep the known solution and break the other one.

    A link of the other solution that the known one lacks is cut: by splitting a known link
    where they cross, or by a new leaf island on its free path, linked to one of its ends.
    A known link whose count differs is split at each of its inner cells.
    """
    mine = {link[:4] for link in known}
    under = {cell: link for link in known for cell in inner_cells(link[:2], link[2:4])}
    counts = {link[:4]: link[4] for link in other}
    choices: list[tuple] = []
    for link in other:
        if link[:4] in mine:
            continue
        cells = inner_cells(link[:2], link[2:4])
        choices += [("split", under[cell], cell) for cell in cells if cell in under]
        for end, path in ((link[:2], cells), (link[2:4], cells[::-1])):
            for cell in path:
                if cell in under:
                    break
                choices += [("leaf", end, cell, 1), ("leaf", end, cell, 2)]
    for link in known:
        if counts.get(link[:4], 0) != link[4]:
            choices += [("split", link, cell) for cell in inner_cells(link[:2], link[2:4])]
    return sorted(set(choices))


def make_unique(width: int, height: int, links: list[Link], rng: random.Random,
                work: int = DEFAULT_WORK, repairs: int = 0) -> tuple[str, list[Link]] | None:
    """Add islands until the solver proves one solution; None if `repairs` run out."""
    for _ in range(repairs + 1):
        text = links_text(width, height, links)
        found = two_solutions(text, work)
        if len(found) < 2:
            return text, links
        other = found[1] if found[0] == links else found[0]
        islands = {end for link in links for end in (link[:2], link[2:4])}
        choices = [choice for choice in repair_choices(links, other)
                   if not completes_square(choice[2], islands)]
        if not choices:
            return None
        links = apply_repair(links, rng.choice(choices))
    return None
