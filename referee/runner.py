"""The bot's process: spawn it contained, read it without blocking, end it and all it started.

Like CodinGame: the bot gets the puzzle on stdin and stdin then stays OPEN until
the match ends (a bot that reads to EOF hangs and times out); PYTHONUNBUFFERED is
not passed on (an unflushed bot is caught). The bot gets a fresh TMPDIR (removed
afterwards: a stickytape bundle that is killed leaves its modules there).

Containment (referee/containment.py) starts the bot in a cgroup, a PID namespace or
under a reaper, with no address-space limit; on close every process it started is
killed and reaped. The cap holds for the whole bot, every page counted once: where the
kernel counts the match's cgroup memory it is read, elsewhere the proportional set size
and shared memory of all the bot's processes are summed (referee/footprint.py), every
MEMORY_SAMPLE_S at most; a bot over the cap is killed and loses with verdict `memory`.
The files the bot left in /dev/shm are removed with it.
"""

from __future__ import annotations

import os
import selectors
import shutil
import subprocess
import tempfile
import threading
import time
from collections import deque
from typing import Sequence

from referee.board import Board
from referee.containment import Mode, choose_mode, open_sandbox
from referee.footprint import MemoryMeter
from referee.limits import (MAX_LINE_BYTES, MEMORY_LIMIT_BYTES, MEMORY_SAMPLE_S,
                            READ_CHUNK_BYTES, START_LIMIT_S, STDERR_TAIL_BYTES, Limits)
from referee.match import Event, EventKind, play_match
from referee.reaper import START_MARK, remove_tree
from referee.result import MatchResult, Usage
from referee.sched import ThreadWait, Urgent, excusable_wait, raise_priority, task_times
from referee.terminal import size_text

# Variables passed to the bot; everything else (PYTHONUNBUFFERED, PYTHONPATH, ...) is dropped.
ENV_KEPT = ("PATH", "HOME", "LANG", "LC_ALL", "LC_CTYPE", "USER", "LOGNAME")
EXIT_POLL_S = 0.001   # how often wait_exit looks for the exit status
STDERR_DRAIN_READS = 16   # reads of what a killed bot left in its stderr pipe (64 KiB each)
EXACT_SAMPLE_S = 0.25   # how often the exact sum is taken under the cap, for the peak shown
READ_EPSILON_S = 0.0005   # from a line's arrival to its time stamp, beyond waits for a CPU
URGENT_SAMPLE_PROCESSES = 4   # a memory sample of up to this many processes runs urgent,
URGENT_EXACT_BYTES = 64 << 20  # and an exact one of up to this much memory
SAMPLE_SHARE = 5      # sampling memory takes at most 1/SAMPLE_SHARE of the referee's time


class BotStartError(Exception):
    """The bot command could not be started at all (missing or not executable)."""


class Interrupted(KeyboardInterrupt):
    """The match was stopped because the referee is going (Ctrl-C or SIGTERM taken in
    another thread): no verdict, the bot killed."""


def bot_environment(tmpdir: str) -> dict[str, str]:
    """A clean environment for the bot, with its own TMPDIR."""
    env = {key: os.environ[key] for key in ENV_KEPT if key in os.environ}
    env["TMPDIR"] = tmpdir
    return env


