"""bench's guards: the alarm that stops a solve, bad input refused before any work, and
the bundle's start-up measured without hanging or leaving a process behind.
"""

import json
import signal
import sys
import threading
import time
import types

import pytest

import bot
from referee.lab.bench.command import measure
from referee.lab.bench.bundle import STARTUP_PUZZLE, first_line_seconds, is_python
from tests.fakebots.procs import (SESSION_TMP, alive, bot_written, box_python,  # noqa: F401
                                  no_process_left_behind, reachable_file, referee,
                                  wait_until_none_running)
from tests.fakebots.solvers import slept

from tests.project import PUBLIC, ROOT, run_referee

EXPERT = (PUBLIC / "13_expert.txt").read_text()


def _returning_as_the_timer_rings(monkeypatch):
    """The bot as `measure` reads it, with a solve that returns its answer with SIGALRM held
    back until its timer has run out, and a setitimer that lets the ring through as the
    timer is stopped: the ring lands just after the solve returned."""
    solve, setitimer = bot.solve, signal.setitimer

    def late(text, **kwargs):
        answer = solve(text, **kwargs)
        signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGALRM])
        deadline = time.monotonic() + 10
        while signal.getitimer(signal.ITIMER_REAL)[0] > 0 and time.monotonic() < deadline:
            time.sleep(0.001)
        return answer

    def stop(which, seconds, *interval):
        if seconds == 0:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGALRM])
        return setitimer(which, seconds, *interval)

    monkeypatch.setattr(signal, "setitimer", stop)
    return types.SimpleNamespace(Stats=bot.Stats, solve=late, find_solutions=bot.find_solutions)


def test_a_ring_as_the_solve_returns_is_no_traceback(monkeypatch):
    late = _returning_as_the_timer_rings(monkeypatch)
    run = measure("s", "a", EXPERT, 1, 0.05, solver=late)
    assert not run.solved and run.error == "over 0.05 s" and run.seconds >= 0.05


def test_a_limit_shorter_than_a_solve_never_escapes_as_a_traceback():
    # The ring comes before, during or just after the solve: always a verdict, never a raise.
    for timeout in (0.000001, 0.0001, 0.0003, 0.0005, 0.0007, 0.001, 0.002) * 6:
        run = measure("s", "a", EXPERT, 3, timeout)
        assert run.solved or run.error == f"over {timeout:g} s", run.error


def bench(*args):
    return run_referee("bench", *args)


def one_line_usage_error(run, said):
    """Exit 2 with `said` in one line of stderr, and no traceback."""
    lines = run.stderr.strip().splitlines()
    assert run.returncode == 2 and len(lines) == 1, run.stderr
    assert lines[0].startswith("python -m referee bench: error: ") and said in lines[0], lines[0]


@pytest.mark.slow
@pytest.mark.parametrize("timeout", ["0", "0.0", "-1", "nan", "inf", "1e999"])
def test_a_timeout_not_above_zero_or_not_finite_is_refused(timeout):
    run = bench(str(PUBLIC / "01_simplest.txt"), "--startup-runs", "0", "--timeout", timeout)
    one_line_usage_error(run, "--timeout")


@pytest.mark.slow
def test_a_solve_timed_over_the_limit_is_over_it_with_no_alarm():
    # In a thread (a dask worker) no alarm can stop the solve: its time still judges it.
    sleeper = types.SimpleNamespace(Stats=bot.Stats, solve=slept(0.2))
    runs = []
    worker = threading.Thread(target=lambda: runs.append(
        measure("s", "a", EXPERT, 1, 0.05, solver=sleeper)))
    worker.start()
    worker.join()
    assert not runs[0].solved and runs[0].error == "over 0.05 s"


def test_a_cpu_timed_solve_over_the_limit_is_over_it_though_the_alarm_did_not_ring():
    # ITIMER_PROF counts the process's time in ticks: a short solve passes under it.
    run = measure("s", "a", EXPERT, 1, 0.000001, clock="cpu")
    assert not run.solved and run.error == "over 1e-06 s of CPU"


# -- --compare: only a bench --json file, made the same way, checked before any solving --

QUICK = ["--repeat", "1", "--startup-runs", "0"]


def _bench_json(tmp_path, *extra):
    """A real `bench --json` file of 01_simplest, made with `extra` options."""
    out = tmp_path / f"bench{len(list(tmp_path.iterdir()))}.json"
    run = bench(str(PUBLIC / "01_simplest.txt"), *QUICK, *extra, "--json", str(out))
    assert run.returncode == 0, run.stderr
    return out


