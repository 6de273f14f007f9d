"""Text from a bot or a file name made safe to print on a terminal, and sizes as text.

A bot's stderr, its output lines and file names can hold control characters: escape
codes that clear the screen, set the window title, hide text, or a carriage return
that overwrites a line with a fake summary. Everything the referee prints that it did
not write itself goes through `safe` (one line) or `safe_lines` (newlines kept).
"""

from __future__ import annotations

import os
import re

# C0 controls and DEL, C1 controls, and the invisible characters that reorder or hide text
# (bidirectional overrides and isolates, zero-width marks, line and paragraph separators).
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]")
_UNSAFE_BUT_NEWLINE = re.compile(
    "[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]")
_NAMED = {"\t": "\\t", "\r": "\\r", "\n": "\\n", "\x1b": "\\e"}


def _escape(match: re.Match) -> str:
    char = match.group()
    if char in _NAMED:
        return _NAMED[char]
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def safe(text: object) -> str:
    """`text` on one line, every control or invisible character written as an escape."""
    return _UNSAFE.sub(_escape, str(text))


def safe_lines(text: object) -> str:
    """As `safe`, but newlines are kept as line breaks."""
    return _UNSAFE_BUT_NEWLINE.sub(_escape, str(text))


def quoted(line: str, limit: int = 120) -> str:
    """A bot's output line as a safe repr, cut after `limit` characters."""
    cut = line if len(line) <= limit else line[:limit]
    return safe(repr(cut)) + ("..." if len(line) > limit else "")


def size_text(size: int | None) -> str:
    """'1.5 GB' or '768 MB' (binary units, as the memory cap is given)."""
    if size is None:
        return "-"
    if size >= 2**30:
        return f"{size / 2**30:.1f} GB"
    return f"{size / 2**20:.0f} MB"


def use_colour(choice: str, stream) -> bool:
    if choice != "auto":
        return choice == "always"
    return stream.isatty() and not os.environ.get("NO_COLOR")
