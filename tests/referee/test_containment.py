"""Hostile bots against each containment mode: fork chains, memory split over children, a
shell bot that forks first, escape codes. Each mode the machine offers is tested, forced.

Every test asserts the verdict, that no process of the bot survives (found by a marker in
its command line), and that the clean-up after the verdict took under a second.

Then what a box shows (an allow-list): canaries, files every user may read, where a bot has
no business, and listeners on unix sockets in folders every user may enter; a bot
(tests/hostile/peek.py) that tries them all must find none, and still win.
"""

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import pytest

from referee.box import sandbox
from referee.judge.board import load_board
from referee.box.sandbox import Mode
from referee.judge.limits import KILL_GRACE_S, Limits
from referee.judge.match import play_match
from referee.report.tables import loss_details
from referee.judge.rules import Verdict
from referee.box.runner import BotProcess
from tests.fakebots.procs import (SESSION_TMP, box_python, hear_ctrl_c, reachable,
                                  running_with_marker, time_close)

ROOT = Path(__file__).parents[2]
FAKEBOTS = reachable(ROOT / "tests" / "fakebots")   # the unboxed modes' box user reaches them
SIMPLEST_TEXT = (ROOT / "puzzles" / "public" / "01_simplest.txt").read_text()
SIMPLEST = load_board(ROOT / "puzzles" / "public" / "01_simplest.txt")
EASY = Limits(first_line_s=5.0, turn_s=2.0, grace_s=KILL_GRACE_S)
CLEAN_UP_S = 3.0   # a clean-up that waited for a limit or a kill timeout takes far longer
SMALL_CAP = 200 * 2**20      # small caps keep the memory tests light on a shared machine


def available_modes():
    modes = [Mode.SUBREAPER]
    if sandbox.pidns_available():
        modes.insert(0, Mode.PIDNS)
    if sandbox.bubblewrap.bwrap() is not None:
        modes.insert(0, Mode.BWRAP)
    return modes


MODES = pytest.mark.parametrize("mode", available_modes(), ids=lambda m: m.value)


def marker():
    return f"referee-test-{uuid.uuid4().hex[:12]}"


def play(argv, mode, limits=EASY, **kwargs):
    """Play on 01_simplest; the result and how long the clean-up (close) took."""
    bot = BotProcess(argv, mode=mode, tmp_parent=SESSION_TMP, **kwargs)
    took = time_close(bot)
    result = play_match(SIMPLEST, bot, limits)
    assert not bot.link.alive   # the stamper has ended, and reaped the launcher
    return result, took[0]


def python_bot(script, *args):
    return [box_python(), str(FAKEBOTS / script), *map(str, args)]


@MODES
@pytest.mark.parametrize("every_ms", [5, 0])
def test_a_fork_chain_dies_with_its_match(mode, every_ms):
    mark = marker()
    result, clean_up_s = play(python_bot("fork_chain.py", mark, "--every-ms", every_ms,
                                         "--for-s", 20), mode)
    if mode is Mode.BWRAP:   # a box ends with the bot's first process: a race with its child
        assert result.verdict in (Verdict.WIN, Verdict.INCOMPLETE), result.reason
    else:
        assert result.verdict is Verdict.WIN, result.reason
    assert running_with_marker(mark) == []
    assert clean_up_s < CLEAN_UP_S


@pytest.mark.slow
@MODES
def test_memory_split_over_children_is_capped_for_the_whole_bot(mode):
    mark = marker()
    result, clean_up_s = play(python_bot("memory_split.py", mark, 3, 100), mode,
                              memory_limit_bytes=SMALL_CAP)
    assert result.verdict is Verdict.MEMORY, result.reason
    assert result.reason.startswith("memory: ") and result.reason.endswith(", cap 200 MB")
    assert ("killed by the kernel" in result.reason or " in 4 process(es)" in result.reason
            or " in 3 process(es)" in result.reason)
    assert result.usage.peak_rss_bytes >= SMALL_CAP * 0.9   # the kernel's peak stops at the cap
    assert running_with_marker(mark) == []
    assert clean_up_s < CLEAN_UP_S


@pytest.mark.slow
@MODES
def test_a_child_forked_first_is_counted_with_the_bot(mode):
    # no address-space limit any more: the child gets its memory, and the bot is judged
    # on what all its processes use
    mark = marker()
    result, clean_up_s = play(["sh", str(FAKEBOTS / "fork_first.sh"), mark, "300"], mode,
                              memory_limit_bytes=SMALL_CAP)
    assert result.verdict is Verdict.MEMORY, result.reason
    assert running_with_marker(mark) == []
    assert clean_up_s < CLEAN_UP_S


