"""Two referees never put their bots under the same box user, whatever their TMPDIR: a
bot could otherwise signal or trace the other referee's bot (same uid, same host)."""

import json
import os
import re
import tempfile
from pathlib import Path

import pytest

from referee.box import bubblewrap
from referee.box.sandbox import Mode
from referee.box.runner import BotProcess
from tests.fakebots.procs import (SESSION_TMP, box_python, no_process_left_behind,  # noqa: F401
                                  referee, running_with_marker)
from tests.referee.test_containment import marker

ROOT = Path(__file__).parents[2]
ROOT_ONLY = pytest.mark.skipif(os.geteuid() != 0, reason="box users exist only under root")


@ROOT_ONLY
def test_slots_are_held_machine_wide_not_per_temporary_folder(tmp_path, monkeypatch):
    # held per folder, another referee's slots 0..first's would hold first's own number
    first = bubblewrap.Slot()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))   # another referee's TMPDIR
    others = [bubblewrap.Slot() for _ in range(first.number + 1)]
    try:
        assert first.uid not in [other.uid for other in others]
    finally:
        for slot in [first, *others]:
            slot.release()


@pytest.mark.slow
@ROOT_ONLY
def test_a_bot_of_another_referee_cannot_stop_this_ones(tmp_path):
    # this referee's TMPDIR is the system's; the other's (python -m referee) is SESSION_TMP
    mark = marker()
    victim = BotProcess([box_python(), str(ROOT / "tests" / "fakebots" / "silent.py"), mark],
                        mode=Mode.SUBREAPER, tmp_parent=SESSION_TMP)
    try:
        out = tmp_path / "run.json"
        done = referee("run", "--contain", "subreaper", "--json", str(out), "--bot",
                       f"{box_python()} tests/hostile/kill_referee.py {marker()}",
                       "puzzles/public/01_simplest.txt")
        match = json.loads(out.read_text())["matches"][0]
        assert f"as uid {victim.sandbox.uid}" not in match["box"]
        assert "stopped 0:" in match["stderr_tail"], match["stderr_tail"]
        assert re.search(r"kill\(-1, SIGSTOP\): (No such process|0 process)",
                         match["stderr_tail"]), match["stderr_tail"]
        states = [Path(f"/proc/{line.split(':')[0]}/stat").read_text().rpartition(")")[2].split()[0]
                  for line in running_with_marker(mark)]
        assert states and "T" not in states
    finally:
        victim.close()
