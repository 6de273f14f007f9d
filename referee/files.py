"""Writing what a command makes (a report, a page, a generated puzzle): never through the
file that stood at its path.

Each file is written to a new temporary file beside it and renamed into place, so a hard
link to the old file (a puzzle linked under a report's name, say) keeps its content, and a
reader never sees half a file. `same_file` tells two names of one file apart from two files
with equal paths, by device and inode.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_new(path: str | Path, text: str) -> None:
    """`text` into a new file renamed over `path`, with the mode a new file would get."""
    path = Path(path)
    fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".new", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            file.write(text)
        os.chmod(temporary, 0o666 & ~_umask())
        os.replace(temporary, path)
    except BaseException:
        _remove(temporary)
        raise


def same_file(a: str | Path, b: str | Path) -> bool:
    """True when both names reach one file (a hard link, a symlink, the same path)."""
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):
        return False


def _umask() -> int:
    """The process's umask, read where the kernel tells it without changing it."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    return 0o022


def _remove(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass
