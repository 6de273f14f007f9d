"""The memory a bot's processes use, every page counted once, read from /proc (Linux).

A process's proportional set size (PSS) splits each page it shares among the processes
that map it, so summing PSS over the bot's processes counts a forked child's copy-on-write
pages, and the libraries all of them map, once. Shared memory is counted whole, once, by
its object: a memfd or a file under /dev/shm that a process of the bot holds open or maps,
and shared anonymous memory it maps, count their allocated size (held in RAM whether or
not a process maps them, which PSS alone misses) in place of the PSS of their mapped pages.

The files under /dev/shm that the bot was seen holding, and that were not there when the
match began, are its own: `remove_left_files` deletes them after the match. A file the bot
creates and closes between two samples without mapping it is neither counted nor removed.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass

SHM_DIR = "/dev/shm"
KIB = 1024
PAGE_BYTES = os.sysconf("SC_PAGE_SIZE")
# Names under which shared memory objects show in /proc/PID/fd links and /proc/PID/maps.
SHM_MARKS = ("/memfd:", "/dev/zero", "/SYSV")


@dataclass(frozen=True)
class Footprint:
    """One sample: the bytes all the bot's processes use together, how many processes there
    were, and whether the sum is exact (PSS) or an upper bound (resident sizes)."""

    total_bytes: int
    processes: int
    exact: bool


class MemoryMeter:
    """Measures a bot's processes and remembers the /dev/shm files they held."""

    def __init__(self, shm_dir: str = SHM_DIR):
        self.shm_dir = shm_dir.rstrip("/")
        self._before = _entries(self.shm_dir)   # (name, inode) at the start of the match
        self.held: dict[str, int] = {}          # path under shm_dir -> inode, seen held

    def measure(self, pids: list[int], exact: bool = True) -> Footprint:
        """Sum over `pids`. exact=False sums resident sizes instead of PSS: never less than
        the exact sum, and far cheaper (PSS walks every page of every process)."""
        objects: dict[tuple[int, int], int] = {}
        private, alive = 0, 0
        for pid in pids:
            complete = self._shared_objects(pid, objects)
            used = _rollup(pid, complete) if exact else _resident(pid)
            if used is not None:
                alive += 1
                private += used
        return Footprint(private + sum(objects.values()), alive, exact)

    def shared_only(self, pids: list[int]) -> None:
        """Only look for the shared memory the bot holds (where the kernel counts the rest)."""
        objects: dict[tuple[int, int], int] = {}
        for pid in pids:
            self._shared_objects(pid, objects)

    def _shared_objects(self, pid: int, objects: dict[tuple[int, int], int]) -> bool:
        """Add the shared memory objects `pid` holds or maps; False when a mapped one could
        not be sized (its pages then stay counted by PSS)."""
        for fd_path, target in _fd_links(pid):
            if target.startswith(SHM_MARKS) or target.startswith(self.shm_dir + "/"):
                self._add(fd_path, target, objects)
        complete = True
        for map_path, target in _shared_maps(pid, self.shm_dir):
            complete &= self._add(map_path, target, objects)
        return complete

    def _add(self, proc_path: str, target: str, objects: dict[tuple[int, int], int]) -> bool:
        try:
            info = os.stat(proc_path)
        except OSError:
            return False
        objects[(info.st_dev, info.st_ino)] = info.st_blocks * 512
        if target.startswith(self.shm_dir + "/") and not target.endswith(" (deleted)"):
            self.held[target] = info.st_ino
        return True

    def remove_left_files(self) -> list[str]:
        """Delete the /dev/shm files the bot held that it created (the path's first part
        under /dev/shm is new since the start, same inode, ours); the paths removed."""
        removed = []
        for path, inode in self.held.items():
            top = os.path.relpath(path, self.shm_dir).split(os.sep)[0]
            if top == ".." or _entry(self.shm_dir, top) in self._before:
                continue
            try:
                info = os.lstat(path)
                if (stat.S_ISREG(info.st_mode) and info.st_ino == inode
                        and info.st_uid == os.geteuid()):
                    os.unlink(path)
                    removed.append(path)
                    _remove_new_dirs(os.path.dirname(path), self.shm_dir)
            except OSError:
                continue   # gone already, or not ours to remove
        return removed


def _entries(folder: str) -> set[tuple[str, int]]:
    try:
        with os.scandir(folder) as entries:
            return {(entry.name, entry.inode()) for entry in entries}
    except OSError:
        return set()


def _entry(folder: str, name: str) -> tuple[str, int] | None:
    try:
        return name, os.lstat(os.path.join(folder, name)).st_ino
    except OSError:
        return None


def _remove_new_dirs(folder: str, top: str) -> None:
    """Remove emptied folders from `folder` up to (not including) `top`."""
    while folder.startswith(top + "/"):
        try:
            os.rmdir(folder)
        except OSError:
            return   # not empty: someone else's files are in it
        folder = os.path.dirname(folder)


def _rollup(pid: int, less_shmem: bool) -> int | None:
    """The PSS of `pid` in bytes from smaps_rollup, less its shared memory's part when that
    is counted by object; None when it is gone (a zombie's rollup is empty)."""
    try:
        with open(f"/proc/{pid}/smaps_rollup") as file:
            text = file.read()
    except OSError:
        return None
    fields = {}
    for line in text.splitlines():
        key, _, value = line.partition(":")
        if key in ("Pss", "Pss_Shmem"):
            fields[key] = int(value.split()[0]) * KIB
    if "Pss" not in fields:
        return None
    return fields["Pss"] - (fields.get("Pss_Shmem", 0) if less_shmem else 0)


def _resident(pid: int) -> int | None:
    """The resident set size of `pid` (None when it is gone or a zombie)."""
    try:
        with open(f"/proc/{pid}/statm") as file:
            resident = int(file.read().split()[1]) * PAGE_BYTES
    except (OSError, IndexError, ValueError):
        return None
    return resident or None


def _fd_links(pid: int) -> list[tuple[str, str]]:
    """(/proc path, link target) of each open file descriptor of `pid`."""
    folder = f"/proc/{pid}/fd"
    try:
        fds = os.listdir(folder)
    except OSError:
        return []
    links = []
    for fd in fds:
        try:
            links.append((f"{folder}/{fd}", os.readlink(f"{folder}/{fd}")))
        except OSError:
            continue   # closed while we looked
    return links


def _shared_maps(pid: int, shm_dir: str) -> list[tuple[str, str]]:
    """(/proc map_files path, name) of each shared-memory mapping of `pid`."""
    try:
        with open(f"/proc/{pid}/maps") as file:
            text = file.read()
    except OSError:
        return []
    if shm_dir + "/" not in text and not any(mark in text for mark in SHM_MARKS):
        return []
    found = []
    for line in text.splitlines():
        fields = line.split(maxsplit=5)
        if len(fields) == 6 and (fields[5].startswith(SHM_MARKS)
                                 or fields[5].startswith(shm_dir + "/")):
            found.append((f"/proc/{pid}/map_files/{fields[0]}", fields[5]))
    return found
