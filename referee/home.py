"""Where the checkout is. The defaults that name its files (dist/bot.py, puzzles/public)
are found from the package's own location, not the working folder, so every command works
from any folder; an installed copy that is no checkout says so in one line."""

from __future__ import annotations

from pathlib import Path


ROOT = Path(__file__).resolve().parents[1]


class NotInCheckout(Exception):
    """A default file the checkout should hold is not there: one line for the user, who
    gives another file or builds it (the command line reports it as a usage error)."""


def is_checkout() -> bool:
    """True when the package runs from a source checkout (an editable install included)."""
    return (ROOT / "pyproject.toml").is_file() and (ROOT / "bot").is_dir()


def in_checkout(relative: str, fix: str, build: str = "") -> Path:
    """ROOT/relative when it is there; else NotInCheckout naming it and the fix: `fix`
    (give another file), or in a checkout where `build` makes the file, that first."""
    path = ROOT / relative
    if path.exists():
        return path
    if not is_checkout():
        raise NotInCheckout(f"{relative}: spoon2 is not running from a source checkout ({ROOT}); "
                         f"{fix}")
    raise NotInCheckout(f"{relative} not found in the checkout {ROOT}: "
                     + (f"{build}, or {fix}" if build else fix))
