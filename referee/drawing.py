"""A text drawing of a board and its links, for a player reading a lost match.

Cell (x, y) is drawn at column 2x, row 2y, so a link between neighbours has a
character of its own: nodes as digits, empty cells '.', single links '-' and '|',
double links '=' and '"', and the offending link as '*'.
"""

from __future__ import annotations

from referee.board import Board, Cell
from referee.result import MatchResult
from referee.rules import Judge, Link, Verdict

MARK = "*"
_GLYPHS = {(True, 1): "-", (True, 2): "=", (False, 1): "|", (False, 2): '"'}

# Verdicts whose deciding line was judged by the rules and may name a link to mark.
_RULE_LOSSES = {Verdict.NOT_A_LINK, Verdict.CROSSING, Verdict.THIRD_LINK, Verdict.OVER_CAPACITY}


def draw(board: Board, links: dict[tuple[Cell, Cell], int], mark: Link | None = None) -> str:
    """The board with `links` {(a, b): count} drawn, and `mark` drawn over them."""
    canvas = [[" "] * (2 * board.width - 1) for _ in range(2 * board.height - 1)]
    for y in range(board.height):
        for x in range(board.width):
            canvas[2 * y][2 * x] = str(board.nodes.get((x, y), "."))
    for (a, b), count in links.items():
        _stroke(canvas, a, b, _GLYPHS[(a[1] == b[1], count)])
    if mark is not None and (mark.a[0] == mark.b[0] or mark.a[1] == mark.b[1]):
        _stroke(canvas, mark.a, mark.b, MARK)
    return "\n".join("".join(row).rstrip() for row in canvas)


def _stroke(canvas: list[list[str]], a: Cell, b: Cell, glyph: str) -> None:
    """Draw a straight link between two cells, leaving nodes as they are."""
    (x1, y1), (x2, y2) = sorted([a, b])
    if y1 == y2:
        points = [(2 * y1, col) for col in range(2 * x1 + 1, 2 * x2)]
    else:
        points = [(row, 2 * x1) for row in range(2 * y1 + 1, 2 * y2)]
    for row, col in points:
        if not canvas[row][col].isdigit():
            canvas[row][col] = glyph


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
        held = links.get((mark.a, mark.b), 0)
        under = f", drawn over the {held} link(s) it already has" if held else ""
        text += (f"\n({MARK} marks the offending link ({mark.a[0]},{mark.a[1]})-"
                 f"({mark.b[0]},{mark.b[1]}) x{mark.amount}{under})")
    return text
