"""Timing a player can trust on a busy machine.

The referee stamps a line when it arrives even with every CPU busy, and where the
referee or the bot was kept waiting for a CPU it does not blame the bot for that wait:
a line late only by such a wait is noted as unsure timing, not judged a timeout.
"""

import json
import multiprocessing
import os
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from referee.board import parse_board
from referee.limits import Limits
from referee.match import Event, EventKind, play_match
from referee.result import Usage
from referee.rules import Verdict
from referee.sched import excusable_wait
from tests.fakebots.procs import referee
from tests.fakebots.timing_error import write_solutions

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIMPLEST = parse_board("3\n3\n1.2\n...\n..1\n")
LIMITS = Limits(first_line_s=1.0, turn_s=0.1, grace_s=0.05)
PACED = os.path.join(ROOT, "tests", "fakebots", "paced.py")
LOADED_PUZZLES = ("puzzles/public/08_advanced.txt", "puzzles/public/13_expert.txt")


@dataclass
class LateSecondLine:
    """A transport whose second line comes `gap` after the first, with `doubt` on it."""

    gap: float
    doubt: float
    read: int = 0

    def send(self, text):
        return 0.0

    def read_line(self, deadline):
        self.read += 1
        if self.read == 1:
            return Event(EventKind.LINE, 0.01, "0 0 2 0 1")
        return Event(EventKind.LINE, 0.01 + self.gap, "2 0 2 2 1", doubt_s=self.doubt)

    def wait_exit(self, deadline):
        return 0

    def close(self):
        return Usage(exit_status=0)


def test_a_line_late_only_by_a_wait_for_a_cpu_is_unsure_not_a_timeout():
    result = play_match(SIMPLEST, LateSecondLine(gap=0.105, doubt=0.006), LIMITS)
    assert result.verdict is Verdict.WIN, result.reason
    [note] = result.unsure_timing
    assert note.startswith("line 2 came 105.0 ms after line 1") and "6.0 ms" in note
    assert result.to_json()["unsure_timing"] == [note]


def test_a_line_late_by_more_than_the_wait_is_a_timeout():
    result = play_match(SIMPLEST, LateSecondLine(gap=0.105, doubt=0.004), LIMITS)
    assert (result.verdict, result.turn) == (Verdict.TIMEOUT, 2)
    assert result.unsure_timing == ()


def test_a_line_in_time_leaves_no_note():
    result = play_match(SIMPLEST, LateSecondLine(gap=0.095, doubt=0.0), LIMITS)
    assert result.verdict is Verdict.WIN and result.unsure_timing == ()


def times(*threads):
    """{tid: (cpu s, wait s)} for threads given as (cpu, wait)."""
    return {tid: pair for tid, pair in enumerate(threads)}


@pytest.mark.parametrize("before, after, cpus, excused", [
    (times((1.0, 0.0)), times((1.05, 0.02)), 2, 0.02),        # others kept it waiting
    (times((1.0, 0.0)), times((1.05, 0.02)), 1, 0.02),        # one thread: never its own doing
    (times((1.0, 0.0), (1.0, 0.0)), times((1.09, 0.02), (1.09, 0.02)), 2, 0.0),  # 2 CPUs' worth
    (times((1.0, 0.0), (1.0, 0.0)), times((1.02, 0.02), (1.02, 0.0)), 1, 0.0),   # threads on 1 CPU
    ({}, times((1.05, 0.02)), 2, 0.0),                         # no baseline: no excuse
])
def test_a_bot_is_excused_only_a_wait_it_cannot_have_caused(before, after, cpus, excused):
    assert excusable_wait(before, after, gap_s=0.1, cpus=cpus) == pytest.approx(excused)


def spin():
    while True:
        pass


@pytest.fixture
def busy_machine():
    """One process spinning per CPU beside the referee, for the test's length."""
    spinners = [multiprocessing.Process(target=spin, daemon=True)
                for _ in range(len(os.sched_getaffinity(0)))]
    for proc in spinners:
        proc.start()
    yield
    for proc in spinners:
        proc.kill()
        proc.join()


@pytest.fixture(scope="module")
def solutions(tmp_path_factory):
    """The project's bot's answers to the puzzles played, as paced.py reads them."""
    folder = tmp_path_factory.mktemp("solutions")
    write_solutions([Path(ROOT) / p for p in LOADED_PUZZLES], folder)
    return str(folder)


def play_paced(solutions, gap_ms, tmp_path):
    out = tmp_path / "results.json"
    done = referee("run", "--bot", f"{sys.executable} {PACED} {solutions} {gap_ms}",
                   "--json", str(out), *LOADED_PUZZLES, timeout=120)
    return done, json.loads(out.read_text())["matches"]


def test_a_bot_answering_every_95_ms_wins_beside_a_busy_process_per_cpu(
        busy_machine, solutions, tmp_path):
    done, matches = play_paced(solutions, 95, tmp_path)
    assert [m["verdict"] for m in matches] == ["win", "win"], done.stdout
    assert done.returncode == 0


def test_a_bot_answering_every_130_ms_still_loses_beside_busy_processes(
        busy_machine, solutions, tmp_path):
    # the waits the referee forgives are the machine's, not a slow bot's
    done, matches = play_paced(solutions, 130, tmp_path)
    assert [m["verdict"] for m in matches] == ["timeout", "timeout"], done.stdout
    assert all("over the 100 ms limit" in m["reason"] for m in matches)
