"""`history --html`: one self-contained page, a chart per bot (inline SVG, no script): the
first line's p50 and p99 of each run, in order, coloured by the bot's version."""

from __future__ import annotations

import html

from referee.history.summary import by_bot, summary

WIDTH, HEIGHT, PAD = 720, 240, 48
COLOURS = ("#2b6cb0", "#c05621", "#2f855a", "#6b46c1", "#b7791f", "#c53030")


def history_page(runs) -> str:
    charts = [bot_chart(bot, versions) for bot, versions in by_bot(runs).items()]
    body = "\n".join(charts) if charts else "<p>no run recorded yet</p>"
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<title>spoon2 history</title><style>body{font:14px sans-serif;margin:2em}"
            "svg{background:#fafafa;border:1px solid #ddd}text{font-size:11px}</style></head>"
            f"<body><h1>spoon2 history</h1><p>{len(runs)} run(s). Each point is a run: the "
            "first line's p50 (dot) and p99 (ring) over its puzzles, in ms; a colour per "
            f"version of the bot.</p>\n{body}\n</body></html>\n")


def bot_chart(bot: str, versions: dict) -> str:
    """The bot's runs in order of id, one colour per version, with a legend."""
    points = sorted(((run.id, version, summary(run)) for version, runs in versions.items()
                     for run in runs), key=lambda p: p[0])
    values = [v for _, _, s in points for v in (s["first_line_p50_ms"], s["first_line_p99_ms"])
              if v is not None]
    top = max(values, default=1.0) * 1.1 or 1.0
    colour = {version: COLOURS[k % len(COLOURS)] for k, version in enumerate(versions)}
    step = (WIDTH - 2 * PAD) / max(len(points) - 1, 1)

    def y(value: float) -> float:
        return HEIGHT - PAD - value / top * (HEIGHT - 2 * PAD)

    marks = [f'<line x1="{PAD}" y1="{HEIGHT - PAD}" x2="{WIDTH - PAD}" y2="{HEIGHT - PAD}" stroke="#888"/>',
             f'<line x1="{PAD}" y1="{PAD}" x2="{PAD}" y2="{HEIGHT - PAD}" stroke="#888"/>',
             f'<text x="4" y="{PAD}">{top:.0f} ms</text>',
             f'<text x="4" y="{HEIGHT - PAD}">0</text>']
    for k, (run_id, version, figures) in enumerate(points):
        x = PAD + k * step
        said = html.escape(f"run {run_id}, version {version}, {figures['started']}: "
                           f"{figures['passed']} passed, {figures['failed']} failed, first line "
                           f"p50 {figures['first_line_p50_ms']} ms, p99 {figures['first_line_p99_ms']} ms")
        marks.append(f'<text x="{x:.1f}" y="{HEIGHT - PAD + 14}" text-anchor="middle">{run_id}</text>')
        for key, fill in (("first_line_p50_ms", colour[version]), ("first_line_p99_ms", "none")):
            if figures[key] is not None:
                marks.append(f'<circle cx="{x:.1f}" cy="{y(figures[key]):.1f}" r="4" '
                             f'fill="{fill}" stroke="{colour[version]}"><title>{said}</title></circle>')
    legend = " ".join(f'<span style="color:{colour[v]}">&#9679; version {html.escape(v)} '
                      f'({len(runs)} run(s))</span>' for v, runs in versions.items())
    return (f"<h2>{html.escape(bot)}</h2><p>{legend}</p>"
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
            f'role="img" aria-label="first line by run">{"".join(marks)}</svg>')
