"""The process runner with real fake-bot processes: one per verdict and per misbehaviour."""

import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

import pytest

from referee.judge.board import load_board, parse_board
from referee.judge.limits import MEMORY_LIMIT_BYTES, STDERR_TAIL_BYTES, Limits
from referee.judge.rules import Verdict
from referee.box.proctree import descendants
from referee.box import runner
from referee.box.sandbox import Mode
from referee.box.runner import BotProcess, BotStartError
from tests.fakebots.procs import (box_python, SESSION_TMP, alive, bot_written, reachable_file,
                                  wait_until_none_running)

FAKEBOTS = Path(__file__).parents[1] / "fakebots"
PUBLIC = Path(__file__).parents[2] / "puzzles" / "public"
SIMPLEST = load_board(PUBLIC / "01_simplest.txt")
# Python takes ~0.3 s to start on a slow machine: generous limits except where time is tested.
EASY = Limits(first_line_s=5.0, turn_s=1.0, grace_s=0.05)
QUICK = Limits(first_line_s=0.5, turn_s=0.1, grace_s=0.05)     # for bots that never answer
PATIENT = Limits(first_line_s=5.0, turn_s=0.1, grace_s=0.05)   # answer once, then hang



def run_match(*args, **kwargs):
    """The runner's run_match, the bot's TMPDIR in this session's directory (see procs)."""
    return runner.run_match(*args, tmp_parent=SESSION_TMP, **kwargs)


def bot(script, *args):
    return [box_python(), str(FAKEBOTS / script), *map(str, args)]


def unboxed_bot(script, *args):
    """A bot the unboxed modes can start: from where a box user reaches it."""
    return [box_python(), reachable_file(FAKEBOTS / script), *map(str, args)]


@pytest.fixture(autouse=True, scope="module")
def no_process_left_behind():
    yield
    assert wait_until_none_running() == []


@pytest.mark.parametrize("name", ["01_simplest", "02_simpler", "03_simple", "04_basic"])
def test_replayed_solution_wins(name):
    board = load_board(PUBLIC / f"{name}.txt")
    result = run_match(board, bot("replay.py", FAKEBOTS / "solutions"), EASY, name=name)
    assert result.verdict is Verdict.WIN, result.reason
    assert len(result.latencies_s) == len(result.lines) >= 2
    assert result.usage.cpu_s > 0 and result.usage.peak_rss_bytes > 1_000_000


@pytest.mark.parametrize("verdict", ["malformed", "not_a_link", "crossing", "third_link",
                                     "over_capacity", "incomplete", "disconnected"])
def test_each_rule_verdict_through_a_real_process(verdict):
    case = FAKEBOTS / "lines" / f"{verdict}.txt"
    board = parse_board(case.read_text().partition("\n\n")[0])
    result = run_match(board, bot("replay.py", case), EASY)
    assert result.verdict is Verdict(verdict), result.reason


def test_crash_names_the_exception():
    result = run_match(SIMPLEST, bot("crash.py"), EASY)
    assert (result.verdict, result.turn, result.usage.exit_status) == (Verdict.CRASH, 2, 1)
    assert "RuntimeError: boom" in result.reason
    assert result.usage.stderr_tail.endswith("RuntimeError: boom\n")


def test_nonzero_exit_after_incomplete_output_is_a_crash():
    result = run_match(SIMPLEST, bot("replay.py", FAKEBOTS / "lines" / "incomplete.txt",
                                     "--exit", 3), EASY)
    assert result.verdict is Verdict.CRASH and "status 3" in result.reason


@pytest.mark.slow
def test_silent_bot_times_out_and_is_killed():
    result = run_match(SIMPLEST, bot("silent.py"), QUICK)
    assert (result.verdict, result.turn) == (Verdict.TIMEOUT, 1)
    assert result.usage.exit_status == -9


@pytest.mark.slow
def test_bot_reading_stdin_to_eof_hangs_as_on_codingame():
    result = run_match(SIMPLEST, bot("read_to_eof.py"), QUICK)
    assert result.verdict is Verdict.TIMEOUT and result.lines == ()


