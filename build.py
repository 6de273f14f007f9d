"""Bundle the bot/ package into one CodinGame file, dist/bot.py, with stickytape.

    python build.py            build, check and smoke-run dist/bot.py
    python build.py --check    exit 1 if dist/bot.py is not what bot/ builds now
    python build.py --watch    rebuild whenever a file under bot/ changes (Ctrl-C stops)

The bundle must fit CodinGame's 100,000-character limit and be plain ASCII. It is
reproducible: building twice from the same sources gives the same bytes. At run time the
bundle writes its modules to a fresh temporary directory (stickytape's design) and removes it
on exit.

A build writes the bundle beside dist/bot.py, smoke-runs it there, and only then renames
it over dist/bot.py: a reader never sees a half-written file, and a bundle that fails its
smoke run never replaces the last good one. --watch polls the modification times of
bot/'s files (--interval seconds), prints one line per build and keeps watching after a
failed one.
"""

import argparse
import ast
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import stickytape

ROOT = Path(__file__).resolve().parent
PACKAGE = ROOT / "bot"
ENTRY = PACKAGE / "__main__.py"
OUTPUT = ROOT / "dist" / "bot.py"
PENDING = OUTPUT.with_name(".bot.py.new")   # the build in progress, renamed when good
SMOKE_PUZZLE = ROOT / "puzzles" / "public" / "13_expert.txt"
CODINGAME_MAX_CHARS = 100_000
SMOKE_TIMEOUT_S = 10
WATCH_INTERVAL_S = 0.5
HEADER = "# Built by build.py from the bot/ package: edit bot/, not this file.\n"


class BuildError(Exception):
    """The bundle cannot be used on CodinGame."""


def bundle():
    """The bundle's text, checked against CodinGame's limits."""
    with tempfile.TemporaryDirectory() as scratch:
        try:
            entry = _shipped_copy(Path(scratch))
            text = stickytape.script(str(entry), add_python_paths=[scratch])
        except SyntaxError as error:
            where = Path(error.filename or "?").name
            raise BuildError(f"{where} line {error.lineno}: {error.msg}") from None
    shebang, _, rest = text.partition("\n")
    text = shebang + "\n" + HEADER + rest + "\n"
    if len(text) > CODINGAME_MAX_CHARS:
        raise BuildError(f"bundle is {len(text):,} characters, over CodinGame's "
                         f"{CODINGAME_MAX_CHARS:,}")
    bad = next((c for c in text if not c.isascii()), None)
    if bad is not None:
        raise BuildError(f"bundle holds a non-ASCII character {bad!r}: keep bot/ sources ASCII")
    return text


def _shipped_copy(scratch):
    """Copy bot/ under `scratch` as it ships: without docstrings and comments, which are
    for the people reading bot/ and would cost CodinGame's 100,000 characters. Returns the
    copy's entry point. (ast.unparse is deterministic: the bundle stays reproducible.)"""
    for source in sorted(PACKAGE.rglob("*.py")):
        target = scratch / "bot" / source.relative_to(PACKAGE)
        target.parent.mkdir(parents=True, exist_ok=True)
        tree = ast.parse(source.read_text(encoding="utf-8"), filename=str(source))
        target.write_text(ast.unparse(_without_docstrings(tree)) + "\n", encoding="utf-8")
    return scratch / "bot" / ENTRY.name


