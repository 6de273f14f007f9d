"""Bundle the bot/ package into one CodinGame file, dist/bot.py, with stickytape.

    python build.py            build, check and smoke-run dist/bot.py
    python build.py --check    exit 1 if dist/bot.py is not what bot/ builds now
    python build.py --watch    rebuild whenever a file under bot/ changes (Ctrl-C stops)

The bundle holds the modules the bot's entry point imports (stickytape follows the imports;
the lazily loaded explainer and the library's modules stay out), each as readable Python:
bot/'s code without its docstrings, comments and spare whitespace (python-minifier with
every name and literal kept as written), written out line by line rather than as one
escaped string. What the bot never names stays out too: a function, method or class whose
name appears nowhere else in the shipped code (the tests' and the lab's entry points), and
the packages' own exports (each `__init__.py` ships empty: the bot imports its names from
the modules that define them).
It must stay within BUNDLE_MAX_CHARS, well under CodinGame's 100,000, so that a player has
room to change it, and be plain ASCII. It is reproducible: building twice from the same
sources gives the same bytes. At run time the bundle writes its modules to a fresh
temporary directory (stickytape's design) and removes it on exit.

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

import python_minifier
import stickytape

ROOT = Path(__file__).resolve().parent
PACKAGE = ROOT / "bot"
ENTRY = PACKAGE / "__main__.py"
OUTPUT = ROOT / "dist" / "bot.py"
PENDING = OUTPUT.with_name(".bot.py.new")   # the build in progress, renamed when good
SMOKE_PUZZLE = ROOT / "puzzles" / "public" / "13_expert.txt"
CODINGAME_MAX_CHARS = 100_000
BUNDLE_MAX_CHARS = 70_000   # the rest of CodinGame's 100,000 is a player's room to change the bot
SMOKE_TIMEOUT_S = 10
WATCH_INTERVAL_S = 0.5
HEADER = "# Built by build.py from bot/ (read it for the docstrings and comments): edit bot/.\n"
# python-minifier for the layout, and two rewrites that read the same: `return None` as
# `return`, imports of one statement combined. Every name and literal stays as written.
MINIFY = dict(remove_literal_statements=False, rename_locals=False, rename_globals=False,
              hoist_literals=False, remove_annotations=False, remove_pass=False,
              remove_object_base=False, convert_posargs_to_args=False, combine_imports=True,
              remove_explicit_return_none=True, remove_builtin_exception_brackets=False,
              constant_folding=False, remove_dead_branches=False, remove_asserts=False,
              remove_debug=False, prefer_single_line=False)
WRITE_MODULE = "__stickytape_write_module"   # the call stickytape writes each module with
WRITER = f"    {WRITE_MODULE}("              # how stickytape's line for each module begins


class BuildError(Exception):
    """The bundle cannot be used on CodinGame."""


def bundle():
    """The bundle's text, checked against its size bound and CodinGame's limits."""
    with tempfile.TemporaryDirectory() as scratch:
        try:
            entry = _shipped_copy(Path(scratch))
            text = stickytape.script(str(entry), add_python_paths=[scratch])
        except SyntaxError as error:
            where = Path(error.filename or "?").name
            raise BuildError(f"{where} line {error.lineno}: {error.msg}") from None
    shebang, _, rest = text.partition("\n")
    text = shebang + "\n" + HEADER + _written_out(rest) + "\n"
    if len(text) > BUNDLE_MAX_CHARS:
        raise BuildError(f"bundle is {len(text):,} characters, over the {BUNDLE_MAX_CHARS:,} "
                         f"allowed (CodinGame's limit is {CODINGAME_MAX_CHARS:,})")
    bad = next((c for c in text if not c.isascii()), None)
    if bad is not None:
        raise BuildError(f"bundle holds a non-ASCII character {bad!r}: keep bot/ sources ASCII")
    return text


def _shipped_copy(scratch):
    """Copy bot/ under `scratch` as it ships: without docstrings, comments and spare
    whitespace, which are for the people reading bot/ and would cost more than half the
    bundle, and without what the bot never names (`unnamed`). Returns the copy's entry
    point. (ast and the minifier are deterministic: the bundle stays reproducible.)"""
    trees = {}
    for source in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(source.read_text(encoding="utf-8"), filename=str(source))
        trees[source.relative_to(PACKAGE)] = _without_docstrings(tree)
    for path in trees:
        if path.name == "__init__.py":  # a package's exports are the library's
            trees[path] = ast.Module(body=[], type_ignores=[])
    entry = scratch / "bot" / ENTRY.name
    _write(scratch, trees)
    shipped = {Path(path).relative_to("bot") for path in
               modules(stickytape.script(str(entry), add_python_paths=[str(scratch)]))}
    shipped.add(ENTRY.relative_to(PACKAGE))  # the script itself, which names what it runs
    _leave_out_unnamed({path: trees[path] for path in shipped})
    _write(scratch, trees)
    return entry


def _write(scratch, trees):
    """Write each module's tree under `scratch`, laid out by python-minifier."""
    for path, tree in trees.items():
        target = scratch / "bot" / path
        target.parent.mkdir(parents=True, exist_ok=True)
        code = python_minifier.minify(ast.unparse(tree), **MINIFY) if tree.body else ""
        target.write_text(code + "\n", encoding="utf-8")


