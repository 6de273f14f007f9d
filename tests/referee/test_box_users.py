"""Two referees never put their bots under the same box user, whatever their TMPDIR: a
bot could otherwise signal or trace the other referee's bot (same uid, same host). What of
the bot's files its box user may not read is copied for that user alone."""

import json
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from referee.box import bubblewrap, leftovers
from referee.box.sandbox import Mode
from referee.box.runner import BotProcess
from referee.judge.match import play_match
from referee.judge.rules import Verdict
from tests.fakebots.procs import (SESSION_TMP, box_python, no_process_left_behind,  # noqa: F401
                                  reachable_file, referee, running_with_marker)
from tests.referee.test_containment import BOXED, EASY, PEEK, SIMPLEST, marker

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
    victim = BotProcess([box_python(), reachable_file(ROOT / "tests/fakebots/silent.py"), mark],
                        mode=Mode.SUBREAPER, tmp_parent=SESSION_TMP)
    try:
        out = tmp_path / "run.json"
        done = referee("run", "--contain", "subreaper", "--json", str(out), "--bot",
                       f"{box_python()} {reachable_file(ROOT / 'tests/hostile/kill_referee.py')} "
                       f"{marker()}",
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


def stage_files() -> list[Path]:
    """The files of this process's copies for box users (referee-stage-*)."""
    prefix = Path(leftovers.own_prefix("referee-stage-"))
    top = Path(tempfile.gettempdir())
    return [Path(root) / name for stage in top.glob(prefix.name + "*")
            for root, _, names in os.walk(stage) for name in names]


def read_as_nobody(path: Path) -> bool:
    done = subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                           "cat", str(path)], capture_output=True)
    return done.returncode == 0


@pytest.mark.slow
@BOXED
@ROOT_ONLY
def test_a_closed_bot_folder_is_copied_for_its_box_user_alone():
    # before, the copy was opened to every user (folders 755, files 644) for the match
    folder = Path(tempfile.mkdtemp(prefix="referee-closed-"))   # 700, root's
    try:
        shutil.copy(PEEK, folder / "bot.py")
        (folder / ".ssh").mkdir(mode=0o700)
        weights = folder / "weights.txt"
        for path in (weights, folder / ".ssh" / "id_ed25519"):
            path.write_bytes(b"secret\n")
        for path in (weights, folder / ".ssh" / "id_ed25519", folder / "bot.py"):
            os.chmod(path, 0o600)
        bot = BotProcess([box_python(), str(folder / "bot.py"), f"read:{weights}",
                          f"write:{weights}"], mode=Mode.BWRAP, tmp_parent=SESSION_TMP)
        try:
            copies = stage_files()
            readable = [path for path in copies if read_as_nobody(path)]
            result = play_match(SIMPLEST, bot, EASY)
        finally:
            bot.close()
        assert weights.read_bytes() == b"secret\n"
    finally:
        shutil.rmtree(folder)
    assert len(copies) == 3 and readable == [], (copies, readable)
    said = result.usage.stderr_tail
    assert f"read {weights}: DONE 7 characters" in said, said   # the bot's own, in its box
    assert f"write {weights}: Read-only file system" in said, said
    assert result.verdict is Verdict.WIN, result.reason
    assert stage_files() == []   # removed with the match
