"""The hostile kit (tests/hostile/): real bots in C and Python that attack the referee's
containment, each played in every mode the machine offers. Each test asserts that the
attack did nothing on the host (what the bot says it managed, on its stderr, and what the
test sees), that the bot did not win by it, and that nothing of the match is left.

Memory bots try about 1 GB against a 200 MB cap and fill before their first line: a
generous first-line limit, so that a busy machine cannot turn their verdict into a timeout.
"""

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from referee.box.sandbox import Mode
from referee.judge.limits import Limits
from referee.judge.rules import Verdict
from tests.fakebots.procs import (SESSION_TMP, box_python, no_process_left_behind,  # noqa: F401
                                  reachable_file, referee, running_with_marker,
                                  wait_until_none_running)
from tests.hostile import cases, kit
from tests.referee.test_containment import MODES, marker, play

FILLING = Limits(first_line_s=30.0, turn_s=10.0)
SHORT = Limits(first_line_s=10.0, turn_s=2.0)     # for bots that hang after a line
ROOT = Path(__file__).parents[2]
MEMORY_CASES = [case for case, (cap, _) in cases.CASES.items() if cap]


@pytest.fixture(scope="module")
def built():
    return kit.build()


@pytest.fixture(scope="module")
def context():
    server = cases.listener()
    yield cases.Context(cases.host_file(), server.getsockname()[1], cases.setuid_copy_of_id())
    server.close()


def hostile(case, mode, built, context, limits=SHORT):
    """Play one match of a kit's case; (result, its stderr). Asserts nothing is left."""
    mark, folders = marker(), set(kit.match_folders())
    cap = cases.CASES[case][0]
    kwargs = {"memory_limit_bytes": cap} if cap else {}
    result, _ = play(cases.argv(case, built, mark, context), mode, limits=limits, **kwargs)
    assert kit.leftovers(mark) == []
    assert set(kit.match_folders()) <= folders   # none of this run's
    return result, result.usage.stderr_tail


@pytest.mark.slow
@MODES
@pytest.mark.parametrize("case", MEMORY_CASES)
def test_memory_out_of_sight_of_page_tables_is_capped_by_the_kernel(case, mode, built, context):
    result, said = hostile(case, mode, built, context, limits=FILLING)
    cap = cases.CASES[case][0]
    assert result.usage.peak_rss_bytes <= cap, said          # a peak never over the cap
    if case == "TMPDIR file, closed" and mode is not Mode.BWRAP:
        # unboxed, TMPDIR is a folder on the host's disk: page cache the kernel reclaims,
        # not memory held (a busy disk may make it a timeout); the file goes with the match
        assert result.verdict in (Verdict.MEMORY, Verdict.WIN, Verdict.TIMEOUT), result.reason
        assert not any(name.startswith("referee-bot-") for name in os.listdir(SESSION_TMP))
        return
    assert result.verdict is Verdict.MEMORY, (result.reason, said)
    assert re.fullmatch(r"memory: \d+ process\(es\) killed by the kernel, cap 200 MB",
                        result.reason), result.reason


@pytest.mark.slow
@MODES
def test_a_system_v_segment_left_without_rmid_is_gone_after_the_match(mode, built, context):
    # a segment under the cap, the bot exits after its solution: a win, and no segment
    mark = marker()
    result, _ = play([built["sysv_segment"], "50", str(kit.sysv_key(mark)), mark], mode)
    assert result.verdict is Verdict.WIN, result.reason
    assert "sysv: 50 MB held, detached" in result.usage.stderr_tail
    assert result.usage.peak_rss_bytes >= 50 * 2**20          # the segment was counted
    key = f"{kit.sysv_key(mark):d}"
    assert [obj for obj in kit.sysv_objects(0) if obj.split()[2] == key] == []
    assert kit.leftovers(mark) == []


@MODES
def test_the_bot_reads_no_secret_and_leaves_a_host_file_intact(mode, built, context):
    result, said = hostile("read /etc/shadow, write a host file", mode, built, context)
    # a box shows no /etc/shadow at all; unboxed, the box user may not read it
    assert f"shadow: {'No such file or directory' if mode is Mode.BWRAP else 'Permission denied'}" in said
    assert "DONE" not in said, said
    for attempt in ("unlink", "overwrite", "chmod", "rename"):
        assert re.search(rf"^{attempt}: (Permission denied|Operation not permitted|"
                         rf"Read-only file system)$", said, re.M), said
    with open(context.host_file) as file:
        assert file.read() == "the host's\n"
    assert os.stat(context.host_file).st_mode & 0o7777 == 0o644
    assert result.verdict is Verdict.WIN   # it played on: the referee judged it as any bot


def test_the_boxed_bot_has_no_network(built, context):
    server = cases.listener()
    context = cases.Context(context.host_file, server.getsockname()[1], context.setuid_id)
    with server:
        result, said = hostile("TCP to the host's loopback", Mode.BWRAP, built, context)
        assert "network: " in said and "CONNECTED" not in said, said
        assert cases.accepted(server) == []


