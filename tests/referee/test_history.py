"""Every run recorded: `history` lists it by bot and version, `compare` pairs two runs
puzzle by puzzle with a bootstrap interval and says when their figures do not compare."""

import json
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import time

import pytest

from tests.project import PUBLIC, ROOT, run_referee
from tests.referee.test_viewer_browser import browser  # noqa: F401
from referee import home
from referee.history.bootstrap import paired_ratio
from referee.history.fingerprint import bot_version
from referee.history.record import Plan, record_run
from referee.history.store import HistoryError, connect, read_runs
from referee.judge.board import load_board
from referee.judge.limits import Limits
from referee.judge.result import MatchResult, Usage
from referee.judge.rules import Verdict

BOT = f"{sys.executable} {ROOT / 'dist' / 'bot.py'}"   # run's default, found from any folder
ARTIFACTS = ROOT / "out" / "history"   # screenshots of the page (git-ignored)
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
    listed, ranked = done.stdout.split("\n\nversions on the same puzzles, ranked by matches won")
    lines = listed.splitlines()
    assert lines[0] == f"bot {BOT}" and f"bot {sys.executable} {other}" in lines
    assert sum(line.startswith("  version ") for line in lines) == 3
    rows = [line.split() for line in lines if line.startswith("    ") and line.split()[0].isdigit()]
    assert [row[0] for row in rows] == ["1", "2", "3", "4"]
    assert [row[3:5] for row in rows] == [["3", "0"], ["3", "0"], ["1", "0"], ["1", "0"]]


@pytest.mark.slow
def test_history_json_has_the_promised_fields(history):
    db, _ = history
    listed = json.loads(run_referee("history", "--db", str(db), "--json").stdout)
    runs = listed["runs"]
    assert [r["id"] for r in runs] == [1, 2, 3, 4]
    assert {"id", "bot", "started", "passed", "failed"} <= set(runs[0])
    assert runs[0]["bot"] == BOT and runs[0]["passed"] == 3 and runs[0]["failed"] == 0
    assert runs[0]["version"] == runs[1]["version"] != runs[2]["version"] != runs[3]["version"]
    assert runs[0]["mode"]["memory_cap_mb"] == 768 and runs[0]["mode"]["cpu_cap"] == "1"
    assert "uid" not in str(runs[0]["mode"]) and runs[0]["stopped"] is False
    sets = listed["versions"]   # the bundle's 3 puzzles, then the copy's one
    assert [t["size"] for t in sets] == [1, 3]
    assert {v["version"] for v in sets[0]["versions"]} == {runs[2]["version"], runs[3]["version"]}
    assert sets[1]["versions"][0] | {"first_line_p50_ms": 0, "first_line_p99_ms": 0,
                                     "turn_p50_ms": 0, "turn_p99_ms": 0} == {
        "rank": 1, "version": runs[0]["version"], "label": "", "bots": [BOT], "runs": 2,
        "won": 6, "lost": 0, "first_line_p50_ms": 0, "first_line_p99_ms": 0, "turn_p50_ms": 0,
        "turn_p99_ms": 0, "last_run": 2, "last_started": runs[1]["started"]}
    stored = sqlite3.connect(db).execute("SELECT latencies_ms FROM matches WHERE run_id = 1").fetchall()
    assert [len(json.loads(row[0])) for row in stored] == [2, 5, 30]   # each line's latency


@pytest.mark.slow
def test_history_html_draws_every_run(history, tmp_path):
    db, _ = history
    page = tmp_path / "h.html"
    assert run_referee("history", "--db", str(db), "--html", str(page)).returncode == 0
    text = page.read_text()
    assert text.count("<svg") == 2
    assert text.count("<title>run ") == 12   # p50, p99 and the bar of passed and failed per run
    assert text.count("3 passed, 0 failed") == 6 and text.count("1 passed, 0 failed") == 6
    assert "Versions on the same puzzles" in text


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


def version(argv, cwd=None):
    return bot_version(argv, cwd).digest


