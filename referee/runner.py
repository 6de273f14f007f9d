"""The bot's process: start it boxed, hand it the input, read its stamped lines, end it.

Like CodinGame: the bot gets the puzzle on stdin and stdin then stays OPEN until the match
ends (a bot that reads to EOF hangs and times out); PYTHONUNBUFFERED is not passed on (an
unflushed bot is caught). Its TMPDIR is the box's own /tmp, or, unboxed, a fresh folder
removed afterwards.

The parts, each in its own home:
  - the box and the kill: referee/containment.py (bubblewrap, the reaper) and
    referee/cgroups.py (the kernel's count of memory, processes and CPU);
  - the time of every line: a stamping process (referee/stamper.py), the bot's parent,
    which nothing here can delay; referee/lines.py turns its frames into lines;
  - memory: the kernel's cap where a cgroup counts it, else MemoryWatch samples it;
  - the load of the machine around a late line: referee/load.py.
"""

from __future__ import annotations

import json
import os
import selectors
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Sequence

from referee import box
from referee.board import Board
from referee.containment import Mode, choose_mode, memory_mode, open_sandbox
from referee.footprint import MemoryMeter
from referee.limits import (MEMORY_LIMIT_BYTES, MEMORY_SAMPLE_S, READ_CHUNK_BYTES,
                            START_LIMIT_S, Limits)
from referee.lines import FrameReader, LineSplitter, StderrTail
from referee.load import LoadWindow
from referee.match import Event, EventKind, play_match
from referee.reaper import START_MARK, remove_tree
from referee.result import MatchResult, Usage
from referee.terminal import size_text

# Variables passed to the bot; everything else (PYTHONUNBUFFERED, PYTHONPATH, ...) is dropped.
ENV_KEPT = ("PATH", "HOME", "LANG", "LC_ALL", "LC_CTYPE", "USER", "LOGNAME")
STAMPER = Path(__file__).with_name("stamper.py")
STDERR_DRAIN_READS = 16   # reads of what a killed bot left in its stderr pipe (64 KiB each)
SYNC_WAIT_S = 2.0         # the stamper answers a sync within this (it is idle but for us)
END_WAIT_S = 2.0          # the launcher's exit is reported within this after a kill


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
        self.over: str | None = None

    def due(self, now: float) -> bool:
        return not self.kernel and self.over is None and now >= self._next

    def sample(self) -> None:
        """Sum the bot's processes' memory (PSS and shared files); kill it over the cap."""
        if self.kernel or self.over is not None:
            return
        start = time.perf_counter()
        pids = self._sandbox.processes()
        found = self._meter.measure(pids, exact=True)
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
            return self._sandbox.memory_peak()
        self._meter.remove_left_files()
        return self.peak or None