@pytest.mark.slow
@MODES
def test_the_bot_cannot_leave_its_match_cgroup_and_dies_with_the_match(mode, built, context):
    result, said = hostile("move to the root cgroup", mode, built, context)
    assert "MOVED" not in said, said
    # a box shows no /sys at all; unboxed, the box user may not write there
    denied = ("No such file or directory" if mode is Mode.BWRAP
              else "(Permission denied|Read-only file system)")
    assert re.search(rf"cgroup: /sys/fs/cgroup/memory/cgroup.procs: {denied}", said), said
    assert result.verdict is Verdict.TIMEOUT, result.reason


@pytest.mark.slow
@MODES
def test_the_bot_never_becomes_root(mode, built, context):
    result, said = hostile("setuid(0), setuid-root id, su", mode, built, context)
    assert "root: setuid(0): Operation not permitted" in said, said
    uid = kit.box_uid(result.usage.box)
    assert f"root: running as uid {uid}, euid {uid}" in said, said
    printed = re.search(r"root: `\S+/id` printed (.*)", said).group(1)
    assert printed.startswith(f"uid={uid}") and "euid" not in printed, said   # nosuid
    su = re.search(r"root: `su .*` printed (.*)", said).group(1)
    assert su.strip() != "0", said


@pytest.mark.slow
@MODES
def test_the_bot_can_neither_trace_nor_stop_the_referee(mode, built, context):
    result, said = hostile("ptrace/SIGSTOP the referee and all", mode, built, context)
    assert "ATTACHED" not in said and "SIGSTOP STOPPED" not in said, said
    assert re.search(r"visible: \d+ other process\(es\), stopped 0:", said), said
    assert re.search(r"kill\(-1, SIGSTOP\): (No such process|0 process)", said), said
    assert result.verdict is Verdict.WIN, result.reason   # the referee judged on


@pytest.mark.slow
@MODES
def test_a_fork_bomb_is_bounded_and_ends_with_its_match(mode, built, context):
    result, said = hostile("fork bomb", mode, built, context)
    assert result.verdict is Verdict.TIMEOUT, result.reason
    assert "fork bomb: fork: Resource temporarily unavailable" in said   # pids.max


@pytest.mark.slow
@MODES
def test_a_saboteur_leaves_no_process_and_cannot_touch_the_other_bot(mode, tmp_path):
    # B, the project's solver, runs while A's matches and the process A leaves behind
    # hunt it: two jobs, so that A's and B's matches overlap
    a_mark, b_mark, folders = marker(), marker(), set(kit.match_folders())
    saboteur = reachable_file(ROOT / "tests/hostile/saboteur.py")
    a = f"{box_python()} {saboteur} {b_mark[::-1]} {a_mark} 8"
    b = f"{box_python()} {reachable_file(ROOT / 'dist/bot.py')} {b_mark}"
    out = tmp_path / "run.json"
    puzzles = [f"puzzles/public/{n}.txt" for n in ("01_simplest", "02_simpler", "03_simple",
                                                   "04_basic")]
    done = referee("run", "--contain", mode.value, "--jobs", "2", "--first-line-ms", "15000",
                   "--turn-ms", "2000", "--bot", a, "--bot", b, "--json", str(out), *puzzles,
                   timeout=300)
    assert out.exists(), done.stderr
    matches = json.loads(out.read_text())["matches"]
    assert [m["verdict"] for m in matches if m["bot"] == "B"] == ["win"] * len(puzzles)
    a_matches = [m for m in matches if m["bot"] == "A"]
    assert [m["verdict"] for m in a_matches] == ["timeout"] * len(puzzles), done.stdout
    for match in a_matches:
        assert "saboteur: hit 0 process(es) of B" in match["stderr_tail"], match["stderr_tail"]
    assert kit.leftovers(a_mark) == [] and kit.leftovers(b_mark) == []
    assert set(kit.match_folders()) <= folders


@pytest.fixture(scope="module")
def cpp_solver(built):
    """tests/bots' C++ solver, built beside the kit, where every box user may run it."""
    folder = os.path.dirname(built["fork_bomb"])
    binary = os.path.join(folder, "hashi")
    done = subprocess.run(["g++", "-O2", "-o", binary, str(ROOT / "tests/bots/cpp/hashi.cpp")],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return binary


@pytest.mark.slow
@MODES
def test_honest_bots_still_win_in_every_mode(mode, cpp_solver, tmp_path):
    # the project's solver, and tests/bots' C++ and JavaScript ones (test_languages plays
    # them, and Java, on all 13 public tests in the default mode); generous limits: the
    # box is on trial here, not the machine's load
    bots = [f"{box_python()} {reachable_file(ROOT / 'dist/bot.py')}", cpp_solver]
    if shutil.which("node"):
        bots.append(f"node {reachable_file(ROOT / 'tests/bots/js/hashi.js')}")
    puzzles = ["puzzles/public/03_simple.txt", "puzzles/public/08_advanced.txt"]
    folders = set(kit.match_folders())
    for bot in bots:
        out = tmp_path / "run.json"
        done = referee("run", "--contain", mode.value, "--bot", bot, "--json", str(out),
                       "--first-line-ms", "10000", "--turn-ms", "2000", *puzzles)
        assert out.exists(), done.stderr
        verdicts = [m["verdict"] for m in json.loads(out.read_text())["matches"]]
        assert verdicts == ["win"] * len(puzzles), (bot, done.stdout)
    assert set(kit.match_folders()) <= folders
