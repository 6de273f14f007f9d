"""Timing no bot can bend.

A separate process stamps each line as it arrives, so the referee's own delays never move
a stamp; a late line always loses, says where the bot's time went (the kernel's count of
its threads), and is marked busy, for a replay, only when the bot waited most of the time
for a CPU others held.
"""

import json
import os
import re
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from referee.box.lateness import CpuGroup, LoadWindow, attribute
from referee.box.runner import BotProcess
from referee.judge.board import parse_board
from referee.judge.limits import Limits
from referee.judge.match import Event, EventKind, play_match
from referee.judge.result import Lateness, Usage
from referee.judge.rules import Verdict
from tests.fakebots.procs import box_python, referee, running_with_marker
from tests.fakebots.timing_error import write_solutions

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SIMPLEST = parse_board("3\n3\n1.2\n...\n..1\n")
LIMITS = Limits(first_line_s=1.0, turn_s=0.1, grace_s=0.05)
PACED = os.path.join(ROOT, "tests", "fakebots", "paced.py")
LOADED_PUZZLES = ("puzzles/public/08_advanced.txt", "puzzles/public/13_expert.txt")
STARVED = Lateness(window_s=0.2, running_s=0.02, machine_wait_s=0.18)
ASLEEP = Lateness(window_s=0.2, running_s=0.01, machine_wait_s=0.04, asleep_s=0.15)


@dataclass
class LateSecondLine:
    """A transport whose second line comes `gap` after the first (never, with `gap` None);
    `lateness` says where the bot's time went meanwhile."""

    gap: float | None
    lateness: Lateness | None = None
    read: int = 0

    def send(self, text):
        return 0.0

    def read_line(self, deadline):
        self.read += 1
        if self.read == 1:
            return Event(EventKind.LINE, 0.01, "0 0 2 0 1")
        if self.gap is None:
            return Event(EventKind.TIMEOUT, deadline)
        return Event(EventKind.LINE, 0.01 + self.gap, "2 0 2 2 1")

    def wait_exit(self, deadline):
        return 0

    def close(self):
        return Usage(exit_status=0, lateness=self.lateness)


@pytest.mark.parametrize("lateness", [None, ASLEEP, STARVED])
def test_a_late_line_loses_however_busy_the_machine_was(lateness):
    result = play_match(SIMPLEST, LateSecondLine(gap=0.1001, lateness=lateness), LIMITS)
    assert (result.verdict, result.turn) == (Verdict.TIMEOUT, 2)
    assert result.reason.startswith("line 2 came 100.1 ms after line 1, over the 100 ms limit")
    assert result.busy is (lateness is STARVED)


def test_a_late_line_says_where_the_bots_time_went():
    plain = play_match(SIMPLEST, LateSecondLine(gap=0.2), LIMITS)
    assert plain.reason == "line 2 came 200.0 ms after line 1, over the 100 ms limit"
    asleep = play_match(SIMPLEST, LateSecondLine(gap=0.2, lateness=ASLEEP), LIMITS)
    assert asleep.reason == ("line 2 came 200.0 ms after line 1, over the 100 ms limit; "
                             "asleep 150 of 200 ms, waiting for a CPU others held 40 ms, "
                             "running 10 ms")
    assert not asleep.busy and asleep.to_json()["busy"] is False
    assert asleep.to_json()["lateness"]["asleep_ms"] == 150.0


def test_a_timeout_waiting_for_a_cpu_others_held_is_marked_for_a_replay():
    result = play_match(SIMPLEST, LateSecondLine(gap=None, lateness=STARVED), LIMITS)
    assert result.busy and result.to_json()["busy"] is True
    assert result.reason == ("no line 2 within 100 ms of line 1; waiting for a CPU others "
                             "held 180 of 200 ms, running 20 ms")


