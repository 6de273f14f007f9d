"""How a bot is kept contained: its box, its cgroup, and every process dead with its match.

Three modes, the best the machine allows chosen first (`choose_mode`), or one forced with
`run --contain MODE` or REFEREE_CONTAIN=MODE:

  bwrap      the box (referee/box/bubblewrap.py): bubblewrap, only what the bot needs of the
             host (referee/box/view.py), read-only; private /tmp and /dev/shm, no network,
             its own PID and IPC namespaces, and as root a real unprivileged user. The bot
             dies with its launcher, and so with the referee.
  pidns      not sandboxed: the bot runs under the reaper (referee/box/reaper.py) as init of a
             new PID namespace; as that init exits, the kernel kills everything in it.
  subreaper  not sandboxed: the reaper is child subreaper of everything the bot starts and,
             told to stop, kills and reaps it all.
In every mode a referee run as root drops the bot to a box user of its own
(BOX_UID_BASE + slot), so the bot never holds the referee's privileges.

Beside the mode, a cgroup per match (referee/box/cgroups.py, v1 or v2) wherever the kernel
gives one: the kernel counts and caps the bot's memory and processes, gives each match the
same share of the CPU and its cap, and its kill is the last word. Where there is none, the
runner samples memory (referee/box/footprint.py), and the first line of a run says so.

No mode limits the bot's address space: a JVM reserves far more than it uses, and
CodinGame's 768 MB is memory used. A launcher writes START_MARK on the bot's stdout just
before the exec, so the box's own start never counts against the bot's time.
"""

from __future__ import annotations

import enum
import functools
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from referee.box import bubblewrap, leftovers, proctree, seccomp
from referee.box.cgroups import MatchGroup, parents, shares_cpu
from referee.box.reaper import READY_MARK, START_MARK

ENV_VAR = "REFEREE_CONTAIN"
KILL_WAIT_S = 1.0            # all processes of a bot dead within this
POLL_S = 0.001
REAPER = Path(__file__).with_name("reaper.py")


class Mode(enum.Enum):
    BWRAP = "bwrap"
    PIDNS = "pidns"
    SUBREAPER = "subreaper"


MODES = tuple(mode.value for mode in Mode)
GUARANTEES = {
    Mode.BWRAP: "sandboxed: bubblewrap box, only what the bot needs, read-only, no network, "
                "own PID and IPC",
    Mode.PIDNS: "not sandboxed: PID namespace, the kernel kills the whole namespace",
    Mode.SUBREAPER: "not sandboxed: a reaper adopts, kills and reaps every process",
}


class ContainmentError(Exception):
    """A forced mode is not available here."""


def choose_mode(requested: str | None = None) -> Mode:
    """The requested mode (default: REFEREE_CONTAIN, else auto: the best available)."""
    requested = requested or os.environ.get(ENV_VAR) or "auto"
    if requested == "auto":
        if bubblewrap.bwrap() is not None:
            return Mode.BWRAP
        return Mode.PIDNS if pidns_available() else Mode.SUBREAPER
    try:
        mode = Mode(requested)
    except ValueError:
        raise ContainmentError(f"unknown containment mode {requested!r}; "
                               f"choose auto, {', '.join(MODES)}") from None
    if mode is Mode.BWRAP and bubblewrap.bwrap() is None:
        raise ContainmentError(f"bwrap containment needs bubblewrap: {bubblewrap.INSTALL_HINT}")
    if mode is Mode.PIDNS and not pidns_available():
        raise ContainmentError("pidns containment needs PID namespaces (root, or user namespaces)")
    return mode


def describe(mode: Mode) -> str:
    """A few words for the first line of a run: the box, whether the kernel counts each
    match's memory and gives it its share of the CPU (the rest: each match's JSON)."""
    kind = "sandboxed" if mode is Mode.BWRAP else "not sandboxed"
    if mode is Mode.BWRAP and seccomp.this_machine() not in seccomp.MACHINES:
        kind += f", no system-call filter on {seccomp.this_machine()}"
    memory = "memory sampled" if memory_mode() == "sampled" else "memory counted"
    cpu = "CPU shared" if shares_cpu() else "CPU not shared"
    return f"{kind}; {memory}, {cpu}"


def memory_mode() -> str:
    """'v2' or 'v1' where the kernel counts each match's memory, else 'sampled'."""
    found = parents()
    return found[0] if found else "sampled"


def open_sandbox(mode: Mode) -> "Sandbox":
    return {Mode.BWRAP: BwrapSandbox, Mode.PIDNS: PidnsSandbox,
            Mode.SUBREAPER: ReaperSandbox}[mode]()


