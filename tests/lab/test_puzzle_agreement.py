"""One reading of puzzle text: the bot (bot/puzzle.py through bot.cli.read_puzzle, as its
process reads stdin) and the referee (referee/judge/board.py, as it reads a file) accept and
refuse the same bytes, name the same line when they refuse, and read the same islands.

The corpus is the public tests mutated by a seeded generator: bytes inserted, deleted or
changed (CR, LF, blanks, a BOM, bytes that are not UTF-8, non-ASCII digits), line ends
made CRLF or CR alone, blank lines, leading blanks, text after the grid, huge numbers.
"""

import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import read_puzzle
from bot.puzzle import LARGEST_SIDE, PuzzleError, parse
from referee.judge.board import MAX_SIDE, BoardError, decode_text, parse_board
from referee.judge.board import LAB_MAX_SIDE

ROOT = Path(__file__).resolve().parents[2]
PUBLIC = sorted((ROOT / "puzzles" / "public").glob("*.txt"))
PIECES = [b"\r", b"\n", b"\r\n", b" ", b"\t", b"\xef\xbb\xbf", b"\xff", b"\xc3", b"0", b"9",
          b"1", b"8", b".", b"x", b"\x0b", b"\x0c", b"\x00", "\u0663".encode(),
          "\u00a0".encode(), "\u2028".encode(), b"\x85"]
CASES = 3000


def bot_reading(data: bytes, tmp_path: Path):
    """What the bot's process makes of `data` on stdin: ('ok', width, height, nodes) or
    ('refused', line number or None)."""
    path = tmp_path / "stdin"
    path.write_bytes(data)
    with path.open("rb") as stream:
        text = read_puzzle(stream)
    try:
        puzzle = parse(text)
    except PuzzleError as error:
        return "refused", _line(str(error))
    if not len(puzzle):
        return "refused", None   # bot.cli: "the grid has no island"
    return "ok", puzzle.width, puzzle.height, dict(zip(puzzle.pos, puzzle.value))


def referee_reading(data: bytes, max_side: int = LARGEST_SIDE):
    """What the referee makes of `data` read from a .txt file."""
    try:
        board = parse_board(decode_text(data), max_side)
    except BoardError as error:
        return "refused", _line(str(error))
    return "ok", board.width, board.height, dict(board.nodes)


def _line(message: str):
    found = re.match(r"line (\d+)", message)
    return int(found.group(1)) if found else None


def mutate(data: bytes, rng: random.Random) -> bytes:
    """One to three random edits of a puzzle file."""
    for _ in range(rng.randint(1, 3)):
        kind = rng.randrange(9)
        at = rng.randint(0, len(data))
        if kind == 0:
            data = data[:at] + rng.choice(PIECES) + data[at:]
        elif kind == 1 and data:
            data = data[:at] + data[at + rng.randint(1, 3):]
        elif kind == 2 and at < len(data):
            data = data[:at] + rng.choice(PIECES) + data[at + 1:]
        elif kind == 3:
            data = data.replace(b"\n", rng.choice([b"\r\n", b"\r", b"\n\n", b" \n", b"\t\r\n"]))
        elif kind == 4:
            data = b"\xef\xbb\xbf" + data
        elif kind == 5:
            lines = data.split(b"\n")
            lines.insert(rng.randrange(len(lines) + 1), rng.choice([b"", b" ", b"\r", b"x"]))
            data = b"\n".join(lines)
        elif kind == 6:
            lines = data.split(b"\n")
            i = rng.randrange(len(lines))
            lines[i] = rng.choice([b" ", b"\t", b"0", b"00"]) + lines[i]
            data = b"\n".join(lines)
        elif kind == 7:
            data = data + rng.choice([b"x\n", b"\n\n1\n", b"   \n", b"\r\n", b"\n.\n", b"\xff"])
        else:
            first, _, rest = data.partition(b"\n")
            data = rng.choice([b"9" * 4301, b"0" * 5000 + first, b"31", b"100", b"101",
                               b"-1", b"+3", b"1e1", b"0"]) + b"\n" + rest
    return data