@pytest.mark.slow
@MODES
def test_a_bot_under_the_cap_is_not_disturbed(mode):
    mark = marker()
    result, _ = play(python_bot("memory_split.py", mark, 2, 30, 0.1), mode,
                     memory_limit_bytes=SMALL_CAP)
    assert result.verdict is Verdict.WIN, result.reason
    assert result.usage.peak_rss_bytes > 60 * 2**20
    assert running_with_marker(mark) == []


@MODES
def test_escape_codes_from_a_bot_never_reach_the_terminal(mode):
    result, _ = play(python_bot("escape_codes.py"), mode)
    assert result.verdict is Verdict.CRASH
    assert "\x1b" in result.usage.stderr_tail   # kept as written, in the result
    text = loss_details(result, "replay")
    assert "\\e[2J" in text and "\\x07" in text and "\\r13 passed" in text
    assert not any(ord(c) < 32 and c != "\n" or 0x7f <= ord(c) < 0xa0 for c in text)


def wait_for_bots(mark, count):
    """Until `count` bots run (not the referee, whose command line names them too)."""
    deadline = time.monotonic() + 60
    bots = []
    while len(bots) < count and time.monotonic() < deadline:
        bots = [p for p in running_with_marker(mark) if "-m referee" not in p]
        time.sleep(0.05)
    assert len(bots) >= count


@pytest.mark.slow
@pytest.mark.parametrize("signum, status", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_ctrl_c_or_sigterm_on_the_referee_leaves_no_process_of_the_bot(signum, status):
    # SIGTERM is what `timeout` and `kill` send: before, the referee died at once and, in
    # cgroup mode, the bot's processes ran on.
    mark = marker()
    command = [sys.executable, "-m", "referee", "run", "--turn-ms", "20000", "--bot",
               f"{sys.executable} {FAKEBOTS / 'silent.py'} {mark}",
               "puzzles/public/01_simplest.txt"]
    referee = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, env=dict(os.environ, TMPDIR=SESSION_TMP),
                               preexec_fn=hear_ctrl_c)
    wait_for_bots(mark, 1)
    referee.send_signal(signum)
    assert referee.wait(timeout=10) == status
    assert running_with_marker(mark) == []


@pytest.mark.slow
@pytest.mark.parametrize("signum, status", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_ctrl_c_on_run_jobs_ends_the_running_matches_at_once_and_calls_none_a_timeout(
        signum, status, tmp_path):
    # Before, the main thread took the signal and waited for each running match to reach
    # its limit (20 s here), then printed it as a timeout.
    for k in range(3):   # three boards on which the bot's first line is right: it hangs on
        (tmp_path / f"simplest_{k}.txt").write_text(SIMPLEST_TEXT)
    mark = marker()
    command = [sys.executable, "-m", "referee", "run", "--jobs", "3", "--turn-ms", "20000",
               "--bot", f"{sys.executable} {FAKEBOTS / 'silent.py'} {mark}",
               str(tmp_path)]
    referee = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True,
                               env=dict(os.environ, TMPDIR=SESSION_TMP), preexec_fn=hear_ctrl_c)
    wait_for_bots(mark, 3)
    referee.send_signal(signum)
    start = time.monotonic()
    out, err = referee.communicate(timeout=30)
    assert referee.returncode == status
    assert time.monotonic() - start < 10           # not the matches' 20 s limits
    assert "timeout" not in out + err
    assert running_with_marker(mark) == []


def test_each_mode_names_its_guarantee_and_a_forced_mode_must_exist(monkeypatch):
    assert set(sandbox.GUARANTEES) == set(Mode)
    monkeypatch.setenv(sandbox.ENV_VAR, "subreaper")
    assert sandbox.choose_mode() is Mode.SUBREAPER
    assert sandbox.choose_mode("auto") is available_modes()[0]
    with pytest.raises(sandbox.ContainmentError, match="unknown containment mode"):
        sandbox.choose_mode("chroot")


@pytest.mark.slow
@MODES
def test_a_child_that_outlives_the_bot_may_still_win_unboxed_and_dies_with_a_box(mode, tmp_path):
    # the child starts Python before it prints line 2: a long turn limit for a busy machine
    result, clean_up_s = play(python_bot("escape_and_win.py", Path(SESSION_TMP) / marker()), mode,
                              limits=Limits(first_line_s=10.0, turn_s=10.0))
    if mode is Mode.BWRAP:   # the host's /tmp is not the box's: the pid file cannot be made
        assert result.verdict is Verdict.CRASH, result.reason
    else:
        assert result.verdict is Verdict.WIN, result.reason
    assert clean_up_s < CLEAN_UP_S


