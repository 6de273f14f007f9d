"""How a bot is kept contained: every process it starts dies with its match.

Three modes, the best the machine allows chosen first (`choose_mode`), or one forced with
`run --contain MODE` or REFEREE_CONTAIN=MODE:

  cgroup     a cgroup v2 per match, created under the referee's own cgroup. The bot joins
             it before its first instruction; the kernel keeps every descendant in it, and
             `cgroup.kill` kills them all at once, whatever they do. Memory and pids limits
             are set where those controllers are enabled. Needs a writable cgroup v2.
  pidns      the bot runs under the reaper (referee/reaper.py) as init of a new PID
             namespace (with a user namespace when not root). As that init exits, the
             kernel kills and reaps everything in the namespace.
  subreaper  the bot runs under the reaper, which is child subreaper of everything the bot
             starts and, told to stop, kills and reaps it all in a loop cheaper than a fork.
             Works on any Linux; it relies on the reaper, not on the kernel, so a bot that
             could kill its own reaper (it runs as the same user) could escape.

No mode limits the bot's address space: a JVM or .NET runtime reserves far more than it
uses, and CodinGame's 768 MB is memory used. The cap counts the memory of all the bot's
processes, every page once: in mode cgroup with the memory controller, the kernel counts
and enforces it (memory.max); elsewhere the runner samples the proportional set size and
shared memory of the bot's processes (referee/footprint.py). A launcher writes
START_MARK on the bot's stdout just before the exec, so start-up of the launcher never
counts against the bot's time.
"""

from __future__ import annotations

import atexit
import ctypes
import enum
import functools
import itertools
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from referee import proctree
from referee.reaper import START_MARK

ENV_VAR = "REFEREE_CONTAIN"
KILL_WAIT_S = 1.0            # all processes of a bot dead and reaped within this
POLL_S = 0.001
PIDS_MAX = 1024              # tasks (threads count) a bot may hold, where pids is enabled
REAPER = Path(__file__).with_name("reaper.py")
# The cgroup launcher: join the match's cgroup, mark, become the bot.
CGROUP_LAUNCHER = ('echo 0 > "$1/cgroup.procs" && shift && '
                   f'printf "{START_MARK.decode().strip()}\\n" && exec "$@"')
PR_SET_CHILD_SUBREAPER = 36    # from <linux/prctl.h>


class Mode(enum.Enum):
    CGROUP = "cgroup"
    PIDNS = "pidns"
    SUBREAPER = "subreaper"


MODES = tuple(mode.value for mode in Mode)
GUARANTEES = {
    Mode.CGROUP: "kill by cgroup: the kernel holds every process of the bot",
    Mode.PIDNS: "PID namespace: the kernel kills the whole namespace with its init",
    Mode.SUBREAPER: "subreaper: a reaper adopts, kills and reaps every process of the bot",
}


class ContainmentError(Exception):
    """A forced mode is not available here."""


def choose_mode(requested: str | None = None) -> Mode:
    """The requested mode (default: REFEREE_CONTAIN, else auto: the best available)."""
    requested = requested or os.environ.get(ENV_VAR) or "auto"
    if requested == "auto":
        if cgroup_parent() is not None:
            return Mode.CGROUP
        return Mode.PIDNS if pidns_available() else Mode.SUBREAPER
    try:
        mode = Mode(requested)
    except ValueError:
        raise ContainmentError(f"unknown containment mode {requested!r}; "
                               f"choose auto, {', '.join(MODES)}") from None
    if mode is Mode.CGROUP and cgroup_parent() is None:
        raise ContainmentError("cgroup containment needs a writable cgroup v2 with cgroup.kill")
    if mode is Mode.PIDNS and not pidns_available():
        raise ContainmentError("pidns containment needs PID namespaces (root, or user namespaces)")
    return mode


def open_sandbox(mode: Mode) -> "Sandbox":
    return {Mode.CGROUP: CgroupSandbox, Mode.PIDNS: PidnsSandbox,
            Mode.SUBREAPER: ReaperSandbox}[mode]()


class Sandbox:
    """One match's containment: the command that starts the bot, its processes, the kill."""

    mode: Mode
    relays_status = True       # the bot's exit status comes through the reaper's status pipe

    def command(self, argv: list[str], status_fd: int) -> list[str]:
        raise NotImplementedError

    def limit_memory(self, cap_bytes: int | None) -> bool:
        """Have the kernel count and cap the bot's memory; False where it cannot here."""
        return False

    def memory_used(self) -> int | None:
        """The bot's memory as the kernel counts it (None where it does not)."""
        return None

    def started(self, pid: int) -> None:
        """The launcher runs as `pid` (the referee's child)."""
        self.pid = pid

    def processes(self) -> list[int]:
        """The bot's live processes."""
        raise NotImplementedError

    def kill(self) -> None:
        """Kill every process of the bot; return once all are dead (bounded wait)."""
        raise NotImplementedError

    def oom_kills(self) -> int:
        """Processes the kernel killed at the memory limit (0 where it sets none)."""
        return 0

    def release(self) -> None:
        """Free what the sandbox holds once the launcher is reaped."""


