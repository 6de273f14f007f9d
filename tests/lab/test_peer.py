"""The SAT peer as a third oracle: it agrees with the bot's counts and the referee's judge."""

import random
import re
from pathlib import Path

import pytest

import bot
from bot.options import DEFAULT
from bot.walk import Walk
from referee.lab import peer
from referee.judge.board import parse_board
from referee.lab.gen.walk import generate, links_text, puzzle_rng, solution_text
from referee.lab.peer import PeerTimeout, balanced, candidate_edges, crossings, peer_count, peer_solve
from referee.judge.rules import Verdict, judge_text
from referee.judge.board import LAB_MAX_SIDE
from referee.lab.stress.suite import layout_cells, random_links
from tests.bot.test_bot_learning import near_tree_board

ROOT = Path(__file__).resolve().parents[2]
SIZES = [(5, 5), (6, 5), (6, 6), (7, 6), (7, 7), (8, 8)]


def small_boards(count):
    """Seeded boards from the walk generator, some with several solutions (loops, joins)."""
    boards = []
    for index in range(count):
        width, height = SIZES[index % len(SIZES)]
        rng = puzzle_rng("peer-test", index)
        text, _ = generate(width, height, rng, density=rng.choice((0.2, 0.4, 1.0)),
                           join=rng.choice((0.0, 0.5, 1.0)), double=rng.choice((0.2, 0.5, 0.8)))
        boards.append(text)
    return boards


def moved_by_two(text, rng):
    """The board with one random island's value moved by 2 (or the board itself if none can)."""
    board = parse_board(text)
    cells = [c for c, v in sorted(board.nodes.items()) if v - 2 >= 1 or v + 2 <= 8]
    if not cells:
        return text
    cell = rng.choice(cells)
    value = board.nodes[cell]
    nodes = dict(board.nodes)
    nodes[cell] = rng.choice([v for v in (value - 2, value + 2) if 1 <= v <= 8])
    return board_text(board, nodes)


def board_text(board, nodes):
    """The puzzle text of `board`'s grid with the islands `nodes` (cell -> value)."""
    rows = ["".join(str(nodes.get((x, y), ".")) for x in range(board.width))
            for y in range(board.height)]
    return "\n".join([str(board.width), str(board.height), *rows]) + "\n"


@pytest.mark.slow
def test_counts_agree_with_the_bot_on_generated_boards():
    counts = {0: 0, 1: 0, 2: 0}
    for text in small_boards(300):
        count = peer_count(text, 2)
        assert count == bot.count_solutions(text, limit=2), text
        counts[count] += 1
    assert counts[1] > 20 and counts[2] > 20     # both kinds of board were met


@pytest.mark.slow
def test_counts_agree_on_boards_with_a_value_moved_by_two():
    rng = random.Random(5)
    seen_unsolvable = 0
    for text in small_boards(150):
        changed = moved_by_two(text, rng)
        count = peer_count(changed, 2)
        assert count == bot.count_solutions(changed, limit=2), changed
        seen_unsolvable += count == 0
    assert seen_unsolvable > 20


def moved_apart(text, rng):
    """The board with one island's value raised by 1 and another's lowered by 1, both on
    cells of one colour of a chessboard: the values' sum stays even, and on a board full of
    islands both sides of it keep equal totals, so neither parity nor `balance` alone can
    refute it (the board itself if no such pair exists)."""
    board = parse_board(text)
    nodes = dict(board.nodes)
    pairs = [(a, b) for a in sorted(nodes) for b in sorted(nodes)
             if a != b and sum(a) % 2 == sum(b) % 2 and nodes[a] < 8 and nodes[b] > 1]
    if not pairs:
        return text
    up, down = rng.choice(pairs)
    nodes[up] += 1
    nodes[down] -= 1
    return board_text(board, nodes)


@pytest.mark.slow
def test_counts_agree_on_boards_with_one_value_moved_up_and_another_down():
    rng = random.Random(11)
    counts = {0: 0, 1: 0, 2: 0}
    for text in small_boards(150):
        changed = moved_apart(text, rng)
        count = peer_count(changed, 2)
        assert count == bot.count_solutions(changed, limit=2), changed
        counts[count] += 1
    assert counts[0] > 20 and counts[1] + counts[2] > 5   # refuted and solved both met


@pytest.mark.slow
def test_answers_pass_the_judge():
    for text in small_boards(100):
        links = peer_solve(text)
        outcome = judge_text(parse_board(text), solution_text(links))
        assert outcome.verdict is Verdict.WIN, outcome.reason


