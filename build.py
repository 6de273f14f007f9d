"""Bundle the bot/ package into one CodinGame file, dist/bot.py, a file a player can read.

    python build.py            build, check and smoke-run dist/bot.py
    python build.py --check    exit 1 if dist/bot.py is not what bot/ builds now
    python build.py --sizes    what each module costs in dist/bot.py, as a Markdown table
    python build.py --watch    rebuild whenever a file under bot/ changes (Ctrl-C stops)

The bundle holds the modules the bot's entry point imports (stickytape follows the imports;
the library's modules stay out), each as readable Python:
bot/'s code without its docstrings and comments, with compact spacing (python-minifier with
every name and literal kept as written), one statement a line and no line over LINE_CHARS
(`laid_out`). What the bot never names stays out too: a function, method or class whose
name appears nowhere else in the shipped code (the tests' and the lab's entry points), and
the packages' own exports (each `__init__.py` ships empty: the bot imports its names from
the modules that define them).
Each module ships as the source text of one entry of a dict, MODULES, that the bundle's
importer imports from memory: nothing is written to disk at run time. Compiling is most of
the bot's start-up, so the importer compiles a module without the bodies LAZY lists, each
compiled into its function when first called: all but those the bot runs on SMOKE_PUZZLE,
a board its rules solve (`lazy_bodies`, from what bot/bundle/calls.py hears there).
The importer is bot/bundle/importer.py (RUNTIME), laid out after LAZY as the modules are
but with its docstrings as comments, and without its stand-ins for what the bundle sets
before it (BUILT); the code that compiles a body late, bot/bundle/lazy.py, ships as one of
MODULES, imported at the first such call.
The build refuses only what CodinGame would (over CODINGAME_MAX_CHARS)
and non-ASCII text; the project's budget, BUDGET_CHARS, leaves a player room to change the
bot, and the report and tests/bot/test_build.py hold it. It is reproducible: building twice
from the same sources gives the same bytes.

A build writes the bundle beside dist/bot.py, smoke-runs it there, and only then renames
it over dist/bot.py: a reader never sees a half-written file, and a bundle that fails its
smoke run never replaces the last good one. --watch polls the modification times of
bot/'s files (--interval seconds), prints one line per build and keeps watching after a
failed one.
"""

import argparse
import ast
import inspect
import io
import json
import os
import subprocess
import sys
import tempfile
import time
import tokenize
from pathlib import Path
from typing import NamedTuple

import python_minifier
import stickytape

ROOT = Path(__file__).resolve().parent
PACKAGE = ROOT / "bot"
ENTRY = PACKAGE / "__main__.py"
OUTPUT = ROOT / "dist" / "bot.py"
PENDING = OUTPUT.with_name(".bot.py.new")   # the build in progress, renamed when good
SMOKE_PUZZLE = ROOT / "puzzles" / "public" / "13_expert.txt"
RUNTIME = PACKAGE / "bundle" / "importer.py"   # the bundle's importer, laid out after LAZY
CALLS = PACKAGE / "bundle" / "calls.py"        # what the bot calls, run in its shipped copy
LOADER = "bot/bundle/lazy.py"   # the module of LazyBodies: no body of its own waits for it
BUILT = {"MODULES", "LAZY", "MODULES_LINE"}    # set before RUNTIME's text, stand-ins in it
CODINGAME_MAX_CHARS = 100_000   # the build refuses more: CodinGame would
BUDGET_CHARS = 80_000   # the project's bound (tests/bot/test_build.py): the rest is a player's room
LINE_CHARS = 120        # the widest line of the bundle, for CodinGame's editor
SMOKE_TIMEOUT_S = 10
WATCH_INTERVAL_S = 0.5
# The bundle's first lines: where a player finds the options, how the project rebuilds it.
HEADER = """\
#!/usr/bin/env python3
# spoon2's bot for CodinGame's There Is No Spoon - Episode 2, built by build.py from bot/.
# The solver's options, one a line with its default: FIELDS in bot/options.py, line {options}.
# To change the bot for good, edit bot/ in the project and rebuild: python build.py (make build).
# Below: MODULES, each module's source; then BundleImporter, which imports them from memory.
"""
OPTIONS_LINE = "FIELDS="   # how the line of the options begins
# python-minifier for the layout, and two rewrites that read the same: `return None` as
# `return`, imports of one statement combined. Every name and literal stays as written.
MINIFY = dict(remove_literal_statements=False, rename_locals=False, rename_globals=False,
              hoist_literals=False, remove_annotations=False, remove_pass=False,
              remove_object_base=False, convert_posargs_to_args=False, combine_imports=True,
              remove_explicit_return_none=True, remove_builtin_exception_brackets=False,
              constant_folding=False, remove_dead_branches=False, remove_asserts=False,
              remove_debug=False, prefer_single_line=False)
