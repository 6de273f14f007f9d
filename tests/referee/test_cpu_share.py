"""Each match's share of the CPU (referee/box/cgroups.py): every match's cgroup has the same
weight and a cap (`run --cpu-cap`, CPU_CAP_CPUS by default), so no number of sessions,
threads or processes in one box takes time from another match; the referee's folder weighs
as many sessions as it holds matches; a box made ahead is idle until its match begins.
Without a cpu controller (an unprivileged run) the first line of a run says so.
"""

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from referee.box import cgroups
from referee.box.cgroups import V1_MOST_SHARES, MatchGroup, session_weight
from referee.box.runner import BotProcess
from referee.cli.main import main
from referee.judge.limits import CPU_CAP_CPUS
from tests.fakebots.procs import (SESSION_TMP, box_python, no_process_left_behind,  # noqa: F401
                                  referee)
from tests.hostile import kit
from tests.referee.test_memory import nobody_python

ROOT = Path(__file__).parents[2]
SIMPLEST = ROOT / "puzzles" / "public" / "01_simplest.txt"
SHARED = pytest.mark.skipif(not cgroups.shares_cpu(), reason="no cpu cgroup here (root, v1 "
                            "cpu or v2 with cpu delegated)")
FIRST_LINE = re.compile(r"referee run: \d+ match\(es\), containment \w+ \(.*\)")


@pytest.fixture(scope="module")
def built():
    return kit.build()


def fake_group(tmp_path, version, matches=1):
    """A match's group, and `matches - 1` others, under a referee's folder laid out as the
    kernel lays out its files."""
    controllers = ("unified",) if version == "v2" else ("memory", "cpu", "cpuacct")
    group = MatchGroup(version, {name: tmp_path / name / "match-1" for name in controllers})
    weight = "cpu.weight" if version == "v2" else "cpu.shares"
    for folder in group.folders.values():
        folder.mkdir(parents=True)
        (folder / weight).write_text("x\n")
    for k in range(2, matches + 1):
        (tmp_path / ("unified" if version == "v2" else "cpu") / f"match-{k}").mkdir()
    return group


def read(path: Path) -> str:
    return path.read_text().strip()


def test_a_v1_match_gets_a_sessions_weight_and_its_cap(tmp_path):
    group = fake_group(tmp_path, "v1")
    cpu = tmp_path / "cpu" / "match-1"
    assert group.share_cpu(1.0)
    assert read(cpu / "cpu.shares") == "1024"
    assert read(cpu / "cpu.cfs_period_us") == "10000"
    assert read(cpu / "cpu.cfs_quota_us") == "10000"      # one CPU: a period's worth
    assert read(cpu / "cpu.cfs_burst_us") == "10000"
    assert group.share_cpu(0.5) and read(cpu / "cpu.cfs_quota_us") == "5000"
    assert group.share_cpu(None) and read(cpu / "cpu.cfs_quota_us") == "-1"   # no cap
    assert read(cpu / "cpu.cfs_burst_us") == "0"


def test_a_v2_match_gets_the_same_in_v2s_units(tmp_path):
    group = fake_group(tmp_path, "v2")
    folder = tmp_path / "unified" / "match-1"
    assert group.share_cpu(2.0)
    assert read(folder / "cpu.weight") == "100"
    assert read(folder / "cpu.max") == "20000 10000"
    assert group.share_cpu(None) and read(folder / "cpu.max") == "max 10000"


def test_the_referees_folder_weighs_as_many_sessions_as_it_holds_matches(tmp_path, monkeypatch):
    monkeypatch.setattr(cgroups, "session_weight", lambda: 1024)   # a session of nice 0
    group = fake_group(tmp_path / "a", "v1", matches=3)
    group.share_cpu(CPU_CAP_CPUS)
    assert read(tmp_path / "a" / "cpu" / "cpu.shares") == "3072"
    group = fake_group(tmp_path / "b", "v2", matches=2)
    group.share_cpu(CPU_CAP_CPUS)
    assert read(tmp_path / "b" / "unified" / "cpu.weight") == "200"


def test_without_a_cpu_controller_nothing_is_shared(tmp_path):
    group = fake_group(tmp_path, "v1")
    del group.folders["cpu"]
    assert not group.share_cpu(1.0)
    group.idle_cpu(True)   # nothing to write, and no error
    assert not (tmp_path / "cpu" / "match-1" / "cpu.idle").exists()


@SHARED
def test_a_match_group_made_here_has_its_weight_and_the_default_cap():
    group = MatchGroup.open()
    try:
        cpu = group.folders["unified" if group.version == "v2" else "cpu"]
        if group.version == "v2":
            assert read(cpu / "cpu.weight") == "100"
            assert read(cpu / "cpu.max") == f"{round(CPU_CAP_CPUS * 10000)} 10000"
        else:
            assert read(cpu / "cpu.shares") == "1024"
            assert read(cpu / "cpu.cfs_quota_us") == str(round(CPU_CAP_CPUS * 10000))
            others = sum(1 for p in cpu.parent.iterdir() if p.is_dir())
            # the referee's folder: each match weighs the referee's own session
            assert read(cpu.parent / "cpu.shares") == str(min(V1_MOST_SHARES,
                                                               session_weight() * others))
    finally:
        group.remove()


