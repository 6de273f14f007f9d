"""Every class in bot/ stays small: at most 20 attributes and 20 methods.

Run as a script, it prints each class's figures, largest first, of bot/ or of the folder
named (tests/referee/test_referee_classes.py holds referee/ to the same line):
    python tests/bot/test_bot_classes.py [referee]
"""

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
MOST_ATTRIBUTES = MOST_METHODS = 20


def class_sizes(package=ROOT / "bot"):
    """(attributes, methods, 'file:Class') for every class in `package`: the attributes are
    the names assigned on `self` (or on `other`, a copy `clone` makes) anywhere in it, the
    methods the functions its body defines (properties too)."""
    sizes = []
    for path in sorted(package.rglob("*.py")):
        for cls in ast.walk(ast.parse(path.read_text())):
            if not isinstance(cls, ast.ClassDef):
                continue
            methods = [node for node in cls.body
                       if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]
            attributes = {node.attr for node in ast.walk(cls)
                          if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store)
                          and isinstance(node.value, ast.Name)
                          and node.value.id in ("self", "other")}
            sizes.append((len(attributes), len(methods),
                          f"{path.relative_to(package.parent)}:{cls.name}"))
    return sorted(sizes, reverse=True)


def test_no_class_in_bot_has_over_20_attributes_or_20_methods():
    sizes = class_sizes()
    assert len(sizes) > 10  # (the walk found the classes)
    assert [name for attributes, methods, name in sizes
            if attributes > MOST_ATTRIBUTES or methods > MOST_METHODS] == []


if __name__ == "__main__":
    for attributes, methods, name in class_sizes(Path(sys.argv[1]) if len(sys.argv) > 1
                                                 else ROOT / "bot"):
        print(f"{attributes:3d} attributes {methods:3d} methods  {name}")
