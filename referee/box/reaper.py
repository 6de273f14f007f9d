"""The per-match reaper: runs a bot as its child and outlives it to kill what it leaves.

    python -I -S reaper.py STATUS_FD AS_BYTES subreaper|pidns DROP_UID BOT_ARGV...

Run by the referee (containment modes `pidns` and `subreaper`); the referee imports only
START_MARK from it. Standard library only. In mode subreaper it makes itself the child
subreaper, so every process the bot starts, by any route (double forks, new sessions),
stays its descendant. In mode pidns it enters a new PID namespace (with a user namespace
when not root) and forks its init, which holds the same role by the kernel's rules; the
first process only relays SIGTERM to that init and waits for it, holding no pipe.

The bot gets RLIMIT_AS = AS_BYTES (empty: none) before its first instruction, runs as
DROP_UID (empty: as the reaper) with no privileges and no_new_privs, its own session, and
default signal dispositions. The child writes READY_MARK on stdout and waits at a gate (a
line on stdin, the referee's go), then writes START_MARK, so the referee starts its clock only once the bot
runs. When the bot exits, its status and resource usage go to STATUS_FD as one line
`status user_s system_s maxrss_kib`; its descendants keep running, since they may still
play. On SIGTERM (from the referee at the end of the match, or as the referee's death
signal) every descendant is killed and reaped, in a loop cheaper than a fork: a process
killed while it forks never completes the fork, and an orphan comes to this process at
once. Then the reaper exits.
"""

import errno
import os
import re
import resource
import signal
import stat
import sys
import warnings   # noqa: F401  os.execvp imports it: before the drop, while the stdlib is reachable

READY_MARK = b"referee: bot ready\n"      # the launcher waits at its gate
START_MARK = b"referee: bot starting\n"   # the gate is open: the bot's exec
PR_SET_PDEATHSIG = 1           # from <linux/prctl.h>
PR_SET_CHILD_SUBREAPER = 36
PR_SET_NO_NEW_PRIVS = 38
CLONE_NEWUSER = 0x10000000     # from <linux/sched.h>
CLONE_NEWPID = 0x20000000


class Stop(Exception):
    """SIGTERM: kill everything and leave."""


def _stop(signum, frame):
    raise Stop()


def prefer_as_victim() -> None:
    """Be the OOM killer's first choice in the match's cgroup: the bot, never the reaper
    that reports its end and kills what it leaves (raising one's own score needs no
    privilege)."""
    try:
        with open("/proc/self/oom_score_adj", "w") as file:
            file.write("1000")
    except OSError:
        pass


def wait_at_gate() -> None:
    """Wait for the referee's go: one line on stdin, read a byte at a time so the input
    after it stays whole for the bot (a launcher can be started ahead and held here)."""
    while os.read(0, 1) not in (b"\n", b""):
        pass


def children() -> list[int]:
    """This process's children, read from /proc (one file per thread; one thread here)."""
    found = []
    for tid in os.listdir("/proc/self/task"):
        try:
            with open(f"/proc/self/task/{tid}/children") as file:
                found.extend(int(pid) for pid in file.read().split())
        except OSError:
            pass
    return found


def descendants(pid: int) -> list[int]:
    """`pid`'s descendants, from each process's children files (the tree may change)."""
    found, todo = [], [pid]
    while todo:
        parent = todo.pop()
        try:
            tids = os.listdir(f"/proc/{parent}/task")
        except OSError:
            continue
        for tid in tids:
            try:
                with open(f"/proc/{parent}/task/{tid}/children") as file:
                    kids = [int(p) for p in file.read().split()]
            except OSError:
                continue
            found.extend(kids)
            todo.extend(kids)
    return found


def kill_all(bot: int, report) -> None:
    """SIGKILL every descendant until none is left, reaping as they die."""
    while True:
        if os.getpid() == 1:
            # init of a PID namespace: kill(-1) reaches every other process in it, and /proc
            # (the referee's) would give pids of the outer namespace
            try:
                os.kill(-1, signal.SIGKILL)
            except OSError:
                pass
        else:
            for pid in children():
                for victim in [pid] + descendants(pid):
                    try:
                        os.kill(victim, signal.SIGKILL)
                    except OSError:
                        pass
        while True:
            try:
                pid, status, usage = os.wait4(-1, os.WNOHANG)
            except ChildProcessError:
                return                  # no child left: every descendant is dead and reaped
            if pid == 0:
                break
            if pid == bot:
                report(status, usage)


