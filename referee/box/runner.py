"""The bot's process: start it boxed, hand it the input, read its stamped lines, end it.

Like CodinGame: the bot gets the puzzle on stdin and stdin then stays OPEN until the match
ends (a bot that reads to EOF hangs and times out); PYTHONUNBUFFERED is not passed on (an
unflushed bot is caught). Its TMPDIR is the box's own /tmp, or, unboxed, a fresh folder
removed afterwards.

The parts, each in its own home:
  - the box and the kill: referee/box/sandbox.py (bubblewrap, the reaper) and
    referee/box/cgroups.py (the kernel's count of memory, processes and CPU);
  - the time of every line: a stamping process (referee/box/stamper.py), the bot's parent,
    which nothing here can delay; referee/box/stamper_client.py is the referee's end of it, and
    referee/box/lines.py turns its frames into lines;
  - memory: the kernel's cap where a cgroup counts it, else MemoryWatch samples it;
  - where the bot's time went before a late line: referee/box/lateness.py.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import threading
import time
from typing import Callable, Sequence

from referee.box import bubblewrap, proctree
from referee.judge.board import Board
from referee.box.sandbox import Mode, choose_mode, memory_mode, open_sandbox
from referee.box.footprint import MemoryMeter
from referee.box.heaps import runtime_environment
from referee.judge.limits import (MEMORY_LIMIT_BYTES, MEMORY_SAMPLE_S, READ_CHUNK_BYTES,
                            START_LIMIT_S, Limits)
from referee.box.lines import StderrTail
from referee.box.lateness import LoadWindow
from referee.judge.match import Event, EventKind, play_match
from referee.box.reaper import READY_MARK, START_MARK, remove_tree
from referee.judge.result import MatchResult, Usage
from referee.box.stamper_client import StamperLink
from referee.terminal import size_text

# Variables passed to the bot; everything else (PYTHONUNBUFFERED, PYTHONPATH, ...) is dropped.
ENV_KEPT = ("PATH", "HOME", "LANG", "LC_ALL", "LC_CTYPE", "USER", "LOGNAME")
TICK_S = 1 / os.sysconf("SC_CLK_TCK")


class BotStartError(Exception):
    """The bot command could not be started at all (missing or not executable)."""


class Interrupted(KeyboardInterrupt):
    """The match was stopped because the referee is going (Ctrl-C or SIGTERM taken in
    another thread): no verdict, the bot killed."""


def bot_environment(tmpdir: str, cap_bytes: int | None = None) -> dict[str, str]:
    """A clean environment for the bot, with its own TMPDIR and its runtimes' heaps under
    the memory cap (referee/box/heaps.py)."""
    env = {key: os.environ[key] for key in ENV_KEPT if key in os.environ}
    env["TMPDIR"] = tmpdir
    return {**env, **runtime_environment(cap_bytes)}


class MemoryWatch:
    """The bot's memory: the kernel's count where its cgroup caps it, else sampled from
    its processes (every MEMORY_SAMPLE_S), the bot killed over the cap."""

    def __init__(self, sandbox, cap_bytes: int | None):
        self._sandbox = sandbox
        self.cap = cap_bytes
        self.kernel = sandbox.limit_memory(cap_bytes)
        self.mode = memory_mode() if self.kernel else "sampled"
        self._meter = MemoryMeter()
        self._next = 0.0
        self.peak = 0
        self.cpu_seen: float | None = None   # the most CPU time the samples saw, unboxed
        self.over: str | None = None

    def due(self, now: float) -> bool:
        return self.over is None and now >= self._next

    def sample(self) -> None:
        """Sum the bot's processes' memory (PSS and shared files), or read the kernel's
        count where it refuses rather than kills (socket buffers); kill it over the cap."""
        if self.over is not None:
            return
        if self.kernel:
            self._next = time.perf_counter() + MEMORY_SAMPLE_S
            self.over = self._sandbox.memory_over(self.cap)
            if self.over:
                self._sandbox.kill()
            return
        start = time.perf_counter()
        pids = self._sandbox.processes()
        found = self._meter.measure(pids, exact=True)
        cpu = sum(map(_cpu_seconds, pids))
        self.cpu_seen = max(self.cpu_seen or 0.0, cpu) or None
        self._next = start + max(MEMORY_SAMPLE_S, (time.perf_counter() - start) * 5)
        if found.total_bytes is None:
            return
        self.peak = max(self.peak, found.total_bytes)
        if self.cap is not None and found.total_bytes > self.cap:
            self.over = (f"memory: {size_text(found.total_bytes)} in {found.processes} "
                         f"process(es), cap {size_text(self.cap)}")
            self._sandbox.kill()

    def finish(self) -> int | None:
        """The peak to show, and the kernel's verdict on the cap."""
        if self.kernel:
            killed = self._sandbox.oom_kills()
            if killed and self.over is None:
                self.over = (f"memory: {killed} process(es) killed by the kernel, "
                             f"cap {size_text(self.cap)}")
            self.over = self.over or self._sandbox.memory_over(self.cap)
            return self._sandbox.memory_peak()
        self._meter.remove_left_files()
        return self.peak or None