class BotProcess:
    """A running bot; implements the match's Transport."""

    def __init__(self, argv: Sequence[str], cwd: str | None = None,
                 memory_limit_bytes: int | None = MEMORY_LIMIT_BYTES,
                 tmp_parent: str | None = None, mode: Mode | None = None,
                 stop: threading.Event | None = None, pass_fds: Sequence[int] = ()):
        argv, cwd = list(argv), os.path.abspath(cwd or os.getcwd())
        _check_program(argv, cwd)
        self._stop = stop   # once set, the match ends at the next read: the referee is going
        try:
            self.sandbox = open_sandbox(mode or choose_mode())
        except OSError as error:
            raise BotStartError(f"cannot contain the bot: {error.strerror or error}") from None
        self._tmpdir = None
        self._closed = False
        self._exit: str | None = None       # the launcher's `status cpu maxrss`, once it exits
        self._status_text = b""
        self._usage = Usage()
        try:
            self._check_reachable(argv, cwd)
            self.memory = MemoryWatch(self.sandbox, memory_limit_bytes)
            self._stamps = "normal priority"
            self._frames = FrameReader()
            self._lines = LineSplitter()
            self._stderr_tail = StderrTail()
            self._synced = False
            self._input_at: float | None = None
            self._stopped = False              # the referee killed the bot before it exited
            self._start(argv, cwd, tmp_parent, pass_fds)
            self.load = LoadWindow(self.sandbox.cpu_seconds)
            self._await_start()
        except BaseException:
            self.close()
            raise

    # -- starting ----------------------------------------------------------

    def _check_reachable(self, argv: list[str], cwd: str) -> None:
        """Unboxed but dropped to a box user, the bot must reach its files on its own."""
        if self.sandbox.sandboxed or self.sandbox.uid is None:
            return
        closed = box.unreachable(argv, cwd, os.environ.get("PATH", os.defpath),
                                 self.sandbox.uid)
        if closed:
            raise BotStartError(f"the bot runs as uid {self.sandbox.uid}, which cannot enter "
                                f"{closed}: {box.INSTALL_HINT} (it binds the bot's files in)")

    def _bot_tmpdir(self, tmp_parent: str | None) -> str:
        if self.sandbox.sandboxed:
            return "/tmp"   # the box's own tmpfs, gone with the box
        uid = self.sandbox.uid
        parent = tmp_parent or tempfile.gettempdir()
        if uid is not None and box.unreachable([parent], parent, "", uid, itself=True):
            tmp_parent = "/tmp"   # a folder the box user cannot enter: the machine's instead
        self._tmpdir = tempfile.mkdtemp(prefix="referee-bot-", dir=tmp_parent)
        if uid is not None:
            os.chown(self._tmpdir, self.sandbox.uid, self.sandbox.uid)
        return self._tmpdir

    def _start(self, argv: list[str], cwd: str, tmp_parent: str | None,
               pass_fds: Sequence[int]) -> None:
        """Start the stamper, which starts the launcher, which becomes the bot."""
        env = bot_environment(self._bot_tmpdir(tmp_parent))
        status_read, status_write = os.pipe()   # the reaper's report of the bot's exit
        os.set_blocking(status_read, False)
        self._status_fd = status_read
        control_read, self._control = os.pipe()
        launcher = self.sandbox.command(argv, cwd, env.get("PATH", os.defpath), status_write)
        config = {"argv": launcher, "cwd": cwd, "join": self.sandbox.join_files(),
                  "rlimits": {"RLIMIT_CORE": 0}, "control": control_read,
                  "pass": [status_write, *pass_fds]}
        try:
            self.proc = subprocess.Popen(
                [sys.executable, "-I", "-S", str(STAMPER), json.dumps(config)],
                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                bufsize=0, cwd=cwd, env=env, close_fds=True,
                pass_fds=(control_read, status_write, *pass_fds))
        except OSError as error:
            raise BotStartError(f"cannot start the referee's stamper: "
                                f"{error.strerror or error}") from None
        finally:
            os.close(status_write)
            os.close(control_read)
        self._selector = selectors.DefaultSelector()
        self._out = self.proc.stdout.fileno()
        self._err = self.proc.stderr.fileno()
        self._selector.register(self._out, selectors.EVENT_READ)
        self._selector.register(self._err, selectors.EVENT_READ)

    def _await_start(self) -> None:
        """Read the launcher's start mark: the bot is exec'ing now. Output after it is the bot's."""
        deadline = time.perf_counter() + START_LIMIT_S
        mark = b""
        while not mark.startswith(START_MARK) and time.perf_counter() < deadline:
            for frame in self._poll(deadline - time.perf_counter(), before_start=True):
                if frame.kind != "O":
                    deadline = 0.0 if frame.kind in "EX" else deadline
                elif mark.startswith(START_MARK):
                    self._lines.take(frame.data, frame.at)   # the bot's, in the same batch
                else:
                    mark += frame.data
                    if mark.startswith(START_MARK) and len(mark) > len(START_MARK):
                        self._lines.take(mark[len(START_MARK):], frame.at)
        if not mark.startswith(START_MARK):
            said = self._stderr_tail.text().strip().splitlines()
            raise BotStartError(f"cannot start the bot: {said[-1] if said else 'no start mark'}")

    # -- Transport ---------------------------------------------------------

    def send(self, text: str) -> float:
        """The stamper writes the input; its stamp is the start of the first line's time."""
        data = text.encode()
        self._command(b"I" + len(data).to_bytes(4, "little") + data)
        deadline = time.perf_counter() + SYNC_WAIT_S
        while self._input_at is None and time.perf_counter() < deadline and self._alive():
            self._pump(deadline - time.perf_counter())
        at = self._input_at if self._input_at is not None else time.perf_counter()
        self.load.mark()
        return at

    def close_input(self) -> None:
        """End the bot's stdin (CodinGame never does; a start-up probe may)."""
        self._command(b"C")

    def read_line(self, deadline: float) -> Event:
        while not self._lines.events:
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                if not self._sync():   # the stamper has sent all it read by now
                    event = Event(EventKind.TIMEOUT, deadline)
                    self.load.mark()
                    return event
                continue
            self._pump(remaining)
        event = self._lines.events.popleft()
        self.load.mark()
        return event

    def wait_exit(self, deadline: float) -> int | None:
        while self._exit_status() is None:
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                return None
            self._pump(min(remaining, 0.01))
        return self._exit_status()

    def close(self) -> Usage:
        if self._closed:
            return self._usage
        self._closed = True
        status = None
        if getattr(self, "proc", None) is not None:
            self._end_bot()
            status = self._exit_status()
            status = -9 if status is None else status   # killed before its exit was seen
        peak = self.memory.finish() if hasattr(self, "memory") else None
        cpu_s = self.sandbox.cpu_seconds() if hasattr(self, "sandbox") else None
        self._release()
        self._usage = self._make_usage(status, peak, cpu_s)
        return self._usage

    @property
    def pid(self) -> int | None:
        """The launcher's pid (bubblewrap or the reaper), once it runs."""
        return self.sandbox.pid

    def __enter__(self) -> "BotProcess":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- reading -----------------------------------------------------------

    def _alive(self) -> bool:
        return self._out in self._selector.get_map()

    def _command(self, data: bytes) -> None:
        try:
            os.write(self._control, data)
        except OSError:
            pass   # the stamper is gone: its pipe tells the rest

    def _sync(self) -> bool:
        """Ask the stamper for every byte it read before now; True if lines came of it."""
        if not self._alive():
            return bool(self._lines.events)
        self._synced = False
        self._command(b"S")
        deadline = time.perf_counter() + SYNC_WAIT_S
        while not self._synced and self._alive() and time.perf_counter() < deadline:
            self._pump(deadline - time.perf_counter())
        return bool(self._lines.events)

    def _pump(self, timeout: float) -> None:
        for _ in self._poll(timeout):
            pass

    def _poll(self, timeout: float, before_start: bool = False):
        """Wait up to `timeout` for frames or stderr; take them; sample memory when due.
        Yields the frames read (the start mark is looked for in them)."""
        if self._stop is not None and self._stop.is_set():
            raise Interrupted()
        now = time.perf_counter()
        if not before_start and self.memory.due(now):
            self.memory.sample()
        ready = self._selector.select(max(0.0, min(timeout, MEMORY_SAMPLE_S)))
        for key, _ in ready:
            data = os.read(key.fd, READ_CHUNK_BYTES)
            if not data:
                self._selector.unregister(key.fd)
            if key.fd == self._err:
                self._stderr_tail.take(data)
                continue
            for frame in self._frames.feed(data):
                self._take(frame, before_start)
                yield frame

    def _take(self, frame, before_start: bool) -> None:
        if frame.kind == "P":
            self.sandbox.started(frame.size)
        elif frame.kind == "R":
            self._stamps = "real-time" if frame.size else "normal priority"
        elif frame.kind == "I":
            self._input_at = frame.at
        elif frame.kind == "Y":
            self._synced = True
        elif frame.kind == "O" and not before_start:
            self._lines.take(frame.data, frame.at)
        elif frame.kind == "E":
            self._lines.end(frame.at)
        elif frame.kind == "X":
            self._exit = frame.data.decode()

    # -- ending ------------------------------------------------------------

    def _exit_status(self) -> int | None:
        """The bot's exit status once known: the reaper's report, or the box's exit."""
        if self.sandbox.relays_status:
            return self._read_status()
        if self._exit is None:
            return None
        return self.sandbox.exit_status(int(self._exit.split()[0]))

    def _read_status(self) -> int | None:
        """The reaper's line `status user_s system_s maxrss_kib`, once the bot has exited."""
        try:
            self._status_text += os.read(self._status_fd, 256)
        except (BlockingIOError, OSError):
            pass
        if not self._status_text.endswith(b"\n"):
            return None
        return int(self._status_text.split()[0])

    def _end_bot(self) -> None:
        """Kill whatever is left of the bot and take its last words."""
        self.memory.sample()   # the last look at its memory, for the peak
        self._pump(0)          # an exit already reported
        if self._exit_status() is None:
            self._stopped = True   # the bot runs on: its exit is the referee's doing
        self.sandbox.kill()
        self._command(b"K")
        deadline = time.perf_counter() + END_WAIT_S
        while self._exit is None and self._alive() and time.perf_counter() < deadline:
            self._pump(deadline - time.perf_counter())
        os.close(self._control)   # the stamper leaves at this end of file
        try:
            self.proc.wait(timeout=END_WAIT_S)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self._read_status()
        self._drain_stderr()
        self._selector.close()
        for pipe in (self.proc.stdout, self.proc.stderr):
            pipe.close()

    def _drain_stderr(self) -> None:
        """Read what a dead bot left in its stderr pipe (never blocks: writers are gone)."""
        if self._err not in self._selector.get_map():
            return
        os.set_blocking(self._err, False)
        try:
            for _ in range(STDERR_DRAIN_READS):   # bounded: an escaped child may still write
                data = os.read(self._err, READ_CHUNK_BYTES)
                if not data:
                    break
                self._stderr_tail.take(data)
        except BlockingIOError:
            pass

    def _release(self) -> None:
        if hasattr(self, "sandbox"):
            if not self.sandbox.sandboxed and self.sandbox.uid is not None:
                box.remove_left_by(self.sandbox.uid)
            self.sandbox.release()
        if hasattr(self, "_status_fd"):
            os.close(self._status_fd)
        if self._tmpdir:
            # Not shutil.rmtree: it recurses, and a bot's nest of folders must not cost the match.
            remove_tree(self._tmpdir)

    def _make_usage(self, status: int | None, peak: int | None,
                    cgroup_cpu_s: float | None) -> Usage:
        cpu_s, maxrss = _launcher_usage(self._status_text.decode() or self._exit)
        tail = getattr(self, "_stderr_tail", StderrTail())
        memory = getattr(self, "memory", None)
        return Usage(
            cpu_s=cgroup_cpu_s or cpu_s,
            peak_rss_bytes=peak or maxrss,
            exit_status=status,
            stderr_tail=tail.text(),
            stderr_bytes=tail.bytes,
            over_memory=memory.over if memory else None,
            stopped=getattr(self, "_stopped", False) or bool(memory and memory.over),
            box=_box_text(self.sandbox) if hasattr(self, "sandbox") else "",
            memory_count=memory.mode if memory else "",
            stamps=getattr(self, "_stamps", ""),
            busy_cpus=self.load.last() if hasattr(self, "load") else None)


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
