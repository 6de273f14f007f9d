"""The bot's process: start it boxed, hand it the input, read its stamped lines, end it.

Like CodinGame: the bot gets the puzzle on stdin and stdin then stays OPEN until the match
ends (a bot that reads to EOF hangs and times out); PYTHONUNBUFFERED is not passed on (an
unflushed bot is caught). Its TMPDIR is the box's own /tmp, or, unboxed, a fresh folder
removed afterwards.

A bot is made in two steps, each whole or undone: its `Enclosure` (the sandbox, the watch
on its memory, its TMPDIR, the reaper's report) and the stamper that starts its launcher
there; a `BotProcess` exists only once both are made. The parts, each in its own home:
  - the box and the kill: referee/box/sandbox.py (bubblewrap, the reaper),
    referee/box/cgroups.py (the kernel's count of memory, processes and CPU) and
    referee/box/seccomp.py (the box's system-call filter);
  - the time of every line: a stamping process (referee/box/stamper.py), the bot's parent,
    which nothing here can delay; referee/box/stamper_client.py is the referee's end of it, and
    referee/box/lines.py turns its frames into lines. The referee reads no pipe of the
    bot's, and waits for the stamper only as long as a limit allows;
  - memory: the kernel's cap where a cgroup counts it, else MemoryWatch samples it;
  - where the bot's time went before a late line: referee/box/lateness.py;
  - what the kernel keeps for a box user past its processes: referee/box/keyrings.py.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
import threading
import time
from typing import Callable, Sequence

from referee.box import bubblewrap, keyrings, proctree, seccomp
from referee.judge.board import Board
from referee.box.sandbox import Mode, Sandbox, choose_mode, memory_mode, open_sandbox
from referee.box.footprint import MemoryMeter
from referee.box.heaps import runtime_environment
from referee.judge.limits import (FIRST_LINE_LIMIT_S, KILL_GRACE_S, MEMORY_LIMIT_BYTES,
                                  MEMORY_SAMPLE_S, START_LIMIT_S, Limits)
from referee.box.lateness import LoadWindow
from referee.judge.match import Event, EventKind, play_match
from referee.box.reaper import READY_MARK, START_MARK, remove_tree
from referee.judge.result import MatchResult, Usage
from referee.box.stamper_client import StamperLink
from referee.terminal import size_text

# Variables passed to the bot; everything else (PYTHONUNBUFFERED, PYTHONPATH, ...) is dropped.
ENV_KEPT = ("PATH", "HOME", "LANG", "LC_ALL", "LC_CTYPE", "USER", "LOGNAME")
TICK_S = 1 / os.sysconf("SC_CLK_TCK")
# The waits for the stamper: it answers at once, whatever the bot does (its threads read
# the bot's pipes, never the one that answers), so each wait is short and bounded.
INPUT_WAIT_S = FIRST_LINE_LIMIT_S   # for the input's stamp; past it the clock runs from the asking
ANSWER_WAIT_S = KILL_GRACE_S        # for a sync at a deadline (a line read later came later, and
                                    # is late), or for the stderr asked for at a verdict
END_WAIT_S = 0.5                    # for the launcher's exit report, then for the stamper to leave
STATUS_BYTES = 256                  # the reaper's one line; more is not its
STATUS = re.compile(r"(-?\d+) (\d+(?:\.\d+)?(?:e-?\d+)?) (\d+(?:\.\d+)?(?:e-?\d+)?) (\d+)\n")


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


class Enclosure:
    """What one bot runs in, apart from its launcher: its sandbox (box or reaper, cgroup,
    box user), the watch on its memory and the load around its lines, its TMPDIR
    (unboxed), the reaper's report of its exit (the unboxed modes). Made whole, or what was
    made is released before the error goes up; released once, when the bot is gone."""

    def __init__(self, argv: list[str], cwd: str, mode: Mode | None,
                 memory_limit_bytes: int | None, tmp_parent: str | None):
        try:
            sandbox = open_sandbox(mode or choose_mode())
        except OSError as error:
            raise BotStartError(f"cannot contain the bot: {error.strerror or error}") from None
        tmpdir, status = None, None
        try:
            if sandbox.uid is not None:   # keys a killed referee's bot left on this uid
                keyrings.clear(sandbox.uid)
            _check_reachable(sandbox, argv, cwd)
            tmpdir = _bot_tmpdir(sandbox, tmp_parent)
            status = ReaperStatus() if sandbox.relays_status else None
            memory = MemoryWatch(sandbox, memory_limit_bytes)
        except BaseException:
            _release(sandbox, tmpdir, status)
            raise
        self.sandbox, self.tmpdir, self.status, self.memory = sandbox, tmpdir, status, memory
        self.link: StamperLink | None = None   # once launched: the stamper's delay is the machine's
        self.load = LoadWindow(sandbox.cpu_seconds, sandbox.processes,
                               lambda: self.link and self.link.stamper_pid)
        self.filtered = False   # the box's system-call filter was installed

    def launch(self, argv: list[str], cwd: str, pass_fds: Sequence[int],
               idle: bool) -> StamperLink:
        """Start the stamper, which starts the launcher, which becomes the bot. The
        launcher gets the reaper's status pipe (unboxed) or the filter (boxed), by number."""
        env = bot_environment(self.tmpdir or "/tmp", self.memory.cap)   # the box's own /tmp
        status_fd = self.status.write_end if self.status else None
        own = [] if status_fd is None else [status_fd]   # closed here once passed on
        try:
            filter_fd = self._filter() if self.sandbox.sandboxed else None
            own += [] if filter_fd is None else [filter_fd]
            launcher = self.sandbox.command(argv, cwd, env.get("PATH", os.defpath),
                                            status_fd, filter_fd)
            self.sandbox.idle_cpu(idle)   # a box made ahead weighs nothing until its match
            try:
                self.link = StamperLink(launcher, cwd, env, self.sandbox.join_files(),
                                        (*own, *pass_fds), idle=idle)
                return self.link
            except OSError as error:
                raise BotStartError(f"cannot start the referee's stamper: "
                                    f"{error.strerror or error}") from None
        finally:
            for fd in own:   # the launcher has them now (or never will)
                os.close(fd)
            if self.status:
                self.status.write_end = None

    def _filter(self) -> int | None:
        """The system-call filter's descriptor, read once by bubblewrap; None on a machine
        with no filter (the box is worth more than the filter: stamps and keys hold
        without it, see docs/CONTAINMENT.md; the run's first line says so)."""
        try:
            fd = seccomp.program_fd()
        except seccomp.UnknownMachine:
            return None
        self.filtered = True
        return fd

    def exit_status(self, link: StamperLink) -> int | None:
        """The bot's exit status once known: the reaper's report, or the box's exit."""
        if self.status:
            status = self.status.read()
            if status is None and link.exit_text is not None:
                return -9   # the reaper itself was killed (the kernel's OOM killer): its bot too
            return status
        if link.exit_text is None:
            return None
        return self.sandbox.exit_status(int(link.exit_text.split()[0]))

    def box_text(self) -> str:
        uid = self.sandbox.uid
        who = f" as uid {uid}" if uid is not None else ""
        kind = "sandboxed" if self.sandbox.sandboxed else "not sandboxed"
        bare = ", no system-call filter" if self.sandbox.sandboxed and not self.filtered else ""
        return f"{kind}: {self.sandbox.mode.value}{who}{bare}"

    def release(self) -> None:
        self.load.close()
        _release(self.sandbox, self.tmpdir, self.status)


