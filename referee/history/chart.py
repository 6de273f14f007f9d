"""`history --html`: one self-contained page (no script, no external asset). Per bot, a
chart of its runs in order (the first line's p50 and p99, coloured by version, and under
each run a bar of its matches passed and failed) and a table of its runs; then, per set
of puzzles, its versions ranked. The page fits a phone's width: the charts scale, and a
table wider than the screen scrolls in its own box."""

from __future__ import annotations

import html

from referee.history.standings import Table, tables
from referee.history.store import Run
from referee.history.summary import by_bot, mode_text, played, summary, version_name

WIDTH, HEIGHT, PAD, BAR = 640, 260, 44, 14   # the chart's units (it scales to its box)
MAX_RUN_IDS = 16                              # run ids written under the axis, at most
COLOURS = ("#2b6cb0", "#c05621", "#2f855a", "#6b46c1", "#b7791f", "#c53030")
PASSED, FAILED = "#38a169", "#e53e3e"
STYLE = """
body{font:14px/1.4 sans-serif;margin:0 auto;max-width:1200px;padding:0 12px}
h1{font-size:1.4em}h2{font-size:1.1em}h2,p,.text{overflow-wrap:anywhere}
svg{display:block;width:100%;max-width:960px;height:auto;background:#fafafa;border:1px solid #ddd}
svg text{font-size:11px}
.scroll{overflow-x:auto;max-width:100%;margin:.5em 0 1.5em}
table{border-collapse:collapse;font-variant-numeric:tabular-nums}
th,td{padding:2px 6px;text-align:right;border-bottom:1px solid #eee}
td{white-space:nowrap}th{background:#f4f4f4;vertical-align:bottom}
.text{text-align:left;white-space:normal;min-width:6em}.left{text-align:left}
.failed{color:#c53030;font-weight:bold}.legend span{margin-right:1em}.hash{white-space:nowrap}
"""


def history_page(runs: list[Run]) -> str:
    charts = [bot_section(bot, versions) for bot, versions in by_bot(runs).items()]
    body = "\n".join(charts) if charts else "<p>no run recorded yet</p>"
    ranked = "\n".join(ranking_section(table) for table in tables(runs))
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>spoon2 history</title><style>{STYLE}</style></head>"
            f"<body><h1>spoon2 history</h1><p>{len(runs)} run(s). In each chart a run is a "
            "column: the first line's p50 (dot) and p99 (ring) over its puzzles, in ms, a "
            "colour per version of the bot; below, its matches passed (green) and failed "
            f"(red), a dashed frame when it was stopped early.</p>\n{body}\n"
            + (f"<h2>Versions on the same puzzles</h2><p>Ranked by the share of matches won, "
               f"then by the first line's p99.</p>\n{ranked}\n" if ranked else "")
            + "</body></html>\n")


def bot_section(bot: str, versions: dict[str, list[Run]]) -> str:
    """The bot's heading, its versions' legend, its chart and its table of runs."""
    colour = {version: COLOURS[k % len(COLOURS)] for k, version in enumerate(versions)}
    legend = " ".join(
        f'<span style="color:{colour[v]}">&#9679; version {html.escape(v)}'
        f'{html.escape(_named(version_name(mine)))} ({len(mine)} run(s))</span>'
        for v, mine in versions.items())
    runs = sorted((run for mine in versions.values() for run in mine), key=lambda r: r.id)
    return (f"<h2>{html.escape(bot)}</h2><p class=\"legend\">{legend}</p>"
            f"{bot_chart(runs, colour)}{runs_table(runs)}")


def bot_chart(runs: list[Run], colour: dict[str, str]) -> str:
    """A column per run, in order of id: p50 and p99 of the first line, then its bar."""
    figures = [summary(run) for run in runs]
    values = [f[key] for f in figures for key in ("first_line_p50_ms", "first_line_p99_ms")
              if f[key] is not None]
    top = max(values, default=1.0) * 1.1 or 1.0
    axis = HEIGHT - PAD - BAR - 8
    step = (WIDTH - 2 * PAD) / max(len(runs), 1)
    every = -(-len(runs) // MAX_RUN_IDS)

    def y(value: float) -> float:
        return axis - value / top * (axis - PAD / 2)

    marks = [f'<line x1="{PAD}" y1="{axis}" x2="{WIDTH - PAD}" y2="{axis}" stroke="#888"/>',
             f'<line x1="{PAD}" y1="{PAD / 2}" x2="{PAD}" y2="{axis}" stroke="#888"/>',
             f'<text x="4" y="{PAD / 2 + 4}">{top:.0f} ms</text>',
             f'<text x="4" y="{axis}">0</text>']
    for k, (run, f) in enumerate(zip(runs, figures)):
        x = PAD + (k + 0.5) * step
        said = html.escape(_said(run, f))
        tint = colour[run.bot_hash]
        for key, fill in (("first_line_p50_ms", tint), ("first_line_p99_ms", "none")):
            if f[key] is not None:
                marks.append(f'<circle cx="{x:.1f}" cy="{y(f[key]):.1f}" r="4" fill="{fill}" '
                             f'stroke="{tint}"><title>{said}</title></circle>')
        marks.append(_bar(run, x, axis + 6, min(step * 0.7, 18), said))
        if k % every == 0:
            marks.append(f'<text x="{x:.1f}" y="{HEIGHT - PAD + 22}" '
                         f'text-anchor="middle">{run.id}</text>')
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
            f'role="img" aria-label="first line and matches passed by run">{"".join(marks)}</svg>')


