"""Pacing: sure links keep CodinGame's clock while the search runs, and the answer stays right."""

import functools
import io
import os
import signal
import subprocess
import sys
import threading
import time
from collections import Counter

import pytest

import bot
import bot.pacing
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


class Sink:
    """A pipe the pacer prints into, read by a thread that notes when each line came."""

    def __init__(self):
        read, write = os.pipe()
        self.out = os.fdopen(write, "w")
        self.lines, self.times = [], []
        self.reader = threading.Thread(target=self._read, args=(os.fdopen(read),), daemon=True)
        self.reader.start()

    def _read(self, stream):
        for text in stream:
            self.times.append(time.monotonic())
            self.lines.append(text.rstrip("\n"))

    def wait_for(self, count, limit=10.0):
        deadline = time.monotonic() + limit
        while len(self.lines) < count and time.monotonic() < deadline:
            time.sleep(0.005)
        return list(self.lines)

    def close(self):
        """All the lines, once the writer is done."""
        self.out.close()
        self.reader.join(10)
        return self.lines


@pytest.fixture(params=["child", "thread"])
def sink(request, monkeypatch):
    if request.param == "thread":
        monkeypatch.setattr(bot.pacing, "_child_printer", lambda out, schedule: None)
    pipe = Sink()
    yield pipe
    if not pipe.out.closed:
        pipe.close()


def per_pair(lines):
    total = Counter()
    for text in lines:
        *pair, n = map(int, text.split())
        total[tuple(pair)] += n
    return total


def test_an_answer_found_before_the_first_line_is_due_is_printed_whole(sink):
    pacer = Pacer(sink.out, first_at=30).start()
    pacer.sure(ANSWER[:2])
    pacer.finish(ANSWER)
    assert sink.close() == links_text(ANSWER).splitlines()


def test_while_the_search_runs_sure_links_go_out_one_a_line_then_the_rest(sink):
    pacer = Pacer(sink.out, first_at=0, every=0.001).start()
    pacer.sure(ANSWER[:2])
    paced = sink.wait_for(3)
    pacer.finish(ANSWER)
    lines = sink.close()
    assert paced == ["0 0 2 0 1", "0 0 2 0 1", "2 0 2 2 1"]
    assert lines[3:] == ["2 2 4 2 1"]
    assert per_pair(lines) == per_pair(links_text(ANSWER).splitlines())


def test_a_link_announced_again_is_printed_once_and_a_stronger_one_adds_the_difference(sink):
    pacer = Pacer(sink.out, first_at=0, every=0.001).start()
    pacer.sure([(0, 0, 2, 0, 1)])
    pacer.sure([(0, 0, 2, 0, 1), (2, 0, 2, 2, 1)])
    pacer.sure([(0, 0, 2, 0, 2), (2, 0, 2, 2, 1)])
    sink.wait_for(3)
    pacer.finish(ANSWER)
    lines = sink.close()
    assert per_pair(lines) == per_pair(links_text(ANSWER).splitlines())
    assert len(lines) == 4


def test_sure_links_are_spaced_by_the_pacing_interval(sink):
    start = time.monotonic()
    pacer = Pacer(sink.out, start=start, first_at=0.05, every=0.04).start()
    pacer.sure(ANSWER)
    sink.wait_for(4)
    pacer.finish(ANSWER)
    sink.close()
    assert sink.times[0] - start >= 0.05
    gaps = [b - a for a, b in zip(sink.times, sink.times[1:4])]
    assert min(gaps) >= 0.035  # (the reader notes a line a little after it is written)


def test_no_sure_line_is_printed_once_the_pacer_is_stopped(sink):
    pacer = Pacer(sink.out, first_at=0.02, every=0.001).start()
    pacer.stop()
    pacer.sure(ANSWER)
    time.sleep(0.1)
    assert sink.close() == []


def test_a_reader_gone_ends_the_pacer_and_the_bot_hears_of_it(sink):
    sink.out.close()
    read, write = os.pipe()
    os.close(read)
    out = os.fdopen(write, "w")
    failures = []
    threading.excepthook, hook = (lambda args: failures.append(args)), threading.excepthook
    try:
        pacer = Pacer(out, first_at=0, every=0.001).start()
        pacer.sure(ANSWER)
        time.sleep(0.2)
        with pytest.raises(BrokenPipeError):
            pacer.finish(ANSWER)
    finally:
        threading.excepthook = hook
        try:
            out.close()
        except BrokenPipeError:
            pass
    assert failures == []


def test_a_child_printer_whose_bot_is_killed_exits_at_once():
    script = ("import os, signal, sys, bot.pacing as p\n"
              "pacer = p.Pacer(sys.stdout, first_at=60).start()\n"
              "print(pacer.printer.pid, file=sys.stderr, flush=True)\n"
              "os.kill(os.getpid(), signal.SIGKILL)\n")
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         cwd=ROOT, timeout=30)
    assert run.returncode == -signal.SIGKILL
    child = int(run.stderr.split()[0])
    deadline = time.monotonic() + 5
    while alive(child) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not alive(child)


def alive(pid):
    """Whether pid runs (a zombie does not count: it is only waiting to be reaped)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


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


def test_the_bot_as_a_process_paces_through_its_child_and_still_wins():
    # Each announcement waits 0.1 s, so the child prints every sure link before the answer.
    script = ("import functools, time\n"
              "import bot.cli as c, bot.pacing as p\n"
              "c.Pacer = functools.partial(p.Pacer, first_at=0, every=0)\n"
              "solve = c.solve\n"
              "def slow(text, sure):\n"
              "    def told(links):\n"
              "        sure(links)\n"
              "        time.sleep(0.1)\n"
              "    return solve(text, sure=told)\n"
              "c.solve = slow\n"
              "c.main()\n")
    text = (ROOT / "puzzles" / "public" / "13_expert.txt").read_text()
    run = subprocess.run([sys.executable, "-c", script], input=text, capture_output=True,
                         text=True, cwd=ROOT, timeout=60)
    assert run.returncode == 0, run.stderr
    assert fault(text, run.stdout) is None
    lines = run.stdout.splitlines()
    answer = bot.solve(text)
    assert len(lines) > len(answer), "a double link sure at the root goes out as two lines"
    assert lines[0].endswith(" 1")


def test_where_no_child_can_be_made_a_thread_paces(monkeypatch):
    def refused():
        raise OSError("no more processes")

    monkeypatch.setattr(os, "fork", refused)
    pipe = Sink()
    pacer = Pacer(pipe.out, first_at=0, every=0.001).start()
    pacer.sure(ANSWER[:1])
    paced = pipe.wait_for(2)
    pacer.finish(ANSWER)
    assert paced == ["0 0 2 0 1", "0 0 2 0 1"]
    assert pipe.close() == paced + ["2 0 2 2 1", "2 2 4 2 1"]
