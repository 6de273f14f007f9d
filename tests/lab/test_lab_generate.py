"""The generator library: every puzzle is legal, solved by its stored links, and reproducible."""

import random

import pytest

import bot
from referee.judge.board import parse_board
from referee.lab.gen.walk import generate, puzzle_rng, solution_text, target_islands
from referee.judge.rules import Verdict, judge_text

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


# -- selection and sets ---------------------------------------------------------------

from referee.lab.gen.grading import OverBudget, classify, is_unique
from referee.lab.gen.sets import (SetSpec, generate_set,
                              parse_spec, select)

from tests.project import run_referee


def test_classify_matches_the_solver_stages():
    from bot.stages import ELIMINATION, RULES

    spec = SetSpec(width=12, height=12, count=12, seed=2, join=1.0, double=0.1, unique=True)
    kept, _ = generate_set(spec)
    seen = set()
    for puzzle in kept:
        level = classify(puzzle.text)
        seen.add(level)
        rules_ok = _solves(puzzle.text, RULES)
        assert rules_ok == (level == "easy")
        if level != "easy":
            assert _solves(puzzle.text, ELIMINATION) == (level == "medium")
    assert {"easy", "medium"} <= seen


def _solves(text, stage):
    try:
        bot.solve_to(text, stage)
        return True
    except bot.Unsolvable:
        return False


def test_a_two_solution_square_is_hard_and_not_unique():
    square = "3\n3\n3.3\n...\n3.3\n"   # a ring of four 3s: either opposite pair doubled
    assert bot.count_solutions(square, 2) == 2
    assert not is_unique(square)
    assert classify(square) == "hard"


def test_budget_is_counted_in_rounds():
    text, _ = generate(30, 30, puzzle_rng(1, 0), density=0.15)
    with pytest.raises(OverBudget):
        is_unique(text, work=1)


@pytest.mark.parametrize("difficulty", ["easy", "medium"])
def test_unique_sets_are_unique_of_their_difficulty_and_solved_by_their_links(difficulty):
    spec = parse_spec(f"14x14:{difficulty}:unique:count=3:seed=4")
    kept, verdicts = generate_set(spec)
    assert len(kept) == 3 and verdicts[difficulty] == 3
    for puzzle in kept:
        assert bot.count_solutions(puzzle.text, 2) == 1
        assert classify(puzzle.text) == difficulty == puzzle.difficulty
        outcome = judge_text(parse_board(puzzle.text), solution_text(puzzle.links))
        assert outcome.verdict is Verdict.WIN, outcome.reason


def test_select_reports_why_it_rejects():
    verdicts = {select(8, 8, puzzle_rng(5, i), difficulty="hard")[2] for i in range(30)}
    assert verdicts <= {"easy", "medium", "hard", "budget"}
    assert "easy" in verdicts


def test_spec_syntax():
    spec = parse_spec("30x20:hard:unique:count=50:seed=1:density=0.1")
    assert (spec.width, spec.height, spec.difficulty, spec.unique, spec.count, spec.seed,
            spec.density) == (30, 20, "hard", True, 50, 1, 0.1)
    assert spec.name == "30x20_hard_unique_s1"
    for bad in ("30x31", "30", "10x10:tough", "10x10:count=x", "10x10:density=2", "10x10:width"):
        with pytest.raises(ValueError):
            parse_spec(bad)


@pytest.mark.parametrize("spec, field", [("5x5:count=5:count=50", "count"),
                                         ("5x5:easy:hard", "difficulty"),
                                         ("5x5:unique:unique", "unique")])
def test_a_spec_part_said_twice_is_refused_not_overruled_by_the_last(spec, field):
    with pytest.raises(ValueError, match=rf"says again what an earlier part said \({field}\)"):
        parse_spec(spec)
    with pytest.raises(ValueError, match="unknown part 'width'"):
        parse_spec("5x5:width")   # a part the spec does not take, not one said again


def _gen(out, *extra):
    return run_referee("gen", "--size", "10x10", "--count", "3", "--seed", "9",
                       "--out", str(out), *extra, timeout=60)


@pytest.mark.slow
def test_gen_cli_writes_identical_files_for_identical_arguments(tmp_path):
    first, second = _gen(tmp_path / "a", "--unique"), _gen(tmp_path / "b", "--unique")
    assert first.returncode == second.returncode == 0, first.stderr
    names = sorted(p.name for p in (tmp_path / "a").iterdir())
    assert names == sorted(p.name for p in (tmp_path / "b").iterdir())
    assert len([n for n in names if n.endswith(".txt")]) == 3
    assert len([n for n in names if n.endswith(".solution")]) == 3
    for name in names:
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()
    assert "tried" in first.stderr and "kept 3 of 3" in first.stderr
    assert first.stdout.count(".txt") == 3
    for puzzle in (tmp_path / "a").glob("*.txt"):
        board = parse_board(puzzle.read_text())
        outcome = judge_text(board, puzzle.with_suffix(".solution").read_text())
        assert outcome.verdict is Verdict.WIN, outcome.reason
        assert bot.count_solutions(puzzle.read_text(), 2) == 1


@pytest.mark.slow
def test_gen_cli_exit_codes(tmp_path):
    out_of_budget = _gen(tmp_path / "c", "--size", "3x3", "--difficulty", "medium",
                         "--attempts", "5")
    assert out_of_budget.returncode == 1
    assert "only" in out_of_budget.stderr and "attempts" in out_of_budget.stderr
    usage = _gen(tmp_path / "d", "--size", "31x2")
    assert usage.returncode == 2 and "31x2" in usage.stderr


def test_every_mutation_keeps_the_known_solution():
    from referee.lab.gen.hardening import mutate, mutations
    from referee.lab.gen.walk import links_text

    text, links = generate(10, 10, puzzle_rng(2, 0), density=0.2, squares=False, touching=False)
    rng = random.Random(0)
    for _ in range(60):
        changed = mutate(links, rng.choice(mutations(links)))
        if changed is None:
            continue
        links = changed
        outcome = judge_text(parse_board(links_text(10, 10, links)), solution_text(links))
        assert outcome.verdict is Verdict.WIN, outcome.reason


@pytest.mark.slow
def test_hard_unique_puzzles_need_branching():
    from bot.stages import ELIMINATION

    kept, _ = generate_set(parse_spec("12x12:hard:unique:count=1:seed=6:density=0.15"))
    assert len(kept) == 1
    text = kept[0].text
    assert bot.count_solutions(text, 2) == 1
    with pytest.raises(bot.Unsolvable):
        bot.solve_to(text, ELIMINATION)
    for links in (kept[0].links, bot.solve(text)):
        outcome = judge_text(parse_board(text), solution_text(links))
        assert outcome.verdict is Verdict.WIN, outcome.reason
