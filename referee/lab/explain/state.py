"""The explainer's own state: a lo..hi link bound per edge, and the steps that moved them.

It shares nothing with the solver, so the solver's internals can change freely. Every bound
change goes through `raise_lo` or `lower_hi`, which refuse an impossible bound
(Contradiction) and, when recording, keep a Step a person can read.
"""

from dataclasses import dataclass

MAX_LINKS = 2   # links a pair of islands may hold


@dataclass(frozen=True)
class Step:
    """One deduction: `bound` ("lo" or "hi") of edge `edge`, joining cells `ends`, became `value`.

    `rule` names the deduction, `nodes` the cells it read, `sentence` says why in words. An
    elimination also says what it assumed and the contradiction that refuted it.
    """

    edge: int
    ends: tuple
    bound: str
    value: int
    rule: str
    nodes: tuple
    sentence: str
    assumption: str | None = None
    contradiction: str | None = None

    def as_dict(self):
        """The step as JSON-ready data (cells as [x, y])."""
        data = {"edge": self.edge, "ends": [list(c) for c in self.ends], "bound": self.bound,
                "value": self.value, "rule": self.rule,
                "nodes": [list(c) for c in self.nodes], "sentence": self.sentence}
        if self.assumption is not None:
            data["assumption"] = self.assumption
            data["contradiction"] = self.contradiction
        return data


class Contradiction(Exception):
    """The bounds admit no solution; the message says why, for a person."""


def cell(puzzle, node):
    """A node as a person reads it: "(x,y)"."""
    x, y = puzzle.pos[node]
    return f"({x},{y})"


def edge_name(puzzle, e):
    """An edge as "(x1,y1)-(x2,y2)"."""
    a, b = puzzle.ends[e]
    return f"{cell(puzzle, a)}-{cell(puzzle, b)}"


def direction(puzzle, node, other):
    """Which way `other` lies from `node`: right, left, down or up."""
    (x, y), (ox, oy) = puzzle.pos[node], puzzle.pos[other]
    if oy == y:
        return "right" if ox > x else "left"
    return "down" if oy > y else "up"


def links(n, verb=""):
    """"1 link goes" / "2 links go" (or without the verb)."""
    word = "link" if n == 1 else "links"
    if not verb:
        return f"{n} {word}"
    return f"{n} {word} {verb + 'es' if n == 1 else verb}"


class State:
    """The bounds of every edge, the nodes waiting to be looked at, and the steps so far."""

    __slots__ = ("puzzle", "lo", "hi", "queue", "queued", "steps", "changes")

    def __init__(self, puzzle, record=True):
        self.puzzle = puzzle
        self.lo = [0] * len(puzzle.ends)
        self.hi = [MAX_LINKS] * len(puzzle.ends)
        self.queue = list(range(len(puzzle.pos)))
        self.queued = [True] * len(puzzle.pos)
        self.steps = [] if record else None
        self.changes = 0

    def copy(self):
        """A copy that records no steps: for an assumption that may be refuted."""
        other = State.__new__(State)
        other.puzzle = self.puzzle
        other.lo, other.hi = self.lo[:], self.hi[:]
        other.queue, other.queued = self.queue[:], self.queued[:]
        other.steps, other.changes = None, 0
        return other

    def undecided(self):
        return [e for e in range(len(self.lo)) if self.lo[e] < self.hi[e]]

    def raise_lo(self, e, value, rule, nodes, say, **why):
        """lo[e] = value (if higher); a first link blocks every crossing edge."""
        if value <= self.lo[e]:
            return
        if value > self.hi[e]:
            raise Contradiction(f"{edge_name(self.puzzle, e)} would need {links(value)} "
                                f"but could take at most {self.hi[e]}")
        was = self.lo[e]
        self.lo[e] = value
        self._changed(e, "lo", value, rule, nodes, say, why)
        if was == 0:
            p = self.puzzle
            for f in p.crossings[e]:
                if self.hi[f]:
                    cells = tuple(p.pos[n] for n in p.ends[e] + p.ends[f])
                    self.lower_hi(f, 0, "crossing", cells, lambda f=f: (
                        f"the link {edge_name(p, e)} crosses {edge_name(p, f)}: "
                        f"no link can go there"))

    def lower_hi(self, e, value, rule, nodes, say, **why):
        """hi[e] = value (if lower)."""
        if value >= self.hi[e]:
            return
        if value < self.lo[e]:
            raise Contradiction(f"{edge_name(self.puzzle, e)} would need {links(self.lo[e])} "
                                f"but could take at most {value}")
        self.hi[e] = value
        self._changed(e, "hi", value, rule, nodes, say, why)

    def _changed(self, e, bound, value, rule, nodes, say, why):
        self.changes += 1
        for node in self.puzzle.ends[e]:
            if not self.queued[node]:
                self.queued[node] = True
                self.queue.append(node)
        if self.steps is not None:
            self.steps.append(Step(e, tuple(self.puzzle.pos[n] for n in self.puzzle.ends[e]),
                                   bound, value, rule, tuple(nodes), say(), **why))
