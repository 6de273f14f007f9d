"""A bot's version: what it runs, hashed by content.

The program is the file the command runs: a script or jar its interpreter is given
(`python3 bot.py`, `node bot.js`, `java -jar bot.jar`), else the command's own file
(`./a.out`). Beside it, the files of its folder that it can load: the folder an
interpreter looks in for the bot's own modules (a script's folder; the working folder for
`python3 -m`; each folder of a Java class path), walked breadth first in sorted order for
the suffixes a bot loads and for executables. Editing an imported module, a class or a
rebuilt binary makes another version. The walk is bounded in files, bytes and depth (a
bot run from a home folder must not hash the home), and the version says where the bound
cut it. The command's other words count too: the same files run another way are another
version.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import stat
from dataclasses import asdict, dataclass
from pathlib import Path

MAX_FILES = 1000             # files hashed, the program included
MAX_BYTES = 16 << 20         # bytes hashed in all (a bot CodinGame takes is far smaller)
MAX_DEPTH = 4                # folders below the bot's folder that are walked
MAX_FOLDERS = 500            # folders listed in all
LOADABLE = (".py", ".so", ".class", ".jar", ".js", ".mjs", ".cjs", ".wasm")
SKIPPED_DIRS = {"__pycache__", "node_modules", "venv", "site-packages"}   # and hidden ones
# Words that start an interpreter, whose program is a later word.
INTERPRETERS = ("python", "pypy", "node", "nodejs", "java", "sh", "bash", "dash", "ruby",
                "perl", "php", "lua", "bun", "deno")
CLASS_PATH = ("-cp", "-classpath", "--class-path")


@dataclass(frozen=True)
class Version:
    digest: str                 # 12 hex digits of SHA-256
    program: str | None         # the file the command runs (None: none found)
    folders: tuple[str, ...]    # the folders whose loadable files were hashed
    files: int                  # files hashed, the program included
    bytes: int
    cut: str | None             # what the bound left out, said for a person; None: nothing

    def scope(self) -> dict:
        return asdict(self) | {"folders": list(self.folders)}


def bot_version(argv: list[str], cwd: Path | None = None) -> Version:
    """The version of the bot `argv` starts, read from `cwd` (default: the working folder)."""
    base = cwd or Path.cwd()
    program, folders, words = _program(argv, base)
    walk = _Walk()
    digest = hashlib.sha256()
    for word in words:
        digest.update(b"word\0" + word.encode(errors="surrogateescape") + b"\0")
    if program is not None:
        walk.file(digest, program, "program")
    for number, folder in enumerate(folders):
        walk.folder(digest, folder, f"folder{number}")
    return Version(digest.hexdigest()[:12], None if program is None else str(program),
                   tuple(map(str, folders)), walk.files, walk.bytes, walk.cut)


def _program(argv: list[str], base: Path) -> tuple[Path | None, list[Path], list[str]]:
    """(the program file, the folders the bot loads from, the other words of the command).
    A program named by its path that is no interpreter is the program itself; an
    interpreter's (or a word looked up on PATH) is the first later word naming a file, and
    a word on PATH with none is hashed alone, never its folder (/usr/bin)."""
    if not argv:
        return None, [], []
    head, name = argv[0], Path(argv[0]).name
    if "/" in head and not name.startswith(INTERPRETERS):
        path = base / head
        return (path, [path.parent], argv[1:]) if path.is_file() else (None, [], argv)
    if name.startswith("java"):
        return _java(argv, base)
    if "-m" in argv[1:] and name.startswith(("python", "pypy")):
        return None, [base], [name, *argv[1:]]   # the module is looked for here first
    for index, word in enumerate(argv[1:], start=1):
        path = base / word
        if not word.startswith("-") and path.is_file():
            return path, [path.parent], [name, *argv[1:index], *argv[index + 1:]]
    found = None if name.startswith(INTERPRETERS) else shutil.which(head)
    return (Path(found) if found else None), [], [name, *argv[1:]]


def _java(argv: list[str], base: Path) -> tuple[Path | None, list[Path], list[str]]:
    """`java -jar JAR`: the jar and its folder; else each folder or jar of the class path
    (-cp, else $CLASSPATH, else the working folder)."""
    words, entries, program = ["java"], [], None
    rest = iter(argv[1:])
    for word in rest:
        if word == "-jar":
            program = base / next(rest, "")
        elif word in CLASS_PATH:
            entries += next(rest, "").split(os.pathsep)
        else:
            words.append(word)
    if program is not None:
        return (program, [program.parent], words) if program.is_file() else (None, [], words)
    if not entries:
        entries = os.environ.get("CLASSPATH", ".").split(os.pathsep)
    folders = [base / entry for entry in entries if entry and (base / entry).is_dir()]
    jars = [base / entry for entry in entries if entry and (base / entry).is_file()]
    folders += [jar.parent for jar in jars if jar.parent not in folders]
    return None, folders, words


class _Walk:
    """Hashes files under the bounds, counting what it took and saying what it left."""

    def __init__(self):
        self.files = 0
        self.bytes = 0
        self.folders = 0
        self.cut: str | None = None
        self.full = False           # a bound on files, bytes or folders was met: stop
        self.seen: set[Path] = set()

    def file(self, digest, path: Path, name: str) -> None:
        if path in self.seen or self.full:
            return
        if self.files >= MAX_FILES:
            return self._stop(f"more than {MAX_FILES} files: {path} and what follows left out")
        try:
            size = path.stat().st_size
            if self.bytes + size > MAX_BYTES:
                return self._stop(f"more than {MAX_BYTES / 2**20:g} MB: {path} and what follows "
                                  "left out")
            with path.open("rb") as opened:
                content = opened.read(size)
        except OSError:
            return None   # unreadable: the bot cannot load it either
        self.seen.add(path)
        self.files += 1
        self.bytes += len(content)
        digest.update(b"file\0" + name.encode(errors="surrogateescape") + b"\0"
                      + str(len(content)).encode() + b"\0" + content)
        return None

    def folder(self, digest, root: Path, name: str) -> None:
        """The loadable files below `root`, level by level, sorted within a level."""
        level = [Path()]
        for depth in range(MAX_DEPTH + 1):
            below = []
            for relative in level:
                if self.folders >= MAX_FOLDERS:
                    return self._stop(f"more than {MAX_FOLDERS} folders: {root / relative} "
                                      "and what follows left out")
                self.folders += 1
                for entry in _entries(root / relative):
                    path = relative / entry.name
                    if entry.is_dir(follow_symlinks=False):
                        if entry.name not in SKIPPED_DIRS and not entry.name.startswith("."):
                            below.append(path)
                    elif _loadable(entry):
                        self.file(digest, root / path, f"{name}/{path}")
                    if self.full:
                        return None
            if depth == MAX_DEPTH and below:
                self._say(f"folders more than {MAX_DEPTH} deep left out ({root / below[0]}, ...)")
            level = below
        return None

    def _stop(self, what: str) -> None:
        self._say(what)
        self.full = True

    def _say(self, what: str) -> None:
        self.cut = self.cut or what


def _entries(folder: Path) -> list[os.DirEntry]:
    try:
        with os.scandir(folder) as listed:
            return sorted(listed, key=lambda entry: entry.name)
    except OSError:
        return []


def _loadable(entry: os.DirEntry) -> bool:
    """A file a bot may load or run: by its suffix, or executable."""
    try:
        info = entry.stat(follow_symlinks=True)
    except OSError:
        return False
    if not stat.S_ISREG(info.st_mode):
        return False
    return entry.name.endswith(LOADABLE) or bool(info.st_mode & 0o111)
