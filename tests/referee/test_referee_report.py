"""What the player reads: drawing, table, percentiles, loss details (no process)."""

from referee.judge.board import parse_board
from referee.report.drawing import draw, draw_result
from referee.report.tables import latency_summary, loss_details, percentile, summary_line, table
from referee.judge.result import MatchResult, Usage
from referee.judge.rules import Judge, Verdict

SIMPLEST = parse_board("3\n3\n1.2\n...\n..1\n")
BASIC = parse_board("4\n3\n14.3\n....\n.4.4\n")


def result(board, lines, latencies, verdict, reason, turn, line, name="p", stderr=""):
    return MatchResult(name=name, board=board, verdict=verdict, reason=reason, turn=turn,
                       line=line, lines=tuple(lines), latencies_s=tuple(latencies),
                       usage=Usage(cpu_s=0.05, peak_rss_bytes=12 * 2**20, exit_status=-9,
                                   stderr_tail=stderr), path=f"puzzles/{name}.txt")


def test_draw_single_and_double_links_in_both_directions():
    judge = Judge(BASIC)
    for line in ["0 0 1 0 1", "1 0 3 0 1", "1 0 1 2 2", "3 0 3 2 2", "1 2 3 2 2"]:
        judge.feed(line)
    assert draw(BASIC, judge.links) == "\n".join([
        "1-4---3",
        '  "   "',
        '. " . "',
        '  "   "',
        ". 4===4"])


def test_draw_result_marks_the_offending_link_over_the_links_placed_before():
    lost = result(BASIC, ["1 0 3 0 2", "1 0 3 0 1"], [0.1, 0.01], Verdict.THIRD_LINK,
                  "too many", 2, "1 0 3 0 1")
    assert draw_result(lost).splitlines()[0] == "1 4***3"
    assert ("(* marks the offending link (1,0)-(3,0) x1, drawn over the 2 link(s) it "
            "already has)") in draw_result(lost)


def _lost_on(board, line):
    """The result of a match lost on its first line, judged by the rules."""
    outcome = Judge(board).feed(line)
    return result(board, [line], [0.1], outcome.verdict, outcome.reason, 1, line)


def test_every_link_the_note_says_a_star_marks_has_a_star_on_the_board():
    # A diagonal and a node linked to itself have no path: their stars go in the corners
    # beside their ends; an end that is no node is starred where it stands.
    cases = {"0 0 2 2 1": (["1 . 2", " *", ". . .", "   *", ". . 1"],
                           "* beside (0,0) and (2,2) marks the offending link (0,0)-(2,2) x1, "
                           "which is in no row or column"),
             "2 0 2 0 1": (["1 . 2", "   *", ". . .", "", ". . 1"],
                           "* around (2,0) marks the offending link from that node to itself x1"),
             "0 0 1 1 2": (["1 . 2", " *", ". * .", "", ". . 1"],
                           "* beside (0,0) and (1,1) marks the offending link (0,0)-(1,1) x2, "
                           "which is in no row or column"),
             "0 2 2 2 1": (["1 . 2", "", ". . .", "", "****1"],
                           "* marks the offending link (0,2)-(2,2) x1")}
    for line, (board, note) in cases.items():
        drawn = draw_result(_lost_on(SIMPLEST, line))
        assert drawn.splitlines() == board + [f"({note})"], line
        assert drawn.count("*") > note.count("*")


def test_a_node_linked_to_itself_on_a_board_one_cell_high_is_starred_beside_it():
    drawn = draw_result(_lost_on(parse_board("3\n1\n.2.\n"), "1 0 1 0 1"))
    assert drawn.splitlines()[0] == ".*2*."


def test_draw_result_without_a_link_to_mark():
    lost = result(SIMPLEST, ["0 0 2 0 1", "junk"], [0.1, 0.01], Verdict.MALFORMED, "bad", 2,
                  "junk")
    assert draw_result(lost) == "1---2\n\n. . .\n\n. . 1"


def test_percentile_is_nearest_rank():
    values = list(range(1, 101))
    assert [percentile(values, p) for p in (50, 90, 99, 100)] == [50, 90, 99, 100]
    assert percentile([7.0], 99) == 7.0


def test_table_has_one_row_per_match_with_aligned_columns():
    won = result(SIMPLEST, ["0 0 2 0 1", "2 0 2 2 1"], [0.25, 0.003], Verdict.WIN, "ok", 2,
                 "2 0 2 2 1", name="01_simplest")
    text = table([won])
    header, row = text.splitlines()
    assert header.split() == ["puzzle", "verdict", "turns", "first", "ms", "slowest", "ms",
                              "cpu", "ms", "peak", "MB"]
    assert row.split() == ["01_simplest", "win", "2", "250.0", "3.0", "50.0", "12.0"]
    assert len(header) == len(row)


def test_latency_summary_names_the_slowest_puzzle_and_line():
    a = result(SIMPLEST, ["a", "b", "c"], [0.2, 0.01, 0.05], Verdict.WIN, "", 3, "c", name="a")
    b = result(SIMPLEST, ["a", "b"], [0.4, 0.02], Verdict.WIN, "", 2, "b", name="b")
    lines = latency_summary([a, b]).splitlines()
    assert lines[0].split() == ["latency", "ms", "p50", "p90", "p99", "max", "slowest"]
    assert lines[1].split() == ["first", "line", "200.0", "400.0", "400.0", "400.0", "b"]
    assert lines[2].split()[-3:] == ["a", "(line", "3)"]


def test_loss_details_show_reason_line_board_stderr_and_replay():
    lost = result(SIMPLEST, ["0 0 2 0 2"], [0.1], Verdict.OVER_CAPACITY,
                  "node (0,0) would hold 2 links, its value is 1", 1, "0 0 2 0 2",
                  name="01", stderr="debug 1\ndebug 2\n")
    text = loss_details(lost, "python -m referee run x")
    assert text.splitlines()[:3] == [
        "LOST 01: over_capacity at line 1: node (0,0) would hold 2 links, its value is 1",
        "  line 1: '0 0 2 0 2'",
        "    1***2"]
    assert "    | debug 2" in text
    assert text.endswith("  replay: python -m referee run x")


def test_summary_line():
    won = result(SIMPLEST, [], [], Verdict.WIN, "", 1, None)
    lost = result(SIMPLEST, [], [], Verdict.TIMEOUT, "", 1, None)
    assert summary_line([won, lost, lost]) == "1 passed, 2 failed"