TMPDIR_PREFIX = "referee-bot-"   # as the runner names the bot's TMPDIR: nothing else is removed
DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


def remove_tree(path: str) -> str:
    """Remove `path` and all below it, or a file or symlink at `path` itself (never followed).
    '' once it is gone (or was never there), else why not, in one line."""
    try:
        if not stat.S_ISDIR(os.lstat(path).st_mode):
            os.unlink(path)
            return ""
        fd = _enter(path, None)
    except FileNotFoundError:
        return ""
    except OSError as error:
        return f"{path}: {error.strerror or error}"
    device, mounted = os.fstat(fd).st_dev, _mounted(path)
    if not _own(fd, device, mounted):
        os.close(fd)
        return f"{path}: a mount point, not entered"
    failures: list[str] = []
    trail: list[tuple[str, list[str]]] = []   # per level below `path`: (name, siblings left)

    def here(*names: str) -> str:   # a path for a message only: its cost grows with depth
        return os.path.join(path, *(n for n, _ in trail), *names)

    pending = _clear(fd, here, failures)
    while pending or trail:
        if pending:
            name = pending.pop()
            try:
                child = _enter(name, fd)
                if not _own(child, device, mounted):
                    os.close(child)
                    raise OSError(0, "a mount point, not entered")
            except OSError as error:
                failures.append(f"{here(name)}: {error.strerror or error}")
                continue
            trail.append((name, pending))
            os.close(fd)
            fd, pending = child, _clear(child, here, failures)
            continue
        name, pending = trail.pop()   # this folder is empty: up one level and remove it
        try:
            parent = os.open("..", DIR_FLAGS, dir_fd=fd)
        except OSError as error:
            failures.append(f"{here()}: {error.strerror or error}")
            break
        os.close(fd)
        fd = parent
        _remove(lambda: os.rmdir(name, dir_fd=fd), lambda: here(name), failures)
    os.close(fd)
    if not failures:
        _remove(lambda: os.rmdir(path), lambda: path, failures)
    more = f" (and {len(failures) - 1} more)" if len(failures) > 1 else ""
    return f"{failures[0]}{more}" if failures else ""


def _own(fd: int, device: int, mounted: set[tuple[int, int]]) -> bool:
    """The open folder belongs to the tree: same file system, and no mount's root."""
    info = os.fstat(fd)
    return info.st_dev == device and (info.st_dev, info.st_ino) not in mounted


def _enter(name: str, dir_fd: int | None) -> int:
    """Open folder `name` (in `dir_fd`) without following a symlink; one the bot made
    unreadable or unwritable (chmod 000) is given back its owner's rights first."""
    try:
        fd = os.open(name, DIR_FLAGS, dir_fd=dir_fd)
    except PermissionError:
        os.chmod(name, 0o700, dir_fd=dir_fd)   # lstat and O_NOFOLLOW said: a folder
        fd = os.open(name, DIR_FLAGS, dir_fd=dir_fd)
    if stat.S_IMODE(os.fstat(fd).st_mode) & 0o700 != 0o700:
        os.fchmod(fd, 0o700)
    return fd


def _clear(fd: int, here, failures: list[str]) -> list[str]:
    """Unlink every entry of the open folder but its subfolders; their names."""
    folders = []
    try:
        with os.scandir(fd) as entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    folders.append(entry.name)
                else:
                    _remove(lambda: os.unlink(entry.name, dir_fd=fd),
                            lambda: here(entry.name), failures)
    except OSError as error:
        failures.append(f"{here()}: {error.strerror or error}")
    return folders


def _remove(action, where, failures: list[str]) -> None:
    """Do `action`; a failure is noted with the path `where()` names."""
    try:
        action()
    except FileNotFoundError:
        pass
    except OSError as error:
        if not (error.errno == errno.ENOTEMPTY and failures):   # else its cause is noted
            failures.append(f"{where()}: {error.strerror or error}")


def _mounted(root: str) -> set[tuple[int, int]]:
    """(device, inode) of each mount point at or below `root`: a bot running as root could
    bind a folder of the machine there, which a removal must not enter."""
    root = os.path.realpath(root)
    found = set()
    try:
        with open("/proc/self/mountinfo") as file:
            points = [re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), line.split()[4])
                      for line in file]
    except (OSError, IndexError):
        return found
    for point in points:
        if point == root or point.startswith(root + "/"):
            try:
                info = os.stat(point)
                found.add((info.st_dev, info.st_ino))
            except OSError:
                pass
    return found


