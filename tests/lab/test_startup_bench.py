"""The bundle's start-up and pacing bench (referee/lab/bench/startup.py, make startup-bench): what
it measures and reports, not how fast the machine is."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.project import ROOT
from referee.lab.bench import startup

SLOW_PRINTER = "import time\nprint(1, flush=True)\ntime.sleep(0.5)\nprint(2, flush=True)\n"


def test_line_times_are_read_as_the_lines_come():
    times = startup.line_times([sys.executable, "-c", SLOW_PRINTER], "")
    assert len(times) == 2
    # the sleep is between them: this reader may note the first late, by less than 0.3 s
    assert times[1] - times[0] >= 0.2
    assert startup.gaps(times) == [times[1] - times[0]]
    assert startup.gaps(times[:1]) == []


def test_judged_times_are_the_referees_stamps_of_a_whole_match(tmp_path):
    # a bot that reads the board, then prints two lines 500 ms apart: past CodinGame's
    # limit, and still every line is seen
    bot = tmp_path / "slow.py"
    bot.write_text("import sys, time\nfor _ in range(3): sys.stdin.readline()\n"
                   "print('0 0 2 0 1', flush=True)\ntime.sleep(0.5)\n"
                   "print('2 0 2 2 1', flush=True)\n")
    board = ROOT / "puzzles" / "public" / "01_simplest.txt"
    times = startup.judged_times([sys.executable, str(bot)], board)
    assert len(times) == 2
    assert startup.gaps(times)[0] >= 0.2   # (a stamp at normal priority may come late)


def test_the_stress_boards_are_those_up_to_30x30():
    boards = startup.stress_boards()
    sides = {tuple(map(int, b.read_text().split()[:2])) for b in boards}
    assert boards and max(max(side) for side in sides) == 30
    assert all(b.suffix == ".txt" for b in boards)
    every = [p for p in (ROOT / "puzzles" / "stress").rglob("*.txt") if p.name != "README.md"]
    assert any("40x40" in p.name for p in every) and not any("40x40" in b.name for b in boards)


def test_the_load_report_names_the_board_with_the_largest_gap():
    rows = [{"board": Path("a.txt"), "lines": [3, 3], "first": [0.2, 0.3], "gaps": [0.01, 0.02],
             "over": 0},
            {"board": Path("b.txt"), "lines": [5], "first": [0.1], "gaps": [0.03, 0.12], "over": 1}]
    report = startup.load_report(rows)
    assert report[-2] == "largest gap: 120.0 ms (p99 120.0 ms) on b.txt, OVER CodinGame's 100 ms"
    assert report[1].split()[:4] == ["a.txt", "2", "3", "300.0"]
    assert report[-1] == "runs with a gap over 100 ms: 1 of 3"


@pytest.mark.slow
def test_the_startup_table_covers_each_public_test_and_all_pairs():
    run = subprocess.run([sys.executable, "-m", "referee.lab.bench.startup", "--rounds", "1",
                          "--boards", "0"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[1].split() == ["puzzle", "bundle", "ms", "bare", "ms", "overhead", "ms", "ratio"]
    assert [line.split()[0] for line in lines[2:15]] == [
        p.stem for p in sorted((ROOT / "puzzles" / "public").glob("*.txt"))]
    assert lines[15].startswith("all 13 (13 pairs)")
    assert lines[16].startswith("where it goes on 13_expert")
    assert re.match(r"  the bundle's \d+ modules, compiled and run: [\d.]+ ms", lines[17])
    assert "(most: bot." in lines[17] and len(lines) == 19


def test_import_times_name_the_bundles_modules():
    times = startup.import_times([sys.executable, "-I", "-S", str(startup.BUNDLE)],
                                 (ROOT / "puzzles" / "public" / "01_simplest.txt").read_text())
    assert {"bot", "bot.cli", "bot.solver", "bot.rules.engine"} <= set(times)
    assert "bot.learning" not in times   # the search that learns is imported when needed
    assert all(t >= 0 for t in times.values())
