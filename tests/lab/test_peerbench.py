"""bench --peer sat: both sides timed, answers checked, a solver that never ends stops at the limit."""

import json
import time
from pathlib import Path

import pytest

from referee.lab.bench import peers
from referee.lab.alarm import SolveTimeout
from referee.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
PUBLIC = ROOT / "puzzles" / "public"


def bench(capsys, *args):
    status = main(["bench", "--peer", "sat", "--repeat", "1", *args])
    return status, capsys.readouterr().out


def test_both_sides_answer_the_public_tests(capsys, tmp_path):
    status, out = bench(capsys, "--json", str(tmp_path / "run.json"), str(PUBLIC))
    assert status == 0
    assert "suite public: 13 puzzles" in out
    assert "  bot     13/13          0" in out and "  peer    13/13          0" in out
    assert "peer/bot: median x" in out
    data = json.loads((tmp_path / "run.json").read_text())
    assert {(r["side"], r["outcome"]) for r in data["puzzles"]} == {("bot", "solved"), ("peer", "solved")}
    assert len(data["puzzles"]) == 26


@pytest.mark.slow
def test_a_solver_that_never_ends_is_a_timeout(capsys, monkeypatch):
    def forever(text, timeout, seed=None):
        while True:
            time.sleep(0.001)

    monkeypatch.setitem(peers.SOLVERS, "bot", forever)
    start = time.perf_counter()
    status, out = bench(capsys, "--timeout", "0.2", str(PUBLIC / "01_simplest.txt"), str(PUBLIC / "03_simple.txt"))
    assert time.perf_counter() - start < 10
    assert status == 1
    assert "  bot      0/2           2      200.0     200.0     200.0" in out
    assert "NOT ANSWERED bot files/01_simplest: timeout (over 0.2 s)" in out
    assert "peer: answered 2/2, timeouts 0" in out


def test_the_peer_stops_at_the_limit_too(capsys):
    board = ROOT / "puzzles" / "stress" / "research" / "30x30_sparse_single_0055.txt"
    run, _ = peers.measure("s", "n", board.read_text(), "peer", 1, 0.05)
    assert run.outcome == peers.TIMEOUT and run.seconds == 0.05


def test_saying_no_solution_to_a_solvable_board_is_wrong(capsys, monkeypatch):
    monkeypatch.setitem(peers.SOLVERS, "bot", lambda text, timeout, seed=None: None)
    status, out = bench(capsys, str(PUBLIC / "04_basic.txt"))
    assert status == 1
    assert "NOT ANSWERED bot files/04_basic: wrong (said no solution; the peer's links win)" in out


def test_wrong_links_and_crashes_are_reported(capsys, monkeypatch):
    monkeypatch.setitem(peers.SOLVERS, "bot", lambda text, timeout, seed=None: [(0, 0, 2, 0, 1)])
    monkeypatch.setitem(peers.SOLVERS, "peer", lambda text, timeout, seed=None: 1 / 0)
    status, out = bench(capsys, str(PUBLIC / "04_basic.txt"))
    assert status == 1
    assert "NOT ANSWERED bot files/04_basic: wrong (wrong answer:" in out
    assert "NOT ANSWERED peer files/04_basic: crash (ZeroDivisionError" in out


def test_both_refute_an_unsolvable_board(capsys, tmp_path):
    (tmp_path / "pairs.txt").write_text("4\n1\n11.2\n")
    status, out = bench(capsys, str(tmp_path / "pairs.txt"))
    assert status == 0
    assert "bot: answered 1/1" in out and "peer: answered 1/1" in out


@pytest.mark.slow
def test_reads_boards_past_30_cells(capsys):
    board = ROOT / "puzzles" / "stress" / "lattice" / "40x40_grid_mixed_023.txt"
    status, out = bench(capsys, "--timeout", "1", str(board))
    assert "islands mean 400" in out


def test_compare_is_refused_with_peer(capsys, tmp_path):
    (tmp_path / "old.json").write_text("{}")
    status, _ = bench(capsys, "--compare", str(tmp_path / "old.json"), str(PUBLIC))
    assert status == 2


def test_ratios_and_percentiles():
    runs = [peers.SideRun("s", f"p{i}", side, 10, seconds, peers.SOLVED)
            for i, (b, p) in enumerate([(1.0, 0.5), (3.0, 0.5), (2.0, 4.0)])
            for side, seconds in (("bot", b), ("peer", p))]
    table = peers.summaries(runs, ["s"])
    assert table["s"]["bot"]["median"] == 2.0 and table["s"]["peer"]["max"] == 4.0
    assert table["s"]["ratio"] == {"median": 0.25, "max": pytest.approx(4 / 3)}
    assert table["s"]["peer"]["slowest"] == "p2"
    assert peers.percentile(list(range(1, 101)), 99) == 99


def test_without_python_sat_it_is_a_usage_error(capsys, monkeypatch):
    monkeypatch.setitem(__import__("sys").modules, "pysat", None)   # import pysat fails
    status = main(["bench", "--peer", "sat", str(PUBLIC / "01_simplest.txt")])
    assert status == 2
    assert "needs python-sat" in capsys.readouterr().err


@pytest.mark.slow
def test_the_exit_status_judges_the_bot_not_the_peer(capsys, monkeypatch):
    def forever(text, timeout, seed=None):
        while True:
            time.sleep(0.001)

    monkeypatch.setitem(peers.SOLVERS, "peer", forever)
    status, out = bench(capsys, "--timeout", "0.2", str(PUBLIC / "01_simplest.txt"))
    assert "NOT ANSWERED peer files/01_simplest: timeout (over 0.2 s)" in out
    assert status == 0  # the bot answered: the peer's timeout is a figure


def test_a_limit_that_rings_as_the_solve_ends_is_a_timeout_never_a_traceback():
    # With a limit of a few microseconds the ring lands anywhere around the solve: before
    # it starts, as it returns, in the clean-up. Each must come back as a timeout.
    expert = (PUBLIC / "13_expert.txt").read_text()
    for limit in (1e-6, 1e-5, 1e-4) * 20:
        seconds, answer = peers.timed("bot", expert, limit)
        assert isinstance(answer, SolveTimeout), answer
        assert seconds > limit
