"""The pure rules of the puzzle: no processes, no clocks, never imports the bot.

`Judge` takes a bot's output one line at a time. `feed(line)` returns None while
the game goes on, or an `Outcome` once a line decides it (a loss, or the win when
every node is full and all are connected). `finish()` judges a cleanly ended
output. Lines after a decision are ignored.

A line is checked in this documented order, the first failure deciding:
  1. malformed    - not five integers (ASCII digits, separated by spaces or tabs), amount
                    not 1 or 2, a coordinate off the board
  2. not_a_link   - an endpoint is not a node, the same node twice, not in one row or column
  3. crossing     - passes over a node, or crosses a link already placed
  4. third_link   - the pair would hold more than two links
  5. over_capacity - an endpoint would hold more links than its value
After an accepted line: every node full and connected is a win; every node full
in two or more groups is `disconnected` at once (no further line can be legal).
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from typing import Iterable

from referee.judge.board import Board, Cell
from referee.judge.geometry import groups, inner_cells

MAX_LINKS_PER_PAIR = 2

_INTEGER = re.compile(r"[+-]?[0-9]{1,9}")   # ASCII digits; longer numbers are off any board
_BLANKS = re.compile(r"[ \t]+")              # the only separators: ASCII space and tab


class Verdict(enum.Enum):
    """How a match ended; the value is the name used in JSON output."""

    WIN = "win"
    MALFORMED = "malformed"
    NOT_A_LINK = "not_a_link"
    CROSSING = "crossing"
    THIRD_LINK = "third_link"
    OVER_CAPACITY = "over_capacity"
    INCOMPLETE = "incomplete"
    DISCONNECTED = "disconnected"
    TIMEOUT = "timeout"
    CRASH = "crash"
    MEMORY = "memory"        # all the bot's processes together went over the memory cap
    ERROR = "error"          # the referee could not play the match to a verdict (its reason says why)


@dataclass(frozen=True)
class Outcome:
    """A decision: the verdict, a one-sentence reason, and the 1-based turn and line.

    `turn` is the output line that decided it; for events that happen instead of a
    line (end of output, timeout, crash) it is the line the referee was waiting
    for, and `line` is None.
    """

    verdict: Verdict
    reason: str
    turn: int
    line: str | None = None

    @property
    def won(self) -> bool:
        return self.verdict is Verdict.WIN


@dataclass(frozen=True)
class Link:
    """A placement request: `amount` links between endpoints a and b (a < b)."""

    a: Cell
    b: Cell
    amount: int

    @property
    def horizontal(self) -> bool:
        return self.a[1] == self.b[1]

    def inner_cells(self) -> list[Cell]:
        """The cells strictly between the endpoints."""
        return inner_cells(self.a, self.b)


class LineError(Exception):
    """A rejected line: carries the verdict and the reason."""

    def __init__(self, verdict: Verdict, reason: str):
        super().__init__(reason)
        self.verdict = verdict
        self.reason = reason


class Judge:
    """The rules applied incrementally to one bot output on one board."""

    def __init__(self, board: Board):
        self.board = board
        self.links: dict[tuple[Cell, Cell], int] = {}   # (a, b) with a < b -> 1 or 2
        self.degree: dict[Cell, int] = {cell: 0 for cell in board.nodes}
        self._occupied: dict[Cell, tuple[Cell, Cell]] = {}  # empty cell -> link over it
        self._full = 0
        self.turn = 0              # lines fed so far
        self.outcome: Outcome | None = None
        self.offending: Link | None = None  # the parsed link of a losing line, if any

    def feed(self, line: str) -> Outcome | None:
        """Judge one output line (without its newline); None means go on."""
        if self.outcome is not None:
            return None  # decided already: later lines are ignored
        self.turn += 1
        try:
            link = self._parse(line)
            self.offending = link
            self._check_geometry(link)
            self._check_counts(link)
        except LineError as error:
            return self._decide(error.verdict, error.reason, line)
        self.offending = None
        self._place(link)
        return self._after_place(line)

    def finish(self) -> Outcome:
        """Judge the end of the output (the bot stopped printing and exited cleanly)."""
        if self.outcome is not None:
            return self.outcome
        short = [(cell, value) for cell, value in sorted(self.board.nodes.items(), key=lambda item: _reading(item[0]))
                 if self.degree[cell] < value]
        cell, value = short[0]
        more = f" and {len(short) - 1} other node(s) are" if len(short) > 1 else " is"
        reason = (f"output ended after {self.turn} line(s) while node {_fmt(cell)} has "
                  f"{self.degree[cell]} of {value} links{more} short")
        self.outcome = Outcome(Verdict.INCOMPLETE, reason, self.turn + 1, None)
        return self.outcome

    @property
    def all_full(self) -> bool:
        return self._full == len(self.board.nodes)

    # -- checks ------------------------------------------------------------

    def _parse(self, line: str) -> Link:
        """Five integers, amount 1 or 2, both cells on the board (else malformed)."""
        tokens = _BLANKS.split(line.strip(" \t"))
        if len(tokens) != 5 or not all(_INTEGER.fullmatch(t) for t in tokens):
            raise LineError(Verdict.MALFORMED,
                            f"expected five integers 'x1 y1 x2 y2 n', got {_show(line)}")
        x1, y1, x2, y2, amount = map(int, tokens)
        if amount not in (1, 2):
            raise LineError(Verdict.MALFORMED, f"the amount must be 1 or 2, got {amount}")
        for cell in ((x1, y1), (x2, y2)):
            if not self.board.contains(cell):
                raise LineError(Verdict.MALFORMED, f"{_fmt(cell)} is off the "
                                f"{self.board.width}x{self.board.height} board")
        a, b = sorted([(x1, y1), (x2, y2)])
        return Link(a, b, amount)

    def _check_geometry(self, link: Link) -> None:
        """Endpoints are two distinct nodes in a line; the path is free."""
        for cell in (link.a, link.b):
            if cell not in self.board.nodes:
                raise LineError(Verdict.NOT_A_LINK, f"{_fmt(cell)} is not a node")
        if link.a == link.b:
            raise LineError(Verdict.NOT_A_LINK, f"both endpoints are the node {_fmt(link.a)}")
        if link.a[0] != link.b[0] and link.a[1] != link.b[1]:
            raise LineError(Verdict.NOT_A_LINK, f"{_fmt(link.a)} and {_fmt(link.b)} "
                            "are not in one row or column")
        for cell in link.inner_cells():
            if cell in self.board.nodes:
                raise LineError(Verdict.CROSSING, f"the link {_fmt_link(link)} passes over "
                                f"the node {_fmt(cell)}")
            other = self._occupied.get(cell)
            if other is not None and other != (link.a, link.b):
                raise LineError(Verdict.CROSSING, f"the link {_fmt_link(link)} crosses the "
                                f"link {_fmt(other[0])}-{_fmt(other[1])} at {_fmt(cell)}")

    def _check_counts(self, link: Link) -> None:
        """At most two links per pair; no node over its value."""
        have = self.links.get((link.a, link.b), 0)
        if have + link.amount > MAX_LINKS_PER_PAIR:
            raise LineError(Verdict.THIRD_LINK, f"{_fmt(link.a)} and {_fmt(link.b)} would "
                            f"hold {have + link.amount} links, at most {MAX_LINKS_PER_PAIR}")
        for cell in (link.a, link.b):
            value = self.board.nodes[cell]
            if self.degree[cell] + link.amount > value:
                raise LineError(Verdict.OVER_CAPACITY, f"node {_fmt(cell)} would hold "
                                f"{self.degree[cell] + link.amount} links, its value is {value}")

    # -- state -------------------------------------------------------------

    def _place(self, link: Link) -> None:
        pair = (link.a, link.b)
        self.links[pair] = self.links.get(pair, 0) + link.amount
        for cell in link.inner_cells():
            self._occupied[cell] = pair
        for cell in (link.a, link.b):
            self.degree[cell] += link.amount
            if self.degree[cell] == self.board.nodes[cell]:
                self._full += 1

    def _after_place(self, line: str) -> Outcome | None:
        if not self.all_full:
            return None
        groups = self.groups()
        if len(groups) == 1:
            return self._decide(Verdict.WIN, f"every node is full and all "
                                f"{len(self.board.nodes)} are connected", line)
        sizes = ", ".join(str(len(g)) for g in sorted(groups, key=len, reverse=True))
        return self._decide(Verdict.DISCONNECTED, f"every node is full but they form "
                            f"{len(groups)} separate groups (sizes {sizes})", line)

    def _decide(self, verdict: Verdict, reason: str, line: str) -> Outcome:
        self.outcome = Outcome(verdict, reason, self.turn, line)
        return self.outcome

    def groups(self) -> list[set[Cell]]:
        """The connected groups of nodes under the links placed so far, in reading order."""
        found = groups(sorted(self.board.nodes, key=_reading), self.links)
        return [set(group) for group in found]


def judge_lines(board: Board, lines: Iterable[str]) -> Outcome:
    """Judge a complete output given as lines, ended cleanly."""
    judge = Judge(board)
    for line in lines:
        if judge.feed(line) is not None:
            break
    return judge.finish()


def judge_text(board: Board, output_text: str) -> Outcome:
    """Judge a complete output text, ended cleanly (the bot exited with status 0)."""
    return judge_lines(board, output_lines(output_text))


def output_lines(output_text: str) -> list[str]:
    """Split output as the runner does: on '\n' only, a trailing '\r' dropped."""
    lines = output_text.split("\n")
    if lines[-1] == "":
        lines.pop()  # the newline that ends the last line
    return [line.removesuffix("\r") for line in lines]


def _reading(cell: Cell) -> tuple[int, int]:
    """Reading order: row, then column."""
    return cell[1], cell[0]


def _fmt(cell: Cell) -> str:
    return f"({cell[0]},{cell[1]})"


def _fmt_link(link: Link) -> str:
    return f"{_fmt(link.a)}-{_fmt(link.b)}"


def _show(line: str, limit: int = 60) -> str:
    """A line quoted for a reason, cut when long."""
    return repr(line if len(line) <= limit else line[:limit] + "...")
