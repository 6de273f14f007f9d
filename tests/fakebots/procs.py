"""Find fake-bot processes still running: the referee must leave none behind.

Bots started by this test process get their TMPDIR inside SESSION_TMP (the runner's
`tmp_parent`, or TMPDIR for a `python -m referee` subprocess); their children inherit
it. A process is counted by that environment, so a test run going on at the same
time on the machine is never mistaken for a leak of this one.
"""

import atexit
import itertools
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

SESSION_TMP = tempfile.mkdtemp(prefix="referee-tests-")
os.chmod(SESSION_TMP, 0o1777)   # unboxed bots run as a box user, which writes there


def box_python() -> str:
    """A Python that a box user can run without a box to bind it in: this one, unless it
    lies in a folder closed to other users (as under /root), then the system's."""
    from referee.box.bubblewrap import unreachable
    if os.geteuid() != 0 or unreachable([sys.executable], "/", os.defpath, 60000) is None:
        return sys.executable
    return shutil.which("python3", path="/usr/local/bin:/usr/bin:/bin") or sys.executable
atexit.register(shutil.rmtree, SESSION_TMP, ignore_errors=True)


def reachable(folder: Path) -> Path:
    """A folder of the tests' bots where a box user reaches it without a box: itself,
    unless the checkout lies in a folder closed to other users (a clone in a private home
    or under mktemp -d), then a copy in SESSION_TMP every user may read, made once."""
    from referee.box.bubblewrap import unreachable
    if os.geteuid() != 0 or unreachable([str(folder)], "/", "", 60000, itself=True) is None:
        return folder
    copy = Path(SESSION_TMP) / f"reachable-{folder.parent.name}-{folder.name}"
    if not copy.is_dir():
        shutil.copytree(folder, copy, ignore=shutil.ignore_patterns("__pycache__"))
        for root, dirs, _ in os.walk(copy):
            for name in dirs:
                os.chmod(os.path.join(root, name), 0o755)
        os.chmod(copy, 0o755)
    return copy


def hear_ctrl_c():
    """In a referee's child, before exec: SIGINT back to its default. A shell that starts
    the tests in the background (`make test &`) ignores SIGINT for them, the referee
    inherits that, and Python then never turns Ctrl-C into KeyboardInterrupt."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def reachable_file(path: Path | str) -> str:
    """A file of the checkout where a box user reaches it without a box: in its own folder,
    or in that folder's copy (see `reachable`)."""
    path = Path(path).resolve()
    return str(reachable(path.parent) / path.name)


_written = itertools.count(1)


def bot_written(stem: str) -> Path:
    """A path in SESSION_TMP that no test has named before, for a file an unboxed bot
    writes: the bot runs as whichever box user is free, and in a sticky folder one user
    cannot overwrite another's file (the bot's open fails, and it never answers)."""
    return Path(SESSION_TMP) / f"{stem}-{next(_written)}"


def _state(proc: Path) -> str:
    return (proc / "stat").read_text().rpartition(")")[2].split()[0]


def _tmpdir(proc: Path) -> str:
    for item in (proc / "environ").read_bytes().split(b"\0"):
        if item.startswith(b"TMPDIR="):
            return item[len(b"TMPDIR="):].decode(errors="replace")
    return ""


def running_fakebots() -> list[str]:
    """'pid: cmdline' of live (not zombie) processes started as bots by this test session."""
    found = []
    for proc in Path("/proc").glob("[0-9]*"):
        try:
            if _state(proc) == "Z" or not _tmpdir(proc).startswith(SESSION_TMP + "/"):
                continue
            cmdline = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        found.append(f"{proc.name}: {cmdline}")
    return found


def wait_until_none_running(timeout_s: float = 3.0) -> list[str]:
    """Poll until no fake bot runs (killed processes take a moment to go); the survivors."""
    deadline = time.monotonic() + timeout_s
    while (left := running_fakebots()) and time.monotonic() < deadline:
        time.sleep(0.05)
    return left


def alive(pid: int) -> bool:
    """True if the process exists and is not a zombie."""
    try:
        return _state(Path(f"/proc/{pid}")) != "Z"
    except OSError:
        return False


def running_with_marker(marker: str) -> list[str]:
    """'pid: cmdline' of live (not zombie) processes whose command line holds `marker`."""
    found = []
    for proc in Path("/proc").glob("[0-9]*"):
        try:
            cmdline = (proc / "cmdline").read_bytes()
            if marker.encode() in cmdline and _state(proc) != "Z":
                text = cmdline.replace(b"\0", b" ").decode(errors="replace")
                found.append(f"{proc.name}: {text}")
        except OSError:
            continue
    return found


def referee(*args, cwd=None, timeout=120):
    """`python -m referee ARGS` with the project importable from any `cwd` (the root by
    default); the bots it starts get their TMPDIR in this session's directory."""
    root = Path(__file__).resolve().parents[2]
    env = dict(os.environ, TMPDIR=SESSION_TMP, PYTHONPATH=str(root))
    return subprocess.run([sys.executable, "-m", "referee", *args], cwd=cwd or root, env=env,
                          capture_output=True, text=True, timeout=timeout)


@pytest.fixture(autouse=True, scope="module")
def no_process_left_behind():
    """After a test module: no bot of this session is left running."""
    yield
    assert wait_until_none_running() == []


def time_close(bot) -> list:
    """Wrap `bot.close` so each call's seconds are appended to the list returned: how long
    the clean-up after a verdict took."""
    close, took = bot.close, []

    def timed_close():
        start = time.perf_counter()
        usage = close()
        took.append(time.perf_counter() - start)
        return usage

    bot.close = timed_close
    return took
