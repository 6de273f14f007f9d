"""The box: who the bot runs as, and what of the machine it sees (bubblewrap).

With bubblewrap (Debian package `bubblewrap`, the sandbox Flatpak uses), a bot
  - sees only what it needs, read-only (referee/box/view.py: the system's folders, its
    interpreter's installation, its own folder), and writes only its own /tmp and
    /dev/shm, size-capped tmpfs whose pages the match's cgroup counts as its memory;
  - has no network, and its own PID, IPC and UTS namespaces: it cannot see or signal the
    other bot or the referee, and its System V and POSIX IPC objects die with it;
  - dies with its launcher (bubblewrap's parent-death signal), so with the referee.
Run by root, the box drops to a real unprivileged host user, one per live box
(uid BOX_UID_BASE + slot: two bots never share a user), with no capabilities and
no_new_privs (setpriv, from util-linux). A user namespace alone would not do: root's
`--uid 65534` in one is still host root to the kernel. What of the bot's this user may
not read (a folder of mode 700) the box shows as a copy only that user may read.

Without bubblewrap the referee still drops root the same way, and says the run is not
sandboxed: the bot then sees and may write what that user may on the host.
"""

from __future__ import annotations

import fcntl
import functools
import os
import shutil
import subprocess

from referee.box import view

BOX_UID_BASE = 60000
BOX_SLOTS = 1000
SLOTS_FOLDER = "/run/referee-boxes"   # machine-wide, whatever TMPDIR a referee has: two
                                      # referees' bots never share a user
TMPFS_BYTES = 1 << 30      # each of /tmp and /dev/shm; the memory cap binds first
# The ready mark, the gate (one line on stdin, read a byte at a time so the input stays
# whole), the start mark, then the bot: a box can be made ahead and held at the gate.
MARK_LAUNCHER = 'printf "%s\\n" "$0"; read -r _; printf "%s\\n" "$1"; shift; exec "$@"'
PRIVATE = ("/tmp", "/dev/shm")   # the box's own, empty at its start
PROBE_WAIT_S = 10         # for the trial box
INSTALL_HINT = "install bubblewrap for a sandbox (Debian: apt-get install bubblewrap)"


@functools.cache
def bwrap() -> str | None:
    """bubblewrap's path, if it is installed and can make a box here."""
    probe = start_probe()
    if probe is None:
        return None
    path, process = probe
    try:
        ok = process.wait(timeout=PROBE_WAIT_S) == 0
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        ok = False
    return path if ok else None


@functools.cache
def start_probe() -> tuple[str, subprocess.Popen] | None:
    """Start making a trial box (bwrap() waits for it): a run starts it early, so that its
    some 10 ms overlap the run's preparation. None where there is no bubblewrap to try."""
    path = shutil.which("bwrap")
    if path is None or (os.geteuid() == 0 and shutil.which("setpriv") is None):
        return None
    probe = [path, "--ro-bind", "/", "/", "--proc", "/proc", "--unshare-pid",
             "--unshare-net", "--unshare-ipc", "--die-with-parent",
             "--as-pid-1", "true"]   # no init of bubblewrap's own: none is left unreaped
    if os.geteuid() != 0:
        probe[1:1] = ["--unshare-user"]
    try:
        return path, subprocess.Popen(probe, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                      stderr=subprocess.DEVNULL)
    except OSError:
        return None