@pytest.mark.slow
@SHARED
@pytest.mark.skipif(os.geteuid() != 0, reason="only root makes a box at idle priority")
def test_a_box_made_ahead_is_idle_until_its_match_begins(built):
    bot = BotProcess([built["busy_then_solve"], "10"], tmp_parent=SESSION_TMP, held=True,
                     idle=True)
    with bot:
        idle = bot.sandbox.group.folders["unified" if bot.sandbox.group.version == "v2"
                                         else "cpu"] / "cpu.idle"
        assert read(idle) == "1"   # a SCHED_IDLE task alone would still weigh a match's share
        bot.begin()
        assert read(idle) == "0"


@pytest.mark.slow
@SHARED
def test_the_cap_holds_a_match_to_its_cpus(built):
    # 50 spinners for the first-line limit: at most 0.3 CPU of its time, a period's burst
    # beside; uncapped on this 2-core machine they took up to 2 CPUs
    out = Path(SESSION_TMP) / f"cap-{os.getpid()}.json"
    done = referee("run", "--no-record", "--cpu-cap", "0.3", "--first-line-ms", "1000",
                   "--bot", f"{built['session_spinners']} 50", "--json", str(out), str(SIMPLEST))
    assert out.exists(), done.stderr
    match = json.loads(out.read_text())["matches"][0]
    assert match["verdict"] == "timeout", match["reason"]
    assert match["cpu_ms"] <= 0.3 * 1100 + 20, match


@pytest.mark.slow
@SHARED
def test_an_honest_bot_wins_beside_a_saboteur_of_900_sessions(built, tmp_path):
    # A forks 900 children, each in a session of its own, all spinning; B sleeps 500 ms,
    # so that A is in full swing, then needs 150 ms of CPU. Without a share per match each
    # of A's sessions weighed as much as B: B lost 4/8 under this limit, with 5 to 87 ms
    # of CPU in its 3 s. A first-line limit of 3 s, not 1: this machine is shared, and at
    # a load average of 220 B alone got as little as 100 ms of CPU in 2 s.
    for k in range(8):
        shutil.copy(SIMPLEST, tmp_path / f"simplest_{k}.txt")
    out = tmp_path / "run.json"
    done = referee("run", "--no-record", "--jobs", "2", "--first-line-ms", "3000",
                   "--bot", f"{built['session_spinners']} 900",
                   "--bot", f"{built['busy_then_solve']} 150 500", "--json", str(out),
                   str(tmp_path), timeout=300)
    assert out.exists(), done.stderr
    first = done.stdout.splitlines()[0]
    assert FIRST_LINE.fullmatch(first) and len(first) < 100, first
    assert first.endswith(", CPU shared)"), first
    data = json.loads(out.read_text())
    assert (data["limits"]["cpu_shared"], data["limits"]["cpu_cap"]) == (True, CPU_CAP_CPUS)
    matches = data["matches"]
    b = [m for m in matches if m["bot"] == "B"]
    assert [m["verdict"] for m in b] == ["win"] * 8, [m["reason"] for m in b]
    # the saboteur was there: at a load average of 690 one A of 8 had not made its 900
    # sessions within its 3 s
    spun = sum("900 session(s) spinning" in m["stderr_tail"] for m in matches if m["bot"] == "A")
    assert spun >= 6, spun


@pytest.mark.slow
def test_an_unprivileged_run_says_on_its_first_line_that_cpu_is_not_shared(built):
    env = dict(os.environ, TMPDIR=SESSION_TMP, HOME=SESSION_TMP)
    done = subprocess.run([*nobody_python(), "-m", "referee", "run", "--no-record", "--bot",
                           f"{built['busy_then_solve']} 10", str(SIMPLEST)], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=120)
    first = done.stdout.splitlines()[0]
    assert FIRST_LINE.fullmatch(first) and len(first) < 100, first
    assert first.endswith("; memory sampled, CPU not shared)"), first


@pytest.mark.parametrize("cap, why", [("0", "must be at least 0.1 and at most 1024, got 0"),
                                      ("x", "not a number: 'x'")])
def test_the_cap_is_a_number_of_cpus_or_none(capsys, cap, why):
    try:
        status = main(["run", "--bot", "no-such-program-xyz", "--cpu-cap", cap])
    except SystemExit as stopped:
        status = stopped.code
    assert status == 2
    assert capsys.readouterr().err == f"python -m referee run: error: argument --cpu-cap: {why}\n"
