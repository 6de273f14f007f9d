"""The mutable state: bot/grid.py."""

import pytest

from bot.grid import Contradiction, Grid, Mark, components
from bot.puzzle import parse

PLUS = "3\n3\n.1.\n1.1\n.1.\n"
# PLUS with a way out for the top and bottom 1s when the middle row is drawn, and a 2
# that keeps the middle row's group open.
PLUS_WITH_EXITS = "3\n3\n.11\n1.2\n.11\n"


def edge(p, a, b):
    return p.edge_between(p.pos.index(a), p.pos.index(b))


def test_initial_bounds_respect_values():
    p = parse("3\n1\n1.2\n")
    g = Grid(p)
    assert g.lo == [0] and g.hi == [1]
    assert g.got == [0, 0] and g.cap == [1, 1]


def test_draw_updates_both_ends():
    p = parse("2\n1\n22\n")
    g = Grid(p)
    g.draw(0, 1)
    assert g.lo == [1] and g.got == [1, 1]
    g.draw(0, 1)
    assert g.lo == [2] and g.got == [2, 2]


def test_draw_blocks_crossing_edges():
    p = parse(PLUS_WITH_EXITS)
    g = Grid(p)
    h = edge(p, (0, 1), (2, 1))
    v = edge(p, (1, 0), (1, 2))
    g.draw(h, 1)
    assert g.hi[v] == 0
    assert g.cap[p.pos.index((1, 0))] == 1  # only its exit to the right is left


def test_a_bound_that_strands_a_node_is_refused_naming_it():
    p = parse("3\n3\n.1.\n1.2\n.1.\n")
    g = Grid(p)
    with pytest.raises(Contradiction) as dead:
        g.draw(edge(p, (0, 1), (2, 1)), 1)  # blocks the only edge of the top and bottom 1s
    assert dead.value.args[0] in (p.pos.index((1, 0)), p.pos.index((1, 2)))
    p = parse("3\n2\n211\n1..\n")
    g = Grid(p)
    g.draw(edge(p, (0, 0), (1, 0)), 1)
    with pytest.raises(Contradiction) as dead:
        g.draw(edge(p, (1, 0), (2, 0)), 1)  # the top middle 1 would have two links
    assert dead.value.args[0] == p.pos.index((1, 0))


def test_draw_past_the_maximum_is_a_contradiction():
    g = Grid(parse("2\n1\n11\n"))
    g.draw(0, 1)
    with pytest.raises(Contradiction):
        g.draw(0, 1)


def test_revert_restores_everything_since_the_mark():
    p = parse(PLUS_WITH_EXITS)
    g = Grid(p)
    before = (g.lo[:], g.hi[:], g.got[:], g.cap[:], g.parent[:], g.size[:], g.next_member[:])
    mark = g.mark()
    g.draw(edge(p, (0, 1), (2, 1)), 1)
    g.lower_hi(edge(p, (2, 1), (2, 2)), 0)
    g.revert(mark)
    assert (g.lo, g.hi, g.got, g.cap, g.parent, g.size, g.next_member) == before


def test_a_link_that_closes_a_group_off_is_refused_at_once():
    p = parse("5\n1\n1.1.2\n")
    g = Grid(p)
    with pytest.raises(Contradiction) as dead:
        g.draw(edge(p, (0, 0), (2, 0)), 1)  # two 1s joined: finished, and cut off
    assert dead.value.args[0] in p.ends[edge(p, (0, 0), (2, 0))]
    g = Grid(parse("3\n1\n1.1\n"))
    g.draw(0, 1)  # the whole puzzle: solved, not cut off
    assert g.need[root_of(g, 0)] == 0


def test_clone_is_independent():
    p = parse("2\n1\n22\n")
    g = Grid(p)
    copy = g.clone()
    copy.draw(0, 2)
    assert g.lo == [0] and copy.lo == [2]
    assert copy.puzzle is g.puzzle


def test_valid_detects_a_node_over_its_value():
    p = parse("3\n1\n121\n")
    g = Grid(p)
    g.draw(0, 1)
    assert g.valid()
    g.hi[1] = 2  # forced past the rules' bounds to reach the state
    g.lo[1] = 2
    g.got[1] += 2
    assert not g.valid()


def test_valid_detects_a_node_that_cannot_reach_its_value():
    g = Grid(parse("2\n1\n13\n"))
    assert not g.valid()


def test_valid_detects_a_finished_group_cut_off():
    # Four 1s in a square: two drawn pairs are two finished groups. `draw` refuses the
    # first pair, so the state is set by hand, as a caller holding bounds might.
    p = parse("2\n2\n11\n11\n")
    g = Grid(p)
    for e in (edge(p, (0, 0), (1, 0)), edge(p, (0, 1), (1, 1))):
        g.lo[e] = 1
        for i in p.ends[e]:
            g.got[i] += 1
    assert not g.valid()


