"""What a player reads after a run: a table, latency percentiles, each loss explained.

Everything here is derived from MatchResult objects; nothing is measured here. A timed
figure over half its limit is marked `!`, over the limit `!!` (a legend line says so),
in colour only when the caller says the output is a terminal. Two bots on the same
puzzles get one table side by side and a summary of who won where and who is faster.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Sequence

from referee.report.drawing import draw_result
from referee.judge.limits import Limits
from referee.judge.result import MatchResult
from referee.judge.rules import Verdict
from referee.terminal import quoted, safe
from referee.units import ms, ms_number

STDERR_LINES_SHOWN = 5
PERCENTILES = (50, 90, 99)
HALF_LIMIT = 0.5                 # a figure over this share of its limit is marked
MARK_HALF, MARK_OVER = "!", "!!"
_ANSI = {MARK_HALF: "\033[33m", MARK_OVER: "\033[1;31m"}   # yellow, bold red
_RESET = "\033[0m"


def limit_mark(seconds: float | None, limit_s: float) -> str:
    """'' within half the limit, MARK_HALF over half of it, MARK_OVER over it."""
    if seconds is None:
        return ""
    if seconds > limit_s:
        return MARK_OVER
    return MARK_HALF if seconds > limit_s * HALF_LIMIT else ""


@dataclass(frozen=True)
class Column:
    title: str
    align: str                     # '<' or '>'
    cell: Callable[[MatchResult], str]
    figure: Callable[[MatchResult], float | None] | None = None   # a timed figure (s) ...
    limit: Callable[[Limits], float] | None = None                # ... and its limit (s)

    def mark(self, result: MatchResult, limits: Limits) -> str:
        """How close the cell's figure is to its limit (limit_mark); '' for untimed cells."""
        if self.figure is None or self.limit is None:
            return ""
        return limit_mark(self.figure(result), self.limit(limits))


def _mb(size: int | None) -> str:
    return "-" if size is None else f"{size / 2**20:.1f}"


def _validator(result: MatchResult) -> str:
    return "-" if result.validator is None else "yes" if result.validator else "no"


PUZZLE = Column("puzzle", "<", lambda r: safe(r.name))
BOT = Column("bot", "<", lambda r: r.bot)
VALIDATOR = Column("validator", "<", _validator)
VERDICT = Column("verdict", "<", lambda r: r.verdict.value + (" (busy)" if r.busy else ""))
TURNS = Column("turns", ">", lambda r: str(len(r.lines)))
FIRST = Column("first ms", ">", lambda r: ms(r.first_line_s),
               lambda r: r.first_line_s, lambda limits: limits.first_line_s)
SLOWEST = Column("slowest ms", ">", lambda r: ms(r.slowest_turn_s),
                 lambda r: r.slowest_turn_s, lambda limits: limits.turn_s)
CPU = Column("cpu ms", ">", lambda r: ms(r.usage.cpu_s))
PEAK = Column("peak MB", ">", lambda r: _mb(r.usage.peak_rss_bytes))
COLUMNS = (PUZZLE, VERDICT, TURNS, FIRST, SLOWEST, CPU, PEAK)
PER_BOT = (VERDICT, FIRST, SLOWEST, CPU, PEAK)      # each bot's columns, side by side


def columns_for(results: Sequence[MatchResult]) -> tuple[Column, ...]:
    """COLUMNS, with a bot column when several bots played and a validator column when
    an SDK test file said whether it is one."""
    extra = [c for c, shown in ((BOT, any(r.bot for r in results)),
                                (VALIDATOR, any(r.validator is not None for r in results)))
             if shown]
    return (PUZZLE, *extra, *COLUMNS[1:])


def legend(limits: Limits) -> str:
    """The line under a table with marks: what `!` and `!!` mean, with the limits."""
    return (f"{MARK_HALF} over half its limit (first line {ms(limits.first_line_s, 'g')} ms, "
            f"each later line {ms(limits.turn_s, 'g')} ms), {MARK_OVER} over the limit")


def _grid(heads: list[list[str]], rows: list[list[tuple[str, str]]],
          columns: Sequence[Column], colour: bool) -> str:
    """Header rows and rows of (text, mark) cells, columns as wide as their widest cell.

    A column's marks get their own width after the figure, so the digits stay aligned.
    """
    marks = [max((len(row[i][1]) for row in rows), default=0) for i in range(len(columns))]
    widths = [max([len(h[i]) for h in heads] + [len(row[i][0]) + marks[i] for row in rows])
              for i in range(len(columns))]
    out = ["  ".join(f"{cell:{c.align}{w}}" for cell, c, w in zip(h, columns, widths)).rstrip()
           for h in heads]
    for row in rows:
        cells = []
        for (text, mark), c, w, m in zip(row, columns, widths, marks):
            cell = f"{text + mark:{c.align}{w - m + len(mark)}}" + " " * (m - len(mark))
            if colour and mark:
                body = cell.strip()
                cell = cell.replace(body, _ANSI[mark] + body + _RESET, 1)
            cells.append(cell)
        out.append("  ".join(cells).rstrip())
    return "\n".join(out)