@pytest.mark.slow
def test_a_compare_file_of_another_shape_is_refused_before_any_solving(tmp_path):
    made_by_run = tmp_path / "run.json"
    played = run_referee("run", str(PUBLIC / "01_simplest.txt"), "--quiet",
                         "--json", str(made_by_run))
    assert played.returncode == 0, played.stderr
    wrong = [made_by_run]
    seconds = {"files/01_simplest": {"seconds": 0.001}}
    suite = {"solved": 1, "total": 1, "median": 0.001}
    for name, shape in (("object", {"foo": 1}), ("suites", {"suites": 5}),
                        ("keyerror", {"suites": {"files": {"puzzles": 3}}}),
                        ("no-puzzles", {"suites": {"files": suite}}),
                        ("seconds", {"puzzles": {"files/01_simplest": {"seconds": "1"}},
                                     "suites": {"files": suite}}),
                        ("median", {"puzzles": seconds,
                                    "suites": {"files": dict(suite, median=None)}}),
                        ("bundle", {"puzzles": seconds,
                                    "suites": {"files": dict(suite, bundle=[1])}}),
                        ("count", {"puzzles": seconds, "suites": {"files": suite}, "count": "2"})):
        wrong.append(tmp_path / f"{name}.json")
        wrong[-1].write_text(json.dumps(shape))
    wrong.append(tmp_path / "run.csv")   # another output of the project's, not JSON at all
    wrong[-1].write_text("puzzle,path,validator\n01_simplest,x,\n")
    for old in wrong:   # one line alone on stderr: no progress, so nothing was solved
        run = bench(str(PUBLIC / "01_simplest.txt"), *QUICK, "--compare", str(old))
        one_line_usage_error(run, f"--compare {old}: not a bench --json file")


@pytest.mark.slow
def test_a_compare_file_of_an_older_version_is_still_read(tmp_path):
    data = json.loads(_bench_json(tmp_path).read_text())
    for key in ("version", "clock", "seed", "count", "over_limit"):
        del data[key]
    old = tmp_path / "version1.json"
    old.write_text(json.dumps(data))
    run = bench(str(PUBLIC / "01_simplest.txt"), *QUICK, "--compare", str(old))
    assert run.returncode == 0, run.stderr
    assert "  files/01_simplest: " in run.stdout and "suite files: median x" in run.stdout


@pytest.mark.slow
def test_a_compare_file_timed_by_another_clock_or_at_other_seeds_is_refused(tmp_path):
    wall, cpu, two_seeds = (_bench_json(tmp_path), _bench_json(tmp_path, "--clock", "cpu"),
                            _bench_json(tmp_path, "--seed", "1-2"))
    puzzle = str(PUBLIC / "01_simplest.txt")
    for old, extra, said in (
            (wall, ["--clock", "cpu"], "it timed solves by the wall clock, this run by the CPU "
             "time of the solving thread"),
            (cpu, [], "it timed solves by the CPU time of the solving thread, this run by the "
             "wall clock"),
            (wall, ["--seed", "1-2"], "it solved at the bot's own seed, this run at seeds 1-2"),
            (two_seeds, [], "it solved at seeds 1-2, this run at the bot's own seed"),
            (two_seeds, ["--seed", "2"], "it solved at seeds 1-2, this run at seed 2"),
            (two_seeds, ["--seed", "1-3"], "it solved at seeds 1-2, this run at seeds 1-3"),
            (wall, ["--seed", "2"], "it solved at the bot's own seed, this run at seed 2")):
        run = bench(puzzle, *QUICK, *extra, "--compare", str(old))
        one_line_usage_error(run, f"--compare {old}: {said}")
    for old, extra in ((cpu, ["--clock", "cpu"]), (two_seeds, ["--seed", "2,1"]),
                       (wall, ["--seed", "1"])):   # the bot's own seed is 1
        run = bench(puzzle, *QUICK, *extra, "--compare", str(old))
        assert run.returncode == 0 and "compare (new/old" in run.stdout, run.stderr


@pytest.mark.slow
def test_a_json_file_that_cannot_be_written_is_refused_before_any_solving(tmp_path):
    for out, said in ((tmp_path / "nodir" / "x.json", "no such directory"),
                      (tmp_path, "is a directory")):
        run = bench(str(PUBLIC / "01_simplest.txt"), *QUICK, "--json", str(out))
        one_line_usage_error(run, f"cannot write --json {out}: {said}")
    dash = bench(str(PUBLIC / "01_simplest.txt"), *QUICK, "--json", "-")
    assert dash.returncode == 2 and "'-' is not stdout here" in dash.stderr
    assert not (ROOT / "-").exists()   # bench runs from the project root


