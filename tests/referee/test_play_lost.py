"""The page of lost matches beside `run --html`: the lab works out hint, check and solve
for each lost position, its solution the one nearest the bot's links."""

import json
import re
import sys

import pytest

from tests.project import PUBLIC, run_referee
from referee.judge.board import load_board
from referee.lab.play.command import bot_links, position_entry, wrong_count

MULTIPLE = PUBLIC / "09_multiple_solutions_1.txt"


def page_data(path):
    text = path.read_text()
    blob = re.search(r'<script type="application/json" id="play-data">(.*?)</script>', text, re.S)
    return json.loads(blob.group(1).replace("\\u003c", "<"))


@pytest.mark.slow
def test_a_lost_position_gets_the_solvers_data(tmp_path):
    report = tmp_path / "r.html"
    lines = tmp_path / "lines.txt"
    lines.write_text("1 0 3 0 2\n")   # a double link where the solution has one, then an exit
    puzzle = PUBLIC / "04_basic.txt"
    bot = f"{sys.executable} tests/fakebots/replay.py {lines}"
    done = run_referee("run", "--bot", bot, "--html", str(report), "--no-record",
                       str(puzzle))
    assert done.returncode == 1, done.stderr
    (entry,) = page_data(tmp_path / "r.play.html")["puzzles"]
    assert entry["hints"] and entry["unique"] is True
    assert wrong_count(bot_links(["1 0 3 0 2"]), entry["solution"]) == 1


def test_check_is_measured_against_the_solution_nearest_the_bot():
    board = load_board(MULTIPLE)
    first = position_entry("m", board, [])["solution"]
    # A position that only another solution holds: the entry's solution follows it.
    others = [s for s in _all_solutions(board) if s != first]
    assert others
    lines = [" ".join(map(str, link)) for link in others[0]]
    entry = position_entry("m", board, lines)
    assert wrong_count(bot_links(lines), entry["solution"]) == 0
    assert wrong_count(bot_links(lines), first) > 0


def _all_solutions(board):
    from bot.counting import find_solutions
    return [[list(link) for link in s] for s in find_solutions(board.to_text(), limit=16)]


def test_a_position_the_solver_cannot_work_out_in_its_time_gets_the_board_alone():
    board = load_board(PUBLIC / "13_expert.txt")
    assert position_entry("e", board, [], seconds=0.001) is None
    assert position_entry("e", board, [])["solution"]
