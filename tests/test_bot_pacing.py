"""Pacing: sure links keep CodinGame's clock while the search runs, and the answer stays right."""

import functools
import io
import threading
import time
from collections import Counter

import pytest

import bot
import bot.solver
from bot import cli
from bot.grid import Grid
from bot.learning import learned_solutions
from bot.pacing import Pacer
from bot.puzzle import parse
from bot.work import Stats
from judge import fault, links_text
from project import ROOT
from test_bot_learning import connected_board

ANSWER = [(0, 0, 2, 0, 2), (2, 0, 2, 2, 1), (2, 2, 4, 2, 1)]


class Clocked(io.StringIO):
    """Output that notes when each line was written."""

    def __init__(self):
        super().__init__()
        self.times = []

    def write(self, text):
        if text.endswith("\n"):
            self.times.append(time.monotonic())
        return super().write(text)


def wait_for_lines(out, count, limit=10.0):
    deadline = time.monotonic() + limit
    while len(out.getvalue().splitlines()) < count and time.monotonic() < deadline:
        time.sleep(0.005)
    return out.getvalue().splitlines()


def per_pair(lines):
    total = Counter()
    for line in lines:
        *pair, n = map(int, line.split())
        total[tuple(pair)] += n
    return total


def test_an_answer_found_before_the_first_line_is_due_is_printed_whole():
    out = io.StringIO()
    pacer = Pacer(out, first_at=30).start()
    pacer.sure(ANSWER[:2])
    pacer.finish(ANSWER)
    assert out.getvalue() == links_text(ANSWER)
    assert not pacer.thread.is_alive()


def test_while_the_search_runs_sure_links_go_out_one_a_line_then_the_rest():
    out = io.StringIO()
    pacer = Pacer(out, first_at=0, every=0.001).start()
    pacer.sure(ANSWER[:2])
    paced = wait_for_lines(out, 3)
    pacer.finish(ANSWER)
    lines = out.getvalue().splitlines()
    assert paced == ["0 0 2 0 1", "0 0 2 0 1", "2 0 2 2 1"]
    assert lines[3:] == ["2 2 4 2 1"]
    assert per_pair(lines) == per_pair(links_text(ANSWER).splitlines())


def test_a_link_announced_again_is_printed_once_and_a_stronger_one_adds_the_difference():
    out = io.StringIO()
    pacer = Pacer(out, first_at=0, every=0.001).start()
    pacer.sure([(0, 0, 2, 0, 1)])
    pacer.sure([(0, 0, 2, 0, 1), (2, 0, 2, 2, 1)])
    pacer.sure([(0, 0, 2, 0, 2), (2, 0, 2, 2, 1)])
    wait_for_lines(out, 3)
    pacer.finish(ANSWER)
    assert per_pair(out.getvalue().splitlines()) == per_pair(links_text(ANSWER).splitlines())
    assert len(out.getvalue().splitlines()) == 4


def test_sure_links_are_spaced_by_the_pacing_interval():
    out = Clocked()
    start = time.monotonic()
    pacer = Pacer(out, start=start, first_at=0.05, every=0.04).start()
    pacer.sure(ANSWER)
    wait_for_lines(out, 4)
    pacer.finish(ANSWER)
    assert out.times[0] - start >= 0.05
    gaps = [b - a for a, b in zip(out.times, out.times[1:4])]
    assert min(gaps) >= 0.04


def test_no_sure_line_is_printed_once_the_pacer_is_stopped():
    out = io.StringIO()
    pacer = Pacer(out, first_at=0.02, every=0.001).start()
    pacer.stop()
    pacer.sure(ANSWER)
    time.sleep(0.1)
    assert out.getvalue() == ""
    assert not pacer.thread.is_alive()


def test_a_reader_gone_ends_the_pacer_quietly():
    class Gone(io.StringIO):
        def write(self, text):
            raise BrokenPipeError()

    failures = []
    threading.excepthook, hook = (lambda args: failures.append(args)), threading.excepthook
    try:
        pacer = Pacer(Gone(), first_at=0, every=0.001).start()
        pacer.sure(ANSWER)
        pacer.thread.join(5)
    finally:
        threading.excepthook = hook
    assert not pacer.thread.is_alive()
    assert failures == []


# -- the solver's side: what it announces is in the answer, and the search is unchanged --

def learner_boards():
    return [connected_board(9, 8, seed, density=1.0 if seed % 2 else 0.6) for seed in range(8)]


BOARDS = learner_boards() + [(ROOT / "puzzles" / path).read_text() for path in (
    "public/08_advanced.txt", "stress/lattice/20x20_blocks_single_024.txt")]


@pytest.mark.parametrize("index", range(len(BOARDS)))
def test_every_link_announced_sure_is_in_the_answer_and_the_search_is_the_same(index, monkeypatch):
    text = BOARDS[index]
    monkeypatch.setattr(bot.solver, "NODE_SEARCH_BRANCHES", 0)  # reach the search that learns
    announced = []
    quiet, told = Stats(), Stats()
    answer = bot.solve(text, stats=quiet)
    assert bot.solve(text, stats=told, sure=announced.append) == answer
    assert quiet.as_dict() == told.as_dict()
    assert announced, "the root draws links on every one of these boards"
    final = per_pair(links_text(answer).splitlines())
    for links in announced:
        for *pair, n in links:
            assert n <= final[tuple(pair)], (pair, n)


def test_the_search_that_learns_stops_announcing_at_its_first_solution():
    # Ruling a solution out leaves facts at the root that hold in the other solutions only:
    # on this board (three solutions) the root grows after the first and after the second.
    grid = Grid(parse(connected_board(5, 4, 2)))
    found, heard = [], []
    for solved in learned_solutions(grid, Stats(), lambda links: heard.append(len(found))):
        found.append(sorted(solved.links()))
    assert len(found) == 3
    assert heard and set(heard) == {0}


def test_the_bot_paced_from_the_start_still_prints_a_winning_answer(monkeypatch):
    monkeypatch.setattr(bot.solver, "NODE_SEARCH_BRANCHES", 0)
    monkeypatch.setattr(cli, "Pacer", functools.partial(Pacer, first_at=0, every=0))
    for text in learner_boards()[:4]:
        out = io.StringIO()
        monkeypatch.setattr("sys.stdin", io.StringIO(text))
        monkeypatch.setattr("sys.stdout", out)
        cli.main()
        assert fault(text, out.getvalue()) is None