@pytest.mark.parametrize("name", sorted(p.name for p in (ROOT / "puzzles" / "public").glob("*.txt")))
def test_solves_the_public_tests(name):
    board = parse_board((ROOT / "puzzles" / "public" / name).read_text())
    links = peer_solve(board.to_text())
    assert judge_text(board, solution_text(links)).verdict is Verdict.WIN


@pytest.mark.slow
def test_lazy_connectivity_alone_counts_right(monkeypatch):
    """Without the up-front small-group clauses every cut is found lazily."""
    monkeypatch.setattr(peer, "SMALL_GROUP", 0)
    for text in small_boards(60):
        assert peer_count(text, 2) == bot.count_solutions(text, limit=2), text
    cg = (ROOT / "puzzles" / "public" / "11_cg.txt").read_text()   # connectivity decides
    model = peer.Model(cg)
    solutions = list(model.solutions())
    assert len(solutions) == bot.count_solutions(cg, limit=10)
    assert model.cuts > 0


def test_two_ones_alone_are_unsolvable():
    assert peer_solve("4\n1\n11.2\n") is None          # 1-1 closes on itself, 2 is left alone
    assert peer_solve("2\n1\n11\n") == [(0, 0, 1, 0, 1)]


def test_crossings_are_never_both_used():
    # A plus: the row edge and the column edge cross at the centre.
    text = "3\n3\n.1.\n1.1\n.1.\n"
    edges = candidate_edges(parse_board(text).nodes)
    assert len(edges) == 2 and crossings(edges) == [(0, 1)]
    assert peer_solve(text) is None                   # two separate pairs, or a crossing


def test_balance_rule_agrees_with_plain_search(monkeypatch):
    """Where the edges two-colour, an unbalanced board has no solution: the SAT search
    without the rule agrees on small full boards with one value moved by 2."""
    rng = random.Random(3)
    refuted = 0
    for index in range(40):
        layout = ("full", "rows", "grid", "blocks")[index % 4]
        cells = layout_cells(layout, 5, 5, rng)
        text = links_text(5, 5, random_links(cells, rng, "mixed", 0.3))
        changed = moved_by_two(text, rng)
        board = parse_board(changed)
        if not balanced(dict(board.nodes), candidate_edges(board.nodes)):
            refuted += 1
            monkeypatch.setattr(peer, "balanced", lambda nodes, edges: True)
            assert peer_solve(changed) is None
            monkeypatch.undo()
    assert refuted > 20


@pytest.mark.slow
def test_committed_unsolvable_boards_are_unsolvable():
    folder = ROOT / "puzzles" / "stress" / "unsolvable"
    names = sorted(folder.glob("*.txt"))
    assert len(names) >= 10
    for path in names:
        assert peer_solve(path.read_text(), timeout_s=60) is None, path.name


@pytest.mark.slow
def test_a_timeout_stops_the_search():
    text = (ROOT / "puzzles" / "stress" / "full" / "40x40_full_single_009.txt").read_text()
    with pytest.raises(PeerTimeout):
        peer_solve(text, timeout_s=0.01)


@pytest.mark.slow
def test_stress_solutions_from_the_peer_pass_the_judge():
    for path in sorted((ROOT / "puzzles" / "stress" / "lattice").glob("20x20_*.txt")):
        board = parse_board(path.read_text(), max_side=LAB_MAX_SIDE)
        links = peer_solve(path.read_text())
        assert judge_text(board, solution_text(links)).verdict is Verdict.WIN, path.name


def test_the_bot_never_imports_the_peer():
    imports = re.compile(r"^\s*(from|import)\s+(referee|pysat)\b", re.MULTILINE)
    for path in (ROOT / "bot").glob("*.py"):
        assert not imports.search(path.read_text()), path.name


@pytest.mark.slow
def test_counts_that_take_the_walks_answers_agree(monkeypatch):
    """Near-trees counted by the search that learns with the walk's turns from the start:
    the walk's answers join the count, each once, and the peer agrees."""
    options = DEFAULT.replace(node_search_branches=0, walk_after=0, walk_every=1,
                                  walk_moves=50)
    answers = []
    real_run = Walk.run

    def run(self, moves):
        found = real_run(self, moves)
        answers.append(found is not None)
        return found
    monkeypatch.setattr(Walk, "run", run)
    for seed in range(24):
        width, height = SIZES[seed % len(SIZES)]
        text = near_tree_board(width, height, seed, cycles=seed % 3, doubles=seed % 2)
        for limit in (2, 5):
            counted = bot.count_solutions(text, limit=limit, options=options)
            assert counted == peer_count(text, limit), (text, limit)
    assert sum(answers) >= 10  # the walk answered often enough to be tested
