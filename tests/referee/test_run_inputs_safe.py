"""Outputs never harm inputs: a report that names a puzzle or a bot's file is refused
before any match, a puzzle too large to be one is refused unread, and a report file
that cannot be written at the end costs only itself."""

import os
import subprocess
from pathlib import Path

import pytest

from referee.cli.run_files import write_outputs
from referee.files import write_new
from tests.fakebots.procs import referee

ROOT = Path(__file__).resolve().parents[2]
SIMPLEST = (ROOT / "puzzles" / "public" / "01_simplest.txt").read_text()


@pytest.mark.slow
def test_a_report_naming_the_puzzle_is_refused_and_the_puzzle_kept(tmp_path):
    puzzle = tmp_path / "p.txt"
    puzzle.write_text(SIMPLEST)
    for option in ("--json", "--csv", "--html"):
        done = referee("run", option, str(puzzle), str(puzzle))
        assert done.returncode == 2
        assert f"{option} {puzzle} is an input" in done.stderr
        assert puzzle.read_text() == SIMPLEST


@pytest.mark.slow
def test_a_report_onto_a_hard_link_of_the_puzzle_is_refused_and_the_puzzle_kept(tmp_path):
    puzzle = tmp_path / "p.txt"
    puzzle.write_text(SIMPLEST)
    os.link(puzzle, tmp_path / "report.json")
    done = referee("run", "--json", str(tmp_path / "report.json"), str(puzzle))
    assert done.returncode == 2 and "is an input" in done.stderr
    assert puzzle.read_text() == SIMPLEST


def test_a_file_written_anew_leaves_a_hard_link_to_the_old_one_as_it_was(tmp_path):
    old = tmp_path / "old.txt"
    old.write_text("kept\n")
    os.link(old, tmp_path / "out.txt")
    write_new(tmp_path / "out.txt", "new\n")
    assert old.read_text() == "kept\n"
    assert (tmp_path / "out.txt").read_text() == "new\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.txt", "out.txt"]


def test_a_file_written_anew_takes_the_mode_the_umask_gives(tmp_path):
    before = os.umask(0o027)
    try:
        write_new(tmp_path / "out.txt", "x")
    finally:
        os.umask(before)
    assert (tmp_path / "out.txt").stat().st_mode & 0o777 == 0o640


@pytest.mark.slow
def test_a_report_naming_the_bots_own_file_is_refused(tmp_path):
    bot = ROOT / "dist" / "bot.py"
    before = bot.read_bytes()
    done = referee("run", "--bot", f"python3 {bot}", "--json", str(bot),
                   str(ROOT / "puzzles" / "public" / "01_simplest.txt"))
    assert done.returncode == 2 and "is an input" in done.stderr
    assert bot.read_bytes() == before


@pytest.mark.slow
def test_a_puzzle_file_too_large_to_be_one_is_refused_unread(tmp_path):
    huge = tmp_path / "huge.txt"
    with open(huge, "wb") as file:
        file.truncate(8 << 30)   # sparse: 8 GB that would exhaust memory if read whole
    done = referee("run", str(huge))
    assert done.returncode == 2
    assert done.stderr.strip().endswith("over the 1048576 a puzzle could need")
    assert len(done.stderr.strip().splitlines()) == 1


def test_a_report_that_cannot_be_written_costs_only_itself():
    written = []

    def fail():
        raise FileNotFoundError(2, "No such file or directory")

    failed = write_outputs([("--json a.json", fail), ("--csv b.csv", lambda: written.append(1))])
    assert failed == ["cannot write --json a.json: No such file or directory"]
    assert written == [1]