def test_the_bots_version_follows_its_files_content(tmp_path):
    bot = tmp_path / "bot.py"
    bot.write_text("print(1)\n")
    before = version(["python3", str(bot)])
    assert version(["python3", str(bot)]) == before
    bot.write_text("print(2)\n")
    assert version(["python3", str(bot)]) != before
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "a.py").write_text("x = 1\n")
    folder = version(["python3", "-m", "pkg"], cwd=tmp_path)
    (tmp_path / "pkg" / "a.py").write_text("x = 2\n")
    assert version(["python3", "-m", "pkg"], cwd=tmp_path) != folder


def test_editing_a_module_the_bot_imports_makes_another_version(tmp_path):
    """What the bot can load from its folder counts; what it cannot (a puzzle, a cache,
    a hidden folder) does not, nor where the folder is."""
    for where in ("a", "b"):
        (tmp_path / where / "pkg").mkdir(parents=True)
        (tmp_path / where / "bot.py").write_text("import solver\nsolver.run()\n")
        (tmp_path / where / "solver.py").write_text("def run(): pass\n")
        (tmp_path / where / "pkg" / "deep.py").write_text("X = 1\n")
    bot = ["python3", "bot.py"]
    first = version(bot, tmp_path / "a")
    assert version(bot, tmp_path / "b") == first   # the same files elsewhere: the same version
    for path, text in (("notes.txt", "a puzzle"), ("__pycache__/solver.pyc", "x"),
                       (".git/HEAD", "x"), ("solver.cpp", "int main(){}")):
        (tmp_path / "a" / path).parent.mkdir(exist_ok=True)
        (tmp_path / "a" / path).write_text(text)
    assert version(bot, tmp_path / "a") == first
    (tmp_path / "a" / "solver.py").write_text("def run(): print(1)\n")
    second = version(bot, tmp_path / "a")
    assert second != first
    (tmp_path / "a" / "pkg" / "deep.py").write_text("X = 2\n")
    assert version(bot, tmp_path / "a") not in (first, second)
    assert version(["python3", "bot.py", "--fast"], tmp_path / "a") != version(bot, tmp_path / "a")
    scope = bot_version(bot, tmp_path / "a")
    assert (scope.program, scope.files, scope.cut) == (str(tmp_path / "a" / "bot.py"), 3, None)


def test_a_java_bots_classes_and_a_binary_are_its_version(tmp_path):
    classes = tmp_path / "build"
    (classes / "app").mkdir(parents=True)
    (classes / "Player.class").write_bytes(b"\xca\xfe1")
    (classes / "app" / "Solver.class").write_bytes(b"\xca\xfe1")
    java = ["java", "-cp", "build", "Player"]
    first = version(java, tmp_path)
    (classes / "app" / "Solver.class").write_bytes(b"\xca\xfe2")
    assert version(java, tmp_path) != first
    (tmp_path / "bot.jar").write_bytes(b"PK1")
    jar = version(["java", "-jar", "bot.jar"], tmp_path)
    (tmp_path / "bot.jar").write_bytes(b"PK2")
    assert version(["java", "-jar", "bot.jar"], tmp_path) != jar
    binary = tmp_path / "a.out"
    binary.write_bytes(b"\x7fELF1")
    binary.chmod(0o755)
    built = version([str(binary)])
    binary.write_bytes(b"\x7fELF2")
    assert version([str(binary)]) != built
    assert bot_version(["ls"]).program == shutil.which("ls")   # on PATH: the file, not /usr/bin


def test_the_hash_is_bounded_and_says_where_the_bound_cut_it(tmp_path, monkeypatch):
    """A bot run from a big folder (a home) hashes a bounded part of it, and says so."""
    from referee.history import fingerprint
    monkeypatch.setattr(fingerprint, "MAX_FILES", 5)
    (tmp_path / "bot.py").write_text("print(1)\n")
    for k in range(10):
        (tmp_path / f"m{k}.py").write_text(f"x = {k}\n")
    cut = bot_version(["python3", "bot.py"], tmp_path)
    assert cut.files == 5 and "more than 5 files" in cut.cut
    monkeypatch.setattr(fingerprint, "MAX_FILES", 100)
    monkeypatch.setattr(fingerprint, "MAX_BYTES", 1 << 19)
    (tmp_path / "zbig.so").write_bytes(b"\0" * (1 << 19))
    assert bot_version(["python3", "bot.py"], tmp_path).cut == (
        f"more than 0.5 MB: {tmp_path / 'zbig.so'} and what follows left out")
    (tmp_path / "zbig.so").unlink()
    deep = tmp_path / "a" / "b" / "c" / "d" / "e"
    deep.mkdir(parents=True)
    (deep / "far.py").write_text("x = 1\n")
    said = bot_version(["python3", "bot.py"], tmp_path)
    assert said.files == 11 and said.cut.startswith("folders more than 4 deep left out")
    monkeypatch.setattr(fingerprint, "MAX_FOLDERS", 3)
    assert "more than 3 folders" in bot_version(["python3", "bot.py"], tmp_path).cut


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