def _row(columns: Sequence[Column], result: MatchResult, limits: Limits) -> list[tuple[str, str]]:
    return [(c.cell(result), c.mark(result, limits)) for c in columns]


def _with_legend(text: str, results: Sequence[MatchResult], columns: Sequence[Column],
                 limits: Limits) -> str:
    marked = any(c.mark(r, limits) for r in results for c in columns)
    return text + "\n" + legend(limits) if marked else text


def table(results: Sequence[MatchResult], limits: Limits = Limits(), colour: bool = False) -> str:
    """One row per match under a header; a legend line when a figure is marked."""
    columns = columns_for(results)
    text = _grid([[c.title for c in columns]], [_row(columns, r, limits) for r in results],
                 columns, colour)
    return _with_legend(text, results, columns, limits)


def versus_table(pairs: Sequence[Sequence[MatchResult]], labels: Sequence[str],
                 limits: Limits = Limits(), colour: bool = False) -> str:
    """One row per puzzle, each bot's PER_BOT columns side by side under its label."""
    flat = [r for pair in pairs for r in pair]
    lead = [c for c in columns_for(flat) if c in (PUZZLE, VALIDATOR)]
    columns = lead + [c for _ in labels for c in PER_BOT]
    groups = [""] * len(lead) + [cell for label in labels
                                 for cell in [label] + [""] * (len(PER_BOT) - 1)]
    rows = [_row(lead, pair[0], limits) + [cell for r in pair for cell in _row(PER_BOT, r, limits)]
            for pair in pairs]
    text = _grid([groups, [c.title for c in columns]], rows, columns, colour)
    return _with_legend(text, flat, PER_BOT, limits)


