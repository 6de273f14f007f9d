"""`python -m referee show`: the board in the terminal with a bot's links replayed."""

import ast
import re

import pytest

from referee.judge.board import parse_board
from referee.cli.show import show
from referee.report.drawing import draw, render, short_nodes
from referee.judge.rules import Judge

from tests.project import ROOT, run_referee

BASIC = "puzzles/public/04_basic.txt"
BASIC_SOLUTION = (ROOT / "tests/fakebots/solutions/04_basic.txt").read_text().partition("\n\n")[2]
ANSI = re.compile(r"\033\[[0-9;]*m")


def referee_show(*args, stdin=None):
    return run_referee("show", *args, stdin=stdin, timeout=60)


def puzzle_and_lines(tmp_path, name):
    """A fake bot's lines file (puzzle, blank line, output) split into two files."""
    puzzle, _, output = (ROOT / "tests/fakebots/lines" / f"{name}.txt").read_text().partition("\n\n")
    (tmp_path / "p.txt").write_text(puzzle + "\n")
    (tmp_path / "out.txt").write_text(output)
    return str(tmp_path / "p.txt"), str(tmp_path / "out.txt")


def test_board_alone_lists_every_node_as_short():
    run = referee_show(BASIC)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == [
        "04_basic: 4x3, 5 nodes",
        "1 4 . 3", "", ". . . .", "", ". 4 . 4",
        "short of links (5): (0,0) 0/1, (1,0) 0/4, (3,0) 0/3, (1,2) 0/4, (3,2) 0/4"]


@pytest.mark.slow
def test_winning_links_from_a_file_draw_single_and_double_links(tmp_path):
    (tmp_path / "out.txt").write_text(BASIC_SOLUTION)
    run = referee_show(BASIC, "--links", str(tmp_path / "out.txt"))
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == [
        "04_basic: 4x3, 5 nodes, 5 output line(s)",
        "1-4---3", '  "   "', '. " . "', '  "   "', ". 4===4",
        "WIN at line 5: every node is full and all 5 are connected"]


def test_links_from_stdin():
    run = referee_show(BASIC, "--links", "-", stdin=BASIC_SOLUTION)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines()[-1].startswith("WIN at line 5")


def test_a_losing_line_is_drawn_marked_with_verdict_reason_and_line(tmp_path):
    puzzle, lines = puzzle_and_lines(tmp_path, "crossing")
    run = referee_show(puzzle, "--links", lines)
    assert run.returncode == 1
    assert run.stdout.splitlines() == [
        "p: 3x3, 4 nodes, 2 output line(s)",
        ". 1 .", "  |", "1***1", "  |", ". 1 .",
        "short of links (2): (0,1) 0/1, (2,1) 0/1",
        "* marks the losing link (0,1)-(2,1) x1",
        "LOST: crossing at line 2: the link (0,1)-(2,1) crosses the link (1,0)-(1,2) at (1,1)",
        "  line 2: '0 1 2 1 1'"]


@pytest.mark.parametrize("name, verdict", [
    ("third_link", "third_link"), ("over_capacity", "over_capacity"),
    ("malformed", "malformed"), ("not_a_link", "not_a_link"),
    ("disconnected", "disconnected"), ("incomplete", "incomplete")])
def test_every_rule_verdict_is_named_and_exits_1(tmp_path, name, verdict):
    puzzle, lines = puzzle_and_lines(tmp_path, name)
    run = referee_show(puzzle, "--links", lines)
    assert run.returncode == 1
    assert f"LOST: {verdict} " in run.stdout


def test_lines_after_the_deciding_one_are_counted_not_judged():
    run = referee_show("puzzles/public/13_expert.txt", "--links", "tests/fixtures/expert_crossing.txt")
    assert run.returncode == 1
    assert run.stdout.splitlines()[-3:] == [
        "LOST: crossing at line 56: the link (12,8)-(12,16) crosses the link (11,10)-(15,10) "
        "at (12,10)",
        "  line 56: '12 8 12 16 1'",
        "(33 later line(s) not judged: the match was decided)"]


def test_output_that_ends_early_is_incomplete_with_the_short_nodes_listed(tmp_path):
    (tmp_path / "out.txt").write_text("\n".join(BASIC_SOLUTION.splitlines()[:3]) + "\n")
    run = referee_show(BASIC, "--links", str(tmp_path / "out.txt"))
    assert run.returncode == 1
    assert "short of links (3): (3,0) 1/3, (1,2) 2/4, (3,2) 0/4" in run.stdout
    assert "LOST: incomplete awaiting line 4: output ended after 3 line(s)" in run.stdout


def test_upto_stops_part_way_undecided():
    run = referee_show(BASIC, "--links", "-", "--upto", "2", stdin=BASIC_SOLUTION)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines()[1] == "1-4---3"
    assert run.stdout.splitlines()[-1] == "after line 2: not decided yet"


@pytest.mark.slow
def test_colour_only_when_asked_or_on_a_terminal():
    plain = referee_show(BASIC, "--links", "-", stdin=BASIC_SOLUTION)
    assert "\033[" not in plain.stdout          # captured: not a terminal
    coloured = referee_show(BASIC, "--links", "-", "--colour", "always", stdin=BASIC_SOLUTION)
    assert "\033[" in coloured.stdout
    assert ANSI.sub("", coloured.stdout) == plain.stdout


def test_render_colours_short_and_full_nodes_links_and_the_mark():
    board = parse_board("4\n3\n14.3\n....\n.4.4\n")
    judge = Judge(board)
    for line in BASIC_SOLUTION.splitlines()[:2]:
        judge.feed(line)
    text = render(board, judge.links, colour=True)
    assert ANSI.sub("", text) == draw(board, judge.links)
    assert "\033[32m1\033[0m" in text          # (0,0) is full: green
    assert "\033[1;33m4\033[0m" in text        # (1,0) holds 2 of 4: yellow
    assert "\033[36m-\033[0m" in text          # a link: cyan
    assert short_nodes(board, judge.links)[0] == ((1, 0), 2, 4)


def test_show_in_process_returns_the_outcome():
    board = parse_board("4\n3\n14.3\n....\n.4.4\n")
    text, outcome = show(board, "basic", BASIC_SOLUTION.splitlines())
    assert outcome.won and text.endswith("all 5 are connected")
    text, outcome = show(board, "basic", None)
    assert outcome is None


@pytest.mark.parametrize("args, message", [
    (["no/such.txt"], "no/such.txt: cannot read"),
    ([BASIC, "--links", "no/such/out.txt"], "cannot read --links no/such/out.txt"),
    (["tests/fakebots/crash.py"], "crash.py: line 1: width must be"),
    ([BASIC, "--upto", "-1"], "--upto must be 0 or more"),
])
def test_usage_errors_exit_2(args, message):
    run = referee_show(*args)
    assert run.returncode == 2
    assert message in run.stderr


def test_help_is_the_module_docstring():
    run = referee_show("--help")
    assert run.returncode == 0
    assert "--links" in run.stdout and "Exit status" in run.stdout


def test_viewer_modules_never_import_the_bot():
    paths = [ROOT / "referee/cli/show.py", ROOT / "referee/report/drawing.py",
             *sorted((ROOT / "referee/report/viewer").glob("*.py"))]
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text())):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                     [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            assert not any(n == "bot" or n.startswith("bot.") for n in names), path
