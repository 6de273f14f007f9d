"""bench's guards: the alarm that stops a solve, bad input refused before any work, and
the bundle's start-up measured without hanging or leaving a process behind.
"""

import signal
import sys
import threading
import time

import pytest

import bot
from referee.lab.bench import measure
from tests.fakebots.procs import no_process_left_behind  # noqa: F401

from project import PUBLIC, run_referee

EXPERT = (PUBLIC / "13_expert.txt").read_text()


def _returning_as_the_timer_rings(monkeypatch):
    """bot.solve that returns its answer with SIGALRM held back until its timer has run out,
    and a setitimer that lets the ring through as the timer is stopped: the ring lands
    just after the solve returned."""
    solve, setitimer = bot.solve, signal.setitimer

    def late(text, **kwargs):
        answer = solve(text, **kwargs)
        signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGALRM])
        deadline = time.monotonic() + 10
        while signal.getitimer(signal.ITIMER_REAL)[0] > 0 and time.monotonic() < deadline:
            time.sleep(0.001)
        return answer

    def stop(which, seconds, *interval):
        if seconds == 0:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGALRM])
        return setitimer(which, seconds, *interval)

    monkeypatch.setattr(bot, "solve", late)
    monkeypatch.setattr(signal, "setitimer", stop)


def test_a_ring_as_the_solve_returns_is_no_traceback(monkeypatch):
    _returning_as_the_timer_rings(monkeypatch)
    run = measure("s", "a", EXPERT, 1, 0.05)
    assert not run.solved and run.error == "over 0.05 s" and run.seconds >= 0.05


def test_a_limit_shorter_than_a_solve_never_escapes_as_a_traceback():
    # The ring comes before, during or just after the solve: always a verdict, never a raise.
    for timeout in (0.000001, 0.0001, 0.0003, 0.0005, 0.0007, 0.001, 0.002) * 6:
        run = measure("s", "a", EXPERT, 3, timeout)
        assert run.solved or run.error == f"over {timeout:g} s", run.error


def bench(*args):
    return run_referee("bench", *args)


def one_line_usage_error(run, said):
    """Exit 2 with `said` in one line of stderr, and no traceback."""
    lines = run.stderr.strip().splitlines()
    assert run.returncode == 2 and len(lines) == 1, run.stderr
    assert lines[0].startswith("python -m referee bench: error: ") and said in lines[0], lines[0]


@pytest.mark.parametrize("timeout", ["0", "0.0", "-1", "nan", "inf", "1e999"])
def test_a_timeout_not_above_zero_or_not_finite_is_refused(timeout):
    run = bench(str(PUBLIC / "01_simplest.txt"), "--startup-runs", "0", "--timeout", timeout)
    one_line_usage_error(run, "--timeout")


def _slept(seconds):
    """bot.solve, after `seconds` asleep."""
    solve = bot.solve

    def late(text, **kwargs):
        time.sleep(seconds)
        return solve(text, **kwargs)
    return late


def test_a_solve_timed_over_the_limit_is_over_it_with_no_alarm(monkeypatch):
    # In a thread (a dask worker) no alarm can stop the solve: its time still judges it.
    monkeypatch.setattr(bot, "solve", _slept(0.2))
    runs = []
    worker = threading.Thread(target=lambda: runs.append(measure("s", "a", EXPERT, 1, 0.05)))
    worker.start()
    worker.join()
    assert not runs[0].solved and runs[0].error == "over 0.05 s"


def test_a_cpu_timed_solve_over_the_limit_is_over_it_though_the_alarm_did_not_ring():
    # ITIMER_VIRTUAL counts the process's user time in ticks: a short solve passes under it.
    run = measure("s", "a", EXPERT, 1, 0.000001, clock="cpu")
    assert not run.solved and run.error == "over 1e-06 s of CPU"
