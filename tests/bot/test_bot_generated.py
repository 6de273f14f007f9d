"""The bot on generated puzzles: every answer judged by the referee's rules."""

import pytest

import bot
from tests.judge import fault, links_text
from tests.project import ROOT
from referee.lab.gen.walk import generate, puzzle_rng

SIZES = [(30, 30, 0.08), (30, 30, 0.15), (30, 30, 0.25), (12, 7, 0.3), (5, 30, 0.2)]


@pytest.mark.parametrize("width, height, density", SIZES)
@pytest.mark.parametrize("index", range(8))
def test_solves_generated_puzzles(width, height, density, index):
    text, known = generate(width, height, puzzle_rng("bot-tests", index), density=density)
    assert fault(text, links_text(known)) is None  # the generator's own answer is sound
    assert fault(text, links_text(bot.solve(text))) is None


@pytest.mark.parametrize("index", range(10))
def test_a_unique_puzzle_is_solved_with_the_generators_solution(index):
    text, known = generate(8, 8, puzzle_rng("bot-count", index), density=0.2)
    if bot.count_solutions(text, limit=2) == 1:
        assert sorted(bot.solve(text)) == sorted(known)


def test_the_count_test_sees_both_kinds_of_puzzle():
    counts = {bot.count_solutions(generate(8, 8, puzzle_rng("bot-count", i), density=0.2)[0])
              for i in range(10)}
    assert counts == {1, 2}


HARD = sorted((ROOT / "puzzles" / "hard30").glob("*.txt"))


@pytest.mark.parametrize("path", HARD, ids=lambda p: p.stem)
def test_solves_the_hard_unique_set_with_its_one_solution(path):
    """puzzles/hard30: 20 unique 30x30 puzzles that need branching (`make hard30` remakes them)."""
    known = [tuple(map(int, line.split()))
             for line in path.with_suffix(".solution").read_text().splitlines() if line.strip()]
    assert sorted(bot.solve(path.read_text())) == sorted(known)


def test_the_hard_set_is_there():
    assert len(HARD) == 20


FULL = sorted((ROOT / "puzzles" / "full30").glob("*.txt"))


@pytest.mark.slow
@pytest.mark.parametrize("path", FULL, ids=lambda p: p.stem)
def test_solves_a_board_full_of_islands(path):
    """puzzles/full30: an island on each of the 900 cells, the most a board can hold."""
    text = path.read_text()
    assert fault(text, links_text(bot.solve(text))) is None


def test_the_full_set_is_there():
    assert len(FULL) == 3
