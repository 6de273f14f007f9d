"""The player: one self-contained HTML page to solve puzzles in a browser.

`build_page(puzzles)` fills the template (play.html, play.css, play.js beside this module)
with the puzzles as one JSON blob: no network request, no external asset. A puzzle is a
dict from `puzzle_entry`: its board, and optionally what the solver worked out when the
page was built (its solution, whether it is unique, and the sure links in the order the
explainer proved them, each with its rule and sentence), which the page's hint, check and
solve buttons read. The page checks moves with its own rules in JavaScript.

This module never imports `bot`: `run --html` uses it for a page of lost matches, with the
solver's data where the lab works it out (`referee.lab.play.command.position_entry`); `referee
play` (lab tooling) adds the solver's data to every puzzle.
"""

from __future__ import annotations

import html
import json
import re
from importlib import resources

from referee.judge.board import Board

_SLOT = re.compile(r"\{\{(\w+)\}\}")


def puzzle_entry(name: str, board: Board, difficulty: str | None = None,
                 solution: list | None = None, unique: bool | None = None,
                 hints: list | None = None) -> dict:
    """One puzzle as the page reads it.

    `solution`: links (x1, y1, x2, y2, n); `hints`: (x1, y1, x2, y2, links, rule, sentence)
    in the order the explainer proved them.
    """
    return {"name": name, "w": board.width, "h": board.height, "rows": board.rows(),
            "difficulty": difficulty, "unique": unique,
            "solution": None if solution is None else [list(link) for link in solution],
            "hints": None if hints is None else [list(h) for h in hints]}


def build_page(puzzles: list[dict], title: str = "Hashi player") -> str:
    """The whole page: template, CSS and script inlined, the puzzles as one JSON blob."""
    blob = json.dumps({"puzzles": puzzles}, separators=(",", ":"))
    # Inside <script>, "</script" or "<!--" would end or confuse the element: escape every '<'.
    blob = blob.replace("<", "\\u003c")
    slots = {"title": html.escape(title), "css": _asset("play.css"), "js": _asset("play.js"),
             "data": blob}
    return _SLOT.sub(lambda m: slots[m.group(1)], _asset("play.html"))


def _asset(name: str) -> str:
    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")
