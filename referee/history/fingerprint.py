"""A bot's version, told by its files: each word of its command that names an existing file
or folder is hashed by content, so two builds of a bot get two versions."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

MAX_BYTES = 256 << 20        # a folder bigger than this is hashed this far, and said so
SKIPPED_DIRS = {"__pycache__", ".git", ".venv", "node_modules", ".pytest_cache"}


def bot_hash(argv: list[str], cwd: Path | None = None) -> str:
    """The first 12 hex digits of a SHA-256 over each named file's or folder's content (the
    command's words too: the same files run another way are another bot); a '+' when
    a folder was too big to hash whole."""
    base = cwd or Path.cwd()
    digest = hashlib.sha256()
    budget = [MAX_BYTES]
    for word in argv:
        digest.update(b"word\0" + word.encode() + b"\0")
        path = base / word
        try:
            if path.is_file():
                _file(digest, path, budget)
            elif path.is_dir():
                _folder(digest, path, budget)
        except OSError:
            continue   # unreadable: the word alone counts
    return digest.hexdigest()[:12] + ("+" if budget[0] < 0 else "")


def _file(digest, path: Path, budget: list[int]) -> None:
    with path.open("rb") as file:
        while budget[0] > 0:
            chunk = file.read(1 << 20)
            if not chunk:
                return
            budget[0] -= len(chunk)
            digest.update(chunk)
        budget[0] = -1   # cut short


def _folder(digest, root: Path, budget: list[int]) -> None:
    """Every file below `root` by its relative path and content, in sorted order."""
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS)
        for name in sorted(files):
            if budget[0] <= 0:
                budget[0] = -1
                return
            path = Path(folder, name)
            digest.update(b"file\0" + str(path.relative_to(root)).encode() + b"\0")
            if path.is_file():
                _file(digest, path, budget)
