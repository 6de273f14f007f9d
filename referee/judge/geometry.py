"""The board's geometry that the judge, the SAT peer and the lab share: the cells a link
passes over, and the groups that links join."""

from __future__ import annotations

from typing import Hashable, Iterable, TypeVar

Cell = tuple[int, int]
Node = TypeVar("Node", bound=Hashable)


def inner_cells(a: Cell, b: Cell) -> list[Cell]:
    """The cells strictly between two ends on one row or one column."""
    (x1, y1), (x2, y2) = min(a, b), max(a, b)
    if y1 == y2:
        return [(x, y1) for x in range(x1 + 1, x2)]
    return [(x1, y) for y in range(y1 + 1, y2)]


def groups(nodes: Iterable[Node], pairs: Iterable[tuple[Node, Node]]) -> list[list[Node]]:
    """The groups of `nodes` that `pairs` join, each in the order of `nodes`, the groups in
    the order of their first node (a union-find, halving paths as it goes)."""
    nodes = list(nodes)
    parent = {node: node for node in nodes}

    def root(node):
        while parent[node] != node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    for a, b in pairs:
        parent[root(a)] = root(b)
    found: dict[Node, list[Node]] = {}
    for node in nodes:
        found.setdefault(root(node), []).append(node)
    return list(found.values())
