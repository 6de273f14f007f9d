"""The bot's CPU time as the match plays, read by a thread of the referee every
millisecond: every thread and process of the bot, so a line's CPU is the whole bot's.

Where the match has a cgroup, the kernel's count for it (`cpuacct.usage` in v1,
`cpu.stat`'s usage_usec in v2): every process the bot ever ran, ended ones included.
Elsewhere, the sum of the CPU clocks of the bot's processes (`clock_gettime` on a
process's clock: all its threads, ended ones included, to the nanosecond); the list of
processes is read again every few readings, and a process that ended keeps its last
reading, so what is lost is a process that lived less than a reading's interval and the
last interval of one that ended.
"""

from __future__ import annotations

import threading
import time

from referee.lab.profile.turn_samples import CpuReadings

INTERVAL_S = 0.001
LIST_EVERY = 10   # readings between two readings of the bot's list of processes
CGROUP = "the match's cgroup, all of the bot's processes and threads"
CLOCKS = "the CPU clocks of the bot's processes, all their threads"


def process_clock(pid: int) -> int:
    """The clock id of process `pid`'s CPU time (the kernel's MAKE_PROCESS_CPUCLOCK)."""
    return (~pid << 3) | 2


class ProcessClocks:
    """The CPU seconds of a set of processes, each one's last reading kept after it ends."""

    def __init__(self, processes):
        self._processes = processes   # () -> the bot's live pids
        self._last: dict[int, float] = {}
        self._live: list[int] = []
        self._reads = 0

    def seconds(self) -> float:
        if self._reads % LIST_EVERY == 0:
            self._live = list(dict.fromkeys([*self._live, *self._processes()]))
        self._reads += 1
        for pid in list(self._live):
            try:
                self._last[pid] = time.clock_gettime(process_clock(pid))
            except OSError:
                self._live.remove(pid)   # ended and reaped: its last reading stays
        return sum(self._last.values())


class CpuPoller:
    """A thread that reads the bot's CPU time until stopped."""

    def __init__(self, sandbox, interval_s: float = INTERVAL_S):
        self.interval_s = interval_s
        self._stop = threading.Event()
        if sandbox.cpu_seconds() is not None:
            self._read, self.source = sandbox.cpu_seconds, CGROUP
        else:
            self._read, self.source = ProcessClocks(sandbox.processes).seconds, CLOCKS
        self._times: list[float] = []
        self._seconds: list[float] = []
        self._thread = threading.Thread(target=self._run, name="cpu-poller", daemon=True)
        self._take()   # the baseline, before the bot has run much
        self._thread.start()

    def _take(self) -> None:
        before = time.perf_counter()
        try:
            seconds = self._read()
        except OSError:
            return
        if seconds is not None:   # None: the cgroup is gone, the match over
            self._times.append((before + time.perf_counter()) / 2)
            self._seconds.append(seconds)

    def _run(self) -> None:
        while not self._stop.wait(self.interval_s):
            self._take()

    def stop(self) -> CpuReadings:
        """Stop reading; the readings, from the first."""
        if not self._stop.is_set():
            self._stop.set()
            self._thread.join()
            self._take()
        return CpuReadings(tuple(self._times), tuple(self._seconds), self.source)
