"""The house's layers, read from every import (those inside functions included).

The referee's folders stand in one order, each importing only those below it:

    home, terminal, units   (referee/'s own level: where the checkout is, text helpers)
    judge                   the rules, the limits, the turn loop: pure, no process
    box, report, history    the bot's process; what a player reads; the run history
    cli                     the command line: `run`, `show`, `history`, `compare`
    lab                     the commands that use the bot as a library
    __main__                `python -m referee`

The command line names the lab's modules only as strings (COMMANDS, LAB_PARTS), loaded
when asked for; the lab's commands use the CLI's shared argument helpers and usage error
(`referee.cli`, `referee.cli.args`) and no other command's module. Only the lab imports
the bot. No import circle anywhere, at any depth.
"""

import ast
import subprocess
import sys

import pytest

from tests.project import ROOT

REFEREE = ROOT / "referee"
FLOORS = {"shared": 0, "judge": 1, "box": 2, "report": 2, "history": 2, "cli": 3, "lab": 4,
          "entry": 5}
CLI_SHARED = {"referee.cli", "referee.cli.args"}
TOP_LEVEL_MAX = 8


def _imports(path):
    """(module imported, True when at the module's top level) for every import in a file."""
    tree = ast.parse(path.read_text())
    top = {id(node) for node in tree.body}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, id(node) in top) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            found += [(_from(node.module, alias.name), id(node) in top) for alias in node.names]
    return found


def _from(module, name):
    """`from P import name`: the module P.name where that is a module, else P."""
    candidate = f"{module}.{name}"
    path = ROOT.joinpath(*candidate.split("."))
    return candidate if path.with_suffix(".py").is_file() or path.is_dir() else module


def _module(path):
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is(name, package):
    return name == package or name.startswith(package + ".")


def _floor(module):
    """The folder a referee module belongs to ('shared' for referee/'s own level)."""
    if module == "referee.__main__":
        return "entry"   # `python -m referee`: the command line's door
    parts = module.split(".")
    return parts[1] if len(parts) > 2 or module in ("referee.cli", "referee.lab") else "shared"


def _modules(under):
    return sorted(under.rglob("*.py"))


def _graph():
    """{module: set of referee and bot modules it imports}, over referee/ and bot/."""
    graph = {}
    for path in _modules(REFEREE) + _modules(ROOT / "bot"):
        graph[_module(path)] = {name for name, _ in _imports(path)
                                if name.split(".")[0] in ("referee", "bot")}
    return graph


def test_the_referee_keeps_its_own_level_small():
    own = [p.name for p in REFEREE.glob("*.py")]
    assert len(own) <= TOP_LEVEL_MAX, own


@pytest.mark.slow
def test_no_folder_imports_one_above_it():
    graph = _graph()
    back = [f"{source} -> {target}" for source, targets in graph.items()
            if source.startswith("referee") for target in targets
            if target.startswith("referee.")
            and FLOORS[_floor(target)] > FLOORS[_floor(source)]]
    assert not back


@pytest.mark.slow
def test_no_import_circle_anywhere():
    graph = _graph()
    state, circles = {}, []

    def visit(module, path):
        state[module] = "open"
        for target in sorted(graph.get(module, ())):
            if state.get(target) == "open":
                circles.append(path[path.index(target):] + [target])
            elif target in graph and target not in state:
                visit(target, path + [target])
        state[module] = "done"

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])
    assert not circles


@pytest.mark.slow
def test_the_lab_takes_of_the_cli_only_its_shared_helpers():
    found = [f"{_module(p)}: {name}" for p in _modules(REFEREE / "lab")
             for name, _ in _imports(p) if _is(name, "referee.cli") and name not in CLI_SHARED]
    assert not found


@pytest.mark.slow
def test_nothing_outside_the_lab_imports_the_bot():
    outside = [p for p in _modules(REFEREE) if not p.is_relative_to(REFEREE / "lab")]
    assert len(outside) >= 12
    found = [f"{p.relative_to(ROOT)}: {name}" for p in outside
             for name, _ in _imports(p) if _is(name, "bot")]
    assert not found


@pytest.mark.slow
def test_the_lab_imports_the_bot_at_the_top_of_its_modules():
    late = [f"{p.relative_to(ROOT)}: {name}" for p in _modules(REFEREE / "lab")
            for name, top in _imports(p) if _is(name, "bot") and not top]
    assert not late


@pytest.mark.slow
def test_a_run_loads_neither_the_bot_nor_the_lab():
    code = ("import sys; from referee.cli.main import main; "
            "status = main(['run', 'puzzles/public/01_simplest.txt', '--quiet']); "
            "print(status, sorted(m for m in sys.modules "
            "if m == 'bot' or m.startswith(('bot.', 'referee.lab'))))")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, timeout=60)
    assert run.stdout.splitlines()[-1] == "0 []", run.stdout + run.stderr