class ReaperSandbox(Sandbox):
    """Mode subreaper: the reaper is the referee's child; the bot and all it starts below it."""

    mode = Mode.SUBREAPER

    def command(self, argv, status_fd):
        # "": no address-space limit for the bot
        return [sys.executable, "-I", "-S", str(REAPER), str(status_fd), "", self.mode.value,
                *argv]

    def processes(self) -> list[int]:
        return proctree.descendants(self.pid)

    def kill(self) -> None:
        _signal(self.pid, signal.SIGTERM)   # the reaper kills and reaps the bot's tree, then exits
        if not _wait_gone(self.pid, KILL_WAIT_S):
            _signal(self.pid, signal.SIGKILL)   # a reaper that cannot stop (never seen)
            for pid in proctree.descendants(self.pid):
                _signal(pid, signal.SIGKILL)


class PidnsSandbox(ReaperSandbox):
    """Mode pidns: the reaper (the referee's child) -> its fork, init of a new PID namespace
    -> the bot."""

    mode = Mode.PIDNS

    def processes(self) -> list[int]:
        return proctree.descendants(self.pid)[1:]   # [0] is init, found first

    def kill(self) -> None:
        # SIGTERM reaches init through the reaper; init kills everything in the namespace
        # with kill(-1) and exits, and the kernel kills whatever is left. SIGKILL on init if
        # it does not go in time: the kernel still empties the namespace.
        inits = proctree.children(self.pid)
        _signal(self.pid, signal.SIGTERM)
        if not _wait_gone(self.pid, KILL_WAIT_S / 2):
            for init in inits:
                _signal(init, signal.SIGKILL)
            if not _wait_gone(self.pid, KILL_WAIT_S / 2):
                _signal(self.pid, signal.SIGKILL)


class CgroupSandbox(Sandbox):
    """Mode cgroup: the bot itself is the referee's child, in a cgroup of its own."""

    mode = Mode.CGROUP
    relays_status = False
    _numbers = itertools.count(1)

    def __init__(self):
        self.path = cgroup_parent() / f"match-{next(self._numbers)}"
        self.path.mkdir()
        self._limit("pids.max", PIDS_MAX)
        self._seen: set[int] = set()      # every pid seen in the cgroup: reaped at release

    def _limit(self, name: str, value: int) -> bool:
        try:
            (self.path / name).write_text(f"{value}\n")
        except OSError:
            return False   # controller not enabled here
        return True

    def command(self, argv, status_fd):
        return ["/bin/sh", "-c", CGROUP_LAUNCHER, "referee-bot", str(self.path), *argv]

    def limit_memory(self, cap_bytes):
        self._memory = (cap_bytes is not None and self._limit("memory.max", cap_bytes)
                        and (self.path / "memory.current").exists())
        if self._memory:
            self._limit("memory.swap.max", 0)   # swapped pages are memory used too
        return self._memory

    def memory_used(self):
        """memory.current less the page cache of files read (the kernel reclaims that
        before it would pass memory.max), shared memory (shm files, memfds) kept in."""
        if not getattr(self, "_memory", False):
            return None
        try:
            current = int((self.path / "memory.current").read_text())
            stats = dict(line.split() for line in (self.path / "memory.stat").read_text()
                         .splitlines())
        except (OSError, ValueError):
            return None
        return max(0, current - int(stats.get("file", 0)) + int(stats.get("shmem", 0)))

    def processes(self) -> list[int]:
        pids = _cgroup_pids(self.path)
        self._seen.update(pids)
        return pids

    def kill(self) -> None:
        self.processes()
        _kill_cgroup(self.path, KILL_WAIT_S)

    def oom_kills(self) -> int:
        try:
            for line in (self.path / "memory.events").read_text().splitlines():
                key, _, value = line.partition(" ")
                if key == "oom_kill":
                    return int(value)
        except OSError:
            pass
        return 0

    def release(self) -> None:
        self.kill()
        bot = getattr(self, "pid", None)
        _reap_orphans(self.path, self._seen - {bot}, bot, KILL_WAIT_S)
        try:
            self.path.rmdir()
        except OSError:
            pass


def _signal(pid: int, signum: int) -> None:
    try:
        os.kill(pid, signum)
    except (ProcessLookupError, PermissionError):
        pass


