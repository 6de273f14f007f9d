"""A bot from anywhere: `--bot ./a.out` and other relative paths are read from the working
folder as a shell reads them, a bare word from PATH, and every default that names a file
of the checkout (dist/bot.py, puzzles/public) is found from any folder."""

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tests.project import PUBLIC, ROOT
from tests.referee.test_cli_fuzz import invoke
from tests.referee.test_languages import BOTS, build, need
from tests.fakebots.procs import SESSION_TMP, referee

from referee import home
from referee.cli.args import command_argv

SIMPLEST = str(PUBLIC / "01_simplest.txt")
# Limits no busy machine makes a bot miss: these tests are about where files are found.
CALM = ("--first-line-ms", "20000")


@pytest.fixture(scope="module")
def cpp_folder(tmp_path_factory):
    """A folder holding the C++ solver built as ./a.out."""
    need("g++")
    folder = tmp_path_factory.mktemp("mybot")
    build(["g++", "-O2", "-o", str(folder / "a.out"), os.path.join(BOTS, "cpp", "hashi.cpp")])
    return folder


def spoon2(*args, cwd):
    """The installed `spoon2` script (`make test` installs it), else `python -m referee`."""
    script = Path(sys.executable).with_name("spoon2")
    if not script.is_file():
        return referee(*args, cwd=cwd, timeout=300)
    env = dict(os.environ, TMPDIR=SESSION_TMP)
    return subprocess.run([str(script), *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=300)


@pytest.mark.slow
def test_a_cpp_binary_plays_from_its_own_folder_as_dot_slash_a_out(cpp_folder):
    run = spoon2("run", "--bot", "./a.out", "--quiet", cwd=cpp_folder)
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout == "13 passed, 0 failed\n"     # the public tests, found from here


@pytest.mark.slow
def test_a_relative_program_keeps_its_arguments(cpp_folder):
    run = referee("run", "--bot", "./a.out --flag", "--quiet", SIMPLEST, cwd=cpp_folder)
    assert (run.returncode, run.stdout) == (0, "1 passed, 0 failed\n"), run.stderr


@pytest.mark.slow
def test_a_py_script_up_a_folder_runs_with_this_python(tmp_path):
    (tmp_path / "x").mkdir()
    shutil.copy(ROOT / "dist" / "bot.py", tmp_path / "x" / "bot.py")
    os.chmod(tmp_path / "x" / "bot.py", 0o644)      # no mode to run it by itself
    (tmp_path / "here").mkdir()
    run = referee("run", "--bot", "../x/bot.py", "--quiet", *CALM, SIMPLEST, cwd=tmp_path / "here")
    assert (run.returncode, run.stdout) == (0, "1 passed, 0 failed\n"), run.stderr


def test_the_argv_names_absolute_paths_and_leaves_words_alone(tmp_path, monkeypatch):
    (tmp_path / "build").mkdir()
    (tmp_path / "bot.js").write_text("")
    script = tmp_path / "bot.py"
    script.write_text("")
    monkeypatch.chdir(tmp_path)
    # sh stands for any interpreter on PATH
    assert command_argv("sh bot.js --in ./build", "--bot") == \
        ["sh", str(tmp_path / "bot.js"), "--in", str(tmp_path / "build")]
    assert command_argv("sh -c build Player", "--bot") == ["sh", "-c", "build", "Player"]
    assert command_argv("bot.py", "--bot") == [sys.executable, str(script)]
    assert command_argv("./bot.py --x", "--bot") == [sys.executable, str(script), "--x"]


def test_a_bare_word_is_looked_up_on_path_not_in_the_folder(tmp_path, monkeypatch):
    program = tmp_path / "mybot"
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    monkeypatch.chdir(tmp_path)
    status, _, err = invoke(["run", "--bot", "mybot", SIMPLEST])
    assert (status, err) == (2, "python -m referee run: error: bot program not found: mybot\n")
    assert command_argv("./mybot", "--bot") == [str(program)]


@pytest.mark.slow
def test_the_defaults_are_found_from_any_folder(tmp_path):
    run = referee("run", "--quiet", *CALM, cwd=tmp_path, timeout=300)
    assert (run.returncode, run.stdout) == (0, "13 passed, 0 failed\n"), run.stderr
    profile = referee("profile", "--repeat", "1", "--top", "1", cwd=tmp_path)
    assert profile.returncode == 0 and "answer: win" in profile.stdout, profile.stderr


@pytest.mark.parametrize("argv, missing", [
    (["run", "--bot", "/bin/false"], "puzzles/public"), (["run", SIMPLEST], "dist/bot.py"),
    (["hunt"], "dist/bot.py"), (["bench", "--startup-runs", "0"], "puzzles/public"),
    (["profile"], "puzzles/public/13_expert.txt"), (["play"], "puzzles/public")])
def test_outside_a_checkout_a_default_is_one_line_naming_the_fix(argv, missing, tmp_path,
                                                                monkeypatch):
    monkeypatch.setattr(home, "ROOT", tmp_path)
    monkeypatch.chdir(tmp_path)
    status, _, err = invoke(argv)
    assert status == 2 and err.count("\n") == 1, err
    assert err.startswith(f"python -m referee {argv[0]}: error: {missing}: spoon2 is not "
                          f"running from a source checkout ({tmp_path}); give ")


def test_version_is_the_projects():
    with open(ROOT / "pyproject.toml", "rb") as file:
        version = tomllib.load(file)["project"]["version"]
    done = subprocess.run([sys.executable, "-m", "referee", "--version"], cwd=ROOT,
                          capture_output=True, text=True)
    assert (done.returncode, done.stdout) == (0, f"python -m referee {version}\n")



def test_the_version_is_read_from_an_installed_dist_info_first(tmp_path, monkeypatch):
    info = tmp_path / "site" / "spoon2-9.8.7.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: spoon2\nVersion: 9.8.7\n\n"
                                   "Version: 0.0.0 (the body, not a header)\n")
    monkeypatch.setattr(sys, "path", [str(tmp_path / "empty"), str(tmp_path / "site")])
    assert home.package_version() == "9.8.7"


def test_without_an_install_the_version_is_the_checkouts_then_unknown(tmp_path, monkeypatch):
    monkeypatch.setattr(sys, "path", [str(tmp_path)])
    with open(ROOT / "pyproject.toml", "rb") as file:
        assert home.package_version() == tomllib.load(file)["project"]["version"]
    monkeypatch.setattr(home, "ROOT", tmp_path)
    assert home.package_version() == "unknown"

@pytest.mark.slow
def test_a_puzzle_named_as_the_checkout_names_it_is_found_from_any_folder(tmp_path):
    done = spoon2("run", *CALM, "--quiet", "public/04_basic", "public/01_simplest.txt",
                  cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "2 passed, 0 failed"


def test_a_file_here_wins_over_the_checkouts_of_the_same_name(tmp_path, monkeypatch):
    from referee.cli.args import checkout_puzzle

    monkeypatch.chdir(tmp_path)
    assert checkout_puzzle("public") == str(ROOT / "puzzles" / "public")
    (tmp_path / "public").mkdir()
    assert checkout_puzzle("public") == "public"
    assert checkout_puzzle("../../etc/passwd") == "../../etc/passwd"
    assert checkout_puzzle("nosuch") == "nosuch"
