"""The bench command end to end on small inputs: figures printed, exit codes, JSON and compare.

The bundle's match is played by fake bundles (tests/fakebots/replay.py) whose sleeps sit
50 ms or more from every limit, so load on the machine cannot flip a verdict.
"""

import argparse
import json
import sys
import time
import types

import pytest

import bot
from referee.cli.args import seed_list

from referee.judge.board import parse_board
from referee.lab.bench import bundle as lab_bundle
from referee.lab.bench.comparison import compare
from referee.lab.bench.command import (PuzzleRun, distinct_names, measure, node_table, over_limit,
                               percentile, suite_summary)
from referee.lab.bench.bundle import first_line_seconds
from referee.judge.rules import Verdict
from tests.fakebots.procs import (SESSION_TMP, alive, bot_written, box_python,  # noqa: F401
                                  no_process_left_behind, reachable_file, referee,
                                  wait_until_none_running)
from tests.fakebots.solvers import slept

from tests.project import PUBLIC, ROOT, run_referee

CHAIN = "21\n1\n122222222222222222221\n"   # 20 links, one a line (tests/fakebots/solutions)
REPLAY = [sys.executable, "tests/fakebots/replay.py", "tests/fakebots/solutions"]


def bench(*args):
    return run_referee("bench", *args)


def test_percentile_is_nearest_rank():
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 50) == 50.0
    assert percentile(values, 90) == 90.0
    assert percentile(values, 99) == 99.0
    assert percentile([3.0], 99) == 3.0


def _run(name, nodes, seconds, solved=True):
    counters = dict(rounds=1, assumptions=2, eliminations=0, dead_ends=0, nogoods=0, branches=3,
                    max_depth=1)
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


@pytest.mark.slow
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
    assert "  bundle on files/13_expert: won  first line " in out
    assert out.count("  bundle on ") == 2          # one match per suite
    assert out.rstrip().endswith("5/5 solved")
    data = json.loads((tmp_path / "run.json").read_text())
    assert set(data["suites"]) == {"files", "8x8:unique:count=3:seed=2"}
    assert data["puzzles"]["files/13_expert"]["solved"] is True
    assert data["puzzles"]["files/13_expert"]["nodes"] == 87
    match = data["suites"]["files"]["bundle"]
    assert (match["puzzle"], match["verdict"], match["won"]) == ("files/13_expert", "win", True)
    assert match["first_line"] <= match["last_line"] and match["lines"] > 1
    assert data["over_limit"] == []


@pytest.mark.slow
def test_compare_round_trip(tmp_path):
    old = tmp_path / "old.json"
    first = bench(str(PUBLIC), "--repeat", "1", "--startup-runs", "0", "--json", str(old))
    assert first.returncode == 0, first.stderr
    second = bench(str(PUBLIC), "--repeat", "1", "--startup-runs", "0", "--compare", str(old))
    assert second.returncode == 0, second.stderr
    assert "compare (new/old" in second.stdout
    assert second.stdout.count("public/") == 13   # one ratio per puzzle
    assert "suite public: median x" in second.stdout


@pytest.mark.slow
def test_the_seed_reaches_the_solver_and_the_json(tmp_path):
    # 20x20_full_mixed_002 restarts, so another seed takes another path (the bot's tests
    # check the same board in process); no --seed is the bot's own seed, 1.
    board = str(ROOT / "puzzles" / "stress" / "full" / "20x20_full_mixed_002.txt")
    counted = {}
    for seed in (None, "1", "2"):
        out = tmp_path / f"seed{seed}.json"
        args = ["--seed", seed] if seed else []
        # the CPU clock: a busy machine must not push this board over CodinGame's limit
        result = bench(board, "--repeat", "1", "--startup-runs", "0", "--clock", "cpu",
                       "--json", str(out), *args)
        assert result.returncode == 0, result.stderr
        data = json.loads(out.read_text())
        assert data["seed"] == (int(seed) if seed else None)
        counted[seed] = data["puzzles"]["files/20x20_full_mixed_002"]["counters"]["branches"]
    assert counted[None] == counted["1"] != counted["2"]
    assert bench(board, "--seed", "-1").returncode == 2

