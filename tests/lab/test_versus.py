"""`bench --against DIR`: two checkouts' bots timed in turn, each in a worker of its own."""

import json
import textwrap
from pathlib import Path

import pytest

from referee.judge.board import parse_board
from referee.lab.bench.versus import SIDES, Duel, Worker, summary
from tests.fakebots.procs import running_with_marker
from tests.project import PUBLIC, ROOT, run_referee

TWO_PUZZLES = [str(PUBLIC / "01_simplest.txt"), str(PUBLIC / "13_expert.txt")]

# A checkout whose bot answers `ANSWER` (its own code, beside a marker its processes show).
FAKE_BOT = '''\
import time
MARKER = "versus-fake-{marker}"
class Unsolvable(Exception):
    pass
class Stats:
    def __init__(self):
        self.rounds = 7
    def as_dict(self):
        return {{"rounds": self.rounds}}
def solve(text, stats=None, seed=None):
{body}
'''


def fake_checkout(tmp_path: Path, name: str, body: str) -> Path:
    root = tmp_path / name
    (root / "bot").mkdir(parents=True)
    (root / "bot" / "__init__.py").write_text(
        FAKE_BOT.format(marker=name, body=textwrap.indent(textwrap.dedent(body), "    ")))
    return root


def test_a_checkout_against_itself_answers_alike_with_the_same_counters(tmp_path):
    out = tmp_path / "versus.json"
    run = run_referee("bench", *TWO_PUZZLES, "--against", str(ROOT), "--repeat", "2",
                      "--clock", "cpu", "--json", str(out))
    assert run.returncode == 0, run.stdout + run.stderr
    assert "counters the same on 2 of 2 puzzles" in run.stdout
    assert "geometric mean over 2 answered alike" in run.stdout
    data = json.loads(out.read_text())
    assert data["rounds"] == 2 and data["clock"] == "cpu"
    for puzzle in data["puzzles"].values():
        assert puzzle["outcome"] == {"old": "solved", "new": "solved"}
        assert all(len(puzzle["times"][side]) == 2 for side in SIDES)
        assert puzzle["same_counters"] and puzzle["counters"]["old"]["rounds"] > 0


def test_each_round_swaps_the_side_that_goes_first():
    calls = []

    class Recorder:
        def __init__(self, side):
            self.side = side

        def solve(self, text, timeout, seed):
            calls.append(self.side)
            return {"seconds": 0.01, "links": None, "error": "", "counters": {}}

    text = (PUBLIC / "01_simplest.txt").read_text()
    workers = {side: Recorder(side) for side in SIDES}
    run = Duel("s", "p", 2)
    for turn in range(1, 5):
        run.play(parse_board(text), text, workers, turn, 10.0, None)
    run.cross_check()
    assert calls == ["new", "old", "old", "new", "new", "old", "old", "new"]
    assert run.outcome == {"old": "refuted", "new": "refuted"} and run.alike


def test_a_wrong_answer_of_the_other_side_is_named_and_fails_the_run(tmp_path):
    wrong = fake_checkout(tmp_path, "wrong", "return [(0, 0, 1, 0, 2)]")
    run = run_referee("bench", TWO_PUZZLES[0], "--against", str(wrong), "--repeat", "1")
    assert run.returncode == 1
    assert "old wrong (wrong answer:" in run.stdout
    assert "counters the same on 0 of 1 puzzles" in run.stdout


def test_a_side_saying_no_solution_where_the_other_solves_is_wrong():
    board = (PUBLIC / "01_simplest.txt").read_text()

    class Side:
        def __init__(self, links):
            self.links = links

        def solve(self, text, timeout, seed):
            return {"seconds": 0.01, "links": self.links, "error": "", "counters": {}}

    from bot import solve
    workers = {"old": Side(None), "new": Side([list(link) for link in solve(board)])}
    run = Duel("s", "p", 2)
    run.play(parse_board(board), board, workers, 0, 10.0, None)
    run.cross_check()
    assert run.outcome == {"old": "wrong", "new": "solved"} and not run.alike
    assert summary([run])["compared"] == 0


