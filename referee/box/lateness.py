"""Where the bot's time went while the referee waited for a line, as the kernel counts it.

A late line is the bot's, whatever kept it: the referee never forgives lateness. But a
player should know whether the machine kept the bot from a CPU (the loss is then marked
`busy` and can be replayed: `run --replay-busy N`) or the bot was late on its own: asleep,
blocked reading a stdin that never ends, or running.

Every thread of every process of the match is read from /proc: `schedstat` gives its time
on a CPU and its time ready to run but waiting for one (run_delay), `stat` its state. The
counts are taken at each mark (the input, each line, a timeout) and every TICK_S while the
referee waits, so a thread that ends keeps what it was last seen to have used; the CPU of
threads too short-lived to be seen at all is the cgroup's count less the threads'. The
kernel adds a wait to run_delay only when the thread gets its CPU: a thread found ready to
run without having run since the last look is counted as waiting since then, and a wait
going on when an interval starts is taken off what the interval adds.

Waiting the bot caused is its own: beyond the CPUs it may use (its affinity, its cgroup's
CPU cap), the wait of its threads is theirs, and so is the time its cgroup was throttled.
The rest is the machine's, and so is the stamper's own wait (a stamp the machine delayed).
The figures are the bot's whole: the time its threads ran and waited, summed, and the
rest of the interval asleep; where threads side by side wanted more than the interval,
each figure is its share of it.
"""

from __future__ import annotations

import functools
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from referee.box.kernel_file import KernelFile, field
from referee.judge.result import Lateness

MIN_WINDOW_S = 0.05   # a shorter interval is not looked into (a few counts' spacing)
TICK_S = 0.02         # how often the threads are counted while the referee waits,
TICK_AFTER_S = 0.02   # from this far into an interval (most lines come sooner)
REUSE_S = 0.005       # a count this fresh stands for a mark (lines come in bursts)
LIST_S = 0.05         # how often the match's processes are listed (their threads each count)
READ_CALL = {"x86_64": 0, "aarch64": 63, "arm64": 63}.get(os.uname().machine)
CGROUP_ROOT = Path("/sys/fs/cgroup")


@dataclass(frozen=True)
class Thread:
    """One thread as counted once: nanoseconds on a CPU and waiting for one, its state."""

    cpu_ns: int
    wait_ns: int
    state: str


@functools.cache
def kernel_counts() -> bool:
    """Whether the kernel keeps each thread's schedstat (else it shows "0 0 0"; this
    process has run by now)."""
    return (_read("/proc/self/schedstat") or b"0").split()[0] != b"0"


def read_thread(pid: int, tid: int) -> Thread | None:
    """The kernel's count of thread `tid` of process `pid`; None once it is gone."""
    base = f"/proc/{pid}/task/{tid}/"
    counts, stat = _read(base + "schedstat"), _read(base + "stat")
    if counts is None or stat is None:
        return None
    try:
        cpu, wait = counts.split()[:2]
        return Thread(int(cpu), int(wait), stat.rpartition(b")")[2].split()[0].decode())
    except (ValueError, IndexError):
        return None


def _read(path: str) -> bytes | None:
    """A small /proc file's bytes (os.read: a count must cost little); None once gone."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return None
    try:
        return os.read(fd, 1024)
    except OSError:
        return None
    finally:
        os.close(fd)


def read_threads(pids: list[int]) -> dict[tuple[int, int], Thread]:
    """Every thread of `pids` that is still there, keyed (pid, tid)."""
    found = {}
    for pid in pids:
        try:
            tids = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for tid in map(int, tids):
            thread = read_thread(pid, tid)
            if thread is not None and thread.state not in "ZX":
                found[pid, tid] = thread
    return found


def reading_stdin(pid: int, tid: int) -> bool:
    """Whether the thread is blocked in read(0, ...): waiting for input on its stdin."""
    fields = (_read(f"/proc/{pid}/task/{tid}/syscall") or b"").split()
    return (READ_CALL is not None and len(fields) > 1 and fields[0] == str(READ_CALL).encode()
            and fields[1] in (b"0x0", b"0"))


class CpuGroup:
    """The cpu cgroup a process is in: its cap in CPUs and the time it was throttled."""

    def __init__(self, folder: Path | None):
        self.folder = folder
        self.cap = _cap(folder) if folder else None
        self._stat = KernelFile(folder / "cpu.stat") if self.cap is not None else None

    @classmethod
    def of(cls, pid: int) -> "CpuGroup":
        return cls(_cpu_folder(pid))

    def throttled_s(self) -> float:
        """Seconds the group's threads were held back by its cap (0 without a cap)."""
        if self._stat is None:
            return 0.0
        text = self._stat.read()
        usec = field(text, b"throttled_usec")   # v2
        if usec is not None:
            return usec / 1e6
        return (field(text, b"throttled_time") or 0) / 1e9   # v1, in nanoseconds

    def close(self) -> None:
        if self._stat is not None:
            self._stat.close()


