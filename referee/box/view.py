"""What of the machine a bot sees in its box: an allow-list, as CodinGame's container and
IOI's isolate show a program only what it needs.

  - the system's read-only folders (SYSTEM) and the parts of /etc that loaders and runtimes
    read (ETC: the loader's cache, users and groups, the time zone, the alternatives links
    /usr/bin/java goes through, Java's and OpenSSL's configuration, Debian's Python's);
  - the installation of the program the command starts: a Python's prefixes as it says
    them itself (a version manager's shim gives way to the interpreter it would start, a
    venv names its base), else /X for /X/bin/program, else the program's folder; and the
    installation of a script's #! interpreter;
  - the bot's own folders: the folder of each file the command names, each folder it
    names; read-only, their .git hidden.
Never a folder that is or holds a home, the data home (where the run history lives) or a
folder every user shares (/tmp, /var/tmp, /dev/shm, /run): of a file there, the file
alone. Nothing under /proc, /sys or /dev: the box has its own.
"""

from __future__ import annotations

import functools
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass

SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
ETC = ("ld.so.cache", "ld.so.conf", "ld.so.conf.d", "nsswitch.conf", "passwd", "group",
       "localtime", "timezone", "alternatives", "java*", "ssl", "python3*")
SHARED = ("/tmp", "/var/tmp", "/dev/shm", "/run", "/var/run")
KERNEL = ("/proc", "/sys", "/dev")   # the box mounts its own /proc and /dev, and no /sys
STAGE_BYTES = 64 << 20     # the most of a closed folder copied in for the box user
PYTHON = re.compile(r"python[0-9.]*")
ASK_PYTHON = ("import sys; print(*dict.fromkeys([sys.executable, sys.prefix, sys.base_prefix, "
              "sys.exec_prefix, sys.base_exec_prefix]), sep='\\n')")
ASK_TIMEOUT_S = 30


@dataclass(frozen=True)
class View:
    """What one bot's box shows beyond the system: `program` as the box runs it, `paths`
    shown read-only at their own places (none inside another), `named` the files and
    folders the command names (each must be readable in the box)."""

    program: str
    paths: tuple[str, ...]
    named: tuple[str, ...]


def view(argv: list[str], cwd: str, path_env: str) -> View:
    """What the box shows of the command `argv`, run from `cwd` with PATH `path_env`."""
    return _view(tuple(argv), cwd, path_env)


@functools.lru_cache(maxsize=16)
def _view(argv: tuple[str, ...], cwd: str, path_env: str) -> View:
    """view(), found once a command (every match of a run plays the same bot; finding it
    took a millisecond a box: the homes listed, each path resolved)."""
    found = (os.path.join(cwd, argv[0]) if "/" in argv[0]
             else shutil.which(argv[0], path=path_env) or argv[0])
    found = os.path.abspath(found)
    program, paths = found, []
    if PYTHON.fullmatch(os.path.basename(found)):
        program, *prefixes = python_prefixes(found, cwd)
        paths += [p for p in prefixes if not too_wide(p)]
    paths += installation(program) + installation(interpreter(program))
    named = [found] + [os.path.join(cwd, arg) for arg in argv[1:]
                       if not arg.startswith("-") and os.path.exists(os.path.join(cwd, arg))]
    for path in named[1:]:
        paths += [own(p) for p in dict.fromkeys([os.path.abspath(path), os.path.realpath(path)])]
    shown = outermost(p for p in paths if p and not within(p, SYSTEM + KERNEL))
    return View(program, tuple(shown), tuple(os.path.abspath(p) for p in named))


@functools.cache
def system_mounts() -> tuple[str, ...]:
    """bubblewrap arguments that show SYSTEM and ETC's entries of /etc, read-only (a link
    as a link: /bin -> usr/bin); found once a process (globbing /etc took 2 ms a box)."""
    etc = sorted(p for pattern in ETC for p in glob.glob(os.path.join("/etc", pattern)))
    arguments: list[str] = []
    made: set[str] = set()
    for path in (*SYSTEM, *etc):
        if os.path.islink(path):
            arguments += on_the_way(path, made) + ["--symlink", os.readlink(path), path]
        elif os.path.exists(path):
            arguments += on_the_way(path, made) + ["--ro-bind", path, path]
    return tuple(arguments)