@pytest.mark.slow
def test_unsolved_puzzle_exits_1(tmp_path):
    impossible = tmp_path / "impossible.txt"
    impossible.write_text("3\n1\n1.2\n")          # 1 and 2 can never both be full
    result = bench(str(impossible), "--repeat", "1", "--startup-runs", "0")
    assert result.returncode == 1
    assert "NOT SOLVED files/impossible" in result.stdout
    assert "0/1 solved" in result.stdout


@pytest.mark.slow
def test_a_silent_bundle_is_stopped_at_the_limit():
    # The slowest puzzle of a run can be one the solver timed out on: the bundle's first
    # line would not come for minutes.
    start = time.perf_counter()
    figure = first_line_seconds([sys.executable, "-c", "import time; time.sleep(60)"], "", limit=0.5)
    assert 0.5 <= figure < 5 and time.perf_counter() - start < 10
    assert first_line_seconds([sys.executable, "-c", "print(1)"], "", limit=30) < 10


@pytest.mark.slow
def test_usage_errors_exit_2(tmp_path):
    assert bench(str(tmp_path / "missing")).returncode == 2
    bad = bench("--gen", "10x10:impossible", "--startup-runs", "0")
    assert bad.returncode == 2 and "impossible" in bad.stderr
    assert bench("--compare", str(tmp_path / "none.json"), "--startup-runs", "0").returncode == 2
    (tmp_path / "list.json").write_text("[1, 2]\n")
    assert bench("--compare", str(tmp_path / "list.json"), "--startup-runs", "0").returncode == 2
    puzzle = str(PUBLIC / "01_simplest.txt")
    for bundle, said in (('python3 "dist/bot.py', "No closing quotation"),
                         ("/nonexistent/python", "bundle program not found: /nonexistent/python"),
                         ("python3 no/such/bot.py", "bundle script not found: no/such/bot.py"),
                         ("", "--bundle is empty")):
        run = bench(puzzle, "--repeat", "1", "--startup-runs", "1", "--bundle", bundle)
        assert run.returncode == 2 and len(run.stderr.strip().splitlines()) == 1, run.stderr
        assert said in run.stderr and "Traceback" not in run.stderr


def test_names_grow_by_the_folders_that_tell_them_apart(tmp_path):
    paths = [tmp_path / "s3" / "research", tmp_path / "s4" / "research", tmp_path / "fill"]
    assert distinct_names(paths) == ["s3/research", "s4/research", "fill"]
    deeper = [tmp_path / "a" / "x" / "research", tmp_path / "b" / "x" / "research"]
    assert distinct_names(deeper) == ["a/x/research", "b/x/research"]
    files = [tmp_path / "a" / "x.txt", tmp_path / "b" / "x.txt", tmp_path / "b" / "x.json"]
    assert distinct_names(files, stems=True) == ["a/x", "x.txt", "x.json"]


@pytest.mark.slow
def test_two_folders_of_one_name_stay_two_suites(tmp_path):
    # Held-out suites from two seeds of stress-gen are both called research: pooled under
    # one name, the JSON kept one of each pair of boards of the same name.
    for seed, puzzle in (("s3", "01_simplest.txt"), ("s4", "13_expert.txt")):
        folder = tmp_path / seed / "research"
        folder.mkdir(parents=True)
        (folder / "board.txt").write_text((PUBLIC / puzzle).read_text())
    out = tmp_path / "run.json"
    result = bench(str(tmp_path / "s3" / "research"), str(tmp_path / "s4" / "research"),
                   "--repeat", "1", "--startup-runs", "0", "--json", str(out))
    assert result.returncode == 0, result.stderr
    assert "suite s3/research: solved 1/1" in result.stdout
    assert "suite s4/research: solved 1/1" in result.stdout
    data = json.loads(out.read_text())
    assert set(data["puzzles"]) == {"s3/research/board", "s4/research/board"}
    nodes = {key: figures["nodes"] for key, figures in data["puzzles"].items()}
    assert nodes == {"s3/research/board": 3, "s4/research/board": 87}