def test_a_side_past_the_timeout_is_killed_and_its_puzzle_counts_the_limit(tmp_path):
    # A solve that never lets the worker's timer ring (a loop in C): the referee kills it.
    hang = fake_checkout(tmp_path, "hang", "return sum(range(10 ** 15))")
    run = run_referee("bench", TWO_PUZZLES[0], "--against", str(hang), "--repeat", "2",
                      "--timeout", "0.5", timeout=60)
    assert run.returncode == 1
    assert "old timeout" in run.stdout and "new solved" in run.stdout
    assert running_with_marker(str(hang)) == []


def test_a_side_whose_worker_dies_crashes_that_puzzle_and_the_run_goes_on(tmp_path):
    dies = fake_checkout(tmp_path, "dies", "import os; os._exit(3)")
    run = run_referee("bench", *TWO_PUZZLES, "--against", str(dies), "--repeat", "1")
    assert run.returncode == 1
    assert run.stdout.count("old crash (the worker failed") == 2
    assert run.stdout.count("new solved") == 2 and "Traceback" not in run.stderr


def test_each_round_starts_fresh_workers_that_import_their_whole_bot_first(tmp_path):
    # A process's memory layout is its luck while it runs: each round gets new ones. The
    # bot's modules are imported before the first solve (a module of the checkout notes
    # that it was imported; `__main__` would run the bot, so it is left alone).
    fake = fake_checkout(tmp_path, "fresh", """\
        import os
        with open("solves", "a") as log:
            log.write(f"{os.getpid()} {os.path.exists('imported')}\\n")
        return []""")
    (fake / "bot" / "later.py").write_text('open("imported", "w").close()\n')
    (fake / "bot" / "__main__.py").write_text('open("main ran", "w").close()\n')
    run_referee("bench", *TWO_PUZZLES, "--against", str(fake), "--repeat", "3")
    solves = [line.split() for line in (fake / "solves").read_text().splitlines()]
    assert len(solves) == 6 and all(imported == "True" for _, imported in solves)
    pids = [pid for pid, _ in solves]
    assert len(set(pids)) == 3 and pids[0] == pids[1] and pids[2] == pids[3]
    assert not (fake / "main ran").exists()


def test_what_a_bot_prints_does_not_garble_its_answers(tmp_path):
    chatty = fake_checkout(tmp_path, "chatty", 'print("thinking..."); return []')
    worker = Worker("old", chatty, "wall")
    try:
        assert worker.solve("1 1\n1\n", 5.0, None)["links"] == []
    finally:
        worker.stop()


def test_a_worker_solves_with_its_own_checkouts_bot(tmp_path):
    fake = fake_checkout(tmp_path, "own", "return []")
    worker = Worker("old", fake, "wall")
    try:
        answer = worker.solve("1 1\n1\n", 5.0, None)
        assert answer["links"] == [] and answer["counters"] == {"rounds": 7}
        assert Path(f"/proc/{worker.process.pid}/cwd").resolve() == fake.resolve()
    finally:
        worker.stop()
    assert worker.process.poll() is not None


@pytest.mark.parametrize("args, said", [
    (["--against", "/nonexistent"], "not a checkout of this project"),
    (["--against", str(ROOT), "--jobs", "2"], "--against takes no --jobs"),
    (["--against", str(ROOT), "--compare", "x.json"], "--against takes no --compare"),
    (["--against", str(ROOT), "--seed", "1-3"], "--against takes no several seeds"),
])
def test_bad_against_runs_are_refused_with_one_line(args, said):
    run = run_referee("bench", TWO_PUZZLES[0], *args)
    assert run.returncode == 2
    assert said in run.stderr and "Traceback" not in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1


def test_the_summary_gives_each_sides_worst_case_and_the_ratio():
    runs = []
    for k, (old, new) in enumerate([(0.010, 0.011), (0.020, 0.022), (0.100, 0.110)]):
        d = Duel("s", f"p{k}", 2, times={"old": [old], "new": [new]},
                 outcome={"old": "solved", "new": "solved"})
        runs.append(d)
    s = summary(runs)
    assert s["old"]["max"] == 0.100 and s["new"]["slowest"] == "p2"
    assert s["ratio"]["ratio"] == pytest.approx(1.1)
    assert s["compared"] == 3 and s["same_counters"] == 3
