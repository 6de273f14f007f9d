"""The memory cap counts what the bot's processes use, every page once, in each containment
mode the machine offers: many small forked children and a heap shared copy-on-write stay
under it; memory held in a memfd or a /dev/shm file counts; so do the kernel's queues
(pipes, loopback TCP and UDP: cgroup v1 counts sockets apart and refuses past its limit
rather than kill, so the referee reads that counter too); the /dev/shm files the bot
made are gone after its match, and no process of the bot is left, not even a zombie.
"""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from referee.box import proctree
from referee.box.cgroups import MatchGroup
from referee.box.sandbox import Mode
from referee.box.footprint import MemoryMeter
from referee.judge.limits import MEMORY_LIMIT_BYTES, Limits
from referee.judge.rules import Verdict
from tests.fakebots.procs import SESSION_TMP, running_with_marker
from tests.hostile import cases, kit
from tests.referee.test_containment import FAKEBOTS, MODES, SMALL_CAP, marker, play, python_bot

# Python bots that fill memory take a while on a busy machine: the time limits are not
# what these tests judge.
PATIENT = Limits(first_line_s=20.0, turn_s=5.0)
SHM = Path("/dev/shm")
ROOT = Path(__file__).parents[2]
MB = 2**20
REASONS = {   # a queue's verdict: the kernel kills at the cap, or refuses socket memory
    "pipe buffers": r"memory: \d+ process\(es\) killed by the kernel, cap 100 MB",
    "loopback TCP buffers": r"memory: (\d+ MB counted by the kernel, \d+ MB of it socket "
                            r"buffers|socket buffers refused by the kernel at \d+ MB), cap 200 MB",
}
REASONS["loopback UDP buffers"] = REASONS["loopback TCP buffers"]


@pytest.fixture(scope="module")
def built():
    return kit.build()


@pytest.mark.slow
@MODES
def test_a_hundred_small_children_are_counted_once_and_win(mode):
    # each child's pages are its parent's, shared copy-on-write: summed resident sizes
    # were 965 MB, over the real cap; proportional sizes are under 100 MB
    mark = marker()
    result, _ = play(python_bot("many_children.py", mark, 100), mode, limits=PATIENT)
    assert result.verdict is Verdict.WIN, result.reason
    assert result.usage.peak_rss_bytes < MEMORY_LIMIT_BYTES / 4
    assert running_with_marker(mark) == []


@pytest.mark.slow
@MODES
def test_a_heap_shared_with_two_children_counts_once(mode):
    mark = marker()
    result, _ = play(python_bot("shared_heap.py", mark, 120, 2), mode, limits=PATIENT,
                     memory_limit_bytes=SMALL_CAP)
    assert result.verdict is Verdict.WIN, result.reason
    assert 120 * 2**20 < result.usage.peak_rss_bytes < SMALL_CAP


@pytest.mark.slow
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


@pytest.mark.slow
@MODES
def test_a_shm_file_under_the_cap_is_counted_and_removed_after_a_win(mode):
    mark = marker()
    result, _ = play(python_bot("shm_hold.py", mark, 60, "shm"), mode, limits=PATIENT,
                     memory_limit_bytes=SMALL_CAP)
    assert result.verdict is Verdict.WIN, result.reason
    assert result.usage.peak_rss_bytes > 60 * 2**20
    assert not (SHM / mark).exists()


@pytest.mark.slow
def test_a_shm_file_that_was_there_before_the_match_is_left_alone():
    mark = marker()
    other = SHM / f"{mark}-not-the-bots"
    other.write_bytes(b"kept")
    other.chmod(0o666)   # the bot runs as a box user
    try:
        result, _ = play(python_bot("shm_hold.py", mark, 0, "shm-open", other.name),
                         Mode.SUBREAPER, limits=PATIENT)   # unboxed: the host's /dev/shm
        assert result.verdict is Verdict.WIN, result.reason
        assert other.read_bytes() == b"kept"
    finally:
        other.unlink(missing_ok=True)


def zombie_children() -> set[int]:
    """This process's children that are zombies (the referee, in-process, adopts orphans)."""
    return {pid for pid in proctree.children(os.getpid())
            if Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0] == "Z"}


@pytest.mark.slow
@MODES
def test_a_child_that_outlived_the_bot_is_not_even_a_zombie_after_the_match(mode, tmp_path):
    pidfile = Path(SESSION_TMP) / marker()   # a box user may write there, unboxed
    zombies = zombie_children()
    result, _ = play(python_bot("escape_and_win.py", pidfile), mode,
                     limits=Limits(first_line_s=10.0, turn_s=10.0))
    assert result.verdict is (Verdict.CRASH if mode is Mode.BWRAP else Verdict.WIN), result.reason
    if mode is Mode.SUBREAPER:   # elsewhere the pid is the namespace's own
        assert not Path(f"/proc/{pidfile.read_text().split()[0]}").exists()
    assert zombie_children() <= zombies


