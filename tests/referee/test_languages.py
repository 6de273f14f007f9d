"""Bots in other CodinGame languages play under `python -m referee run` as they would there.

Small Hashi solvers written for these tests in Java, C++ and JavaScript (tests/bots/) are
built in a temporary folder and must win all 13 public tests; a Java bot that fills more
than 768 MB must lose on memory, one that holds 300 MB must win (the heap each runtime is
told: referee/box/heaps.py). A JVM reserves far more address space than it uses, so these
also check that the referee limits memory used, not address space.

A test whose toolchain (javac and java, g++, node) is missing skips with a message; with
the CI environment variable set it fails instead (.ci/run installs them).
"""

import json
import os
import re
import shutil
import subprocess

import pytest

from tests.fakebots.procs import referee

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BOTS = os.path.join(ROOT, "tests", "bots")
PUBLIC_TESTS = 13


def need(*tools: str) -> None:
    """Skip (fail under CI) when a toolchain is absent."""
    missing = [tool for tool in tools if shutil.which(tool) is None]
    if not missing:
        return
    message = f"{', '.join(missing)} not found: install the toolchain (see .ci/run)"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


def build(command: list[str]) -> None:
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr


@pytest.fixture(scope="module")
def java_classes(tmp_path_factory):
    need("javac", "java")
    out = tmp_path_factory.mktemp("java")
    build(["javac", "-d", str(out), os.path.join(BOTS, "java", "Player.java"),
           os.path.join(BOTS, "java", "Hog.java")])
    return str(out)


@pytest.fixture(scope="module")
def cpp_binary(tmp_path_factory):
    need("g++")
    binary = tmp_path_factory.mktemp("cpp") / "hashi"
    build(["g++", "-O2", "-o", str(binary), os.path.join(BOTS, "cpp", "hashi.cpp")])
    return str(binary)


def play(bot: str, tmp_path, *args: str) -> tuple[subprocess.CompletedProcess, list[dict]]:
    out = tmp_path / "results.json"
    done = referee("run", "--bot", bot, "--json", str(out), *args, timeout=600)
    assert out.exists(), done.stderr
    return done, json.loads(out.read_text())["matches"]


def assert_wins_every_public_test(done, results) -> None:
    assert [r["verdict"] for r in results] == ["win"] * PUBLIC_TESTS, done.stdout
    assert done.returncode == 0
    assert done.stdout.strip().endswith(f"{PUBLIC_TESTS} passed, 0 failed")


@pytest.mark.slow
def test_a_java_bot_wins_every_public_test(java_classes, tmp_path):
    assert_wins_every_public_test(*play(f"java -cp {java_classes} Player", tmp_path))


@pytest.mark.slow
def test_a_cpp_bot_wins_every_public_test(cpp_binary, tmp_path):
    assert_wins_every_public_test(*play(cpp_binary, tmp_path))


@pytest.mark.slow
def test_a_javascript_bot_wins_every_public_test(tmp_path):
    need("node")
    bot = f"node {os.path.join(BOTS, 'js', 'hashi.js')}"
    assert_wins_every_public_test(*play(bot, tmp_path))


@pytest.mark.slow
def test_a_java_bot_over_the_cap_loses_on_memory(java_classes, tmp_path):
    # a maximum heap above the cap, whatever the machine's RAM: the referee, not the JVM,
    # must stop it; a long first-line limit, so the verdict cannot be a timeout
    done, results = play(f"java -Xmx2g -cp {java_classes} Hog", tmp_path, "--first-line-ms",
                         "30000", os.path.join(ROOT, "puzzles", "public", "01_simplest.txt"))
    assert done.returncode == 1
    assert [r["verdict"] for r in results] == ["memory"], done.stdout
    assert results[0]["reason"].endswith("cap 768 MB")
    assert 768 * 0.9 <= results[0]["peak_mb"] <= 768   # the kernel's peak stops at the cap


@pytest.mark.slow
@pytest.mark.parametrize("launch", ["java", "a script"])
def test_a_java_bot_with_a_300_mb_heap_wins(java_classes, tmp_path, launch):
    # CodinGame runs it within 768 MB; a JVM left to size its own heap takes a quarter of
    # the cgroup (192 MB) and fails, or the host's RAM, and churns past the cap
    bot = f"java -cp {java_classes} Hog 300"
    if launch == "a script":   # the environment reaches a java that a script starts
        script = os.path.join(java_classes, "launch.sh")
        with open(script, "w") as file:
            file.write('#!/bin/sh\nexec java -cp "$(dirname "$0")" Hog 300\n')
        bot = f"sh {script}"
    done, results = play(bot, tmp_path, "--first-line-ms", "30000",
                         os.path.join(ROOT, "puzzles", "public", "01_simplest.txt"))
    assert [r["verdict"] for r in results] == ["win"], (done.stdout, results[0]["stderr_tail"])
    assert 300 <= results[0]["peak_mb"] < 768


@pytest.mark.slow
def test_a_javascript_bot_is_told_a_heap_near_the_cap(tmp_path):
    # Node sizes its heap from the cgroup (396 MB under 768 MB) or, where the box hides
    # it, from the host's RAM
    need("node")
    script = tmp_path / "heap.js"
    script.write_text("console.error('heap ' + require('v8').getHeapStatistics().heap_size_limit);"
                      "console.log('0 0 2 0 1\\n2 0 2 2 1');")
    done, results = play(f"node {script}", tmp_path, "--first-line-ms", "20000",
                         os.path.join(ROOT, "puzzles", "public", "01_simplest.txt"))
    limit = int(re.search(r"heap (\d+)", results[0]["stderr_tail"]).group(1)) / 2**20
    assert results[0]["verdict"] == "win", done.stdout
    assert 600 <= limit < 768, limit
