"""The stress generator: legal boards, known solutions that win, one seed one suite."""

from pathlib import Path

import pytest

import bot
from referee.cli.main import main
from referee.judge.board import BoardError, parse_board
from referee.lab.gen.walk import solution_text
from referee.lab.peer import peer_solve
from referee.judge.rules import Verdict, judge_text
from referee.judge.board import LAB_MAX_SIDE
from referee.lab.stress.suite import (SIZES, board_rng, fill_suite, full_suite, lattice_suite,
                            layout_cells, make_board, research_suite, solver_work, tree_suite,
                            tree_unsolvable_suite, unsolvable_suite)

ROOT = Path(__file__).resolve().parents[2]
COMMITTED = ROOT / "puzzles" / "stress"


def assert_wins(board):
    parsed = parse_board(board.text, max_side=LAB_MAX_SIDE)
    outcome = judge_text(parsed, solution_text(board.links))
    assert outcome.verdict is Verdict.WIN, f"{board.name}: {outcome.reason}"
    assert all(1 <= v <= 8 for v in parsed.nodes.values())


@pytest.mark.slow
@pytest.mark.parametrize("make", [full_suite, lattice_suite, fill_suite, tree_suite])
def test_known_solutions_win_and_a_seed_gives_one_suite(make):
    boards = make(1)
    for board in boards:
        assert_wins(board)
    assert make(1) == boards
    assert [b.text for b in make(2)] != [b.text for b in boards]


@pytest.mark.slow
def test_link_kinds_are_what_the_name_says():
    for board in full_suite(1) + lattice_suite(1):
        amounts = {link[4] for link in board.links}
        kind = board.name.split("_")[2]
        assert amounts == {"single": {1}, "double": {2}, "mixed": {1, 2}}[kind], board.name


def test_layouts():
    rng = board_rng(1, "test", 0)
    assert len(layout_cells("full", 30, 15, rng)) == 450
    assert layout_cells("rows", 3, 3, rng) == {(0, 0), (1, 0), (2, 0), (0, 2), (1, 2), (2, 2)}
    assert layout_cells("grid", 3, 3, rng) == {(0, 0), (2, 0), (0, 2), (2, 2)}
    assert layout_cells("blocks", 4, 4, rng) == {(0, 0), (1, 0), (0, 1), (1, 1), (3, 0),
                                                 (0, 3), (1, 3), (3, 3), (3, 1)}
    assert len(layout_cells("fill", 20, 20, rng, 0.35)) == 140
    with pytest.raises(ValueError):
        layout_cells("spiral", 3, 3, rng)


@pytest.mark.slow
def test_full_boards_fill_every_cell():
    for board in full_suite(1):
        parsed = parse_board(board.text, max_side=LAB_MAX_SIDE)
        assert len(parsed.nodes) == parsed.width * parsed.height
    assert {board.name.split("_")[0] for board in full_suite(1)} == {f"{w}x{h}" for w, h in SIZES}


@pytest.mark.slow
def test_research_candidates_and_their_pick():
    plain = research_suite(1, count=4, pool=0)
    assert research_suite(1, count=4, pool=0) == plain
    for board in plain:
        assert_wins(board)
    picked = research_suite(1, count=2, pool=6)
    work = sorted((solver_work(b.text) for b in research_suite(1, count=6, pool=0)), reverse=True)
    assert sorted((solver_work(b.text) for b in picked), reverse=True) == work[:2]


@pytest.mark.slow
def test_unsolvable_boards_are_refuted_by_both_solvers():
    boards = unsolvable_suite(1, per_source=2, sources=(("full", 6, 6), ("fill", 8, 8)))
    assert len(boards) >= 3
    assert unsolvable_suite(1, per_source=2, sources=(("full", 6, 6), ("fill", 8, 8))) == boards
    for board in boards:
        assert board.links is None
        assert peer_solve(board.text) is None
        assert bot.count_solutions(board.text, limit=1) == 0


