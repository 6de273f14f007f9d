"""The `play` command writes one self-contained page; the page builder never needs the bot."""

import json
import os
import re
import subprocess
import sys

import pytest

from tests.project import ROOT, run_referee


def page_data(path):
    text = path.read_text()
    blob = re.search(r'<script type="application/json" id="play-data">(.*?)</script>', text, re.S)
    return text, json.loads(blob.group(1))


@pytest.mark.slow
def test_play_writes_the_puzzles_with_hints_and_solutions(tmp_path):
    out = tmp_path / "p.html"
    run = run_referee("play", "puzzles/public/02_simpler.txt", "puzzles/public/13_expert.txt",
                      "--out", str(out))
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith(f"{out}: 2 puzzle(s), ")
    text, data = page_data(out)
    simpler, expert = data["puzzles"]
    assert simpler == {"name": "02_simpler", "w": 2, "h": 2, "rows": ["2.", "42"],
                       "difficulty": "easy", "unique": True,
                       "solution": [[0, 0, 0, 1, 2], [0, 1, 1, 1, 2]],
                       "hints": [[0, 1, 1, 1, 2, "magicVal",
                                  "(1,1) is a 2 with one neighbour: 2 links go left"],
                                 [0, 0, 0, 1, 2, "magicVal",
                                  "(0,1) needs 4 links from 2 directions, at most 2 each: "
                                  "at least 2 links go up"]]}
    assert len(expert["solution"]) == 88 and expert["unique"]
    # Every hint raises a link to at most what the solution holds.
    solution = {tuple(link[:4]): link[4] for link in expert["solution"]}
    assert all(hint[4] <= solution[tuple(hint[:4])] for hint in expert["hints"])
    # Self-contained: no external script, style, image or link.
    assert not re.search(r'<(script|link|img)[^>]*\b(src|href)=', text)
    assert "http://" not in text.replace('xmlns="http://www.w3.org/2000/svg"', "").replace(
        '"http://www.w3.org/2000/svg"', "")


@pytest.mark.slow
def test_play_gen_grades_each_set(tmp_path):
    out = tmp_path / "g.html"
    run = run_referee("play", "--gen", "6x6:easy:count=2:seed=3", "--out", str(out))
    assert run.returncode == 0, run.stderr
    _, data = page_data(out)
    assert [p["difficulty"] for p in data["puzzles"]] == ["easy", "easy"]
    # An easy set is made unique: such a puzzle has one solution by definition.
    assert [p["name"] for p in data["puzzles"]] == ["6x6_easy_unique_s3_000", "6x6_easy_unique_s3_001"]
    assert [p["unique"] for p in data["puzzles"]] == [True, True]


@pytest.mark.slow
def test_play_usage_errors_are_one_line(tmp_path):
    (tmp_path / "empty").mkdir()
    for args, message in [(["no/such.txt"], "no such puzzle file or directory: no/such.txt"),
                          ([str(tmp_path / "empty")], "no .txt or .json puzzle in directory"),
                          (["--gen", "6x6:tricky"], "unknown part 'tricky'"),
                          (["--out", str(tmp_path / "no" / "p.html")], "no such directory")]:
        run = run_referee("play", *args)
        assert run.returncode == 2 and message in run.stderr and "Traceback" not in run.stderr


def test_the_page_builder_does_not_import_the_bot():
    code = "import sys, referee.report.player; assert not any(m == 'bot' or m.startswith('bot.') for m in sys.modules)"
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr


@pytest.mark.slow
def test_default_outputs_go_under_out(tmp_path):
    # out/ is git-ignored: a command run without --out writes nothing into the checkout.
    for args, made in [(["play", str(ROOT / "puzzles/public/02_simpler.txt")], "out/play.html"),
                       (["gen", "--size", "4x4", "--count", "1"], "out/gen/4x4_any_s1_000.txt")]:
        run = subprocess.run([sys.executable, "-m", "referee", *args], cwd=tmp_path,
                             capture_output=True, text=True, timeout=60,
                             env={**os.environ, "PYTHONPATH": str(ROOT)})
        assert run.returncode == 0, run.stderr
        assert (tmp_path / made).is_file()
    assert "/out/" in (ROOT / ".gitignore").read_text().split()
