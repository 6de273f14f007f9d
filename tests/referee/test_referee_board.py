"""Parsing puzzles: the CodinGame text format and SDK test files."""

import json
import re

import pytest

from referee.judge.board import Board, BoardError, load_board, parse_board

SIMPLEST = "3\n3\n1.2\n...\n..1\n"


def test_parses_width_height_and_nodes():
    board = parse_board(SIMPLEST)
    assert (board.width, board.height) == (3, 3)
    assert dict(board.nodes) == {(0, 0): 1, (2, 0): 2, (2, 2): 1}


def test_round_trips_to_input_text():
    assert parse_board(SIMPLEST).to_text() == SIMPLEST


def test_board_is_immutable():
    board = parse_board(SIMPLEST)
    with pytest.raises(TypeError):
        board.nodes[(1, 1)] = 3
    with pytest.raises(AttributeError):
        board.width = 4


def test_tolerates_crlf_and_trailing_blank_lines():
    assert parse_board(SIMPLEST.replace("\n", "\r\n") + "\n\n") == parse_board(SIMPLEST)


@pytest.mark.parametrize("text, message", [
    ("", "line 1: missing width"),
    ("x\n3\n", "line 1: width must be an integer, got 'x'"),
    ("31\n1\n", "line 1: width must be 1..30, got 31"),
    ("3\n", "line 2: missing height"),
    ("3\n0\n", "line 2: height must be 1..30"),
    ("3\n2\n1.2\n", "expected 2 grid rows, found 1"),
    ("3\n1\n1.2\n...\n", "line 4: unexpected text"),
    ("3\n1\n1.\n", "line 3: row 0 has 2 characters, expected 3"),
    ("3\n2\n1.2\n.9.\n", "line 4: column 1 holds '9'"),
    ("3\n1\n0..\n", "line 3: column 0 holds '0'"),
    ("2\n1\n..\n", "no island"),
])
def test_errors_name_the_line(text, message):
    with pytest.raises(BoardError, match=re.escape(message)):
        parse_board(text)


def test_loads_txt_and_sdk_json(tmp_path):
    txt = tmp_path / "p.txt"
    txt.write_text(SIMPLEST)
    sdk = tmp_path / "p.json"
    sdk.write_text(json.dumps({"title": {"2": "Simplest"}, "testIn": SIMPLEST.strip(),
                               "isTest": "true", "isValidator": "false"}))
    assert load_board(txt) == load_board(sdk) == parse_board(SIMPLEST)


@pytest.mark.parametrize("content, message", [
    ("{not json", "not valid JSON"),
    ('{"testOut": "x"}', "no string field 'testIn'"),
    ('{"testIn": "3\\n3\\n1.2"}', "testIn line 4: expected 3 grid rows"),
])
def test_sdk_errors_name_file(tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(BoardError, match=f"bad.json: .*{message}"):
        load_board(path)


def test_missing_file_is_a_board_error(tmp_path):
    with pytest.raises(BoardError, match="cannot read"):
        load_board(tmp_path / "nope.txt")


def test_all_public_puzzles_parse():
    from pathlib import Path
    paths = sorted(Path("puzzles/public").glob("*.txt"))
    assert len(paths) == 13
    for path in paths:
        assert isinstance(load_board(path), Board)
