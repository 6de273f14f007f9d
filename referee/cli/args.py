"""Strict argument types for the commands: ASCII digits only, finite numbers in range,
paths to write that are neither empty nor `-`.

argparse's `type=int` takes '٣' or '1_000', and `type=float` takes 'inf' and 'nan'; these
types refuse them with a one-line message (exit 2).
"""

from __future__ import annotations

import argparse
import math
import os
import re
import shlex
import shutil
import sys
from pathlib import Path

from referee.cli import UsageError
from referee.home import ROOT, in_checkout
from referee.judge.board import BoardError, puzzle_files
from referee.terminal import safe

BUNDLE = "dist/bot.py"       # the bot `run` and `hunt` play when given none
PUBLIC = "puzzles/public"    # the puzzles `run` plays when given none
PUZZLES = ROOT / "puzzles"   # where a puzzle named but not found here is looked for
MAX_LABEL = 40               # characters of a version's name (run --label)

_INTEGER = re.compile(r"-?[0-9]{1,18}")
_NUMBER = re.compile(r"-?([0-9]{1,18}(\.[0-9]*)?|\.[0-9]+)([eE][-+]?[0-9]{1,3})?")


def integer(low: int | None = None):
    """An argparse type: a base-10 integer in ASCII digits, at least `low`."""
    def parse(text: str) -> int:
        if not _INTEGER.fullmatch(text):
            raise argparse.ArgumentTypeError(f"not an integer: {text!r}")
        value = int(text)
        if low is not None and value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}, got {value}")
        return value
    return parse


_SEEDS = re.compile(r"([0-9]{1,9})(-([0-9]{1,9}))?")
MAX_SEEDS = 1000


def seed_list(text: str) -> tuple[int, ...]:
    """An argparse type: seeds as `N`, `A-B` (A to B) or a comma list of those, e.g.
    `1-4,9`; each at least 0, none twice, at most MAX_SEEDS in all."""
    seeds: list[int] = []
    for part in text.split(","):
        match = _SEEDS.fullmatch(part)
        if not match:
            raise argparse.ArgumentTypeError(f"not a seed, a range A-B or a list of them: {text!r}")
        first = int(match.group(1))
        last = int(match.group(3)) if match.group(3) is not None else first
        if last < first:
            raise argparse.ArgumentTypeError(f"a range must run upwards, got {part}")
        if len(seeds) + last - first + 1 > MAX_SEEDS:
            raise argparse.ArgumentTypeError(f"at most {MAX_SEEDS} seeds, got more in {text!r}")
        seeds.extend(range(first, last + 1))
    if len(set(seeds)) != len(seeds):
        raise argparse.ArgumentTypeError(f"a seed named twice in {text!r}")
    return tuple(seeds)


def number(low: float = 0.0, high: float = math.inf, low_open: bool = False):
    """An argparse type: a finite decimal number in ASCII, in [low, high] ((low, high] if low_open)."""
    def parse(text: str) -> float:
        if not _NUMBER.fullmatch(text):
            raise argparse.ArgumentTypeError(f"not a number: {text!r}")
        value = float(text)
        if not math.isfinite(value) or value < low or value > high or (low_open and value == low):
            raise argparse.ArgumentTypeError(
                f"must be {'positive' if low == 0 and low_open else f'at least {low:g}'}"
                + (f" and at most {high:g}" if high != math.inf else "") + f", got {text}")
        return value
    return parse


def output_path(text: str) -> str:
    """An argparse type: a file or folder to write. Not empty (that is the current
    directory) and not `-`, which other tools read as stdout: here it would be a file."""
    if not text:
        raise argparse.ArgumentTypeError("the path is empty")
    if text == "-":
        raise argparse.ArgumentTypeError("'-' is not stdout here: give a path")
    return text


# Arguments read as files when they name one: a script or archive a bot's interpreter runs.
SCRIPT_SUFFIXES = (".py", ".js", ".jar", ".class", ".rb", ".pl", ".php", ".sh", ".lua")


