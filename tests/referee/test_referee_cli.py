"""`python -m referee run` end to end, as a subprocess, on fake bots."""

import csv
import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from referee.judge.board import parse_board
from referee.cli.run_files import match_json
from referee.judge.result import MatchResult, Usage
from referee.judge.rules import Verdict
from tests.fakebots.procs import SESSION_TMP, alive, no_process_left_behind, referee  # noqa: F401
from tests.fakebots.procs import bot_written, box_python, reachable_file, wait_until_none_running

ROOT = Path(__file__).parents[2]
FAKEBOTS = "tests/fakebots"
WINNER = f"python3 {FAKEBOTS}/replay.py {FAKEBOTS}/solutions"
EASY = ["--first-line-ms", "5000", "--turn-ms", "1000"]
FIRST_FOUR = [f"puzzles/public/{n}.txt" for n in
              ("01_simplest", "02_simpler", "03_simple", "04_basic")]






def last_line(text):
    return text.rstrip("\n").splitlines()[-1]


@pytest.mark.slow
def test_all_won_exits_0_with_table_and_json(tmp_path):
    out = tmp_path / "run.json"
    run = referee("run", "--bot", WINNER, *EASY, "--json", str(out), *FIRST_FOUR)
    assert run.returncode == 0, run.stderr
    assert last_line(run.stdout) == "4 passed, 0 failed"
    assert run.stdout.startswith("referee run: 4 match(es), containment ")
    header = run.stdout.splitlines()[1].split()
    assert header[:3] == ["puzzle", "verdict", "turns"]
    assert "first line" in run.stdout and "per turn" in run.stdout and "p99" in run.stdout
    assert "[4/4] 04_basic: win" in run.stderr   # progress, plain: stderr is not a terminal
    data = json.loads(out.read_text())
    assert (data["passed"], data["failed"], data["bot"]) == (4, 0, WINNER)
    assert set(data["latency_ms"]["first_line"]) == {"p50", "p90", "p99", "max",
                                                     "slowest_puzzle", "slowest_line"}
    match = data["matches"][0]
    assert match["puzzle"] == "01_simplest" and match["verdict"] == "win"
    assert match["lines"] == ["0 0 2 0 1", "2 0 2 2 1"]
    assert len(match["latencies_ms"]) == 2 and match["first_line_ms"] > 0
    for key in ("turn", "line", "reason", "cpu_ms", "peak_mb", "stderr_tail", "replay", "input"):
        assert key in match


@pytest.mark.slow
def test_lost_match_exits_1_explains_and_replays(tmp_path):
    puzzle = tmp_path / "cross.txt"
    case = ROOT / FAKEBOTS / "lines" / "crossing.txt"
    puzzle.write_text(case.read_text().partition("\n\n")[0] + "\n")
    run = referee("run", "--bot", f"python3 {FAKEBOTS}/replay.py {case}", *EASY, str(puzzle))
    assert run.returncode == 1, run.stderr
    assert last_line(run.stdout) == "0 passed, 1 failed"
    assert ("LOST cross: crossing at line 2: the link (0,1)-(2,1) crosses the link "
            "(1,0)-(1,2) at (1,1)") in run.stdout
    assert "  line 2: '0 1 2 1 1'" in run.stdout
    assert "    1***1" in run.stdout   # the drawing, offending link marked
    replay = next(l for l in run.stdout.splitlines() if l.startswith("  replay: "))
    again = subprocess.run(shlex.split(replay.removeprefix("  replay: ")), cwd=ROOT,
                           capture_output=True, text=True, timeout=60)
    assert again.returncode == 1 and "crossing at line 2" in again.stdout


@pytest.mark.slow
def test_sdk_json_puzzles_directories_jobs_and_quiet(tmp_path):
    (tmp_path / "a.json").write_text(json.dumps({"testIn": "3\n3\n1.2\n...\n..1"}))
    (tmp_path / "b.txt").write_text((ROOT / "puzzles/public/02_simpler.txt").read_text())
    (tmp_path / "notes.md").write_text("not a puzzle")
    run = referee("run", "--bot", WINNER, *EASY, "--jobs", "2", "--quiet", str(tmp_path))
    assert run.returncode == 0, run.stderr
    assert run.stdout == "2 passed, 0 failed\n"
    assert run.stderr == ""


@pytest.mark.slow
def test_timeout_with_small_limits(tmp_path):
    out = tmp_path / "r.json"
    run = referee("run", "--bot", f"python3 {FAKEBOTS}/silent.py", "--first-line-ms", "300",
                  "--json", str(out), FIRST_FOUR[0])
    assert run.returncode == 1
    assert "timeout awaiting line 1: no output line within 300 ms of the input" in run.stdout
    assert "--first-line-ms 300" in run.stdout   # the replay keeps the limits
    assert json.loads(out.read_text())["matches"][0]["verdict"] == "timeout"


