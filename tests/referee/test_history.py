"""Every run recorded: `history` lists it by bot and version, `compare` pairs two runs
puzzle by puzzle with a bootstrap interval and says when their figures do not compare."""

import json
import re
import sqlite3
import sys

import pytest

from tests.project import PUBLIC, ROOT, run_referee
from referee.history.bootstrap import paired_ratio
from referee.history.fingerprint import bot_hash

BOT = f"{sys.executable} {ROOT / 'dist' / 'bot.py'}"   # run's default, found from any folder
PUZZLES = [str(PUBLIC / name) for name in ("01_simplest.txt", "04_basic.txt", "11_cg.txt")]


def run_into(db, *args):
    done = run_referee("run", "--db", str(db), *args)
    assert "not recorded" not in done.stderr, done.stderr
    return done


@pytest.fixture(scope="module")
def history(tmp_path_factory):
    """Two runs of the bundle and one of another version of a bot (a copy, changed)."""
    db = tmp_path_factory.mktemp("db") / "h.sqlite"
    run_into(db, *PUZZLES)
    run_into(db, *PUZZLES)
    other = tmp_path_factory.mktemp("bot") / "bot.py"
    other.write_text((ROOT / "dist" / "bot.py").read_text() + "\n# another version\n")
    run_into(db, "--bot", f"{sys.executable} {other}", PUZZLES[0])
    other.write_text(other.read_text() + "# and another\n")
    run_into(db, "--bot", f"{sys.executable} {other}", PUZZLES[0])
    return db, other


@pytest.mark.slow
def test_history_lists_each_run_by_bot_and_version(history):
    db, other = history
    done = run_referee("history", "--db", str(db))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == f"bot {BOT}" and f"bot {sys.executable} {other}" in lines
    assert sum(line.startswith("  version ") for line in lines) == 3
    rows = [line.split() for line in lines if line.startswith("    ") and line.split()[0].isdigit()]
    assert [row[0] for row in rows] == ["1", "2", "3", "4"]
    assert [row[3:5] for row in rows] == [["3", "0"], ["3", "0"], ["1", "0"], ["1", "0"]]


@pytest.mark.slow
def test_history_json_has_the_promised_fields(history):
    db, _ = history
    runs = json.loads(run_referee("history", "--db", str(db), "--json").stdout)
    assert [r["id"] for r in runs] == [1, 2, 3, 4]
    assert {"id", "bot", "started", "passed", "failed"} <= set(runs[0])
    assert runs[0]["bot"] == BOT and runs[0]["passed"] == 3 and runs[0]["failed"] == 0
    assert runs[0]["version"] == runs[1]["version"] != runs[2]["version"] != runs[3]["version"]
    stored = sqlite3.connect(db).execute("SELECT latencies_ms FROM matches WHERE run_id = 1").fetchall()
    assert [len(json.loads(row[0])) for row in stored] == [2, 5, 30]   # each line's latency


@pytest.mark.slow
def test_history_html_draws_every_run(history, tmp_path):
    db, _ = history
    page = tmp_path / "h.html"
    assert run_referee("history", "--db", str(db), "--html", str(page)).returncode == 0
    text = page.read_text()
    assert text.count("<svg") == 2 and text.count("<title>run ") == 8   # p50 and p99 per run


@pytest.mark.slow
def test_compare_pairs_the_puzzles_and_gives_both_ratios(history):
    db, _ = history
    done = run_referee("compare", "1", "2", "--db", str(db))
    assert done.returncode == 0, done.stderr
    rows = [line.split()[0] for line in done.stdout.splitlines() if line.split()[-1].startswith("x")]
    assert rows == ["01_simplest", "04_basic", "11_cg"]
    assert "wall, input to last line: x" in done.stdout and "\nCPU: " in done.stdout


@pytest.mark.slow
def test_compare_with_itself_is_no_difference(history):
    db, _ = history
    done = run_referee("compare", "2", "2", "--db", str(db))
    assert "x1.00 [1.00, 1.00]: no difference" in done.stdout
    assert "note: one run a side" in done.stdout