def _release(sandbox: Sandbox, tmpdir: str | None, status: "ReaperStatus | None") -> None:
    """Free what a bot held, its processes gone: what its box user left on the host
    (unboxed), in the kernel's keyrings, its box user, cgroup and TMPDIR."""
    uid = sandbox.uid
    if uid is not None:
        if not sandbox.sandboxed:
            bubblewrap.remove_left_by(uid)
        keyrings.clear(uid)   # before the uid serves another match
    sandbox.release()
    if status:
        status.close()
    if tmpdir:
        # Not shutil.rmtree: it recurses, and a bot's nest of folders must not cost the match.
        remove_tree(tmpdir)


def _check_reachable(sandbox: Sandbox, argv: list[str], cwd: str) -> None:
    """Unboxed but dropped to a box user, the bot must reach its files on its own."""
    if sandbox.sandboxed or sandbox.uid is None:
        return
    closed = bubblewrap.unreachable(argv, cwd, os.environ.get("PATH", os.defpath), sandbox.uid)
    if closed:
        raise BotStartError(f"the bot runs as uid {sandbox.uid}, which cannot enter "
                            f"{closed}: {bubblewrap.INSTALL_HINT} (it binds the bot's files in)")


def _bot_tmpdir(sandbox: Sandbox, tmp_parent: str | None) -> str | None:
    """Unboxed, a fresh folder of the box user's (None in a box: its /tmp is its own)."""
    if sandbox.sandboxed:
        return None
    uid = sandbox.uid
    parent = tmp_parent or tempfile.gettempdir()
    if uid is not None and bubblewrap.unreachable([parent], parent, "", uid, itself=True):
        tmp_parent = "/tmp"   # a folder the box user cannot enter: the machine's instead
    tmpdir = tempfile.mkdtemp(prefix="referee-bot-", dir=tmp_parent)
    if uid is not None:
        os.chown(tmpdir, uid, uid)
    return tmpdir