def unnamed(trees):
    """The definitions (functions, methods, classes) of `trees` whose name, not a dunder,
    appears nowhere in them but where it is defined: as a name, an attribute, an import
    or a string (which getattr could read). None of them can run. [(holder, node)]"""
    named = set()
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.Name):
                named.add(node.id)
            elif isinstance(node, ast.Attribute):
                named.add(node.attr)
            elif isinstance(node, ast.alias):
                named.add((node.asname or node.name).split(".")[0])
                named.add(node.name.split(".")[-1])
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                named.add(node.value)
    found = []
    for tree in trees:
        for holder in [tree] + [n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)]:
            for node in holder.body:
                if isinstance(node, (ast.FunctionDef, ast.ClassDef)) \
                        and not node.name.startswith("__") and node.name not in named:
                    found.append((holder, node))
    return found


def _leave_out_unnamed(trees):
    """Take every unnamed definition out of `trees`, until none is left (one taken out
    may have been the only one to name another)."""
    while True:
        found = unnamed(trees.values())
        if not found:
            return
        for holder, node in found:
            holder.body = [n for n in holder.body if n is not node] or [ast.Pass()]


def _without_docstrings(tree):
    """The tree with the docstring of every module, class and function left out."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                    and isinstance(body[0].value.value, str):
                node.body = body[1:] or [ast.Pass()]
    return tree


def _written_out(text):
    """Stickytape's text with each module's source written line by line, as a raw
    triple-quoted literal, rather than as one line of escapes (`\\n`, `\\t`): a player reads
    it in CodinGame's editor, and each escape costs a character."""
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if line.startswith(WRITER):
            lines[i] = _raw_writer(line)
    return "\n".join(lines)


def _raw_writer(line):
    """One of stickytape's module-writing lines with the module as a raw ''' literal; the
    line as it was where that literal would not give the same bytes (a ''' in the code, or
    a non-ASCII character)."""
    call = ast.parse(line.strip()).body[0].value
    path, contents = call.args[0].value, call.args[1].value
    literal = "rb'''" + contents.decode("ascii", "replace") + "'''"
    try:
        same = ast.literal_eval(literal) == contents
    except (SyntaxError, ValueError):
        same = False
    return f"{WRITER}{path!r}, {literal})" if same else line


def modules(text):
    """{path: contents} that a bundle's text writes, in order."""
    return {node.args[0].value: node.args[1].value for node in ast.walk(ast.parse(text))
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == WRITE_MODULE}


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
            f"{CODINGAME_MAX_CHARS:,}, bound {BUNDLE_MAX_CHARS:,}); smoke run on "
            f"{SMOKE_PUZZLE.name}: {links} links, {elapsed_ms:.0f} ms")


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
