"""A text drawing of a board and its links, for a player reading a lost match.

Cell (x, y) is drawn at column 2x, row 2y, so a link between neighbours has a
character of its own: nodes as digits, empty cells '.', single links '-' and '|',
double links '=' and '"', and the offending link as '*': along its path when it lies in
a row or column, on an end that is no node, and, for a diagonal or a node linked to
itself, in the corners beside its ends (between four cells, where no link is ever drawn).

`render` is the same drawing with ANSI colour for a terminal: nodes that still lack
links in yellow, full nodes in green, links in cyan, the offending link in red.
"""

from __future__ import annotations

from referee.judge.board import Board, Cell
from referee.judge.result import MatchResult
from referee.judge.rules import Judge, Link, Verdict

MARK = "*"
_GLYPHS = {(True, 1): "-", (True, 2): "=", (False, 1): "|", (False, 2): '"'}

# Verdicts whose deciding line was judged by the rules and may name a link to mark.
_RULE_LOSSES = {Verdict.NOT_A_LINK, Verdict.CROSSING, Verdict.THIRD_LINK, Verdict.OVER_CAPACITY}


# ANSI styles by what a character shows (render with colour=True).
_ANSI = {"short": "\033[1;33m", "full": "\033[32m", "link": "\033[36m", "mark": "\033[1;31m"}
_RESET = "\033[0m"


def draw(board: Board, links: dict[tuple[Cell, Cell], int], mark: Link | None = None) -> str:
    """The board with `links` {(a, b): count} drawn, and `mark` drawn over them."""
    return render(board, links, mark)


def render(board: Board, links: dict[tuple[Cell, Cell], int], mark: Link | None = None,
           colour: bool = False) -> str:
    """`draw`, with ANSI colour when `colour`: short nodes, full nodes, links, the mark."""
    canvas = [[" "] * (2 * board.width - 1) for _ in range(2 * board.height - 1)]
    styles: dict[tuple[int, int], str] = {}
    held = degrees(board, links)
    for y in range(board.height):
        for x in range(board.width):
            value = board.nodes.get((x, y))
            canvas[2 * y][2 * x] = "." if value is None else str(value)
            if value is not None:
                styles[(2 * y, 2 * x)] = "full" if held[(x, y)] >= value else "short"
    for (a, b), count in links.items():
        _stroke(canvas, styles, a, b, _GLYPHS[(a[1] == b[1], count)], "link")
    if mark is not None:
        for row, col in mark_points(board, mark):
            canvas[row][col] = MARK
            styles[(row, col)] = "mark"
    if not colour:
        return "\n".join("".join(row).rstrip() for row in canvas)
    return "\n".join("".join(_ANSI[styles[(r, c)]] + ch + _RESET if (r, c) in styles else ch
                              for c, ch in enumerate(row)).rstrip()
                     for r, row in enumerate(canvas))


def degrees(board: Board, links: dict[tuple[Cell, Cell], int]) -> dict[Cell, int]:
    """How many links each node holds."""
    held = {cell: 0 for cell in board.nodes}
    for (a, b), count in links.items():
        held[a] += count
        held[b] += count
    return held


def short_nodes(board: Board, links: dict[tuple[Cell, Cell], int]) -> list[tuple[Cell, int, int]]:
    """(cell, links held, value) of every node that still lacks links, in reading order."""
    held = degrees(board, links)
    return [(cell, held[cell], value)
            for cell, value in sorted(board.nodes.items(), key=lambda item: item[0][::-1])
            if held[cell] < value]


def straight(link: Link) -> bool:
    """The link joins two different cells of one row or column."""
    return link.a != link.b and (link.a[0] == link.b[0] or link.a[1] == link.b[1])


def mark_points(board: Board, mark: Link) -> list[tuple[int, int]]:
    """Where `*` goes on the canvas (row, column) for a losing link: the empty cells of its
    path, each end that is no node, and for a link that is not straight the corners
    beside its ends, towards the other end (around the node, when both ends are one)."""
    (ax, ay), (bx, by) = mark.a, mark.b
    points = [(2 * y, 2 * x) for x, y in {mark.a, mark.b} if (x, y) not in board.nodes]
    if straight(mark):
        points += [(row, col) for row, col in _path(mark.a, mark.b)
                   if not _node_at(board, row, col)]
    elif mark.a == mark.b:
        points += _around(board, 2 * ay, 2 * ax)
    else:
        dx, dy = (1 if bx > ax else -1), (1 if by > ay else -1)
        points += [(2 * ay + dy, 2 * ax + dx), (2 * by - dy, 2 * bx - dx)]
    return points


def mark_note(mark: Link, held: int, word: str = "offending") -> str:
    """What the `*` on the board shows, in words; `held` links were already on that pair."""
    a, b = (f"({x},{y})" for x, y in (mark.a, mark.b))
    if mark.a == mark.b:
        return f"{MARK} around {a} marks the {word} link from that node to itself x{mark.amount}"
    if not straight(mark):
        return (f"{MARK} beside {a} and {b} marks the {word} link {a}-{b} x{mark.amount}, "
                "which is in no row or column")
    under = f", drawn over the {held} link(s) it already has" if held else ""
    return f"{MARK} marks the {word} link {a}-{b} x{mark.amount}{under}"


def _around(board: Board, row: int, col: int) -> list[tuple[int, int]]:
    """The corners around a canvas point that are on the canvas; on a board one cell
    high or wide, which has none, the gaps beside it."""
    rows, cols = 2 * board.height - 1, 2 * board.width - 1
    corners = [(row + dy, col + dx) for dy in (-1, 1) for dx in (-1, 1)
               if 0 <= row + dy < rows and 0 <= col + dx < cols]
    return corners or [(r, c) for r, c in ((row, col - 1), (row, col + 1), (row - 1, col),
                                           (row + 1, col)) if 0 <= r < rows and 0 <= c < cols]


def _node_at(board: Board, row: int, col: int) -> bool:
    return row % 2 == 0 and col % 2 == 0 and (col // 2, row // 2) in board.nodes


def _path(a: Cell, b: Cell) -> list[tuple[int, int]]:
    """The canvas points strictly between two cells of one row or column."""
    (x1, y1), (x2, y2) = sorted([a, b])
    if y1 == y2:
        return [(2 * y1, col) for col in range(2 * x1 + 1, 2 * x2)]
    return [(row, 2 * x1) for row in range(2 * y1 + 1, 2 * y2)]


def _stroke(canvas: list[list[str]], styles: dict[tuple[int, int], str], a: Cell, b: Cell,
            glyph: str, style: str) -> None:
    """Draw a straight link between two cells, leaving nodes as they are."""
    for row, col in _path(a, b):
        if not canvas[row][col].isdigit():
            canvas[row][col] = glyph
            styles[(row, col)] = style


def draw_result(result: MatchResult) -> str:
    """The board with the links placed before the deciding line, that line's link marked."""
    judge = Judge(result.board)
    for line in result.lines[:result.turn - 1]:
        judge.feed(line)
    links = dict(judge.links)
    mark = None
    if result.verdict in _RULE_LOSSES and result.line is not None:
        judge.feed(result.line)
        mark = judge.offending
    elif result.verdict in (Verdict.WIN, Verdict.DISCONNECTED) and result.line is not None:
        judge.feed(result.line)
        links = dict(judge.links)
    text = draw(result.board, links, mark)
    if mark is not None:
        text += f"\n({mark_note(mark, links.get((mark.a, mark.b), 0))})"
    return text
