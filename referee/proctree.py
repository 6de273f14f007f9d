"""A process's descendants and resident memory, read from /proc (Linux).

Children come from /proc/PID/task/TID/children (one file per thread), which lists
a process's direct children without scanning every process on the machine.
"""

from __future__ import annotations

import os

PAGE_BYTES = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def children(pid: int) -> list[int]:
    """The direct children of `pid` (empty when it is gone)."""
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return []
    found = []
    for tid in tids:
        try:
            with open(f"/proc/{pid}/task/{tid}/children") as file:
                found.extend(int(child) for child in file.read().split())
        except OSError:
            continue   # the thread ended while we looked
    return found


def descendants(pid: int) -> list[int]:
    """Every descendant of `pid`, parents before their children."""
    found: list[int] = []
    todo = [pid]
    while todo:
        kids = children(todo.pop(0))
        found.extend(kids)
        todo.extend(kids)
    return found


def resident_bytes(pid: int) -> int:
    """The resident set size of `pid` (0 when it is gone or a zombie)."""
    try:
        with open(f"/proc/{pid}/statm") as file:
            return int(file.read().split()[1]) * PAGE_BYTES
    except (OSError, IndexError, ValueError):
        return 0