def command_argv(command: str, option: str, cwd: Path | None = None) -> list[str]:
    """Split a bot command given as `option`, check it can start, and make its paths
    absolute, so the bot starts alike from any folder (and a replay line works anywhere).

    As in a shell, a program named with a `/` (./a.out, ../x/bot) is read from `cwd`
    (default: the working folder) and a bare word (java, python3) is looked up on PATH.
    A .py script given as the program and not executable runs with the Python that runs
    the referee. An argument that names a file or folder by a relative path with a `/`, or
    a script (SCRIPT_SUFFIXES) there, becomes absolute; a .py script must exist.
    """
    what = option.lstrip("-")
    try:
        argv = shlex.split(command)
    except ValueError as error:
        raise UsageError(f"cannot parse {option} {command!r}: {error}") from None
    if not argv:
        raise UsageError(f"{option} is empty")
    base = Path.cwd() if cwd is None else Path(cwd)
    said = argv[0]
    if python_script(base / said):
        argv = [sys.executable, *argv]
    elif "/" in said:
        argv[0] = _absolute(base, said)
    program = shutil.which(argv[0])
    if program is None:
        raise UsageError(f"{what} program {unusable(said, base)}: {said}")
    missing = missing_interpreter(Path(program))
    if missing:
        raise UsageError(f"{what} program {said} starts with #!{missing}, which is not there")
    for index, arg in enumerate(argv[1:], start=1):
        if arg.endswith(".py") and not arg.startswith("-") and not (base / arg).is_file():
            raise UsageError(f"{what} script not found: {arg}")
        if _names_a_path(base, arg):
            argv[index] = _absolute(base, arg)
    return argv


def python_script(path: Path) -> bool:
    """A .py file that cannot run as a program: the referee's Python runs it."""
    try:
        return path.suffix == ".py" and path.is_file() and not os.access(path, os.X_OK)
    except OSError:   # a name too long
        return False


def _names_a_path(base: Path, arg: str) -> bool:
    """The argument is a relative path to something that exists: one with a `/`, or a
    script by its name (`bot.js`); never an option nor a bare word such as a class name."""
    if arg.startswith("-") or os.path.isabs(arg) or not ("/" in arg or arg.endswith(SCRIPT_SUFFIXES)):
        return False
    try:
        return (base / arg).exists()
    except OSError:   # a name too long
        return False


def _absolute(base: Path, name: str) -> str:
    return os.path.abspath(os.path.join(base, name))


def unusable(program: str, base: Path) -> str:
    """Why a program `shutil.which` did not find cannot start: 'not found', or what is
    there under that name ('is a directory', 'not executable')."""
    if "/" in program:
        candidates = [base / program]
    else:
        path = os.environ.get("PATH", os.defpath).split(os.pathsep)
        candidates = [Path(folder or ".") / program for folder in path]
    for candidate in candidates:
        try:
            if candidate.is_dir():
                return "is a directory"
            if candidate.exists():
                return "not executable"
        except OSError:
            continue
    return "not found"


def missing_interpreter(program: Path) -> str:
    """The interpreter a script's `#!` line names when it cannot be found ('' otherwise,
    or for a program that is no script): the kernel would refuse to start it, and the
    match would only say the bot exited with status 127."""
    try:
        with program.open("rb") as file:
            first = file.readline(256)
    except OSError:
        return ""
    if not first.startswith(b"#!"):
        return ""
    words = first[2:].decode("utf-8", "replace").split()
    if not words:
        return ""
    if Path(words[0]).name == "env":   # #!/usr/bin/env python3: found on PATH
        names = [word for word in words[1:] if not word.startswith("-") and "=" not in word]
        if names and shutil.which(names[0]) is None:
            return " ".join(words)
        return ""
    return "" if os.access(words[0], os.X_OK) else " ".join(words)


def real_path(name: str | Path) -> Path:
    """The path with every symlink followed, to compare two arguments: a symlink loop is
    followed as far as it goes (Path.resolve raises on one). A usage error for a name no
    file can have (a NUL byte in it)."""
    if "\0" in str(name):
        raise UsageError(f"{str(name)!r} is no file's name: it holds a NUL byte")
    return Path(os.path.realpath(name))


