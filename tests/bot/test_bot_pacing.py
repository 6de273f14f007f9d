"""Pacing: sure links keep CodinGame's clock while the search runs, and the answer stays right."""

import functools
import io
import os
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
from collections import Counter

import pytest


import bot
import bot.pacing
from bot import cli
from bot.assumption import probe
from bot.cdcl import Learner
from bot.grid import Grid
from bot.learning import Turns, learned_solutions
from bot.options import DEFAULT
from bot.pacing import Pacer
from bot.puzzle import parse
from bot.rules import Rules
from bot.stats import Stats
from bot.walk import Walk
from tests.judge import fault, links_text
from tests.project import ROOT
from tests.bot.test_bot_learning import connected_board

# The node search hands over at once: the search that learns takes every board.
LEARNS = DEFAULT.replace(node_search_branches=0)

ANSWER = [(0, 0, 2, 0, 2), (2, 0, 2, 2, 1), (2, 2, 4, 2, 1)]


SO_TIMESTAMPNS = 35   # from <asm-generic/socket.h>: each message's time of sending, in ns


class Sink:
    """A socket the pacer prints into, read by a thread that notes when each line was
    written: the kernel stamps each write as it is made (SO_TIMESTAMPNS), so a reader the
    machine delays cannot shorten a gap it measures."""

    def __init__(self):
        read, write = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        read.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
        self.out = os.fdopen(os.dup(write.fileno()), "w")
        write.close()
        # the stamps are CLOCK_REALTIME; the pacer keeps CLOCK_MONOTONIC
        self.offset = time.time() - time.monotonic()
        self.lines, self.times = [], []
        self.reader = threading.Thread(target=self.note_lines, args=(read,), daemon=True)
        self.reader.start()

    def note_lines(self, stream):
        with stream:
            while True:
                data, ancillary, _, _ = stream.recvmsg(65536, 64)
                if not data:
                    return
                seconds, nanoseconds = struct.unpack("qq", ancillary[0][2])
                for text in data.decode().splitlines():
                    self.times.append(seconds + nanoseconds / 1e9 - self.offset)
                    self.lines.append(text)

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
        monkeypatch.delattr(os, "fork")   # where no child can be made, a thread paces
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
    pacer = Pacer(sink.out, first_at=30)
    pacer.sure(ANSWER[:2])
    pacer.finish(ANSWER)
    assert sink.close() == links_text(ANSWER).splitlines()


def test_while_the_search_runs_sure_links_go_out_one_a_line_then_the_rest(sink):
    pacer = Pacer(sink.out, first_at=0, every=0.001)
    pacer.sure(ANSWER[:2])
    paced = sink.wait_for(3)
    pacer.finish(ANSWER)
    lines = sink.close()
    assert paced == ["0 0 2 0 1", "0 0 2 0 1", "2 0 2 2 1"]
    assert lines[3:] == ["2 2 4 2 1"]
    assert per_pair(lines) == per_pair(links_text(ANSWER).splitlines())


def test_a_link_announced_again_is_printed_once_and_a_stronger_one_adds_the_difference(sink):
    pacer = Pacer(sink.out, first_at=0, every=0.001)
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
    pacer = Pacer(sink.out, start=start, first_at=0.05, every=0.04)
    pacer.sure(ANSWER)
    sink.wait_for(4)
    pacer.finish(ANSWER)
    sink.close()
    assert sink.times[0] - start >= 0.05
    gaps = [b - a for a, b in zip(sink.times, sink.times[1:4])]
    assert min(gaps) >= 0.035  # (a writer paused between its clock and its write is late)


def test_no_sure_line_is_printed_once_the_pacer_is_stopped(sink):
    pacer = Pacer(sink.out, first_at=0.02, every=0.001)
    pacer.stop()
    pacer.sure(ANSWER)
    time.sleep(0.1)
    assert sink.close() == []


@pytest.mark.slow
def test_a_reader_gone_ends_the_pacer_and_the_bot_hears_of_it(sink):
    sink.out.close()
    read, write = os.pipe()
    os.close(read)
    out = os.fdopen(write, "w")
    failures = []
    threading.excepthook, hook = (lambda args: failures.append(args)), threading.excepthook
    try:
        pacer = Pacer(out, first_at=0, every=0.001)
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
              "pacer = p.Pacer(sys.stdout, first_at=60)\n"
              "pacer.sure([(0, 0, 2, 0, 1)])\n"
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
    "public/11_cg.txt", "stress/lattice/20x20_blocks_single_024.txt")]


@pytest.mark.parametrize("index", range(len(BOARDS)))
def test_every_link_announced_sure_is_in_the_answer_and_the_search_is_the_same(index):
    text = BOARDS[index]
    announced = []
    quiet, told = Stats(), Stats()
    answer = bot.solve(text, stats=quiet, options=LEARNS)
    assert bot.solve(text, stats=told, sure=announced.append, options=LEARNS) == answer
    assert quiet.as_dict() == told.as_dict()
    assert announced, "the root draws links on every one of these boards"
    final = per_pair(links_text(answer).splitlines())
    for links in announced:
        for *pair, n in links:
            assert n <= final[tuple(pair)], (pair, n)