@pytest.mark.slow
def test_several_runs_a_side_are_drawn_too(history):
    db, _ = history
    done = run_referee("compare", "1,2", "2,1", "--db", str(db))
    assert done.returncode == 0, done.stderr
    assert "compare runs 2,1 with runs 1,2" in done.stdout
    assert re.search(r"wall, input to last line: x1\.00 \[[\d.]+, [\d.]+\]: no difference", done.stdout)
    assert "note: one run a side" not in done.stdout
    assert run_referee("compare", "1,1", "2", "--db", str(db)).returncode == 2


@pytest.mark.slow
@pytest.mark.parametrize("args, said", [
    (["compare", "1", "99"], "no run 99 in the history"),
    (["compare", "1", "x"], "not an integer"),
    (["history", "--db", "/nonexistent/h.sqlite"], "no history at"),
])
def test_bad_ids_and_databases_are_one_line(history, args, said):
    db, _ = history
    done = run_referee(*args, *([] if "--db" in args else ["--db", str(db)]))
    assert done.returncode == 2 and said in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr


@pytest.mark.slow
def test_a_damaged_database_is_refused_and_costs_a_run_nothing(tmp_path):
    db = tmp_path / "h.sqlite"
    db.write_text("not a database at all " * 100)
    listed = run_referee("history", "--db", str(db))
    assert listed.returncode == 2 and "not a spoon2 history database" in listed.stderr
    played = run_referee("run", "--db", str(db), PUZZLES[0])
    assert played.returncode == 0 and "run: not recorded in the history" in played.stderr


@pytest.mark.slow
def test_another_programs_database_is_left_alone(tmp_path):
    db = tmp_path / "theirs.sqlite"
    with sqlite3.connect(db) as connection:
        connection.execute("CREATE TABLE notes (text TEXT)")
    played = run_referee("run", "--db", str(db), PUZZLES[0])
    assert played.returncode == 0 and "not a spoon2 history database" in played.stderr
    tables = {row[0] for row in sqlite3.connect(db).execute("SELECT name FROM sqlite_master")}
    assert tables == {"notes"}


@pytest.mark.slow
def test_no_record_writes_nothing(tmp_path):
    db = tmp_path / "h.sqlite"
    assert run_referee("run", "--db", str(db), "--no-record", PUZZLES[0]).returncode == 0
    assert not db.exists()


@pytest.mark.slow
def test_compare_warns_when_modes_or_load_differ(history, tmp_path):
    db, _ = history
    copy = tmp_path / "h.sqlite"
    copy.write_bytes(db.read_bytes())
    with sqlite3.connect(copy) as connection:
        quiet = '{"loadavg1": 0.1, "cpus": 2, "cpu_pressure10": 0.0}'
        busy = '{"loadavg1": 8.0, "cpus": 2, "cpu_pressure10": 90.0}'
        connection.execute("UPDATE runs SET load_start = ?, load_end = ?", (quiet, quiet))
        connection.execute("UPDATE runs SET box = 'bwrap', load_end = ? WHERE id = 2", (busy,))
    done = run_referee("compare", "1", "2", "--db", str(copy))
    assert "figures from different modes do not compare" in done.stdout
    assert "the two sides saw different machine load" in done.stdout
    assert "a busy machine during run 2 (2: load 4.00 per CPU, CPU pressure 90%)" in done.stdout


def test_the_bots_version_follows_its_files_content(tmp_path):
    bot = tmp_path / "bot.py"
    bot.write_text("print(1)\n")
    before = bot_hash(["python3", str(bot)])
    assert bot_hash(["python3", str(bot)]) == before
    bot.write_text("print(2)\n")
    assert bot_hash(["python3", str(bot)]) != before
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "a.py").write_text("x = 1\n")
    folder = bot_hash(["python3", "-m", "pkg"], cwd=tmp_path)
    (tmp_path / "pkg" / "a.py").write_text("x = 2\n")
    assert bot_hash(["python3", "-m", "pkg"], cwd=tmp_path) != folder