def unwritable(name: str) -> str:
    """Why `name` cannot take an output file, in a few words ('' if it can): checked before
    the work, not found after it. A pipe or a device would block the write for ever."""
    path = Path(name)
    try:
        if path.is_dir():
            return "is a directory"
        if path.is_symlink() and not path.exists():
            return "a symlink to nowhere (or a loop of them)"
        if path.exists() and not path.is_file():
            return "not a regular file"
        folder = real_path(name).parent
        if not folder.is_dir():
            return "no such directory"
        if not os.access(path if path.exists() else folder, os.W_OK):
            return "not writable"
    except OSError as error:   # a name too long, a folder that cannot be searched
        return error.strerror or str(error)
    return ""


def refuse_twice(keys: list, said: list[str], what: str = "") -> None:
    """A usage error naming the first of `said` whose key an earlier one has: a puzzle,
    folder or spec given twice would be played or timed twice."""
    seen = set()
    for key, text in zip(keys, said):
        if key in seen:
            raise UsageError(f"{what}{text} is named twice")
        seen.add(key)


def puzzle_paths(args: list[str], default: bool = True) -> list[Path]:
    """The puzzle files named, directories expanded (sorted); without any, the public
    tests when `default`. A file or folder named twice, or a file also in a folder
    named, is refused: its match would be played and counted twice."""
    named = [checkout_puzzle(arg) for arg in args] or (
        [str(relative_path(in_checkout(PUBLIC, "give PUZZLE files or --gen SPEC")))]
        if default else [])
    refuse_twice([real_path(arg) for arg in named], named)
    paths = []
    for arg in named:
        try:
            paths += puzzle_files(arg)
        except BoardError as error:
            raise UsageError(str(error)) from None
    refuse_twice([real_path(path) for path in paths], [str(path) for path in paths])
    return paths


def checkout_puzzle(name: str) -> str:
    """`name` as given where it names a file or folder here; else the checkout's puzzle or
    folder of that name (`public`, `public/04_basic`, `hard30/30x30_hard_unique_s1_000.txt`),
    so a player's examples work from the bot's own folder."""
    if os.path.lexists(name) or "\0" in name or os.path.isabs(name):
        return name
    for candidate in (PUZZLES / name, PUZZLES / f"{name}.txt"):
        if PUZZLES in candidate.resolve().parents and candidate.exists():
            return str(relative_path(candidate))
    return name


def spoon2_words() -> list[str]:
    """spoon2 as a player types it here, for the commands a report prints: `spoon2` where
    PATH finds this very script, else the script's path, else this Python's `-m referee`
    (a checkout run without `make run`)."""
    script = Path(sys.executable).with_name("spoon2")
    if not script.is_file():
        return [str(relative_path(Path(sys.executable))), "-m", "referee"]
    found = shutil.which("spoon2")
    if found and os.path.samefile(found, script):
        return ["spoon2"]
    return [str(relative_path(script))]


def relative_path(path: Path) -> Path:
    """The path relative to the working directory when it lies below it."""
    try:
        return path.relative_to(Path.cwd())
    except ValueError:
        return path


def default_bot() -> str:
    """The checkout's bundle run by this Python, whatever the working folder."""
    bundle = in_checkout(BUNDLE, "give --bot CMD", build="build it with `make build`")
    return shlex.join([sys.executable, str(bundle)])


def bot_argv(command: str) -> list[str]:
    """Split the bot command, its paths made absolute, and check it can start."""
    return command_argv(command, "--bot")


def label_type(text: str) -> str:
    """An argparse type: a version's name, 1 to MAX_LABEL printable characters."""
    name = text.strip()
    if not name or len(name) > MAX_LABEL or safe(name) != name:
        raise argparse.ArgumentTypeError(f"a name is 1 to {MAX_LABEL} printable characters, "
                                         f"got {safe(text)!r}")
    return name


def version_labels(given: list[str] | None, bots: int) -> tuple[str | None, ...]:
    """Each bot's --label, in --bot order: none, or one per bot."""
    if not given:
        return (None,) * bots
    if len(given) != bots:
        raise UsageError(f"--label: give one per --bot ({bots}), got {len(given)}")
    return tuple(given)