@pytest.mark.slow
def test_unflushed_bot_times_out_even_if_the_caller_sets_pythonunbuffered(monkeypatch):
    monkeypatch.setenv("PYTHONUNBUFFERED", "1")
    # long enough that leaked PYTHONUNBUFFERED would let the answer arrive and win
    result = run_match(SIMPLEST, bot("unflushed.py"), Limits(first_line_s=1.5))
    assert result.verdict is Verdict.TIMEOUT and result.lines == ()


@pytest.mark.slow
def test_slow_later_line_times_out_on_its_turn():
    solution = FAKEBOTS / "solutions" / "01_simplest.txt"
    result = run_match(SIMPLEST, bot("replay.py", solution, "--sleep-ms", "0,400"),
                       Limits(first_line_s=5.0, turn_s=0.1, grace_s=0.05))
    assert (result.verdict, result.turn, result.line) == (Verdict.TIMEOUT, 2, None)
    assert result.reason.startswith("no line 2 within 100 ms of line 1; asleep ")


@pytest.mark.slow
def test_late_line_within_the_grace_is_recorded_and_judged_late():
    solution = FAKEBOTS / "solutions" / "01_simplest.txt"
    result = run_match(SIMPLEST, bot("replay.py", solution, "--sleep-ms", "0,300"),
                       Limits(first_line_s=5.0, turn_s=0.1, grace_s=1.0))
    assert (result.verdict, result.turn, result.line) == (Verdict.TIMEOUT, 2, "2 0 2 2 1")
    assert 0.1 < result.latencies_s[1] < 1.1
    assert "over the 100 ms limit" in result.reason


@pytest.mark.slow
def test_closed_output_without_exit_is_a_timeout():
    # the limit leaves a slow machine time to start Python and close stdout
    result = run_match(SIMPLEST, unboxed_bot("close_and_hang.py"), Limits(first_line_s=1.5),
                       mode=Mode.SUBREAPER)   # in a box, bubblewrap holds stdout to the end
    assert result.verdict is Verdict.TIMEOUT and "closed its output" in result.reason


@pytest.mark.slow
def test_memory_hog_is_stopped_at_the_cap():
    result = run_match(SIMPLEST, bot("hog_memory.py"), EASY)
    assert result.verdict is Verdict.MEMORY, result.reason
    assert result.reason.endswith("cap 768 MB")
    assert result.usage.peak_rss_bytes >= MEMORY_LIMIT_BYTES * 0.99   # the kernel stops it at the cap


def test_flood_is_cut_malformed_and_stderr_capped():
    result = run_match(SIMPLEST, bot("flood.py"), EASY)
    assert (result.verdict, result.turn) == (Verdict.MALFORMED, 1)
    assert len(result.line) == 4096 and set(result.line) == {"x"}
    assert len(result.usage.stderr_tail) <= STDERR_TAIL_BYTES
    assert result.usage.exit_status == -9


@pytest.mark.slow
def test_children_of_a_hanging_bot_are_killed_even_if_they_left_the_group():
    pidfile = bot_written("pids")   # unboxed: the bot writes it
    # the children are on trial, not the machine: a first line that three Python starts
    # may take long to come on a loaded one
    result = run_match(SIMPLEST, unboxed_bot("spawn_and_hang.py", pidfile),
                       Limits(first_line_s=20.0, turn_s=0.1, grace_s=0.05), mode=Mode.SUBREAPER)
    assert (result.verdict, result.turn) == (Verdict.TIMEOUT, 2), (result.reason, result.usage)
    pids = [int(p) for p in pidfile.read_text().split()]
    assert len(pids) == 3
    assert wait_until_none_running() == []
    assert not any(alive(pid) for pid in pids)


@pytest.mark.slow
def test_bot_gets_a_clean_environment_own_session_and_a_removed_tmpdir(monkeypatch):
    monkeypatch.setenv("PYTHONUNBUFFERED", "1")
    monkeypatch.setenv("REFEREE_TEST_SECRET", "x")
    result = run_match(SIMPLEST, bot("env_probe.py"), PATIENT)
    assert (result.verdict, result.turn) == (Verdict.TIMEOUT, 2)
    probe = json.loads(result.usage.stderr_tail)
    assert "PYTHONUNBUFFERED" not in probe["env"] and "REFEREE_TEST_SECRET" not in probe["env"]
    assert probe["env"]["PATH"] == os.environ["PATH"]
    assert probe["cwd"] == os.getcwd()
    assert probe["tmp"] == probe["env"]["TMPDIR"] == "/tmp"   # the box's own
    assert probe["pgid"] == probe["sid"] and probe["pid"] <= 3   # a session in its own PID space
    # no address-space limit: a JVM or .NET runtime reserves far more than it uses
    assert probe["rlimit_as"] == [resource.RLIM_INFINITY, resource.RLIM_INFINITY]


