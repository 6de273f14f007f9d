"""Where the checkout is. The defaults that name its files (dist/bot.py, puzzles/public)
are found from the package's own location, not the working folder, so every command works
from any folder; an installed copy that is no checkout says so in one line."""

from __future__ import annotations

from pathlib import Path

from referee.commands import UsageError

ROOT = Path(__file__).resolve().parents[1]


def is_checkout() -> bool:
    """True when the package runs from a source checkout (an editable install included)."""
    return (ROOT / "pyproject.toml").is_file() and (ROOT / "bot").is_dir()


def in_checkout(relative: str, fix: str, build: str = "") -> Path:
    """ROOT/relative when it is there; else a UsageError naming it and the fix: `fix`
    (give another file), or in a checkout where `build` makes the file, that first."""
    path = ROOT / relative
    if path.exists():
        return path
    if not is_checkout():
        raise UsageError(f"{relative}: spoon2 is not running from a source checkout ({ROOT}); "
                         f"{fix}")
    raise UsageError(f"{relative} not found in the checkout {ROOT}: "
                     + (f"{build}, or {fix}" if build else fix))
