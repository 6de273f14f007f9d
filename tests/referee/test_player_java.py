"""A Java player's bot through the player's tools: run from its own folder with a relative
class path, recorded in the history and told apart from another version, and profiled
line by line (the wall and CPU time of each, and what to use next)."""

import json
import os
import re
import shutil
import subprocess
import sys

import pytest

from tests.referee.test_languages import BOTS, build, need

from tests.project import PUBLIC, ROOT

SIMPLEST = str(PUBLIC / "01_simplest.txt")


@pytest.fixture(scope="module")
def java_folder(tmp_path_factory):
    """Player.java built in a folder of its own, as a player keeps it."""
    need("javac", "java")
    folder = tmp_path_factory.mktemp("javabot")
    shutil.copy(os.path.join(BOTS, "java", "Player.java"), folder)
    build(["javac", "-d", str(folder), str(folder / "Player.java")])
    return folder


def spoon2(*args, cwd):
    return subprocess.run([sys.executable, "-m", "referee", *args], cwd=cwd, text=True,
                          capture_output=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})


@pytest.mark.slow
def test_a_java_bot_is_played_from_its_folder_and_each_version_recorded(java_folder, tmp_path):
    db = str(tmp_path / "history.sqlite")
    first = spoon2("run", "--bot", "java -cp . Player", "--db", db, "--first-line-ms", "10000",
                   SIMPLEST, cwd=java_folder)
    assert first.returncode == 0, first.stdout + first.stderr
    with open(java_folder / "Player.java", "a") as source:   # a new version of the bot
        source.write("\nclass Version2 {}\n")   # a comment alone leaves the classes as they were
    build(["javac", "-d", str(java_folder), str(java_folder / "Player.java")])
    second = spoon2("run", "--bot", "java -cp . Player", "--db", db, "--first-line-ms", "10000",
                    SIMPLEST, cwd=java_folder)
    assert second.returncode == 0, second.stdout + second.stderr
    runs = json.loads(spoon2("history", "--db", db, "--json", cwd=tmp_path).stdout)["runs"]
    assert [(r["passed"], r["failed"]) for r in runs] == [(1, 0), (1, 0)]
    assert all("java -cp" in r["bot"] and "Player" in r["bot"] for r in runs)
    assert runs[0]["version"] != runs[1]["version"]   # the class files changed


@pytest.mark.slow
def test_a_java_bot_is_profiled_line_by_line(java_folder):
    done = spoon2("profile", "--bot", "java -cp . Player", SIMPLEST, cwd=java_folder)
    assert done.returncode == 0, done.stdout + done.stderr
    rows = [line.split() for line in done.stdout.splitlines()
            if re.match(r"\s+\d+\s+[\d.]+\s+[\d.]+", line)]
    assert [int(row[0]) for row in rows] == [1, 2]
    assert "async-profiler" in done.stdout