def own_mounts(seen: View, uid: int | None, stage: str | None,
               private: tuple[str, ...]) -> list[str]:
    """bubblewrap arguments that show the view's paths read-only, their .git hidden, after
    the box's `private` folders are made (a bot's folder in /tmp shows in the box's). A path
    the box user `uid` may not read (a folder of mode 700, a named file of 600) is shown as
    a copy in `stage` that only that user may read; left out if larger than STAGE_BYTES."""
    arguments: list[str] = []
    made = set(private)
    for path in seen.paths:
        source = path
        if stage is not None and uid is not None and closed(path, seen.named, uid):
            source = stage_copy(path, stage, uid)
            if source is None:
                continue
        arguments += on_the_way(path, made) + ["--ro-bind", source, path]
        git = os.path.join(path, ".git")   # a worktree's is a file naming the real one
        if not os.path.islink(git) and os.path.isdir(git):
            arguments += ["--tmpfs", git]
        elif not os.path.islink(git) and os.path.isfile(git):
            arguments += ["--ro-bind", "/dev/null", git]
    return arguments


def workdir(cwd: str, seen: View, private: tuple[str, ...]) -> str:
    """The bot's working folder in the box: `cwd` where the box has it (a folder shown, or
    one on the way to what is shown), else /."""
    shown = (*seen.paths, *SYSTEM)
    on_the_way = any(within(path, (cwd,)) for path in (*shown, *private))
    return cwd if within(cwd, shown) or on_the_way else "/"


def on_the_way(path: str, made: set[str]) -> list[str]:
    """bubblewrap arguments that make the folders on the way to `path` that are not `made`
    yet, open to all (bubblewrap would make them 700: the box user could not pass)."""
    arguments = []
    parts = path.split("/")
    for depth in range(2, len(parts)):
        folder = "/".join(parts[:depth])
        if folder not in made:
            made.add(folder)
            arguments += ["--perms", "0755", "--dir", folder]
    return arguments


# -- what to show -----------------------------------------------------------------------------

def protected() -> list[str]:
    """Folders never shown whole: the homes, the data home, the folders every user shares."""
    home = os.path.expanduser("~")
    data = os.environ.get("XDG_DATA_HOME") or os.path.join(home, ".local", "share")
    try:
        users = [os.path.join("/home", name) for name in os.listdir("/home")]
    except OSError:
        users = []
    return ["/root", "/home", home, data, *users, *SHARED]


def too_wide(folder: str) -> bool:
    """`folder` is /, or is or holds a folder never shown whole."""
    folder = os.path.abspath(folder)
    return folder == "/" or any(within(p, (folder,)) for p in protected())


def own(path: str) -> str:
    """What the box shows of a path the command names: its folder (a file's), or the file
    alone where that folder is too wide; a folder too wide is not shown at all."""
    if os.path.isdir(path):
        return "" if too_wide(path) else path
    folder = os.path.dirname(path)
    return path if too_wide(folder) else folder


def installation(program: str) -> list[str]:
    """What a program runs from, by the path it is named by and by its real path (a venv's
    python links to its base interpreter): /X for /X/bin/program (its libraries beside it),
    else its folder; the file alone where that would be too wide."""
    if not program:
        return []
    found = []
    for path in dict.fromkeys([os.path.abspath(program), os.path.realpath(program)]):
        folder = os.path.dirname(path)
        if os.path.basename(folder) in ("bin", "sbin"):
            folder = os.path.dirname(folder)
        found.append(path if too_wide(folder) else folder)
    return found


def interpreter(program: str) -> str:
    """The interpreter a script's #! line names, by its absolute path ('' for none)."""
    try:
        with open(program, "rb") as file:
            line = file.readline(256)
    except OSError:
        return ""
    words = line[2:].decode(errors="replace").split() if line.startswith(b"#!") else []
    return words[0] if words and words[0].startswith("/") else ""


_asking = threading.Lock()   # a run's first two boxes are made at once: one Python is asked


