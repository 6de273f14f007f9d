"""An independent solver for the lab: the puzzle's rules as a SAT model, solved by CaDiCaL.

The bot's own solver is the thing under test, so the lab needs a second opinion that
shares none of its code: this module states the rules declaratively and hands them to a
general SAT solver (python-sat, the optional `lab` dependency group; never imported by
bot/, and the bot never imports this). Per candidate edge (two islands in one row or
column with no island between) two booleans: `one` (at least one link) and `two` (two
links), with two -> one. Two crossing edges are never both used; each island's links add
up to its value (a cardinality constraint over its edges' booleans); `balanced` adds the
one counting rule CDCL cannot find alone. Connectivity is added lazily: solve, split the
answer into connected groups, and for every group that does not hold every island
require some edge leaving it to carry a link; solve again. The same clause for every
small group that could close on itself (up to SMALL_GROUP islands) is given up front.

`peer_solve(text)` returns one solution's links (x1, y1, x2, y2, n) or None when there is
none; `peer_count(text, limit)` counts solutions up to `limit` (each one found is blocked
and the search goes on). `timeout_s` bounds the whole search (PeerTimeout). The geometry
helpers (`islands`, `candidate_edges`, `crossings`) are shared with the stress generator.
"""

from __future__ import annotations

import time
from collections import defaultdict

from referee.judge import geometry

Cell = tuple[int, int]
Edge = tuple[Cell, Cell]          # (a, b) with a < b: a row (left to right) or a column
Link = tuple[int, int, int, int, int]
SAT_SOLVER = "cadical195"
CONFLICT_SLICE = 5000    # conflicts per SAT call when a deadline is set
SMALL_GROUP = 4          # groups up to this many islands get their connectivity clause up front


class PeerTimeout(Exception):
    """The search ran past `timeout_s` seconds."""


# -- geometry ---------------------------------------------------------------------------

def islands(text: str) -> tuple[int, int, dict[Cell, int]]:
    """(width, height, {(x, y): value}) from CodinGame's input format, any size."""
    lines = text.split("\n")
    width, height = int(lines[0]), int(lines[1])
    nodes = {}
    for y, row in enumerate(lines[2:2 + height]):
        for x, char in enumerate(row.strip()):
            if char != ".":
                nodes[(x, y)] = int(char)
    return width, height, nodes


def candidate_edges(cells) -> list[Edge]:
    """Every pair of islands in one row or column with no island between, sorted."""
    edges = []
    for axis in (0, 1):       # 0: rows (vary x), 1: columns (vary y)
        lines = defaultdict(list)
        for cell in cells:
            lines[cell[1 - axis]].append(cell)
        for line in lines.values():
            line.sort(key=lambda c: c[axis])
            edges.extend(zip(line, line[1:]))
    return sorted(edges)


def crossings(edges: list[Edge]) -> list[tuple[int, int]]:
    """Index pairs (i, j) of edges that cross: a row edge and a column edge over one cell."""
    by_cell: dict[Cell, list[int]] = defaultdict(list)
    for i, edge in enumerate(edges):
        for cell in geometry.inner_cells(*edge):
            by_cell[cell].append(i)
    return [tuple(pair) for pair in by_cell.values() if len(pair) == 2]


def find(parent: dict[Cell, Cell], cell: Cell) -> Cell:
    """The root of `cell` in a union-find kept as a parent map (halving the path as it goes)."""
    while parent[cell] != cell:
        parent[cell] = parent[parent[cell]]
        cell = parent[cell]
    return cell


def balanced(nodes: dict[Cell, int], edges: list[Edge]) -> bool:
    """False when two-colouring proves there is no solution.

    Every link joins its two ends, so where the candidate edges can be two-coloured (every
    layout of whole rows, columns or blocks can), each connected part of them must hold the
    same total of values on both colours. A redundant rule, but one that SAT solvers cannot
    find by themselves: without it, refuting a full 20x20 board with one value moved by 2
    takes CaDiCaL minutes.
    """
    neighbours: dict[Cell, list[Cell]] = defaultdict(list)
    for a, b in edges:
        neighbours[a].append(b)
        neighbours[b].append(a)
    colour: dict[Cell, int] = {}
    for start in nodes:
        if start in colour:
            continue
        colour[start] = 1
        todo, totals, odd = [start], {1: 0, -1: 0}, False
        while todo:
            cell = todo.pop()
            totals[colour[cell]] += nodes[cell]
            for other in neighbours[cell]:
                if other not in colour:
                    colour[other] = -colour[cell]
                    todo.append(other)
                elif colour[other] == colour[cell]:
                    odd = True        # an odd cycle: nothing to conclude for this part
        if not odd and totals[1] != totals[-1]:
            return False
    return True


# -- the model --------------------------------------------------------------------------

