"""The profile command end to end: phases, modules, top functions and counters are printed."""

import pytest

from tests.project import PUBLIC, run_referee


def profile(*args):
    return run_referee("profile", *args)


@pytest.mark.slow
def test_profile_expert_prints_every_section():
    result = profile(str(PUBLIC / "13_expert.txt"), "--repeat", "2", "--top", "5")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "23x23, 87 nodes" in out
    for phase in ("parse", "grid set-up", "rules", "node search", "search that learns", "output"):
        assert f"  {phase} " in out
    assert "bot/puzzle.py" in out and "bot/rules/nodes.py" in out
    assert "top 5 functions by own time" in out
    assert "counters: rounds" in out and "max_depth" in out
    assert "answer: win" in out


@pytest.mark.slow
def test_profile_count_solutions():
    result = profile(str(PUBLIC / "09_multiple_solutions_1.txt"), "--what", "count",
                     "--repeat", "1")
    assert result.returncode == 0, result.stderr
    assert "solutions: 2 or more" in result.stdout


@pytest.mark.slow
def test_profile_exit_codes(tmp_path):
    impossible = tmp_path / "impossible.txt"
    impossible.write_text("3\n1\n1.2\n")
    assert profile(str(impossible), "--repeat", "1").returncode == 1
    malformed = tmp_path / "bad.txt"
    malformed.write_text("3\n1\n1x2\n")
    bad = profile(str(malformed))
    assert bad.returncode == 2 and "bad.txt" in bad.stderr
    assert profile(str(tmp_path / "missing.txt")).returncode == 2


@pytest.mark.slow
def test_profile_count_exits_1_when_there_is_no_solution(tmp_path):
    impossible = tmp_path / "impossible.txt"
    impossible.write_text("3\n1\n1.2\n")
    result = profile(str(impossible), "--what", "count", "--repeat", "1", "--top", "0")
    assert result.returncode == 1, result.stderr
    assert "solutions: 0\n" in result.stdout
    one = profile(str(PUBLIC / "02_simpler.txt"), "--what", "count", "--repeat", "1", "--top", "0")
    assert one.returncode == 0 and "solutions: 1\n" in one.stdout, one.stderr