def test_valid_detects_nodes_that_cannot_be_connected():
    g = Grid(parse("3\n3\n1.1\n...\n1.1\n"))
    for e in range(len(g.lo)):
        if g.puzzle.horizontal[e]:
            g.lower_hi(e, 0)
    assert not g.valid()


def test_components_group_by_drawn_links():
    p = parse("3\n1\n121\n")
    g = Grid(p)
    g.draw(0, 1)
    label, need, size = components(g, g.lo)
    assert label[0] == label[1] != label[2]
    assert sorted(zip(size, need)) == [(1, 1), (2, 1)]


def draws_and_reverts(path, seed, steps):
    """A grid on a committed board, after each step of a random walk of draws and reverts."""
    import random
    from project import ROOT
    g = Grid(parse((ROOT / "puzzles" / path).read_text()))
    rng = random.Random(seed)
    marks = []
    for step in range(steps):
        if marks and rng.random() < 0.3:
            g.revert(marks.pop())
        else:
            e = rng.randrange(len(g.lo))
            marks.append(g.mark())
            try:
                g.raise_lo(e, g.lo[e] + 1)
            except Contradiction:
                g.revert(marks.pop())
        yield g


@pytest.mark.slow
def test_groups_follow_drawn_links_through_draws_and_reverts():
    for g in draws_and_reverts("hard30/30x30_hard_unique_s1_004.txt", 3, 300):
        p = g.puzzle
        label, need, size = components(g, g.lo)
        for i in range(len(p)):
            root = root_of(g, i)
            assert label[root] == label[i]
            assert sorted(members_of(g, root)) == [j for j in range(len(p)) if label[j] == label[i]]
            assert g.size[root] == size[label[i]]
            assert g.need[root] == need[label[i]]


@pytest.mark.slow
def test_waste_counts_the_links_that_joined_no_two_groups_through_draws_and_reverts():
    for g in draws_and_reverts("stress/full/20x20_full_mixed_002.txt", 4, 600):
        p = g.puzzle
        # Second links, plus the cycles of the drawn edges (edges - nodes + groups).
        label, need, size = components(g, g.lo)
        drawn = sum(1 for low in g.lo if low)
        doubled = sum(1 for low in g.lo if low == 2)
        assert g.waste == doubled + drawn - len(p) + len(size)


def root_of(grid, i):
    """The root of node i's group in the grid's union-find."""
    while grid.parent[i] != i:
        i = grid.parent[i]
    return i


def members_of(grid, root):
    """The nodes of the group rooted at `root`, once around the grid's member circle."""
    found = [root]
    i = grid.next_member[root]
    while i != root:
        found.append(i)
        i = grid.next_member[i]
    return found


def test_solves_checks_an_answer_from_the_counts_alone():
    from bot.grid import solves
    p = parse("3\n3\n2.2\n...\n2.2\n")
    top, bottom = p.edge_between(0, 1), p.edge_between(2, 3)
    left, right = p.edge_between(0, 2), p.edge_between(1, 3)
    ring = [0] * len(p.ends)
    for e in (top, bottom, left, right):
        ring[e] = 1
    assert solves(p, ring)
    pairs = [0] * len(p.ends)
    pairs[top] = pairs[bottom] = 2  # every value met, but two groups
    assert not solves(p, pairs)
    short = ring[:]
    short[top] = 0
    assert not solves(p, short)


def test_solves_refuses_crossing_links():
    from bot.grid import solves
    p = parse("3\n3\n.1.\n1.1\n.1.\n")
    assert not solves(p, [1] * len(p.ends))


def test_solves_takes_a_board_with_no_island_or_one():
    from bot.grid import solves
    assert solves(parse("2\n1\n..\n"), [])
    assert not solves(parse("2\n1\n1.\n"), [])  # a 1 with no neighbour can never be met


def test_a_mark_at_an_earlier_trail_position_restores_the_board_there():
    p = parse(PLUS_WITH_EXITS)
    g = Grid(p)
    g.draw(edge(p, (0, 1), (2, 1)), 1)
    assert isinstance(g.mark(), Mark)  # (what it holds is the grid's own business)
    length, board = len(g.trail), (g.lo[:], g.hi[:], g.got[:], g.cap[:], g.parent[:])
    g.lower_hi(edge(p, (2, 1), (2, 2)), 1)
    g.lower_hi(edge(p, (2, 1), (2, 2)), 0)
    g.revert(g.mark_at(length))
    assert len(g.trail) == length
    assert (g.lo, g.hi, g.got, g.cap, g.parent) == board
