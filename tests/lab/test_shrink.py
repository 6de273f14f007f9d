"""The hunt's boards and its shrinker, in process: every board offered is a valid puzzle its
links solve, and delta debugging reaches the small boards a bug needs."""

import pytest

import bot
from referee.judge.board import parse_board
from referee.lab.hunt.boards import SHAPES, hunt_board
from referee.lab.hunt.shrink import shrink
from referee.lab.gen.walk import solution_text
from referee.lab.hunt.witness import Witness
from referee.judge.rules import judge_text


def solved(witness: Witness) -> bool:
    """The witness's links win on its puzzle under the referee's rules, every value 1..8."""
    board = parse_board(witness.text)
    return (judge_text(board, solution_text(list(witness.links))).won
            and all(1 <= value <= 8 for value in board.nodes.values()))


class Bug:
    """A stand-in for a bot that loses when `loses(witness)`: it records every board."""

    def __init__(self, loses):
        self.loses = loses
        self.seen: list[Witness] = []

    def first_losing(self, candidates):
        for index, candidate in enumerate(candidates):
            self.seen.append(candidate)
            if self.loses(candidate):
                return index
        return None


def has_eight(witness: Witness) -> bool:
    return 8 in witness.islands.values()


def first_board(loses, seed: int = 1) -> Witness:
    return next(w for name, w in (hunt_board(seed, i) for i in range(200)) if loses(w))


def test_every_shape_makes_boards_its_links_solve():
    boards = [hunt_board(3, index) for index in range(2 * len(SHAPES))]
    assert {name.split("_")[1] for name, _ in boards} == set(SHAPES)
    assert all(solved(witness) for _, witness in boards)
    assert all(w.width <= 30 and w.height <= 30 for _, w in boards)


def test_a_seed_gives_the_same_boards_and_another_seed_others():
    assert [hunt_board(5, i) for i in range(6)] == [hunt_board(5, i) for i in range(6)]
    assert [hunt_board(5, i) for i in range(6)] != [hunt_board(6, i) for i in range(6)]


def test_an_eight_shrinks_to_the_five_islands_it_needs_and_every_board_tried_is_valid():
    bug = Bug(has_eight)
    start = first_board(has_eight)
    shrunk = shrink(start, bug.first_losing)
    assert shrunk.complete and has_eight(shrunk.witness) and solved(shrunk.witness)
    assert sorted(shrunk.witness.islands.values()) == [2, 2, 2, 2, 8]
    assert (shrunk.witness.width, shrunk.witness.height) == (3, 3)    # compacted
    assert len(bug.seen) > 10 and all(solved(w) for w in bug.seen)
    assert all(len(w.islands) < len(start.islands) or len(w.links) <= len(start.links)
               for w in bug.seen)


@pytest.mark.slow
def test_a_bug_past_sixty_islands_shrinks_to_sixty_one():
    past = (lambda w: len(w.islands) > 60)
    bug = Bug(past)
    shrunk = shrink(first_board(past), bug.first_losing)
    assert len(shrunk.witness.islands) == 61 and solved(shrunk.witness)
    assert all(solved(w) for w in bug.seen)


def test_links_are_made_smaller_while_the_bug_stays():
    # A bot that loses on any board with a loop: one loop of single links is left.
    def loop(w):
        return len(w.links) >= len(w.islands)
    start = first_board(lambda w: loop(w) and any(n == 2 for *_, n in w.links))
    shrunk = shrink(start, Bug(loop).first_losing)
    assert solved(shrunk.witness) and len(shrunk.witness.links) == len(shrunk.witness.islands)
    assert {n for *_, n in shrunk.witness.links} == {1}
    assert 4 <= len(shrunk.witness.islands) <= 8


def test_a_bot_that_loses_everywhere_shrinks_to_two_islands_and_one_link():
    for index in range(len(SHAPES)):
        shrunk = shrink(hunt_board(1, index)[1], Bug(lambda w: True).first_losing)
        assert shrunk.witness in (Witness(2, 1, ((0, 0, 1, 0, 1),)),
                                  Witness(1, 2, ((0, 0, 0, 1, 1),)))


def test_a_group_of_one_link_is_a_group():
    witness = Witness(3, 3, ((0, 0, 2, 0, 1), (2, 0, 2, 2, 1)))
    assert witness.groups([(2, 0), (2, 2)]) == [Witness(3, 3, ((2, 0, 2, 2, 1),))]
    assert witness.keep([(0, 0), (2, 2)]) is None


def test_out_of_time_keeps_the_smallest_board_so_far():
    asked = []

    def first_losing(candidates):
        asked.append(candidates)
        return next((i for i, c in enumerate(candidates) if has_eight(c)), None)

    start = first_board(has_eight)
    shrunk = shrink(start, first_losing, out_of_time=lambda: len(asked) >= 2)
    assert not shrunk.complete and has_eight(shrunk.witness)
    assert len(asked) == 2 and len(shrunk.witness.islands) < len(start.islands)


def compact(witness: Witness) -> bool:
    """No empty row nor column."""
    return (witness.width, witness.height) == (len({x for x, _ in witness.islands}),
                                               len({y for _, y in witness.islands}))


@pytest.mark.parametrize("rounds", [2, 4, 5])
def test_a_shrink_cut_short_keeps_no_empty_row_nor_column(rounds):
    asked = []

    def first_losing(candidates):
        asked.append(candidates)
        return next((i for i, c in enumerate(candidates) if has_eight(c)), None)

    start = first_board(lambda w: has_eight(w) and not compact(w))
    shrunk = shrink(start, first_losing, out_of_time=lambda: len(asked) >= rounds)
    assert not shrunk.complete and shrunk.witness != start and compact(shrunk.witness)
    assert all(compact(c) for candidates in asked for c in candidates)


def test_a_compacted_board_has_the_same_solutions():
    compared = 0
    for name, witness in (hunt_board(2, i) for i in range(12)):
        small = witness.keep([(x, y) for x, y in witness.islands if x % 3 and y < 10])
        if small is None or len(small.islands) > 40:
            continue
        compared += 1
        compact = small.compacted()
        assert compact.width <= small.width and compact.height <= small.height
        assert bot.count_solutions(compact.text, limit=5) == \
            bot.count_solutions(small.text, limit=5), name
    assert compared >= 3


@pytest.mark.parametrize("index", range(4))
def test_reducing_links_never_splits_the_board_nor_leaves_an_island_bare(index):
    _, witness = hunt_board(4, index)
    reduced = witness.reduced(range(len(witness.links)))
    assert solved(reduced) and reduced.islands.keys() == witness.islands.keys()
    assert len(reduced.links) == len(reduced.islands) - 1      # a tree is all that is left
    assert {n for *_, n in reduced.links} == {1}
