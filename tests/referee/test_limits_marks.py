"""Limits that speak: figures over half their limit are marked, figures over it fail.

The table and bench's report are checked on built results (no clock); the commands end
to end use fake bots whose sleeps sit far from the thresholds, so load cannot flip them.
"""

import dataclasses
import json
import re

import pytest

from referee.judge.board import parse_board
from referee.lab.bench.command import PuzzleRun, over_limit, print_report, suite_summary
from referee.judge.limits import Limits
from referee.report.tables import MARK_HALF, MARK_OVER, legend, limit_mark, loss_details, table
from referee.judge.result import Lateness, MatchResult, Usage
from referee.judge.rules import Verdict
from tests.fakebots.procs import no_process_left_behind, referee  # noqa: F401

from tests.project import ROOT

SIMPLEST = parse_board("3\n3\n1.2\n...\n..1\n")
REPLAY = "python3 tests/fakebots/replay.py tests/fakebots/solutions"
PUZZLE = "puzzles/public/01_simplest.txt"


def result(name, latencies, verdict=Verdict.WIN):
    lines = ("0 0 2 0 1", "2 0 2 2 1")[:len(latencies)]
    return MatchResult(name=name, board=SIMPLEST, verdict=verdict, reason="r", turn=len(lines),
                       line=lines[-1], lines=lines, latencies_s=tuple(latencies),
                       usage=Usage(cpu_s=0.02, peak_rss_bytes=2**20))



def test_a_loss_on_time_marked_busy_says_so_in_the_table_and_the_details():
    reason = "no line 2 within 100 ms of line 1; waiting for a CPU others held 140 of 150 ms"
    usage = Usage(lateness=Lateness(window_s=0.15, running_s=0.01, machine_wait_s=0.14))
    busy = dataclasses.replace(result("busy", [0.04], Verdict.TIMEOUT), reason=reason,
                               usage=usage, busy=True)
    own = dataclasses.replace(busy, name="own", busy=False)
    rows = table([busy, own]).splitlines()
    assert rows[1].split()[1:3] == ["timeout", "(busy)"] and rows[2].split()[1:3] == ["timeout", "1"]
    details = loss_details(busy, "replay")
    assert details.splitlines()[0].endswith(f"timeout at line 1: {reason}")
    assert ("  the machine was busy: the bot waited most of the time for a CPU others held "
            "(run --replay-busy N replays it)") in details.splitlines()
    assert "busy" not in loss_details(own, "replay")


def test_a_mark_says_how_close_a_figure_is_to_its_limit():
    assert [limit_mark(s, 1.0) for s in (None, 0.2, 0.5, 0.51, 1.0, 1.01)] == \
        ["", "", "", MARK_HALF, MARK_HALF, MARK_OVER]


def test_the_table_marks_first_lines_and_turns_and_adds_a_legend():
    fast = result("fast", [0.040, 0.001])
    slow_first = result("slow_first", [0.600, 0.001])
    slow_turn = result("slow_turn", [0.040, 0.070])
    late = result("late", [0.040, 0.130], Verdict.TIMEOUT)
    lines = table([fast, slow_first, slow_turn, late], Limits()).splitlines()
    rows = {line.split()[0]: line for line in lines[1:5]}
    assert "!" not in rows["fast"]
    assert rows["slow_first"].split()[3] == "600.0!" and "1.0!" not in rows["slow_first"]
    assert rows["slow_turn"].split()[4] == "70.0!"
    assert rows["late"].split()[4] == "130.0!!"
    assert lines[5] == legend(Limits())
    assert "over half its limit (first line 1000 ms, each later line 100 ms)" in lines[5]
    # The marks have their own width after the figure: the digits stay in one column.
    ends = {line.index("40.0") + 4 for line in (rows["fast"], rows["slow_turn"], rows["late"])}
    assert ends == {rows["slow_first"].index("600.0") + 5}
    assert "\033" not in "\n".join(lines)


def test_marks_follow_the_limits_given_and_no_legend_without_marks():
    slow = result("slow", [0.600, 0.070])
    assert "!" not in table([slow], Limits(first_line_s=5, turn_s=1))
    assert legend(Limits()) not in table([result("fast", [0.04, 0.001])])


def test_colour_only_when_asked_and_only_on_marked_cells():
    text = table([result("slow", [0.600, 0.130]), result("fast", [0.04, 0.001])], colour=True)
    assert "\033[33m600.0!\033[0m" in text and "\033[1;31m130.0!!\033[0m" in text
    assert "\033" not in next(line for line in text.splitlines() if line.startswith("fast"))


@pytest.mark.slow
def test_run_marks_a_slow_turn_plainly_when_piped_and_in_colour_when_asked():
    args = ["run", "--bot", f"{REPLAY} --sleep-ms 0,1100", "--first-line-ms", "5000",
            "--turn-ms", "2000", PUZZLE]
    run = referee(*args)
    assert run.returncode == 0, run.stdout + run.stderr
    row = next(line for line in run.stdout.splitlines() if line.startswith("01_simplest"))
    assert row.split()[4].endswith("!") and not row.split()[4].endswith("!!")
    assert "! over half its limit (first line 5000 ms, each later line 2000 ms)" in run.stdout
    assert "\033" not in run.stdout
    coloured = referee(*args, "--colour", "always")
    assert "\033[33m" in coloured.stdout