class BotProcess:
    """A running bot; implements the match's Transport.

    Made `held`, everything up to the bot's exec is ready (its cgroup, its box, the
    stamper, the launcher waiting at its gate) and the bot starts only at `begin`: the
    next match's box can be made while this one plays."""

    def __init__(self, argv: Sequence[str], cwd: str | None = None,
                 memory_limit_bytes: int | None = MEMORY_LIMIT_BYTES,
                 tmp_parent: str | None = None, mode: Mode | None = None,
                 stop: threading.Event | None = None, pass_fds: Sequence[int] = (),
                 held: bool = False, finisher: Callable[[Callable], None] | None = None,
                 idle: bool = False):
        argv, cwd = list(argv), os.path.abspath(cwd or os.getcwd())
        _check_program(argv, cwd)
        # made ahead, at idle priority until begin; only root can put it back after
        self._idle = idle and held and os.geteuid() == 0
        self._cpu_before: float | None = None
        self._stop = stop   # once set, the match ends at the next read: the referee is going
        self._finisher = finisher   # runs the end of a close after the verdict (referee/box/crew.py)
        try:
            self.sandbox = open_sandbox(mode or choose_mode())
        except OSError as error:
            raise BotStartError(f"cannot contain the bot: {error.strerror or error}") from None
        self._tmpdir: str | None = None
        self._status = ReaperStatus()
        self._closed = False
        self._stopped = False              # the referee killed the bot before it exited
        self._usage = Usage()
        self.link: StamperLink | None = None
        try:
            self._check_reachable(argv, cwd)
            self.memory = MemoryWatch(self.sandbox, memory_limit_bytes)
            self.load = LoadWindow(self.sandbox.cpu_seconds, self.sandbox.processes,
                                   lambda: self.link and self.link.stamper_pid)
            self.sandbox.idle_cpu(self._idle)
            self._start(argv, cwd, tmp_parent, pass_fds)
        except BaseException:
            self.close()
            raise
        if not held:
            self.begin()

    def begin(self, stop: threading.Event | None = None) -> None:
        """Wait for the launcher at its gate, put a box made at idle priority back to
        normal, open the gate and wait for the start mark: the bot runs from now."""
        self._stop = stop or self._stop
        try:
            if self._idle:   # at once, so the box gets made on a busy machine too
                self._restore_policy()
            self._await_mark(READY_MARK)
            if self._idle:   # again: what was forked meanwhile, the launcher now complete
                self._restore_policy()
            self._cpu_before = self.sandbox.cpu_seconds()   # the box's making is not the bot's
            self.link.open_gate()
            self._await_mark(START_MARK)
        except BaseException:
            self.close()
            raise

    # -- starting ----------------------------------------------------------

    def _check_reachable(self, argv: list[str], cwd: str) -> None:
        """Unboxed but dropped to a box user, the bot must reach its files on its own."""
        if self.sandbox.sandboxed or self.sandbox.uid is None:
            return
        closed = bubblewrap.unreachable(argv, cwd, os.environ.get("PATH", os.defpath),
                                 self.sandbox.uid)
        if closed:
            raise BotStartError(f"the bot runs as uid {self.sandbox.uid}, which cannot enter "
                                f"{closed}: {bubblewrap.INSTALL_HINT} (it binds the bot's files in)")

    def _bot_tmpdir(self, tmp_parent: str | None) -> str:
        if self.sandbox.sandboxed:
            return "/tmp"   # the box's own tmpfs, gone with the box
        uid = self.sandbox.uid
        parent = tmp_parent or tempfile.gettempdir()
        if uid is not None and bubblewrap.unreachable([parent], parent, "", uid, itself=True):
            tmp_parent = "/tmp"   # a folder the box user cannot enter: the machine's instead
        self._tmpdir = tempfile.mkdtemp(prefix="referee-bot-", dir=tmp_parent)
        if uid is not None:
            os.chown(self._tmpdir, uid, uid)
        return self._tmpdir

    def _start(self, argv: list[str], cwd: str, tmp_parent: str | None,
               pass_fds: Sequence[int]) -> None:
        """Start the stamper, which starts the launcher, which becomes the bot."""
        env = bot_environment(self._bot_tmpdir(tmp_parent), self.memory.cap)
        status_write = self._status.open()
        launcher = self.sandbox.command(argv, cwd, env.get("PATH", os.defpath), status_write)
        try:
            self.link = StamperLink(launcher, cwd, env, self.sandbox.join_files(),
                                    (status_write, *pass_fds), idle=self._idle)
        except OSError as error:
            raise BotStartError(f"cannot start the referee's stamper: "
                                f"{error.strerror or error}") from None
        finally:
            os.close(status_write)

    def _restore_policy(self) -> None:
        """The waiting launcher's processes back to normal, so the bot never runs idle."""
        pid = self.link.await_launcher(START_LIMIT_S,
                                       lambda timeout: self._pump(timeout, started=False))
        try:
            if pid is None:
                raise OSError("its pid never came")
            self.sandbox.idle_cpu(False)
            proctree.set_normal_policy(pid)
        except OSError as error:
            raise BotStartError(f"cannot put the bot's launcher back to normal priority: "
                                f"{error.strerror or error}") from None

    def _await_mark(self, mark: bytes) -> None:
        """Read the launcher's output up to `mark` (the ready mark: it waits at its gate;
        the start mark: the bot is exec'ing now)."""
        seen = self.link.read_to_mark(mark, START_LIMIT_S,
                                      lambda timeout: self._pump(timeout, started=False))
        if self.link.launcher_pid:
            self.sandbox.started(self.link.launcher_pid)
        if not seen:
            said = self.link.stderr.text().strip().splitlines()
            raise BotStartError(f"cannot start the bot: {said[-1] if said else 'no start mark'}")

    # -- Transport ---------------------------------------------------------

    def send(self, text: str) -> float:
        """The stamper writes the input; its stamp is the start of the first line's time."""
        at = self.link.send_input(text.encode(), self._pump)
        self.load.mark()
        return at

    def close_input(self) -> None:
        """End the bot's stdin (CodinGame never does; a start-up probe may)."""
        self.link.close_input()

    def read_line(self, deadline: float) -> Event:
        events = self.link.lines.events
        while not events:
            remaining = deadline - time.perf_counter()
            if remaining > 0:
                self._pump(remaining)
                continue
            self.link.sync(self._pump)   # the stamper has sent all it read by now
            if not events:
                self.load.mark()
                return Event(EventKind.TIMEOUT, deadline)
        self.load.mark()
        return events.popleft()

    def wait_exit(self, deadline: float) -> int | None:
        while self._exit_status() is None:
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                return None
            self._pump(min(remaining, 0.01))
        return self._exit_status()

    def close(self) -> Usage:
        """End the bot; its usage. A box the bot still runs in is killed at once, and where
        a `finisher` was given, the waits for its end and the clean-up are left to it."""
        if self._closed:
            return self._usage
        self._closed = True
        behind = self._finisher is not None and self._box_running()
        status = None
        if behind:
            self._stopped = True
            self.memory.sample()   # the last look at its memory, where it is sampled
            self.sandbox.kill_at_once()
            status = -9
        elif self.link is not None:
            self._end_bot()
            status = self._exit_status()
            status = -9 if status is None else status   # killed before its exit was seen
        peak = self.memory.finish() if hasattr(self, "memory") else None
        cpu_s = self._bot_cpu() if hasattr(self, "sandbox") else None
        self._usage = self._make_usage(status, peak, cpu_s)   # before the finisher runs
        if behind:
            self._finisher(self._finish_behind)
        else:
            self._release()
        return self._usage

    @property
    def pid(self) -> int | None:
        """The launcher's pid (bubblewrap or the reaper), once it runs."""
        return self.sandbox.pid

    def __enter__(self) -> "BotProcess":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- reading and ending --------------------------------------------------

    def _pump(self, timeout: float, started: bool = True) -> list:
        """Frames for up to `timeout` (a memory sample's time at most); sample when due."""
        if self._stop is not None and self._stop.is_set():
            raise Interrupted()
        if started and self.memory.due(time.perf_counter()):
            self.memory.sample()
        if started:
            timeout = min(timeout, self.load.tick())   # the bot's threads counted meanwhile
        return self.link.poll(min(timeout, MEMORY_SAMPLE_S), started)

    def _exit_status(self) -> int | None:
        """The bot's exit status once known: the reaper's report, or the box's exit."""
        if self.sandbox.relays_status:
            status = self._status.read()
            if status is None and self.link.exit_text is not None:
                return -9   # the reaper itself was killed (the kernel's OOM killer): its bot too
            return status
        if self.link.exit_text is None:
            return None
        return self.sandbox.exit_status(int(self.link.exit_text.split()[0]))

    def _bot_cpu(self) -> float | None:
        """The cgroup's CPU time since the gate opened (the box's making is the referee's)."""
        total = self.sandbox.cpu_seconds()
        if total is None or self._cpu_before is None:
            return total
        return max(0.0, total - self._cpu_before)

    def _box_running(self) -> bool:
        """A box whose bot has not exited (a box's processes all die with its launcher)."""
        if self.link is None or not self.sandbox.sandboxed:
            return False
        self.link.poll(0)
        return self._exit_status() is None

    def _finish_behind(self) -> None:
        """What close leaves to the finisher: wait for the box's end, then clean up."""
        self._end_bot()
        self._release()

    def _end_bot(self) -> None:
        """Kill whatever is left of the bot and take its last words."""
        def pump(timeout: float) -> list:   # never Interrupted: this is how a match ends
            return self.link.poll(min(timeout, MEMORY_SAMPLE_S))

        self.memory.sample()   # the last look at its memory, for the peak
        pump(0)                # an exit already reported
        if self._exit_status() is None:
            self._stopped = True   # the bot runs on: its exit is the referee's doing
        self.sandbox.kill()
        self.link.kill(pump)
        self.link.close()
        self._status.read()

    def _release(self) -> None:
        if hasattr(self, "sandbox"):
            if not self.sandbox.sandboxed and self.sandbox.uid is not None:
                bubblewrap.remove_left_by(self.sandbox.uid)
            self.sandbox.release()
        self._status.close()
        if self._tmpdir:
            # Not shutil.rmtree: it recurses, and a bot's nest of folders must not cost the match.
            remove_tree(self._tmpdir)

    def _make_usage(self, status: int | None, peak: int | None,
                    cgroup_cpu_s: float | None) -> Usage:
        link = self.link
        cpu_s, maxrss = _launcher_usage(self._status.text or (link.exit_text if link else None))
        tail = link.stderr if link else StderrTail()
        memory = getattr(self, "memory", None)
        return Usage(
            cpu_s=cgroup_cpu_s or max(filter(None, (cpu_s, memory and memory.cpu_seen)),
                                      default=None),
            peak_rss_bytes=peak or maxrss,
            exit_status=status,
            stderr_tail=tail.text(),
            stderr_bytes=tail.bytes,
            over_memory=memory.over if memory else None,
            stopped=self._stopped or bool(memory and memory.over),
            box=_box_text(self.sandbox) if hasattr(self, "sandbox") else "",
            memory_count=memory.mode if memory else "",
            stamps=("real-time" if link.real_time else "normal priority") if link else "",
            lateness=self.load.last() if hasattr(self, "load") else None)


