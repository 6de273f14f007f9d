"""The explainer's own geometry of a board: islands, the pairs a link may join, crossings.

Built from the referee's Board, not from the bot's parser, so that an explanation that
replays to the bot's answer checks the bot's geometry too.
"""

from dataclasses import dataclass

from referee.judge.board import LAB_MAX_SIDE, parse_board



@dataclass(frozen=True)
class Geometry:
    """Islands in reading order (`pos`, `value`); edge `e` joins `ends[e] = (a, b)`, `a` left
    of or above `b` with no island between; `crossings[e]` are the edges it crosses;
    `node_edges[n]` lists (edge, other island) at island n and `edges_at[n]` its edges."""

    pos: tuple
    value: tuple
    ends: tuple
    crossings: tuple
    node_edges: tuple
    edges_at: tuple


def geometry(text):
    """The Geometry of puzzle `text` (BoardError, a ValueError, if malformed)."""
    board = parse_board(text, max_side=LAB_MAX_SIDE)
    cells = sorted(board.nodes, key=lambda cell: (cell[1], cell[0]))
    index = {cell: n for n, cell in enumerate(cells)}
    ends = []
    for n, (x, y) in enumerate(cells):   # each island's right edge, then its edge below
        right = next((index[x2, y] for x2 in range(x + 1, board.width) if (x2, y) in index), None)
        below = next((index[x, y2] for y2 in range(y + 1, board.height) if (x, y2) in index), None)
        ends += [(n, other) for other in (right, below) if other is not None]
    across = {}   # each cell strictly inside a horizontal edge: that edge
    for e, (a, b) in enumerate(ends):
        (xa, y), (xb, yb) = cells[a], cells[b]
        if y == yb:
            across.update(((x, y), e) for x in range(xa + 1, xb))
    crossings = [set() for _ in ends]
    for e, (a, b) in enumerate(ends):
        (x, ya), (xb, yb) = cells[a], cells[b]
        if x == xb:
            for y in range(ya + 1, yb):
                f = across.get((x, y))
                if f is not None:
                    crossings[e].add(f)
                    crossings[f].add(e)
    node_edges = [[] for _ in cells]
    for e, (a, b) in enumerate(ends):
        node_edges[a].append((e, b))
        node_edges[b].append((e, a))
    return Geometry(tuple(cells), tuple(board.nodes[cell] for cell in cells), tuple(ends),
                    tuple(tuple(sorted(c)) for c in crossings), tuple(map(tuple, node_edges)),
                    tuple(tuple(e for e, _ in around) for around in node_edges))

