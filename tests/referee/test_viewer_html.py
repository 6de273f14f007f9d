"""`referee run --html`: the page's data and self-containment, without a browser."""

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from referee.cli.args import spoon2_words
from referee.judge.board import load_board, parse_board
from referee.judge.result import MatchResult, Usage
from referee.judge.rules import Verdict
from referee.report.viewer import build_html, match_data

ROOT = Path(__file__).parents[2]
BASIC = parse_board("4\n3\n14.3\n....\n.4.4\n")
BASIC_LINES = ["0 0 1 0 1", "3 0 1 0 1", "1 0 1 2 2", "3 0 3 2 2", "1 2 3 2 2"]
EXPERT_CROSSING = (ROOT / "tests/fixtures/expert_crossing.txt").read_text().splitlines()


def result(board, lines, verdict, reason, turn, line, name="p", stderr=""):
    return MatchResult(name=name, board=board, verdict=verdict, reason=reason, turn=turn,
                       line=line, lines=tuple(lines), latencies_s=tuple(0.001 * (i + 1) for i in range(len(lines))),
                       usage=Usage(cpu_s=0.05, peak_rss_bytes=12 * 2**20, exit_status=0,
                                   stderr_tail=stderr), path=f"puzzles/{name}.txt")


def page_data(page: str) -> dict:
    blob = re.search(r'<script type="application/json" id="run-data">(.*?)</script>', page, re.S)
    return json.loads(blob.group(1))


def test_a_win_has_every_link_as_a_step_endpoints_in_order():
    data = match_data(result(BASIC, BASIC_LINES, Verdict.WIN, "won", 5, BASIC_LINES[-1]))
    assert data["steps"][:10] == [0, 0, 1, 0, 1, 1, 0, 3, 0, 1]   # "3 0 1 0 1" reordered
    assert (len(data["steps"]), data["frames"], data["bad"]) == (25, 5, None)
    assert data["rows"] == ["14.3", "....", ".4.4"] and (data["w"], data["h"]) == (4, 3)
    assert data["lat"] == [1.0, 2.0, 3.0, 4.0, 5.0]


def test_a_rule_loss_has_the_links_before_it_and_the_losing_link():
    lines = BASIC_LINES[:2] + ["1 0 3 0 2"]
    data = match_data(result(BASIC, lines, Verdict.THIRD_LINK, "too many", 3, lines[-1]))
    assert len(data["steps"]) == 10
    assert data["bad"] == [1, 0, 3, 0, 2]
    assert data["frames"] == 3 and data["line"] == "1 0 3 0 2"


def test_a_malformed_line_has_a_frame_but_no_link_to_draw():
    lines = BASIC_LINES[:1] + ["junk"]
    data = match_data(result(BASIC, lines, Verdict.MALFORMED, "bad", 2, "junk"))
    assert (len(data["steps"]), data["frames"], data["bad"]) == (5, 2, None)


def test_a_timeout_line_is_shown_but_not_judged_and_silence_adds_no_frame():
    late = match_data(result(BASIC, BASIC_LINES[:2], Verdict.TIMEOUT, "late", 2, BASIC_LINES[1]))
    assert (len(late["steps"]), late["frames"], late["bad"]) == (5, 2, None)
    silent = match_data(result(BASIC, BASIC_LINES[:2], Verdict.TIMEOUT, "silent", 3, None))
    assert (len(silent["steps"]), silent["frames"]) == (10, 2)
    incomplete = match_data(result(BASIC, BASIC_LINES[:4], Verdict.INCOMPLETE, "short", 5, None))
    assert (len(incomplete["steps"]), incomplete["frames"]) == (20, 4)


def test_the_page_is_self_contained_and_the_blob_survives_script_text():
    hostile = "</script><script>alert(1)</script><!--"
    results = [result(BASIC, BASIC_LINES, Verdict.WIN, "won", 5, BASIC_LINES[-1], name="a"),
               result(BASIC, [hostile], Verdict.MALFORMED, "bad", 1, hostile, name="b<i>",
                      stderr="Traceback </script>")]
    page = build_html(results, ["replay a", "replay b"], bot="python3 x.py")
    assert page.count("</script>") == 2                  # the blob's and the viewer's
    assert page_data(page)["matches"][1]["line"] == hostile
    assert "b&lt;i&gt;" in page and "b<i>" not in page.replace(hostile, "")
    # No request of any kind: no src/href, no stylesheet link, no url(), no import.
    for pattern in (r"\ssrc=", r"\shref=", r"<link", r"url\(", r"@import", r"\bfetch\(",
                    r"XMLHttpRequest", r"https?://(?!www\.w3\.org/2000/svg)"):
        assert not re.search(pattern, page), pattern
    assert "{{" not in page.split('id="run-data"')[0]    # every slot of the template filled


def test_the_table_has_the_report_columns_one_row_per_match():
    results = [result(BASIC, BASIC_LINES, Verdict.WIN, "won", 5, BASIC_LINES[-1], name=f"m{i}")
               for i in range(3)]
    page = build_html(results)
    assert page.count('<tr data-i="') == 3
    assert "<th class=\"l\">puzzle</th><th class=\"l\">verdict</th><th class=\"r\">turns</th>" in page
    assert "3 passed, 0 failed" in page


@pytest.mark.slow
def test_five_hundred_30x30_matches_stay_small():
    expert = load_board(ROOT / "puzzles/public/13_expert.txt")
    lost = result(expert, EXPERT_CROSSING[:56], Verdict.CROSSING, "crosses", 56,
                  EXPERT_CROSSING[55])
    page = build_html([lost] * 500)
    assert len(page.encode()) < 2_500_000, len(page.encode())


@pytest.mark.slow
def test_run_html_end_to_end(tmp_path):
    out = tmp_path / "report.html"
    bot = "python3 tests/fakebots/replay.py tests/fakebots/solutions"
    run = subprocess.run([sys.executable, "-m", "referee", "run", "--bot", bot,
                          "--first-line-ms", "5000", "--turn-ms", "1000", "--html", str(out),
                          "puzzles/public/01_simplest.txt", "puzzles/public/04_basic.txt"],
                         cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    data = page_data(out.read_text())
    assert [m["name"] for m in data["matches"]] == ["01_simplest", "04_basic"]
    assert data["limits"] == {"first_line_ms": 5000.0, "turn_ms": 1000.0}
    assert data["matches"][1]["frames"] == 5 and data["matches"][1]["won"]
    spoon2 = shlex.join(spoon2_words())   # as the player types it: the script that ran
    assert data["matches"][1]["replay"].startswith(f"{spoon2} run --bot ")


@pytest.mark.slow
def test_run_html_into_a_missing_directory_is_a_usage_error():
    run = subprocess.run([sys.executable, "-m", "referee", "run", "--html", "no/such/r.html",
                          "puzzles/public/01_simplest.txt"], cwd=ROOT, capture_output=True,
                         text=True, timeout=60)
    assert run.returncode == 2
    assert "cannot write --html no/such/r.html: no such directory" in run.stderr
