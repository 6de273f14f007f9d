"""The puzzle, parsed once at the edge into an immutable Board.

Accepts CodinGame's input format (width, height, then `height` rows of `width`
characters, '.' empty, '1'..'8' a node) and CodinGame SDK test files (JSON with a
`testIn` field holding the same text). Every error names the line it is about;
after parsing, the rest of the referee trusts the board.

The bot's own parser (bot/puzzle.py, not imported here: the judge stays independent)
accepts and refuses the same texts, and names the same line: a line ends at LF, one CR
before it is dropped (a CR anywhere else is a character), one leading BOM is dropped,
the two numbers may have blanks around them, a row only after it, blank lines may only
end the file, and bytes that are not UTF-8 are refused at their line.
"""

from __future__ import annotations

import json
import re
import stat
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Mapping

MAX_SIDE = 30  # cells, CodinGame's bound on width and height
LAB_MAX_SIDE = 100   # the lab reads boards past CodinGame's, as the bot does (bot/puzzle.py)
BOM = "\ufeff"    # Windows editors start a UTF-8 file with it; it is not part of the puzzle
NODE_CHARS = "12345678"
BLANKS = " \t"    # the only separators: ASCII space and tab
_DIGITS = re.compile(r"[0-9]+")

Cell = tuple[int, int]


class BoardError(ValueError):
    """The puzzle text is not a valid board; the message names the line."""


@dataclass(frozen=True, eq=False)
class Board:
    """A width x height grid with nodes {(x, y): value}; x is the column, y the row."""

    width: int
    height: int
    nodes: Mapping[Cell, int]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return (self.width, self.height, dict(self.nodes)) == (
            other.width, other.height, dict(other.nodes))

    def __hash__(self) -> int:
        return hash((self.width, self.height, tuple(sorted(self.nodes.items()))))

    def contains(self, cell: Cell) -> bool:
        """True when the cell lies on the grid."""
        x, y = cell
        return 0 <= x < self.width and 0 <= y < self.height

    def rows(self) -> list[str]:
        """The grid rows as in the input format."""
        return ["".join(str(self.nodes.get((x, y), ".")) for x in range(self.width))
                for y in range(self.height)]

    def to_text(self) -> str:
        """The puzzle in CodinGame's input format, newline-terminated: what the bot reads."""
        return "\n".join([str(self.width), str(self.height), *self.rows()]) + "\n"


def parse_board(text: str, max_side: int = MAX_SIDE) -> Board:
    """Parse CodinGame's input format; raise BoardError naming the bad line.

    Strict: digits are ASCII, blanks are spaces and tabs, a CR is tolerated at a line's end.
    `max_side` lets the lab's benchmarks read boards bigger than CodinGame's.
    """
    lines = [line.removesuffix("\r") for line in text.removeprefix(BOM).split("\n")]
    while lines and not lines[-1].strip(BLANKS):
        lines.pop()  # trailing blank lines are harmless
    width = _parse_side(lines, 0, "width", max_side)
    height = _parse_side(lines, 1, "height", max_side)
    rows = lines[2:]
    nodes: dict[Cell, int] = {}
    for y in range(height):   # in file order: the first bad line is the one named
        if y == len(rows):
            raise BoardError(f"line {len(lines) + 1}: expected {height} grid rows, found {y}")
        nodes.update(_parse_row(rows[y].rstrip(BLANKS), y, width))
    if len(rows) > height:
        extra = next(i for i, line in enumerate(rows[height:]) if line.strip(BLANKS))
        raise BoardError(f"line {height + 3 + extra}: unexpected text after the {height} "
                         "grid rows")
    if not nodes:
        raise BoardError("the grid has no island")
    return Board(width, height, MappingProxyType(nodes))


def _parse_side(lines: list[str], index: int, name: str, max_side: int) -> int:
    """Read the width or height line: an integer 1..max_side."""
    if index >= len(lines):
        raise BoardError(f"line {index + 1}: missing {name}")
    raw = lines[index].strip(BLANKS)
    if not _DIGITS.fullmatch(raw):
        raise BoardError(f"line {index + 1}: {name} must be an integer, got {_quote(raw)}")
    digits = raw.lstrip("0")   # int() refuses over 4,300 digits, leading zeros included
    if len(digits) > len(str(max_side)) or not 1 <= int(digits or "0") <= max_side:
        shown = raw if len(raw) <= 40 else raw[:40] + "..."
        raise BoardError(f"line {index + 1}: {name} must be 1..{max_side}, got {shown}")
    return int(digits)


def _parse_row(row: str, y: int, width: int) -> dict[Cell, int]:
    """Read grid row y (file line y + 3) into its nodes."""
    line_no = y + 3
    if len(row) != width:
        raise BoardError(f"line {line_no}: row {y} has {len(row)} characters, expected {width}")
    nodes = {}
    for x, char in enumerate(row):
        if char in NODE_CHARS:
            nodes[(x, y)] = int(char)
        elif char != ".":
            raise BoardError(f"line {line_no}: column {x} holds {_char(char)}, "
                             "expected '.' or 1..8")
    return nodes


def _char(char: str) -> str:
    """A character for an error message; a byte decode_text could not read, by its value."""
    if "\udc80" <= char <= "\udcff":
        return f"byte 0x{ord(char) - 0xdc00:02x}, which is not UTF-8"
    return repr(char)


