"""Hardening: a local search from a unique puzzle towards one that needs branching.

Hard unique puzzles are rare at random (about 1 in 2000 on 30x30), so `harden` walks from
a unique candidate by small changes that keep its known solution, keeping a change while
the puzzle stays unique and no easier (`referee.lab.gen.grading.grade`).
"""

from __future__ import annotations

import random

from referee.lab.gen.grading import DEFAULT_WORK, DIFFICULTIES, apply_repair, grade
from referee.judge.geometry import inner_cells
from referee.lab.gen.walk import Link, connected, links_text

DEFAULT_CLIMB = 400  # mutations `harden` may try on one candidate


def mutations(links: list[Link]) -> list[tuple]:
    """Every change that keeps `links` a solution of the changed puzzle, in a fixed order.

    ("toggle", link): a single link becomes double or back; ("drop", link): a link whose
    ends keep other links and whose removal keeps the islands connected; ("leaf", cell):
    an island with one link goes; ("merge", cell): an island between two equal links in
    one line goes, the links become one; ("split", link, cell): a new island on a link.
    """
    ends: dict[tuple[int, int], list[Link]] = {}
    for link in links:
        for cell in (link[:2], link[2:4]):
            ends.setdefault(cell, []).append(link)
    found: list[tuple] = []
    for cell, touching in ends.items():
        if len(touching) == 1 and len(ends) > 2:
            found.append(("leaf", cell))
        if len(touching) == 2:
            a, b = touching
            in_line = (a[1] == a[3] == b[1] == b[3]) or (a[0] == a[2] == b[0] == b[2])
            if in_line and a[4] == b[4]:
                found.append(("merge", cell))
    for link in links:
        found.append(("toggle", link))
        if len(ends[link[:2]]) > 1 and len(ends[link[2:4]]) > 1:
            found.append(("drop", link))
        found += [("split", link, cell) for cell in inner_cells(link[:2], link[2:4])]
    return sorted(found)


def mutate(links: list[Link], change: tuple) -> list[Link] | None:
    """Apply one of `mutations`; None if it would disconnect the islands."""
    kind = change[0]
    if kind == "toggle":
        link = change[1]
        return sorted([other for other in links if other != link] + [(*link[:4], 3 - link[4])])
    if kind == "drop":
        rest = [other for other in links if other != change[1]]
        return rest if connected(rest) else None
    if kind == "leaf":
        return [link for link in links if change[1] not in (link[:2], link[2:4])]
    if kind == "merge":
        a, b = [link for link in links if change[1] in (link[:2], link[2:4])]
        far = sorted({a[:2], a[2:4], b[:2], b[2:4]} - {change[1]})
        return sorted([link for link in links if link not in (a, b)] + [(*far[0], *far[1], a[4])])
    return apply_repair(links, change)


def harden(width: int, height: int, links: list[Link], rng: random.Random,
           work: int = DEFAULT_WORK, steps: int = DEFAULT_CLIMB) -> tuple[str, list[Link], str]:
    """Random local search over unique puzzles towards one that needs branching.

    Each step applies a random mutation; all keep the known solution.
    The change is kept if the puzzle stays unique, needs at least the same stage, and
    elimination tries at least 80% as many assumptions (so the walk drifts as it climbs).
    Stops at the first hard puzzle. Returns the last puzzle kept, its links and difficulty.
    """
    text = links_text(width, height, links)
    current = grade(text, work)
    if current is None:
        return text, links, "several"
    for _ in range(steps):
        if current[0] == 2:
            break
        # Uniform over all mutations, so mostly splits (one per inner cell): measured on
        # 12x12, that finds hard puzzles several times as often as choosing the kind first.
        changed = mutate(links, rng.choice(mutations(links)))
        if changed is None:
            continue
        candidate = links_text(width, height, changed)
        score = grade(candidate, work)
        if score is None or score[0] < current[0] or (
                score[0] == current[0] and score[1] < 0.8 * current[1]):
            continue
        text, links, current = candidate, changed, score
    return text, links, DIFFICULTIES[current[0]]
