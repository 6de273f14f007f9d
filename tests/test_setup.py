"""The set-up installs what each command needs: `make run` the run group, `make test` more."""

import ast
import subprocess
import sys
import tomllib

import pytest

from tests.project import ROOT

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
EXTRAS = PYPROJECT["project"]["optional-dependencies"]
OWN = {"bot", "referee", "build"}


def _distribution(requirement):
    """'dask[distributed]==1.0' -> 'dask'; 'python-minifier' -> 'python_minifier', as imported."""
    return requirement.split("==")[0].split("[")[0].strip().lower().replace("-", "_")


def _top_level_imports(path):
    """Modules a file imports at its top level (not inside a function)."""
    found = set()
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            found.add(node.module.split(".")[0])
    return found


def test_run_group_is_only_what_building_and_playing_need():
    assert {_distribution(r) for r in EXTRAS["run"]} == {"stickytape", "python_minifier"}


def test_test_group_holds_the_run_group_and_the_test_tools():
    test = {_distribution(r) for r in EXTRAS["test"]}
    assert "spoon2" in test and "pytest" in test
    assert any(r.startswith("spoon2[") and "run" in r for r in EXTRAS["test"])


@pytest.mark.slow
def test_bot_referee_and_build_import_nothing_beyond_the_run_group_at_load():
    allowed = set(sys.stdlib_module_names) | OWN | {_distribution(r) for r in EXTRAS["run"]}
    files = [ROOT / "build.py", *ROOT.glob("bot/**/*.py"), *ROOT.glob("referee/**/*.py")]
    outside = {f"{path.relative_to(ROOT)}: {name}" for path in files
               for name in _top_level_imports(path) - allowed}
    assert not outside, f"imports that `make run` does not install: {sorted(outside)}"


ROOT_FILES = {".ci", ".gitignore", "Makefile", "README.md", "bot", "build.py", "dist", "docs",
              "puzzles", "pyproject.toml", "referee", "tests"}


def test_the_checkout_holds_at_its_root_only_what_the_project_means_to_have():
    listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True)
    if listed.returncode != 0:
        pytest.skip("not a git checkout")
    tracked = {name.split("/")[0] for name in listed.stdout.splitlines()
               if (ROOT / name).exists()}
    assert tracked <= ROOT_FILES, sorted(tracked - ROOT_FILES)
