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

from referee.judge.board import Board
from referee.report.pages import asset, fill, script_json



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
    slots = {"title": html.escape(title), "css": asset(__package__, "play.css"),
             "js": asset(__package__, "play.js"), "data": script_json({"puzzles": puzzles})}
    return fill(__package__, "play.html", slots)
