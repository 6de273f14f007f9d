"""A referee killed with SIGKILL cleans nothing up itself: its bot still dies at once (the
stamper sees its control pipe close), and the next referee removes the match folders and
cgroups it left, never those of a referee still running."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from referee.box import cgroups
from tests.fakebots.procs import SESSION_TMP, box_python, running_with_marker
from tests.referee.test_containment import FAKEBOTS, ROOT, marker, wait_for_bots


def dead_referees_leftovers(pid: int) -> list[str]:
    """Match folders and cgroups named for `pid`."""
    found = [str(p) for p in Path(SESSION_TMP).glob(f"referee-*-{pid}-*")]
    for own in cgroups.own_groups():
        found += [str(p) for p in own.glob(f"referee-{pid}-*")]
    return found


def until(condition, seconds=10.0):
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.05)
    return condition()


@pytest.mark.slow
def test_a_sigkilled_referees_bot_dies_and_its_leftovers_go_with_the_next_run():
    mark = marker()
    env = dict(os.environ, TMPDIR=SESSION_TMP)
    command = [sys.executable, "-m", "referee", "run", "--first-line-ms", "30000", "--bot",
               f"{box_python()} {FAKEBOTS / 'silent.py'} {mark}", "puzzles/public/01_simplest.txt"]
    referee = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    wait_for_bots(mark, 1)
    referee.send_signal(signal.SIGKILL)
    referee.wait()
    assert until(lambda: running_with_marker(mark) == [])
    assert dead_referees_leftovers(referee.pid)   # what only a later referee can remove
    later = subprocess.run([sys.executable, "-m", "referee", "run", "puzzles/public/01_simplest.txt"],
                           cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert later.returncode == 0, later.stdout + later.stderr
    assert dead_referees_leftovers(referee.pid) == []