# -- versions named, modes without uids, stopped runs, older databases, the page ----------

def fake_results(names, box="sandboxed: bwrap as uid 60000", lost=(), first_s=0.3):
    """A result per puzzle named, as `run` gives them: won unless in `lost`."""
    board = load_board(PUBLIC / "01_simplest.txt")
    return [MatchResult(name, board, Verdict.CRASH if name in lost else Verdict.WIN, "", 1, None,
                        lines=("0 0 1 0 1",), latencies_s=(first_s, 0.002),
                        usage=Usage(cpu_s=0.2, box=box, memory_count="v2"), path=f"{name}.txt")
            for name in names]


def fake_plan(names, label=None, bot="python3 bot.py", argv=None):
    """A run of `bot` (its version: `argv`'s words, default the bot's, there being no file)."""
    board = load_board(PUBLIC / "01_simplest.txt")
    return Plan.make([bot], [argv or bot.split()], ("",), (label,), "bwrap", Limits(), 768 << 20,
                     None, [(name, board) for name in names])


def test_the_same_set_up_under_two_box_users_compares_without_a_mode_warning(tmp_path):
    """The box user's number is only which box was free: it is not part of the mode."""
    db = tmp_path / "h.sqlite"
    names = ["p1", "p2", "p3"]
    record_run(db, fake_plan(names), fake_results(names, "sandboxed: bwrap as uid 60000"))
    record_run(db, fake_plan(names), fake_results(names, "sandboxed: bwrap as uid 60002"))
    done = run_referee("compare", "1", "2", "--db", str(db))
    assert done.returncode == 0, done.stderr
    assert "different modes" not in done.stdout and "uid" not in done.stdout
    assert "bwrap v2 768MB" in done.stdout
    stored = sqlite3.connect(db).execute("SELECT DISTINCT box FROM runs").fetchall()
    assert stored == [("sandboxed: bwrap as a box user",)]



def test_a_run_records_the_referees_version_and_the_commit_it_started_from(tmp_path):
    db = tmp_path / "h.sqlite"
    names = ["p1"]
    plan = fake_plan(names)
    described = subprocess.run(["git", "describe", "--always", "--dirty"], cwd=ROOT,
                               capture_output=True, text=True).stdout.strip()
    record_run(db, plan, fake_results(names))
    (stored,) = sqlite3.connect(db).execute("SELECT referee_version FROM runs").fetchone()
    assert stored == f"spoon2 {home.package_version()} {described}".strip()

def test_a_version_ranks_by_matches_won_then_by_first_line_p99(tmp_path):
    from referee.history.standings import tables
    db = tmp_path / "h.sqlite"
    names = ["p1", "p2", "p3"]
    for label, lost, first_s in (("slow", (), 0.5), ("loser", ("p2",), 0.1),
                                 ("fast", (), 0.2), ("fast", (), 0.3)):
        plan = fake_plan(names, label, bot=f"python3 {label}.py")
        record_run(db, plan, fake_results(names, lost=lost, first_s=first_s))
    record_run(db, fake_plan(["p9"], "elsewhere"), fake_results(["p9"]))
    runs = read_runs(connect(db, create=False))
    other, same = tables(runs)
    assert [(s.label, s.version) for s in other.standings] == [("elsewhere", runs[4].bot_hash)]
    assert [(s.rank, s.label, s.runs, s.won, s.lost, s.first_line_p99_ms, s.last_run)
            for s in same.standings] == [(1, "fast", 2, 6, 0, 300.0, 4),
                                         (2, "slow", 1, 3, 0, 500.0, 1),
                                         (3, "loser", 1, 2, 1, 100.0, 2)]
    assert same.size == 3 and same.puzzles == ("p1", "p2", "p3")
    assert same.standings[0].turn_p50_ms == 2.0
    text = run_referee("history", "--db", str(db)).stdout
    ranked = text.split("then by first-line p99:\n")[1].splitlines()
    assert ranked[0] == "  1 puzzle(s): p9" and ranked[3] == "  3 puzzle(s): p1, p2, p3"
    assert [line.split()[:3] for line in ranked[5:8]] == [
        ["1", runs[2].bot_hash, "fast"], ["2", runs[0].bot_hash, "slow"],
        ["3", runs[1].bot_hash, "loser"]]