class Sandbox:
    """One match's containment: the command that starts the bot, its processes, the kill."""

    mode: Mode
    relays_status = True       # the bot's exit status comes through the reaper's status pipe
    sandboxed = False

    def __init__(self):
        self.pid: int | None = None
        self.slot = bubblewrap.Slot() if os.geteuid() == 0 else None
        try:
            self.group = MatchGroup.open()
        except OSError:
            self.group = None

    @property
    def uid(self) -> int | None:
        """The box user the bot runs as (None: the referee's own user)."""
        return self.slot.uid if self.slot else None

    def command(self, argv: list[str], cwd: str, path_env: str, status_fd: int | None,
                filter_fd: int | None = None) -> list[str]:
        """The launcher's command: the reaper writes its report on `status_fd`; bubblewrap
        reads the system-call filter from `filter_fd` (None: none)."""
        raise NotImplementedError

    def join_files(self) -> list[str]:
        return self.group.join_files() if self.group else []

    def limit_memory(self, cap_bytes: int | None) -> bool:
        """Have the kernel count and cap the bot's memory; False where it cannot here."""
        return self.group.limit(cap_bytes) if self.group else False

    def memory_peak(self) -> int | None:
        return self.group.memory_peak() if self.group else None

    def memory_over(self, cap_bytes: int | None) -> str | None:
        """Why the bot is over its cap where the kernel counts but does not kill for it
        (socket buffers); None if it is not, or where no cgroup counts it."""
        return self.group.over_cap(cap_bytes) if self.group else None

    def idle_cpu(self, idle: bool) -> None:
        """The box's CPU share at idle (made ahead) or back to a match's."""
        if self.group:
            self.group.idle_cpu(idle)

    def cpu_seconds(self) -> float | None:
        return self.group.cpu_seconds() if self.group else None

    def started(self, pid: int) -> None:
        """The launcher runs as `pid` (the stamper's child)."""
        self.pid = pid

    def processes(self) -> list[int]:
        """The bot's live processes."""
        if self.group:
            return self.group.processes()
        return proctree.descendants(self.pid) if self.pid else []

    def kill(self) -> None:
        """Kill every process of the bot; return once all are dead (bounded wait)."""
        if self.group:
            self.group.kill()

    def oom_kills(self) -> int:
        """Processes the kernel killed at the memory limit (0 where it sets none)."""
        return self.group.oom_kills() if self.group else 0

    def exit_status(self, launcher_status: int) -> int:
        """The bot's exit status from its launcher's."""
        return launcher_status

    def release(self) -> None:
        """Free what the sandbox holds once the launcher is gone."""
        if self.group:
            self.group.remove()
        if self.slot:
            self.slot.release()


class BwrapSandbox(Sandbox):
    """Mode bwrap: bubblewrap is the launcher; the bot is a child of the box's init."""

    mode = Mode.BWRAP
    relays_status = False
    sandboxed = True

    def __init__(self):
        super().__init__()
        self._stage: str | None = None

    def command(self, argv, cwd, path_env, status_fd, filter_fd=None):
        if self.uid is not None:
            # copies of what the box user may not read, each its own: root's folder (700)
            # holds them, bubblewrap binds them in as root, no other user reaches them
            self._stage = tempfile.mkdtemp(prefix=leftovers.own_prefix("referee-stage-"))
        marks = (READY_MARK.decode().strip(), START_MARK.decode().strip())
        return bubblewrap.bwrap_command(argv, cwd, path_env, self.uid, marks, self._stage,
                                        seccomp_fd=filter_fd)

    def release(self) -> None:
        super().release()
        if self._stage:
            shutil.rmtree(self._stage, ignore_errors=True)

    def processes(self) -> list[int]:
        if self.group:
            return self.group.processes()
        return proctree.descendants(self.pid)[1:] if self.pid else []   # [0]: the box's init

    def kill_at_once(self) -> None:
        """Kill the box without waiting: bubblewrap's parent-death signal takes its init,
        and with it the kernel takes every process of the namespace."""
        if self.pid:
            _signal(self.pid, signal.SIGKILL)

    def kill(self) -> None:
        self.kill_at_once()
        super().kill()

    def exit_status(self, launcher_status):
        # bubblewrap exits with the bot's status, or 128 + N when signal N killed it
        if 128 < launcher_status < 128 + 65:
            return -(launcher_status - 128)
        return launcher_status


class ReaperSandbox(Sandbox):
    """Mode subreaper: the reaper is the launcher; the bot and all it starts below it."""

    mode = Mode.SUBREAPER

    def command(self, argv, cwd, path_env, status_fd, filter_fd=None):
        # "": no address-space limit for the bot; the drop happens just before its exec
        drop = str(self.uid) if self.uid is not None else ""
        return [sys.executable, "-I", "-S", str(REAPER), str(status_fd), "", self.mode.value,
                drop, *argv]

    def processes(self) -> list[int]:
        if self.group:
            return [pid for pid in self.group.processes() if pid != self.pid]
        return proctree.descendants(self.pid) if self.pid else []

    def kill(self) -> None:
        if not self.group:   # a cgroup's kill takes the reaper with the rest, at once
            self._end_through_reaper()   # (a loaded machine runs a reaper late)
        super().kill()

    def _end_through_reaper(self) -> None:
        if self.pid:
            _signal(self.pid, signal.SIGTERM)   # the reaper kills and reaps the bot's tree
            if not _wait_gone(self.pid, KILL_WAIT_S):
                for pid in proctree.descendants(self.pid):
                    _signal(pid, signal.SIGKILL)
                _signal(self.pid, signal.SIGKILL)


class PidnsSandbox(ReaperSandbox):
    """Mode pidns: the reaper -> its fork, init of a new PID namespace -> the bot."""

    mode = Mode.PIDNS

    def processes(self) -> list[int]:
        if self.group:
            return super().processes()
        return proctree.descendants(self.pid)[1:] if self.pid else []   # [0] is init

    def _end_through_reaper(self) -> None:
        # SIGTERM reaches init through the reaper; init kills everything in the namespace
        # and exits, and the kernel kills whatever is left. SIGKILL on init if it lingers.
        if self.pid:
            inits = proctree.children(self.pid)
            _signal(self.pid, signal.SIGTERM)
            if not _wait_gone(self.pid, KILL_WAIT_S / 2):
                for init in inits:
                    _signal(init, signal.SIGKILL)
                if not _wait_gone(self.pid, KILL_WAIT_S / 2):
                    _signal(self.pid, signal.SIGKILL)


def _signal(pid: int, signum: int) -> None:
    try:
        os.kill(pid, signum)
    except (ProcessLookupError, PermissionError):
        pass


def _wait_gone(pid: int, timeout_s: float) -> bool:
    """Wait until process `pid` has exited (its parent, the stamper, reaps it)."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            return True
        if state in ("Z", "X"):
            return True
        time.sleep(POLL_S)
    return False


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
