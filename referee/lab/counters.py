"""The solver's counters as the lab reports them: one list, read from bot.Stats itself."""

from __future__ import annotations

import bot
from bot.stages import STAGE_NAMES

COUNTERS = tuple(name for name in bot.Stats.COUNTERS if name != "stage")


def counters(stats: bot.Stats) -> dict[str, int]:
    """{counter: value} of one solve, in COUNTERS order."""
    return {name: getattr(stats, name) for name in COUNTERS}


def stage_name(stats: bot.Stats) -> str:
    """The deepest stage the solve used, by name: rules, elimination or branching."""
    return STAGE_NAMES.get(stats.stage, str(stats.stage))
