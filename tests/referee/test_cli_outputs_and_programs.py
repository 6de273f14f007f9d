"""Smaller command-line guards: `-` is never an output path, a bot program that exists but
cannot run is told apart from one that is missing, and a --gen count is bounded before
any board is made."""

import os
import sys

import pytest

from tests.referee.test_cli_fuzz import invoke as captured
from referee.lab.gen import sets

# Every option of every command that names a file or folder to write.
OUTPUTS = [["run", "--out"], ["run", "--json"], ["run", "--csv"], ["run", "--html"],
           ["gen", "--out"], ["bench", "--json"], ["stress-gen", "--out"], ["play", "--out"]]


def invoke(argv):
    """main(argv): (status, stderr)."""
    status, _, err = captured(argv)
    return status, err


@pytest.mark.parametrize("command, option", OUTPUTS)
def test_dash_is_refused_as_an_output_path(command, option, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    status, err = invoke([command, option, "-"])
    assert status == 2
    assert err.endswith(f"error: argument {option}: '-' is not stdout here: give a path\n")
    assert err.count("\n") == 1
    assert not (tmp_path / "-").exists()


@pytest.fixture
def plain_file(tmp_path):
    """A file that is not executable and no .py script (which this Python would run)."""
    path = tmp_path / "bot"
    path.write_text("print('hello')\n")
    os.chmod(path, 0o644)
    return path


def test_a_bot_program_that_exists_but_cannot_run_is_not_executable(plain_file, tmp_path):
    cases = [(str(plain_file), "not executable"), (str(tmp_path), "is a directory"),
             (str(tmp_path / "missing"), "not found")]
    if os.path.isfile("/etc/passwd"):
        cases.append(("/etc/passwd", "not executable"))
    for program, why in cases:
        status, err = invoke(["run", "--bot", program])
        assert (status, err) == (2, f"python -m referee run: error: bot program {why}: "
                                    f"{program}\n")


def test_a_name_on_path_that_is_not_executable_is_said_so(plain_file, monkeypatch):
    monkeypatch.setenv("PATH", str(plain_file.parent))
    status, err = invoke(["run", "--bot", "bot"])
    assert (status, err) == (2, "python -m referee run: error: bot program not executable: "
                                "bot\n")


def test_a_gen_count_over_the_bound_is_refused_before_any_board(monkeypatch):
    def no_board(*args, **kwargs):
        raise AssertionError("a board was generated")

    monkeypatch.setattr(sets, "generate_set", no_board)
    status, err = invoke(["run", "--bot", sys.executable, "--gen", "30x30:count=1000000"])
    assert status == 2
    assert err.startswith("python -m referee run: error: --gen: count must be at most 1000, "
                          "got 1000000: ")
    assert err.count("\n") == 1
    assert sets.parse_spec(f"5x5:count={sets.MAX_COUNT}").count == sets.MAX_COUNT