class Model:
    """The rules of one puzzle as clauses; `solutions()` yields connected solutions."""

    def __init__(self, text: str):
        from pysat.card import CardEnc, EncType
        from pysat.formula import IDPool

        self.width, self.height, self.nodes = islands(text)
        self.edges = candidate_edges(self.nodes)
        self.touching = defaultdict(list)     # island -> indices of its edges
        for i, (a, b) in enumerate(self.edges):
            self.touching[a].append(i)
            self.touching[b].append(i)
        pool = IDPool()
        self.one = [pool.id(("one", i)) for i in range(len(self.edges))]
        self.two = [pool.id(("two", i)) for i in range(len(self.edges))]
        clauses = [[-t, o] for o, t in zip(self.one, self.two)]
        clauses += [[-self.one[i], -self.one[j]] for i, j in crossings(self.edges)]
        incident = defaultdict(list)
        for i, (a, b) in enumerate(self.edges):
            incident[a] += [self.one[i], self.two[i]]
            incident[b] += [self.one[i], self.two[i]]
        for cell, value in self.nodes.items():
            lits = incident[cell]
            if value > len(lits):
                clauses.append([])        # more links asked than the island can hold
                continue
            card = CardEnc.equals(lits=lits, bound=value, vpool=pool, encoding=EncType.seqcounter)
            clauses += card.clauses
        if not balanced(self.nodes, self.edges):
            clauses.append([])
        if len(self.nodes) > SMALL_GROUP:
            clauses += self._small_group_cuts()
        self.clauses = clauses
        self.cuts = 0       # connectivity clauses added so far

    def _leaving(self, group) -> list[int]:
        """The `one` booleans of the edges with exactly one end in the group."""
        return [self.one[i] for cell in group for i in self.touching[cell]
                if (self.edges[i][0] in group) != (self.edges[i][1] in group)]

    def _small_group_cuts(self) -> list[list[int]]:
        """Connectivity clauses, given up front, for every connected group of at most
        SMALL_GROUP islands that could close on itself (its values even and within what
        its inner edges can hold): some edge leaving it is used.

        The lazy cuts alone would find these one at a time; on a full board of single
        links there are thousands (pairs of 1s, squares of 2s), one SAT call each.
        """
        neighbours = {cell: [self.edges[i][0] if self.edges[i][1] == cell else self.edges[i][1]
                             for i in self.touching[cell]] for cell in self.nodes}
        groups = {frozenset([cell]) for cell in self.nodes}
        layer = groups
        for _ in range(SMALL_GROUP - 1):
            layer = {group | {other} for group in layer for cell in group
                     for other in neighbours[cell] if other not in group}
            groups |= layer
        cuts = []
        for group in groups:
            total = sum(self.nodes[cell] for cell in group)
            inner = sum(1 for cell in group for other in neighbours[cell] if other in group) // 2
            if total % 2 == 0 and total <= 4 * inner:
                cuts.append(self._leaving(group))
        return cuts

    def _links(self, model: set[int]) -> list[Link]:
        links = []
        for i, (a, b) in enumerate(self.edges):
            if self.one[i] in model:
                links.append((*a, *b, 2 if self.two[i] in model else 1))
        return links

    def _cut_clauses(self, model: set[int]) -> list[list[int]]:
        """One clause per group short of every island: some edge leaving it is used."""
        used = [e for i, e in enumerate(self.edges) if self.one[i] in model]
        groups = [set(group) for group in geometry.groups(self.nodes, used)]
        if len(groups) == 1:
            return []
        return [self._leaving(group) for group in groups]

    def solutions(self, timeout_s: float | None = None):
        """Yield every connected solution's links, each found once (blocked after)."""
        from pysat.solvers import Solver

        deadline = None if timeout_s is None else time.perf_counter() + timeout_s
        with Solver(name=SAT_SOLVER, bootstrap_with=self.clauses) as solver:
            while True:
                if not _solve(solver, deadline):
                    return
                model = set(lit for lit in solver.get_model() if lit > 0)
                cuts = self._cut_clauses(model)
                if cuts:
                    for clause in cuts:
                        solver.add_clause(clause)
                    self.cuts += len(cuts)
                    continue
                yield self._links(model)
                solver.add_clause([-v if v in model else v for v in self.one + self.two])


def _solve(solver, deadline: float | None) -> bool:
    """One SAT question, asked in slices of CONFLICT_SLICE conflicts until the deadline.

    CaDiCaL in python-sat cannot be interrupted from another thread, but it stops at a
    conflict budget and resumes with what it learnt, so the clock is read between slices
    (and a Python signal handler, such as the bench's alarm, gets to run there too).
    """
    if deadline is None:
        return solver.solve()
    while True:
        if time.perf_counter() >= deadline:
            raise PeerTimeout("out of time")
        solver.conf_budget(CONFLICT_SLICE)
        answer = solver.solve_limited()
        if answer is not None:
            return answer


def peer_solve(text: str, timeout_s: float | None = None) -> list[Link] | None:
    """One solution's links, sorted, or None when the puzzle has no solution."""
    search = Model(text).solutions(timeout_s)
    try:
        return next(search, None)
    finally:
        search.close()


def peer_count(text: str, limit: int = 2, timeout_s: float | None = None) -> int:
    """The number of solutions, counting stops at `limit`."""
    count = 0
    search = Model(text).solutions(timeout_s)
    try:
        for _ in search:
            count += 1
            if count >= limit:
                break
    finally:
        search.close()
    return count
