"""What a referee that was killed (SIGKILL, no clean-up) left in the temporary folder.

Every folder a referee makes there is named PREFIX-PID-START-*: its pid and its start
time (ticks since boot, /proc/PID/stat), which together name one process for good. The
first match of a later referee removes the folders whose owner is gone, never those of a
referee still running.
"""

from __future__ import annotations

import functools
import os
import tempfile
from pathlib import Path

from referee.box.reaper import remove_tree

PREFIXES = ("referee-match-", "referee-stage-")


def start_time(pid: int) -> str | None:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[19]
    except (OSError, IndexError):
        return None


@functools.cache
def own_prefix(prefix: str) -> str:
    """`prefix` followed by this process's pid and start time."""
    pid = os.getpid()
    return f"{prefix}{pid}-{start_time(pid)}-"


def owner_alive(name: str, prefix: str) -> bool:
    pid, _, rest = name[len(prefix):].partition("-")
    start = rest.partition("-")[0]
    return pid.isdigit() and start_time(int(pid)) == start


@functools.cache
def sweep() -> list[str]:
    """Remove the folders of dead referees (once per referee); what was removed."""
    removed = []
    folder = tempfile.gettempdir()
    try:
        names = os.listdir(folder)
    except OSError:
        return removed
    for name in names:
        prefix = next((p for p in PREFIXES if name.startswith(p)), None)
        if prefix and not owner_alive(name, prefix):
            path = os.path.join(folder, name)
            if os.path.isdir(path) and not os.path.islink(path):
                remove_tree(path)
                removed.append(path)
    return removed
