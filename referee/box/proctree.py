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
    sessions' autogroups to nice 0; OSError if one that lives on is left idle (only root
    may raise another user's process)."""
    for member in [pid, *descendants(pid)]:
        try:
            os.sched_setscheduler(member, os.SCHED_OTHER, os.sched_param(0))
            with open(f"/proc/{member}/autogroup", "w") as file:
                file.write("0")
        except OSError:
            # a member reaped during the write fails with ESRCH or, its autogroup already
            # gone, EINVAL: only one still idle is an error
            if left_idle(member):
                raise


def left_idle(pid: int) -> bool:
    """Whether `pid` lives on at the idle policy or in an autogroup niced above 0."""
    try:
        with open(f"/proc/{pid}/stat") as file:
            state = file.read().rpartition(")")[2].split()[0]
        if state in "ZXx":
            return False   # it ended: nothing of it will run
        if os.sched_getscheduler(pid) == os.SCHED_IDLE:
            return True
        with open(f"/proc/{pid}/autogroup") as file:
            nice = file.read().split()[-1:]   # "/autogroup-N nice K", or empty outside one
    except OSError:
        return False   # gone
    return bool(nice) and nice[0] != "0"