WRITE_MODULE = "__stickytape_write_module"   # the call stickytape writes each module with
COMPOUND = {"if", "elif", "else", "for", "while", "try", "except", "finally", "with", "def",
            "class", "async"}   # the keywords whose line ends in a colon and a body
OPENING, CLOSING = set("([{"), set(")]}")
# Where a long line breaks, best first: after a comma, before `or`, `and`, a conditional or a
# comprehension's clause, before another operator.
BREAKS = ({","}, {"or"}, {"and"}, {"if", "else", "for"},
          {"+", "-", "*", "/", "//", "%", "|", "&", "^", "<<", ">>", "==", "!=", "<", ">",
           "<=", ">=", "in", "not", "is"})
LAZY_MIN_CHARS = 80   # a shorter body costs less to compile with its module than alone
LAZY_COMMENT = """\
# Bodies compiled at their function's first call, not with their module (compiling is most
# of the start; build.py, lazy_bodies): the module's length, then each body's first and
# last line in MODULES[file].split('\\n').
"""


class BuildError(Exception):
    """The bundle cannot be used on CodinGame."""


def bundle():
    """The bundle's text, refused only where CodinGame would refuse it (over its size limit)
    or the project would (a non-ASCII character). The project's own budget, BUDGET_CHARS,
    is the report's and the tests' to hold."""
    with tempfile.TemporaryDirectory() as scratch:
        try:
            entry = _shipped_copy(Path(scratch))
            shipped = _imported(Path(scratch))
        except SyntaxError as error:
            where = Path(error.filename or "?").name
            raise BuildError(f"{where} line {error.lineno}: {error.msg}") from None
        text = assembled(shipped, entry.read_text(encoding="utf-8"),
                         called_on_smoke_puzzle(scratch))
    if len(text) > CODINGAME_MAX_CHARS:
        raise BuildError(f"bundle is {len(text):,} characters, over CodinGame's limit of "
                         f"{CODINGAME_MAX_CHARS:,}")
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
    shipped = {Path(path).relative_to("bot") for path in _imported(scratch)}
    shipped.add(ENTRY.relative_to(PACKAGE))  # the script itself, which names what it runs
    _leave_out_unnamed({path: trees[path] for path in shipped},
                       [trees[RUNTIME.relative_to(PACKAGE)]])   # which names LazyBodies
    _write(scratch, trees)
    return entry


def _imported(scratch):
    """{path: source} of the modules that the entry point and the runtime of the copy under
    `scratch` import, as stickytape collects them: the entry point's first."""
    found = {}
    for script in (ENTRY, RUNTIME):
        copy = scratch / script.relative_to(ROOT)
        found.update(collected(stickytape.script(str(copy), add_python_paths=[str(scratch)])))
    return found


def _write(scratch, trees):
    """Write each module's tree under `scratch`, laid out by python-minifier, then one
    statement a line (`laid_out`)."""
    for path, tree in trees.items():
        target = scratch / "bot" / path
        target.parent.mkdir(parents=True, exist_ok=True)
        code = laid_out(python_minifier.minify(ast.unparse(tree), **MINIFY)) if tree.body else ""
        target.write_text(code, encoding="utf-8")


