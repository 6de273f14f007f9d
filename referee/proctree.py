"""A process's descendants, read from /proc (Linux), and their scheduling policy.

Children come from /proc/PID/task/TID/children (one file per thread), which lists
a process's direct children without scanning every process on the machine.
"""

from __future__ import annotations

import os


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



def set_normal_policy(pid: int) -> None:
    """`pid` and every descendant back to the normal policy (SCHED_OTHER) and their
    sessions' autogroups to nice 0; OSError if one may not be changed (only root may raise
    another user's process)."""
    for member in [pid, *descendants(pid)]:
        try:
            os.sched_setscheduler(member, os.SCHED_OTHER, os.sched_param(0))
        except ProcessLookupError:
            continue   # it ended meanwhile
        try:   # its session's autogroup too, where the kernel has them
            with open(f"/proc/{member}/autogroup", "w") as file:
                file.write("0")
        except FileNotFoundError:
            pass
