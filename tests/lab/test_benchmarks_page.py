"""docs/BENCHMARKS.md is written from bench --json files: the figures it shows are theirs,
the page is written whole (never appended), and a file that is not a bench file is one
line and exit 2."""

import json
import re

import pytest

from tests.project import ROOT, run_referee
from referee.lab.bench.page import load, main, render

FIXTURES = ROOT / "tests" / "fixtures"
BENCH, PEER = str(FIXTURES / "bench_small.json"), str(FIXTURES / "peer_small.json")


def _page(*paths):
    return render([(p, load(p)) for p in paths], "Some CPU, 2 core(s)", "2030-01-02")


def _row(page, suite):
    return next(line for line in page.splitlines() if line.startswith(f"| {suite} |"))


def test_a_plain_bench_gives_solved_median_p99_max_and_the_slowest_board():
    page = _page(BENCH)
    assert _row(page, "public") == "| public | 13/13 | 0.1 | 0.9 | 0.9 | 12_multiple_solutions_2 |"
    assert _row(page, "hard30") == "| hard30 | 19/20 | 7.9 | 28.4 | 28.4 | 30x30_hard_unique_s1_017 |"
    assert "3 solve(s) a board" in page


def test_a_peer_bench_adds_the_peers_answers_and_the_ratios():
    row = _row(_page(PEER), "tree-unsolvable")
    assert row == ("| tree-unsolvable | 24/24 | 1.8 | 3,102.4 | 3,102.4 | 40x40_fill_loops2_023_at24-18 "
                   "| 23/24 | x17.83 | x3.22 |")


def test_the_page_names_the_machine_the_date_and_the_command():
    page = _page(BENCH, PEER)
    assert "on 2030-01-02, on Some CPU, 2 core(s)" in page
    assert "`make benchmarks`" in page
    assert page.index("## The bot alone") < page.index("From `bench_small.json`")
    assert page.index("## The bot against the SAT peer") < page.index("From `peer_small.json`")


def test_the_page_is_written_whole_over_an_old_one(tmp_path, capsys):
    out = tmp_path / "BENCHMARKS.md"
    out.write_text("# Benchmarks\n\nan old run's figures\n")
    assert main(["--out", str(out), BENCH, PEER]) == 0
    page = out.read_text()
    assert "an old run's figures" not in page
    assert page.count("# Benchmarks\n") == 1
    assert re.search(r"on \d{4}-\d\d-\d\d, on .+ \d+ core\(s\)", page)
    assert capsys.readouterr().out == f"{out}: 2 bench file(s), 3 suite(s)\n"


def test_a_file_that_is_not_a_bench_file_is_one_line_and_exit_2(tmp_path, capsys):
    out = tmp_path / "BENCHMARKS.md"
    for text, said in [("not json", "not JSON"), ('{"suites": {}}', "no suites"),
                       ('{"suites": {"a": {"solved": 1}}}', "suite a lacks")]:
        bad = tmp_path / "bad.json"
        bad.write_text(text)
        assert main(["--out", str(out), str(bad)]) == 2
        err = capsys.readouterr().err
        assert said in err and err.count("\n") == 1
    assert main(["--out", str(out), str(tmp_path / "missing.json")]) == 2
    assert "No such file" in capsys.readouterr().err
    assert not out.exists()


@pytest.mark.slow
def test_what_bench_writes_makes_a_page(tmp_path):
    # The page reads what bench writes, not a copy of its format: both kinds, made afresh.
    plain, peer, out = tmp_path / "plain.json", tmp_path / "peer.json", tmp_path / "page.md"
    two = ["puzzles/public/01_simplest.txt", "puzzles/public/04_basic.txt"]
    assert run_referee("bench", "--repeat", "1", "--startup-runs", "0", "--json", str(plain),
                       *two).returncode == 0
    assert run_referee("bench", "--peer", "sat", "--repeat", "1", "--json", str(peer),
                       *two).returncode == 0
    assert main(["--out", str(out), str(plain), str(peer)]) == 0
    page = out.read_text()
    rows = [line for line in page.splitlines() if line.startswith("| files |")]
    assert len(rows) == 2
    assert rows[0].startswith("| files | 2/2 |") and rows[1].startswith("| files | 2/2 |")
    assert json.loads(peer.read_text())["suites"]["files"]["peer"]["answered"] == 2