@pytest.mark.slow
@MODES
def test_many_children_killed_with_the_bot_are_all_reaped(mode):
    mark = marker()
    zombies = zombie_children()
    result, _ = play(python_bot("many_children.py", mark, 30), mode, limits=PATIENT)
    assert result.verdict is Verdict.WIN, result.reason
    assert zombie_children() <= zombies
    assert running_with_marker(mark) == []


def fake_group(tmp_path, version):
    """A match's group over folders laid out as the kernel lays out its files."""
    names = ("unified",) if version == "v2" else ("memory", "pids", "cpuacct")
    group = MatchGroup(version, {name: tmp_path / name for name in names})
    for folder in group.folders.values():
        folder.mkdir(parents=True)
    return group


def test_a_v2_group_caps_memory_and_processes_and_reads_the_kernels_figures(tmp_path):
    group = fake_group(tmp_path, "v2")
    folder = tmp_path / "unified"
    assert group.limit(768 * 2**20, pids=64)
    assert (folder / "memory.max").read_text() == f"{768 * 2**20}\n"
    assert (folder / "memory.swap.max").read_text() == "0\n"   # swapped pages count too
    assert (folder / "pids.max").read_text() == "64\n"
    (folder / "memory.peak").write_text("5000000\n")
    (folder / "memory.current").write_text("4000000\n")
    (folder / "memory.events").write_text("low 0\nhigh 0\nmax 3\noom 1\noom_kill 2\n")
    (folder / "cpu.stat").write_text("usage_usec 250000\nuser_usec 200000\n")
    assert group.memory_peak() == 5000000
    assert group.oom_kills() == 2
    assert group.cpu_seconds() == 0.25


def test_a_v2_group_without_memory_peak_shows_the_highest_count_seen(tmp_path):
    group = fake_group(tmp_path, "v2")
    current = tmp_path / "unified" / "memory.current"
    for value in (3000, 9000, 4000):
        current.write_text(f"{value}\n")
        group.memory_now()
    assert group.memory_peak() == 9000


def test_a_v1_group_uses_the_v1_files(tmp_path):
    group = fake_group(tmp_path, "v1")
    memory = tmp_path / "memory"
    assert group.limit(200 * 2**20, pids=32)
    assert (memory / "memory.limit_in_bytes").read_text() == f"{200 * 2**20}\n"
    assert (tmp_path / "pids" / "pids.max").read_text() == "32\n"
    (memory / "memory.max_usage_in_bytes").write_text("7000000\n")
    (memory / "memory.usage_in_bytes").write_text("6000000\n")
    (memory / "memory.oom_control").write_text("oom_kill_disable 0\nunder_oom 0\noom_kill 1\n")
    (tmp_path / "cpuacct" / "cpuacct.usage").write_text("1500000000\n")
    assert group.memory_peak() == 7000000
    assert group.oom_kills() == 1
    assert group.cpu_seconds() == 1.5


def test_without_a_memory_controller_the_runner_samples(tmp_path):
    group = fake_group(tmp_path, "v2")
    (tmp_path / "unified" / "memory.max").mkdir()   # cannot be written: memory not enabled
    assert not group.limit(768 * 2**20)


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


@pytest.mark.slow
@MODES
@pytest.mark.parametrize("case", list(cases.QUEUE_CASES))
def test_memory_held_in_the_kernels_queues_is_counted_to_the_cap(case, mode, built):
    # each bot tries 1 GB; before sockets were counted under v1, a loopback bot won with
    # 1 GB held and a peak of a few MB
    mark, cap = marker(), cases.QUEUE_CASES[case][0]
    result, _ = play(cases.argv(case, built, mark, None), mode, limits=PATIENT,
                     memory_limit_bytes=cap)
    said = result.usage.stderr_tail
    assert result.verdict is Verdict.MEMORY, (result.reason, said)
    assert re.fullmatch(REASONS[case], result.reason), result.reason
    assert result.usage.peak_rss_bytes >= cap - MB, said     # the peak shows what was held
    assert kit.leftovers(mark) == []


@pytest.mark.slow
@MODES
@pytest.mark.parametrize("kind", ["tcp", "udp"])
def test_socket_buffers_under_the_cap_are_in_the_peak(kind, mode, built):
    mark = marker()
    result, _ = play([built["loopback_buffers"], kind, "60", mark], mode, limits=PATIENT,
                     memory_limit_bytes=SMALL_CAP)
    said = result.usage.stderr_tail
    assert result.verdict is Verdict.WIN, (result.reason, said)
    held = int(re.search(r"(\d+) MB held in", said).group(1))
    assert held >= 60, said
    assert result.usage.peak_rss_bytes >= held * MB, said


