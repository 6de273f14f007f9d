"""gen and bench on several workers: local processes or a dask cluster, same results."""

import json
import multiprocessing
import os
import signal
import subprocess
import sys
import time

import pytest

from tests.project import ROOT, run_referee
from referee.lab.gen.sets import generate_set, parse_spec
from referee.lab.workers import InlineExecutor, WorkersError, open_workers
from tests.fakebots.procs import running_with_marker

GEN = ["gen", "--size", "10x10", "--count", "4", "--difficulty", "medium", "--unique"]


def _pause(seconds):
    time.sleep(seconds)
    return seconds


def _inverse(x):
    return 1 / x


def _files(directory):
    return {path.name: path.read_bytes() for path in sorted(directory.iterdir())}


@pytest.mark.slow
def test_results_come_in_the_order_of_the_items_however_long_each_takes():
    with open_workers(2) as workers:
        assert list(workers.in_order(_pause, [0.3, 0.0, 0.2, 0.0, 0.1])) == [0.3, 0.0, 0.2, 0.0, 0.1]


def test_one_job_runs_in_this_process_one_task_at_a_time():
    started = []

    def note(item):
        started.append(item)
        return item

    with open_workers(1) as workers:
        assert isinstance(workers.executor, InlineExecutor)
        for item in workers.in_order(note, range(5)):
            assert started == list(range(item + 1))  # nothing runs ahead of the reader


def test_a_reader_that_stops_does_not_wait_for_tasks_still_running():
    start = time.perf_counter()
    with open_workers(2) as workers:
        for result in workers.in_order(_pause, [0.0, 60, 60, 60]):
            break
    assert result == 0.0
    assert time.perf_counter() - start < 30
    assert [p for p in multiprocessing.active_children() if _alive(p.pid)] == []  # ended, not left


def _alive(pid):
    """Whether a process with this pid exists. (The pool's own thread may reap a worker we
    ended before our join does: its Process object then still says it is alive.)"""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_a_task_that_fails_fails_the_reader():
    with open_workers(2) as workers, pytest.raises(ZeroDivisionError):
        list(workers.in_order(_inverse, [1, 0, 2]))


@pytest.mark.slow
def test_generate_set_keeps_the_same_puzzles_on_any_number_of_workers():
    spec = parse_spec("8x8:medium:unique:count=5:seed=4")
    alone = generate_set(spec)
    with open_workers(3) as workers:
        assert generate_set(spec, workers=workers) == alone


@pytest.mark.slow
def test_gen_writes_the_same_bytes_with_one_or_two_jobs(tmp_path):
    for jobs in ("1", "2"):
        run = run_referee(*GEN, "--out", str(tmp_path / jobs), "--jobs", jobs)
        assert run.returncode == 0, run.stderr
    assert len(_files(tmp_path / "1")) == 8
    assert _files(tmp_path / "1") == _files(tmp_path / "2")


@pytest.mark.slow
def test_bench_on_two_jobs_judges_and_counts_as_one_does(tmp_path):
    counters = {}
    for jobs in ("1", "2"):
        out = tmp_path / f"{jobs}.json"
        run = run_referee("bench", "puzzles/public", "--jobs", jobs, "--repeat", "1",
                          "--startup-runs", "0", "--json", str(out))
        assert run.returncode == 0, run.stderr
        puzzles = json.loads(out.read_text())["puzzles"]
        counters[jobs] = {key: (p["solved"], p["counters"]) for key, p in puzzles.items()}
    assert len(counters["1"]) == 13 and counters["1"] == counters["2"]


@pytest.mark.parametrize("flags, message", [
    (["--jobs", "0"], "--jobs must be at least 1, got 0"),
    (["--jobs", "100000"], "--jobs must be at most"),   # not 100000 processes at once
    (["--dask", "nowhere://x"], "--dask nowhere://x: cannot reach the scheduler"),
])
@pytest.mark.slow
def test_bad_worker_options_are_usage_errors(tmp_path, flags, message):
    run = run_referee(*GEN, "--out", str(tmp_path), *flags)
    assert run.returncode == 2
    assert message in run.stderr and "Traceback" not in run.stderr


def test_open_workers_refuses_zero_jobs_and_more_than_the_cores_can_take():
    with pytest.raises(WorkersError):
        open_workers(0)
    with pytest.raises(WorkersError, match="at most"):
        open_workers(100000)


@pytest.fixture(scope="module")
def dask_cluster():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        yield cluster.scheduler_address


@pytest.mark.slow
def test_gen_on_a_dask_cluster_writes_the_same_bytes_as_here(tmp_path, dask_cluster):
    here = run_referee(*GEN, "--out", str(tmp_path / "here"))
    there = run_referee(*GEN, "--out", str(tmp_path / "dask"), "--dask", dask_cluster)
    assert here.returncode == 0 and there.returncode == 0, there.stderr
    assert _files(tmp_path / "here") == _files(tmp_path / "dask")


@pytest.mark.slow
def test_bench_on_a_dask_cluster_solves_every_puzzle(dask_cluster):
    run = run_referee("bench", "puzzles/public", "--dask", dask_cluster, "--repeat", "1",
                      "--startup-runs", "0")
    assert run.returncode == 0, run.stderr
    assert "suite public: solved 13/13" in run.stdout


@pytest.mark.slow
def test_sigterm_on_gen_leaves_none_of_its_workers(tmp_path):
    # `timeout` and `kill` send SIGTERM: the workers must go with the referee, as on Ctrl-C.
    # Forked workers carry the parent's command line, so the --out folder marks them all.
    out = tmp_path / f"sigterm-{os.getpid()}-{time.monotonic_ns()}"
    gen = subprocess.Popen([sys.executable, "-m", "referee", "gen", "--size", "30x30",
                            "--count", "50", "--difficulty", "hard", "--unique", "--jobs", "2",
                            "--out", str(out)], cwd=ROOT, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while len(running_with_marker(out.name)) < 3 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(running_with_marker(out.name)) >= 3   # the referee and its two workers
    gen.send_signal(signal.SIGTERM)
    assert gen.wait(timeout=20) == 143
    deadline = time.monotonic() + 5
    while running_with_marker(out.name) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert running_with_marker(out.name) == []