def unnamed(trees, namers=()):
    """The definitions (functions, methods, classes) of `trees` whose name, not a dunder,
    appears nowhere in them or in `namers` but where it is defined: as a name, an
    attribute, an import or a string (which getattr could read). None of them can run.
    [(holder, node)]"""
    named = set()
    for tree in [*trees, *namers]:
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


def _leave_out_unnamed(trees, namers=()):
    """Take every unnamed definition out of `trees`, until none is left (one taken out
    may have been the only one to name another); `namers` count where names are used."""
    while True:
        found = unnamed(trees.values(), namers)
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


def laid_out(code, comments=False):
    """python-minifier's `code` with one statement a line: the `;` between statements and
    the colon that ends a compound statement's first line start new lines. A line longer
    than LINE_CHARS breaks inside its brackets (`_wrapped`). Only the layout changes: the
    code parses to the same tree, but with `comments`, where each string statement (a
    docstring) is written as comment lines."""
    return "".join(line + "\n" for level, text in _statements(code)
                   for line in (_commented(level, text) if comments and _is_string(text)
                                else _wrapped(level, text)))


def _is_string(text):
    """Whether the statement `text` is a string alone (a docstring)."""
    if text[0] not in "'\"":   # not a string, and maybe no whole statement: `def f():`
        return False
    node = ast.parse(text).body[0]
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) \
        and isinstance(node.value.value, str)


def _commented(level, text):
    """The string statement `text` at indentation `level` as comment lines."""
    return ["\t" * level + ("# " + line).rstrip()
            for line in inspect.cleandoc(ast.literal_eval(text)).split("\n")]


def _statements(code):
    """(indentation level, text) of each statement of `code`, in order."""
    starts = _line_starts(code)
    found, level, line = [], 0, []
    for token in tokenize.generate_tokens(io.StringIO(code).readline):
        if token.type == tokenize.INDENT:
            level += 1
        elif token.type == tokenize.DEDENT:
            level -= 1
        elif token.type == tokenize.NEWLINE:
            found += [(depth, code[starts[a.start[0] - 1] + a.start[1]:
                                  starts[b.end[0] - 1] + b.end[1]])
                      for depth, a, b in _split_line(line, level)]
            line = []
        elif token.type not in (tokenize.NL, tokenize.COMMENT):
            line.append(token)
    return found


def _line_starts(code):
    """The offset in `code` of each of its lines' first character."""
    starts, total = [], 0
    for line in code.splitlines(keepends=True):
        starts.append(total)
        total += len(line)
    return starts + [total]


def _split_line(tokens, level):
    """One logical line's statements: [(indentation level, first token, last token)]."""
    pieces, begin, depth, lambdas = [], 0, 0, 0
    header = tokens[0].string in COMPOUND
    for k, token in enumerate(tokens):
        op = token.string if token.type == tokenize.OP else None
        if op in OPENING:
            depth += 1
        elif op in CLOSING:
            depth -= 1
        elif depth or op not in (":", ";"):
            lambdas += token.type == tokenize.NAME and token.string == "lambda" and not depth
        elif op == ":" and lambdas:    # the colon of a lambda
            lambdas -= 1
        elif op == ":" and header:     # the end of a compound statement's first line
            pieces.append((level, begin, k))
            begin, level, header = k + 1, level + 1, False
        elif op == ";":
            pieces.append((level, begin, k - 1))
            begin = k + 1
    pieces.append((level, begin, len(tokens) - 1))
    return [(depth, tokens[a], tokens[b]) for depth, a, b in pieces if b >= a]


class _Token(NamedTuple):
    start: int    # offsets in the statement's text
    end: int
    string: str
    depth: int    # the brackets open before it


def _tokens(text):
    """The tokens of one statement's `text`, with their offsets and depths."""
    starts, found, depth = _line_starts(text), [], 0
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type in (tokenize.NEWLINE, tokenize.NL, tokenize.ENDMARKER, tokenize.COMMENT):
            continue
        depth -= token.string in CLOSING and token.type == tokenize.OP
        found.append(_Token(starts[token.start[0] - 1] + token.start[1],
                            starts[token.end[0] - 1] + token.end[1], token.string, depth))
        depth += token.string in OPENING and token.type == tokenize.OP
    return found