@pytest.mark.slow
def test_a_folder_a_file_or_a_spec_named_twice_is_refused(tmp_path):
    folder = tmp_path / "files"
    folder.mkdir()
    (folder / "board.txt").write_text((PUBLIC / "01_simplest.txt").read_text())
    for args, said in (([str(PUBLIC), str(PUBLIC) + "/"], f"{PUBLIC} is named twice"),
                       ([str(folder / "board.txt")] * 2, "board.txt is named twice"),
                       ([str(folder), str(folder / "board.txt")], "board.txt is named twice"),
                       (["--gen", "5x5:count=1", "--gen", "5x5:count=1"],
                        "suite 5x5:count=1 is named twice"),
                       (["--gen", "5x5:count=1", "--gen", "5x5:count=2:seed=1"],
                        "--gen 5x5:count=2:seed=1 makes the boards of --gen 5x5:count=1 "
                        "(count and attempts say only how many)"),
                       ([str(folder), str(PUBLIC / "01_simplest.txt")],
                        "suite files is named twice")):
        run = bench(*args, "--startup-runs", "0")
        assert run.returncode == 2, run.stderr
        assert run.stderr.strip().splitlines()[-1].endswith(said), run.stderr


@pytest.mark.slow
def test_a_bad_gen_spec_is_refused_before_any_set_is_made():
    from project import run_referee

    for command in (["bench", "--startup-runs", "0"], ["run"]):
        run = run_referee(*command, "--gen", "3x3:easy:count=1", "--gen", "nope")
        assert run.returncode == 2
        assert run.stderr.strip().splitlines() == [
            f"python -m referee {command[0]}: error: --gen: size 'nope' is not WxH, e.g. 30x30"]


def _play(sleep_ms, timeout_s=60.0, puzzle=CHAIN, argv=None):
    """The fake bundle's match on `puzzle` as bench plays it, its processes counted by procs."""
    argv = argv or REPLAY + ["--sleep-ms", sleep_ms]
    return lab_bundle.play(parse_board(puzzle), argv, timeout_s, name="s/chain", cwd=str(ROOT),
                             tmp_parent=SESSION_TMP)


def _suites(result):
    """The suites as bench holds them, one suite with this match."""
    return {"s": {"bundle": lab_bundle.figures("s/chain", result)}}


@pytest.mark.slow
def test_a_bundle_slow_across_lines_but_within_every_limit_wins():
    # First line at 0.3 s, then one every 50 ms: the last comes after 1 s, as the new bot's
    # sure links do while its search goes on. CodinGame would accept it.
    result = _play("300,50")
    match = lab_bundle.figures("s/chain", result)
    assert result.won and match["lines"] == 20, result.reason
    assert 0.3 <= match["first_line"] < 1.0 and match["longest_gap"] < 0.1
    assert match["last_line"] > 1.0
    assert over_limit([], None, _suites(result)) == []


@pytest.mark.slow
def test_a_bundle_silent_past_a_second_loses_and_is_stopped():
    start = time.perf_counter()
    result = _play("5000")
    took = time.perf_counter() - start
    assert result.verdict is Verdict.TIMEOUT and result.lines == ()
    assert result.reason.startswith("no output line within 1000 ms of the input; asleep ")
    # killed at the limit (plus 50 ms grace), long before its line was due at 5 s: beside
    # a loaded machine (load 25 on 2 cores) the whole call took 1.6 s
    assert took < 4.0
    assert wait_until_none_running() == []
    assert over_limit([], None, _suites(result)) == [
        "OVER LIMIT s/chain: the bundle lost its match under CodinGame's limits "
        f"(timeout: {result.reason})"]


