"""A recorded run in a few figures: what `history` lists, prints as JSON and draws."""

from __future__ import annotations

import math

from referee.history.store import Run, Setup


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
            "side": run.side, "started": run.started, "finished": run.finished,
            "passed": run.passed, "failed": run.failed, "stopped": run.stopped,
            "planned": run.planned,
            "first_line_p50_ms": percentile(firsts, 50), "first_line_p99_ms": percentile(firsts, 99),
            "turn_p50_ms": percentile(later, 50), "turn_p99_ms": percentile(later, 99),
            "slowest_later_line_ms": max(later, default=None),
            "cpu_ms": round(math.fsum(cpu), 3) if cpu else None,
            "puzzles": len(run.matches), "puzzle_set": run.puzzle_set,
            "referee": run.referee_version, "mode": run.setup.mode(),
            "limits_ms": {"first_line": run.setup.first_line_limit_ms,
                          "turn": run.setup.turn_limit_ms},
            "version_scope": run.version_scope,
            "load_start": run.load_start, "load_end": run.load_end}


def mode_text(setup: Setup) -> str:
    """'bwrap v2 768MB': the kind of box, how memory was counted, the caps."""
    parts = [setup.containment, setup.memory_mode or "?"]
    if setup.memory_cap_mb is not None:
        parts.append(f"{setup.memory_cap_mb:g}MB")
    if setup.cpu_cap is not None:
        parts.append(f"cpu {setup.cpu_cap}")
    return " ".join(parts)


def version_name(runs: list[Run]) -> str:
    """The names `run --label` gave these runs of one version, each once, in order."""
    return ", ".join(dict.fromkeys(run.label for run in runs if run.label))


def played(run: Run) -> str:
    """'stopped after 4 of 13' for a stopped run, else ''."""
    if not run.stopped:
        return ""
    return f"stopped after {len(run.matches)} of {run.planned if run.planned else '?'}"


def by_bot(runs: list[Run]) -> dict[str, dict[str, list[Run]]]:
    """{bot command: {version: its runs}}, in the order each was first seen."""
    groups: dict[str, dict[str, list[Run]]] = {}
    for run in runs:
        groups.setdefault(run.bot, {}).setdefault(run.bot_hash, []).append(run)
    return groups