class Slot:
    """A box number held for one match (a lock file), so live boxes never share a uid."""

    def __init__(self):
        folder = SLOTS_FOLDER   # root's alone: no box user may take or remove a lock file
        os.makedirs(folder, mode=0o755, exist_ok=True)
        for number in range(BOX_SLOTS):
            fd = os.open(os.path.join(folder, f"{number}.lock"), os.O_RDWR | os.O_CREAT, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                os.close(fd)
                continue
            self.number, self._fd = number, fd
            return
        raise OSError(f"all {BOX_SLOTS} box users are in use")

    @property
    def uid(self) -> int:
        return BOX_UID_BASE + self.number

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def traversable(path: str, uid: int, gid: int, bits: int = 0o1) -> bool:
    """The user may enter folder `path` (its mode bits; uid 0 always may); with
    bits=0o5, also read it."""
    try:
        info = os.stat(path)
    except OSError:
        return False
    if uid == 0:
        return True
    shift = 6 if info.st_uid == uid else 3 if info.st_gid == gid else 0
    return (info.st_mode >> shift) & bits == bits


def closed_on_the_way(paths: list[str], uid: int, gid: int) -> list[tuple[str, str]]:
    """(folder the user may not enter, its entry that leads to a needed path), each once,
    shallowest first."""
    found: list[tuple[str, str]] = []
    for path in paths:
        parts = os.path.abspath(path).split("/")[1:]
        for depth in range(1, len(parts)):
            folder = "/" + "/".join(parts[:depth])
            if not traversable(folder, uid, gid):
                pair = (folder, folder + "/" + parts[depth])
                if pair not in found:
                    found.append(pair)
    return sorted(found, key=lambda pair: pair[0].count("/"))


def needed_paths(argv: list[str], cwd: str, path_env: str) -> list[str]:
    """The bot's program (found as a shell would) and every argument that names an
    existing file or folder, each also as its real path (a venv's python is a link into
    the interpreter's own folder). Not the working folder: the bot starts in it whether
    or not its user may enter the folders above it."""
    program = argv[0]
    found = (os.path.join(cwd, program) if "/" in program
             else shutil.which(program, path=path_env) or program)
    paths = [found]
    for arg in argv[1:]:
        candidate = os.path.join(cwd, arg)
        if not arg.startswith("-") and os.path.exists(candidate):
            paths.append(candidate)
    return [p for path in paths for p in dict.fromkeys([os.path.abspath(path),
                                                         os.path.realpath(path)])]


def unreachable(argv: list[str], cwd: str, path_env: str, uid: int,
                itself: bool = False) -> str | None:
    """The first folder the box user cannot enter on the way to the bot (and, with
    `itself`, the folder argv[0] itself), when there is no bubblewrap to bind it in;
    None when all is reachable."""
    script = next((arg for arg in argv[1:] if not arg.startswith("-")
                   and os.path.isfile(os.path.join(cwd, arg))), None)
    program = argv[:1] + ([script] if script else [])   # a later argument may be any path
    for folder, _ in closed_on_the_way(needed_paths(program, cwd, path_env), uid, uid):
        return folder
    if itself and not traversable(argv[0], uid, uid):
        return argv[0]
    return None


def bwrap_command(argv: list[str], cwd: str, path_env: str, uid: int | None,
                  marks: tuple[str, str], stage: str | None = None,
                  seccomp_fd: int | None = None) -> list[str]:
    """The launcher: bubblewrap showing the bot only what it needs (referee/box/view.py),
    the drop to `uid` (root only), the ready and start marks around the gate, the bot.
    What the box user may not read is shown as a copy in `stage` only it may read.
    `seccomp_fd`: the system-call filter (referee/box/seccomp.py), which bubblewrap reads
    and installs before its command runs."""
    seen = view.view(argv, cwd, path_env)
    command = [bwrap(), *view.system_mounts(), "--dev", "/dev", "--proc", "/proc"]
    for folder in PRIVATE:
        command += ["--perms", "1777", "--size", str(TMPFS_BYTES), "--tmpfs", folder]
    command += view.own_mounts(seen, uid, stage, PRIVATE)
    if uid is None:
        command.insert(1, "--unshare-user")
    if seccomp_fd is not None:
        command += ["--seccomp", str(seccomp_fd)]
    command += ["--unshare-pid", "--unshare-ipc", "--unshare-net", "--unshare-uts",
                "--die-with-parent", "--new-session",
                "--chdir", view.workdir(cwd, seen, PRIVATE), "--"]
    if uid is not None:
        command += ["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups",
                    "--inh-caps=-all", "--bounding-set=-all", "--no-new-privs", "--"]
    return command + ["/bin/sh", "-c", MARK_LAUNCHER, *marks, seen.program, *argv[1:]]


def remove_left_by(uid: int) -> list[str]:
    """Unboxed, a box user's leftovers on the host: its files in /dev/shm and its System V
    IPC objects (the uid is this match's alone, so all it owns is the bot's)."""
    removed = []
    try:
        with os.scandir("/dev/shm") as entries:
            for entry in entries:
                if entry.stat(follow_symlinks=False).st_uid == uid:
                    path = entry.path
                    shutil.rmtree(path, ignore_errors=True) if entry.is_dir(
                        follow_symlinks=False) else os.unlink(path)
                    removed.append(path)
    except OSError:
        pass
    for kind, flag in (("shm", "-m"), ("sem", "-s"), ("msg", "-q")):
        for ipc_id in _ipc_owned_by(kind, uid):
            subprocess.run(["ipcrm", flag, ipc_id], stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, check=False)
            removed.append(f"System V {kind} {ipc_id}")
    return removed


def _ipc_owned_by(kind: str, uid: int) -> list[str]:
    """The ids of the System V objects of one kind that `uid` owns (/proc/sysvipc)."""
    try:
        with open(f"/proc/sysvipc/{kind}") as file:
            header, *rows = [line.split() for line in file]
    except OSError:
        return []
    key_id, key_uid = header.index("shmid" if kind == "shm" else
                                   "semid" if kind == "sem" else "msqid"), header.index("uid")
    return [row[key_id] for row in rows if len(row) > key_uid and row[key_uid] == str(uid)]
