"""Nothing a bot does in its TMPDIR crashes the referee or outlives the match.

`remove_tree` (referee/box/reaper.py) on its own: nests deeper than Python's recursion limit,
folders closed with chmod, symlinks in place of a folder, a failure said in one line.
Then `run` with hostile bots (tests/fakebots/tmpdir_mess.py) and `--jobs 2`: every match
has a result, the files are written, and the referee's temporary folder is left empty;
as a user other than root where this machine allows it (mode 000 stops only such a user).
"""

import csv
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from referee.cli.main import main
from referee.box import one_match
from referee.box.sandbox import MODES, ContainmentError, choose_mode
from referee.box.reaper import remove_tree
from tests.fakebots.procs import box_python, reachable
from tests.fakebots.tmpdir_mess import nest

from tests.project import PUBLIC, ROOT

MESS = reachable(ROOT / "tests" / "fakebots") / "tmpdir_mess.py"   # the box user reaches it
DEEP = 1500    # past the recursion limit (1000) that shutil.rmtree's recursion hits


@pytest.mark.slow
def test_a_nest_deeper_than_the_recursion_limit_is_removed(tmp_path):
    (tmp_path / "t").mkdir()
    nest(str(tmp_path / "t"), DEEP)
    assert remove_tree(str(tmp_path / "t")) == ""
    assert not (tmp_path / "t").exists()


def test_closed_folders_are_opened_and_removed(tmp_path):
    top = tmp_path / "t"
    (top / "a" / "b" / "c").mkdir(parents=True)
    for folder in (top, top / "a", top / "a" / "b"):
        (folder / "file").write_text("x")
    os.chmod(top / "a" / "b", 0)
    os.chmod(top / "a", 0o100)
    os.chmod(top, 0o500)
    assert remove_tree(str(top)) == ""
    assert not top.exists()


def test_symlinks_are_removed_never_followed(tmp_path):
    outside = tmp_path / "outside"
    (outside / "inner").mkdir(parents=True)
    (outside / "inner" / "keep").write_text("keep")
    top = tmp_path / "t"
    top.mkdir()
    (top / "to-outside").symlink_to(outside)
    (top / "to-inner").symlink_to(outside / "inner")
    assert remove_tree(str(top)) == ""
    swapped = tmp_path / "swapped"    # the folder itself replaced by a symlink
    swapped.symlink_to(outside)
    assert remove_tree(str(swapped)) == ""
    assert not swapped.is_symlink() and not top.exists()
    assert (outside / "inner" / "keep").read_text() == "keep"


def test_a_file_or_nothing_at_the_path(tmp_path):
    (tmp_path / "f").write_text("x")
    assert remove_tree(str(tmp_path / "f")) == "" and not (tmp_path / "f").exists()
    assert remove_tree(str(tmp_path / "missing")) == ""


def nobody_python() -> list[str]:
    """The command prefix that runs this repository's referee as user nobody, or skip."""
    if os.geteuid() != 0 or shutil.which("setpriv") is None:
        pytest.skip("needs root and setpriv to run as another user (mode 000 stops only "
                    "a user other than root)")
    prefix = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]
    for python in (sys.executable, "/usr/bin/python3"):
        code = "import os, sys, referee; sys.exit(not os.access(sys.executable, os.X_OK))"
        probe = subprocess.run([*prefix, python, "-c", code], cwd=ROOT, capture_output=True)
        if probe.returncode == 0:
            return [*prefix, python]
    pytest.skip("no Python and checkout that user nobody can read")


@pytest.fixture
def open_tmp():
    """A folder every user may use (pytest's own is root's alone), removed after."""
    folder = Path(tempfile.mkdtemp(prefix="referee-test-"))
    os.chmod(folder, 0o777)
    yield folder
    assert remove_tree(str(folder)) == ""