@pytest.mark.slow
def test_child_that_escaped_the_group_and_outlived_the_bot_is_killed():
    pidfile = bot_written("escaped")   # unboxed: the host's file
    # the child starts Python before it prints line 2: a long turn limit for a busy machine
    run = referee("run", "--contain", "subreaper", "--bot",
                  f"{box_python()} {reachable_file(ROOT / FAKEBOTS / 'escape_and_win.py')} "
                  f"{pidfile}",
                  "--first-line-ms", "10000", "--turn-ms", "10000", FIRST_FOUR[0])
    assert run.returncode == 0, run.stdout + run.stderr
    child = int(pidfile.read_text())
    assert wait_until_none_running() == []
    assert not alive(child)


@pytest.mark.parametrize("args, message", [
    (["--bot", "no-such-program-xyz"], "bot program not found: no-such-program-xyz"),
    (["--bot", "python3 no/such/bot.py"], "bot script not found: no/such/bot.py"),
    (["--bot", "python3 'unbalanced"], "cannot parse --bot"),
    (["--bot", WINNER, "no/such/puzzle.txt"], "no such puzzle file or directory"),
    (["--bot", WINNER, "tests/fakebots/crash.py"], "crash.py: line 1: width must be"),
    (["--bot", WINNER, "--jobs", "0", FIRST_FOUR[0]], "--jobs must be at least 1"),
    (["--bot", WINNER, "--json", "no/such/dir/r.json", FIRST_FOUR[0]], "no such directory"),
])
@pytest.mark.slow
def test_usage_errors_exit_2_with_one_line(args, message):
    run = referee("run", *args)
    assert run.returncode == 2
    assert run.stdout == ""
    assert message in run.stderr and "Traceback" not in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1


@pytest.mark.slow
def test_bad_option_value_exits_2():
    run = referee("run", "--turn-ms", "-5")
    assert run.returncode == 2 and "must be positive" in run.stderr


@pytest.mark.slow
def test_help_is_the_module_docstring():
    top = referee("--help")
    assert top.returncode == 0 and "run" in top.stdout and "Exit status" in top.stdout
    run = referee("run", "--help")
    assert run.returncode == 0 and "N passed, N failed" in run.stdout
    assert "distort timings" in run.stdout


@pytest.mark.slow
def test_a_reader_that_stops_early_costs_neither_the_files_nor_the_status(tmp_path):
    out = tmp_path / "r.json"
    command = [sys.executable, "-m", "referee", "run", "--bot",
               f"python3 {FAKEBOTS}/replay.py {FAKEBOTS}/lines/over_capacity.txt",
               "--json", str(out), *EASY, *FIRST_FOUR]
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True,
                               env=dict(os.environ, TMPDIR=SESSION_TMP))
    process.stdout.close()  # like `| head -0`: every write to stdout fails
    status = process.wait(timeout=120)
    stderr = process.stderr.read()
    process.stderr.close()
    assert status == 1, stderr
    assert "Traceback" not in stderr and "BrokenPipe" not in stderr
    assert json.loads(out.read_text())


@pytest.mark.parametrize("verdict, line, status, stopped, shown", [
    (Verdict.WIN, "2 0 2 2 1", -9, True, None),        # stopped by the referee after its last line
    (Verdict.WIN, "2 0 2 2 1", 0, False, 0),           # exited by itself after it
    (Verdict.CROSSING, "0 1 2 1 1", -9, True, None),   # stopped after a losing line
    (Verdict.TIMEOUT, None, -9, True, None),           # stopped at the limit
    (Verdict.MEMORY, None, -9, True, None),            # stopped at the memory cap
    (Verdict.CRASH, None, 1, False, 1),                # its own exit ended the match
    (Verdict.CRASH, None, -11, False, -11),            # killed, but not by the referee
    (Verdict.INCOMPLETE, None, 0, False, 0),           # exited cleanly with links missing
])
def test_the_exit_status_is_the_bots_own_or_none(verdict, line, status, stopped, shown):
    board = parse_board("3\n1\n1.1\n")
    result = MatchResult(name="p", board=board, verdict=verdict, reason="", turn=1, line=line,
                         usage=Usage(exit_status=status, stopped=stopped))
    assert match_json(result)["exit_status"] == shown


@pytest.mark.slow
def test_a_won_match_shows_no_exit_status_a_crash_its_own(tmp_path):
    table, report = tmp_path / "r.csv", tmp_path / "r.json"
    run = referee("run", "--bot", f"{WINNER} --hang", "--bot", f"python3 {FAKEBOTS}/crash.py",
                  *EASY, "--csv", str(table), "--json", str(report), FIRST_FOUR[0])
    assert run.returncode == 1, run.stderr
    rows = list(csv.DictReader(table.read_text().splitlines()))
    assert [(r["bot"], r["verdict"], r["exit_status"]) for r in rows] == \
        [("A", "win", ""), ("B", "crash", "1")]
    matches = json.loads(report.read_text())["matches"]
    assert [(m["verdict"], m["exit_status"]) for m in matches] == [("win", None), ("crash", 1)]