def _wrapped(level, text):
    """The lines of one statement at indentation `level`: itself where it fits in
    LINE_CHARS, else broken inside its brackets, each continuation indented one tab per
    bracket open. Where there are breaks of the best kind (BREAKS) at the shallowest depth,
    the statement breaks at each of them (so a list too long for a line has an item a
    line); a piece still too long breaks deeper. A statement with nowhere to break (one
    long string) stays as it is."""
    if level + len(text) <= LINE_CHARS:
        return ["\t" * level + text]
    text = _bracketed(text)
    tokens = _tokens(text)
    cuts = sorted(_cuts(tokens, 0, len(tokens), level, 1, level))
    lines = []
    for a, b in zip([0] + cuts, cuts + [len(tokens)]):
        indent = level + (tokens[a].depth if a else 0)
        lines.append("\t" * indent + text[tokens[a].start:tokens[b - 1].end])
    return lines


def _cuts(tokens, lo, hi, column, floor, level):
    """The tokens that begin a line when tokens[lo:hi] at `column` is too long: at each
    break of the best kind at the shallowest depth from `floor` that has one, then deeper
    in each piece still too long."""
    if column + tokens[hi - 1].end - tokens[lo].start <= LINE_CHARS:
        return []
    deepest = max(token.depth for token in tokens[lo:hi])
    for depth in range(floor, deepest + 1):
        for kinds in BREAKS:
            found = [k for k in range(lo + 1, hi)
                     if tokens[k].depth == depth and _breaks_before(tokens, k, kinds)]
            if found:
                cuts = list(found)
                for a, b in zip([lo] + found, found + [hi]):
                    start = column if a == lo else level + depth
                    cuts += _cuts(tokens, a, b, start, depth + 1, level)
                return cuts
    return []


def _breaks_before(tokens, k, kinds):
    """A line may break before tokens[k] for a break of `kinds`: after a comma, or before
    the operator or keyword."""
    return tokens[k - 1].string == "," if "," in kinds else tokens[k].string in kinds


def _bracketed(text):
    """`text` with the value of its assignment or `return`, or the condition of its `if`,
    `elif` or `while`, in parentheses if it could break only outside any bracket (a bare
    tuple, a chain of `and`): the same code, which can then break inside them."""
    head = "if" + text[4:] if text.startswith("elif") else text
    try:
        node = ast.parse(head + ("pass" if head.endswith(":") else "")).body[0]
    except SyntaxError:   # a line that cannot stand alone: `else:`, `except E:`
        return text
    value = node.test if isinstance(node, (ast.If, ast.While)) else \
        node.value if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Return)) \
        else None
    if value is None:
        return text
    shift = len(text) - len(head)
    a, b = value.col_offset + shift, value.end_col_offset + shift
    inner = _tokens(text[a:b])
    if not any(_breaks_before(inner, k, kinds) for kinds in BREAKS
               for k in range(1, len(inner)) if inner[k].depth == 0):
        return text
    return text[:a].rstrip() + "(" + text[a:b] + ")" + text[b:]


def collected(text):
    """{path: source} of the modules stickytape's `text` writes, in order."""
    return {node.args[0].value: node.args[1].value.decode("utf-8")
            for node in ast.walk(ast.parse(text))
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == WRITE_MODULE}


def assembled(shipped, script, called=frozenset()):
    """The bundle: the header, the modules' sources in MODULES, the bodies compiled lazily
    (LAZY: all but those of `called`, see `lazy_bodies`), the line MODULES opens, the
    importer (`runtime`), the script."""
    entries = "".join(f"{path!r}:{module_literal(code)},\n" for path, code in shipped.items())
    modules_line = HEADER.count("\n") + 1
    body = "MODULES={\n" + entries + "}\n" + _lazy_table(shipped, called) \
        + f"MODULES_LINE={modules_line}\n" + runtime() + script
    options = modules_line + next(
        n for n, line in enumerate(body.split("\n")) if line.startswith(OPTIONS_LINE))
    return HEADER.format(options=options) + body