def latency_errors_ms(case, sleeps_ms):
    """Play a bot that sleeps known times and stamps each write (perf_counter is
    CLOCK_MONOTONIC, shared by processes); the referee's error on each later line."""
    board = parse_board(case.read_text().partition("\n\n")[0])
    result = run_match(board, bot("replay.py", case, "--stamp",
                                  "--sleep-ms", ",".join(map(str, sleeps_ms))),
                       Limits(first_line_s=5.0, turn_s=1.0))
    assert result.won, result.reason
    stamps = [float(s) for s in result.usage.stderr_tail.split()]
    gaps_ms = [(b - a) * 1000 for a, b in zip(stamps, stamps[1:])]
    assert all(gap >= sleep for gap, sleep in zip(gaps_ms, sleeps_ms[1:]))
    return [latency * 1000 - gap for latency, gap in zip(result.latencies_s[1:], gaps_ms)]


@pytest.mark.slow
def test_latency_is_accurate_to_two_ms():
    """The median error of later-line latencies is under 2 ms.

    Measured against the gaps between the bot's own write stamps, so the bot's sleep
    overshoot is not counted. Load on the machine can only add error, so the best of
    three attempts is judged: one good attempt shows the method itself is accurate.
    """
    case = FAKEBOTS / "solutions" / "chain_21.txt"   # twenty lines
    sleeps_ms = [0] + [5, 30, 15, 25, 10, 20] * 3 + [5]
    attempts = []
    for _ in range(3):
        errors_ms = latency_errors_ms(case, sleeps_ms)
        assert len(errors_ms) == 19
        attempts.append(abs(statistics.median(errors_ms)))
        if attempts[-1] < 2.0:
            break
    assert min(attempts) < 2.0, attempts


def test_missing_program_cannot_start():
    with pytest.raises(BotStartError, match="cannot start"):
        BotProcess(["/nonexistent/bot"])


def test_close_is_idempotent_and_reaps():
    process = BotProcess(bot("silent.py"), tmp_parent=SESSION_TMP)
    first = process.close()
    assert process.close() is first
    assert first.exit_status == -9 and not alive(process.pid)
    assert first.stopped                    # the -9 is the referee's doing, not the bot's


@pytest.mark.slow
def test_a_bot_that_exited_by_itself_keeps_its_own_status_and_is_not_stopped():
    process = BotProcess([sys.executable, "-c", "raise SystemExit(3)"], tmp_parent=SESSION_TMP)
    deadline = time.monotonic() + 10
    while alive(process.pid) and time.monotonic() < deadline:
        time.sleep(0.02)
    time.sleep(0.1)
    usage = process.close()
    assert (usage.exit_status, usage.stopped) == (3, False)


def test_descendants_finds_children_and_grandchildren():
    code = ("import subprocess, sys, time; p = subprocess.Popen(['sleep', '30']); "
            "print(p.pid, flush=True); time.sleep(30)")
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        grandchild = int(child.stdout.readline())
        assert {child.pid, grandchild} <= set(descendants(os.getpid()))
    finally:
        os.kill(grandchild, 9)
        child.kill()
        child.wait()
        child.stdout.close()
    assert wait_until_none_running() == []
    deadline = time.monotonic() + 2   # SIGKILL is delivered at once, the exit takes a moment
    while alive(grandchild) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not alive(grandchild)


def test_a_killed_stamper_server_is_started_again_for_the_next_match():
    # unboxed and run by the same user, a bot could kill it: the next match must not care
    from referee.box.stamper_client import StamperServer
    board = load_board(PUBLIC / "01_simplest.txt")
    replay = bot("replay.py", FAKEBOTS / "solutions")
    assert run_match(board, replay, EASY, name="01_simplest").won
    server = StamperServer.pid()
    os.kill(server, 9)
    deadline = time.monotonic() + 5
    while alive(server) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert run_match(board, replay, EASY, name="01_simplest").won
    assert StamperServer.pid() not in (None, server)
