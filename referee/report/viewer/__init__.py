"""A run as one self-contained HTML file: every match replayable in a browser.

The file holds the summary table (the columns of referee.report.tables, with its marks for
figures over half their limit), and one JSON blob
with every match: the board, the links the rules accepted in order (judged here by
referee.judge.rules, so the page has no rules of its own), the losing line and link, the
verdict and reason, and each line's latency. When two bots played, each match names its
bot and the other bot's match on the same puzzle, a click away. The page's script (viewer.js) draws a
match as SVG only when it is opened, so a run of 500 matches on 30x30 boards opens
as fast as one. No network request, no external asset: CSS and script are inlined.

The template is three package files beside this module: report.html (which opens with the
head every page shares, referee/report/head.html), viewer.css and viewer.js.
"""

from __future__ import annotations

import html
from typing import Sequence

from referee.judge.limits import Limits
from referee.report.pages import asset, fill, script_json
from referee.report.tables import MARK_HALF, VERDICT, columns_for, latency_summary, summary_line
from referee.judge.result import MatchResult
from referee.judge.rules import Judge, Verdict
from referee.units import ms_number

STDERR_LINES_KEPT = 20
# The deciding line went through the rules (a timeout's late line did not).
_JUDGED = {Verdict.WIN, Verdict.DISCONNECTED, Verdict.MALFORMED, Verdict.NOT_A_LINK,
           Verdict.CROSSING, Verdict.THIRD_LINK, Verdict.OVER_CAPACITY}
_PLACED = {Verdict.WIN, Verdict.DISCONNECTED}   # ... and its link was placed


def match_data(result: MatchResult, replay: str = "") -> dict:
    """One match as the page reads it; `steps` is x1,y1,x2,y2,n per accepted line, flat."""
    judge = Judge(result.board)
    steps: list[int] = []
    for line in result.lines[:result.turn - 1]:   # every line before the deciding one
        judge.feed(line)
        steps.extend(_link(line))
    bad = None
    if result.line is not None and result.verdict in _JUDGED:
        judge.feed(result.line)
        if result.verdict in _PLACED:
            steps.extend(_link(result.line))
        elif judge.offending is not None:
            a, b = judge.offending.a, judge.offending.b
            bad = [a[0], a[1], b[0], b[1], judge.offending.amount]
    placed = len(steps) // 5
    shown = result.line is not None and result.verdict not in _PLACED
    tail = [l for l in result.usage.stderr_tail.splitlines() if l.strip()]
    return {
        "name": result.name, "path": result.path, "bot": result.bot,
        "validator": result.validator,
        "w": result.board.width, "h": result.board.height, "rows": result.board.rows(),
        "verdict": result.verdict.value, "won": result.won, "reason": result.reason,
        "turn": result.turn, "line": result.line, "lines": len(result.lines),
        "steps": steps, "bad": bad, "frames": placed + (1 if shown else 0),
        "lat": [ms_number(s) for s in result.latencies_s],
        "stderr": "\n".join(tail[-STDERR_LINES_KEPT:]), "replay": replay,
    }


def _link(line: str) -> list[int]:
    """An accepted line as x1,y1,x2,y2,n with the endpoints in order (the rules parsed it)."""
    x1, y1, x2, y2, amount = map(int, line.split())
    (ax, ay), (bx, by) = sorted([(x1, y1), (x2, y2)])
    return [ax, ay, bx, by, amount]


def summary_table(results: Sequence[MatchResult], limits: Limits = Limits()) -> str:
    """The run's table as HTML rows, one per match, with report.columns_for's columns;
    a figure over half its limit has class `half` (over the limit: `over`) and its mark."""
    columns = columns_for(results)
    head = "".join(f'<th class="{_align(c.align)}">{html.escape(c.title)}</th>' for c in columns)
    rows = []
    for i, r in enumerate(results):
        cells = []
        for c in columns:
            mark = c.mark(r, limits)
            classes = [_align(c.align)] + (["verdict"] if c is VERDICT else []) + \
                ([("half" if mark == MARK_HALF else "over")] if mark else [])
            cells.append(f'<td class="{" ".join(classes)}">{html.escape(c.cell(r) + mark)}</td>')
        rows.append(f'<tr data-i="{i}" class="{"won" if r.won else "lost"}">' + "".join(cells)
                    + "</tr>")
    return f"<thead><tr>{head}</tr></thead><tbody>\n" + "\n".join(rows) + "\n</tbody>"


def _align(align: str) -> str:
    return "r" if align == ">" else "l"


def build_html(results: Sequence[MatchResult], replays: Sequence[str] | None = None,
               limits: Limits = Limits(), bot: str = "", title: str = "referee run",
               bots: Sequence[tuple[str, str]] | None = None, versus: str = "") -> str:
    """The whole page: template, CSS and script inlined, the run as one JSON blob.

    `bots` is [(label, command)] when several bots played; each result's `bot` is a label,
    and `versus` the text that compares them (report.versus_summary).
    """
    replays = list(replays) if replays is not None else [""] * len(results)
    matches = [match_data(r, c) for r, c in zip(results, replays)]
    if bots:
        by_puzzle: dict[tuple[str, str], list[int]] = {}
        for i, r in enumerate(results):
            by_puzzle.setdefault((r.name, r.path), []).append(i)
        for i, r in enumerate(results):
            matches[i]["others"] = [j for j in by_puzzle[(r.name, r.path)] if j != i]
        bot = "; ".join(f"{label}: {command}" for label, command in bots)
        groups = [(label, [r for r in results if r.bot == label]) for label, _ in bots]
        latency = latency_summary(groups[0][1], groups[0][0], more=groups[1:])
    else:
        latency = latency_summary(results)
    data = {
        "bot": bot,
        "bots": [{"label": label, "command": command} for label, command in bots or []],
        "limits": {"first_line_ms": limits.first_line_s * 1000, "turn_ms": limits.turn_s * 1000},
        "matches": matches,
    }
    slots = {
        "title": html.escape(title),
        "bot": html.escape(bot),
        "summary": html.escape(summary_line(results)),
        "latency": html.escape(latency),
        "table": summary_table(results, limits),
        "versus": f'<pre class="latency" id="versus">{html.escape(versus)}</pre>' if versus else "",
        "css": asset(__package__, "viewer.css"),
        "js": asset(__package__, "viewer.js"),
        "data": script_json(data),
    }
    return fill(__package__, "report.html", slots)
