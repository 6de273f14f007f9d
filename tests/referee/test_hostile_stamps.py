"""The hostile kit against the time of a line, the referee's own pipes and what the kernel
keeps: a late answer under an early stamp (splice_stamp), a bot that holds its stderr
pipe's lock for good (stderr_lock), garbage on every descriptor a bot may have inherited
(fd_garbage), keys left in the kernel's keyrings (keys). Each is played in every mode the
machine offers, under CodinGame's limits; each test asserts the verdict, and that nothing
of the match is left.

A referee that read a bot's pipe itself could wait in the kernel for ever: the matches
that could hang are played in a `run` process of their own, under a timeout, and a bot
left running is killed by its marker.
"""

import json
import os
import subprocess
import time

import pytest

from referee.box import bubblewrap, keyrings, seccomp
from referee.box.runner import Enclosure
from referee.box.sandbox import Mode
from referee.judge.limits import Limits
from referee.judge.rules import Verdict
from tests.fakebots.procs import SESSION_TMP, box_python, no_process_left_behind  # noqa: F401
from tests.hostile import kit, stop_time
from tests.referee.test_containment import MODES, available_modes, marker, play
from tests.project import ROOT

CODINGAME = Limits()
RUN_TIMEOUT_S = 60
STOP_S = 1.0   # Ctrl-C ends a run within this, whatever its bots do

root_only = pytest.mark.skipif(os.geteuid() != 0, reason="box users need root")


@pytest.fixture(scope="module")
def built():
    return kit.build()


def assert_nothing_left(mark: str, folders: set) -> None:
    """No process of the marked bot, and no match folder but those there before."""
    assert kit.leftovers(mark) == []
    assert set(kit.match_folders()) <= folders


@pytest.mark.slow
@MODES
def test_a_late_answer_under_an_early_stamp_loses_on_time(mode, built):
    # The bot wins its race to the pipe's lock most times (5 in 6 against a stamper that
    # stamped before read() returned, where it won with a first line at 8-54 ms): 3 tries.
    for _ in range(3):
        mark, folders = marker(), set(kit.match_folders())
        result, _ = play([built["splice_stamp"], mark], mode, limits=CODINGAME)
        said = result.usage.stderr_tail
        assert result.verdict is Verdict.TIMEOUT, (result.reason, result.latencies_s, said)
        if mode is Mode.BWRAP:   # the box's filter refuses the splice itself
            assert "splice: Invalid argument" in said, said
        assert kit.leftovers(mark) == []
        assert set(kit.match_folders()) <= folders


@pytest.mark.slow
@pytest.mark.skipif(Mode.BWRAP not in available_modes(), reason="no bubblewrap here")
def test_in_a_box_without_its_filter_the_late_answer_still_loses(built, monkeypatch):
    # as on a machine the filter does not know: the splice goes through, the stamp holds
    def unknown(machine=None):
        raise seccomp.UnknownMachine("no filter for this test")

    monkeypatch.setattr(seccomp, "program_fd", unknown)
    for _ in range(3):
        mark = marker()
        result, _ = play([built["splice_stamp"], mark], Mode.BWRAP, limits=CODINGAME)
        assert result.verdict is Verdict.TIMEOUT, (result.reason, result.latencies_s)
        assert result.usage.box.endswith(", no system-call filter"), result.usage.box
        assert kit.leftovers(mark) == []


@pytest.mark.slow
@MODES
def test_a_bot_holding_its_stderr_lock_is_judged_and_leaves_nothing(mode, built, tmp_path):
    mark, folders = marker(), set(kit.match_folders())
    out = tmp_path / "run.json"
    run = kit.run_referee(mode.value, f"{built['stderr_lock']} {mark} solve", "--json", str(out),
                          str(kit.SIMPLEST))
    try:
        run.communicate(timeout=RUN_TIMEOUT_S)
    finally:
        kit.kill_marked(mark)
        run.kill()
        run.communicate()
    match = json.loads(out.read_text())["matches"][0]
    assert match["verdict"] == "win", match   # judged on its lines, as any bot
    assert_nothing_left(mark, folders)


@pytest.mark.slow
@MODES
def test_ctrl_c_ends_a_run_within_a_second_whatever_its_bot_holds(mode, built):
    folders = set(kit.match_folders())
    took, status, mark = stop_time.stop_once(mode.value, built)
    assert took is not None and took < STOP_S and status == 130, (took, status)
    assert_nothing_left(mark, folders)


@pytest.mark.slow
@MODES
def test_garbage_on_every_inherited_descriptor_changes_nothing(mode, built):
    mark, folders = marker(), set(kit.match_folders())
    result, _ = play([built["fd_garbage"], mark], mode)
    said = result.usage.stderr_tail
    assert "descriptors: open beyond 0, 1 and 2: none" in said, said
    assert result.verdict is Verdict.WIN, (result.reason, said)
    assert_nothing_left(mark, folders)


@root_only
@pytest.mark.slow
@MODES
def test_no_key_of_a_match_is_left_for_the_next_process_of_its_user(mode, built):
    mark = marker()
    result, _ = play([built["keys"], mark, "add"], mode)
    said = result.usage.stderr_tail
    assert result.verdict is Verdict.WIN, (result.reason, said)
    if mode is Mode.BWRAP:   # the box's filter refuses the key calls
        assert "keys: added 0" in said and "Function not implemented" in said, said
    else:
        assert "keys: added 80" in said, said
    uid = kit.box_uid(result.usage.box)
    look = subprocess.run([built["keys"], mark, "look"], user=uid, group=uid, extra_groups=[],
                          capture_output=True, text=True, timeout=30)
    assert look.stderr == "keys: found 0\n", look.stderr
    assert kit.leftovers(mark) == []


@root_only
def test_a_box_users_keys_are_counted_and_cleared_as_that_user(built):
    slot = bubblewrap.Slot()   # a box user no match holds meanwhile
    try:
        uid = slot.uid
        add = subprocess.run([built["keys"], marker(), "add"], user=uid, group=uid,
                             extra_groups=[], stdin=subprocess.DEVNULL, capture_output=True,
                             text=True, timeout=30)
        assert "keys: added 80" in add.stderr, add.stderr
        assert keyrings.held(uid) >= 80
        assert keyrings.clear(uid) == ""
        deadline = time.monotonic() + 5   # the kernel collects invalidated keys soon after
        while keyrings.held(uid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert keyrings.held(uid) == 0
        assert keyrings.clear(uid) == ""   # nothing held: nothing run
    finally:
        slot.release()


@root_only
@pytest.mark.slow
def test_keys_left_by_a_killed_referees_bot_are_gone_before_the_next_match_begins(built):
    slot = bubblewrap.Slot()   # the lowest free: the next match's too, once given back
    uid = slot.uid
    try:
        subprocess.run([built["keys"], marker(), "add"], user=uid, group=uid,
                       extra_groups=[], stdin=subprocess.DEVNULL, capture_output=True,
                       timeout=30)
        assert keyrings.held(uid) >= 80
    finally:
        slot.release()
    enclosure = Enclosure([box_python(), "-c", "pass"], str(ROOT), Mode.SUBREAPER, None,
                          SESSION_TMP)
    try:
        assert enclosure.sandbox.uid == uid, "another referee took the slot meanwhile"
        deadline = time.monotonic() + 5   # the kernel collects invalidated keys soon after
        while keyrings.held(uid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert keyrings.held(uid) == 0
    finally:
        enclosure.release()