def _quote(text: str, limit: int = 40) -> str:
    """A piece of the input quoted for an error message, cut when long."""
    return repr(text if len(text) <= limit else text[:limit] + "...")


def parse_sdk_test(text: str) -> Board:
    """Parse a CodinGame SDK test file (JSON with a `testIn` field)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise BoardError(f"line {error.lineno}: not valid JSON ({error.msg})") from None
    except (ValueError, RecursionError) as error:   # a number too long, nesting too deep
        raise BoardError(f"not valid JSON ({error.__class__.__name__})") from None
    if not isinstance(data, dict) or not isinstance(data.get("testIn"), str):
        raise BoardError("line 1: JSON test file has no string field 'testIn'")
    try:
        return parse_board(data["testIn"])
    except BoardError as error:
        raise BoardError(f"testIn {error}") from None


def decode_text(data: bytes) -> str:
    """The file's bytes as text, line ends untouched (a CR alone ends no line). A byte that
    is not UTF-8 becomes a lone surrogate, which the parser refuses at its line."""
    return data.decode("utf-8", errors="surrogateescape")


MAX_PUZZLE_BYTES = 1 << 20


def load_board(path: str | Path, max_side: int = MAX_SIDE) -> Board:
    """Read a .txt puzzle or a .json SDK test file (a leading BOM is dropped); errors start
    with the file name."""
    path = Path(path)
    try:
        refuse_special(path)
        size = path.stat().st_size
        if size > MAX_PUZZLE_BYTES:   # refused unread: a 30x30 SDK file is a few KB
            raise BoardError(f"{path}: {size} bytes, over the {MAX_PUZZLE_BYTES} a puzzle "
                             "could need")
        data = path.read_bytes()
    except OSError as error:
        raise BoardError(f"{path}: cannot read ({error.__class__.__name__}: {error})") from None
    try:
        if path.suffix.lower() == ".json":
            return parse_sdk_test(_decode_json(data))
        return parse_board(decode_text(data), max_side)
    except BoardError as error:
        raise BoardError(f"{path}: {error}") from None


def _decode_json(data: bytes) -> str:
    """An SDK test file's text (JSON is UTF-8; its own escapes carry the line ends)."""
    try:
        return data.decode("utf-8").removeprefix(BOM)
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise BoardError(f"line {line}: not UTF-8 text") from None


PUZZLE_SUFFIXES = (".txt", ".json")   # a puzzle in CodinGame's format, an SDK test file


def puzzle_files(arg: str | Path) -> list[Path]:
    """The puzzle files one command-line argument names: a file, or a directory's .txt and
    .json files in name order. BoardError if there are none."""
    path = Path(arg)
    try:
        is_dir, exists = path.is_dir(), path.exists()
        found = (sorted(p for p in path.iterdir() if p.suffix.lower() in PUZZLE_SUFFIXES)
                 if is_dir else [path])
    except OSError as error:   # a name too long, a folder that cannot be listed
        raise BoardError(f"{arg}: cannot read ({error.strerror or error})") from None
    if is_dir and not found:
        raise BoardError(f"no .txt or .json puzzle in directory {arg}")
    if not exists:
        raise BoardError(f"no such puzzle file or directory: {arg}")
    for file in found:
        try:
            refuse_special(file)
        except OSError as error:
            raise BoardError(f"{file}: cannot read ({error.__class__.__name__}: {error})") from None
    return found


SPECIAL_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a named pipe"),
                 (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                 (stat.S_ISSOCK, "a socket"))


def refuse_special(path: Path) -> None:
    """BoardError unless `path` is a regular file (or a symlink to one): reading a named
    pipe or a device would wait for a writer, or never end. OSError if it cannot be seen."""
    mode = path.stat().st_mode
    if not stat.S_ISREG(mode):
        kind = next((name for test, name in SPECIAL_KINDS if test(mode)), "a special file")
        raise BoardError(f"{path}: cannot read: {kind}, not a regular file")


SDK_TITLE_LANGUAGES = ("2", "1")     # an SDK title is {language id: text}; 2 English, 1 French


def sdk_fields(path: Path) -> tuple[str | None, bool | None]:
    """An SDK test file's title (English first) and isValidator; (None, None) when absent.

    The SDK writes `"title": {"2": "English", "1": "French"}` and `"isValidator":
    "true"`; a plain string title and a JSON boolean are read too.
    """
    if path.suffix.lower() != ".json":
        return None, None
    try:
        data = json.loads(path.read_text(encoding="utf-8-sig"))
    except (OSError, UnicodeDecodeError, ValueError):
        return None, None   # load_board has read it already; nothing more to name
    title = data.get("title")
    if isinstance(title, dict):
        texts = [title.get(k) for k in SDK_TITLE_LANGUAGES] + list(title.values())
        title = next((t for t in texts if isinstance(t, str) and t.strip()), None)
    title = title.strip() if isinstance(title, str) and title.strip() else None
    validator = data.get("isValidator")
    if isinstance(validator, str):
        validator = {"true": True, "false": False}.get(validator.strip().lower())
    elif not isinstance(validator, bool):
        validator = None
    return title, validator
