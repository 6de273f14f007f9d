"""`run --gen SPEC`: the bot played as a process on generated boards, nothing written
unless --out asks."""

import json
import sys

import pytest

from referee.lab.gen.sets import generate_set, parse_spec
from tests.fakebots.procs import no_process_left_behind, referee  # noqa: F401

from tests.project import ROOT

BUNDLE = f"{sys.executable} {ROOT / 'dist' / 'bot.py'}"
SPEC = "8x8:count=3:seed=5"
EASY = ["--first-line-ms", "5000", "--turn-ms", "1000"]






@pytest.mark.slow
def test_the_bundle_plays_the_generated_boards_and_nothing_is_written(tmp_path):
    work = tmp_path / "cwd"
    work.mkdir()
    report = tmp_path / "run.json"
    run = referee("run", "--bot", BUNDLE, "--gen", SPEC, *EASY, "--json", str(report), cwd=work)
    assert run.returncode == 0, run.stdout + run.stderr
    names = [f"8x8_any_s5_{i:03d}" for i in range(3)]
    lines = run.stdout.splitlines()
    assert lines[0].startswith("referee run: 3 match(es), containment ")
    rows = [line.split()[0] for line in lines[2:5]]          # under the table's header
    assert rows == names
    assert run.stdout.rstrip().endswith("3 passed, 0 failed")
    assert f"gen {SPEC}: tried" in run.stderr
    assert list(work.iterdir()) == []                       # no puzzle file, no other file
    # The boards played are the set `bench --gen` measures: the same spec, the same puzzles.
    kept, _ = generate_set(parse_spec(SPEC))
    matches = json.loads(report.read_text())["matches"]
    assert [(m["puzzle"], m["input"], m["path"]) for m in matches] == \
        [(g.name, g.text, "") for g in kept]
    assert all(m["first_line_ms"] > 0 for m in matches)


@pytest.mark.slow
def test_out_writes_each_puzzle_and_its_solution_and_replays_name_the_file(tmp_path):
    out = tmp_path / "gen"
    silent = "python3 tests/fakebots/silent.py"
    report = tmp_path / "r.json"
    run = referee("run", "--bot", silent, "--gen", "6x6:count=2:seed=2", "--out", str(out),
                  "--first-line-ms", "200", "--quiet", "--json", str(report))
    assert run.returncode == 1 and run.stderr == ""
    assert sorted(p.name for p in out.iterdir()) == [
        "6x6_any_s2_000.solution", "6x6_any_s2_000.txt",
        "6x6_any_s2_001.solution", "6x6_any_s2_001.txt"]
    replays = [m["replay"] for m in json.loads(report.read_text())["matches"]]
    assert replays[0].endswith(str(out / "6x6_any_s2_000.txt"))
    again = referee("run", "--bot", BUNDLE, *EASY, "--quiet", str(out))
    assert again.returncode == 0 and again.stdout == "2 passed, 0 failed\n"


@pytest.mark.slow
def test_a_lost_generated_match_without_files_replays_its_set():
    run = referee("run", "--bot", "python3 tests/fakebots/silent.py", "--gen", "6x6:count=1:seed=2",
                  "--first-line-ms", "200")
    assert run.returncode == 1
    assert "LOST 6x6_any_s2_000: timeout awaiting line 1" in run.stdout
    assert run.stdout.splitlines()[-3].endswith("--first-line-ms 200 --gen 6x6:count=1:seed=2")


@pytest.mark.slow
def test_puzzle_files_and_generated_sets_play_together():
    run = referee("run", "--bot", BUNDLE, "--gen", "5x5:count=1:seed=1", *EASY, "--quiet",
                  "puzzles/public/01_simplest.txt")
    assert run.returncode == 0 and run.stdout == "2 passed, 0 failed\n"


@pytest.mark.parametrize("args, message", [
    (["--gen", "8x8:count=0"], "--gen: count must be at least 1"),
    (["--gen", "8x8:fast"], "--gen: unknown part 'fast'"),
    (["--gen", "40x8"], "--gen: size '40x8'"),
    (["--out", "somewhere", "puzzles/public/01_simplest.txt"], "--out writes the --gen puzzles"),
])
@pytest.mark.slow
def test_bad_gen_options_are_usage_errors(args, message):
    run = referee("run", "--bot", BUNDLE, *args)
    assert run.returncode == 2 and run.stdout == ""
    assert message in run.stderr and len(run.stderr.strip().splitlines()) == 1