class BotProcess:
    """A running bot; implements the match's Transport.

    Made `held`, everything up to the bot's exec is ready (its cgroup, its box, the
    stamper, the launcher waiting at its gate) and the bot starts only at `begin`: the
    next match's box can be made while this one plays. Made at all, it is whole: the
    enclosure and the stamper both run (each a step that raises, undone, if it fails)."""

    def __init__(self, argv: Sequence[str], cwd: str | None = None,
                 memory_limit_bytes: int | None = MEMORY_LIMIT_BYTES,
                 tmp_parent: str | None = None, mode: Mode | None = None,
                 stop: threading.Event | None = None, pass_fds: Sequence[int] = (),
                 held: bool = False, finisher: Callable[[Callable], None] | None = None,
                 idle: bool = False):
        argv, cwd = list(argv), os.path.abspath(cwd or os.getcwd())
        _check_program(argv, cwd)
        # made ahead, at idle priority until begin; only root can put it back after
        idle = idle and held and os.geteuid() == 0
        enclosure = Enclosure(argv, cwd, mode, memory_limit_bytes, tmp_parent)
        try:
            link = enclosure.launch(argv, cwd, pass_fds, idle)
        except BaseException:
            enclosure.release()
            raise
        self._enclosure, self.sandbox, self.link = enclosure, enclosure.sandbox, link
        self._idle = idle   # the launcher waits at idle priority (until begin)
        self._stop = stop   # once set, the match ends at the next read: the referee is going
        self._finisher = finisher   # runs the end of a close after the verdict (referee/box/crew.py)
        self._cpu_before: float | None = None
        self._closed = False
        self._stopped = False              # the referee killed the bot before it exited
        self._usage = Usage()
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
            self._idle = False
            self.link.open_gate()
            self._await_mark(START_MARK)
        except BaseException:
            self.close()
            raise

    # -- starting ----------------------------------------------------------

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
        the start mark: the bot is exec'ing now). Without it, the bot is ended, and what
        its launcher said on stderr (the stamper's last frame) is the error."""
        seen = self.link.read_to_mark(mark, START_LIMIT_S,
                                      lambda timeout: self._pump(timeout, started=False))
        if self.link.launcher_pid:
            self.sandbox.started(self.link.launcher_pid)
        if not seen:
            said = self.close().stderr_tail.strip().splitlines()
            raise BotStartError(f"cannot start the bot: {said[-1] if said else 'no start mark'}")

    # -- Transport ---------------------------------------------------------

    def send(self, text: str) -> float:
        """The stamper writes the input; its stamp is the start of the first line's time."""
        at = self.link.send_input(text.encode(), self._pump, INPUT_WAIT_S)
        self._enclosure.load.mark()
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
            self.link.sync(self._pump, ANSWER_WAIT_S)   # what the stamper read by now
            if not events:
                self._enclosure.load.mark()
                return Event(EventKind.TIMEOUT, deadline)
        self._enclosure.load.mark()
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
        try:
            if behind:
                self._stopped = True
                self._enclosure.memory.sample()   # the last look at its memory, where sampled
                self.sandbox.kill_at_once()
                self.link.take_stderr(ANSWER_WAIT_S)   # its stderr as it stands, for the result
                status = -9
            else:
                self._end_bot()
                status = self._exit_status()
                status = -9 if status is None else status   # killed before its exit was seen
            self._usage = _usage(self._enclosure, self.link, status, self._stopped,
                                 self._bot_cpu())   # before the finisher runs
        finally:   # whatever failed above, what the bot held is freed
            if behind:
                self._finisher(self._finish_behind)
            else:
                self._enclosure.release()
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
        memory = self._enclosure.memory
        if started and memory.due(time.perf_counter()):
            memory.sample()
        if started:   # the bot's threads counted meanwhile
            timeout = min(timeout, self._enclosure.load.tick())
        return self.link.poll(min(timeout, MEMORY_SAMPLE_S), started)

    def _exit_status(self) -> int | None:
        return self._enclosure.exit_status(self.link)

    def _bot_cpu(self) -> float | None:
        """The cgroup's CPU time since the gate opened (the box's making is the referee's)."""
        total = self.sandbox.cpu_seconds()
        if total is None or self._cpu_before is None:
            return total
        return max(0.0, total - self._cpu_before)

    def _box_running(self) -> bool:
        """A box whose bot has not exited (a box's processes all die with its launcher)."""
        if not self.sandbox.sandboxed or not self.link.alive:
            return False
        self.link.poll(0)
        return self._exit_status() is None

    def _finish_behind(self) -> None:
        """What close leaves to the finisher: wait for the box's end, then clean up."""
        try:
            self._end_bot()
        finally:
            self._enclosure.release()

    def _end_bot(self) -> None:
        """Kill whatever is left of the bot (the holder of any lock on its pipes with it)
        and take the stamper's last frames: the launcher's exit, the bot's stderr."""
        def pump(timeout: float) -> list:   # never Interrupted: this is how a match ends
            return self.link.poll(min(timeout, MEMORY_SAMPLE_S))

        if self._idle and self.link.launcher_pid:   # a spare ended unplayed: let it end now
            try:
                proctree.set_normal_policy(self.link.launcher_pid)
            except OSError:
                pass   # gone, or going
        self._enclosure.memory.sample()   # the last look at its memory, for the peak
        pump(0)                # an exit already reported
        if self._exit_status() is None:
            self._stopped = True   # the bot runs on: its exit is the referee's doing
        self.sandbox.kill()
        self.link.kill(pump, END_WAIT_S)
        self.link.close(END_WAIT_S)
        self._exit_status()    # the reaper's report, read once more


def _usage(enclosure: Enclosure, link: StamperLink, status: int, stopped: bool,
           cgroup_cpu_s: float | None) -> Usage:
    """What the bot used and how it ended, as the match's result shows it."""
    memory = enclosure.memory
    peak = memory.finish()
    report = enclosure.status.text if enclosure.status else ""
    cpu_s, maxrss = _launcher_usage(report or link.exit_text)
    return Usage(
        cpu_s=cgroup_cpu_s or max(filter(None, (cpu_s, memory.cpu_seen)), default=None),
        peak_rss_bytes=peak or maxrss,
        exit_status=status,
        stderr_tail=link.stderr.text(),
        stderr_bytes=link.stderr.bytes,
        over_memory=memory.over,
        stopped=stopped or bool(memory.over),
        box=enclosure.box_text(),
        memory_count=memory.mode,
        stamps="real-time" if link.real_time else "normal priority",
        lateness=enclosure.load.last())


class ReaperStatus:
    """The reaper's report of the bot's exit (unboxed modes): `status user_s system_s
    maxrss_kib` on a pipe, once the bot has exited. Only the reaper holds the write end
    (the bot inherits nothing of it); a line of another shape is no report."""

    def __init__(self):
        self._fd, self.write_end = os.pipe()   # the write end: for the launcher, then closed
        os.set_blocking(self._fd, False)
        self.text = ""
        self._data = b""

    def read(self) -> int | None:
        if self._fd is not None and b"\n" not in self._data:
            try:
                self._data = (self._data + os.read(self._fd, STATUS_BYTES))[:STATUS_BYTES]
            except OSError:
                pass
        found = STATUS.match(self._data.decode("ascii", errors="replace"))
        if found is None:
            return None
        self.text = found.group(0)
        return int(found.group(1))

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