def _cpu_folder(pid: int) -> Path | None:
    """The folder of the cgroup holding `pid`'s CPU: the v1 cpu hierarchy's, else v2's."""
    try:
        lines = Path(f"/proc/{pid}/cgroup").read_text().splitlines()
    except OSError:
        return None
    unified = None
    for line in lines:
        _, controllers, path = line.split(":", 2)
        if "cpu" in controllers.split(","):
            for name in ("cpu", "cpu,cpuacct", "cpuacct,cpu"):
                if (CGROUP_ROOT / name / "cpu.stat").exists():
                    return CGROUP_ROOT / name / path.lstrip("/")
        if controllers == "":
            unified = path
    for mount in (CGROUP_ROOT, CGROUP_ROOT / "unified"):
        if unified is not None and (mount / "cgroup.controllers").exists():
            return mount / unified.lstrip("/")
    return None


def _cap(folder: Path) -> float | None:
    """The group's CPU cap in CPUs (v2 cpu.max, v1 cfs quota over period); None uncapped."""
    try:
        if (folder / "cpu.max").exists():
            quota, period = (folder / "cpu.max").read_text().split()
        else:
            quota = (folder / "cpu.cfs_quota_us").read_text().strip()
            period = (folder / "cpu.cfs_period_us").read_text().strip()
        if quota in ("max", "-1"):
            return None
        return int(quota) / int(period)
    except (OSError, ValueError):
        return None


class Track:
    """One thread across an interval from `start`: its first and last counts, and since
    when it has been ready to run without running (a wait the kernel has not added yet).

    A wait going on at the start is added to run_delay within the interval, when the
    thread gets a CPU: the part before the start is taken off again."""

    def __init__(self, first: Thread, start: float, stuck_since: float | None = None):
        self.first = first
        self.last = first
        self.start = start
        self.seen_at = start
        if first.state == "R":
            stuck_since = start if stuck_since is None else stuck_since
        self.stuck_since = stuck_since if first.state == "R" else None
        self.carried = start - self.stuck_since if self.stuck_since is not None else 0.0

    def then(self, start: float) -> "Track":
        """The same thread over the next interval, from `start`."""
        return Track(self.last, start, self.stuck_since)

    def see(self, thread: Thread, now: float) -> None:
        ran = thread.cpu_ns != self.last.cpu_ns or thread.wait_ns != self.last.wait_ns
        if thread.state != "R":
            self.stuck_since = None
        elif ran:
            self.stuck_since = now
        elif self.stuck_since is None:   # woken since the last look: halfway, at a guess
            self.stuck_since = (self.seen_at + now) / 2
        self.last, self.seen_at = thread, now

    def spent(self, end: float, alive: bool) -> tuple[float, float]:
        """(seconds on a CPU, seconds waiting for one) over the interval."""
        cpu = (self.last.cpu_ns - self.first.cpu_ns) / 1e9
        wait = max(0.0, (self.last.wait_ns - self.first.wait_ns) / 1e9 - self.carried)
        if alive and self.last.state == "R" and self.stuck_since is not None:
            wait += end - max(self.stuck_since, self.start)
        return cpu, wait


BORN = Thread(0, 0, "R")   # the counts of a thread born within the interval, at its birth