def remove_bot_tmpdir() -> None:
    """After the kill: remove the TMPDIR the runner gave the bot (only one it named)."""
    tmpdir = os.environ.get("TMPDIR", "")
    if os.path.basename(tmpdir).startswith(TMPDIR_PREFIX):
        remove_tree(tmpdir)


def drop_privileges(libc, uid: int) -> None:
    """Become `uid` (group the same number), no supplementary groups, no capabilities,
    and never again more (no_new_privs: a setuid program cannot lift it)."""
    os.setgroups([])
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)
    if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        raise OSError("cannot set no_new_privs")


def enter_pid_namespace(libc) -> bool:
    """Unshare a PID namespace (and a user namespace when not root, mapping our own ids);
    False if the kernel refuses. The next child forked is init of the new namespace."""
    uid, gid = os.getuid(), os.getgid()
    flags = CLONE_NEWPID if os.geteuid() == 0 else CLONE_NEWPID | CLONE_NEWUSER
    if libc.unshare(flags) != 0:
        return False
    if flags & CLONE_NEWUSER:
        try:
            for name, text in (("setgroups", "deny"), ("uid_map", f"{uid} {uid} 1"),
                               ("gid_map", f"{gid} {gid} 1")):
                with open(f"/proc/self/{name}", "w") as file:
                    file.write(text)
        except OSError:
            return False
    return True


def relay_to_init(init: int) -> None:
    """Outside the namespace: hold no pipe, pass SIGTERM on to init, leave when it has gone."""
    signal.signal(signal.SIGTERM, lambda signum, frame: os.kill(init, signal.SIGTERM))
    null = os.open(os.devnull, os.O_RDWR)
    for stream in (0, 1, 2):
        os.dup2(null, stream)
    while True:
        try:
            if os.waitpid(init, 0)[0] == init:
                return
        except ChildProcessError:
            return


def main() -> None:
    import ctypes   # here: the referee imports this module for remove_tree alone
    if sys.argv[1] == "--probe-pidns":     # can this machine give us a PID namespace?
        libc = ctypes.CDLL(None, use_errno=True)
        if not enter_pid_namespace(libc):
            sys.exit(1)
        child = os.fork()
        if child == 0:
            os._exit(0 if os.getpid() == 1 else 1)
        sys.exit(os.waitstatus_to_exitcode(os.waitpid(child, 0)[1]))
    status_fd, limit, mode, drop = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
    argv = sys.argv[5:]
    os.set_inheritable(status_fd, False)
    signal.signal(signal.SIGTERM, _stop)
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)   # the referee died: clean up
    if os.getppid() == 1:
        return                          # the referee died before the death signal was set
    if mode == "pidns":
        if not enter_pid_namespace(libc):
            os.write(2, b"referee reaper: cannot make a PID namespace\n")
            sys.exit(126)
        init = os.fork()
        if init != 0:
            relay_to_init(init)
            return
        # init of the namespace: dies with the relay, and the kernel then kills the rest
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    else:
        libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    reported = []
    bot = -1

    def report(status: int, usage) -> None:
        if not reported:
            reported.append(status)
            line = (f"{os.waitstatus_to_exitcode(status)} {usage.ru_utime} {usage.ru_stime} "
                    f"{usage.ru_maxrss}\n")
            os.write(status_fd, line.encode())

    try:
        bot = os.fork()
        if bot == 0:
            try:
                os.setsid()
                for signum in (signal.SIGTERM, signal.SIGPIPE, signal.SIGXFSZ):
                    signal.signal(signum, signal.SIG_DFL)
                if limit:
                    resource.setrlimit(resource.RLIMIT_AS, (int(limit), int(limit)))
                prefer_as_victim()
                if drop:
                    drop_privileges(libc, int(drop))
                os.write(1, READY_MARK)
                wait_at_gate()
                os.write(1, START_MARK)
                os.execvp(argv[0], argv)
            except BaseException as error:
                os.write(2, f"cannot start {argv[0]!r}: {error}\n".encode())
            os._exit(127)
        null = os.open(os.devnull, os.O_RDWR)
        for stream in (0, 1, 2):        # hold none of the bot's pipes: EOF must reach the referee
            os.dup2(null, stream)
        while True:
            pid, status, usage = os.wait4(-1, 0)
            if pid == bot:
                report(status, usage)
    except (Stop, ChildProcessError):
        pass
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    kill_all(bot, report)
    remove_bot_tmpdir()


if __name__ == "__main__":
    main()