class BotProcess:
    """A running bot; implements the match's Transport."""

    def __init__(self, argv: Sequence[str], cwd: str | None = None,
                 memory_limit_bytes: int | None = MEMORY_LIMIT_BYTES,
                 tmp_parent: str | None = None, mode: Mode | None = None,
                 stop: threading.Event | None = None, pass_fds: Sequence[int] = ()):
        _check_program(argv, cwd)
        self._pass_fds = tuple(pass_fds)   # the caller's descriptors, same numbers in the bot
        self._stop = stop   # once set, the match ends at the next read: the referee is going
        try:
            self.sandbox = open_sandbox(mode or choose_mode())
        except OSError as error:
            raise BotStartError(f"cannot contain the bot: {error.strerror or error}") from None
        self._tmpdir = tempfile.mkdtemp(prefix="referee-bot-", dir=tmp_parent)
        self.memory_limit_bytes = memory_limit_bytes
        self._pending: deque[Event] = deque()   # complete lines read, not yet handed out
        self._partial = b""               # the start of a line not yet ended
        self._skipping = False            # dropping the rest of a cut line
        self._eof_at: float | None = None
        self._stderr_tail = b""
        self._stderr_bytes = 0
        self._status: int | None = None
        self._rusage: tuple[float, int] | None = None   # (cpu seconds, peak RSS bytes)
        self._status_text = b""
        self._closed = False
        self._stopped = False             # the referee killed the bot before it exited
        self._usage = Usage()
        self._peak_bytes = 0                # all the bot's processes together, as sampled
        self._next_sample = 0.0
        self._next_exact = 0.0
        self._meter = MemoryMeter()
        self.over_memory: str | None = None
        self._wait = ThreadWait()           # the reading thread's waits for a CPU
        raise_priority()
        self._urgent = Urgent()
        self._checked_at: float | None = None   # when stdout was last seen empty
        self._bot_times: dict[int, tuple[float, float]] = {}   # its threads' at the last line
        self._cpus = len(os.sched_getaffinity(0))
        self._line_at = 0.0                 # when the last line (or the input) went
        self._lines_seen = 0
        self.proc = self._start(list(argv), cwd)
        self.pid = self.proc.pid
        self._selector = selectors.DefaultSelector()
        self._stdout = self.proc.stdout.fileno()
        self._stderr = self.proc.stderr.fileno()
        self._selector.register(self._stdout, selectors.EVENT_READ)
        self._selector.register(self._stderr, selectors.EVENT_READ)
        self._await_start()
        self._bot_pid = next(iter(self.sandbox.processes()), None)

    def _start(self, argv: list[str], cwd: str | None) -> subprocess.Popen:
        """Spawn the launcher in its own session with pipes on all three streams."""
        status_read, status_write = os.pipe()   # the reaper's report of the bot's exit
        os.set_blocking(status_read, False)
        self._status_fd = status_read
        self._kernel_counts = self.sandbox.limit_memory(self.memory_limit_bytes)
        command = self.sandbox.command(argv, status_write)
        passed = ((status_write,) if self.sandbox.relays_status else ()) + self._pass_fds
        try:
            proc = subprocess.Popen(
                command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, bufsize=0, cwd=cwd, env=bot_environment(self._tmpdir),
                start_new_session=True, close_fds=True, pass_fds=passed)
        except OSError as error:
            self._release()
            raise BotStartError(f"cannot start {command[0]!r}: {error.strerror or error}") from None
        finally:
            os.close(status_write)
        self.sandbox.started(proc.pid)
        return proc

    def _await_start(self) -> None:
        """Read the launcher's start mark: the bot is exec'ing now. Output after it is the bot's."""
        deadline = time.perf_counter() + START_LIMIT_S
        mark = b""
        while not mark.endswith(b"\n") and time.perf_counter() < deadline:
            ready = self._selector.select(deadline - time.perf_counter())
            if any(key.fd == self._stderr for key, _ in ready):
                data = os.read(self._stderr, READ_CHUNK_BYTES)
                self._take_stderr(data)
                if not data:
                    self._selector.unregister(self._stderr)
            if any(key.fd == self._stdout for key, _ in ready):
                data = os.read(self._stdout, 1)   # byte by byte: what follows is the bot's
                if not data:
                    break
                mark += data
        if mark != START_MARK:
            self.close()
            said = self._usage.stderr_tail.strip().splitlines()
            raise BotStartError(f"cannot start the bot: {said[-1] if said else 'no start mark'}")

    # -- Transport ---------------------------------------------------------

    def send(self, text: str) -> float:
        data = text.encode()
        try:
            while data:
                data = data[os.write(self.proc.stdin.fileno(), data):]
        except BrokenPipeError:
            pass  # the bot is already gone; the match sees its EOF and exit status
        self._checked_at = time.perf_counter()
        self._line_at = self._checked_at
        self._bot_times = self._read_bot_times()
        return self._checked_at

    def read_line(self, deadline: float) -> Event:
        with self._urgent:   # the whole wait: dropping priority between polls would let a
            return self._read_line(deadline)   # busy machine take the CPU just then

    def _read_line(self, deadline: float) -> Event:
        while not self._pending:
            if self._eof_at is not None:
                return Event(EventKind.EOF, self._eof_at)
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                self._pump(0)   # a referee that woke late may find the line waiting
                if not self._pending and self._eof_at is None:
                    return Event(EventKind.TIMEOUT, deadline)
                continue
            self._pump(remaining)
        return self._pending.popleft()

    def wait_exit(self, deadline: float) -> int | None:
        with self._urgent:
            while not self._reap(os.WNOHANG):
                if time.perf_counter() >= deadline:
                    return None
                self._pump(EXIT_POLL_S)  # keep draining stderr so the bot cannot block on it
        return self._status

    def close(self) -> Usage:
        if self._closed:
            return self._usage
        self._closed = True
        if getattr(self, "proc", None) is not None:
            self._sample(exact=True)     # the last look at its memory, for the peak
            if not self._reap(os.WNOHANG):
                self._stopped = True     # the bot runs on: its exit is the referee's doing
            self.sandbox.kill()          # every process of the bot, dead within KILL_WAIT_S
            self._wait_launcher()
            self._drain_stderr()
            self._selector.close()
            for pipe in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
                pipe.close()
            killed = self.sandbox.oom_kills()
            if killed:
                self._stopped = True     # the kernel enforced the referee's cap
            if killed and self.over_memory is None:
                self.over_memory = (f"memory: over the {size_text(self.memory_limit_bytes)} cap "
                                    f"({killed} process(es) killed by the kernel)")
        self._release()
        self._usage = self._make_usage()
        return self._usage

    def _release(self) -> None:
        self.sandbox.release()
        self._meter.remove_left_files()
        self._wait.close()
        os.close(self._status_fd) if hasattr(self, "_status_fd") else None
        # Not shutil.rmtree: it recurses, and a bot's nest of folders must not cost the match.
        remove_tree(self._tmpdir)

    def __enter__(self) -> "BotProcess":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- reading -----------------------------------------------------------

    def _pump(self, timeout: float) -> None:
        """Wait up to `timeout` for output and take whatever is there; sample memory when due."""
        if self._stop is not None and self._stop.is_set():
            raise Interrupted()
        now = time.perf_counter()
        if now >= self._next_sample:
            self._sample()
            took = time.perf_counter() - now   # many processes take longer: sample less often
            now += took
            self._next_sample = now + max(MEMORY_SAMPLE_S, took * SAMPLE_SHARE)
        timeout = min(timeout, self._next_sample - now)
        before, waited = time.perf_counter(), self._wait.seconds()
        ready = self._selector.select(max(timeout, 0))
        woke = time.perf_counter()
        # A line that woke us came at most this long before `woke`: the referee's own wait
        # for a CPU since the poll began, plus any work it did since it last saw stdout empty.
        idle = before - self._checked_at if self._checked_at is not None else 0.0
        doubt = idle + self._wait.seconds() - waited + READ_EPSILON_S
        self._checked_at = woke   # stdout was empty then, or is read just below
        for key, _ in ready:
            data = os.read(key.fd, READ_CHUNK_BYTES)
            if key.fd == self._stdout:
                self._checked_at = time.perf_counter()   # work after this read counts as idle
                self._take_stdout(data, woke, doubt)
            else:
                self._take_stderr(data)
            if not data:
                self._selector.unregister(key.fd)

    def _take_stdout(self, data: bytes, now: float, doubt: float = 0.0) -> None:
        """Split stdout into lines stamped with their arrival and the doubt on it (the
        referee's wait and the bot's longest wait for a CPU since the last line); cut
        over-long ones."""
        if not data:
            if self._partial and not self._skipping:
                self._emit(self._partial, now)  # a last line without its newline
            self._partial = b""
            self._eof_at = now
            return
        self._partial += data
        if b"\n" in data or len(self._partial) > MAX_LINE_BYTES:
            times = self._read_bot_times()
            doubt += excusable_wait(self._bot_times, times, now - self._line_at, self._cpus)
            self._bot_times, self._line_at = times, now
        while True:
            end = self._partial.find(b"\n")
            if end < 0:
                break
            line, self._partial = self._partial[:end], self._partial[end + 1:]
            if self._skipping:
                self._skipping = False
            else:
                self._emit(line, now, doubt)
        if len(self._partial) > MAX_LINE_BYTES and not self._skipping:
            self._emit(self._partial, now, doubt)
            self._skipping = True
        if self._skipping:
            self._partial = b""  # a flood is dropped, not stored

    def _emit(self, line: bytes, now: float, doubt: float = 0.0) -> None:
        cut = len(line) > MAX_LINE_BYTES
        text = line[:MAX_LINE_BYTES].decode("utf-8", errors="replace").removesuffix("\r")
        if not self._lines_seen:
            self._sample(exact=True)   # the bot is surely running now: at least one sample
        self._lines_seen += 1
        self._pending.append(Event(EventKind.LINE, now, text, cut, doubt))

    def _read_bot_times(self) -> dict[int, tuple[float, float]]:
        """CPU and run-queue times of the bot's threads; empty (no excuse) when the bot
        runs several processes, whose CPU use this does not follow."""
        pid = getattr(self, "_bot_pid", None)
        if pid is None or len(self.sandbox.processes()) != 1:
            return {}
        return task_times(pid)

    def _take_stderr(self, data: bytes) -> None:
        """Keep only the tail of stderr, however much the bot writes."""
        self._stderr_bytes += len(data)
        self._stderr_tail = (self._stderr_tail + data)[-STDERR_TAIL_BYTES:]

    def _drain_stderr(self) -> None:
        """Read what a dead bot left in its stderr pipe (never blocks: writers are gone)."""
        if self._stderr not in self._selector.get_map():
            return
        os.set_blocking(self._stderr, False)
        try:
            for _ in range(STDERR_DRAIN_READS):  # bounded: an escaped child may still write
                data = os.read(self._stderr, READ_CHUNK_BYTES)
                if not data:
                    break
                self._take_stderr(data)
        except BlockingIOError:
            pass  # a surviving escaped child still holds the pipe open

    # -- memory ------------------------------------------------------------

    def _sample(self, exact: bool = False) -> None:
        """Measure all the bot's processes together; kill the bot over the cap. The cheap
        upper bound (resident sizes) is checked first; the exact sum (PSS) only when that
        bound is over the cap, every EXACT_SAMPLE_S for the peak, or when asked."""
        if self.over_memory is not None:
            return   # killed already
        pids = self.sandbox.processes()
        if self._kernel_counts:
            self._meter.shared_only(pids)   # for the /dev/shm files to remove afterwards
            self._judge_memory(self.sandbox.memory_used(), len(pids))
            return
        now = time.perf_counter()
        exact = exact or now >= self._next_exact
        # Many processes, or PSS over much memory (it walks every page), take long: not at
        # real-time priority. A small bot is measured at once, so a line is not kept waiting.
        with self._urgent.relaxed(len(pids) > URGENT_SAMPLE_PROCESSES):
            found = self._meter.measure(pids, exact=False)
        if exact or self._over_cap(found.total_bytes):
            with self._urgent.relaxed(found.total_bytes > URGENT_EXACT_BYTES
                                      or len(pids) > URGENT_SAMPLE_PROCESSES):
                found = self._meter.measure(pids, exact=True)
        if found.exact:
            self._next_exact = now + EXACT_SAMPLE_S
            self._judge_memory(found.total_bytes, found.processes)

    def _over_cap(self, total: int | None) -> bool:
        return None not in (total, self.memory_limit_bytes) and total > self.memory_limit_bytes

    def _judge_memory(self, total: int | None, processes: int) -> None:
        if total is None:
            return
        self._peak_bytes = max(self._peak_bytes, total)
        if self._over_cap(total):
            self.over_memory = (f"memory: {size_text(total)} in {processes} process(es), "
                                f"cap {size_text(self.memory_limit_bytes)}")
            self._stopped = True
            self.sandbox.kill()

    # -- ending ------------------------------------------------------------

    def _reap(self, flags: int) -> bool:
        """Collect the bot's exit status and resource usage; True once the bot has exited."""
        if self._status is not None:
            return True
        if self.sandbox.relays_status:
            return self._read_status()
        try:
            pid, status, rusage = os.wait4(self.pid, flags)
        except ChildProcessError:
            return False
        if pid == 0:
            return False
        self._status = os.waitstatus_to_exitcode(status)
        self._rusage = (rusage.ru_utime + rusage.ru_stime, rusage.ru_maxrss * 1024)  # Linux: KiB
        self.proc.returncode = self._status  # reaped here, so Popen must not wait again
        return True

    def _read_status(self) -> bool:
        """The reaper's line `status user_s system_s maxrss_kib`, once the bot has exited."""
        try:
            self._status_text += os.read(self._status_fd, 256)
        except BlockingIOError:
            pass
        if not self._status_text.endswith(b"\n"):
            return False
        status, user_s, system_s, maxrss = self._status_text.split()
        self._status = int(status)
        self._rusage = (float(user_s) + float(system_s), int(maxrss) * 1024)
        return True

    def _wait_launcher(self) -> None:
        """Reap the referee's own child: the bot (cgroup) or the reaper or unshare."""
        if not self.sandbox.relays_status:
            self._reap(0)
        elif self.proc.returncode is None:
            _, status = os.waitpid(self.pid, 0)
            self.proc.returncode = os.waitstatus_to_exitcode(status)
        if self.sandbox.relays_status and self._status is None:
            os.set_blocking(self._status_fd, True)   # the reaper is gone: its report is whole
            self._status_text += os.read(self._status_fd, 256)
            if self._status_text.endswith(b"\n"):
                self._read_status()
            else:
                self._status = -9   # the reaper was killed before the bot's exit was seen

    def _make_usage(self) -> Usage:
        cpu_s, maxrss = self._rusage if self._rusage else (None, None)
        # the samples count every page once; the bot's maxrss counts shared pages whole, and
        # in cgroup mode it includes the referee's own size when it forked the bot
        peak = self._peak_bytes or maxrss or None
        return Usage(
            cpu_s=cpu_s,
            peak_rss_bytes=peak,
            exit_status=self._status,
            stderr_tail=self._stderr_tail.decode("utf-8", errors="replace"),
            stderr_bytes=self._stderr_bytes,
            over_memory=self.over_memory,
            stopped=self._stopped)