def test_runs_that_differ_as_a_whole_widen_the_grouped_interval():
    from referee.history.bootstrap import grouped_ratio
    puzzles = {f"p{k}": 10.0 * (1 + k) for k in range(8)}
    # Two runs a side, one of each slowed by 30% on every puzzle: no difference between sides.
    old = [puzzles, {k: v * 1.3 for k, v in puzzles.items()}]
    new = [{k: v * 1.02 for k, v in puzzles.items()}, {k: v * 1.28 for k, v in puzzles.items()}]
    assert not grouped_ratio(old, new).differs
    assert paired_ratio([(puzzles[k], new[1][k]) for k in puzzles]).differs   # one run each: it would
    assert grouped_ratio([puzzles], [new[1]]) == paired_ratio([(puzzles[k], new[1][k]) for k in puzzles])


def test_paired_runs_keep_a_shift_that_spells_slowing_both_sides_would_hide():
    from referee.history.bootstrap import grouped_ratio
    puzzles = {f"p{k}": 10.0 * (1 + k) for k in range(8)}
    # Three rounds, each side once in each, the machine 1x, 2x and 3x as busy by round; the
    # new side 10% slower beside the old one in every round.
    old = [{k: v * load for k, v in puzzles.items()} for load in (1, 2, 3)]
    new = [{k: v * 1.1 for k, v in run.items()} for run in old]
    paired = grouped_ratio(old, new, paired=True)
    assert paired.differs and paired.low == pytest.approx(1.1) == paired.high
    assert not grouped_ratio(old, new).differs   # drawn apart, the rounds' load hides it


def test_the_interval_holds_one_for_noise_and_not_for_a_shift():
    noise = [(10.0, 10.0 * f) for f in (0.9, 1.1, 0.95, 1.05, 1.0, 0.92, 1.08)]
    assert not paired_ratio(noise).differs
    shifted = [(old, new * 1.5) for old, new in noise]
    slower = paired_ratio(shifted)
    assert slower.differs and slower.low > 1.3 and "slower" in slower.text()
    assert paired_ratio(noise, seed=3) == paired_ratio(noise, seed=3)
    assert paired_ratio(noise[:2]).low is None


def test_bench_compare_says_no_difference_for_noise_and_warns_on_load(capsys):
    """Two bench --json files of the same figures, bar a few per cent each way, and an old
    one from a busy machine: the suite gets its interval, the load its warning."""
    from referee.lab.bench.comparison import compare, load_warnings
    from referee.lab.bench.command import PuzzleRun

    runs = [PuzzleRun("s", f"p{k}", 10, 0.010 * (1 + k) * f, True)
            for k, f in enumerate((1.0, 1.04, 0.97, 1.02, 0.99))]
    suite = {"solved": 5, "total": 5, "median": 0.03}
    old = {"puzzles": {r.key: {"seconds": 0.010 * (1 + k)} for k, r in enumerate(runs)},
           "suites": {"s": suite}}
    compare(old, {"s": suite}, runs)
    said = capsys.readouterr().out
    assert "suite s: median x1.00" in said
    assert re.search(r"per puzzle, geometric mean: x1\.0\d \[0\.9\d, 1\.0\d\]: no difference", said)
    slower = [PuzzleRun("s", r.name, 10, r.seconds * 1.3, True) for r in runs]
    compare(old, {"s": suite}, slower)
    assert ": slower" in capsys.readouterr().out
    quiet = {"loadavg1": 0.1, "cpus": 2, "cpu_pressure10": 0.0}
    busy = {"loadavg1": 5.0, "cpus": 2, "cpu_pressure10": 60.0}
    warned = load_warnings({"start": busy, "end": busy}, {"start": quiet, "end": quiet})
    assert any("different machine load" in w for w in warned)
    assert any("a busy machine during the old run (old: load 2.50 per CPU" in w for w in warned)
    assert load_warnings({"start": quiet}, {"start": quiet}) == []
    assert load_warnings({"start": "junk"}, {"start": quiet}) == []
