"""Imports in bot/ point one way: no module imports, however indirectly, one that imports it,
imports inside functions included (a package's own modules importing it aside)."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent


def _modules(package=ROOT / "bot"):
    """{dotted name: path} of every module in `package`, a package by its __init__.py."""
    found = {}
    for path in package.rglob("*.py"):
        parts = path.relative_to(package.parent).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def imports(package=ROOT / "bot"):
    """{module: the package's modules it imports}, a package's own modules' imports of it
    left out (`from bot.rules import balance` in bot/rules/engine.py names a sibling)."""
    modules = _modules(package)
    graph = {}
    for name, path in modules.items():
        named = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                named |= {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                named |= {f"{node.module}.{alias.name}" if f"{node.module}.{alias.name}" in modules
                          else node.module for alias in node.names}
        graph[name] = {m for m in named if m in modules and not name.startswith(m + ".")}
    return graph


def circles(graph):
    """Each import circle found, as the modules around it."""
    found, done, path = [], set(), []

    def visit(module):
        if module in path:
            found.append(path[path.index(module):] + [module])
            return
        if module in done:
            return
        path.append(module)
        for other in sorted(graph[module]):
            visit(other)
        path.pop()
        done.add(module)
    for module in sorted(graph):
        visit(module)
    return found


def test_the_walk_finds_the_imports():
    graph = imports()
    assert "bot.lines" in graph["bot.printers"] and "bot.printers" in graph["bot.pacing"]
    assert "bot.rules.balance" in graph["bot.rules.engine"]


def test_a_circle_is_found():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c", "a"]]


def test_no_import_circle_in_bot():
    assert circles(imports()) == []