def test_a_failure_is_said_in_one_line(open_tmp):
    runner = nobody_python()
    top = open_tmp / "t"
    (top / "root-only" / "inner").mkdir(parents=True)
    os.chown(top, 65534, 65534)        # nobody's folder, holding one it cannot empty
    code = f"from referee.box.reaper import remove_tree; print(remove_tree({str(top)!r}))"
    said = subprocess.run([*runner, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert said.stdout == f"{top}/root-only/inner: Permission denied\n", said.stderr
    assert (top / "root-only" / "inner").is_dir()


def available_modes() -> list[str]:
    modes = []
    for mode in MODES:
        try:
            choose_mode(mode)
            modes.append(mode)
        except ContainmentError:
            pass
    return modes


def run_mess(tmp_path, mess: str, *extra, prefix=(), python=sys.executable):
    """`run --jobs 2` of the mess bot on two public tests, the referee's TMPDIR its own;
    (process, JSON, the TMPDIR's leftovers)."""
    tmp = tmp_path / "tmp"
    tmp.mkdir(exist_ok=True)
    os.chmod(tmp, 0o777)
    out = tmp_path / "out"
    out.mkdir(exist_ok=True)
    os.chmod(out, 0o777)
    bot = f"{box_python() if python == sys.executable else python} {MESS} {mess}"
    run = subprocess.run(
        [*prefix, python, "-m", "referee", "run", "--jobs", "2", "--first-line-ms", "60000",
         "--bot", bot, "--json", str(out / "r.json"), "--csv", str(out / "r.csv"),
         "--html", str(out / "r.html"), *extra, str(PUBLIC / "01_simplest.txt"),
         str(PUBLIC / "02_simpler.txt")],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
        env={**os.environ, "TMPDIR": str(tmp)})
    data = json.loads((out / "r.json").read_text()) if (out / "r.json").exists() else None
    return run, data, sorted(p.name for p in tmp.iterdir())


def check_played(run, data, leftovers, verdicts=("win", "error")):
    """Both matches have a result (01 is won, 02 lost to the mess bot's wrong links),
    every file is written, nothing is left, no traceback."""
    assert "Traceback" not in run.stderr, run.stderr
    assert run.returncode == 1, run.stderr
    assert [m["verdict"] for m in data["matches"]][1] != "win"
    assert data["matches"][0]["verdict"] in verdicts, data["matches"][0]["reason"]
    assert leftovers == []
    for match in data["matches"]:
        assert match["cleanup"] == ""


@pytest.mark.slow
@pytest.mark.parametrize("mode", available_modes())
def test_a_nest_in_every_mode_costs_no_result_and_leaves_nothing(tmp_path, mode):
    run, data, leftovers = run_mess(tmp_path, f"nest {DEEP}", "--contain", mode)
    check_played(run, data, leftovers, verdicts=("win",))
    out = tmp_path / "out"
    assert len(list(csv.DictReader(io.StringIO((out / "r.csv").read_text())))) == 2
    assert (out / "r.html").stat().st_size > 0


# Unboxed, where the TMPDIR is a folder of the host's; in a box it is a tmpfs of the box's
# own, root's, which the bot may neither close nor replace, and which goes with the box.
UNBOXED = ("--contain", "subreaper")


@pytest.mark.slow
@pytest.mark.parametrize("mess", ["closed", "huge 50"])
def test_closed_folders_and_huge_files_leave_nothing(tmp_path, mess):
    run, data, leftovers = run_mess(tmp_path, mess, *UNBOXED)
    check_played(run, data, leftovers, verdicts=("win",))


@pytest.mark.slow
def test_a_tmpdir_swapped_for_a_symlink_is_removed_not_followed(tmp_path):
    target = tmp_path / "target"
    target.mkdir()
    (target / "keep").write_text("keep")
    run, data, leftovers = run_mess(tmp_path, f"symlink {target}", *UNBOXED)
    check_played(run, data, leftovers, verdicts=("win",))
    assert (target / "keep").read_text() == "keep"


@pytest.mark.slow
@pytest.mark.parametrize("mess", ["closed", f"nest {DEEP}"])
def test_as_another_user_closed_folders_and_nests_leave_nothing(open_tmp, mess):
    runner = nobody_python()
    run, data, leftovers = run_mess(open_tmp, mess, prefix=runner[:-1], python=runner[-1])
    check_played(run, data, leftovers)


@pytest.mark.slow
def test_a_match_that_raises_gets_an_error_and_the_others_their_results(tmp_path, monkeypatch):
    real = one_match.play_match

    def failing(board, bot, limits, name, **kwargs):
        if name == "02_simpler":
            raise RuntimeError("a fault inside the referee")
        return real(board, bot, limits, name=name, **kwargs)

    monkeypatch.setattr(one_match, "play_match", failing)
    out = {kind: tmp_path / f"r.{kind}" for kind in ("json", "csv", "html")}
    puzzles = [str(PUBLIC / f"{name}.txt") for name in ("01_simplest", "02_simpler", "03_simple")]
    status = main(["run", "--jobs", "2", "--quiet", "--bot", f"{sys.executable} -m bot",
                   *[arg for kind, path in out.items() for arg in (f"--{kind}", str(path))],
                   *puzzles])
    assert status == 1
    matches = json.loads(out["json"].read_text())["matches"]
    assert [(m["puzzle"], m["verdict"]) for m in matches] == [
        ("01_simplest", "win"), ("02_simpler", "error"), ("03_simple", "win")]
    assert matches[1]["reason"] == ("the referee failed in this match "
                                    "(RuntimeError: a fault inside the referee)")
    assert out["csv"].read_text().count("\n") == 4 and out["html"].stat().st_size > 0