@pytest.mark.slow
@MODES
def test_closed_output_is_seen_in_every_mode(mode):
    # no launcher holds the bot's pipes: the referee sees the bot close its stdout
    result, _ = play(python_bot("close_and_hang.py"), mode, limits=Limits(first_line_s=1.5))
    assert result.verdict is Verdict.TIMEOUT
    if mode is not Mode.BWRAP:   # bubblewrap itself holds the box's stdout until it ends
        assert "closed its output" in result.reason
    assert result.usage.exit_status == -9


@pytest.mark.parametrize("mode", [m for m in available_modes() if m is not Mode.BWRAP],
                         ids=lambda m: m.value)
@pytest.mark.slow
def test_unboxed_the_bot_not_its_reaper_is_the_kernels_first_choice_at_the_memory_cap(mode):
    # the reaper sits in the match's cgroup: the OOM killer must take the bot, whose
    # memory may not even show in its own size (a closed /dev/shm file)
    probe = ("import sys; print(open('/proc/self/oom_score_adj').read().strip(), "
             "file=sys.stderr, flush=True); input(); print('0 0 2 0 1', flush=True)")
    result, _ = play([box_python(), "-c", probe], mode)
    assert result.usage.stderr_tail.strip() == "1000"


# -- what the box shows -----------------------------------------------------------------------

BOXED = pytest.mark.skipif(sandbox.bubblewrap.bwrap() is None, reason="needs bubblewrap")
AS_ROOT = pytest.mark.skipif(os.geteuid() != 0, reason="the canaries sit in root's folders")
PEEK = ROOT / "tests" / "hostile" / "peek.py"
SIMPLEST_PATH = ROOT / "puzzles" / "public" / "01_simplest.txt"
HOST_FOLDERS = ("/root", "/home", "/srv", "/opt", "/var/lib", "/var/tmp", "/tmp")


def canary(folder) -> str:
    """A file every user may read (644) in `folder`: only the box can hide it."""
    fd, path = tempfile.mkstemp(prefix="referee-canary-", dir=folder)
    os.write(fd, b"canary\n")
    os.close(fd)
    os.chmod(path, 0o644)
    return path


def open_folder(parent="/var/tmp") -> Path:
    """A folder every user may enter, outside the host's /tmp (which no box ever showed)."""
    folder = Path(tempfile.mkdtemp(prefix="referee-test-", dir=parent))
    os.chmod(folder, 0o755)
    return folder


@pytest.fixture
def canaries():
    paths = [canary(folder) for folder in HOST_FOLDERS if os.path.isdir(folder)]
    yield paths
    for path in paths:
        os.unlink(path)


def peek(targets, **kwargs):
    """Play peek.py on `targets` in a box; the result and what it said of each."""
    result, _ = play([box_python(), str(PEEK), *targets], Mode.BWRAP, **kwargs)
    return result, result.usage.stderr_tail


def not_there(said: str, kind: str, path) -> bool:
    return re.search(rf"^{kind} {re.escape(str(path))}: No such file or directory$", said,
                     re.M) is not None


@pytest.mark.slow
@BOXED
@AS_ROOT
def test_the_box_shows_no_host_folder_the_bot_does_not_need(canaries):
    # before the allow-list the box showed the whole host read-only: every canary was read
    # but the one in the host's /tmp
    git = ROOT / ".git"
    targets = [*canaries, git / "HEAD" if git.is_dir() else git]
    result, said = peek([f"read:{path}" for path in targets])
    assert "DONE" not in said, said
    assert all(not_there(said, "read", path) for path in targets), said
    assert result.verdict is Verdict.WIN, result.reason


@pytest.mark.slow
@BOXED
def test_a_bot_in_a_checkout_sees_its_files_not_the_git_history():
    folder = open_folder(SESSION_TMP)
    shutil.copy(PEEK, folder / "bot.py")
    (folder / ".git").mkdir(mode=0o755)
    head = Path(canary(folder / ".git"))
    result, _ = play([box_python(), str(folder / "bot.py"), f"read:{head}",
                      f"read:{folder / 'bot.py'}"], Mode.BWRAP)
    said = result.usage.stderr_tail
    assert not_there(said, "read", head), said
    assert f"read {folder / 'bot.py'}: DONE" in said, said
    assert result.verdict is Verdict.WIN, result.reason


@pytest.mark.slow
@BOXED
@AS_ROOT
def test_a_bot_in_roots_home_sees_its_file_not_the_home(canaries):
    bot = Path(tempfile.mkstemp(prefix="referee-bot-", suffix=".py", dir="/root")[1])
    try:
        shutil.copy(PEEK, bot)
        os.chmod(bot, 0o644)
        home = [path for path in canaries if path.startswith("/root/")]
        result, _ = play([box_python(), str(bot), *(f"read:{path}" for path in home)],
                         Mode.BWRAP)
    finally:
        bot.unlink()
    said = result.usage.stderr_tail
    assert home and all(not_there(said, "read", path) for path in home), said
    assert result.verdict is Verdict.WIN, result.reason


