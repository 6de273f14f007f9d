"""The pure rules: one test per verdict the rules can reach, and hand-checked solutions."""

from pathlib import Path

import pytest

from referee.judge.board import parse_board
from referee.judge.rules import Judge, Verdict, judge_text

SOLUTIONS = Path(__file__).parents[1] / "fakebots" / "solutions"
PUBLIC = Path(__file__).parents[2] / "puzzles" / "public"

SIMPLEST = parse_board("3\n3\n1.2\n...\n..1\n")      # (0,0)=1 (2,0)=2 (2,2)=1
BASIC = parse_board("4\n3\n14.3\n....\n.4.4\n")      # a square of four nodes plus (0,0)
CROSS = parse_board("3\n3\n.1.\n1.1\n.1.\n")         # two pairs whose links would cross
TWO_PAIRS = parse_board("3\n3\n1.1\n...\n1.1\n")     # four 1s: full but never connected


def read_solution(name):
    """A solution file: the puzzle text, a blank line, the output lines."""
    puzzle, _, output = (SOLUTIONS / f"{name}.txt").read_text().partition("\n\n")
    return parse_board(puzzle), output


@pytest.mark.parametrize("name", ["01_simplest", "02_simpler", "03_simple", "04_basic"])
def test_hand_checked_solutions_win(name):
    board, output = read_solution(name)
    assert board == parse_board((PUBLIC / f"{name}.txt").read_text())
    outcome = judge_text(board, output)
    assert outcome.verdict is Verdict.WIN, outcome.reason
    assert outcome.turn == len(output.splitlines())


def test_win_is_decided_at_once_and_later_lines_are_ignored():
    outcome = judge_text(SIMPLEST, "0 0 2 0 1\n2 0 2 2 1\ngarbage\n9 9 9 9 9\n")
    assert (outcome.verdict, outcome.turn, outcome.line) == (Verdict.WIN, 2, "2 0 2 2 1")


def test_placements_add_up_and_endpoints_may_be_in_either_order():
    board = parse_board("2\n1\n22\n")
    assert judge_text(board, "1 0 0 0 1\n0 0 1 0 1\n").verdict is Verdict.WIN


@pytest.mark.parametrize("board, output, verdict, turn, reason", [
    (SIMPLEST, "0 0 2 0\n", Verdict.MALFORMED, 1, "five integers"),
    (SIMPLEST, "0 0 2 0 1 1\n", Verdict.MALFORMED, 1, "five integers"),
    (SIMPLEST, "0 0 2 0 x\n", Verdict.MALFORMED, 1, "five integers"),
    (SIMPLEST, "0 0 2.0 0 1\n", Verdict.MALFORMED, 1, "five integers"),
    (SIMPLEST, "\n", Verdict.MALFORMED, 1, "five integers"),
    (SIMPLEST, "0 0 2 0 3\n", Verdict.MALFORMED, 1, "amount must be 1 or 2, got 3"),
    (SIMPLEST, "0 0 2 0 0\n", Verdict.MALFORMED, 1, "amount must be 1 or 2, got 0"),
    (SIMPLEST, "0 0 3 0 1\n", Verdict.MALFORMED, 1, "(3,0) is off the 3x3 board"),
    (SIMPLEST, "0 -1 0 0 1\n", Verdict.MALFORMED, 1, "(0,-1) is off"),
    (SIMPLEST, "0 0 1 0 1\n", Verdict.NOT_A_LINK, 1, "(1,0) is not a node"),
    (SIMPLEST, "0 0 0 0 1\n", Verdict.NOT_A_LINK, 1, "both endpoints are the node (0,0)"),
    (SIMPLEST, "0 0 2 2 1\n", Verdict.NOT_A_LINK, 1, "not in one row or column"),
    (parse_board("3\n1\n111\n"), "0 0 2 0 1\n", Verdict.CROSSING, 1, "passes over the node (1,0)"),
    (CROSS, "1 0 1 2 1\n0 1 2 1 1\n", Verdict.CROSSING, 2, "crosses the link (1,0)-(1,2) at (1,1)"),
    (BASIC, "1 0 3 0 2\n1 0 3 0 1\n", Verdict.THIRD_LINK, 2, "would hold 3 links"),
    (BASIC, "1 0 3 0 1\n3 0 1 0 2\n", Verdict.THIRD_LINK, 2, "would hold 3 links"),
    (SIMPLEST, "0 0 2 0 2\n", Verdict.OVER_CAPACITY, 1, "node (0,0) would hold 2 links, its value is 1"),
    (SIMPLEST, "0 0 2 0 1\n", Verdict.INCOMPLETE, 2, "output ended after 1 line(s) while node (2,0) has 1 of 2 links and 1 other"),
    (SIMPLEST, "", Verdict.INCOMPLETE, 1, "and 2 other node(s) are short"),
    (TWO_PAIRS, "0 0 2 0 1\n0 2 2 2 1\n", Verdict.DISCONNECTED, 2, "2 separate groups (sizes 2, 2)"),
])
def test_each_loss_has_its_verdict_turn_and_reason(board, output, verdict, turn, reason):
    outcome = judge_text(board, output)
    assert outcome.verdict is verdict, outcome.reason
    assert outcome.turn == turn
    assert reason in outcome.reason
    lines = output.splitlines()
    assert outcome.line == (lines[turn - 1] if turn <= len(lines) else None)