class ReaperStatus:
    """The reaper's report of the bot's exit (unboxed modes): `status user_s system_s
    maxrss_kib` on a pipe, once the bot has exited."""

    def __init__(self):
        self._fd: int | None = None
        self.text = ""
        self._data = b""

    def open(self) -> int:
        """A new pipe; the write end, for the launcher."""
        self._fd, write = os.pipe()
        os.set_blocking(self._fd, False)
        return write

    def read(self) -> int | None:
        if self._fd is not None and not self._data.endswith(b"\n"):
            try:
                self._data += os.read(self._fd, 256)
            except (BlockingIOError, OSError):
                pass
        if not self._data.endswith(b"\n"):
            return None
        self.text = self._data.decode()
        return int(self.text.split()[0])

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def _cpu_seconds(pid: int) -> float:
    """User and system time of process `pid` so far (0 once it is gone)."""
    try:
        with open(f"/proc/{pid}/stat") as file:
            fields = file.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) * TICK_S


def _launcher_usage(text: str | None) -> tuple[float | None, int | None]:
    """(cpu seconds, peak RSS bytes) from `status user_s system_s maxrss_kib` (the reaper)
    or `status cpu_s maxrss_kib` (the stamper's report of the box)."""
    if not text:
        return None, None
    fields = text.split()
    try:
        if len(fields) == 4:
            return float(fields[1]) + float(fields[2]), int(fields[3]) * 1024
        return float(fields[1]), int(fields[2]) * 1024
    except (ValueError, IndexError):
        return None, None