def _without_docstrings(tree):
    """The tree with the docstring of every module, class and function left out."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                    and isinstance(body[0].value.value, str):
                node.body = body[1:] or [ast.Pass()]
    return tree


def _answer(command, puzzle):
    """(exit status, stdout lines, last stderr line, seconds) of one bot run on `puzzle`."""
    start = time.perf_counter()
    try:
        run = subprocess.run(command, input=puzzle, capture_output=True, text=True,
                             timeout=SMOKE_TIMEOUT_S, cwd=ROOT)
    except subprocess.TimeoutExpired:
        raise BuildError(f"{command[-1]} gave no answer on {SMOKE_PUZZLE.name} "
                         f"within {SMOKE_TIMEOUT_S} s") from None
    tail = (run.stderr.strip().splitlines() or ["no stderr"])[-1]
    return run.returncode, run.stdout.splitlines(), tail, time.perf_counter() - start


def smoke(path):
    """Run the bundle on one puzzle; its lines must equal the package's (`python -m bot`).

    The package runs in a fresh process too, so --watch compares with the sources as
    they are now, not as this process first imported them.
    """
    puzzle = SMOKE_PUZZLE.read_text()
    _, expected, _, _ = _answer([sys.executable, "-m", "bot"], puzzle)
    status, lines, tail, seconds = _answer([sys.executable, str(path)], puzzle)
    if status != 0 or lines != expected:
        raise BuildError(f"bundle's answer on {SMOKE_PUZZLE.name} differs from the package's "
                         f"(exit {status}: {tail})")
    return len(expected), seconds * 1000


def build():
    """Write, smoke-run and install dist/bot.py; return the line that reports it."""
    text = bundle()
    OUTPUT.parent.mkdir(exist_ok=True)
    try:
        with open(PENDING, "w", newline="\n") as out:
            out.write(text)
        links, elapsed_ms = smoke(PENDING)
        os.replace(PENDING, OUTPUT)
    finally:
        PENDING.unlink(missing_ok=True)
    share = 100 * len(text) / CODINGAME_MAX_CHARS
    return (f"dist/bot.py {len(text):,} characters ({share:.0f}% of CodinGame's "
            f"{CODINGAME_MAX_CHARS:,}); smoke run on {SMOKE_PUZZLE.name}: {links} links, "
            f"{elapsed_ms:.0f} ms")


def check():
    if not OUTPUT.exists() or OUTPUT.read_text() != bundle():
        print("build: dist/bot.py is out of date with bot/: run `make build`",
              file=sys.stderr)
        return 1
    print("build: dist/bot.py is up to date")
    return 0


def sources():
    """{path: (modification time, size)} of every file under bot/ but Python's caches."""
    found = {}
    for path in PACKAGE.rglob("*"):
        if path.is_file() and "__pycache__" not in path.parts:
            try:
                stat = path.stat()
            except FileNotFoundError:   # removed while we looked: the next poll sees it
                continue
            found[path] = (stat.st_mtime_ns, stat.st_size)
    return found


def changed(before, after):
    """The names of the files added, removed or modified between two `sources()`."""
    return sorted(str(path.relative_to(ROOT)) for path in before.keys() | after.keys()
                  if before.get(path) != after.get(path))


def watch(interval, max_builds=None):
    """Build now and after every change under bot/; stop after `max_builds` (None: never)."""
    builds, seen, why = 0, sources(), "start"
    while True:
        stamp = time.strftime("%H:%M:%S")
        try:
            print(f"build {stamp} ({why}): {build()}", flush=True)
        except BuildError as error:
            print(f"build {stamp} ({why}): FAILED, dist/bot.py left as it was: {error}",
                  flush=True)
        builds += 1
        if max_builds is not None and builds >= max_builds:
            return 0
        while True:
            time.sleep(interval)
            now = sources()
            if now != seen:
                why, seen = ", ".join(changed(seen, now)), now
                break


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true",
                      help="only check that dist/bot.py is up to date")
    mode.add_argument("--watch", action="store_true",
                      help="rebuild whenever a file under bot/ changes")
    parser.add_argument("--interval", type=float, default=WATCH_INTERVAL_S, metavar="S",
                        help=f"--watch: seconds between looks at bot/ (default: {WATCH_INTERVAL_S})")
    parser.add_argument("--max-builds", type=int, default=None, metavar="N",
                        help="--watch: stop after N builds, the first included (default: never)")
    args = parser.parse_args()
    if args.interval <= 0 or (args.max_builds is not None and args.max_builds < 1):
        parser.error("--interval must be positive and --max-builds at least 1")
    if args.watch:
        try:
            return watch(args.interval, args.max_builds)
        except KeyboardInterrupt:
            return 0
    try:
        if args.check:
            return check()
        print(f"build: {build()}")
    except BuildError as error:
        print(f"build: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
