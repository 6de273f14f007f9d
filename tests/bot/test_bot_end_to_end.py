"""The bot as a player runs it: library, `python -m bot` and the bundle, judged by the referee."""

import gc
import io
import os
import subprocess
import sys

import pytest

import bot
from bot import cli
from bot.options import DEFAULT
from tests.judge import fault, links_text
from tests.project import ROOT

PUBLIC = sorted((ROOT / "puzzles" / "public").glob("*.txt"))
COMMANDS = {
    "module": [sys.executable, "-m", "bot"],
    "bundle": [sys.executable, str(ROOT / "dist" / "bot.py")],
}
UNSOLVABLE = "3\n1\n2.1\n"


def play(command, text, timeout=20):
    """Run a bot command on puzzle text the way CodinGame does (no PYTHONUNBUFFERED)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    return subprocess.run(command, input=text, capture_output=True, text=True,
                          timeout=timeout, env=env, cwd=ROOT)


@pytest.mark.parametrize("path", PUBLIC, ids=lambda p: p.stem)
def test_library_solves_every_public_test(path):
    text = path.read_text()
    assert fault(text, links_text(bot.solve(text))) is None


@pytest.mark.slow
@pytest.mark.parametrize("kind", COMMANDS)
@pytest.mark.parametrize("path", PUBLIC, ids=lambda p: p.stem)
def test_command_solves_every_public_test(kind, path):
    text = path.read_text()
    run = play(COMMANDS[kind], text)
    assert run.returncode == 0, run.stderr
    assert fault(text, run.stdout) is None
    assert run.stderr == ""


@pytest.mark.parametrize("kind", COMMANDS)
def test_malformed_input_is_one_line_and_exit_2(kind):
    run = play(COMMANDS[kind], "3\n2\n1.1\n1x1\n")
    assert run.returncode == 2
    assert run.stdout == ""
    assert run.stderr == ("bot: malformed puzzle: line 4, column 2: unexpected character 'x' "
                          "(expected '.' or a digit 1-8)\n")


@pytest.mark.parametrize("text", ["", "abc\n", "2\n2\n1.\n", "2\n1\n1\n"])
def test_every_malformed_input_exits_2_without_traceback(text):
    run = play(COMMANDS["module"], text)
    assert run.returncode == 2
    assert len(run.stderr.splitlines()) == 1 and "Traceback" not in run.stderr


@pytest.mark.parametrize("kind", COMMANDS)
def test_unsolvable_puzzle_exits_1_with_no_links(kind):
    run = play(COMMANDS[kind], UNSOLVABLE)
    assert run.returncode == 1
    assert run.stdout == ""
    assert run.stderr == "bot: the puzzle has no solution\n"


def test_bot_answers_while_stdin_stays_open():
    """CodinGame never closes stdin: the bot must not wait for end of input."""
    text = (ROOT / "puzzles" / "public" / "04_basic.txt").read_text()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    process = subprocess.Popen(COMMANDS["bundle"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT)
    try:
        process.stdin.write(text)
        process.stdin.flush()
        assert process.wait(timeout=20) == 0
        assert fault(text, process.stdout.read()) is None
    finally:
        process.kill()
        process.wait()
        for stream in (process.stdin, process.stdout, process.stderr):
            stream.close()


class RecordingStream(io.StringIO):
    """Records what was written before each flush."""

    def __init__(self):
        super().__init__()
        self.flushed = []

    def flush(self):
        self.flushed.append(self.getvalue())


def test_every_line_is_flushed_as_it_is_printed(monkeypatch):
    text = (ROOT / "puzzles" / "public" / "05_intermediate_1.txt").read_text()
    out = RecordingStream()
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    monkeypatch.setattr(sys, "stdout", out)
    cli.main()
    lines = out.getvalue().splitlines(keepends=True)
    assert len(lines) > 1
    # After the k-th line is printed, a flush sees exactly k lines.
    assert ["".join(lines[:k]) for k in range(1, len(lines) + 1)] == [
        f for f in out.flushed if f][:len(lines)]


def test_solve_raises_the_documented_errors():
    with pytest.raises(bot.PuzzleError):
        bot.solve("2\n1\n1\n")
    with pytest.raises(bot.Unsolvable):
        bot.solve(UNSOLVABLE)


def test_solve_returns_link_tuples():
    assert bot.solve("3\n1\n1.1\n") == [(0, 0, 2, 0, 1)]


def test_count_solutions_stops_at_the_limit():
    text = (ROOT / "puzzles" / "public" / "12_multiple_solutions_2.txt").read_text()
    assert bot.count_solutions(text, limit=5) == 5
    assert bot.count_solutions((ROOT / "puzzles" / "public" / "13_expert.txt").read_text()) == 1
    assert bot.count_solutions(UNSOLVABLE) == 0


def test_find_solutions_returns_distinct_valid_solutions():
    text = (ROOT / "puzzles" / "public" / "09_multiple_solutions_1.txt").read_text()
    found = bot.find_solutions(text, limit=5)
    assert len(found) == 2 and found[0] != found[1]
    assert all(fault(text, links_text(links)) is None for links in found)


@pytest.mark.parametrize("search, path", [
    ("node search", "hard30/30x30_hard_unique_s1_017.txt"),
    ("learning search", "hard30/30x30_hard_unique_s1_017.txt"),
    ("no solution", "stress/unsolvable/20x20_fill_double_at10-18_010.txt"),
])
def test_a_solve_leaves_nothing_for_the_cyclic_collector(search, path):
    # What a solve builds is freed by reference counting the moment it ends: a grid that
    # pointed back at its engine made a cycle per solve, freed only by the collector, and
    # a solve of a few milliseconds took 4-7% more CPU time.
    text = (ROOT / "puzzles" / path).read_text()
    options = DEFAULT.replace(node_search_branches=0) if search == "learning search" else DEFAULT
    bot.count_solutions(text, limit=1, options=options)  # (what it imports, imported now)
    gc.collect()
    gc.disable()
    try:
        found = bot.count_solutions(text, limit=1, options=options)
        assert gc.collect() == 0
    finally:
        gc.enable()
    assert found == (0 if search == "no solution" else 1)


def test_a_board_larger_than_codingame_allows_is_solved():
    # 40 columns (the referee stops at 30): a chain of 2s closed by 1s has one solution.
    text = "40\n1\n1" + "2" * 38 + "1\n"
    assert sorted(bot.solve(text)) == [(x, 0, x + 1, 0, 1) for x in range(39)]