@pytest.mark.slow
def test_a_match_still_going_at_the_runs_timeout_is_stopped_and_lost():
    result = _play("0,60", timeout_s=0.4)   # within every limit, but 20 lines take 1.2 s
    assert result.verdict is Verdict.TIMEOUT and 0 < len(result.lines) < 20
    assert result.reason == "still playing 0.4 s after the input (bench --timeout), stopped"
    assert wait_until_none_running() == []


@pytest.mark.slow
def test_a_lost_bundle_leaves_none_of_its_processes_running(monkeypatch):
    # It prints one legal line, then hangs with two children, one in its own session;
    # unboxed, so that the pid file it writes is the host's.
    monkeypatch.setenv("REFEREE_CONTAIN", "subreaper")
    pids = bot_written("pids")
    argv = [box_python(), reachable_file(ROOT / "tests/fakebots/spawn_and_hang.py"), str(pids)]
    result = _play("", puzzle="3\n3\n1.2\n...\n..1\n", argv=argv)
    assert result.verdict is Verdict.TIMEOUT and result.lines == ("0 0 2 0 1",)
    assert result.reason.startswith("no line 2 within 100 ms of line 1; ")
    left = [int(pid) for pid in pids.read_text().split()]
    deadline = time.monotonic() + 3
    while any(map(alive, left)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(left) == 3 and not any(map(alive, left))


@pytest.mark.slow
def test_bench_reports_the_bundles_match_per_suite_and_passes_a_late_last_line(tmp_path):
    puzzle = tmp_path / "chain.txt"
    puzzle.write_text(CHAIN)
    slow = " ".join(REPLAY[1:] + ["--sleep-ms", "300,50"])
    run = referee("bench", str(puzzle), "--repeat", "1", "--startup-runs", "1",
                  "--bundle", f"{sys.executable} {slow}", "--json", str(tmp_path / "b.json"))
    assert run.returncode == 0, run.stdout + run.stderr
    line = next(l for l in run.stdout.splitlines() if "bundle on files/chain:" in l)
    assert line.startswith("  bundle on files/chain: won  first line ") and "lines 20" in line
    assert "OVER LIMIT" not in run.stdout and run.stdout.rstrip().endswith("1/1 solved")
    data = json.loads((tmp_path / "b.json").read_text())
    match = data["suites"]["files"]["bundle"]
    assert match["won"] and match["last_line"] > 1.0 and data["over_limit"] == []
    assert "slowest_first_line" not in data["startup"]


def _summary(name, seconds):
    counters = dict(rounds=1, assumptions=0, eliminations=0, dead_ends=0, nogoods=0, branches=0,
                    max_depth=0)
    return suite_summary([PuzzleRun("s", name, 10, seconds, True, "", "rules", counters)])


def test_compare_reads_files_of_the_old_code_and_the_bundles_matches(capsys):
    run = PuzzleRun("s", "a", 10, 0.002, True, "", "rules",
                    dict(rounds=1, assumptions=0, eliminations=0, dead_ends=0, nogoods=0,
                         branches=0, max_depth=0))
    new = {"s": dict(_summary("a", 0.002), bundle={
        "puzzle": "s/a", "verdict": "win", "won": True, "reason": "r", "first_line": 0.6,
        "longest_gap": 0.07, "last_line": 2.0, "lines": 30})}
    old_code = {"version": 1, "puzzles": {"s/a": {"seconds": 0.004}},
                "suites": {"s": _summary("a", 0.004)},
                "startup": {"runs": 5, "bundle_first_line": 0.04, "python_pass": 0.02,
                            "slowest": "s/a", "slowest_first_line": 0.5, "stopped_at": 60}}
    compare(old_code, new, [run])
    out = capsys.readouterr().out
    assert "  s/a: 4.0 -> 2.0 ms  x0.50" in out
    assert "suite s: median x0.50" in out and "bundle" not in out
    lost = dict(new["s"]["bundle"], verdict="timeout", won=False, last_line=1.0)
    compare({"suites": {"s": dict(_summary("a", 0.004), bundle=lost)}}, new, [run])
    assert capsys.readouterr().out.splitlines()[1].endswith(
        "solved 1/1 -> 1/1  bundle lost -> won, last line x2.00")


def test_seeds_are_one_a_range_or_a_list_and_anything_else_is_refused():
    assert seed_list("3") == (3,)
    assert seed_list("1-4,9") == (1, 2, 3, 4, 9)
    for bad in ("", "x", "-1", "3-1", "1,1", "1-", "2,1-3", "0-2000"):
        with pytest.raises(argparse.ArgumentTypeError):
            seed_list(bad)


@pytest.mark.slow
def test_several_seeds_time_each_puzzle_once_per_seed_and_pool_the_figures(tmp_path):
    # 20x20_full_mixed_002 restarts: each seed takes its own path.
    board = str(ROOT / "puzzles" / "stress" / "full" / "20x20_full_mixed_002.txt")
    out = tmp_path / "seeds.json"
    result = bench(board, str(PUBLIC / "01_simplest.txt"), "--seed", "1-2", "--repeat", "1",
                   "--startup-runs", "0", "--clock", "cpu", "--json", str(out))
    assert result.returncode == 0, result.stderr
    assert "each puzzle at 2 seeds" in result.stdout
    data = json.loads(out.read_text())
    assert data["seed"] == [1, 2]
    runs = data["puzzles"]
    assert set(runs) == {f"files/{name}@{seed}" for name in ("20x20_full_mixed_002", "01_simplest")
                         for seed in (1, 2)}
    branches = [runs[f"files/20x20_full_mixed_002@{s}"]["counters"]["branches"] for s in (1, 2)]
    assert branches[0] != branches[1]
    suite = data["suites"]["files"]
    assert suite["total"] == 4 and suite["slowest_board"] in suite["slowest"]
    assert suite["sum"] == pytest.approx(sum(r["seconds"] for r in runs.values()))
    again = bench(board, "--seed", "1-2", "--repeat", "1", "--startup-runs", "0",
                  "--clock", "cpu", "--compare", str(out))
    assert again.returncode == 0, again.stderr
    assert "files/20x20_full_mixed_002@2:" in again.stdout and " sum x" in again.stdout


def faked(**calls):
    """The bot as `measure` reads it, with `calls` (solve, find_solutions) faked."""
    return types.SimpleNamespace(**{"Stats": bot.Stats, "solve": bot.solve,
                                    "find_solutions": bot.find_solutions, **calls})


def _spinning(text, **kwargs):
    start = time.thread_time()
    while time.thread_time() - start < 5:   # CPU spent, until the alarm stops it
        pass


@pytest.mark.slow
def test_the_cpu_clock_counts_work_not_waiting_and_stops_a_solve_by_the_cpu_it_spent():
    text = (PUBLIC / "01_simplest.txt").read_text()
    sleeper = faked(solve=slept(0.4))
    wall = measure("s", "a", text, 1, 10.0, clock="wall", solver=sleeper)
    cpu = measure("s", "a", text, 1, 0.2, clock="cpu", solver=sleeper)  # asleep: not over it
    assert wall.solved and wall.seconds >= 0.4
    assert cpu.solved and cpu.seconds < 0.2, cpu.error
    start = time.perf_counter()
    stopped = measure("s", "a", text, 1, 0.2, clock="cpu", solver=faked(solve=_spinning))
    assert not stopped.solved and stopped.error == "over 0.2 s of CPU"
    # the alarm counts the whole process's CPU, the figure the solving thread's alone: on a
    # loaded machine the thread had 0.17 s of the 0.2 s when the alarm rang
    assert 0.1 <= stopped.seconds < 1 and time.perf_counter() - start < 4


@pytest.mark.slow
def test_the_peer_takes_one_seed_and_the_wall_clock():
    puzzle = str(PUBLIC / "01_simplest.txt")
    for extra, said in ((["--seed", "1-2"], "--peer takes one --seed"),
                        (["--clock", "cpu"], "the peer keeps the wall clock")):
        run = bench(puzzle, "--peer", "sat", "--repeat", "1", *extra)
        assert run.returncode == 2 and said in run.stderr and "Traceback" not in run.stderr
    assert bench(puzzle, "--clock", "sundial").returncode == 2


# -- --count: the count a generator runs, timed and judged --

@pytest.mark.slow
def test_a_count_finds_up_to_n_solutions_each_judged_and_says_how_many(tmp_path):
    out = tmp_path / "count.json"
    result = bench(str(PUBLIC), "--count", "2", "--repeat", "1", "--startup-runs", "0",
                   "--json", str(out))
    assert result.returncode == 0, result.stderr
    assert "bot.count_solutions(limit=2), not bot.solve" in result.stdout
    data = json.loads(out.read_text())
    assert data["count"] == 2 and data["startup"] is None
    found = {key.split("/")[1]: run["found"] for key, run in data["puzzles"].items()}
    # Three public boards have two solutions or more, the others one.
    many = {"09_multiple_solutions_1", "11_cg", "12_multiple_solutions_2"}
    assert found == {name: 2 if name in many else 1 for name in found} and len(found) == 13
    histogram = data["suites"]["public"]["found"]
    assert histogram == {"1": 10, "2": 3}
    assert "  solutions found: " + "  ".join(f"{n} on {k}" for n, k in histogram.items()) \
        in result.stdout


def test_a_count_with_nothing_found_a_wrong_or_a_repeated_solution_is_not_solved():
    text = (PUBLIC / "03_simple.txt").read_text()
    right = bot.find_solutions(text, limit=1)[0]
    wrong = right[1:]   # a link short
    for found, said in (([], "no solution found"),
                        ([right, wrong], "wrong solution 2 of 2: "),
                        ([right, list(reversed(right))], "the same solution found twice")):
        run = measure("s", "a", text, 1, 10.0, count=2,
                      solver=faked(find_solutions=lambda text, **kwargs: found))
        assert not run.solved and run.error.startswith(said), run.error
        assert run.found == len(found)
    run = measure("s", "a", text, 1, 10.0, count=2,
                  solver=faked(find_solutions=lambda text, **kwargs: [right]))
    assert run.solved and run.found == 1 and run.error == ""


@pytest.mark.slow
def test_a_count_is_compared_only_with_a_count_of_as_many(tmp_path):
    puzzle = str(PUBLIC / "01_simplest.txt")
    solved, counted = tmp_path / "solve.json", tmp_path / "count.json"
    quick = ["--repeat", "1", "--startup-runs", "0"]
    assert bench(puzzle, *quick, "--json", str(solved)).returncode == 0
    assert bench(puzzle, *quick, "--count", "2", "--json", str(counted)).returncode == 0
    assert bench(puzzle, *quick, "--count", "2", "--compare", str(counted)).returncode == 0
    for old, extra, said in ((solved, ["--count", "2"], "it timed bot.solve, this run times "
                              "bot.count_solutions(limit=2)"),
                             (counted, [], "it timed bot.count_solutions(limit=2), this run "
                              "times bot.solve"),
                             (counted, ["--count", "3"], "this run times "
                              "bot.count_solutions(limit=3)")):
        run = bench(puzzle, *quick, *extra, "--compare", str(old))
        assert run.returncode == 2 and said in run.stderr and "Traceback" not in run.stderr


@pytest.mark.slow
def test_a_count_is_not_timed_against_the_peer():
    run = bench(str(PUBLIC / "01_simplest.txt"), "--count", "2", "--peer", "sat")
    assert run.returncode == 2 and "--count" in run.stderr and "Traceback" not in run.stderr
    assert bench(str(PUBLIC / "01_simplest.txt"), "--count", "0").returncode == 2