def test_only_a_silent_bot_blocked_reading_stdin_is_told_why_no_input_comes():
    reading = Lateness(window_s=1.05, running_s=0.01, asleep_s=1.04, reading_stdin=True)
    silent = play_match(SIMPLEST, LateSecondLine(gap=None, lateness=reading), LIMITS)
    assert silent.reason == ("no line 2 within 100 ms of line 1; waiting for input after "
                             "the last row 1040 of 1050 ms, running 10 ms (CodinGame keeps "
                             "stdin open: read exactly the lines given)")
    late = play_match(SIMPLEST, LateSecondLine(gap=0.2, lateness=reading), LIMITS)
    assert "stdin" not in late.reason and "asleep 1040 of 1050 ms" in late.reason
    # kept from a CPU most of the time, then blocked reading stdin: no input was coming
    starved = Lateness(window_s=1.05, machine_wait_s=0.9, asleep_s=0.15, reading_stdin=True)
    assert not play_match(SIMPLEST, LateSecondLine(gap=None, lateness=starved), LIMITS).busy
    assert play_match(SIMPLEST, LateSecondLine(gap=0.2, lateness=starved), LIMITS).busy


def test_a_win_is_never_marked_busy():
    result = play_match(SIMPLEST, LateSecondLine(gap=0.05, lateness=STARVED), LIMITS)
    assert result.verdict is Verdict.WIN and not result.busy
    assert result.reason == "every node is full and all 3 are connected"


def test_waiting_the_bot_caused_is_its_own():
    # one thread, ready all along, given 20 ms of 150: the machine's
    starved = attribute(0.15, running=0.02, waited=0.13, cpus=2)
    assert starved.machine_wait_s == pytest.approx(0.13) and starved.own_wait_s == 0
    # four threads always ready on two CPUs, given one: half of the waiting is their own
    crowd = attribute(0.15, running=0.15, waited=0.45, cpus=2)
    assert crowd.own_wait_s == pytest.approx(0.3 / 4) and crowd.machine_wait_s == \
        pytest.approx(0.15 / 4) and crowd.running_s == pytest.approx(0.15 / 4)
    # held back 100 ms by its own CPU cap
    capped = attribute(0.15, running=0.05, waited=0.1, cpus=0.3, throttled=0.1)
    assert capped.own_wait_s == pytest.approx(0.1) and capped.machine_wait_s == 0
    # the stamper's wait is the machine's; a sleeper's rest of the interval is asleep
    sleeper = attribute(0.15, running=0.002, waited=0.0, cpus=2, stamper_wait=0.001)
    assert sleeper.asleep_s == pytest.approx(0.148) and sleeper.machine_wait_s == 0.001


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


def test_a_cgroups_cap_and_throttled_time_are_read_in_either_version(tmp_path):
    v2, v1, free = tmp_path / "v2", tmp_path / "v1", tmp_path / "free"
    for folder in (v2, v1, free):
        folder.mkdir()
    (v2 / "cpu.max").write_text("50000 100000\n")
    (v2 / "cpu.stat").write_text("usage_usec 9\nthrottled_usec 250000\n")
    (v1 / "cpu.cfs_quota_us").write_text("150000\n")
    (v1 / "cpu.cfs_period_us").write_text("100000\n")
    (v1 / "cpu.stat").write_text("nr_periods 4\nnr_throttled 2\nthrottled_time 30000000\n")
    (free / "cpu.max").write_text("max 100000\n")
    (free / "cpu.stat").write_text("throttled_usec 7\n")
    assert (CpuGroup(v2).cap, CpuGroup(v2).throttled_s()) == (0.5, 0.25)
    assert (CpuGroup(v1).cap, CpuGroup(v1).throttled_s()) == (1.5, 0.03)
    assert (CpuGroup(free).cap, CpuGroup(free).throttled_s()) == (None, 0.0)


SHORT_THREAD = """
import sys, threading, time
def burn():
    start = time.thread_time()
    while time.thread_time() - start < 0.15:
        pass
sys.stdin.readline()
thread = threading.Thread(target=burn)
thread.start()
thread.join()
time.sleep(30)
"""


