"""Killing a bot's whole process tree, including children that left its process group.

A bot runs in its own process group, so one killpg reaches everything it started
in the normal way. A child started with setsid leaves the group: while its parent
lives it is found through /proc (parent links) and killed too. If its parent dies
first it is reparented, to init normally, or to this process when it has become a
child subreaper (`adopt_orphans`, Linux): then `kill_orphans` kills and reaps it.
"""

from __future__ import annotations

import ctypes
import os
import signal
import threading
from contextlib import contextmanager
from typing import Iterator
from pathlib import Path

PR_SET_CHILD_SUBREAPER = 36   # from <linux/prctl.h>
ORPHAN_ROUNDS = 5             # an orphan's own children are adopted in turn when it dies

_bots: set[int] = set()       # pids of bots still playing: our children that are not orphans
_lock = threading.RLock()     # held while a bot starts and while orphans are swept
_adopting = False


def kill_tree(pid: int) -> None:
    """Kill a bot's process group and every descendant, including ones that left the group."""
    escaped = descendants(pid)  # found first: once the bot dies, its children are reparented
    killpg(pid)
    for child in escaped:
        _kill(child)


def killpg(pgid: int) -> None:
    """SIGKILL a process group, if it still exists."""
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _kill(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _children_by_parent() -> dict[int, list[int]]:
    """{ppid: [pid, ...]} for every process in /proc (empty where /proc is missing)."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(")")[2].split()
        except OSError:
            continue  # exited while we looked
        children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    return children


def descendants(pid: int) -> list[int]:
    """All descendants of `pid` found in /proc."""
    children = _children_by_parent()
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def track(pid: int, alive: bool) -> None:
    """Record that a bot started (alive) or was reaped, so it is never taken for an orphan."""
    with _lock:
        (_bots.add if alive else _bots.discard)(pid)


@contextmanager
def starting_bot() -> Iterator[None]:
    """Hold while starting a bot and tracking it, so no orphan sweep can take it for an orphan."""
    with _lock:
        yield


def adopt_orphans() -> bool:
    """Make this process the child subreaper of its descendants (Linux); True if it worked.

    Call it only in a process whose children are all bots (the CLI), never in a test
    runner: afterwards every child that is not a tracked bot is killed as an orphan.
    """
    global _adopting
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        _adopting = libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        _adopting = False
    return _adopting


def kill_orphans() -> None:
    """Kill and reap adopted orphans: children of this process that are not playing bots."""
    if not _adopting:
        return
    with _lock:
        for _ in range(ORPHAN_ROUNDS):
            orphans = [p for p in _children_by_parent().get(os.getpid(), []) if p not in _bots]
            if not orphans:
                return
            for orphan in orphans:
                kill_tree(orphan)
                try:
                    os.waitpid(orphan, 0)
                except ChildProcessError:
                    pass  # reaped elsewhere
