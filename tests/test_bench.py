"""The bench command end to end on small inputs: figures printed, exit codes, JSON and compare."""

import json

import sys
import time

from referee.lab.bench import PuzzleRun, first_line_seconds, node_table, percentile, suite_summary

from project import PUBLIC, run_referee


def bench(*args):
    return run_referee("bench", *args)


def test_percentile_is_nearest_rank():
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 50) == 50.0
    assert percentile(values, 90) == 90.0
    assert percentile(values, 99) == 99.0
    assert percentile([3.0], 99) == 3.0


def _run(name, nodes, seconds, solved=True):
    counters = dict(rounds=1, assumptions=2, eliminations=0, branches=3, max_depth=1)
    return PuzzleRun("s", name, nodes, seconds, solved, "", "rules", counters)


def test_suite_summary_and_node_table():
    runs = [_run("a", 10, 0.001), _run("b", 30, 0.004), _run("c", 120, 0.002, solved=False)]
    summary = suite_summary(runs)
    assert (summary["solved"], summary["total"]) == (2, 3)
    assert summary["max"] == 0.004 and summary["slowest"] == "b"
    assert summary["median"] == 0.002
    assert summary["counters_max"]["branches"] == 3
    assert [row[0] for row in node_table(runs)] == ["0-24", "25-49", "100-149"]


def test_node_table_keeps_full_boards_apart_from_dense_ones():
    runs = [_run("dense", 258, 0.010), _run("full", 900, 0.400)]
    assert node_table(runs) == [("200-299", 1, 0.010, 0.010), ("500+", 1, 0.400, 0.400)]


def test_bench_public_files_and_generated_suite(tmp_path):
    result = bench(str(PUBLIC / "01_simplest.txt"), str(PUBLIC / "13_expert.txt"),
                   "--gen", "8x8:unique:count=3:seed=2", "--repeat", "2", "--startup-runs", "1",
                   "--json", str(tmp_path / "run.json"))
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "suite files: solved 2/2" in out and "slowest" in out
    assert "suite 8x8:unique:count=3:seed=2: solved 3/3" in out
    assert "counters (mean/max per puzzle): rounds" in out
    assert "time by node count:" in out and "50-99" in out
    assert "start-up: bundle first line" in out and "python -c pass" in out
    assert "bundle first line on the slowest puzzle (files/13_expert)" in out
    assert out.rstrip().endswith("5/5 solved")
    data = json.loads((tmp_path / "run.json").read_text())
    assert set(data["suites"]) == {"files", "8x8:unique:count=3:seed=2"}
    assert data["puzzles"]["files/13_expert"]["solved"] is True
    assert data["puzzles"]["files/13_expert"]["nodes"] == 87


def test_compare_round_trip(tmp_path):
    old = tmp_path / "old.json"
    first = bench(str(PUBLIC), "--repeat", "1", "--startup-runs", "0", "--json", str(old))
    assert first.returncode == 0, first.stderr
    second = bench(str(PUBLIC), "--repeat", "1", "--startup-runs", "0", "--compare", str(old))
    assert second.returncode == 0, second.stderr
    assert "compare (new/old" in second.stdout
    assert second.stdout.count("public/") == 13   # one ratio per puzzle
    assert "suite public: median x" in second.stdout


def test_unsolved_puzzle_exits_1(tmp_path):
    impossible = tmp_path / "impossible.txt"
    impossible.write_text("3\n1\n1.2\n")          # 1 and 2 can never both be full
    result = bench(str(impossible), "--repeat", "1", "--startup-runs", "0")
    assert result.returncode == 1
    assert "NOT SOLVED files/impossible" in result.stdout
    assert "0/1 solved" in result.stdout


def test_a_silent_bundle_is_stopped_at_the_limit():
    # The slowest puzzle of a run can be one the solver timed out on: the bundle's first
    # line would not come for minutes.
    start = time.perf_counter()
    figure = first_line_seconds([sys.executable, "-c", "import time; time.sleep(60)"], "", limit=0.5)
    assert 0.5 <= figure < 5 and time.perf_counter() - start < 10
    assert first_line_seconds([sys.executable, "-c", "print(1)"], "", limit=30) < 10


def test_usage_errors_exit_2(tmp_path):
    assert bench(str(tmp_path / "missing")).returncode == 2
    bad = bench("--gen", "10x10:impossible", "--startup-runs", "0")
    assert bad.returncode == 2 and "impossible" in bad.stderr
    assert bench("--compare", str(tmp_path / "none.json"), "--startup-runs", "0").returncode == 2


def test_a_bad_gen_spec_is_refused_before_any_set_is_made():
    from project import run_referee

    for command in (["bench", "--startup-runs", "0"], ["run"]):
        run = run_referee(*command, "--gen", "3x3:easy:count=1", "--gen", "nope")
        assert run.returncode == 2
        assert run.stderr.strip().splitlines() == [
            f"python -m referee {command[0]}: error: --gen: size 'nope' is not WxH, e.g. 30x30"]