@pytest.mark.slow
def test_broken_near_trees_are_refuted_by_both_solvers():
    sources = [make_board("tree", f"8x8_{layout}_{i}", 8, 8,
                          layout_cells(layout, 8, 8, board_rng(1, "test", i), 0.5),
                          board_rng(1, "test", i), "single", 0.02)
               for i, layout in enumerate(("full", "rows", "fill", "full"))]
    boards = tree_unsolvable_suite(1, sources=sources)
    assert len(boards) >= 3
    assert tree_unsolvable_suite(1, sources=sources) == boards
    for board in boards:
        source = next(s for s in sources if board.name.startswith(s.name + "_at"))
        changed = [(a, b) for a, b in zip(source.text.split(), board.text.split()) if a != b]
        assert len(changed) == 1  # one row, and in it one island by 2
        (old, new), = changed
        assert [abs(int(a) - int(b)) for a, b in zip(old, new) if a != b] == [2]
        assert board.links is None
        assert peer_solve(board.text) is None
        assert bot.count_solutions(board.text, limit=1) == 0


@pytest.mark.slow
def test_tree_boards_are_a_spanning_tree_and_a_few_loops():
    for board in tree_suite(1):
        parsed = parse_board(board.text, max_side=LAB_MAX_SIDE)
        assert {link[4] for link in board.links} == {1}
        loops = len(board.links) - (len(parsed.nodes) - 1)
        assert loops == 0 if "_loops0_" in board.name else 0 < loops < len(parsed.nodes) // 10


@pytest.mark.slow
@pytest.mark.parametrize("suite", ["full", "lattice", "fill", "tree", "research", "unsolvable"])
def test_the_command_rewrites_the_committed_suite(suite, tmp_path, capsys):
    assert main(["stress-gen", "--seed", "1", "--suite", suite, "--out", str(tmp_path)]) == 0
    written = sorted(p.name for p in (tmp_path / suite).iterdir())
    assert written == sorted(p.name for p in (COMMITTED / suite).iterdir())
    for name in written:   # byte for byte
        assert (tmp_path / suite / name).read_bytes() == (COMMITTED / suite / name).read_bytes()
    puzzles = [name for name in written if name.endswith(".txt")]
    assert capsys.readouterr().out.count("islands=") == len(puzzles)


def test_the_committed_research_pick_does_not_ask_the_solver(monkeypatch):
    # Which research boards the suite holds must not change with the solver of the day.
    def refuse(text, work=0):
        raise AssertionError("the solver was asked")
    monkeypatch.setattr("referee.lab.stress.suite.solver_work", refuse)
    boards = research_suite(1)
    assert sorted(b.name for b in boards) == sorted(p.stem for p in (COMMITTED / "research").glob("*.txt"))


@pytest.mark.slow
def test_the_command_rewrites_the_committed_broken_near_trees(tmp_path, capsys):
    suite = "tree-unsolvable"
    assert main(["stress-gen", "--seed", "1", "--suite", suite, "--out", str(tmp_path)]) == 0
    written = sorted(p.name for p in (tmp_path / suite).iterdir())
    assert written == sorted(p.name for p in (COMMITTED / suite).iterdir())
    assert len(written) == len(tree_suite(1))  # no solution files: one board per tree board
    for name in written:
        assert (tmp_path / suite / name).read_text() == (COMMITTED / suite / name).read_text()
    assert capsys.readouterr().out.count("islands=") == len(written)


@pytest.mark.slow
def test_committed_solutions_win():
    judged = 0
    for path in sorted(COMMITTED.glob("*/*.solution")):
        board = parse_board(path.with_suffix(".txt").read_text(), max_side=LAB_MAX_SIDE)
        assert judge_text(board, path.read_text()).verdict is Verdict.WIN, path.name
        judged += 1
    assert judged >= 100


def test_unknown_suite_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["stress-gen", "--suite", "nope"])
    assert stop.value.code == 2


def test_the_judge_keeps_codingames_bound_and_the_lab_reads_past_it():
    text = (COMMITTED / "full" / "40x40_full_single_009.txt").read_text()
    with pytest.raises(BoardError, match="width must be 1..30"):
        parse_board(text)
    assert parse_board(text, max_side=LAB_MAX_SIDE).width == 40


@pytest.mark.slow
def test_without_the_sat_peer_nothing_is_written(tmp_path, monkeypatch, capsys):
    import importlib.util
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *rest: None if name == "pysat" else real(name, *rest))
    assert main(["stress-gen", "--seed", "1", "--out", str(tmp_path)]) == 2
    assert list(tmp_path.iterdir()) == []   # not half a suite
    assert "unsolvable, tree-unsolvable: needs the lab dependencies" in capsys.readouterr().err
    assert main(["stress-gen", "--suite", "full", "--out", str(tmp_path)]) == 0