@pytest.mark.slow
def test_a_thread_that_ends_within_the_interval_keeps_the_cpu_it_was_seen_to_use():
    # no cgroup count here: only the counts taken while the referee waits see the thread
    proc = subprocess.Popen([sys.executable, "-c", SHORT_THREAD], stdin=subprocess.PIPE)
    try:
        window = LoadWindow(lambda: None, lambda: [proc.pid])
        time.sleep(0.3)
        window.mark()
        proc.stdin.write(b"go\n")
        proc.stdin.flush()
        end = time.perf_counter() + 1.0
        while time.perf_counter() < end:
            time.sleep(min(window.tick(), max(0.0, end - time.perf_counter())))
        window.mark()
        threads = len(os.listdir(f"/proc/{proc.pid}/task"))
    finally:
        proc.kill()
        proc.wait()
    assert threads == 1 and window.last().running_s >= 0.075, window.last()


def test_an_interval_too_short_to_be_late_is_not_looked_into():
    window = LoadWindow(lambda: 0.0, lambda: [os.getpid()])
    window.mark()
    window.mark()
    assert window.last() is None


SPIN = [sys.executable, "-c", "while 1: pass"]


@pytest.fixture
def busy_machine():
    """Two processes spinning beside the referee, for the test's length (as in CI)."""
    spinners = [subprocess.Popen(SPIN) for _ in range(2)]
    yield
    for proc in spinners:
        proc.kill()
        proc.wait()


@pytest.fixture
def hog_on_a_cpu():
    """A process spinning on the last CPU alone, its session at the highest priority
    (root only): the CPU it returns is no place for anyone else."""
    cpu = max(os.sched_getaffinity(0))
    hog = subprocess.Popen(SPIN, start_new_session=True)
    try:
        os.sched_setaffinity(hog.pid, {cpu})
        Path(f"/proc/{hog.pid}/autogroup").write_text("-20")
        yield cpu
    finally:
        hog.kill()
        hog.wait()


def play_lost(bot, tmp_path, first_line_ms=5000):
    """`run` of `bot` on the simplest puzzle: its LOST line, its match as JSON, all it
    printed. The first line has time for a Python's start on a loaded machine."""
    out = tmp_path / "result.json"
    done = referee("run", "--bot", bot, "--first-line-ms", str(first_line_ms), "--json",
                   str(out), "puzzles/public/01_simplest.txt")
    lost = [line for line in done.stdout.splitlines() if line.startswith("LOST")]
    assert done.returncode == 1 and len(lost) == 1, done.stdout + done.stderr
    return lost[0], json.loads(out.read_text())["matches"][0], done.stdout


NO_LINE_2 = ("LOST 01_simplest: timeout (awaiting line 2: no line 2 within 100 ms of line 1|"
             r"at line 2: line 2 came [\d.]+ ms after line 1, over the 100 ms limit); ")


@pytest.mark.slow
def test_a_bot_asleep_past_the_limit_is_late_on_its_own_beside_busy_processes(
        busy_machine, tmp_path):
    lost, match, _ = play_lost(f"{box_python()} tests/fakebots/replay.py "
                                 "tests/fakebots/solutions --sleep-ms 0,150", tmp_path)
    found = re.match(NO_LINE_2 + r"asleep (\d+) of (\d+) ms", lost)
    assert found and int(found[2]) >= 100 and int(found[3]) - int(found[2]) < 50, lost
    assert match["busy"] is False and match["lateness"]["asleep_ms"] > 100


@pytest.mark.slow
def test_a_bot_reading_stdin_to_its_end_is_told_it_stays_open(busy_machine, tmp_path):
    lost, match, _ = play_lost(f"{box_python()} tests/fakebots/read_to_eof.py", tmp_path, 2000)
    assert re.fullmatch(r"LOST 01_simplest: timeout awaiting line 1: no output line within "
                        r"2000 ms of the input; .*waiting for input after the last row \d+ "
                        r".*\(CodinGame keeps stdin open: read exactly the lines given\)",
                        lost), lost
    assert match["busy"] is False and match["lateness"]["reading_stdin"] is True


@pytest.fixture
def raised(tmp_path):
    """A marker for a bot's command line: the process holding it is raised to the highest
    priority (root only), so that it runs as if alone on its CPU: its match's cpu cgroup
    to the most weight the kernel takes, and its session too (unboxed, with no cgroup)."""
    marker, stop = f"raise-{tmp_path.name}", threading.Event()

    def watch():
        while not stop.wait(0.002):
            for found in running_with_marker(marker):
                _raise(found.split(":")[0])

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    yield marker
    stop.set()
    watcher.join()


