"""What a player reads after a run: a table, latency percentiles, each loss explained.

Everything here is derived from MatchResult objects; nothing is measured here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Sequence

from referee.drawing import draw_result
from referee.result import MatchResult
from referee.terminal import quoted, safe

STDERR_LINES_SHOWN = 5
PERCENTILES = (50, 90, 99)


@dataclass(frozen=True)
class Column:
    title: str
    align: str                     # '<' or '>'
    cell: Callable[[MatchResult], str]


def _ms(seconds: float | None) -> str:
    return "-" if seconds is None else f"{seconds * 1000:.1f}"


def _mb(size: int | None) -> str:
    return "-" if size is None else f"{size / 2**20:.1f}"


COLUMNS = (
    Column("puzzle", "<", lambda r: safe(r.name)),
    Column("verdict", "<", lambda r: r.verdict.value),
    Column("turns", ">", lambda r: str(len(r.lines))),
    Column("first ms", ">", lambda r: _ms(r.first_line_s)),
    Column("slowest ms", ">", lambda r: _ms(r.slowest_turn_s)),
    Column("cpu ms", ">", lambda r: _ms(r.usage.cpu_s)),
    Column("peak MB", ">", lambda r: _mb(r.usage.peak_rss_bytes)),
)


def table(results: Sequence[MatchResult]) -> str:
    """One row per match under a header, columns as wide as their widest cell."""
    rows = [[c.title for c in COLUMNS]] + [[c.cell(r) for c in COLUMNS] for r in results]
    widths = [max(len(row[i]) for row in rows) for i in range(len(COLUMNS))]
    return "\n".join("  ".join(f"{cell:{c.align}{w}}" for cell, c, w in zip(row, COLUMNS, widths))
                     .rstrip() for row in rows)


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
            **{f"p{p}": round(percentile(values, p) * 1000, 3) for p in PERCENTILES},
            "max": round(worst[0] * 1000, 3), "slowest_puzzle": worst[1], "slowest_line": worst[2]}
    return stats


def latency_summary(results: Sequence[MatchResult]) -> str:
    """p50/p90/p99/max of first-line and per-turn latencies, with the slowest puzzle named."""
    head = ["latency ms", *(f"p{p}" for p in PERCENTILES), "max", "slowest"]
    rows = [head]
    for title, samples in latency_samples(results).items():
        if not samples:
            rows.append([title, *["-"] * (len(PERCENTILES) + 1), "-"])
            continue
        values = [s for s, _, _ in samples]
        worst, name, turn = max(samples)
        rows.append([title, *(_ms(percentile(values, p)) for p in PERCENTILES), _ms(worst),
                     safe(name) if turn == 1 else f"{safe(name)} (line {turn})"])
    widths = [max(len(row[i]) for row in rows) for i in range(len(head) - 1)]
    return "\n".join("  ".join([f"{row[0]:<{widths[0]}}"] +
                               [f"{cell:>{w}}" for cell, w in zip(row[1:-1], widths[1:])] +
                               [row[-1]]) for row in rows)


def loss_details(result: MatchResult, replay_command: str) -> str:
    """Why a match was lost, the offending line, the board so far, and how to replay it."""
    where = f"at line {result.turn}" if result.line is not None else f"awaiting line {result.turn}"
    parts = [f"LOST {safe(result.name)}: {result.verdict.value} {where}: {safe(result.reason)}"]
    if result.line is not None:
        parts.append(f"  line {result.turn}: {quoted(result.line)}")
    parts.append(_indent(draw_result(result)))
    tail = [safe(l) for l in result.usage.stderr_tail.split("\n") if l.strip()][-STDERR_LINES_SHOWN:]
    if tail:
        parts.append("  stderr ends:\n" + _indent("\n".join(tail), "    | "))
    parts.append(f"  replay: {safe(replay_command)}")
    return "\n".join(parts)


def summary_line(results: Sequence[MatchResult]) -> str:
    passed = sum(r.won for r in results)
    return f"{passed} passed, {len(results) - passed} failed"


def _indent(text: str, prefix: str = "    ") -> str:
    return "\n".join((prefix + line).rstrip() for line in text.splitlines())
