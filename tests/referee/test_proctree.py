"""A process tree put back to normal priority (referee/box/proctree.py) while it forks and
reaps: a member that ends during the change is no error, one left idle is."""

import os
import subprocess
import time

import pytest

from referee.box.proctree import descendants, left_idle, set_normal_policy

needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="only root may raise a process")


def idle_tree(script: str) -> subprocess.Popen:
    """A shell running `script` in a session of its own, at the idle policy."""
    shell = subprocess.Popen(["sh", "-c", script], start_new_session=True,
                             preexec_fn=lambda: os.sched_setscheduler(
                                 0, os.SCHED_IDLE, os.sched_param(0)))
    time.sleep(0.1)
    return shell


@needs_root
def test_a_tree_that_forks_and_reaps_without_pause_is_put_back_every_time():
    # each short child ends and is reaped while the change runs over it: before, about
    # one call in fifty failed with "No such process"
    shell = idle_tree("while :; do /bin/true; done")
    try:
        for _ in range(2000):
            set_normal_policy(shell.pid)
        assert os.sched_getscheduler(shell.pid) == os.SCHED_OTHER
        assert not left_idle(shell.pid)
    finally:
        os.killpg(shell.pid, 9)   # its session: the shell and its children
        shell.wait()


@needs_root
def test_idle_is_seen_in_a_live_process_and_not_in_an_ended_one():
    shell = idle_tree("sleep 30 & wait")
    try:
        child = descendants(shell.pid)[0]
        assert left_idle(child)
        set_normal_policy(shell.pid)
        assert not left_idle(child)
    finally:
        os.killpg(shell.pid, 9)   # its session: the shell and its children
        shell.wait()
    assert not left_idle(shell.pid)   # reaped: nothing of it runs