def _wait_gone(pid: int, timeout_s: float) -> bool:
    """Wait until our child `pid` has exited (without reaping it); False on timeout."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            if os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None:
                return True
        except ChildProcessError:
            return True
        time.sleep(POLL_S)
    return False


# -- cgroup v2 ----------------------------------------------------------------------------

def _cgroup_pids(path: Path) -> list[int]:
    try:
        return [int(pid) for pid in (path / "cgroup.procs").read_text().split()]
    except OSError:
        return []


def _kill_cgroup(path: Path, timeout_s: float) -> bool:
    """cgroup.kill, then wait until the cgroup is empty; True if it emptied in time."""
    try:
        (path / "cgroup.kill").write_text("1\n")
    except OSError:
        return True    # already removed
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            if "populated 0" in (path / "cgroup.events").read_text():
                return True
        except OSError:
            return True
        time.sleep(POLL_S)
    return False


def _in_cgroup(pid: int, path: Path) -> bool:
    """`pid` (alive or a zombie) is in the cgroup `path`."""
    try:
        line = Path(f"/proc/{pid}/cgroup").read_text().splitlines()[-1]
    except (OSError, IndexError):
        return False
    return line.startswith("0::") and line.endswith(f"/{path.parent.name}/{path.name}")


def _reap_orphans(path: Path, seen: set[int], bot: int | None, timeout_s: float) -> None:
    """Reap the match's processes that outlived their parent. The referee is their child
    subreaper, so once killed they come to it as zombies: none is left when the match
    returns. Waits while a process seen in the cgroup has not yet been handed over."""
    deadline = time.monotonic() + timeout_s
    while True:
        waiting = False
        for pid in proctree.children(os.getpid()):
            if pid == bot or not _in_cgroup(pid, path):
                continue   # not a process of this match (the bot itself is reaped by its runner)
            try:
                waiting |= os.waitpid(pid, os.WNOHANG)[0] == 0
            except ChildProcessError:
                pass
        waiting = waiting or any(_in_cgroup(pid, path) for pid in seen)
        if not waiting or time.monotonic() >= deadline:
            return
        time.sleep(POLL_S)


def _cgroup_root() -> Path | None:
    """The referee's own cgroup v2 directory, from /proc/self/mountinfo and /proc/self/cgroup."""
    try:
        mount = next(line.split()[4] for line in Path("/proc/self/mountinfo").read_text().splitlines()
                     if line.split(" - ")[1].split()[0] == "cgroup2")
        own = next(line[3:] for line in Path("/proc/self/cgroup").read_text().splitlines()
                   if line.startswith("0::"))
    except (OSError, StopIteration, IndexError):
        return None
    return Path(mount + own.rstrip("/")) if own != "/" else Path(mount)


@functools.cache
def cgroup_parent() -> Path | None:
    """This referee's cgroup for its matches (created once), or None where not allowed."""
    root = _cgroup_root()
    if root is None or not (root / "cgroup.procs").exists():
        return None
    _sweep_stale(root)
    parent = root / f"referee-{os.getpid()}"
    try:
        parent.mkdir(exist_ok=True)
    except OSError:
        return None
    if not (parent / "cgroup.kill").exists() or not _can_join(parent):
        _remove(parent)
        return None
    for controllers in (root, parent):   # memory and pids limits where they can be had
        for name in ("memory", "pids"):
            try:
                (controllers / "cgroup.subtree_control").write_text(f"+{name}\n")
            except OSError:
                pass   # not available, or the cgroup holds processes: sampling still caps
    atexit.register(_remove, parent)
    # orphans of the bots come to the referee, which reaps them (see _reap_orphans)
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    return parent


def _can_join(parent: Path) -> bool:
    """A shell can move itself into a child cgroup of `parent` (permissions, delegation)."""
    probe = parent / "probe"
    try:
        probe.mkdir(exist_ok=True)
        joined = subprocess.run(["/bin/sh", "-c", 'echo 0 > "$1/cgroup.procs"', "sh", str(probe)],
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, timeout=10).returncode == 0
    except (OSError, subprocess.SubprocessError):
        joined = False
    _remove(probe)
    return joined


def _remove(path: Path) -> None:
    """Kill what is left in a cgroup tree and remove it, deepest first."""
    if not path.is_dir():
        return
    for child in [p for p in path.iterdir() if p.is_dir()]:
        _remove(child)
    _kill_cgroup(path, KILL_WAIT_S)
    try:
        path.rmdir()
    except OSError:
        pass


def _sweep_stale(root: Path) -> None:
    """Remove the cgroups of referees that died without cleaning up (and kill what is in them)."""
    try:
        stale = [p for p in root.glob("referee-*") if p.name[8:].isdigit()
                 and not Path(f"/proc/{p.name[8:]}").exists()]
    except OSError:
        return
    for path in stale:
        _remove(path)


# -- PID namespaces -------------------------------------------------------------------------

@functools.cache
def pidns_available() -> bool:
    """The reaper can make a PID namespace here (root, or user namespaces allowed)."""
    try:
        return subprocess.run([sys.executable, "-I", "-S", str(REAPER), "--probe-pidns"],
                              stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, timeout=10).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False
