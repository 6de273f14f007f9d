"""Bot against bot: `run --bot A --bot B` plays both, interleaved, and compares them."""

import csv
import json
import re
import shutil

import pytest

from referee.judge.board import parse_board
from referee.report.tables import versus_stats, versus_summary
from referee.judge.result import MatchResult, Usage
from referee.judge.rules import Verdict
from tests.fakebots.procs import no_process_left_behind, referee  # noqa: F401

from tests.project import ROOT

SOLUTIONS = ROOT / "tests" / "fakebots" / "solutions"
EASY = ["--first-line-ms", "5000", "--turn-ms", "1000"]
FOUR = [f"puzzles/public/{n}.txt" for n in ("01_simplest", "02_simpler", "03_simple", "04_basic")]
BOARD = parse_board("3\n3\n1.2\n...\n..1\n")






@pytest.fixture(scope="module")
def versus(tmp_path_factory):
    """A wins all four; B sleeps 400 ms before its first line and has no answer for 04_basic."""
    tmp = tmp_path_factory.mktemp("versus")
    partial = tmp / "solutions"
    partial.mkdir()
    for name in ("01_simplest", "02_simpler", "03_simple"):
        shutil.copy(SOLUTIONS / f"{name}.txt", partial)
    a = f"python3 tests/fakebots/replay.py {SOLUTIONS} --stamp"
    b = f"python3 tests/fakebots/replay.py {partial} --stamp --sleep-ms 400,0"
    files = {k: tmp / f"run.{k}" for k in ("json", "csv", "html")}
    run = referee("run", "--bot", a, "--bot", b, *EASY, *FOUR,
                  *[arg for k, f in files.items() for arg in (f"--{k}", str(f))])
    return run, a, b, files


@pytest.mark.slow
def test_the_table_puts_both_bots_side_by_side_and_the_summary_compares_them(versus):
    run, a, b, _ = versus
    assert run.returncode == 1, run.stderr           # B lost a match
    out = run.stdout
    assert out.startswith("referee run: 8 match(es), containment ")
    assert out.split("\n", 1)[1].startswith(f"A: {a}\nB: {b}\n\n")
    groups, header, *rows = out.split("\n\n")[1].splitlines()
    assert groups.split() == ["A", "B"]
    assert header.split() == ["puzzle"] + ["verdict", "first", "ms", "slowest", "ms", "cpu", "ms",
                                           "peak", "MB"] * 2
    verdicts = {row.split()[0]: (row.split()[1], row.split()[6]) for row in rows[:4]}
    assert verdicts == {"01_simplest": ("win", "win"), "02_simpler": ("win", "win"),
                        "03_simple": ("win", "win"), "04_basic": ("win", "crash")}
    assert "A first line" in out and "B per turn" in out
    assert "A won 4/4, B won 3/4\nonly A won: 04_basic\nonly B won: none\n" in out
    first = next(l for l in out.splitlines() if l.startswith("first line  B/A median"))
    ratio = float(re.search(r"median ([\d.]+)", first).group(1))
    assert ratio > 1 and "A faster on 3 of 3" in first and f"A {ratio:.2f}x faster" in first
    assert "LOST 04_basic (B): crash" in out
    assert out.rstrip().endswith("A: 4 passed, 0 failed; B: 3 passed, 1 failed")
    assert "[8/8] " in run.stderr and "(B)" in run.stderr


@pytest.mark.slow
def test_the_matches_on_a_puzzle_are_played_in_turns(versus):
    """Each line's stamp (perf_counter, shared by all processes) shows the playing order:
    A then B on the first puzzle, B then A on the next, and so on."""
    data = json.loads(versus[3]["json"].read_text())
    starts = [(float(m["stderr_tail"].split()[0]), m["puzzle"], m["bot"])
              for m in data["matches"] if m["stderr_tail"][:1].isdigit()]
    order = [(puzzle, bot) for _, puzzle, bot in sorted(starts)]
    assert order == [("01_simplest", "A"), ("01_simplest", "B"), ("02_simpler", "B"),
                     ("02_simpler", "A"), ("03_simple", "A"), ("03_simple", "B"),
                     ("04_basic", "A")]                  # B printed nothing on 04_basic


