"""The run's crew (referee/box/crew.py): bots made ahead, held at their gate until their match
begins, the input whole after the gate; boxes killed at the verdict and finished behind;
nothing of either left once the run is over."""

import inspect
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from referee.box import leftovers
from referee.cli.main import main
from referee.box.sandbox import Mode, choose_mode
from referee.judge.match import EventKind
from referee.box.proctree import descendants
from referee.box.reaper import remove_tree
from referee.box.runner import BotProcess
from referee.box.stamper_client import StamperServer
from referee.box.crew import FOLDER_PREFIX, Crew
from tests.fakebots.procs import SESSION_TMP, alive, box_python

PUBLIC = Path(__file__).parents[2] / "puzzles" / "public"
# Says hello at once, then echoes its first line of input: what came after the gate.
HELLO = "print('hello', flush=True); print(input(), flush=True); import time; time.sleep(30)"


def autogroup_nice(pid):
    """The nice of process `pid`'s session ('none' where the kernel has no autogroups)."""
    try:
        return open(f"/proc/{pid}/autogroup").read().split()[-1]
    except OSError:
        return "none"


def modes() -> list[Mode]:
    found = []
    for mode in Mode:
        try:
            found.append(choose_mode(mode.value))
        except Exception:
            pass
    return found


def own_folders() -> set[str]:
    prefix = leftovers.own_prefix(FOLDER_PREFIX).rsplit("/", 1)[-1]
    return {name for name in os.listdir(tempfile.gettempdir()) if name.startswith(prefix)}


def live_descendants() -> set[int]:
    """This process's live descendants but the stamper server, which serves the next run."""
    return {pid for pid in descendants(os.getpid())
            if pid != StamperServer.pid() and alive(pid)}


def wait_gone(pids: list[int], timeout_s: float = 2.0) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if not any(alive(pid) for pid in pids):
            return True
        time.sleep(0.01)
    return False


