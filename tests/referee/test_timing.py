"""Timing no bot can bend.

A separate process stamps each line as it arrives, so the referee's own delays never move
a stamp; a late line always loses, and a timeout while the machine was busy outside the
bot is marked so it can be replayed.
"""

import json
import multiprocessing
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from referee.judge.board import parse_board
from referee.judge.limits import Limits
from referee.judge.match import Event, EventKind, play_match
from referee.judge.result import Usage
from referee.judge.rules import Verdict
from referee.box.lateness import LoadWindow
from referee.judge.limits import BUSY_CPUS
from referee.box.runner import BotProcess
from tests.fakebots.procs import box_python, referee
from tests.fakebots.timing_error import write_solutions

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SIMPLEST = parse_board("3\n3\n1.2\n...\n..1\n")
LIMITS = Limits(first_line_s=1.0, turn_s=0.1, grace_s=0.05)
PACED = os.path.join(ROOT, "tests", "fakebots", "paced.py")
LOADED_PUZZLES = ("puzzles/public/08_advanced.txt", "puzzles/public/13_expert.txt")


@dataclass
class LateSecondLine:
    """A transport whose second line comes `gap` after the first; `busy` CPUs were in use
    outside the bot meanwhile."""

    gap: float
    busy: float | None = None
    read: int = 0

    def send(self, text):
        return 0.0

    def read_line(self, deadline):
        self.read += 1
        if self.read == 1:
            return Event(EventKind.LINE, 0.01, "0 0 2 0 1")
        return Event(EventKind.LINE, 0.01 + self.gap, "2 0 2 2 1")

    def wait_exit(self, deadline):
        return 0

    def close(self):
        return Usage(exit_status=0, busy_cpus=self.busy)


@pytest.mark.parametrize("busy", [None, 0.0, 1.9])
def test_a_late_line_loses_however_busy_the_machine_was(busy):
    result = play_match(SIMPLEST, LateSecondLine(gap=0.1001, busy=busy), LIMITS)
    assert (result.verdict, result.turn) == (Verdict.TIMEOUT, 2)
    assert result.reason == "line 2 came 100.1 ms after line 1, over the 100 ms limit"


def test_a_timeout_on_a_busy_machine_is_marked_for_a_replay():
    result = play_match(SIMPLEST, LateSecondLine(gap=0.2, busy=BUSY_CPUS), LIMITS)
    assert result.busy and result.to_json()["busy"] is True
    quiet = play_match(SIMPLEST, LateSecondLine(gap=0.2, busy=BUSY_CPUS / 2), LIMITS)
    assert not quiet.busy and quiet.to_json()["busy"] is False


def test_a_win_is_never_marked_busy():
    result = play_match(SIMPLEST, LateSecondLine(gap=0.05, busy=2.0), LIMITS)
    assert result.verdict is Verdict.WIN and not result.busy


@pytest.mark.slow
def test_a_line_is_stamped_when_the_bot_wrote_it_not_when_the_referee_read_it():
    # the referee looks away for 2 s after the input: the stamper's time still holds
    bot = BotProcess([box_python(), "-c", "import sys; sys.stdin.readline(); "
                      "print('0 0 2 0 1', flush=True); import time; time.sleep(30)"])
    try:
        sent = bot.send("3\n3\n1.2\n...\n..1\n")
        time.sleep(2.0)
        event = bot.read_line(sent + 10)
    finally:
        bot.close()
    assert event.kind is EventKind.LINE and event.text == "0 0 2 0 1"
    assert event.at - sent < 1.5


def test_a_window_too_short_for_the_kernels_ticks_tells_no_load():
    window = LoadWindow(lambda: 0.0)
    window.mark()
    window.mark()
    assert window.last() is None


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
    for path in (folder, *folder.parents[:2]):   # pytest's folders are its user's alone
        path.chmod(0o755)
    write_solutions([Path(ROOT) / p for p in LOADED_PUZZLES], folder)
    return str(folder)


def play_paced(solutions, gap_ms, tmp_path):
    out = tmp_path / "results.json"
    done = referee("run", "--bot", f"{sys.executable} {PACED} {solutions} {gap_ms}",
                   "--json", str(out), *LOADED_PUZZLES, timeout=120)
    return done, json.loads(out.read_text())["matches"]


@pytest.mark.slow
def test_a_bot_answering_every_130_ms_still_loses_beside_busy_processes(
        busy_machine, solutions, tmp_path):
    # lateness is never forgiven, busy machine or not
    done, matches = play_paced(solutions, 130, tmp_path)
    assert [m["verdict"] for m in matches] == ["timeout", "timeout"], done.stdout
    assert all("over the 100 ms limit" in m["reason"] for m in matches)
