"""The limit on one solve in process: an interval timer whose signal stops the solve, by
the wall clock or by the CPU time of the solving thread. `bench` and `bench --peer` share
it, so a limit that rings as a solve returns is never a traceback in either."""

from __future__ import annotations

import signal
import sys
import time


class SolveTimeout(Exception):
    """The solve ran past --timeout."""


# Each clock: how a solve is timed, and the interval timer and signal that stop it.
# The CPU timer counts user and system time, as thread_time does: a solve spending its time
# in system calls is stopped too.
CLOCKS = {"wall": (time.perf_counter, "ITIMER_REAL", "SIGALRM", "s"),
          "cpu": (time.thread_time, "ITIMER_PROF", "SIGPROF", "s of CPU")}
CLOCK_SAID = {"wall": "the wall clock", "cpu": "the CPU time of the solving thread"}
RETRY_S = 0.01   # a solve that swallowed its SolveTimeout is rung again this often


class Alarm:
    """--timeout for the solves of one measure: an interval timer whose signal raises
    SolveTimeout in the solve. A ring raises only inside the solve (a frame of `_timed` on
    the stack) and once this solve's timer has run out: a ring as the solve returns, or one
    left from the solve before, is ignored instead of escaping as a traceback. A raise the
    solver swallows (a generator closed as the ring came) is repeated every RETRY_S, so
    such a solve is still stopped, and not reported as "Exception ignored"."""

    def __init__(self, clock: str, timeout: float):
        _, timer_name, signal_name, _ = CLOCKS[clock]
        self.timer, self.ring = getattr(signal, timer_name), getattr(signal, signal_name)
        self.timeout = timeout

    def __enter__(self) -> "Alarm":
        self.old = signal.signal(self.ring, self._rang)
        self.old_hook, sys.unraisablehook = sys.unraisablehook, self._swallowed
        return self

    def __exit__(self, *exc) -> None:
        signal.setitimer(self.timer, 0)
        signal.signal(self.ring, self.old)
        sys.unraisablehook = self.old_hook

    def call(self, solve):
        """solve(), stopped by SolveTimeout at the limit. Once the alarm has raised, the solve
        counts as stopped whatever it did next: a raise that lands in the solver's clean-up
        can break its state, and the answer or crash that follows is no verdict on it."""
        self.rang = False
        try:
            answer = self._timed(solve)
        except Exception:
            if not self.rang:
                raise
        finally:
            signal.setitimer(self.timer, 0)
        if self.rang:
            raise SolveTimeout()
        return answer

    def _timed(self, solve):
        # The timer starts in this frame, so no ring can come before it is on the stack.
        signal.setitimer(self.timer, self.timeout)
        return solve()

    def _rang(self, signum, frame) -> None:
        if signal.getitimer(self.timer)[0] > 0:
            return   # left from the solve before: this solve's timer still runs
        while frame is not None and frame.f_code is not Alarm._timed.__code__:
            frame = frame.f_back
        if frame is not None:
            self.rang = True
            signal.setitimer(self.timer, RETRY_S)
            raise SolveTimeout()

    def _swallowed(self, unraisable) -> None:
        if not isinstance(unraisable.exc_value, SolveTimeout):
            self.old_hook(unraisable)


class NoAlarm:
    """In a thread, where Python allows no signal handler: the solve runs to its end, and
    its measured time alone judges it against --timeout."""

    def __enter__(self) -> "NoAlarm":
        return self

    def __exit__(self, *exc) -> None:
        pass

    def call(self, solve):
        return solve()