def wait_held(crew: Crew, argv: list[str], count: int, timeout_s: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout_s
    while crew.held(argv, None) != count and time.monotonic() < deadline:
        time.sleep(0.01)
    return crew.held(argv, None) == count


def zombies() -> set[int]:
    """Launcher processes (bubblewrap, the reaper's Python) that died and were left to the
    machine's init, unreaped (other work on the machine makes zombies of its own)."""
    found = set()
    for proc in Path("/proc").glob("[0-9]*"):
        try:
            name, _, rest = (proc / "stat").read_text().rpartition(")")
            state, parent = rest.split()[:2]
        except (OSError, ValueError):
            continue
        if state == "Z" and parent == "1" and name.endswith(("(bwrap", "(python3")):
            found.add(int(proc.name))
    return found


@pytest.mark.slow
@pytest.mark.parametrize("mode", modes(), ids=lambda mode: mode.value)
def test_a_held_bot_runs_only_once_its_match_begins_and_reads_its_input_whole(mode):
    bot = BotProcess([box_python(), "-c", HELLO], tmp_parent=SESSION_TMP, mode=mode,
                     held=True)
    with bot:
        time.sleep(0.5)   # time enough for a bot that was not held to say hello
        begun = time.perf_counter()
        bot.begin()
        bot.send("one line of input\n")
        seen = [bot.read_line(time.perf_counter() + 10) for _ in range(2)]
    assert [(event.kind, event.text) for event in seen] == [
        (EventKind.LINE, "hello"), (EventKind.LINE, "one line of input")]
    assert seen[0].at > begun   # it said hello only once its match began


def test_spares_are_made_for_matches_to_come_only():
    argv = [box_python(), "-c", HELLO]
    with Crew({Crew.key(argv, None): 2}) as crew:
        first = crew.take(argv, None)             # none ready yet; one made for the next
        assert wait_held(crew, argv, 1)
        second, folder = crew.take(argv, None)    # that one; none made: none is to come
        third = crew.take(argv, None)
    try:
        assert first == (None, "") and third == (None, "")
        assert isinstance(second, BotProcess) and os.path.isdir(folder)
    finally:
        second.close()
        remove_tree(folder)


def test_a_spare_left_is_closed_with_the_run():
    argv = [box_python(), "-c", HELLO]
    before, others = own_folders(), live_descendants()   # other tests' helpers may live on
    with Crew({Crew.key(argv, None): 5}) as crew:
        crew.take(argv, None)
        assert wait_held(crew, argv, 1)
        deadline = time.monotonic() + 5   # held once asked for: the stamper forks soon after
        while not live_descendants() - others and time.monotonic() < deadline:
            time.sleep(0.01)
        assert len(own_folders() - before) == 1 and live_descendants() - others
    assert own_folders() - before == set()
    assert live_descendants() - others == set()


@pytest.mark.skipif(Mode.BWRAP not in modes(), reason="no bubblewrap here")
def test_a_box_is_killed_at_its_close_and_the_rest_left_to_the_finisher():
    behind, others = [], live_descendants()
    bot = BotProcess([box_python(), "-c", HELLO], tmp_parent=SESSION_TMP, mode=Mode.BWRAP,
                     finisher=behind.append)
    assert bot.read_line(time.perf_counter() + 10).text == "hello"
    pids = bot.sandbox.processes()
    usage = bot.close()
    assert usage.stopped and usage.exit_status == -9 and len(behind) == 1
    assert pids and wait_gone(pids)   # dead before the finisher has even run
    behind[0]()
    group = bot.sandbox.group
    assert group is None or not any(folder.exists() for folder in group.folders.values())
    assert live_descendants() - others == set()


@pytest.mark.slow
@pytest.mark.skipif(Mode.BWRAP not in modes(), reason="no bubblewrap here")
def test_a_box_finished_behind_keeps_the_stderr_it_wrote_in_its_result():
    behind = []
    said = ("import sys, time; print('said before the verdict', file=sys.stderr, flush=True); "
            "print('hello', flush=True); time.sleep(30)")
    bot = BotProcess([box_python(), "-c", said], tmp_parent=SESSION_TMP, mode=Mode.BWRAP,
                     finisher=behind.append)
    assert bot.read_line(time.perf_counter() + 10).text == "hello"
    usage = bot.close()
    assert usage.stderr_tail == "said before the verdict\n" and usage.stderr_bytes == 24
    behind[0]()


@pytest.mark.slow
def test_a_run_leaves_no_spare_no_folder_and_no_unreaped_process(tmp_path):
    before_zombies, before_folders, others = zombies(), own_folders(), live_descendants()
    puzzles = [str(PUBLIC / f"{name}.txt") for name in ("01_simplest", "02_simpler", "03_simple")]
    assert main(["run", "--quiet", "--bot", f"{sys.executable} -m bot", *puzzles]) == 0
    assert live_descendants() - others == set()
    assert own_folders() - before_folders == set()
    time.sleep(0.2)   # a zombie left to the machine's init would still be there
    assert zombies() - before_zombies == set()


def test_the_descriptors_kept_for_a_matchs_counts_go_with_the_match():
    """The counters read at each line keep their files open (referee/box/kernel_file.py):
    a second run ends holding what the first ended with (the stamper's server lives on)."""
    puzzles = [str(PUBLIC / f"{name}.txt") for name in ("01_simplest", "02_simpler")]
    bot = f"{box_python()} {PUBLIC.parents[1] / 'dist' / 'bot.py'}"
    assert main(["run", "--quiet", "--no-record", "--bot", bot, *puzzles]) == 0
    held = sorted(os.listdir("/proc/self/fd"))
    assert main(["run", "--quiet", "--no-record", "--bot", bot, *puzzles]) == 0
    assert sorted(os.listdir("/proc/self/fd")) == held


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can put a launcher back to normal")
@pytest.mark.parametrize("mode", modes(), ids=lambda mode: mode.value)
def test_a_box_made_ahead_waits_at_idle_priority_and_its_bot_runs_at_normal(mode):
    policy = (inspect.getsource(autogroup_nice) + "import os; print(os.sched_getscheduler(0), autogroup_nice('self'), flush=True); "
              "input(); import time; time.sleep(30)")
    bot = BotProcess([box_python(), "-c", policy], tmp_parent=SESSION_TMP, mode=mode,
                     held=True, idle=True)
    with bot:
        deadline = time.monotonic() + 10
        while not bot.link.launcher_pid and time.monotonic() < deadline:
            bot.link.poll(0.05, started=False)
        launcher = bot.link.launcher_pid   # idle from just before its exec on
        while os.sched_getscheduler(launcher) != os.SCHED_IDLE and time.monotonic() < deadline:
            time.sleep(0.01)
        assert os.sched_getscheduler(launcher) == os.SCHED_IDLE
        assert autogroup_nice(launcher) in ("19", "none")   # its session yields as a whole
        bot.begin()
        bot.send("go\n")
        said = bot.read_line(time.perf_counter() + 10).text
    assert said in (f"{os.SCHED_OTHER} 0", f"{os.SCHED_OTHER} none")


@pytest.mark.slow
@pytest.mark.skipif(os.geteuid() != 0, reason="only root makes a box at idle priority")
def test_a_box_made_ahead_still_starts_at_once_when_every_cpu_is_busy():
    # at idle priority its launcher gets no CPU while these spin: begin must not wait for it
    spinners = [subprocess.Popen([sys.executable, "-c", "while True: pass"])
                for _ in range(os.cpu_count() or 2)]
    try:
        time.sleep(1.0)   # every spinner spinning
        bot = BotProcess([box_python(), "-c", HELLO], tmp_parent=SESSION_TMP, held=True,
                         idle=True)
        with bot:
            time.sleep(0.3)
            started = time.monotonic()
            bot.begin()
            took = time.monotonic() - started
            assert bot.read_line(time.perf_counter() + 10).text == "hello"
    finally:
        for spinner in spinners:
            spinner.kill()
            spinner.wait()
    assert took < 3.0   # starved until its start limit, it would take 10 s and fail