@pytest.mark.slow
def test_run_fails_a_turn_over_its_limit_naming_puzzle_figure_and_limit():
    run = referee("run", "--bot", f"{REPLAY} --sleep-ms 0,400", "--first-line-ms", "5000",
                  "--turn-ms", "200", PUZZLE)
    assert run.returncode == 1
    lost = next(line for line in run.stdout.splitlines() if line.startswith("LOST"))
    # The bot is killed 50 ms after the limit, long before its line: the line never comes
    # (unless this machine stalls the referee past 400 ms, and then it comes late); either
    # way it slept.
    assert re.fullmatch(r"LOST 01_simplest: timeout (awaiting line 2: no line 2 within 200 ms "
                        r"of line 1|at line 2: line 2 came [\d.]+ ms after line 1, over the "
                        r"200 ms limit); asleep \d+ of \d+ ms.*", lost), lost
    assert run.stdout.rstrip().endswith("0 passed, 1 failed")


def _run(key, seconds):
    suite, name = key.split("/")
    return PuzzleRun(suite, name, 10, seconds, True, "", "rules",
                     dict(rounds=1, assumptions=0, eliminations=0, dead_ends=0, nogoods=0,
                          branches=0, max_depth=0))


def _match(key, won, first, gap, last, lines, reason="every node is full"):
    return {"puzzle": key, "verdict": "win" if won else "timeout", "won": won, "reason": reason,
            "first_line": first, "longest_gap": gap, "last_line": last, "lines": lines}


def test_bench_marks_and_fails_figures_against_codingames_limits(capsys):
    runs = [_run("s/quick", 0.002), _run("s/heavy", 0.700), _run("s/too_slow", 1.250),
            _run("t/late", 0.004)]
    startup = {"runs": 5, "bundle_first_line": 0.035, "python_pass": 0.020}
    lost = _match("s/too_slow", False, None, None, None, 0,
                  "no output line within 1000 ms of the input")
    late = _match("t/late", True, 0.612, 0.078, 2.950, 329)   # its last line after 1 s: still won
    suites = {"s": dict(suite_summary(runs[:3]), bundle=lost),
              "t": dict(suite_summary(runs[3:]), bundle=late)}
    print_report(suites, runs, startup)
    out = capsys.readouterr().out
    assert "max 1250.0!! ms" in out and "median 700.0! ms" in out
    assert "bundle first line 35.0 ms" in out
    assert ("the bundle on each suite's slowest puzzle, one match under CodinGame's limits "
            "(first line 1000 ms, each later line 100 ms):") in out
    assert ("  bundle on s/too_slow: lost (timeout: no output line within 1000 ms of the input)"
            "  first line -  longest gap -  last line -  lines 0") in out
    assert ("  bundle on t/late: won  first line 612.0! ms  longest gap 78.0! ms"
            "  last line 2950.0 ms  lines 329") in out
    assert ("! over half of CodinGame's 1000 ms first-line limit (100 ms for a gap between "
            "lines), !! over it") in out
    assert over_limit(runs, startup, suites) == [
        "OVER LIMIT s/too_slow: solve 1250.0 ms in-process, over CodinGame's 1000 ms "
        "limit for the first line",
        "OVER LIMIT s/too_slow: the bundle lost its match under CodinGame's limits "
        "(timeout: no output line within 1000 ms of the input)"]
    assert out.rstrip().endswith("4/4 solved, 2 figure(s) over the limit")
    assert over_limit(runs[:2], startup, {"t": suites["t"]}) == []


def test_a_puzzle_the_solver_finds_unsolvable_is_over_the_limit_only_if_the_bundle_timed_out():
    runs = [dataclasses.replace(_run("u/none", 0.002), solved=False),
            dataclasses.replace(_run("v/none", 0.002), solved=False), _run("w/some", 0.002)]
    said_so = dict(_match("u/none", False, None, None, None, 0, "the bot exited with status 1"),
                   verdict="crash")
    silent = _match("v/none", False, None, None, None, 0, "no output line within 1000 ms")
    wrong = dict(_match("w/some", False, 0.01, 0.0, 0.01, 3, "a link crosses another"),
                 verdict="crossing")
    suites = {s["puzzle"][0]: {"bundle": s} for s in (said_so, silent, wrong)}
    assert [line.split(":")[0] for line in over_limit(runs, None, suites)] == [
        "OVER LIMIT v/none", "OVER LIMIT w/some"]


def test_a_gap_alone_over_half_its_limit_brings_the_legend(capsys):
    runs = [_run("t/late", 0.004)]
    gap = _match("t/late", True, 0.040, 0.060, 1.500, 30)
    print_report({"t": dict(suite_summary(runs), bundle=gap)}, runs, None)
    out = capsys.readouterr().out
    assert "longest gap 60.0! ms" in out and "first line 40.0 ms" in out
    assert "!! over it" in out and out.rstrip().endswith("1/1 solved")


@pytest.mark.slow
def test_bench_exits_1_when_the_bundle_is_over_the_limit(tmp_path):
    slow_bundle = "python3 tests/fakebots/replay.py tests/fakebots/lines/crossing.txt --sleep-ms 1100"
    run = referee("bench", PUZZLE, "--repeat", "1", "--startup-runs", "1", "--bundle", slow_bundle,
                  "--json", str(tmp_path / "bench.json"))
    assert run.returncode == 1, run.stdout + run.stderr
    assert "1/1 solved, 2 figure(s) over the limit" in run.stdout
    assert "OVER LIMIT start-up puzzle (3x1, two islands): bundle first line" in run.stdout
    over = [l for l in run.stdout.splitlines() if l.startswith("OVER LIMIT files/01_simplest")]
    assert len(over) == 1 and re.fullmatch(
        r"OVER LIMIT files/01_simplest: the bundle lost its match under CodinGame's limits "
        r"\(timeout: no output line within 1000 ms of the input; [a-zA-Z ]+ \d+ of \d+ ms.*\)",
        over[0]), over
    assert json.loads((tmp_path / "bench.json").read_text())["over_limit"] == \
        [l for l in run.stdout.splitlines() if l.startswith("OVER LIMIT")]