def test_json_csv_and_html_carry_both_bots(versus):
    _, a, b, files = versus
    data = json.loads(files["json"].read_text())
    assert [(x["label"], x["command"], x["passed"], x["failed"]) for x in data["bots"]] == \
        [("A", a, 4, 0), ("B", b, 3, 1)]
    assert (data["passed"], data["failed"]) == (7, 1)
    assert [(m["puzzle"], m["bot"]) for m in data["matches"][:2]] == \
        [("01_simplest", "A"), ("01_simplest", "B")]
    assert data["versus"]["only_won"] == {"A": ["04_basic"], "B": []}
    assert data["versus"]["ratios"]["first line"]["count"] == 3
    assert "--bot" in data["matches"][7]["replay"] and b in data["matches"][7]["replay"]
    rows = list(csv.DictReader(files["csv"].open()))
    assert [(r["puzzle"], r["bot"], r["verdict"]) for r in rows[6:]] == \
        [("04_basic", "A", "win"), ("04_basic", "B", "crash")]
    assert rows[1]["command"] == b
    page = files["html"].read_text()
    blob = json.loads(re.search(r'id="run-data">(.*?)</script>', page, re.S).group(1))
    assert [x["label"] for x in blob["bots"]] == ["A", "B"]
    assert [(m["name"], m["bot"], m["others"]) for m in blob["matches"][:2]] == \
        [("01_simplest", "A", [1]), ("01_simplest", "B", [0])]
    assert '<th class="l">bot</th>' in page and page.count('<tr data-i=') == 8
    assert "only A won: 04_basic" in re.search(r'id="versus">(.*?)</pre>', page, re.S).group(1)


def result(name, won, first_s, cpu_s):
    return MatchResult(name=name, board=BOARD, verdict=Verdict.WIN if won else Verdict.CRASH,
                       reason="", turn=1, line=None, latencies_s=(first_s,),
                       usage=Usage(cpu_s=cpu_s))


def test_versus_stats_ratios_on_puzzles_both_won_with_their_extremes():
    pairs = [[result("p1", True, 0.100, 0.08), result("p1", True, 0.050, 0.04)],
             [result("p2", True, 0.200, 0.10), result("p2", True, 0.300, 0.10)],
             [result("p3", True, 0.100, 0.05), result("p3", True, 0.080, 0.05)],
             [result("p4", False, 0.100, 0.05), result("p4", True, 0.010, 0.01)]]
    stats = versus_stats(pairs, ("A", "B"))
    first = stats["ratios"]["first line"]
    assert (first["median"], first["min"], first["min_puzzle"], first["max"],
            first["max_puzzle"], first["first_faster"], first["count"]) == \
        (0.8, 0.5, "p1", 1.5, "p2", 1, 3)
    assert stats["only_won"] == {"A": [], "B": ["p4"]} and stats["won"] == {"A": 3, "B": 4}
    text = versus_summary(stats, ("A", "B"))
    assert "only B won: p4" in text
    assert "first line  B/A median 0.80  min 0.50 (p1)  max 1.50 (p2)  A faster on 1 of 3: " \
           "B 1.25x faster at the median" in text


def test_no_puzzle_both_won_says_so():
    stats = versus_stats([[result("p", True, 0.1, 0.1), result("p", False, 0.1, 0.1)]], ("A", "B"))
    assert stats["ratios"]["first line"] is None
    assert "first line  no puzzle both won" in versus_summary(stats, ("A", "B"))


@pytest.mark.slow
def test_three_bots_is_a_usage_error():
    bot = f"python3 tests/fakebots/replay.py {SOLUTIONS}"
    run = referee("run", "--bot", bot, "--bot", bot, "--bot", bot, FOUR[0])
    assert run.returncode == 2 and run.stdout == ""
    assert "--bot: at most 2 bots, got 3" in run.stderr