V1_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE runs (id INTEGER PRIMARY KEY, session TEXT NOT NULL, label TEXT NOT NULL,
    started TEXT NOT NULL, finished TEXT NOT NULL, bot TEXT NOT NULL, bot_hash TEXT NOT NULL,
    referee_version TEXT NOT NULL, containment TEXT NOT NULL, box TEXT, memory_mode TEXT,
    first_line_limit_ms REAL NOT NULL, turn_limit_ms REAL NOT NULL, load_start TEXT NOT NULL,
    load_end TEXT NOT NULL, passed INTEGER NOT NULL, failed INTEGER NOT NULL);
CREATE TABLE matches (run_id INTEGER NOT NULL REFERENCES runs(id), puzzle TEXT NOT NULL,
    path TEXT NOT NULL, verdict TEXT NOT NULL, turns INTEGER NOT NULL,
    latencies_ms TEXT NOT NULL, cpu_ms REAL, peak_mb REAL, busy INTEGER NOT NULL);
CREATE INDEX matches_by_run ON matches(run_id);
INSERT INTO meta VALUES ('schema', '1');
"""


def v1_database(path):
    """A history as the first schema wrote it: two runs of one bot, under two box users."""
    with sqlite3.connect(path) as db:
        db.executescript(V1_SCHEMA)
        load = '{"loadavg1": 0.1, "cpus": 2, "cpu_pressure10": 0.0}'
        for run_id, uid in ((1, 60000), (2, 60002)):
            db.execute("INSERT INTO runs VALUES (?, 's', 'A', '2024-01-01T00:00:00+00:00', "
                       "'2024-01-01T00:00:01+00:00', './a.out', 'abc123', 'spoon2 0.1.0', "
                       "'bwrap', ?, 'v2', 1000, 100, ?, ?, 2, 0)",
                       (run_id, f"sandboxed: bwrap as uid {uid}", load, load))
            for name in ("p1", "p2", "p3"):
                db.execute("INSERT INTO matches VALUES (?, ?, ?, 'win', 2, '[300.0, 1.0]', "
                           "50.0, 10.0, 0)", (run_id, name, f"{name}.txt"))
    db.close()


@pytest.mark.slow
def test_a_database_of_the_first_schema_opens_and_is_brought_up_to_date(tmp_path):
    db = tmp_path / "h.sqlite"
    v1_database(db)
    listed = run_referee("history", "--db", str(db))
    assert listed.returncode == 0, listed.stderr
    assert "    1 A  2024-01-01 00:00:00       2       0" in listed.stdout
    assert "bwrap v2" in listed.stdout and "uid" not in listed.stdout
    compared = run_referee("compare", "1", "2", "--db", str(db))
    assert compared.returncode == 0 and "different modes" not in compared.stdout
    with sqlite3.connect(db) as connection:
        assert connection.execute("SELECT value FROM meta").fetchall() == [("2",)]
        assert connection.execute("SELECT side, label, box, stopped FROM runs").fetchall() == [
            ("A", None, "sandboxed: bwrap as a box user", 0)] * 2
    connection.close()
    played = run_into(db, PUZZLES[0], "--label", "after")
    assert played.returncode == 0, played.stderr
    runs = json.loads(run_referee("history", "--db", str(db), "--json").stdout)["runs"]
    assert [(r["id"], r["label"], r["side"]) for r in runs] == [(1, None, "A"), (2, None, "A"),
                                                                (3, "after", "")]


def test_a_database_of_the_first_schema_that_cannot_be_written_is_read_as_it_stands(tmp_path):
    db = tmp_path / "h.sqlite"
    v1_database(db)
    connection = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    runs = read_runs(connection)
    assert [(r.side, r.label, r.setup.box, r.stopped) for r in runs] == [
        ("A", None, "sandboxed: bwrap as a box user", False)] * 2
    with pytest.raises(HistoryError, match="another version"):
        sqlite3.connect(db).execute("UPDATE meta SET value = '9'").connection.commit()
        connect(db, create=False)


@pytest.fixture(scope="module")
def labelled(tmp_path_factory):
    """A Python bot that imports its solver, run on three puzzles as `greedy` (it gives up
    on boards wider than 4), then with the solver edited, as `wider`."""
    folder = tmp_path_factory.mktemp("labelled")
    (folder / "bot.py").write_text("import solver\n\nsolver.run()\n")
    solver = folder / "solver.py"
    bundle = folder / "bundle.py"   # beside the bot: its box shows it only its own folder
    bundle.write_text((ROOT / "dist" / "bot.py").read_text())
    solver.write_text(SOLVER.format(bundle=bundle, width=4))
    db = folder / "h.sqlite"
    bot = f"{sys.executable} {folder / 'bot.py'}"
    roomy = ["--first-line-ms", "20000", "--turn-ms", "20000"]   # no loss to a busy machine
    greedy = run_into(db, "--bot", bot, "--label", "greedy", *roomy, *PUZZLES)
    solver.write_text(SOLVER.format(bundle=bundle, width=100))
    wider = run_into(db, "--bot", bot, "--label", "wider", *roomy, *PUZZLES)
    assert (greedy.returncode, wider.returncode) == (1, 0), greedy.stderr + wider.stderr
    return db


SOLVER = '''import io
import runpy
import sys


def run():
    width = int(sys.stdin.readline())
    height = int(sys.stdin.readline())
    rows = [sys.stdin.readline() for _ in range(height)]
    if width > {width}:
        sys.exit(1)
    sys.stdin = io.StringIO(f"{{width}}\\n{{height}}\\n" + "".join(rows))
    runpy.run_path("{bundle}", run_name="__main__")
'''


@pytest.mark.slow
def test_labels_name_the_versions_in_history_and_compare(labelled):
    listed = run_referee("history", "--db", str(labelled))
    assert listed.returncode == 0, listed.stderr
    versions = [line.split()[1:3] for line in listed.stdout.splitlines()
                if line.startswith("  version ")]
    assert [name for _, name in versions] == ["greedy", "wider"] and versions[0][0] != versions[1][0]
    ranked = listed.stdout.split("then by first-line p99:\n")[1].splitlines()
    assert ranked[0] == "  3 puzzle(s): 01_simplest, 04_basic, 11_cg"
    assert [line.split()[:6] for line in ranked[2:]] == [
        ["1", versions[1][0], "wider", "1", "3", "0"], ["2", versions[0][0], "greedy", "1", "2", "1"]]
    rows = [line.split() for line in listed.stdout.split("\n\n")[0].splitlines()
            if re.match(r"    [12] ", line)]
    assert [row[3:5] for row in rows] == [["2", "1"], ["3", "0"]]   # passed, failed per run
    compared = run_referee("compare", "1", "2", "--db", str(labelled))
    assert compared.stdout.startswith("compare run 2 (wider) with run 1 (greedy)")
    assert f"version {versions[0][0]} greedy" in compared.stdout
    assert "different modes" not in compared.stdout


@pytest.mark.slow
@pytest.mark.parametrize("args, said", [
    (["--label", ""], "a name is 1 to 40 printable characters"),
    (["--label", "a\x1bb"], "a name is 1 to 40 printable characters"),
    (["--label", "x" * 41], "a name is 1 to 40 printable characters"),
    (["--bot", BOT, "--bot", BOT, "--label", "one"], "--label: give one per --bot (2), got 1"),
])
def test_a_bad_label_is_one_line(tmp_path, args, said):
    done = run_referee("run", "--db", str(tmp_path / "h.sqlite"), *args, PUZZLES[0])
    assert done.returncode == 2 and said in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and not (tmp_path / "h.sqlite").exists()


@pytest.mark.slow
def test_a_stopped_run_is_recorded_as_stopped_with_what_it_finished(tmp_path):
    """SIGTERM while the last of three matches plays (its bot hangs on a board wider than 4):
    the two it finished are kept (won, or lost on a busy machine), the run marked stopped."""
    folder = tmp_path / "bot"
    folder.mkdir()
    (folder / "bot.py").write_text("import solver\n\nsolver.run()\n")
    (folder / "solver.py").write_text(SOLVER.format(bundle=ROOT / "dist" / "bot.py", width=4)
                                      .replace("sys.exit(1)", "import time; time.sleep(600)"))
    db = tmp_path / "h.sqlite"
    run = subprocess.Popen([sys.executable, "-m", "referee", "run", "--db", str(db), "--bot",
                            f"{sys.executable} {folder / 'bot.py'}", "--first-line-ms", "60000", "--turn-ms", "60000",
                            *PUZZLES], cwd=ROOT, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
    try:
        progress = ""
        while "04_basic: " not in progress:
            progress += run.stderr.readline()
            assert run.poll() is None, progress
        time.sleep(0.5)   # into the last match, which waits for a minute
        run.send_signal(signal.SIGTERM)
        out, err = run.communicate(timeout=30)
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()
    assert run.returncode == 143, err
    assert "stopped after 2 of 3 match(es): " in out
    assert "recorded as run 1" in err and "stopped after 2 of 3 match(es)" in err
    runs = json.loads(run_referee("history", "--db", str(db), "--json").stdout)["runs"]
    assert [(r["stopped"], r["passed"] + r["failed"], r["planned"]) for r in runs] == [(True, 2, 3)]
    listed = run_referee("history", "--db", str(db)).stdout
    assert re.search(r"\n    1  .*  stopped after 2 of 3\n", listed), listed


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    """`history --html` of 40 runs: three bots (one with a long command), named versions up
    to the longest name, runs lost and stopped."""
    folder = tmp_path_factory.mktemp("page")
    db = folder / "h.sqlite"
    names = [f"{k:02d}_a_puzzle_with_a_long_name" for k in range(13)]
    bots = ["python3 bot.py", "./a.out", f"java -cp {'/very/long/folder' * 8} Player"]
    for k in range(40):
        plan = fake_plan(names, label=f"v{k // 6}" + "x" * (38 if k // 6 == 2 else 0),
                         bot=bots[k % 3], argv=[*bots[k % 3].split(), f"--v{k // 6}"])
        results = fake_results(names[:10 if k % 5 == 0 else 13], lost=names[:k % 4],
                               first_s=0.1 + k / 100)
        record_run(db, plan, results, stopped=k % 5 == 0)
    html = folder / "history.html"
    done = run_referee("history", "--db", str(db), "--html", str(html))
    assert done.returncode == 0, done.stderr
    return html


@pytest.mark.slow
@pytest.mark.parametrize("width, height", [(1280, 900), (390, 844)])
def test_the_history_page_fits_a_desktop_and_a_phone(browser, page, width, height):
    from tests.referee.test_play_browser import viewport
    viewport(browser, width, height)
    try:
        browser.get(page.as_uri())
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        browser.save_screenshot(str(ARTIFACTS / f"history-{width}.png"))
        # the page is laid out at the phone's width, not at a desktop's zoomed out
        assert browser.execute_script("return innerWidth") == width
        assert browser.execute_script(
            "return document.scrollingElement.scrollWidth <= innerWidth")
        for chart in browser.find_elements("css selector", "svg"):
            assert chart.rect["x"] >= 0 and chart.rect["x"] + chart.rect["width"] <= width
        boxes = browser.execute_script(
            "return [...document.querySelectorAll('.scroll')].map("
            "b => [b.scrollWidth, b.clientWidth])")
        assert len(boxes) == 3 + 1   # a table of runs per bot, a ranking for the one puzzle set
        if width >= 1280:   # every column in view: no table scrolls
            assert all(scroll <= client for scroll, client in boxes), boxes
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
