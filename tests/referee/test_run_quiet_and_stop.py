"""`run --quiet` gives one line per loss; Ctrl-C and SIGTERM print the matches played so
far, then exit 130 and 143."""

import os
import signal
import subprocess
import sys

import pytest

from tests.project import PUBLIC, ROOT
from tests.fakebots.procs import (SESSION_TMP, hear_ctrl_c, no_process_left_behind,  # noqa: F401
                                  referee)

FAKEBOTS = ROOT / "tests" / "fakebots"
SILENT = f"{sys.executable} {FAKEBOTS / 'silent.py'}"
PUZZLES = [str(PUBLIC / name) for name in ("01_simplest.txt", "03_simple.txt")]


@pytest.mark.slow
def test_quiet_prints_one_line_per_loss_and_no_board():
    bot = f"{sys.executable} {FAKEBOTS / 'replay.py'} {FAKEBOTS / 'lines' / 'not_a_link.txt'}"
    run = referee("run", "--bot", bot, "--quiet", *PUZZLES)
    assert run.returncode == 1, run.stderr
    assert run.stdout.splitlines() == [
        "LOST 01_simplest: not_a_link at line 1: (1,1) is not a node",
        "LOST 03_simple: not_a_link at line 1: (1,1) is not a node",
        "",
        "0 passed, 2 failed"]


def _stopped(sig: int, jobs: str) -> tuple[int, str, list[str]]:
    """Run the silent bot on the public tests, send `sig` once two matches are over:
    (exit status, stdout, progress lines)."""
    env = dict(os.environ, TMPDIR=SESSION_TMP, PYTHONPATH=str(ROOT))
    # each match lasts its first line's limit: long enough that a busy machine's signal
    # still comes before the last match is over
    proc = subprocess.Popen([sys.executable, "-m", "referee", "run", "--bot", SILENT,
                             "--first-line-ms", "400", "--jobs", jobs], cwd=ROOT, env=env,
                            preexec_fn=hear_ctrl_c,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    progress = []
    while len(progress) < 2:   # one progress line per match over
        progress.append(proc.stderr.readline())
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=60)
    return proc.returncode, out, progress + err.splitlines()


@pytest.mark.slow
@pytest.mark.parametrize("sig, status, jobs", [(signal.SIGINT, 130, "1"),
                                               (signal.SIGTERM, 143, "2")])
def test_a_stopped_run_prints_the_matches_played_then_exits_as_a_shell_says(sig, status, jobs):
    code, out, progress = _stopped(sig, jobs)
    assert code == status, out
    last = out.splitlines()[-1]
    played = int(last.split()[2])
    assert 2 <= played < 13 and last == (f"stopped after {played} of 13 match(es): 0 passed, "
                                         f"{played} failed")
    rows = [line.split()[:2] for line in out.splitlines() if line.startswith(("0", "1"))
            and "timeout" in line.split()[:2]]
    assert [name for name, _ in rows] == sorted(p.stem for p in PUBLIC.glob("*.txt"))[:played]
    assert out.count("LOST ") == played