def test_the_search_that_learns_stops_announcing_at_its_first_solution():
    # Ruling a solution out leaves facts at the root that hold in the other solutions only:
    # on this board (three solutions) the root grows after the first and after the second.
    rules = Rules(Grid(parse(connected_board(5, 4, 2))))
    found, heard = [], []
    for solved in learned_solutions(rules, Stats(), lambda links: heard.append(len(found))):
        found.append(sorted(solved.links()))
    assert len(found) == 3
    assert heard and set(heard) == {0}


def test_the_bot_paced_from_the_start_still_prints_a_winning_answer(monkeypatch):
    paced = functools.partial(Pacer, first_at=0, every=0, lead=None)
    for text in learner_boards()[:4]:
        out = io.StringIO()
        monkeypatch.setattr("sys.stdin", io.StringIO(text))
        monkeypatch.setattr("sys.stdout", out)
        cli.main(options=LEARNS, pacer=paced)
        assert fault(text, out.getvalue()) is None


@pytest.mark.slow
def test_the_bot_as_a_process_paces_through_its_child_and_still_wins():
    # Each announcement waits 0.1 s, so the child prints every sure link before the answer.
    script = ("import time\n"
              "import bot.cli as c, bot.pacing as p\n"
              "class Slow(p.Pacer):\n"
              "    def __init__(self, out, start):\n"
              "        super().__init__(out, start=start, first_at=0, every=0, lead=None)\n"
              "    def sure(self, links):\n"
              "        super().sure(links)\n"
              "        time.sleep(0.1)\n"
              "c.main(pacer=Slow)\n")
    # Its root branches: its sure links, double ones among them, are paced.
    text = (ROOT / "puzzles" / "hard30" / "30x30_hard_unique_s1_004.txt").read_text()
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
    pacer = Pacer(pipe.out, first_at=0, every=0.001)
    pacer.sure(ANSWER[:1])
    paced = pipe.wait_for(2)
    pacer.finish(ANSWER)
    assert paced == ["0 0 2 0 1", "0 0 2 0 1"]
    assert pipe.close() == paced + ["2 0 2 2 1", "2 2 4 2 1"]


# -- when the sure links run out: the search proves what it can, guesses, keeps to it --

def test_the_pacer_asks_for_a_guess_when_its_sure_links_would_run_out():
    now = [100.0]

    def pacer(lead=0.01):
        return Pacer(io.StringIO(), start=100.0, first_at=0.5, every=0.07,
                     clock=lambda: now[0], lead=lead)

    quiet = pacer()
    now[0] = 100.48
    assert not quiet.due()
    now[0] = 100.49
    assert quiet.due(), "no sure link at all: the first line is due at first_at"
    paced = pacer()
    now[0] = 100.1
    paced.sure(ANSWER[:2])  # three lines: printed at 100.5, 100.57, 100.64
    now[0] = 100.69
    assert not paced.due()
    now[0] = 100.70
    assert paced.due()
    now[0] = 101.0
    paced.sure(ANSWER[2:])  # the printer waited since 100.71: it prints at once
    assert not paced.due()
    now[0] = 101.06
    assert paced.due()
    assert not pacer(lead=None).due()


class Press:
    """A caller's clock that is due at every ask until `guesses` guesses were made, and
    notes how many links had been announced at each guess."""

    def __init__(self, announced, guesses):
        self.announced = announced
        self.left = guesses
        self.at = []

    def due(self):
        return self.left > 0

    def guessed(self):
        self.left -= 1
        self.at.append(len(self.announced))


def units(links):
    return sum(n for *_, n in links)


def edges_of(text, links):
    """{edge: links} of an answer to `text`."""
    p = parse(text)
    at = {xy: i for i, xy in enumerate(p.pos)}
    return {p.edge_between(at[(x1, y1)], at[(x2, y2)]): n for x1, y1, x2, y2, n in links}


@pytest.mark.parametrize("index", range(4))
def test_a_guess_is_announced_and_kept_in_the_answer(index, monkeypatch):
    # How often a guess is right is a measurement, not a test: here every
    # guess is one a known solution holds, so an answer exists, and it must hold them all.
    text = learner_boards()[index]
    known = edges_of(text, bot.solve(text))
    likeliest = Turns.drawn_above_root
    monkeypatch.setattr(Turns, "drawn_above_root", lambda self: [
        fact for fact in likeliest(self) if known.get(fact >> 2, 0) > fact & 3])
    guessed = []
    guess = Turns.guess
    monkeypatch.setattr(Turns, "guess",
                        lambda self, fact: guessed.append(fact) or guess(self, fact))
    announced = []
    press = Press(announced, guesses=3)
    answer = bot.solve(text, sure=announced.append, press=press, options=LEARNS)
    assert fault(text, links_text(answer)) is None
    assert press.at, "the search went above its root, so it guessed"
    for count in press.at:
        # The root then holds one more link at least, and says so.
        assert len(announced) > count and units(announced[count]) > units(announced[count - 1])
    drawn = edges_of(text, answer)
    assert all(drawn.get(fact >> 2, 0) > fact & 3 for fact in guessed)
    final = per_pair(links_text(answer).splitlines())
    for links in announced:
        for *pair, n in links:
            assert n <= final[tuple(pair)], (pair, n)