def python_prefixes(program: str, cwd: str) -> tuple[str, ...]:
    """A Python's interpreter and prefixes, as it says them itself run from `cwd` (a pyenv
    shim answers for the interpreter it starts there); this Python's own without asking,
    and a system Python's (its prefixes lie in the system's folders, shown already) too."""
    with _asking:
        return _python_prefixes(program, cwd)


@functools.lru_cache(maxsize=16)
def _python_prefixes(program: str, cwd: str) -> tuple[str, ...]:
    if within(os.path.abspath(program), SYSTEM) and within(os.path.realpath(program), SYSTEM):
        return (program,)   # /usr/bin/python3: no venv, no shim (asking it took 20 ms)
    if os.path.abspath(program) == os.path.abspath(sys.executable):
        said = [sys.executable, sys.prefix, sys.base_prefix, sys.exec_prefix,
                sys.base_exec_prefix]
    else:
        try:
            done = subprocess.run([program, "-c", ASK_PYTHON], cwd=cwd, capture_output=True,
                                  text=True, stdin=subprocess.DEVNULL, timeout=ASK_TIMEOUT_S)
            said = done.stdout.split("\n")[:5] if done.returncode == 0 else []
        except (OSError, subprocess.SubprocessError):
            said = []
    said = [line for line in said if os.path.isabs(line)]
    return tuple(dict.fromkeys(said)) if said else (program,)


# -- a copy for the box user --------------------------------------------------------------------

def readable(path: str, uid: int) -> bool:
    """The user may read `path` itself (and enter it, for a folder), by its mode bits."""
    try:
        info = os.stat(path)
    except OSError:
        return True   # nothing there to copy: the box shows it missing, as the host does
    bits = 0o5 if os.path.isdir(path) else 0o4
    shift = 6 if info.st_uid == uid else 3 if info.st_gid == uid else 0
    return (info.st_mode >> shift) & bits == bits


def closed(path: str, named: tuple[str, ...], uid: int) -> bool:
    """The user cannot read `path` or a named path inside it."""
    return not readable(path, uid) or any(
        within(p, (path,)) and not readable(p, uid) for p in named)


def stage_copy(path: str, stage: str, uid: int) -> str | None:
    """A copy of `path` in `stage` owned by the box user `uid` and closed to every other
    (mode 700 at its top, as its owner's bits below); None when over STAGE_BYTES."""
    total = 0
    for root, _, files in os.walk(path) if os.path.isdir(path) else [("", [], [path])]:
        total += sum(os.lstat(os.path.join(root, name)).st_size for name in files)
        if total > STAGE_BYTES:
            return None
    target = os.path.join(tempfile.mkdtemp(dir=stage), "copy")
    if os.path.isdir(path):
        shutil.copytree(path, target, symlinks=True, ignore=_special)
    else:
        shutil.copy(path, target)
    for root, dirs, files in os.walk(target) if os.path.isdir(target) else [("", [], [target])]:
        for name in dirs + files:
            _own(os.path.join(root, name), uid)
    _own(target, uid)
    return target


def _special(folder: str, names: list[str]) -> list[str]:
    """The entries no copy takes: sockets, pipes and devices (a socket copied would lead
    the bot to whatever listens on it)."""
    return [name for name in names if not (os.path.islink(os.path.join(folder, name))
                                           or os.path.isdir(os.path.join(folder, name))
                                           or os.path.isfile(os.path.join(folder, name)))]


def _own(path: str, uid: int) -> None:
    """Hand a copied file or folder to the box user: its owner's bits (readable), no other's."""
    os.lchown(path, uid, uid)
    if not os.path.islink(path):
        mode = os.stat(path).st_mode
        os.chmod(path, 0o700 if os.path.isdir(path) else (mode & 0o700) | 0o400)


# -- paths --------------------------------------------------------------------------------------

def within(path: str, folders) -> bool:
    """`path` is one of `folders` or lies inside one."""
    return any(path == f or path.startswith(f.rstrip("/") + "/") for f in folders)


def outermost(paths) -> list[str]:
    """The paths none of the others holds, each once (a bind holds what is below it)."""
    kept: list[str] = []
    for path in sorted(set(paths), key=len):
        if not within(path, kept):
            kept.append(path)
    return kept
