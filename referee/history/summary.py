"""A recorded run in a few figures: what `history` lists, prints as JSON and draws."""

from __future__ import annotations

import math

from referee.history.store import Run


def percentile(values: list[float], p: float) -> float | None:
    """Nearest-rank percentile; None for no values."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


def summary(run: Run) -> dict:
    """The run's figures in milliseconds (None where no match gave one)."""
    firsts = [m.latencies_ms[0] for m in run.matches if m.latencies_ms]
    later = [x for m in run.matches for x in m.latencies_ms[1:]]
    cpu = [m.cpu_ms for m in run.matches if m.cpu_ms is not None]
    return {"id": run.id, "bot": run.bot, "version": run.bot_hash, "label": run.label,
            "started": run.started, "finished": run.finished,
            "passed": run.passed, "failed": run.failed,
            "first_line_p50_ms": percentile(firsts, 50), "first_line_p99_ms": percentile(firsts, 99),
            "slowest_later_line_ms": max(later, default=None),
            "cpu_ms": round(math.fsum(cpu), 3) if cpu else None,
            "puzzles": len(run.matches), "referee": run.referee_version,
            "containment": run.containment, "box": run.box, "memory_mode": run.memory_mode,
            "limits_ms": {"first_line": run.first_line_limit_ms, "turn": run.turn_limit_ms},
            "load_start": run.load_start, "load_end": run.load_end}


def by_bot(runs: list[Run]) -> dict[str, dict[str, list[Run]]]:
    """{bot command: {version: its runs}}, in the order each was first seen."""
    groups: dict[str, dict[str, list[Run]]] = {}
    for run in runs:
        groups.setdefault(run.bot, {}).setdefault(run.bot_hash, []).append(run)
    return groups
