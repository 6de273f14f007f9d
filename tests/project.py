"""Where the project is, for tests, and how they run its commands."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PUBLIC = ROOT / "puzzles" / "public"


def run_referee(*args, stdin=None, timeout=120):
    """`python -m referee ARGS` from the project root, output captured as text."""
    return subprocess.run([sys.executable, "-m", "referee", *args], cwd=ROOT, input=stdin,
                          capture_output=True, text=True, timeout=timeout)
