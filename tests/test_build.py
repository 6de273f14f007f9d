"""The CodinGame bundle: build.py and dist/bot.py."""

import ast
import os
import re
import select
import shutil
import subprocess
import sys

import pytest

import build
from judge import fault
from project import ROOT, PUBLIC

BUNDLE = ROOT / "dist" / "bot.py"


def test_committed_bundle_is_what_bot_builds_now():
    run = subprocess.run([sys.executable, "build.py", "--check"], cwd=ROOT,
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr


def test_build_is_reproducible():
    assert build.bundle() == build.bundle()


def test_build_is_the_same_from_another_directory_and_hash_seed(tmp_path):
    project = _copy_project(tmp_path)
    for seed in ("1", "2"):
        run = subprocess.run([sys.executable, "build.py", "--check"], cwd=project,
                             capture_output=True, text=True,
                             env={**os.environ, "PYTHONHASHSEED": seed})
        assert run.returncode == 0, run.stderr


def test_bundle_leaves_a_player_room():
    text = BUNDLE.read_text()
    assert len(text) <= build.BUNDLE_MAX_CHARS == 70_000 < build.CODINGAME_MAX_CHARS
    assert text.isascii()


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


def test_bundle_holds_exactly_the_modules_the_entry_point_imports():
    todo, needed = [build.ENTRY], set()
    while todo:
        for name in _imported_modules(todo.pop()):
            for package in [".".join(name.split(".")[:i]) for i in range(1, name.count(".") + 2)]:
                path = _module_file(package)
                if path not in needed:
                    needed.add(path)
                    todo.append(path)
    shipped = {ROOT / path for path in build.modules(BUNDLE.read_text())}
    assert shipped == needed
    assert not [p for p in shipped if "explainer" in p.parts]   # loaded lazily, for the lab
    assert (ROOT / "bot" / "explainer" / "__init__.py").is_file()


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


def test_each_shipped_module_is_bots_code_but_what_the_bot_never_names():
    text = BUNDLE.read_text()
    shipped = build.modules(text)
    assert len(shipped) >= 10
    code = b"\n".join(shipped.values()).decode() + (ROOT / "bot" / "__main__.py").read_text()
    left_out = []
    for path, contents in shipped.items():
        if path.endswith("__init__.py"):
            assert contents.strip() == b"", path   # a package's exports are the library's
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
    assert "rb'''from bot.facts import" in text and "\n\tdef " in text
    # every line of every module is a line of the bundle, none an escape
    assert text.count("\n") > sum(c.count(b"\n") for c in build.modules(text).values())


def test_a_module_that_cannot_be_written_raw_keeps_stickytapes_escapes():
    for source in ("S = \"'''\"\n", "S = \"\u00e9\"\n"):
        line = build.WRITER + repr("bot/odd.py") + ", " + repr(source.encode()) + ")"
        assert build._raw_writer(line) == line
    written = build._raw_writer(build.WRITER + "'bot/ok.py', b'A = 1\\nB = 2\\n')")
    assert build.modules(written.strip()) == {"bot/ok.py": b"A = 1\nB = 2\n"}
    assert "\\n" not in written


@pytest.mark.parametrize("name", ["11_cg.txt", "13_expert.txt"])
def test_bundle_solves_a_public_puzzle_with_only_the_standard_library(name):
    # Site-packages disabled (-S) and isolated mode (-I); the referee's rules judge it.
    puzzle = (PUBLIC / name).read_text()
    run = subprocess.run([sys.executable, "-I", "-S", str(BUNDLE)],
                         input=puzzle, capture_output=True, text=True, timeout=20)
    assert run.returncode == 0, run.stderr
    assert fault(puzzle, run.stdout) is None


def test_build_refuses_an_oversized_bundle(monkeypatch):
    monkeypatch.setattr(build, "BUNDLE_MAX_CHARS", 1000)
    with pytest.raises(build.BuildError, match="over the 1,000 allowed"):
        build.bundle()


def test_a_bot_grown_past_the_bound_fails_the_build_in_one_line(tmp_path):
    project = _copy_project(tmp_path)
    before = (project / "dist" / "bot.py").read_text()
    grown = project / "bot" / "solver.py"
    grown.write_text(grown.read_text() + f"PADDING = {'x' * build.BUNDLE_MAX_CHARS!r}\n")
    run = subprocess.run([sys.executable, "build.py"], cwd=project, capture_output=True,
                         text=True)
    assert run.returncode == 1
    assert run.stderr.count("\n") == 1 and "Traceback" not in run.stderr
    assert run.stderr.startswith("build: bundle is ") and "over the 70,000 allowed" in run.stderr
    assert (project / "dist" / "bot.py").read_text() == before


def test_build_refuses_non_ascii(monkeypatch):
    real = build.stickytape.script
    monkeypatch.setattr(build.stickytape, "script", lambda *a, **k: real(*a, **k) + "# \u00e9\n")
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


def test_the_bundle_ships_without_docstrings_or_comments_but_runs_the_same_bot():
    import build
    text = build.bundle()
    assert "search that learns from its contradictions" in (ROOT / "bot" / "solver.py").read_text()
    assert "search that learns from its contradictions" not in text  # a docstring of solver.py
    from bot.options import DEFAULT
    assert "def answers(" in text
    # The options ship with their defaults.
    assert f"('node_search_branches',{DEFAULT.node_search_branches})" in text