def v1_sockets(tmp_path, usage, peak, failcnt=0):
    """A v1 group whose socket counter (memory.kmem.tcp.*) shows these figures."""
    group = fake_group(tmp_path, "v1")
    memory = tmp_path / "memory"
    for name, value in (("usage_in_bytes", usage), ("max_usage_in_bytes", peak),
                        ("failcnt", failcnt)):
        (memory / f"memory.kmem.tcp.{name}").write_text(f"{value}\n")
    (memory / "memory.usage_in_bytes").write_text(f"{5 * MB}\n")
    (memory / "memory.max_usage_in_bytes").write_text(f"{6 * MB}\n")
    return group


def test_a_v1_group_caps_socket_buffers_at_the_memory_cap(tmp_path):
    group = fake_group(tmp_path, "v1")
    assert group.limit(200 * MB)
    assert (tmp_path / "memory" / "memory.kmem.tcp.limit_in_bytes").read_text() == \
        f"{200 * MB}\n"


def test_a_v1_count_adds_the_socket_counter_and_its_peak(tmp_path):
    group = v1_sockets(tmp_path, usage=40 * MB, peak=90 * MB)
    assert group.memory_now() == 45 * MB
    assert group.memory_peak() == 90 * MB          # the socket counter's own high-water mark
    (tmp_path / "memory" / "memory.kmem.tcp.max_usage_in_bytes").write_text("0\n")
    assert group.memory_peak() == 45 * MB          # else the highest sum seen


def test_a_v1_count_past_the_cap_is_over_it_and_says_how_much_is_sockets(tmp_path):
    group = v1_sockets(tmp_path, usage=196 * MB, peak=196 * MB)
    assert group.over_cap(200 * MB) == ("memory: 201 MB counted by the kernel, 196 MB of it "
                                        "socket buffers, cap 200 MB")
    assert group.over_cap(None) is None


def test_socket_memory_refused_at_the_v1_limit_is_over_the_cap(tmp_path):
    # the bot holds less now, but the kernel refused it socket memory at the limit
    refused = "memory: socket buffers refused by the kernel at 200 MB, cap 200 MB"
    assert v1_sockets(tmp_path / "a", usage=MB, peak=200 * MB).over_cap(200 * MB) == refused
    failed = v1_sockets(tmp_path / "b", usage=MB, peak=150 * MB, failcnt=3)   # older kernels
    assert failed.over_cap(200 * MB).startswith("memory: socket buffers refused")
    assert v1_sockets(tmp_path / "c", usage=MB, peak=150 * MB).over_cap(200 * MB) is None


def test_a_v2_count_holds_socket_buffers_and_past_the_cap_is_over_it(tmp_path):
    group = fake_group(tmp_path, "v2")
    folder = tmp_path / "unified"
    (folder / "memory.current").write_text(f"{210 * MB}\n")
    (folder / "memory.stat").write_text(f"anon {4 * MB}\nfile 0\nsock {206 * MB}\n")
    assert group.over_cap(200 * MB) == ("memory: 210 MB counted by the kernel, 206 MB of it "
                                        "socket buffers, cap 200 MB")
    (folder / "memory.current").write_text(f"{199 * MB}\n")
    assert group.over_cap(200 * MB) is None


def nobody_python() -> list[str]:
    """The command prefix that runs this checkout's referee as user nobody, or skip."""
    if os.geteuid() != 0 or shutil.which("setpriv") is None:
        pytest.skip("needs root and setpriv to run the referee as another user")
    prefix = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]
    for python in ("/usr/bin/python3", sys.executable):   # this one may live under /root
        probe = subprocess.run([*prefix, python, "-c", "import referee"], cwd=ROOT,
                               capture_output=True)
        if probe.returncode == 0:
            return [*prefix, python]
    pytest.skip("no Python and checkout that user nobody can read")


SAMPLED_MATCH = """
import sys
from referee.box.runner import BotProcess
from referee.judge.board import load_board
from referee.judge.limits import Limits
from referee.judge.match import play_match
bot = BotProcess(sys.argv[1:], memory_limit_bytes=200 * 2**20)
result = play_match(load_board("puzzles/public/01_simplest.txt"), bot, Limits(20.0, 5.0))
print(result.verdict.value, result.usage.memory_count, result.usage.peak_rss_bytes)
"""


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["tcp", "udp"])
def test_without_a_cgroup_socket_buffers_are_not_seen(kind, built):
    # run by an ordinary user there is no cgroup: memory is sampled from the bot's
    # processes, and what the kernel holds in its queues is no process's
    env = dict(os.environ, TMPDIR=SESSION_TMP, HOME=SESSION_TMP)
    done = subprocess.run([*nobody_python(), "-c", SAMPLED_MATCH, built["loopback_buffers"],
                           kind, "300"], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    verdict, count, peak = done.stdout.split()
    assert (verdict, count) == ("win", "sampled"), done.stderr
    assert int(peak) < 100 * MB