def _bar(run: Run, x: float, top: float, width: float, said: str) -> str:
    """The run's matches: passed in green over failed in red, BAR units high."""
    played_ = run.passed + run.failed
    green = BAR * run.passed / played_ if played_ else 0.0
    left = x - width / 2
    frame = ' stroke="#333" stroke-dasharray="2 2"' if run.stopped else ' stroke="none"'
    return (f'<g><title>{said}</title>'
            f'<rect x="{left:.1f}" y="{top:.1f}" width="{width:.1f}" height="{BAR}" '
            f'fill="{FAILED if played_ else "#ddd"}"{frame}/>'
            f'<rect x="{left:.1f}" y="{top + BAR - green:.1f}" width="{width:.1f}" '
            f'height="{green:.1f}" fill="{PASSED}"/></g>')


def runs_table(runs: list[Run]) -> str:
    head = ("run", "version", "started", "passed", "failed", "first p50", "first p99",
            "slowest later", "cpu ms", "mode", "")
    rows = []
    for run in runs:
        f = summary(run)
        cells = [(str(run.id) + (f" {run.side}" if run.side else ""), "left"),
                 (_version(run.bot_hash, run.label or ""), "text"),
                 (run.started.replace("T", " ")[:19], "left"), (str(run.passed), ""),
                 (str(run.failed), "failed" if run.failed else ""),
                 (_ms(f["first_line_p50_ms"]), ""), (_ms(f["first_line_p99_ms"]), ""),
                 (_ms(f["slowest_later_line_ms"]), ""), (_ms(f["cpu_ms"]), ""),
                 (mode_text(run.setup), "left"), (played(run), "text")]
        rows.append(cells)
    return _table(head, rows, {0, 1, 2, 9, 10})


def ranking_section(table: Table) -> str:
    names = ", ".join(table.puzzles)
    head = ("rank", "version", "runs", "won", "lost", "first p50", "first p99", "turn p50",
            "turn p99", "last run")
    rows = [[(str(s.rank), ""), (_version(s.version, s.label), "text"), (str(s.runs), ""),
             (str(s.won), ""), (str(s.lost), "failed" if s.lost else ""),
             (_ms(s.first_line_p50_ms), ""), (_ms(s.first_line_p99_ms), ""),
             (_ms(s.turn_p50_ms), ""), (_ms(s.turn_p99_ms), ""),
             (f"{s.last_run} ({s.last_started.replace('T', ' ')[:16]})", "left")]
            for s in table.standings]
    more = table.size - len(table.puzzles)
    names += f" and {more} more" if more > 0 else ""
    return (f"<p>{table.size} puzzle(s): {html.escape(names)}</p>"
            + _table(head, rows, {1, 9}))


def _table(head: tuple[str, ...], rows: list[list[tuple[str, str]]], left: set[int]) -> str:
    """A table in a box of its own that scrolls sideways when the page is narrower; the
    headings of the columns `left` to the left. A cell's kind is its class: `text` wraps."""
    heading = "".join(f'<th class="left">{h}</th>' if k in left else f"<th>{h}</th>"
                      for k, h in enumerate(head))
    body = "".join("<tr>" + "".join(f'<td class="{kind}">{_html(value)}</td>' if kind
                                    else f"<td>{_html(value)}</td>"
                                    for value, kind in cells) + "</tr>" for cells in rows)
    return f'<div class="scroll"><table><tr>{heading}</tr>{body}</table></div>'


class Markup(str):
    """A cell's text that is HTML already."""


def _html(value: str) -> str:
    return value if isinstance(value, Markup) else html.escape(value)


def _version(digest: str, name: str) -> Markup:
    """The hash kept on one line, the name free to wrap."""
    return Markup(f'<span class="hash">{html.escape(digest)}</span>{html.escape(_named(name))}')


def _said(run: Run, f: dict) -> str:
    stopped = f", {played(run)}" if run.stopped else ""
    return (f"run {run.id}, version {run.bot_hash}{_named(run.label or '')}, {run.started}: "
            f"{run.passed} passed, {run.failed} failed{stopped}, first line "
            f"p50 {_ms(f['first_line_p50_ms'])} ms, p99 {_ms(f['first_line_p99_ms'])} ms")


def _named(name: str) -> str:
    return f" {name}" if name else ""


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"
