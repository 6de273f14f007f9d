"""One command: `spoon2` (installed by pyproject.toml's [project.scripts]) and `python -m referee`."""

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tests.project import ROOT, run_referee
from referee.cli import COMMANDS

SCRIPT = Path(sys.executable).parent / "spoon2"


def _command_lines(text):
    return [line for line in text.splitlines() if line.startswith("  ")]


@pytest.mark.slow
@pytest.mark.parametrize("args", [[], ["--help"], ["-h"]])
def test_alone_or_with_help_it_lists_every_command_one_line_each(args):
    listed = run_referee(*args)
    assert listed.returncode == 0, listed.stderr
    lines = _command_lines(listed.stdout)
    assert [line.split()[0] for line in lines] == list(COMMANDS)
    assert all(len(line.split()) > 3 for line in lines)   # a name, then what it does
    assert "usage: python -m referee COMMAND" in listed.stdout


@pytest.mark.slow
def test_the_listing_says_what_run_does():
    line = next(l for l in _command_lines(run_referee().stdout) if l.split()[0] == "run")
    assert "judge" in line


def test_pyproject_declares_the_script():
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts == {"spoon2": "referee.cli.main:console"}


@pytest.mark.slow
def test_the_installed_script_names_itself_and_runs_a_command():
    assert SCRIPT.exists(), "pip install -e . did not make the spoon2 script"
    listed = subprocess.run([str(SCRIPT)], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert listed.returncode == 0 and "usage: spoon2 COMMAND" in listed.stdout
    shown = subprocess.run([str(SCRIPT), "show", "puzzles/public/01_simplest.txt"], cwd=ROOT,
                           capture_output=True, text=True, timeout=60)
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout == run_referee("show", "puzzles/public/01_simplest.txt").stdout


def test_an_error_names_the_script():
    wrong = subprocess.run([str(SCRIPT), "gen", "--bogus"], cwd=ROOT, capture_output=True,
                           text=True, timeout=60)
    assert wrong.returncode == 2
    assert wrong.stderr == "spoon2 gen: error: unrecognized arguments: --bogus\n"
