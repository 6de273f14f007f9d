"""The CodinGame bundle: build.py and dist/bot.py."""

import ast
import io
import json
import os
import re
import select
import shutil
import subprocess
import sys
import tokenize

import pytest

import build
from bot.bundle import importer, lazy
from tests.judge import fault
from tests.project import ROOT, PUBLIC

BUNDLE = ROOT / "dist" / "bot.py"


@pytest.mark.slow
def test_committed_bundle_is_what_bot_builds_now():
    run = subprocess.run([sys.executable, "build.py", "--check"], cwd=ROOT,
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr


@pytest.mark.slow
def test_build_is_reproducible():
    assert build.bundle() == build.bundle()


@pytest.mark.slow
def test_build_is_the_same_from_another_directory_and_hash_seed(tmp_path):
    project = _copy_project(tmp_path)
    for seed in ("1", "2"):
        run = subprocess.run([sys.executable, "build.py", "--check"], cwd=project,
                             capture_output=True, text=True,
                             env={**os.environ, "PYTHONHASHSEED": seed})
        assert run.returncode == 0, run.stderr


def test_bundle_leaves_a_player_room():
    # The project's budget: a player has at least 20,000 of CodinGame's characters to add.
    text = BUNDLE.read_text()
    assert len(text) <= build.BUDGET_CHARS == 80_000
    assert build.CODINGAME_MAX_CHARS - build.BUDGET_CHARS >= 20_000
    assert text.isascii()


def test_no_line_of_the_bundle_is_over_120_characters():
    lines = BUNDLE.read_text().split("\n")
    assert build.LINE_CHARS == 120
    assert max(len(line) for line in lines) <= 120
    assert len(lines) > 2000   # one statement a line: the bundle is long, not wide


def _statement_lines(code):
    """The line of each statement of `code`, one entry per statement."""
    return [node.lineno for node in ast.walk(ast.parse(code)) if isinstance(node, ast.stmt)]


@pytest.mark.slow
def test_each_line_of_the_bundle_holds_at_most_one_statement():
    text = BUNDLE.read_text()
    for path, code in [("dist/bot.py", text), *build.modules(text).items()]:
        lines = _statement_lines(code)
        doubled = sorted({n for n in lines if lines.count(n) > 1})
        assert not doubled, (path, [code.split("\n")[n - 1] for n in doubled[:3]])
        # nor a `;` between statements: tokenize sees every `;` outside strings
        tokens = tokenize.generate_tokens(io.StringIO(code).readline)
        assert not [t for t in tokens if t.type == tokenize.OP and t.string == ";"], path


def test_the_header_says_where_the_options_are_and_how_to_rebuild():
    lines = BUNDLE.read_text().split("\n")
    assert lines[0] == "#!/usr/bin/env python3"
    header = lines[:lines.index("MODULES={")]
    assert all(line.startswith("#") for line in header) and len(header) <= 8
    said = re.search(r"FIELDS in bot/options\.py, line (\d+)", "\n".join(header))
    assert said, header
    assert lines[int(said.group(1)) - 1].startswith("FIELDS=(('region_walk',")
    assert "python build.py" in "\n".join(header)


def test_the_options_are_one_a_line():
    from bot.options import FIELDS
    lines = BUNDLE.read_text().split("\n")
    for name, _ in FIELDS:
        assert sum(f"('{name}'," in line for line in lines) == 1, name
    first = next(n for n, line in enumerate(lines) if line.startswith("FIELDS="))
    assert all(lines[first + k].count("('") == 1 for k in range(len(FIELDS)))


def test_magic_val_is_named_in_the_bundle():
    text = BUNDLE.read_text()
    assert "magic_val=high-spare" in build.modules(text)["bot/rules/nodes.py"]


def _imported_modules(path):
    """bot/'s modules that `path` imports, anywhere in it (stickytape follows them all)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
            [node.module] if isinstance(node, ast.ImportFrom) and node.level == 0 else []
        if isinstance(node, ast.ImportFrom) and node.level == 0:   # submodules, by name
            names += [f"{node.module}.{a.name}" for a in node.names
                      if _module_file(f"{node.module}.{a.name}").is_file()]
        found |= {n for n in names if n.split(".")[0] == "bot"}
    return found


def _module_file(name):
    """bot/x.py or bot/x/__init__.py for the module name bot.x."""
    base = ROOT.joinpath(*name.split("."))
    return base / "__init__.py" if base.is_dir() else base.with_suffix(".py")


@pytest.mark.slow
def test_bundle_holds_exactly_the_modules_the_entry_point_and_the_importer_import():
    todo, needed = [build.ENTRY, build.RUNTIME], set()
    while todo:
        for name in _imported_modules(todo.pop()):
            for package in [".".join(name.split(".")[:i]) for i in range(1, name.count(".") + 2)]:
                path = _module_file(package)
                if path not in needed:
                    needed.add(path)
                    todo.append(path)
    shipped = {ROOT / path for path in build.modules(BUNDLE.read_text())}
    assert shipped == needed


def _normal(tree):
    """`tree` without its docstrings, read the way the layout tool writes it: `return None`
    as `return` (and none at a function's end), one import statement per name (a body left
    empty holds `pass`)."""
    for node in ast.walk(tree):
        for field in ("body", "orelse", "finalbody"):
            body = getattr(node, field, None)
            if isinstance(body, list) and body and isinstance(body[0], ast.stmt):
                setattr(node, field, _normal_body(node, field, body))
    return tree


def _normal_body(node, field, body):
    if field == "body" and isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef)) \
            and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str):
        body = body[1:]
    split = []
    for stmt in body:
        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            split += [type(stmt)(**{**vars(stmt), "names": [alias]}) for alias in stmt.names]
        elif isinstance(stmt, ast.Return) and isinstance(stmt.value, ast.Constant) \
                and stmt.value.value is None:
            split.append(ast.Return(value=None))
        else:
            split.append(stmt)
    if isinstance(node, ast.FunctionDef) and field == "body" and split \
            and isinstance(split[-1], ast.Return) and split[-1].value is None:
        split.pop()
    return split or ([ast.Pass()] if field == "body" else [])


def _definitions(tree):
    """{name: (holder, node)} of the functions, methods and classes of `tree`."""
    found = {}
    for holder in [tree] + [n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)]:
        for node in holder.body:
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                found[f"{getattr(holder, 'name', '')}.{node.name}"] = holder, node
    return found


@pytest.mark.slow
def test_each_shipped_module_is_bots_code_but_what_the_bot_never_names():
    text = BUNDLE.read_text()
    shipped = build.modules(text)
    assert len(shipped) >= 10
    code = "\n".join([*shipped.values(), build.ENTRY.read_text(), build.RUNTIME.read_text()])
    left_out = []
    for path, contents in shipped.items():
        if path.endswith("__init__.py"):
            assert contents.strip() == "", path   # a package's exports are the library's
            continue
        ours = _normal(ast.parse((ROOT / path).read_text()))
        theirs = _normal(ast.parse(contents))
        gone = set(_definitions(ours)) - set(_definitions(theirs))
        for qualified in gone:
            holder, node = _definitions(ours)[qualified]
            # Nothing the bot ships names it, so nothing the bot runs can call it.
            assert not re.search(rf"\b{node.name}\b", code), (path, qualified)
            holder.body = [n for n in holder.body if n is not node]
            left_out.append(qualified)
        assert ast.dump(theirs) == ast.dump(ours), path
    assert ".first_solution" in left_out   # the tests' entry to the node search


def test_the_modules_are_written_line_by_line_not_as_escapes():
    text = BUNDLE.read_text()
    compile(text, str(BUNDLE), "exec")
    assert "'bot/facts.py':r'''\nAT_LEAST_1,AT_LEAST_2" in text and "\n\tdef " in text
    # every line of every module is a line of the bundle, none an escape
    assert text.count("\n") > sum(c.count("\n") for c in build.modules(text).values())


@pytest.mark.parametrize("source", ["S='\\\\'\nT=\"'''\"\n", "A=1\nB='\\\\'\n", "A=1\nB=2\n"])
def test_a_module_is_written_as_the_same_text_line_by_line(source):
    literal = build.module_literal(source)
    assert literal.count("\n") == source.count("\n") + 1   # its lines, from a line of their own
    assert ast.literal_eval(literal) == "\n" + source


def _module_lines(code):
    """`code` as a module laid out for the bundle, after python-minifier."""
    return build.laid_out(build.python_minifier.minify(code, **build.MINIFY)).splitlines()


def test_the_layout_puts_each_statement_on_a_line_of_its_own():
    code = ("def f(x):\n    if x: return 1\n    a = 1; b = 2\n    g = lambda y: y\n"
            "    for i in range(3): a += i; b -= i\n    return {'k': a}\n")
    lines = _module_lines(code)
    assert lines == ["def f(x):", "\tif x:", "\t\treturn 1", "\ta=1", "\tb=2",
                     "\tg=lambda y:y", "\tfor i in range(3):", "\t\ta+=i", "\t\tb-=i",
                     "\treturn{'k':a}"]
    assert ast.dump(ast.parse("\n".join(lines))) == ast.dump(ast.parse(code))


def test_the_layout_breaks_a_long_line_inside_brackets_it_may_add():
    items = ", ".join(f"('option_{i}', {i})" for i in range(12))
    calls = " and ".join(f"check_{i}(a, b)" for i in range(8))
    args = ", ".join(f"argument_{i}=default_{i}" for i in range(8))
    code = f"OPTIONS = {items}\nif {calls}:\n    pass\ndef f({args}):\n    return 1\n"
    lines = _module_lines(code)
    assert max(len(line) for line in lines) <= build.LINE_CHARS
    assert lines[0] == "OPTIONS=(('option_0',0),"
    assert lines[1:12] == [f"\t('option_{i}',{i})," for i in range(1, 11)] + ["\t('option_11',11))"]
    assert lines[12:14] == ["if(check_0(a,b)", "\tand check_1(a,b)"]
    assert "\targument_3=default_3," in lines
    assert ast.dump(ast.parse("\n".join(lines))) == ast.dump(ast.parse(code))


@pytest.mark.parametrize("name", ["11_cg.txt", "13_expert.txt"])
def test_bundle_solves_a_public_puzzle_with_only_the_standard_library(name):
    # Site-packages disabled (-S) and isolated mode (-I); the referee's rules judge it.
    puzzle = (PUBLIC / name).read_text()
    run = subprocess.run([sys.executable, "-I", "-S", str(BUNDLE)],
                         input=puzzle, capture_output=True, text=True, timeout=20)
    assert run.returncode == 0, run.stderr
    assert fault(puzzle, run.stdout) is None


def _run_bundle(puzzle, cwd, env=None, flags=()):
    """The bundle run as CodinGame runs it, from `cwd`, with only the standard library."""
    return subprocess.run([sys.executable, "-I", "-S", *flags, str(BUNDLE)], input=puzzle,
                          capture_output=True, text=True, timeout=60, cwd=cwd, env=env)


def test_the_bundle_imports_its_modules_from_memory_and_writes_nothing(tmp_path):
    # An empty working directory and a TMPDIR that cannot be written: nothing to write to.
    work, tmp = tmp_path / "work", tmp_path / "tmp"
    work.mkdir()
    tmp.mkdir(mode=0o500)
    puzzle = (PUBLIC / "13_expert.txt").read_text()
    env = {"PATH": os.environ.get("PATH", ""), "TMPDIR": str(tmp), "TEMP": str(tmp),
           "TMP": str(tmp), "HOME": str(tmp)}
    run = _run_bundle(puzzle, work, env)
    assert run.returncode == 0, run.stderr
    assert fault(puzzle, run.stdout) is None
    assert list(work.iterdir()) == [] and list(tmp.iterdir()) == []


def test_a_bot_folder_where_the_bundle_runs_does_not_shadow_its_modules(tmp_path):
    (tmp_path / "bot").mkdir()
    (tmp_path / "bot" / "__init__.py").write_text("raise SystemExit('the folder was imported')\n")
    puzzle = (PUBLIC / "11_cg.txt").read_text()
    run = _run_bundle(puzzle, tmp_path)
    assert run.returncode == 0, run.stderr
    assert fault(puzzle, run.stdout) is None


def test_a_traceback_from_a_bundled_module_names_its_line_in_the_bundle(tmp_path):
    # A bundle of modules of our own: an error points at the line of the bundle it ran.
    modules = {"bot/__init__.py": "", "bot/options.py": "FIELDS=()\n",
               "bot/boom.py": "def f():\n\traise ValueError('boom')\n"}
    text = build.assembled(modules, "from bot.boom import f\nf()\n")
    bundle = tmp_path / "bundle.py"
    bundle.write_text(text)
    run = subprocess.run([sys.executable, "-I", "-S", str(bundle)], capture_output=True,
                         text=True, timeout=30, cwd=tmp_path)
    assert run.returncode == 1
    line = text.split("\n").index("\traise ValueError('boom')") + 1
    assert f'File "<string>", line {line}, in f\n' in run.stderr


def _loader():
    """The modules of the committed bundle that load the bodies compiled late."""
    return {path: code for path, code in build.modules(BUNDLE.read_text()).items()
            if path.startswith("bot/bundle/")}


LAZY_MODULE = """\
def add(a,b=2,*rest,scale=1,**named):
\ttotal=(a+b+sum(rest))*scale
\treturn total,sorted(named.items()),add.__name__
class Box:
\tdef __init__(self,items):
\t\tself.items=list(items)
\t\tself.count=len(self.items)
\tdef grown(self,*more):
\t\tfor item in more:
\t\t\tself.items.append(item)
\t\treturn self
\tdef walk(self):
\t\tfor item in self.items:
\t\t\tyield from [item*2 for _ in range(1)]
def boom(n,message='a body compiled late still names its line'):
\tif n>0:
\t\treturn boom(n-1)
\traise ValueError(message)
"""
LAZY_SCRIPT = """\
from bot.lazy import add,Box,boom
import bot.lazy as lazy
print(all('__lazy__' in f.__code__.co_names for f in (add,Box.grown,Box.walk,boom)))
print(add(1),add(1,3,4,5,scale=2,x=1))
box=Box([1,2]).grown(3)
print(list(box.walk()),box.count)
print(add is lazy.add,'__lazy__' in add.__code__.co_names+Box.walk.__code__.co_names)
boom(2)
"""


def test_only_plain_bodies_not_run_on_the_smoke_puzzle_wait_for_a_first_call():
    body = "+".join(["[a*2 for a in range(9)]"] * (build.LAZY_MIN_CHARS // 20))  # long enough
    text = build.module_text("\n".join([
        "def called(a):", f"\treturn {body}",
        "def waits(a):", f"\treturn {body}",
        "def short(a):", "\treturn a",
        "class C:",
        "\t@staticmethod", "\tdef marked(a):", f"\t\treturn {body}",
        "\tdef up(self):", f"\t\treturn super().up()+{body}",
        "\tdef hidden(self):", f"\t\treturn self.__x+{body}",   # mangled in a class
        "\tdef plain(self):", f"\t\treturn self.x+{body}"]))
    lines = text.split("\n")
    waiting = build.lazy_bodies(text, "bot/m.py", {("bot/m.py", "called")})
    assert [lines[first] for first, last in waiting] == [f"\treturn {body}",
                                                         f"\t\treturn self.x+{body}"]
    assert waiting[0] == (4, 4)


def test_a_body_compiled_when_first_called_runs_as_written_and_names_its_lines(tmp_path,
                                                                              monkeypatch):
    monkeypatch.setattr(build, "LAZY_MIN_CHARS", 0)  # every body of LAZY_MODULE waits
    modules = {"bot/__init__.py": "", "bot/options.py": "FIELDS=()\n", "bot/lazy.py": LAZY_MODULE,
               **_loader()}
    text = build.assembled(modules, LAZY_SCRIPT)
    assert len(build.lazy_bodies(build.module_text(LAZY_MODULE))) == 5   # every function and method
    bundle = tmp_path / "bundle.py"
    bundle.write_text(text)
    run = subprocess.run([sys.executable, "-I", "-S", str(bundle)], capture_output=True,
                         text=True, timeout=30, cwd=tmp_path)
    assert run.stdout.splitlines() == ["True", "(3, [], 'add') (26, [('x', 1)], 'add')",
                                       "[2, 4, 6] 2", "True False"]
    lines = text.split("\n")
    where = [lines.index(line) + 1 for line in ("\t\treturn boom(n-1)",
                                                "\traise ValueError(message)")]
    said = [f'File "<string>", line {where[0]}, in boom'] * 2 + [
        f'File "<string>", line {where[1]}, in boom']
    # (the first call goes through the stub, at the body's first line, then runs the body)
    heard = [line.strip() for line in run.stderr.splitlines() if "in boom" in line]
    assert heard[-3:] == said and heard[0] == f'File "<string>", line {where[0] - 1}, in boom'
    assert run.stderr.rstrip().endswith("ValueError: a body compiled late still names its line")


@pytest.fixture
def memory(monkeypatch):
    """The bundle's importer, ahead of the others, over MODULES of the test's own (opening at
    line 100): the package `inmemory`, to which the test adds its modules. What it imported
    is forgotten after."""
    modules = {"inmemory/__init__.py": ""}
    monkeypatch.setattr(importer, "MODULES", modules)
    monkeypatch.setattr(importer, "LAZY", {})
    monkeypatch.setattr(importer, "MODULES_LINE", 100)
    monkeypatch.setattr(importer, "MODULE_LINES", {})
    monkeypatch.setattr(sys, "meta_path", [importer.BundleImporter, *sys.meta_path])
    yield modules
    for name in [name for name in sys.modules if name.split(".")[0] == "inmemory"]:
        del sys.modules[name]


def _last_line(error):
    """The line where `error` was raised."""
    trace = error.__traceback__
    while trace.tb_next:
        trace = trace.tb_next
    return trace.tb_lineno


def test_the_importer_runs_a_module_from_memory_at_its_lines_ahead_of_a_folder(memory, tmp_path,
                                                                              monkeypatch):
    (tmp_path / "inmemory").mkdir()
    (tmp_path / "inmemory" / "__init__.py").write_text("raise SystemExit('imported the folder')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    memory["inmemory/m.py"] = "\nX=2\ndef f():\n\traise ValueError(X)\n"
    from inmemory import m
    assert m.X == 2 and m.__spec__.origin == "inmemory/m.py"
    # Line 101 holds 'inmemory/__init__.py':'', line 102 'inmemory/m.py':r''', then its text
    assert m.f.__code__.co_firstlineno == 104
    with pytest.raises(ValueError) as raised:
        m.f()
    assert _last_line(raised.value) == 105


def test_a_module_whose_text_is_not_the_builds_has_no_body_waiting(memory, monkeypatch):
    memory["inmemory/m.py"] = "abcde"
    monkeypatch.setattr(importer, "LAZY", {"inmemory/m.py": "5 1 2 3 4 "})
    assert importer.waiting("inmemory/m.py") == [(1, 2), (3, 4)]
    assert importer.waiting("inmemory/__init__.py") == []   # none listed
    memory["inmemory/m.py"] = "abcdef"   # a player's edit: compiled whole
    assert importer.waiting("inmemory/m.py") == []


def test_a_stub_stands_on_its_bodys_first_line_and_every_line_keeps_its_number():
    lines = ["def f(a):", "\tb=a+1", "\treturn b", "class C:", "\tdef g(self):", "\t\treturn 1",
             "X=1"]
    importer.stubbed(lines, [(1, 2), (5, 5)])
    assert lines == ["def f(a):", "\treturn __lazy__(0,locals())", "", "class C:",
                     "\tdef g(self):", "\t\treturn __lazy__(1,locals())", "X=1"]


LATE = ("\ndef f(a,b=2,*rest,k=0,**named):\n\ttotal=a+b+sum(rest)+k\n\treturn total,sorted(named)"
        "\nclass C:\n\tdef g(self,x):\n\t\treturn[x]*2\n")


def test_a_body_compiled_at_its_first_call_runs_as_written_in_the_same_function(memory,
                                                                               monkeypatch):
    memory["inmemory/late.py"] = LATE
    monkeypatch.setattr(importer, "LAZY", {"inmemory/late.py": f"{len(LATE)} 2 3 6 6 "})
    from inmemory.late import C, f
    assert "__lazy__" in f.__code__.co_names and "__lazy__" in C.g.__code__.co_names
    assert f(1, 2, 3, 4, k=5, x=6) == (15, ["x"])
    assert "__lazy__" not in f.__code__.co_names   # its own code from then on
    assert f(1) == (3, []) and C().g(7) == [7, 7]
    from inmemory.late import f as again
    assert again is f
    # 'inmemory/late.py' opens at line 102: its def at 103, its body's last line at 105
    assert f.__code__.co_firstlineno == 103
    assert max(line for *_, line in f.__code__.co_lines() if line) == 105


def test_a_stubs_locals_call_its_function_again_as_it_was_called():
    def f(a, b=2, *rest, k, **named):
        return locals()   # what a stub hands __lazy__: its parameters

    args, keywords = lazy.passed(f.__code__, f(1, 3, 4, 5, k=6, x=7))
    assert (args, keywords) == ([1, 3, 4, 5], {"k": 6, "x": 7})
    assert lazy.passed(f.__code__, f(1, k=2)) == ([1, 2], {"k": 2})

    def only_rest(a, *rest):
        return locals()

    def only_named(a, **named):
        return locals()

    assert lazy.passed(only_rest.__code__, only_rest(1, 2)) == ([1, 2], {})
    assert lazy.passed(only_named.__code__, only_named(1, x=2)) == ([1], {"x": 2})


def test_the_bundle_lays_out_the_importer_as_written_its_docstrings_as_comments():
    text = build.runtime()
    assert text in BUNDLE.read_text()
    source = ast.parse(build.RUNTIME.read_text())
    assert {node.targets[0].id for node in source.body if build._sets_built(node)} == build.BUILT
    source.body = [node for node in source.body if not build._sets_built(node)]
    assert ast.dump(_normal(ast.parse(text))) == ast.dump(_normal(source))
    assert not any(isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store)
                   and node.id in build.BUILT for node in ast.walk(ast.parse(text)))
    said = "# A finder on sys.meta_path, ahead of the others: a bot/ folder cannot shadow MODULES."
    assert f"class BundleImporter:\n\t{said}\n" in text


def test_a_docstring_laid_out_as_comments_keeps_its_lines_and_its_indentation():
    code = 'def f():\n    """One.\n\n    Two, its own line."""\n    return 1\n'
    lines = build.laid_out(build.python_minifier.minify(code, **build.MINIFY), comments=True)
    assert lines.splitlines() == ["def f():", "\t# One.", "\t#", "\t# Two, its own line.",
                                  "\treturn 1"]


def test_the_build_hears_what_a_copy_of_the_bot_calls_even_when_it_ends_at_os_exit(tmp_path):
    (tmp_path / "bot").mkdir()
    (tmp_path / "bot" / "__init__.py").write_text("")
    (tmp_path / "bot" / "cli.py").write_text("import os\ndef main():\n    helper()\n"
                                             "    os._exit(0)\ndef helper():\n    pass\n"
                                             "def never():\n    pass\n")
    where = str(tmp_path.resolve()) + os.sep
    run = subprocess.run([sys.executable, str(build.CALLS), where], cwd=tmp_path, input="",
                         capture_output=True, text=True, timeout=30)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stderr) == [["bot/__init__.py", "<module>"], ["bot/cli.py", "<module>"],
                                      ["bot/cli.py", "helper"], ["bot/cli.py", "main"]]


def test_build_py_holds_no_python_source_inside_a_string():
    # The bundle's own code is bot/bundle/'s: build.py's strings are prose, comments, data.
    def statements(text):
        try:
            return ast.parse(text).body
        except SyntaxError:
            return []

    strings = [node.value for node in ast.walk(ast.parse((ROOT / "build.py").read_text()))
               if isinstance(node, ast.Constant) and isinstance(node.value, str)
               and "\n" in node.value.strip()]
    assert len(strings) >= 10   # the docstrings, HEADER, LAZY_COMMENT
    assert [text[:60] for text in strings if statements(text)] == []


def test_what_the_bot_runs_on_the_smoke_puzzle_is_compiled_with_its_module():
    # On the smoke puzzle many bodies wait for a first call, and none is called: the bundle
    # never even imports the code that compiles them (bot.bundle.lazy).
    script = ("import sys\n"
              "sys.argv = [sys.argv[1]]\n"
              "bundle = {'__name__': '__main__'}\n"
              "exec(compile(open(sys.argv[0]).read(), sys.argv[0], 'exec'), bundle)\n"
              "modules = [m for name, m in sys.modules.items() if name.startswith('bot.')]\n"
              "functions = [f for m in modules for v in vars(m).values()\n"
              "             for f in ([v, *vars(v).values()] if isinstance(v, type) else [v])\n"
              "             if getattr(f, '__module__', None) == m.__name__\n"
              "             and hasattr(f, '__code__')]\n"
              "waiting = sum('__lazy__' in f.__code__.co_names for f in functions)\n"
              "print(waiting, 'bot.bundle.lazy' in sys.modules, file=sys.stderr)\n")
    puzzle = build.SMOKE_PUZZLE.read_text()
    run = subprocess.run([sys.executable, "-I", "-S", "-c", script, str(BUNDLE)], input=puzzle,
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert fault(puzzle, run.stdout) is None
    waiting, compiled = run.stderr.split()
    assert int(waiting) >= 30 and compiled == "False"


@pytest.mark.slow
def test_the_bundle_answers_as_the_package_where_the_node_search_branches():
    # Boards the rules alone do not solve: the node search runs what the bundle compiles late.
    for name in ("09_multiple_solutions_1.txt", "11_cg.txt", "12_multiple_solutions_2.txt"):
        puzzle = (PUBLIC / name).read_text()
        package = subprocess.run([sys.executable, "-m", "bot"], input=puzzle, cwd=ROOT,
                                 capture_output=True, text=True, timeout=60)
        run = _run_bundle(puzzle, ROOT)
        assert run.returncode == 0 and run.stdout == package.stdout, (name, run.stderr)


def _imported(stderr):
    """The modules `python -X importtime` reports in `stderr`."""
    return {line.split("|")[-1].strip() for line in stderr.splitlines()
            if line.startswith("import time:")}


@pytest.mark.slow
def test_the_search_that_learns_is_imported_only_when_the_node_search_hands_over(tmp_path):
    quick = (PUBLIC / "13_expert.txt").read_text()
    run = _run_bundle(quick, tmp_path, flags=("-X", "importtime"))
    assert run.returncode == 0 and fault(quick, run.stdout) is None
    assert "bot.assumption" in _imported(run.stderr)
    assert not {"bot.learning", "bot.cdcl", "bot.walk", "random"} & _imported(run.stderr)
    # A board the node search hands over (tests/bot/test_bot_assumption.py has its kind).
    handed = (ROOT / "puzzles" / "stress" / "lattice" / "20x20_grid_mixed_014.txt").read_text()
    run = _run_bundle(handed, tmp_path, flags=("-X", "importtime"))
    assert run.returncode == 0, run.stderr[-2000:]
    assert fault(handed, run.stdout) is None
    assert {"bot.learning", "bot.cdcl", "bot.walk"} <= _imported(run.stderr)


@pytest.mark.slow
def test_build_refuses_only_a_bundle_codingame_would_refuse(monkeypatch):
    monkeypatch.setattr(build, "BUDGET_CHARS", 1000)
    text = build.bundle()   # over the project's budget: the report says so, the tests fail
    assert "OVER the project's budget of 1,000 by" in build.size_report(text)
    monkeypatch.setattr(build, "CODINGAME_MAX_CHARS", 1000)
    with pytest.raises(build.BuildError, match="over CodinGame's limit of 1,000"):
        build.bundle()


@pytest.mark.slow
def test_a_bot_grown_past_the_bound_fails_the_build_in_one_line(tmp_path):
    project = _copy_project(tmp_path)
    before = (project / "dist" / "bot.py").read_text()
    grown = project / "bot" / "solver.py"
    grown.write_text(grown.read_text() + f"PADDING = {'x' * build.CODINGAME_MAX_CHARS!r}\n")
    run = subprocess.run([sys.executable, "build.py"], cwd=project, capture_output=True,
                         text=True)
    assert run.returncode == 1
    assert run.stderr.count("\n") == 1 and "Traceback" not in run.stderr
    assert run.stderr.startswith("build: bundle is ") and "over CodinGame's limit of 100,000" in run.stderr
    assert (project / "dist" / "bot.py").read_text() == before


@pytest.mark.slow
def test_build_refuses_non_ascii(monkeypatch):
    real, odd = build.assembled, {"bot/x.py": "S='\u00e9'\n"}
    monkeypatch.setattr(build, "assembled", lambda shipped, *rest: real({**shipped, **odd}, *rest))
    with pytest.raises(build.BuildError, match="non-ASCII"):
        build.bundle()


def _copy_project(tmp_path):
    """build.py, bot/, dist/bot.py and the smoke puzzle, in a scratch directory."""
    shutil.copy(ROOT / "build.py", tmp_path)
    shutil.copytree(ROOT / "bot", tmp_path / "bot", ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "dist").mkdir()
    shutil.copy(ROOT / "dist" / "bot.py", tmp_path / "dist")
    (tmp_path / "puzzles" / "public").mkdir(parents=True)
    shutil.copy(build.SMOKE_PUZZLE, tmp_path / "puzzles" / "public")
    return tmp_path


def _next_line(proc, deadline_s=60):
    """The watcher's next output line, or fail if it says nothing in time."""
    ready, _, _ = select.select([proc.stdout], [], [], deadline_s)
    assert ready, "the watcher printed nothing"
    return proc.stdout.readline()


@pytest.mark.slow
def test_watch_rebuilds_on_change_by_rename_and_keeps_the_last_good_bundle(tmp_path):
    project = _copy_project(tmp_path)
    bundle_path, source = project / "dist" / "bot.py", project / "bot" / "solver.py"
    proc = subprocess.Popen([sys.executable, "build.py", "--watch", "--interval", "0.05",
                             "--max-builds", "3"], cwd=project, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        first = _next_line(proc)
        assert "(start): dist/bot.py" in first and "88 links" in first
        inode = bundle_path.stat().st_ino

        source.write_text(source.read_text() + "WATCHED_EDIT = 'the watcher must pick this up'\n")
        second = _next_line(proc)
        assert "(bot/solver.py): dist/bot.py" in second
        rebuilt = bundle_path.read_text()
        assert "the watcher must pick this up" in rebuilt
        assert bundle_path.stat().st_ino != inode, "the bundle was rewritten in place, not renamed"

        source.write_text(source.read_text() + "def broken(:\n")
        third = _next_line(proc)
        assert "FAILED, dist/bot.py left as it was: solver.py line" in third
        assert bundle_path.read_text() == rebuilt
        assert proc.wait(timeout=30) == 0
    finally:
        proc.kill()
        proc.wait()
    assert sorted(p.name for p in (project / "dist").iterdir()) == ["bot.py"]


@pytest.mark.slow
def test_a_bundle_that_fails_its_smoke_run_never_replaces_the_last_good_one(tmp_path, monkeypatch):
    output = tmp_path / "bot.py"
    output.write_text("the last good bundle\n")
    monkeypatch.setattr(build, "OUTPUT", output)
    monkeypatch.setattr(build, "PENDING", tmp_path / ".bot.py.new")

    def failing_smoke(path):
        assert path == build.PENDING and path.read_text() == build.bundle()
        raise build.BuildError("smoke failed")

    monkeypatch.setattr(build, "smoke", failing_smoke)
    with pytest.raises(build.BuildError, match="smoke failed"):
        build.build()
    assert output.read_text() == "the last good bundle\n"
    assert not build.PENDING.exists()


@pytest.mark.slow
def test_the_bundle_ships_without_docstrings_or_comments_but_runs_the_same_bot():
    import build
    text = build.bundle()
    assert "search that learns from its contradictions" in (ROOT / "bot" / "solver.py").read_text()
    assert "search that learns from its contradictions" not in text  # a docstring of solver.py
    from bot.options import DEFAULT
    assert "def answers(" in text
    # The options ship with their defaults.
    assert f"('node_search_branches',{DEFAULT.node_search_branches})" in text


def test_a_players_edit_of_a_module_in_the_bundle_still_runs(tmp_path):
    # LAZY names lines of each module's text as built: an edited module is compiled whole
    bundle = (ROOT / "dist" / "bot.py").read_text()
    head = "'bot/pacing.py':r'''\n"
    assert head in bundle and re.search(r"\n'bot/pacing.py':\(?'", bundle)   # bodies compiled late
    edited = tmp_path / "bot.py"
    edited.write_text(bundle.replace(head, head + "# a player's note, one line more\n", 1))
    puzzle = (PUBLIC / "13_expert.txt").read_text()
    ran = [subprocess.run([sys.executable, "-I", "-S", str(path)], input=puzzle,
                          capture_output=True, text=True, timeout=60)
           for path in (edited, ROOT / "dist" / "bot.py")]
    assert ran[0].returncode == 0, ran[0].stderr
    assert ran[0].stdout == ran[1].stdout and ran[0].stdout.count("\n") > 10
