"""The generator library: every puzzle is legal, solved by its stored links, and reproducible."""

import random

import pytest

import bot
from referee.board import parse_board
from referee.generate import generate, puzzle_rng, solution_text, target_islands
from referee.rules import Verdict, judge_text

SIZES = [(1, 2), (2, 1), (3, 3), (5, 4), (8, 8), (13, 7), (30, 30)]


@pytest.mark.parametrize("width,height", SIZES)
@pytest.mark.parametrize("density", [0.1, 0.3, 1.0])
def test_stored_solution_wins(width, height, density):
    for index in range(5):
        text, links = generate(width, height, puzzle_rng(7, index), density=density)
        board = parse_board(text)
        assert (board.width, board.height) == (width, height)
        assert len(board.nodes) >= 2
        assert all(1 <= v <= 8 for v in board.nodes.values())
        outcome = judge_text(board, solution_text(links))
        assert outcome.verdict is Verdict.WIN, outcome.reason


def test_same_arguments_same_puzzle():
    first = [generate(30, 30, puzzle_rng(3, i), density=0.2) for i in range(5)]
    again = [generate(30, 30, puzzle_rng(3, i), density=0.2) for i in range(5)]
    assert first == again
    assert len({text for text, _ in first}) == 5  # indexes give different puzzles


def test_uses_only_the_rng_given():
    random.seed(1)
    a = generate(10, 10, random.Random(5))
    random.seed(2)
    assert generate(10, 10, random.Random(5)) == a


def test_density_sets_island_count():
    assert target_islands(30, 30, 0.15) == 135
    assert target_islands(1, 2, 0.01) == 2
    text, _ = generate(30, 30, puzzle_rng(1, 0), density=0.1)
    assert len(parse_board(text).nodes) == 90
    with pytest.raises(ValueError):
        target_islands(5, 5, 0)


def test_max_length_caps_bridges():
    _, links = generate(30, 30, puzzle_rng(1, 0), density=0.2, max_length=2)
    assert all(abs(x1 - x2) + abs(y1 - y2) <= 3 for x1, y1, x2, y2, _ in links)


@pytest.mark.parametrize("index", range(5))
def test_the_bot_solves_generated_puzzles(index):
    text, _ = generate(12, 12, puzzle_rng(11, index), density=0.2)
    links = bot.solve(text)
    outcome = judge_text(parse_board(text), solution_text(links))
    assert outcome.verdict is Verdict.WIN, outcome.reason