# -- the bundle's start-up: bounded, contained, against a Python that runs `-c pass` --

def _wrapper(tmp_path):
    """A bundle whose first word is a shell script, not a Python: it execs the bot."""
    bundle = tmp_path / "bot.py"   # beside the script: a box shows a bot only its own folder
    bundle.write_text((ROOT / "dist" / "bot.py").read_text())
    script = tmp_path / "bundle.sh"
    # python3 from PATH: a box shows the script's own folder and the system's, not this venv
    script.write_text(f"#!/bin/sh\nexec python3 {bundle}\n")
    script.chmod(0o755)
    return script


def _finishes(call, within_s=30.0):
    """call()'s value, or a failure if it has not returned within `within_s`."""
    done = []
    worker = threading.Thread(target=lambda: done.append(call()), daemon=True)
    worker.start()
    worker.join(within_s)
    assert done, f"still running after {within_s} s"
    return done[0]


@pytest.mark.slow
def test_a_start_never_outlasts_its_limit_even_with_stdin_left_open(tmp_path):
    # `bundle.sh -c pass` is the bot, which waits for its input: stopped at the limit.
    wrapper = str(_wrapper(tmp_path))
    figure = _finishes(lambda: first_line_seconds([wrapper, "-c", "pass"], "", 1.0,
                                                  tmp_parent=SESSION_TMP))
    assert figure == pytest.approx(1.0)
    closed = _finishes(lambda: first_line_seconds([wrapper, "-c", "pass"], "", 30.0,
                                                  close_stdin=True, tmp_parent=SESSION_TMP))
    assert closed < 30   # the bot read EOF and ended
    assert wait_until_none_running() == []


@pytest.mark.slow
def test_a_bundle_that_is_no_python_is_timed_against_this_python(tmp_path):
    assert is_python(sys.executable) and is_python("pypy3") and is_python("/usr/bin/python3.11")
    assert not is_python("sh") and not is_python("/usr/bin/env") and not is_python("python.sh")
    puzzle = str(PUBLIC / "01_simplest.txt")
    for bundle, own in ((str(_wrapper(tmp_path)), False),
                        (f"{sys.executable} dist/bot.py", True)):
        out = tmp_path / "startup.json"
        run = referee("bench", puzzle, "--repeat", "1", "--startup-runs", "1", "--timeout", "20",
                      "--bundle", bundle, "--json", str(out), timeout=60)
        assert run.returncode == 0, run.stdout + run.stderr
        startup = json.loads(out.read_text())["startup"]
        assert (startup["python"], startup["python_is_bundles"]) == (sys.executable, own)
        assert startup["bundle_first_line"] < 20 and startup["python_pass"] < 20
        note = f"  (python -c pass ran on {sys.executable}: the bundle's first word is no Python)"
        assert (note in run.stdout.splitlines()) is not own


def test_a_start_leaves_none_of_the_bundles_processes_running(monkeypatch):
    # It reads the puzzle, starts two children (one in its own session), prints a line;
    # unboxed, so that the pid file it writes is the host's.
    monkeypatch.setenv("REFEREE_CONTAIN", "subreaper")
    pids = bot_written("pids-start")
    argv = [box_python(), reachable_file(ROOT / "tests/fakebots/spawn_and_hang.py"), str(pids)]
    figure = _finishes(lambda: first_line_seconds(argv, STARTUP_PUZZLE, 30.0,
                                                  tmp_parent=SESSION_TMP))
    assert figure < 30
    left = [int(pid) for pid in pids.read_text().split()]
    deadline = time.monotonic() + 3
    while any(map(alive, left)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(left) == 3 and not any(map(alive, left))


@pytest.mark.slow
def test_a_bundle_whose_children_hold_its_output_is_stopped_and_bench_goes_on():
    # sh waits for its sleep, which holds the pipes: killing sh alone left the read hanging.
    bundle = "sh -c 'sleep 311; :'"
    gone = _finishes(lambda: first_line_seconds(["sh", "-c", "sleep 311; :"], STARTUP_PUZZLE, 0.5,
                                                tmp_parent=SESSION_TMP))
    assert gone == pytest.approx(0.5)
    assert wait_until_none_running() == []
    run = referee("bench", str(PUBLIC / "01_simplest.txt"), "--repeat", "1", "--startup-runs", "1",
                  "--timeout", "1", "--bundle", bundle, timeout=60)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "bundle first line 1000.0" in run.stdout
    assert "bundle on files/01_simplest: lost (timeout: " in run.stdout
    assert wait_until_none_running() == []