def runtime():
    """The bundle's importer, RUNTIME, laid out as a module is, its docstrings as comments,
    without the stand-ins of what the bundle sets before it (BUILT)."""
    tree = ast.parse(RUNTIME.read_text(encoding="utf-8"))
    tree.body = [node for node in tree.body if not _sets_built(node)]
    return laid_out(python_minifier.minify(ast.unparse(tree), **MINIFY), comments=True)


def _sets_built(node):
    """Whether the statement `node` assigns one of BUILT, a stand-in in RUNTIME."""
    return isinstance(node, ast.Assign) and any(
        isinstance(target, ast.Name) and target.id in BUILT for target in node.targets)


def _lazy_table(shipped, called):
    """LAZY: {path: 'length first last ...'} of each module's `lazy_bodies`, as text (a
    string costs less to parse than as many numbers), cut into literals that fit a line."""
    lines = ["LAZY={"]
    started = {path for path, _ in called}
    for path, code in shipped.items():
        if called and path not in started or path == LOADER:
            continue   # imported when a board needs it (the search that learns): whole then
        text = module_text(code)
        chunks, width = [f"{len(text)} "], LINE_CHARS - len(repr(path)) - 6
        for a, b in lazy_bodies(text, path, called):
            if len(chunks[-1]) + len(f"{a} {b} ") > width:
                chunks.append("")
            chunks[-1] += f"{a} {b} "
        if chunks == [f"{len(text)} "]:
            continue   # no body waits: the module is compiled whole
        chunks = [repr(chunk) for chunk in chunks if chunk]
        if len(chunks) == 1:
            lines.append(f"{path!r}:{chunks[0]},")
        elif chunks:
            lines += [f"{path!r}:({chunks[0]}"] + [f"\t{c}" for c in chunks[1:-1]] \
                + [f"\t{chunks[-1]}),"]
    return LAZY_COMMENT + "\n".join(lines) + "\n}\n"


def lazy_bodies(text, path="", called=frozenset()):
    """The bodies of the module `text` (at `path`) that the bundle compiles only when their
    function is first called, as (first, last) indices of text.split("\\n"): those of its
    functions and its classes' methods that are plain (no decorator, no `super`, in a method
    no private name, which a class would mangle), of at least LAZY_MIN_CHARS, and not among
    `called` ((path, qualified name) pairs: what the bot runs on every board, compiled with
    its module, costs nothing more)."""
    lines = text.split("\n")
    tree = ast.parse(text)
    found = []
    for holder in [tree] + [n for n in tree.body if isinstance(n, ast.ClassDef)]:
        prefix = f"{holder.name}." if isinstance(holder, ast.ClassDef) else ""
        for node in holder.body:
            if not isinstance(node, ast.FunctionDef) or node.decorator_list \
                    or (path, prefix + node.name) in called:
                continue
            first, last = node.body[0].lineno - 1, node.end_lineno - 1
            names = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
            names |= {a.arg for a in ast.walk(node.args) if isinstance(a, ast.arg)}
            private = prefix and any(
                name.startswith("__") and not name.endswith("__") for name in
                names | {n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)})
            if not private and not names & {"super", "__class__", "locals", "__lazy__"} \
                    and sum(len(line) + 1 for line in lines[first:last + 1]) >= LAZY_MIN_CHARS:
                found.append((first, last))
    return found


def called_on_smoke_puzzle(scratch):
    """{(path, qualified name)} of the functions the shipped copy under `scratch` calls on
    SMOKE_PUZZLE, a board its rules solve, in the bot's process or its child printer's."""
    where = str(Path(scratch).resolve()) + os.sep
    run = subprocess.run([sys.executable, str(CALLS), where], cwd=scratch,
                         input=SMOKE_PUZZLE.read_text(), capture_output=True, text=True,
                         timeout=SMOKE_TIMEOUT_S)
    if run.returncode != 0:
        raise BuildError(f"the shipped code failed on {SMOKE_PUZZLE.name}: "
                         + (run.stderr.strip().splitlines() or ["no stderr"])[-1])
    return {tuple(pair) for line in run.stderr.splitlines() if line.startswith("[")
            for pair in json.loads(line)}