def wrong_guess(text, monkeypatch):
    """Make each guess of the search a link open at its root that no solution of `text`
    (one solution) holds, guessed without being tried first; the options to solve with."""
    answer = edges_of(text, bot.solve(text))
    edges = range(len(parse(text).ends))
    monkeypatch.setattr(Turns, "drawn_above_root", lambda self: [
        4 * next(e for e in edges if e not in answer and self.engine.is_open(4 * e))])
    return LEARNS.replace(prove_for=-1)


HARD = (ROOT / "puzzles" / "hard30" / "30x30_hard_unique_s1_000.txt").read_text()


def test_a_wrong_guess_leaves_no_answer_rather_than_a_wrong_one(monkeypatch):
    options = wrong_guess(HARD, monkeypatch)
    with pytest.raises(bot.Unsolvable):
        bot.solve(HARD, sure=lambda links: None, press=Press([], guesses=1), options=options)


def test_the_bot_says_its_guess_left_no_solution(monkeypatch, capsys):
    options = wrong_guess(HARD, monkeypatch)
    monkeypatch.setattr("sys.stdin", io.StringIO(HARD))
    with pytest.raises(SystemExit) as ended:
        cli.main(options=options, pacer=functools.partial(Pacer, first_at=0, every=0))
    assert ended.value.code == cli.EXIT_UNSOLVABLE
    assert capsys.readouterr().err == (
        "bot: no solution holds the links guessed when the sure ones ran out\n")


def test_a_walk_turn_ends_early_when_told_to_stop():
    # A near-tree whose walk needs thousands of moves; the third ask says stop.
    text = (ROOT / "puzzles" / "stress" / "tree" / "30x15_full_loops2_003.txt").read_text()
    walk = Walk(Grid(parse(text)))
    asked = []
    walk.stop = lambda: asked.append(1) or len(asked) == 3
    assert walk.run(4000) is None
    assert len(asked) == 3 and walk.moves <= 3 * 64


def root_learner(text, options=DEFAULT):
    """The turns of a search that learns on `text`, at its root (after the rules and
    probes), pressed for one guess."""
    rules, stats = Rules(Grid(parse(text)), options), Stats()
    rules.propagate(stats=stats)
    probe(rules, stats, range(len(rules.grid.puzzle)))
    return Turns(Learner(rules, stats), sure=lambda links: None, press=Press([], guesses=1))


@pytest.mark.slow
@pytest.mark.parametrize("in_answer", [True, False])
def test_when_pressed_the_search_settles_what_it_can_before_it_guesses(in_answer, monkeypatch):
    # On a puzzle with one solution, each edge open at the root is offered as the likeliest
    # link: one of the solution's (in_answer) or one no solution holds. Assuming it false,
    # then true, from the root settles some of them with no guess (a link of the first
    # kind proved, one of the second ruled out), and the root then keeps to the answer;
    # the others are guessed.
    patient = DEFAULT.replace(prove_for=60)
    answer = edges_of(HARD, bot.solve(HARD))
    outcomes = set()
    root = root_learner(HARD, patient)
    for e in range(len(root.grid.puzzle.ends)):
        if root.engine.is_open(4 * e) and (answer.get(e, 0) > 0) == in_answer:
            learner = root_learner(HARD, patient)
            assert learner.answer_press([4 * e])
            guessed = learner.press.at != []
            lo = learner.grid.lo
            if not guessed:
                assert all(low <= answer.get(f, 0) for f, low in enumerate(lo))
                if not learner.engine.is_open(4 * e):
                    assert bool(lo[e]) == in_answer
            outcomes.add(guessed)
            if len(outcomes) == 2:
                return
    pytest.fail(f"only {outcomes}")


@pytest.mark.slow
def test_the_walk_beside_a_pressed_search_asks_the_caller_when_to_stop(monkeypatch):
    text = (ROOT / "puzzles" / "stress" / "tree" / "30x15_full_loops2_003.txt").read_text()
    unpressed = bot.solve(text, options=LEARNS)
    press = Press([], guesses=0)  # never due: the search is the one it would be unpressed
    stops = []
    run = Walk.run
    monkeypatch.setattr(Walk, "run", lambda self, moves: stops.append(self.stop) or run(self, moves))
    assert bot.solve(text, sure=lambda links: None, press=press, options=LEARNS) == unpressed
    assert stops and all(stop == press.due for stop in stops)
