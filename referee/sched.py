"""How long a thread waited for a CPU, and the referee's own priority (Linux).

The kernel counts, per thread, the time it spent runnable but waiting on a run queue
(/proc/PID/task/TID/schedstat, second field, ns). Read around a poll, it says how late the
referee woke up to a line; read for the bot's threads, how long a busy machine kept the
bot from running (see excusable_wait for when that is not the bot's own doing). Where the
file is missing, the waits read as zero.
"""

from __future__ import annotations

import contextlib
import os
import threading

NICE_STEP = 5     # how much the reading thread raises its priority, where it may


class ThreadWait:
    """The calling thread's run-queue wait so far (seconds), read cheaply again and again."""

    def __init__(self):
        try:
            self._fd = os.open(f"/proc/self/task/{threading.get_native_id()}/schedstat",
                               os.O_RDONLY)
        except OSError:
            self._fd = None

    def seconds(self) -> float:
        if self._fd is None:
            return 0.0
        try:
            return int(os.pread(self._fd, 128, 0).split()[1]) / 1e9
        except (OSError, IndexError, ValueError):
            return 0.0

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def task_times(pid: int) -> dict[int, tuple[float, float]]:
    """(time on a CPU, run-queue wait) so far, in seconds, of each thread of process `pid`."""
    times = {}
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return times
    for tid in tids:
        try:
            with open(f"/proc/{pid}/task/{tid}/schedstat", "rb") as file:
                ran, waited = file.read().split()[:2]
            times[int(tid)] = (int(ran) / 1e9, int(waited) / 1e9)
        except (OSError, ValueError):
            continue
    return times


def excusable_wait(before: dict[int, tuple[float, float]], after: dict[int, tuple[float, float]],
                   gap_s: float, cpus: int) -> float:
    """How long a busy machine kept a one-process bot from running between two readings:
    its longest-waiting thread's wait, when that wait cannot be the bot's own doing. With
    several CPUs, a bot that used no more than one CPU over the gap left the others free
    for its waiting threads, so whatever kept them waiting was not the bot; on one CPU
    only a single-threaded bot is sure not to have kept itself waiting."""
    if not before or not after:
        return 0.0   # no baseline, or several processes: nothing to vouch for the bot
    def delta(tid: int, k: int) -> float:
        return after[tid][k] - before.get(tid, (0.0, 0.0))[k]
    ran = sum(delta(tid, 0) for tid in after)
    longest = max((delta(tid, 1) for tid in after), default=0.0)
    own_doing = ran > gap_s if cpus > 1 else len(after) > 1
    return 0.0 if own_doing else max(longest, 0.0)


class Urgent:
    """Real-time priority for the calling thread only while it watches the bot (waits for
    a line, stamps and reads it, takes a cheap memory sample), where the referee may have
    it (root, CAP_SYS_NICE or RLIMIT_RTPRIO): a line then wakes it at once, even on a
    machine with every CPU busy. Longer work (judging, an exact memory sum) runs at its
    normal priority (`relaxed`), so it never holds a CPU against other processes. The bot
    never inherits it (SCHED_RESET_ON_FORK)."""

    def __init__(self):
        self._active = False
        try:
            self._normal = (os.sched_getscheduler(0) & ~os.SCHED_RESET_ON_FORK,
                            os.sched_getparam(0))
            self._urgent = os.sched_param(1)
            self._set(True)
            self._set(False)
            self.allowed = True
        except (OSError, AttributeError):
            self.allowed = False

    def _set(self, urgent: bool) -> None:
        if urgent:
            os.sched_setscheduler(0, os.SCHED_FIFO | os.SCHED_RESET_ON_FORK, self._urgent)
        else:   # back to the policy it had, still not passed on to children
            os.sched_setscheduler(0, self._normal[0] | os.SCHED_RESET_ON_FORK, self._normal[1])

    def __enter__(self):
        if self.allowed:
            self._set(True)
            self._active = True
        return self

    def __exit__(self, *exc) -> None:
        if self._active:
            self._set(False)
            self._active = False

    @contextlib.contextmanager
    def relaxed(self, really: bool = True):
        """Back to normal priority for a while (when `really`), inside `with urgent:`."""
        if not (really and self._active):
            yield
            return
        self._set(False)
        try:
            yield
        finally:
            self._set(True)


_raised = threading.local()


def raise_priority() -> None:
    """Lower the calling thread's nice value by NICE_STEP where it is allowed (root, or
    RLIMIT_NICE), so a busy machine delays its reads less. Processes it forks get back a
    nice of 0 (SCHED_RESET_ON_FORK): the bot never inherits the referee's priority."""
    if getattr(_raised, "done", False):
        return
    _raised.done = True
    try:
        os.sched_setscheduler(0, os.SCHED_OTHER | os.SCHED_RESET_ON_FORK, os.sched_param(0))
        os.setpriority(os.PRIO_PROCESS, 0, os.getpriority(os.PRIO_PROCESS, 0) - NICE_STEP)
    except (OSError, AttributeError):
        pass   # not allowed here: the reads go on at the priority the referee has