def _raise(pid: str) -> None:
    """The process's cpu cgroup (v1 cpu.shares, v2 cpu.weight) and session at their most."""
    try:
        Path(f"/proc/{pid}/autogroup").write_text("-20")
        for line in Path(f"/proc/{pid}/cgroup").read_text().splitlines():
            number, controllers, path = line.split(":", 2)
            if "cpu" in controllers.split(","):
                _most(Path("/sys/fs/cgroup/cpu"), path, "cpu.shares", "262144")
            elif number == "0":
                _most(Path("/sys/fs/cgroup"), path, "cpu.weight", "10000")
    except (OSError, ValueError):
        pass   # gone, or no such controller


def _most(root: Path, path: str, name: str, value: str) -> None:
    """`value` into `name` of the cgroup at `path` and of each of its parents below `root`
    (a group's weight counts only beside its siblings: the referee's folder's, too)."""
    folder = root
    for part in filter(None, path.split("/")):
        folder = folder / part
        if (folder / name).exists():
            (folder / name).write_text(value)


ROOT_ONLY = pytest.mark.skipif(os.geteuid() != 0, reason="a priority this high needs root")


@pytest.mark.slow
@ROOT_ONLY
def test_a_bot_burning_cpu_past_the_limit_is_late_on_its_own(busy_machine, raised, tmp_path):
    lost, match, _ = play_lost(f"{box_python()} tests/fakebots/late_by.py burn {raised}",
                                 tmp_path)
    assert re.match(NO_LINE_2 + r"running \d+ of \d+ ms", lost), lost
    assert match["busy"] is False


@pytest.mark.slow
@ROOT_ONLY
def test_a_bot_with_more_busy_processes_than_cpus_waits_on_its_own(busy_machine, raised,
                                                                    tmp_path):
    # two processes burning on one CPU: half the interval is their waiting for each other
    lost, match, _ = play_lost(f"{box_python()} tests/fakebots/late_by.py crowd {raised}",
                               tmp_path)
    # half running, half waiting for each other: either may be named first
    assert re.match(NO_LINE_2 + r"(waiting for a CPU behind its own threads \d+ of \d+ ms|"
                    r"running \d+ of \d+ ms, waiting for a CPU behind its own threads \d+ ms)",
                    lost), lost
    assert match["busy"] is False


@pytest.mark.slow
@ROOT_ONLY
@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="the hog needs a CPU of its own")
def test_a_bot_starved_by_a_hog_on_its_cpu_is_marked_busy(busy_machine, hog_on_a_cpu,
                                                          tmp_path):
    lost, match, printed = play_lost(f"{box_python()} tests/fakebots/late_by.py starve "
                                 f"{hog_on_a_cpu}", tmp_path)
    assert re.match(NO_LINE_2 + r"waiting for a CPU others held \d+ of \d+ ms", lost), lost
    assert match["busy"] is True
    assert re.search(r"^01_simplest +timeout \(busy\) ", printed, re.M), printed
    assert ("  the machine was busy: the bot waited most of the time for a CPU others held "
            "(run --replay-busy N replays it)") in printed


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
                   "--first-line-ms", "5000", "--json", str(out), *LOADED_PUZZLES, timeout=120)
    return done, json.loads(out.read_text())["matches"]


@pytest.mark.slow
def test_a_bot_answering_every_130_ms_still_loses_beside_busy_processes(
        busy_machine, solutions, tmp_path):
    # lateness is never forgiven, busy machine or not
    done, matches = play_paced(solutions, 130, tmp_path)
    # (the first line has time for a Python's start on a loaded machine)
    assert [(m["verdict"], m["turn"]) for m in matches] == [("timeout", 2)] * 2, done.stdout
    assert all(m["reason"].startswith(("no line 2 within 100 ms of line 1; ", "line 2 came "))
               for m in matches), [m["reason"] for m in matches]
