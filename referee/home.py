"""Where the checkout is. The defaults that name its files (dist/bot.py, puzzles/public)
are found from the package's own location, not the working folder, so every command works
from any folder; an installed copy that is no checkout says so in one line."""

from __future__ import annotations

import glob
import os
import sys
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


def package_version() -> str:
    """The installed package's version (its dist-info, an editable install's included), or
    pyproject.toml's in a checkout not installed. Read by hand: importlib.metadata's
    import alone (its e-mail parser) took 12 ms of every recorded run."""
    for folder in sys.path:
        for metadata in glob.glob(os.path.join(folder or ".", "spoon2-*.dist-info", "METADATA")):
            try:
                with open(metadata, encoding="utf-8") as file:
                    for line in file:
                        if line.startswith("Version:"):
                            return line.split(":", 1)[1].strip()
                        if not line.strip():
                            break   # the headers end here
            except OSError:
                continue
    import tomllib   # here: an installed package never needs it
    try:
        with open(ROOT / "pyproject.toml", "rb") as file:
            return tomllib.load(file)["project"]["version"]
    except (OSError, KeyError, tomllib.TOMLDecodeError):
        return "unknown"
