"""The CodinGame bundle: build.py and dist/bot.py."""

import select
import shutil
import subprocess
import sys

import pytest

import build
from project import ROOT


def test_committed_bundle_is_what_bot_builds_now():
    run = subprocess.run([sys.executable, "build.py", "--check"], cwd=ROOT,
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr


def test_build_is_reproducible():
    assert build.bundle() == build.bundle()


def test_bundle_fits_codingame():
    text = build.bundle()
    assert len(text) <= build.CODINGAME_MAX_CHARS
    assert text.isascii()


def test_bundle_uses_only_the_standard_library():
    # Run the bundle with site-packages disabled (-S) and isolated mode (-I).
    puzzle = (ROOT / "puzzles" / "public" / "03_simple.txt").read_text()
    run = subprocess.run([sys.executable, "-I", "-S", str(ROOT / "dist" / "bot.py")],
                         input=puzzle, capture_output=True, text=True, timeout=20)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip()


def test_build_refuses_an_oversized_bundle(monkeypatch):
    monkeypatch.setattr(build, "CODINGAME_MAX_CHARS", 1000)
    with pytest.raises(build.BuildError, match="over CodinGame's 1,000"):
        build.bundle()


def test_build_refuses_non_ascii(monkeypatch):
    real = build.stickytape.script
    monkeypatch.setattr(build.stickytape, "script", lambda *a, **k: real(*a, **k) + "# \u00e9\n")
    with pytest.raises(build.BuildError, match="non-ASCII"):
        build.bundle()


def _copy_project(tmp_path):
    """build.py, bot/, dist/bot.py and the smoke puzzle, in a scratch directory."""
    shutil.copy(ROOT / "build.py", tmp_path)
    shutil.copytree(ROOT / "bot", tmp_path / "bot", ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "dist").mkdir()
    shutil.copy(ROOT / "dist" / "bot.py", tmp_path / "dist")
    (tmp_path / "puzzles" / "public").mkdir(parents=True)
    shutil.copy(build.SMOKE_PUZZLE, tmp_path / "puzzles" / "public")
    return tmp_path


def _next_line(proc, deadline_s=60):
    """The watcher's next output line, or fail if it says nothing in time."""
    ready, _, _ = select.select([proc.stdout], [], [], deadline_s)
    assert ready, "the watcher printed nothing"
    return proc.stdout.readline()


def test_watch_rebuilds_on_change_by_rename_and_keeps_the_last_good_bundle(tmp_path):
    project = _copy_project(tmp_path)
    bundle_path, source = project / "dist" / "bot.py", project / "bot" / "solver.py"
    proc = subprocess.Popen([sys.executable, "build.py", "--watch", "--interval", "0.05",
                             "--max-builds", "3"], cwd=project, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        first = _next_line(proc)
        assert "(start): dist/bot.py" in first and "88 links" in first
        inode = bundle_path.stat().st_ino

        source.write_text(source.read_text() + "WATCHED_EDIT = 'the watcher must pick this up'\n")
        second = _next_line(proc)
        assert "(bot/solver.py): dist/bot.py" in second
        rebuilt = bundle_path.read_text()
        assert "the watcher must pick this up" in rebuilt
        assert bundle_path.stat().st_ino != inode, "the bundle was rewritten in place, not renamed"

        source.write_text(source.read_text() + "def broken(:\n")
        third = _next_line(proc)
        assert "FAILED, dist/bot.py left as it was: solver.py line" in third
        assert bundle_path.read_text() == rebuilt
        assert proc.wait(timeout=30) == 0
    finally:
        proc.kill()
        proc.wait()
    assert sorted(p.name for p in (project / "dist").iterdir()) == ["bot.py"]


def test_a_bundle_that_fails_its_smoke_run_never_replaces_the_last_good_one(tmp_path, monkeypatch):
    output = tmp_path / "bot.py"
    output.write_text("the last good bundle\n")
    monkeypatch.setattr(build, "OUTPUT", output)
    monkeypatch.setattr(build, "PENDING", tmp_path / ".bot.py.new")

    def failing_smoke(path):
        assert path == build.PENDING and path.read_text() == build.bundle()
        raise build.BuildError("smoke failed")

    monkeypatch.setattr(build, "smoke", failing_smoke)
    with pytest.raises(build.BuildError, match="smoke failed"):
        build.build()
    assert output.read_text() == "the last good bundle\n"
    assert not build.PENDING.exists()


def test_the_bundle_ships_without_docstrings_or_comments_but_runs_the_same_bot():
    import build
    text = build.bundle()
    assert "search that learns from its contradictions" in (ROOT / "bot" / "solver.py").read_text()
    assert "search that learns from its contradictions" not in text  # a docstring of solver.py
    from bot.tuning import NODE_SEARCH_BRANCHES
    assert "def first_solution(" in text
    assert f"NODE_SEARCH_BRANCHES = {NODE_SEARCH_BRANCHES}" in text  # the constants ship
