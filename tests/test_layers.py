"""The referee's two homes: the judge never imports the bot; the lab is the only place that does."""

import ast
import subprocess
import sys

import pytest

from tests.project import ROOT

REFEREE = ROOT / "referee"
LAB = REFEREE / "lab"
COMMANDS = REFEREE / "commands"


def _imports(path):
    """(module imported, True when at the module's top level) for every import in a file."""
    tree = ast.parse(path.read_text())
    top = {id(node) for node in tree.body}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, id(node) in top) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            found.append((node.module, id(node) in top))
    return found


def _is(name, package):
    return name == package or name.startswith(package + ".")


def _modules(under, but=()):
    return [p for p in under.rglob("*.py") if not any(p.is_relative_to(d) for d in but)]


@pytest.mark.slow
def test_nothing_outside_the_lab_imports_the_bot():
    outside = _modules(REFEREE, but=[LAB])
    assert len(outside) >= 12
    found = [f"{p.relative_to(ROOT)}: {name}" for p in outside
             for name, _ in _imports(p) if _is(name, "bot")]
    assert not found


@pytest.mark.slow
def test_the_judge_never_imports_the_lab():
    judge = _modules(REFEREE, but=[LAB, COMMANDS])
    found = [f"{p.relative_to(ROOT)}: {name}" for p in judge
             for name, _ in _imports(p) if _is(name, "referee.lab")]
    assert not found


def test_the_judge_commands_load_the_lab_only_when_asked_to():
    found = [f"{p.relative_to(ROOT)}: {name}" for p in _modules(COMMANDS)
             for name, top in _imports(p) if _is(name, "referee.lab") and top]
    assert not found


@pytest.mark.slow
def test_the_lab_imports_the_bot_at_the_top_of_its_modules():
    late = [f"{p.relative_to(ROOT)}: {name}" for p in _modules(LAB)
            for name, top in _imports(p) if _is(name, "bot") and not top]
    assert not late


@pytest.mark.slow
def test_a_run_loads_neither_the_bot_nor_the_lab():
    code = ("import sys; from referee.__main__ import main; "
            "status = main(['run', 'puzzles/public/01_simplest.txt', '--quiet']); "
            "print(status, sorted(m for m in sys.modules "
            "if m == 'bot' or m.startswith(('bot.', 'referee.lab'))))")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, timeout=60)
    assert run.stdout.splitlines()[-1] == "0 []", run.stdout + run.stderr
