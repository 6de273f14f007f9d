"""CodinGame SDK test files keep their title and isValidator; --csv for spreadsheets."""

import csv
import json

import pytest

from referee.judge.board import sdk_fields
from referee.cli.run_files import CSV_FIELDS
from tests.fakebots.procs import no_process_left_behind, referee  # noqa: F401

from tests.project import ROOT

WINNER = f"python3 tests/fakebots/replay.py {ROOT / 'tests/fakebots/solutions'}"
EASY = ["--first-line-ms", "5000", "--turn-ms", "1000"]
SIMPLEST = (ROOT / "puzzles/public/01_simplest.txt").read_text()
SIMPLER = (ROOT / "puzzles/public/02_simpler.txt").read_text()






def sdk_file(path, test_in, **fields):
    path.write_text(json.dumps({"testIn": test_in, **fields}))
    return path


@pytest.mark.parametrize("fields, expected", [
    ({"title": {"2": "Simplest", "1": "Le plus simple"}, "isTest": "true",
      "isValidator": "false"}, ("Simplest", False)),
    ({"title": {"1": "Le plus simple"}, "isValidator": "true"}, ("Le plus simple", True)),
    ({"title": "  Plain  ", "isValidator": True}, ("Plain", True)),
    ({"title": {"2": ""}, "isValidator": "maybe"}, (None, None)),
    ({"title": 3}, (None, None)),
    ({}, (None, None)),
])
def test_sdk_fields_read_the_title_english_first_and_is_validator(tmp_path, fields, expected):
    assert sdk_fields(sdk_file(tmp_path / "test1.json", SIMPLEST, **fields)) == expected


def test_a_test_file_saved_with_a_bom_keeps_its_title(tmp_path):
    # The board reader takes a leading BOM; the title must not fall back to the file name.
    path = tmp_path / "test1.json"
    text = json.dumps({"testIn": SIMPLEST, "title": {"2": "Simplest"}, "isValidator": "true"})
    path.write_text("\ufeff" + text, encoding="utf-8")
    assert sdk_fields(path) == ("Simplest", True)


def test_a_txt_puzzle_has_no_sdk_fields():
    assert sdk_fields(ROOT / "puzzles/public/01_simplest.txt") == (None, None)


@pytest.mark.slow
def test_the_title_names_the_match_and_is_validator_is_a_column(tmp_path):
    sdk_file(tmp_path / "test1.json", SIMPLEST, title={"2": "Simplest", "1": "Le plus simple"},
             isTest="true", isValidator="false")
    sdk_file(tmp_path / "test2.json", SIMPLER, title={"2": "Simpler validator"},
             isTest="false", isValidator="true")
    (tmp_path / "test3.txt").write_text(SIMPLEST)
    report, sheet = tmp_path / "run.json", tmp_path / "run.csv"
    run = referee("run", "--bot", WINNER, *EASY, "--json", str(report), "--csv", str(sheet),
                  str(tmp_path))
    assert run.returncode == 0, run.stdout + run.stderr
    title, header, *rows = run.stdout.split("\n\n")[0].splitlines()
    assert title.startswith("referee run: 3 match(es), containment ")
    assert header.split()[:3] == ["puzzle", "validator", "verdict"]
    assert [row.split("  ")[0].strip() for row in rows] == ["Simplest", "Simpler validator",
                                                            "test3"]
    assert [row.split()[-7] for row in rows] == ["no", "yes", "-"]
    data = json.loads(report.read_text())["matches"]
    assert [(m["puzzle"], m["validator"], m["path"].rsplit("/", 1)[1]) for m in data] == \
        [("Simplest", False, "test1.json"), ("Simpler validator", True, "test2.json"),
         ("test3", None, "test3.txt")]
    table = list(csv.DictReader(sheet.open()))
    assert list(table[0]) == list(CSV_FIELDS)
    assert [(r["puzzle"], r["validator"], r["verdict"], r["won"]) for r in table] == \
        [("Simplest", "False", "win", "True"), ("Simpler validator", "True", "win", "True"),
         ("test3", "", "win", "True")]
    for row, match in zip(table, data):
        assert float(row["first_line_ms"]) == match["first_line_ms"]
        assert (row["command"], row["first_line_limit_ms"], row["turn_limit_ms"]) == \
            (WINNER, "5000", "1000")


@pytest.mark.slow
def test_without_sdk_files_the_table_has_no_validator_column():
    run = referee("run", "--bot", WINNER, *EASY, "puzzles/public/01_simplest.txt")
    assert run.stdout.splitlines()[1].split()[:2] == ["puzzle", "verdict"]


@pytest.mark.slow
def test_csv_into_a_missing_directory_is_a_usage_error():
    run = referee("run", "--bot", WINNER, "--csv", "no/such/dir/r.csv",
                  "puzzles/public/01_simplest.txt")
    assert run.returncode == 2 and "cannot write --csv no/such/dir/r.csv: no such directory" \
        in run.stderr