def corpus():
    rng = random.Random(37)
    sources = [path.read_bytes() for path in PUBLIC]
    for _ in range(CASES):
        yield mutate(rng.choice(sources), rng)


def test_the_corpus_reaches_both_answers():
    """The mutations are neither all fatal nor all harmless: the test below compares both."""
    readings = [referee_reading(data)[0] for data in corpus()]
    assert 0.1 < readings.count("ok") / len(readings) < 0.9


@pytest.mark.slow
def test_bot_and_referee_agree_on_every_mutated_puzzle(tmp_path):
    assert LARGEST_SIDE == LAB_MAX_SIDE   # the bot plays what the lab benchmarks
    for data in corpus():
        bot = bot_reading(data, tmp_path)
        assert bot == referee_reading(data), data
        # As a judge, the referee refuses besides only what CodinGame never sends: a side
        # over 30 (line 1 or 2 then, where the bot may refuse a later line).
        judged = referee_reading(data, MAX_SIDE)
        if bot[0] == "ok" and judged != bot:
            assert judged[0] == "refused" and max(bot[1], bot[2]) > MAX_SIDE, data
        if bot[0] == "refused":
            assert judged[0] == "refused", data


@pytest.mark.parametrize("name, data, line", [
    ("BOM", b"\xef\xbb\xbf2\n2\n2.\n42\n", None),
    ("CRLF", b"2\r\n2\r\n2.\r\n42\r\n", None),
    ("CR alone", b"2\r2\r2.\r42\r", 1),
    ("blank line in the grid", b"3\n3\n1.1\n\n...\n1.1\n", 4),
    ("leading blank in a row", b"2\n2\n 2.\n42\n", 3),
    ("blanks around the numbers and after a row", b" 2\t\n\t2 \n2. \n42\t\n", None),
    ("text after the grid", b"2\n2\n2.\n42\n\n\nend\n", 7),
    ("4,301-digit width", b"9" * 4301 + b"\n2\n2.\n42\n", 1),
    ("5,000 leading zeros", b"0" * 5000 + b"2\n2\n2.\n42\n", None),
    ("not UTF-8", b"2\n2\n2\xff\n42\n", 3),
])
def test_each_case_of_the_issue_is_read_alike(name, data, line, tmp_path):
    bot = bot_reading(data, tmp_path)
    assert bot == referee_reading(data)
    assert bot == (("refused", line) if line else ("ok", 2, 2, {(0, 0): 2, (0, 1): 4, (1, 1): 2}))


@pytest.mark.parametrize("data", [b"9" * 4301 + b"\n2\n2.\n42\n", b"2\r2\r2.\r42\r",
                                  b"3\n3\n1.1\n\n...\n1.1\n", b"2\n2\n2.\n42\nend\n",
                                  b"2\n2\n2\xff\n42\n", b"\xff\xfe2\n"])
def test_the_bot_process_refuses_a_bad_file_with_one_line_and_status_2(data, tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_bytes(data)
    with bad.open("rb") as stdin:
        bot = subprocess.run([sys.executable, "-m", "bot"], stdin=stdin, capture_output=True,
                             timeout=60, cwd=ROOT)
    assert (bot.returncode, bot.stdout) == (2, b"")
    assert bot.stderr.startswith(b"bot: malformed puzzle: line ")
    assert bot.stderr.count(b"\n") == 1, bot.stderr


def test_the_bot_process_plays_a_bom_file_as_the_referee_does(tmp_path):
    good = tmp_path / "bom.txt"
    good.write_bytes(b"\xef\xbb\xbf" + (ROOT / "puzzles/public/02_simpler.txt").read_bytes())
    with good.open("rb") as stdin:
        bot = subprocess.run([sys.executable, "-m", "bot"], stdin=stdin, capture_output=True,
                             timeout=60, cwd=ROOT)
    assert bot.returncode == 0 and bot.stdout.count(b"\n") >= 2, bot.stderr