class LoadWindow:
    """The bot's threads counted at each mark (the input, each line, a timeout) and while
    the referee waits; where the bot's time went between the last two marks."""

    def __init__(self, bot_cpu_s: Callable[[], float | None],
                 processes: Callable[[], list[int]],
                 stamper_pid: Callable[[], int | None] = lambda: None):
        self._bot_cpu_s = bot_cpu_s
        self._processes = processes
        self._stamper_pid = stamper_pid
        self._tracks: dict[tuple[int, int], Track] = {}
        self._alive: set[tuple[int, int]] = set()   # the threads there at the last count
        self._stamper: Track | None = None
        self._start: float | None = None
        self._start_cpu: float | None = None
        self._start_throttled = 0.0
        self._counted_at = 0.0
        self._cost = 0.0   # how long the last count took
        self._pids: list[int] = []
        self._listed_at = -LIST_S
        self._group: CpuGroup | None = None
        self._last: Lateness | None = None

    def mark(self) -> None:
        """End the interval going on (if any) and start the next one now."""
        now = time.perf_counter()
        if self._start is None:
            self._count(now, first=True)
            self._group = CpuGroup.of(next(iter(self._tracks))[0]) if self._tracks else None
        else:
            if now - self._counted_at >= max(REUSE_S, 10 * self._cost):
                self._count(now)
            self._last = self._judge(self._counted_at)
        self._restart()

    def tick(self) -> float:
        """Count the threads if it is time; the seconds until it is time again. Counts
        start TICK_AFTER_S into an interval and cost at most a twentieth of the time."""
        if self._start is None:
            return TICK_S
        every = max(TICK_S, 20 * self._cost)
        due = max(self._start + TICK_AFTER_S, self._counted_at + every)
        now = time.perf_counter()
        if now >= due:
            self._count(now)
            due = now + every
        return max(0.0, due - time.perf_counter())

    def close(self) -> None:
        """The match is over: let go of the files kept open for its counts."""
        if self._group:
            self._group.close()

    def last(self) -> Lateness | None:
        """Where the bot's time went over the last interval; None where it was too short
        to be late or the kernel's counts cannot be read."""
        return self._last

    # -- counting --------------------------------------------------------------------

    def _restart(self) -> None:
        """The last count starts the next interval."""
        now = self._counted_at
        self._tracks = {key: track.then(now) for key, track in self._tracks.items()
                        if key in self._alive}
        self._stamper = self._stamper and self._stamper.then(now)
        self._start, self._start_cpu = now, self._bot_cpu_s()
        self._start_throttled = self._group.throttled_s() if self._group else 0.0

    def _count(self, now: float, first: bool = False) -> None:
        """Count every thread; one not seen before was born since the last count (or, at
        the first, counts from now)."""
        if now - self._listed_at >= LIST_S:   # the list costs more than the counts
            self._pids, self._listed_at = self._processes(), now
        threads = read_threads(self._pids)
        for key, thread in threads.items():
            if key not in self._tracks:
                self._tracks[key] = Track(thread if first else BORN, now)
            self._tracks[key].see(thread, now)
        self._alive = set(threads)
        pid = self._stamper_pid()
        stamper = read_thread(pid, pid) if pid else None
        if stamper is not None:
            if self._stamper is None:
                self._stamper = Track(stamper, now)
            self._stamper.see(stamper, now)
        self._counted_at = now
        self._cost = time.perf_counter() - now

    # -- judging ---------------------------------------------------------------------

    def _judge(self, end: float) -> Lateness | None:
        window = end - self._start
        if window < MIN_WINDOW_S or not self._tracks or not kernel_counts():
            return None
        spent = {key: track.spent(end, key in self._alive) for key, track in self._tracks.items()}
        running = sum(cpu for cpu, _ in spent.values())
        cgroup_cpu = self._cgroup_cpu()
        if cgroup_cpu is not None:
            running = max(running, cgroup_cpu)   # threads that came and went unseen
        cpus = _cpus([tid for (_, tid), used in spent.items() if sum(used) > 0])
        if self._group and self._group.cap is not None:
            cpus = min(cpus, self._group.cap)
        throttled = self._throttled()
        return attribute(
            window, running, sum(wait for _, wait in spent.values()), cpus, throttled,
            stamper_wait=self._stamper.spent(end, True)[1] if self._stamper else 0.0,
            own_wait_cause="its CPU cap" if throttled > 0 else "its own threads",
            reading_stdin=any(reading_stdin(*key) for key in self._alive
                              if self._tracks[key].last.state in "SD"))

    def _cgroup_cpu(self) -> float | None:
        now = self._bot_cpu_s()
        if now is None or self._start_cpu is None:
            return None
        return max(0.0, now - self._start_cpu)

    def _throttled(self) -> float:
        return max(0.0, self._group.throttled_s() - self._start_throttled) if self._group else 0.0


def _cpus(tids: list[int]) -> float:
    """The CPUs threads `tids` (those that ran or wanted to) may run on, together."""
    allowed: set[int] = set()
    for tid in tids:
        try:
            allowed |= os.sched_getaffinity(tid)
        except OSError:
            continue   # it ended
    return float(len(allowed) or os.cpu_count() or 1)


def attribute(window: float, running: float, waited: float, cpus: float,
              throttled: float = 0.0, stamper_wait: float = 0.0, **said) -> Lateness:
    """Split an interval of `window` seconds, in which the bot's threads together ran
    `running` and waited `waited` seconds for a CPU, with `cpus` CPUs theirs to use and
    their cgroup throttled `throttled` seconds; `said`: the rest of the Lateness.

    The waiting the bot caused is its demand beyond its CPUs, or its throttled time,
    whichever is more; the rest, and the stamper's wait, is the machine's. Threads side
    by side that wanted more than the interval get their shares of it."""
    own = min(waited, max(running + waited - cpus * window, throttled, 0.0))
    scale = min(1.0, window / (running + waited)) if running + waited > 0 else 1.0
    return Lateness(window_s=window, running_s=running * scale,
                    machine_wait_s=min(window, (waited - own) * scale + stamper_wait),
                    own_wait_s=own * scale,
                    asleep_s=max(0.0, window - (running + waited) * scale), **said)
