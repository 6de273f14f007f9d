"""The hostile kit's cases: each bot's command for one match, and the cap it plays under.

A case is (cap in bytes or None for CodinGame's 768 MB, argv maker); the maker takes the
built C bots, the match's marker and the Context (a host file, a TCP port, a setuid-root
program the test set up). Memory bots try about 1 GB against a 200 MB cap.
"""

import os
import shutil
import socket
import stat
import tempfile
from dataclasses import dataclass

from tests.fakebots.procs import SESSION_TMP
from tests.hostile import kit
from tests.hostile.kit import python_bot

SMALL_CAP = 200 * 2**20
GB = 1024          # MB that a memory bot tries to hold


@dataclass
class Context:
    host_file: str
    port: int
    setuid_id: str


CASES = {
    "/dev/shm file, closed": (SMALL_CAP, lambda c, m, x: python_bot("fill_file.py", "shm", m, GB)),
    "TMPDIR file, closed": (SMALL_CAP, lambda c, m, x: python_bot("fill_file.py", "tmp", m, GB)),
    "System V segment, no IPC_RMID": (SMALL_CAP, lambda c, m, x: [
        c["sysv_segment"], GB, kit.sysv_key(m), m]),
    "memfds in flight": (SMALL_CAP, lambda c, m, x: [c["memfd_in_flight"], GB, m]),
    "socket buffers": (SMALL_CAP, lambda c, m, x: [c["socket_buffers"], GB, m]),
    "200,000 touched 4 KiB mappings": (SMALL_CAP, lambda c, m, x: [
        c["many_mappings"], "pages", 200000, m]),
    "page tables (1 TB read sparsely)": (SMALL_CAP, lambda c, m, x: [
        c["many_mappings"], "page-tables", 500000, m]),
    "read /etc/shadow, write a host file": (None, lambda c, m, x: python_bot(
        "escape_files.py", x.host_file, m)),
    "TCP to the host's loopback": (None, lambda c, m, x: python_bot(
        "escape_network.py", x.port, m)),
    "move to the root cgroup": (None, lambda c, m, x: [c["escape_cgroup"], m]),
    "setuid(0), setuid-root id, su": (None, lambda c, m, x: [
        c["escape_root"], m, x.setuid_id, "su -c 'id -u' root </dev/null 2>&1"]),
    "ptrace/SIGSTOP the referee and all": (None, lambda c, m, x: python_bot(
        "kill_referee.py", m)),
    "fork bomb": (None, lambda c, m, x: [c["fork_bomb"], m]),
}


# Memory the kernel holds in its queues, each with the cap that shows it counted: pipes
# reach some 140 MB for one user here (fs.pipe-user-pages-soft), so they play under 100 MB.
# Cgroup v1 counts socket buffers apart and refuses rather than kills at its limit.
QUEUE_CASES = {
    "pipe buffers": (100 * 2**20, lambda c, m, x: [c["pipe_buffers"], GB, m]),
    "loopback TCP buffers": (SMALL_CAP, lambda c, m, x: [c["loopback_buffers"], "tcp", GB, m]),
    "loopback UDP buffers": (SMALL_CAP, lambda c, m, x: [c["loopback_buffers"], "udp", GB, m]),
}


def host_file() -> str:
    """A file of root's, mode 0644, in a folder every user may write (sticky, 1777)."""
    fd, path = tempfile.mkstemp(prefix="hostile-host-", dir=SESSION_TMP)
    os.write(fd, b"the host's\n")
    os.close(fd)
    os.chmod(path, 0o644)
    return path


def setuid_copy_of_id() -> str:
    """A setuid-root copy of `id` that every user may run (only root can make it)."""
    folder = tempfile.mkdtemp(prefix="hostile-suid-", dir=SESSION_TMP)
    os.chmod(folder, 0o755)
    path = shutil.copy(shutil.which("id"), os.path.join(folder, "id"))
    os.chown(path, 0, 0)
    os.chmod(path, 0o4755 | stat.S_IXUSR)
    return path


def listener() -> socket.socket:
    """A TCP listener on 127.0.0.1 (any free port), non-blocking, for the bot to reach."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    server.setblocking(False)
    return server


def accepted(server: socket.socket) -> list[bytes]:
    """What the connections made to the listener sent."""
    got = []
    while True:
        try:
            conn, _ = server.accept()
        except BlockingIOError:
            return got
        conn.settimeout(2)
        with conn:
            try:
                got.append(conn.recv(100))
            except OSError:
                got.append(b"")


def argv(case: str, built: dict, marker: str, context: Context) -> list[str]:
    """The command of one match of `case` (of CASES or QUEUE_CASES), every word a string."""
    make = (CASES.get(case) or QUEUE_CASES[case])[1]
    return [str(word) for word in make(built, marker, context)]
