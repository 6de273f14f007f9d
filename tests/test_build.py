"""The CodinGame bundle: build.py and dist/bot.py."""

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
