"""How busy the machine was outside the bot while the referee waited for a line.

A late line is the bot's, whatever kept it: the referee never forgives lateness. But a
player should know when the machine itself was busy, so a loss can say so and be replayed
(`run --replay-busy N`). The load of a window is the CPU time the whole machine used
(/proc/stat) less the bot's own (its cgroup's count, where there is one), over the window's
wall time: 1.0 is one CPU kept busy by something other than the bot.
"""

from __future__ import annotations

import os
import time
from typing import Callable

MIN_WINDOW_S = 0.05    # /proc/stat counts in ticks (10 ms): a shorter window says nothing
TICK_S = 1 / os.sysconf("SC_CLK_TCK")


def machine_busy_s() -> float | None:
    """CPU seconds the machine has spent on anything but idling, since boot."""
    try:
        with open("/proc/stat") as file:
            fields = file.readline().split()[1:]
    except OSError:
        return None
    ticks = [int(value) for value in fields]
    idle = ticks[3] + (ticks[4] if len(ticks) > 4 else 0)   # idle and iowait
    return (sum(ticks[:8]) - idle) * TICK_S


class LoadWindow:
    """Snapshots at each mark (the input, each line, a timeout); the load between the
    last two."""

    def __init__(self, bot_cpu_s: Callable[[], float | None]):
        self._bot_cpu_s = bot_cpu_s
        self._marks: list[tuple[float, float | None, float | None]] = []

    def mark(self) -> None:
        self._marks = self._marks[-1:] + [(time.perf_counter(), machine_busy_s(),
                                           self._bot_cpu_s())]

    def last(self) -> float | None:
        """CPUs used outside the bot over the last window; None where it cannot be told."""
        if len(self._marks) < 2:
            return None
        (start, busy0, bot0), (end, busy1, bot1) = self._marks
        if busy0 is None or busy1 is None or end - start < MIN_WINDOW_S:
            return None
        bot = (bot1 - bot0) if None not in (bot0, bot1) else 0.0
        return max(0.0, (busy1 - busy0 - bot) / (end - start))