def test_lines_split_on_newline_only_as_the_runner_does():
    assert judge_text(SIMPLEST, "0 0 2 0 1\r\n2 0 2 2 1").verdict is Verdict.WIN
    outcome = judge_text(SIMPLEST, "0 0 2 0 1\x0c2 0 2 2 1\n")
    assert (outcome.verdict, outcome.turn) == (Verdict.MALFORMED, 1)


def test_third_link_is_checked_before_over_capacity():
    board = parse_board("3\n2\n2.2\n1..\n")
    assert judge_text(board, "0 0 2 0 2\n0 0 2 0 1\n").verdict is Verdict.THIRD_LINK


def test_disconnected_is_decided_on_the_line_that_fills_the_last_node():
    outcome = judge_text(TWO_PAIRS, "0 0 2 0 1\n0 2 2 2 1\n0 0 0 2 1\n")
    assert (outcome.verdict, outcome.turn) == (Verdict.DISCONNECTED, 2)


def test_feed_returns_none_until_decided_then_ignores_lines():
    judge = Judge(SIMPLEST)
    assert judge.feed("0 0 2 0 1") is None
    assert judge.links == {((0, 0), (2, 0)): 1}
    outcome = judge.feed("2 0 2 2 1")
    assert outcome.won
    assert judge.feed("junk") is None
    assert judge.finish() is outcome


def test_rejected_line_places_nothing_and_records_the_offending_link():
    judge = Judge(BASIC)
    judge.feed("1 0 3 0 2")
    outcome = judge.feed("3 0 1 0 1")
    assert outcome.verdict is Verdict.THIRD_LINK
    assert judge.links == {((1, 0), (3, 0)): 2}
    assert (judge.offending.a, judge.offending.b, judge.offending.amount) == ((1, 0), (3, 0), 1)


def test_verdict_names_are_the_json_names():
    assert [v.value for v in Verdict] == [
        "win", "malformed", "not_a_link", "crossing", "third_link", "over_capacity",
        "incomplete", "disconnected", "timeout", "crash", "memory", "error"]


# tests/test_layers.py checks, module by module, that only referee/lab imports the bot.
@pytest.mark.slow
def test_judging_a_match_never_loads_the_bot():
    import subprocess
    import sys
    code = ("import sys; import referee.cli.run; "
            "from referee.judge.board import load_board; from referee.judge.rules import judge_text; "
            "judge_text(load_board('puzzles/public/01_simplest.txt'), '0 0 2 0 1'); "
            "print('bot' in sys.modules)")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=Path(__file__).parents[2], timeout=30)
    assert run.stdout.strip() == "False", run.stderr


# -- properties: whatever a bot prints, accepted links obey every rule -----------

from hypothesis import given, settings, strategies as st  # noqa: E402

INTERMEDIATE = parse_board((PUBLIC / "05_intermediate_1.txt").read_text())


def _line(board):
    x = st.integers(-1, board.width)
    y = st.integers(-1, board.height)
    return st.tuples(x, y, x, y, st.integers(0, 3)).map(lambda t: " ".join(map(str, t)))


def _cells_between(a, b):
    (x1, y1), (x2, y2) = a, b
    if y1 == y2:
        return {(x, y1) for x in range(x1 + 1, x2)}
    return {(x1, y) for y in range(y1 + 1, y2)}


def _connected(board, links):
    seen, todo = set(), [next(iter(board.nodes))]
    while todo:
        cell = todo.pop()
        if cell not in seen:
            seen.add(cell)
            todo += [b if a == cell else a for a, b in links if cell in (a, b)]
    return len(seen) == len(board.nodes)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(st.data())
def test_accepted_links_obey_every_rule(data):
    board = data.draw(st.sampled_from([BASIC, INTERMEDIATE, CROSS]))
    lines = data.draw(st.lists(_line(board), max_size=25))
    judge = Judge(board)
    for line in lines:
        outcome = judge.feed(line)
        for (a, b), count in judge.links.items():
            assert a in board.nodes and b in board.nodes and a < b and count in (1, 2)
            assert a[0] == b[0] or a[1] == b[1]
            assert not _cells_between(a, b) & set(board.nodes)
            for (c, d) in judge.links:
                if (c, d) != (a, b) and (a[1] == b[1]) != (c[1] == d[1]):
                    assert not _cells_between(a, b) & _cells_between(c, d)
        for cell, value in board.nodes.items():
            links = sum(n for pair, n in judge.links.items() if cell in pair)
            assert links == judge.degree[cell] <= value
        full = all(judge.degree[c] == v for c, v in board.nodes.items())
        if outcome is not None:
            assert outcome.verdict is not Verdict.WIN or (full and _connected(board, judge.links))
            break
        assert not full
    assert judge.finish().verdict is not None
