"""A kernel file read again and again (a cgroup's counter, a thread's schedstat): its
descriptor kept open and read from its start each time, so a count costs one system call.

The kernel makes such a file's text anew at each read from offset 0. Opening, reading and
closing it through pathlib took 36 microseconds, a pread 1.6: the referee reads the
match's counters at each line, and a run reads them thousands of times.
"""

from __future__ import annotations

import os
import threading

READ_BYTES = 65536   # a cgroup.procs of a thousand tasks fits


class KernelFile:
    """One file of /sys or /proc, opened at its first read; None once it cannot be read
    (gone with its cgroup or thread)."""

    def __init__(self, path: str | os.PathLike):
        self.path = os.fspath(path)
        self._fd: int | None = None
        self._lock = threading.Lock()   # the crew's thread may end a match being read

    def read(self) -> bytes | None:
        with self._lock:
            try:
                if self._fd is None:
                    self._fd = os.open(self.path, os.O_RDONLY | os.O_CLOEXEC)
                return os.pread(self._fd, READ_BYTES, 0)
            except OSError:
                return None

    def close(self) -> None:
        with self._lock:
            if self._fd is not None:
                os.close(self._fd)
                self._fd = None


class KernelFiles:
    """The files of some folders (a match's cgroups, by controller), each read through a
    descriptor kept from its first read until `close`."""

    def __init__(self, folders: dict[str, os.PathLike]):
        self._folders = folders
        self._files: dict[tuple[str, str], KernelFile] = {}

    def read(self, key: str, name: str) -> bytes | None:
        """File `name` of folder `key`; None where there is no such folder or file."""
        file = self._files.get((key, name))
        if file is None:
            folder = self._folders.get(key)
            if folder is None:
                return None
            file = self._files[key, name] = KernelFile(os.path.join(folder, name))
        return file.read()

    def close(self) -> None:
        for file in self._files.values():
            file.close()


def first_int(data: bytes | None) -> int | None:
    """The first number of a counter's text (None for none)."""
    try:
        return int(data.split()[0]) if data else None
    except (ValueError, IndexError):
        return None


def field(data: bytes | None, key: bytes) -> int | None:
    """The number after `key` on the line that starts with it (`cpu.stat`, `memory.stat`)."""
    for line in (data or b"").splitlines():
        name, _, value = line.partition(b" ")
        if name == key:
            try:
                return int(value)
            except ValueError:
                return None
    return None
