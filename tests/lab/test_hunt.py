"""`spoon2 hunt` against real bots: a bot that answers wrongly on any board with an 8 is
caught and its loss shrunk to a small board, which the printed command replays; a bot that
wins is hunted for nothing; a timeout is replayed before it counts."""

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from tests.project import ROOT
from tests.referee.test_cli_fuzz import invoke
from tests.test_readme import help_options
from tests.fakebots.procs import SESSION_TMP, box_python, no_process_left_behind, referee  # noqa: F401

from referee.judge.board import load_board
from referee.lab.hunt.boards import hunt_board
from referee.lab.hunt.matches import BotRuns
from referee.judge.limits import Limits
from referee.judge.rules import Verdict, judge_text

FAKEBOTS = ROOT / "tests" / "fakebots"
HUNT_PAGE = ROOT / "docs" / "HUNT.md"
# Limits no busy machine makes a bot miss: these tests are about wrong links, not time.
CALM = ("--first-line-ms", "20000", "--turn-ms", "5000")


@pytest.fixture(scope="module")
def eight_hunt(tmp_path_factory):
    """The eight-bug bot hunted until its first loss is shrunk, two matches at once."""
    out = tmp_path_factory.mktemp("hunt")
    run = referee("hunt", "--bot", f"{FAKEBOTS / 'eight_bug.py'} {ROOT / 'bot'}", "--time", "110",
                  "--losses", "1", "--jobs", "2", "--out", str(out), *CALM, timeout=300)
    return run, out


@pytest.mark.slow
def test_a_wrong_link_on_an_eight_is_shrunk_to_a_small_board(eight_hunt):
    run, out = eight_hunt
    assert run.returncode == 1, run.stdout + run.stderr
    board = load_board(out / "third_link.txt")
    assert 8 in board.nodes.values() and 5 <= len(board.nodes) <= 9, board.to_text()
    solution = (out / "third_link.solution").read_text()
    assert judge_text(board, solution).won          # the board is a valid, solvable puzzle
    assert f"shrunk to {len(board.nodes)} islands" in run.stdout
    assert "LOST third_link: third_link at line" in run.stdout
    assert "third_link" in (out / "report.html").read_text()
    assert '"name":"third_link"' in (out / "report.play.html").read_text()   # its links


@pytest.mark.slow
def test_the_work_is_counted_in_bot_runs(eight_hunt):
    run, _ = eight_hunt
    found = re.search(r"after [\d.]+ s and (\d+) bot runs", run.stdout)
    shrunk = re.search(r"in [\d.]+ s and (\d+) bot runs: ", run.stdout)
    total = re.search(r"^hunt: hunted (\d+) boards in [\d.]+ s, (\d+) bot runs; 1 way\(s\) "
                      r"to lose: third_link \(\d islands\)$", run.stdout, flags=re.M)
    assert found and shrunk and total, run.stdout
    assert int(total.group(2)) == int(found.group(1)) + int(shrunk.group(1))
    assert int(found.group(1)) >= int(total.group(1))    # every board found was played


@pytest.mark.slow
def test_the_printed_replay_loses_the_same_way(eight_hunt):
    run, out = eight_hunt
    replay = next(line for line in run.stdout.splitlines() if line.startswith("  replay: "))
    words = shlex.split(replay.removeprefix("  replay: "))
    assert words[-1] == str(out / "third_link.txt")
    words = words[1:] if words[0].endswith("spoon2") else words[3:]   # PYTHON -m referee
    again = referee(*words, "--quiet")
    assert again.returncode == 1
    assert again.stdout.startswith("LOST third_link: third_link at line ")


@pytest.mark.slow
def test_a_bot_that_wins_is_hunted_for_nothing(tmp_path):
    run = referee("hunt", "--time", "3", "--out", str(tmp_path), *CALM)
    assert run.returncode == 0, run.stdout + run.stderr
    assert re.fullmatch(r"hunt: hunted \d+ boards in [\d.]+ s, \d+ bot runs; 0 way\(s\) to "
                        r"lose: no loss\n", run.stdout)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.slow
def test_a_timeout_the_replay_clears_is_no_loss(monkeypatch):
    # unboxed: the bot keeps its state in a file of the host's between the two runs
    monkeypatch.setenv("REFEREE_CONTAIN", "subreaper")
    state = Path(SESSION_TMP) / f"started-{os.getpid()}"
    runs = BotRuns([box_python(), str(FAKEBOTS / "late_once.py"), str(state)],
                   Limits(first_line_s=5.0))
    name, witness = hunt_board(1, 0)
    result = runs.play(witness, name)
    assert state.exists() and runs.runs == 2
    assert result.verdict is Verdict.WIN


@pytest.mark.parametrize("argv, message", [
    (["--time", "0"], "argument --time: must be positive, got 0"),
    (["--time", "nan"], "argument --time: not a number: 'nan'"),
    (["--jobs", "0"], "argument --jobs: must be at least 1, got 0"),
    (["--bot", "./no-such-bot"], "bot program not found: ./no-such-bot"),
    (["--out", "-"], "argument --out: '-' is not stdout here: give a path"),
])
def test_bad_input_is_one_line_and_exit_2(argv, message, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    status, out, err = invoke(["hunt", *argv])
    assert (status, out) == (2, "")
    assert err.endswith(f"{message}\n") and err.count("\n") == 1, err


@pytest.mark.slow
def test_the_hunt_page_lists_exactly_the_options_of_help():
    rows = [line.split("|")[1] for line in HUNT_PAGE.read_text().splitlines()
            if line.startswith("| `")]
    listed = {flag for row in rows for flag in re.findall(r"`(--?[a-z][a-z-]*)", row)}
    assert listed == help_options("hunt") - {"-h", "--help"}


@pytest.mark.slow
def test_the_help_shows_spoon2_examples():
    done = subprocess.run([sys.executable, "-m", "referee", "hunt", "--help"], cwd=ROOT,
                          capture_output=True, text=True)
    assert "  spoon2 hunt --bot ./a.out --time 120" in done.stdout