def run_match(board: Board, argv: Sequence[str], limits: Limits = Limits(), name: str = "",
              path: str = "", cwd: str | None = None,
              memory_limit_bytes: int | None = MEMORY_LIMIT_BYTES,
              tmp_parent: str | None = None, mode: Mode | None = None,
              stop: threading.Event | None = None, pass_fds: Sequence[int] = ()) -> MatchResult:
    """Start the bot, play one match, and leave nothing running.

    The bot's TMPDIR is a fresh directory in `tmp_parent` (default: the system's);
    `mode` is the containment (default: the best available, see containment). Once
    `stop` is set (by another thread), the match raises Interrupted within a memory
    sample's time, its bot killed: it has no verdict. `pass_fds` are handed to the bot
    with the same numbers (as Popen's pass_fds).
    """
    bot = BotProcess(argv, cwd=cwd, memory_limit_bytes=memory_limit_bytes,
                     tmp_parent=tmp_parent, mode=mode, stop=stop, pass_fds=pass_fds)
    return play_match(board, bot, limits, name=name, path=path)


def _check_program(argv: Sequence[str], cwd: str | None) -> None:
    """The bot's program exists and is executable (the launcher would only say so later)."""
    if not argv:
        raise BotStartError("cannot start an empty bot command")
    program = argv[0]
    if "/" in program:
        path = os.path.join(cwd or ".", program)
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            raise BotStartError(f"cannot start {program!r}: not an executable file")
    elif shutil.which(program, path=os.environ.get("PATH", os.defpath)) is None:
        raise BotStartError(f"cannot start {program!r}: not found on PATH")