def module_text(code):
    """A module's source as MODULES holds it (the value of `module_literal(code)`)."""
    return "\n" + code.strip("\n") + "\n" if code.strip() else ""


def module_literal(code):
    """A module's source as a triple-quoted literal that starts on a line of its own: raw
    where that reads back the same, else with its backslashes and quotes escaped."""
    if not code.strip():
        return "''"
    code = "\n" + code.strip("\n") + "\n"
    raw = "r'''" + code + "'''"
    try:
        if ast.literal_eval(raw) == code:
            return raw
    except SyntaxError:   # a ''' inside, or a backslash before the closing quotes
        pass
    return "'''" + code.replace("\\", "\\\\").replace("'", "\\'") + "'''"


def modules(text):
    """{path: source} of the modules a bundle's text holds (its MODULES), in order."""
    for node in ast.parse(text).body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "MODULES":
            return ast.literal_eval(node.value)
    return {}


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
    return (f"dist/bot.py {size_report(text)}; smoke run on {SMOKE_PUZZLE.name}: "
            f"{links} links, {elapsed_ms:.0f} ms")


def size_report(text):
    """The bundle's size against CodinGame's limit and the project's budget, and its
    widest line."""
    share = 100 * len(text) / CODINGAME_MAX_CHARS
    left = BUDGET_CHARS - len(text)
    budget = (f"{left:,} under the project's budget of {BUDGET_CHARS:,}" if left >= 0 else
              f"OVER the project's budget of {BUDGET_CHARS:,} by {-left:,}")
    widest = max(len(line) for line in text.split("\n"))
    return (f"{len(text):,} characters ({share:.0f}% of CodinGame's {CODINGAME_MAX_CHARS:,}, "
            f"{budget}), lines up to {widest}")


def sizes(text):
    """A Markdown table of what each part of the bundle's `text` costs: each module's
    entry in MODULES beside its source in bot/, the header, the importer (as this build
    lays it out) and the rest."""
    entries = {path: f"{path!r}:{module_literal(code)},\n" for path, code in modules(text).items()}
    rows = [(f"`{path}`", len(entry), entry.count("\n"), _source_chars(path))
            for path, entry in entries.items()]
    header, importer = text[:text.index("MODULES={")], runtime()
    importer_path = RUNTIME.relative_to(ROOT).as_posix()
    rows += [("the header", len(header), header.count("\n"), None),
             (f"the importer, `{importer_path}`", len(importer), importer.count("\n"),
              _source_chars(importer_path))]
    rows.append(("`MODULES={}`, `LAZY`, `MODULES_LINE` and the entry script",
                 len(text) - sum(row[1] for row in rows),
                 text.count("\n") - sum(row[2] for row in rows), None))
    lines = ["| part of dist/bot.py | characters | share | lines | source in bot/ |",
             "|---|---:|---:|---:|---:|"]
    for name, chars, count, source in rows:
        lines.append(f"| {name} | {chars:,} | {100 * chars / len(text):.1f}% | {count:,} | "
                     + (f"{source:,} |" if source is not None else "|"))
    lines.append(f"| total | {len(text):,} | 100% | {text.count(chr(10)):,} | "
                 f"{sum(row[3] or 0 for row in rows):,} |")
    return "\n".join(lines)


def _source_chars(path):
    """The characters of bot/'s own file at a bundle path (bot/cli.py)."""
    return len((ROOT / path).read_text(encoding="utf-8"))


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
    mode.add_argument("--sizes", action="store_true",
                      help="print what each module costs in dist/bot.py (a Markdown table)")
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
        if args.sizes:
            text = bundle()
            print(sizes(text))
            print(f"\ndist/bot.py as built now: {size_report(text)}")
            return 0
        print(f"build: {build()}")
    except BuildError as error:
        print(f"build: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
