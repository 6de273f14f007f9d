"""The memory cap counts what the bot's processes use, every page once, in each containment
mode the machine offers: many small forked children and a heap shared copy-on-write stay
under it; memory held in a memfd or a /dev/shm file counts; the /dev/shm files the bot
made are gone after its match, and no process of the bot is left, not even a zombie.
"""

import os
from pathlib import Path

import pytest

from referee import proctree
from referee.containment import CgroupSandbox, Mode
from referee.footprint import MemoryMeter
from referee.limits import MEMORY_LIMIT_BYTES, Limits
from referee.rules import Verdict
from tests.fakebots.procs import running_with_marker
from tests.test_containment import FAKEBOTS, MODES, SMALL_CAP, marker, play, python_bot

# Python bots that fill memory take a while on a busy machine: the time limits are not
# what these tests judge.
PATIENT = Limits(first_line_s=20.0, turn_s=5.0)
SHM = Path("/dev/shm")


@MODES
def test_a_hundred_small_children_are_counted_once_and_win(mode):
    # each child's pages are its parent's, shared copy-on-write: summed resident sizes
    # were 965 MB, over the real cap; proportional sizes are under 100 MB
    mark = marker()
    result, _ = play(python_bot("many_children.py", mark, 100), mode, limits=PATIENT)
    assert result.verdict is Verdict.WIN, result.reason
    assert result.usage.peak_rss_bytes < MEMORY_LIMIT_BYTES / 4
    assert running_with_marker(mark) == []


@MODES
def test_a_heap_shared_with_two_children_counts_once(mode):
    mark = marker()
    result, _ = play(python_bot("shared_heap.py", mark, 120, 2), mode, limits=PATIENT,
                     memory_limit_bytes=SMALL_CAP)
    assert result.verdict is Verdict.WIN, result.reason
    assert 120 * 2**20 < result.usage.peak_rss_bytes < SMALL_CAP


@MODES
@pytest.mark.parametrize("how", ["memfd", "shm", "shm-mapped"])
def test_shared_memory_held_out_of_page_tables_counts(mode, how):
    mark = marker()
    result, _ = play(python_bot("shm_hold.py", mark, 300, how), mode, limits=PATIENT,
                     memory_limit_bytes=SMALL_CAP)
    assert result.verdict is Verdict.MEMORY, result.reason
    assert result.reason.endswith("cap 200 MB")
    assert not (SHM / mark).exists()
    assert running_with_marker(mark) == []


@MODES
def test_a_shm_file_under_the_cap_is_counted_and_removed_after_a_win(mode):
    mark = marker()
    result, _ = play(python_bot("shm_hold.py", mark, 60, "shm"), mode, limits=PATIENT,
                     memory_limit_bytes=SMALL_CAP)
    assert result.verdict is Verdict.WIN, result.reason
    assert result.usage.peak_rss_bytes > 60 * 2**20
    assert not (SHM / mark).exists()


def test_a_shm_file_that_was_there_before_the_match_is_left_alone():
    mark = marker()
    other = SHM / f"{mark}-not-the-bots"
    other.write_bytes(b"kept")
    try:
        result, _ = play(python_bot("shm_hold.py", mark, 0, "shm-open", other.name), None,
                         limits=PATIENT)
        assert result.verdict is Verdict.WIN, result.reason
        assert other.read_bytes() == b"kept"
    finally:
        other.unlink(missing_ok=True)


def zombie_children() -> set[int]:
    """This process's children that are zombies (the referee, in-process, adopts orphans)."""
    return {pid for pid in proctree.children(os.getpid())
            if Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0] == "Z"}


@MODES
def test_a_child_that_outlived_the_bot_is_not_even_a_zombie_after_the_match(mode, tmp_path):
    pidfile = tmp_path / "pid"
    zombies = zombie_children()
    result, _ = play(python_bot("escape_and_win.py", pidfile), mode,
                     limits=Limits(first_line_s=10.0, turn_s=10.0))
    assert result.verdict is Verdict.WIN, result.reason
    if mode is not Mode.PIDNS:   # there the pid is the namespace's own
        assert not Path(f"/proc/{pidfile.read_text().split()[0]}").exists()
    assert zombie_children() <= zombies


@MODES
def test_many_children_killed_with_the_bot_are_all_reaped(mode):
    mark = marker()
    zombies = zombie_children()
    result, _ = play(python_bot("many_children.py", mark, 30), mode, limits=PATIENT)
    assert result.verdict is Verdict.WIN, result.reason
    assert zombie_children() <= zombies
    assert running_with_marker(mark) == []


def test_the_cgroup_count_is_memory_current_less_the_page_cache(tmp_path):
    # where the kernel counts (a cgroup v2 memory controller): files as the kernel shows them
    sandbox = CgroupSandbox.__new__(CgroupSandbox)
    sandbox.path = tmp_path
    (tmp_path / "memory.current").write_text("500000\n")
    (tmp_path / "memory.stat").write_text("anon 300000\nfile 250000\nshmem 50000\n")
    assert sandbox.limit_memory(768 * 2**20)
    assert (tmp_path / "memory.max").read_text() == f"{768 * 2**20}\n"
    assert (tmp_path / "memory.swap.max").read_text() == "0\n"
    assert sandbox.memory_used() == 500000 - 250000 + 50000   # page cache out, shm in


def test_without_a_memory_controller_the_runner_counts(tmp_path):
    sandbox = CgroupSandbox.__new__(CgroupSandbox)
    sandbox.path = tmp_path
    (tmp_path / "memory.max").mkdir()      # cannot be written, as where memory is not enabled
    assert not sandbox.limit_memory(768 * 2**20)
    assert sandbox.memory_used() is None


def test_only_the_files_a_bot_made_in_shm_are_removed(tmp_path):
    old = tmp_path / "there-before"
    old.write_bytes(b"x" * 8192)
    meter = MemoryMeter(str(tmp_path))
    new = tmp_path / "made-during"
    new.write_bytes(b"y" * 8192)
    with open(old, "rb"), open(new, "rb"):   # held open while measured
        found = meter.measure([os.getpid()])
    assert set(meter.held) == {str(old), str(new)}
    assert found.exact and found.total_bytes >= 2 * 8192
    assert meter.remove_left_files() == [str(new)]
    assert old.exists() and not new.exists()
