"""The geometry the judge, the SAT peer and the lab share (referee/judge/geometry.py)."""

from referee.judge.geometry import groups, inner_cells


def test_inner_cells_lie_strictly_between_the_ends_in_either_order():
    assert inner_cells((1, 2), (4, 2)) == [(2, 2), (3, 2)]
    assert inner_cells((4, 2), (1, 2)) == [(2, 2), (3, 2)]
    assert inner_cells((0, 0), (0, 3)) == [(0, 1), (0, 2)]
    assert inner_cells((0, 0), (1, 0)) == []


def test_groups_keep_the_order_of_the_nodes_given():
    found = groups("abcde", [("d", "b"), ("e", "a")])
    assert found == [["a", "e"], ["b", "d"], ["c"]]


def test_a_chain_is_one_group_however_its_pairs_come():
    pairs = [(i, i + 1) for i in range(50)][::-1]
    assert groups(range(51), pairs) == [list(range(51))]