def percentile(values: Sequence[float], p: float) -> float:
    """Nearest-rank percentile of a non-empty sequence."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


def latency_samples(results: Sequence[MatchResult]) -> dict[str, list[tuple[float, str, int]]]:
    """(seconds, puzzle, line) of every first line and of every later line."""
    return {
        "first line": [(r.first_line_s, r.name, 1) for r in results if r.first_line_s is not None],
        "per turn": [(s, r.name, i + 2) for r in results for i, s in enumerate(r.turn_latencies_s)],
    }


def latency_stats(results: Sequence[MatchResult]) -> dict[str, dict | None]:
    """The percentiles, max and slowest puzzle as JSON-ready data (ms)."""
    stats: dict[str, dict | None] = {}
    for title, samples in latency_samples(results).items():
        values = [s for s, _, _ in samples]
        worst = max(samples, default=None)
        stats[title.replace(" ", "_")] = None if worst is None else {
            **{f"p{p}": ms_number(percentile(values, p)) for p in PERCENTILES},
            "max": ms_number(worst[0]), "slowest_puzzle": worst[1], "slowest_line": worst[2]}
    return stats


def latency_summary(results: Sequence[MatchResult], label: str = "",
                    more: Sequence[tuple[str, Sequence[MatchResult]]] = ()) -> str:
    """p50/p90/p99/max of first-line and per-turn latencies, with the slowest puzzle named.

    With `more` (label, results) groups, each group's rows follow, titled by its label.
    """
    head = ["latency ms", *(f"p{p}" for p in PERCENTILES), "max", "slowest"]
    rows = [head]
    for prefix, group in [(label, results), *more]:
        for title, samples in latency_samples(group).items():
            title = f"{prefix} {title}" if prefix else title
            if not samples:
                rows.append([title, *["-"] * (len(PERCENTILES) + 1), "-"])
                continue
            values = [s for s, _, _ in samples]
            worst, name, turn = max(samples)
            rows.append([title, *(ms(percentile(values, p)) for p in PERCENTILES), ms(worst),
                         safe(name) if turn == 1 else f"{safe(name)} (line {turn})"])
    widths = [max(len(row[i]) for row in rows) for i in range(len(head) - 1)]
    return "\n".join("  ".join([f"{row[0]:<{widths[0]}}"] +
                               [f"{cell:>{w}}" for cell, w in zip(row[1:-1], widths[1:])] +
                               [row[-1]]) for row in rows)


# Figures two bots are compared on, (name, seconds of a result): lower is faster.
VERSUS_FIGURES = (("first line", lambda r: r.first_line_s), ("cpu", lambda r: r.usage.cpu_s))


def versus_stats(pairs: Sequence[Sequence[MatchResult]], labels: Sequence[str]) -> dict:
    """Who won where, and second/first ratios of each VERSUS_FIGURES figure on the puzzles
    both won: median, min and max with the puzzle, and on how many the first bot is faster."""
    a, b = labels
    stats: dict = {
        "won": {a: sum(p[0].won for p in pairs), b: sum(p[1].won for p in pairs)},
        "puzzles": len(pairs),
        "only_won": {a: [p[0].name for p in pairs if p[0].won and not p[1].won],
                     b: [p[1].name for p in pairs if p[1].won and not p[0].won]},
        "ratios": {},
    }
    both = [p for p in pairs if p[0].won and p[1].won]
    import statistics   # here: with its fractions and decimals, 7 ms of every run's start
    for title, figure in VERSUS_FIGURES:
        ratios = sorted((figure(y) / figure(x), x.name) for x, y in both
                        if figure(x) and figure(y) is not None)
        stats["ratios"][title] = None if not ratios else {
            "median": round(statistics.median(r for r, _ in ratios), 4),
            "min": round(ratios[0][0], 4), "min_puzzle": ratios[0][1],
            "max": round(ratios[-1][0], 4), "max_puzzle": ratios[-1][1],
            "first_faster": sum(r > 1 for r, _ in ratios), "count": len(ratios)}
    return stats


def versus_summary(stats: dict, labels: Sequence[str]) -> str:
    """versus_stats as lines: wins, where only one bot won, and who is faster by how much
    (puzzle names escaped: they come from files)."""
    a, b = labels
    n = stats["puzzles"]
    lines = [f"{a} won {stats['won'][a]}/{n}, {b} won {stats['won'][b]}/{n}"]
    for label in labels:
        only = stats["only_won"][label]
        lines.append(f"only {label} won: {', '.join(map(safe, only)) if only else 'none'}")
    width = max(len(title) for title, _ in VERSUS_FIGURES)
    for title, _ in VERSUS_FIGURES:
        r = stats["ratios"][title]
        if r is None:
            lines.append(f"{title:<{width}}  no puzzle both won with this figure")
            continue
        median = r["median"]
        who = (f"{a} {median:.2f}x faster" if median > 1 else
               f"{b} {1 / median:.2f}x faster" if median < 1 else "even")
        lines.append(f"{title:<{width}}  {b}/{a} median {median:.2f}  min {r['min']:.2f} "
                     f"({safe(r['min_puzzle'])})  max {r['max']:.2f} ({safe(r['max_puzzle'])})  "
                     f"{a} faster on {r['first_faster']} of {r['count']}: {who} at the median")
    return "\n".join(lines)


def loss_line(result: MatchResult) -> str:
    """The loss in one line: puzzle (and bot), verdict, the line at stake, the reason."""
    where = f"at line {result.turn}" if result.line is not None else f"awaiting line {result.turn}"
    if result.verdict is Verdict.ERROR:
        where = "(no verdict of the rules)"
    who = f" ({result.bot})" if result.bot else ""
    return f"LOST {safe(result.name)}{who}: {result.verdict.value} {where}: {safe(result.reason)}"


def loss_details(result: MatchResult, replay_command: str) -> str:
    """Why a match was lost, the offending line, the board so far, and how to replay it."""
    parts = [loss_line(result)]
    if result.line is not None:
        parts.append(f"  line {result.turn}: {quoted(result.line)}")
    if result.replayed:
        parts.append(f"  played {result.replayed + 1} times: the machine was busy on the "
                     "earlier tries")
    if result.busy:
        parts.append("  the machine was busy: the bot waited most of the time for a CPU "
                     "others held (run --replay-busy N replays it)")
    parts.append(_indent(draw_result(result)))
    tail = [safe(l) for l in result.usage.stderr_tail.split("\n") if l.strip()][-STDERR_LINES_SHOWN:]
    if tail:
        parts.append("  stderr ends:\n" + _indent("\n".join(tail), "    | "))
    parts.append(f"  replay: {safe(replay_command)}")
    return "\n".join(parts)


def cleanup_notes(results: Sequence[MatchResult]) -> str:
    """One line per match whose TMPDIR could not be wholly removed, and why."""
    return "\n".join(f"TMPDIR {safe(r.name)}{f' ({r.bot})' if r.bot else ''}: {safe(r.cleanup)}"
                     for r in results if r.cleanup)


def summary_line(results: Sequence[MatchResult]) -> str:
    """`N passed, N failed`; per bot, `A: N passed, N failed; B: ...`, when several played."""
    labels = list(dict.fromkeys(r.bot for r in results))
    if labels in ([], [""]):
        return _passed(results)
    return "; ".join(f"{label}: {_passed([r for r in results if r.bot == label])}"
                     for label in labels)


def _passed(results: Sequence[MatchResult]) -> str:
    passed = sum(r.won for r in results)
    return f"{passed} passed, {len(results) - passed} failed"


def _indent(text: str, prefix: str = "    ") -> str:
    return "\n".join((prefix + line).rstrip() for line in text.splitlines())
