"""bench's guards: the alarm that stops a solve, bad input refused before any work, and
the bundle's start-up measured without hanging or leaving a process behind.
"""

import signal
import time

import bot
from referee.lab.bench import measure
from tests.fakebots.procs import no_process_left_behind  # noqa: F401

from project import PUBLIC

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
    assert run.seconds >= 0.05


def test_a_limit_shorter_than_a_solve_never_escapes_as_a_traceback():
    # The ring comes before, during or just after the solve: always a verdict, never a raise.
    for timeout in (0.000001, 0.0001, 0.0003, 0.0005, 0.0007, 0.001, 0.002) * 6:
        run = measure("s", "a", EXPERT, 3, timeout)
        assert run.solved or run.error == f"over {timeout:g} s", run.error