def _box_text(sandbox) -> str:
    who = f" as uid {sandbox.uid}" if sandbox.uid is not None else ""
    kind = "sandboxed" if sandbox.sandboxed else "not sandboxed"
    return f"{kind}: {sandbox.mode.value}{who}"


def run_match(board: Board, argv: Sequence[str], limits: Limits = Limits(), name: str = "",
              path: str = "", cwd: str | None = None,
              memory_limit_bytes: int | None = MEMORY_LIMIT_BYTES,
              tmp_parent: str | None = None, mode: Mode | None = None,
              stop: threading.Event | None = None, pass_fds: Sequence[int] = ()) -> MatchResult:
    """Start the bot, play one match, and leave nothing running.

    Unboxed, the bot's TMPDIR is a fresh directory in `tmp_parent` (default: the system's);
    `mode` is the containment (default: the best available, see containment). Once
    `stop` is set (by another thread), the match raises Interrupted within a memory
    sample's time, its bot killed: it has no verdict. `pass_fds` reach the bot as they are.
    """
    bot = BotProcess(argv, cwd=cwd, memory_limit_bytes=memory_limit_bytes,
                     tmp_parent=tmp_parent, mode=mode, stop=stop, pass_fds=pass_fds)
    return play_match(board, bot, limits, name=name, path=path)


def _check_program(argv: Sequence[str], cwd: str) -> None:
    """The bot's program exists and is executable (the launcher would only say so later)."""
    if not argv:
        raise BotStartError("cannot start an empty bot command")
    program = argv[0]
    if "/" in program:
        path = os.path.join(cwd, program)
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            raise BotStartError(f"cannot start {program!r}: not an executable file")
    elif shutil.which(program, path=os.environ.get("PATH", os.defpath)) is None:
        raise BotStartError(f"cannot start {program!r}: not found on PATH")