@pytest.fixture
def sockets():
    """Listeners on unix sockets that every user may connect to (mode 777, as a desktop
    bus's), in folders every user may enter."""
    listeners = []
    for folder in ("/run", "/tmp", "/var/tmp"):
        path = os.path.join(folder, f"referee-test-{uuid.uuid4().hex[:12]}.sock")
        server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        server.bind(path)
        os.chmod(path, 0o777)
        server.listen(8)
        server.setblocking(False)
        listeners.append((path, server))
    yield listeners
    for path, server in listeners:
        server.close()
        os.unlink(path)


def connections(server) -> int:
    count = 0
    while True:
        try:
            server.accept()[0].close()
            count += 1
        except BlockingIOError:
            return count


@pytest.mark.slow
@BOXED
@AS_ROOT
def test_no_unix_socket_of_the_host_is_reachable_from_the_box(sockets):
    # before the allow-list, the listener in /run got a connection and the bot's line
    result, said = peek([f"unix:{path}" for path, _ in sockets])
    assert "CONNECTED" not in said, said
    assert all(not_there(said, "unix", path) for path, _ in sockets), said
    assert [connections(server) for _, server in sockets] == [0] * len(sockets)
    assert result.verdict is Verdict.WIN, result.reason


@pytest.mark.slow
@BOXED
def test_the_box_shows_neither_the_referees_working_folder_nor_the_run_history(tmp_path):
    top = open_folder()
    try:
        data, work = top / "data", top / "work"
        work.mkdir()
        notes = Path(canary(work))
        history = data / "spoon2" / "history.sqlite"
        env = {key: value for key, value in os.environ.items() if key != "SPOON2_HISTORY"}
        env.update(XDG_DATA_HOME=str(data), TMPDIR=SESSION_TMP, PYTHONPATH=str(ROOT))
        out = tmp_path / "run.json"
        bot = f"{box_python()} {PEEK} read:{history} read:{notes}"
        for _ in range(2):   # the first records the run history the second's bot looks for
            done = subprocess.run([sys.executable, "-m", "referee", "run", "--contain", "bwrap",
                                   "--first-line-ms", "20000", "--bot", bot, "--json", str(out),
                                   str(SIMPLEST_PATH)],   # limits no busy machine makes it miss
                                  cwd=work, env=env, capture_output=True, text=True, timeout=120)
            assert done.returncode == 0, done.stdout + done.stderr
        assert history.is_file() and os.stat(history).st_mode & 0o004   # every user may read it
        said = json.loads(out.read_text())["matches"][0]["stderr_tail"]
    finally:
        shutil.rmtree(top)
    assert not_there(said, "read", history) and not_there(said, "read", notes), said


@pytest.mark.slow
@BOXED
def test_the_bot_cannot_write_its_own_files():
    folder = open_folder(SESSION_TMP)
    shutil.copy(PEEK, folder / "bot.py")
    classes = folder / "Player.class"
    classes.write_bytes(b"the player's class\n")
    os.chmod(classes, 0o666)   # even a file every user may write
    result, _ = play([box_python(), str(folder / "bot.py"), f"write:{classes}"], Mode.BWRAP)
    said = result.usage.stderr_tail
    assert f"write {classes}: Read-only file system" in said, said
    assert classes.read_bytes() == b"the player's class\n"


@pytest.mark.slow
@BOXED
def test_a_python_shim_on_path_runs_its_interpreter_and_its_folder_stays_hidden(monkeypatch):
    # as pyenv's shims/python3 starts the version chosen: the box runs that interpreter,
    # showing its installation, not the shim's folder (pyenv's whole tree, under /root)
    top = open_folder()
    try:
        shims = top / "shims"
        shims.mkdir(mode=0o755)
        (shims / "python3").write_text(f"#!/bin/sh\nexec {box_python()} \"$@\"\n")
        os.chmod(shims / "python3", 0o755)
        secret = canary(top)
        monkeypatch.setenv("PATH", f"{shims}:{os.environ['PATH']}")
        result, _ = play(["python3", str(PEEK), f"read:{secret}", f"read:{shims}/python3"],
                         Mode.BWRAP)
    finally:
        shutil.rmtree(top)
    said = result.usage.stderr_tail
    assert not_there(said, "read", secret) and not_there(said, "read", f"{shims}/python3"), said
    assert result.verdict is Verdict.WIN, result.reason
