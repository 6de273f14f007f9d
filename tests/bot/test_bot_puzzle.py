"""Parsing and geometry: bot/puzzle.py."""

import pytest

from bot.puzzle import PuzzleError, parse


def test_parse_reads_nodes_in_reading_order():
    p = parse("3\n2\n1.2\n.3.\n")
    assert (p.width, p.height) == (3, 2)
    assert p.pos == ((0, 0), (2, 0), (1, 1))
    assert p.value == (1, 2, 3)


def test_edges_join_nearest_neighbours_only():
    p = parse("4\n1\n1.11\n")
    # (0,0)-(2,0) and (2,0)-(3,0); never (0,0)-(3,0) over the middle node.
    assert [(p.pos[a], p.pos[b]) for a, b in p.ends] == [((0, 0), (2, 0)), ((2, 0), (3, 0))]
    assert p.horizontal == (True, True)


def test_crossings_are_symmetric_and_interior_only():
    # A plus: the horizontal 1-1 and the vertical 1-1 cross at the centre.
    p = parse("3\n3\n.1.\n1.1\n.1.\n")
    horizontal = p.horizontal.index(True)
    vertical = p.horizontal.index(False)
    assert p.crossings[horizontal] == (vertical,)
    assert p.crossings[vertical] == (horizontal,)
    # Edges meeting at a node do not cross.
    corner = parse("2\n2\n11\n1.\n")
    assert all(c == () for c in corner.crossings)


def test_edges_and_crossings_match_a_brute_force():
    import random
    rng = random.Random(3)
    for trial in range(50):
        width, height = rng.randint(1, 12), rng.randint(1, 12)
        rows = ["".join(rng.choice("1234....") for _ in range(width)) for _ in range(height)]
        p = parse(f"{width}\n{height}\n" + "\n".join(rows) + "\n")
        expected = []
        for a, (x, y) in enumerate(p.pos):
            for dx, dy in ((1, 0), (0, 1)):  # right, then down: the edges' order
                step = 1
                while 0 <= x + step * dx < width and 0 <= y + step * dy < height:
                    if (x + step * dx, y + step * dy) in p.pos:
                        expected.append((a, p.pos.index((x + step * dx, y + step * dy))))
                        break
                    step += 1
        assert list(p.ends) == expected
        assert p.horizontal == tuple(p.pos[a][1] == p.pos[b][1] for a, b in expected)
        for e, (a, b) in enumerate(p.ends):
            crossing = set()
            for f, (c, d) in enumerate(p.ends):
                (x1, y1), (x2, y2), (x3, y3), (x4, y4) = p.pos[a], p.pos[b], p.pos[c], p.pos[d]
                if p.horizontal[e] and not p.horizontal[f] and x1 < x3 < x2 and y3 < y1 < y4:
                    crossing.add(f)
                if not p.horizontal[e] and p.horizontal[f] and x3 < x1 < x4 and y1 < y3 < y2:
                    crossing.add(f)
            assert set(p.crossings[e]) == crossing


def test_node_edges_and_edge_between():
    p = parse("2\n2\n22\n2.\n")
    assert sorted(other for _, other in p.node_edges[0]) == [1, 2]
    assert p.edge_between(0, 1) is not None
    assert p.edge_between(1, 2) is None


def test_edges_at_lists_each_nodes_edges_as_node_edges_does():
    p = parse("5\n3\n2.3.1\n.....\n1.4.2\n")
    for i in range(len(p)):
        assert p.edges_at[i] == tuple(e for e, _ in p.node_edges[i])
        assert all(i in p.ends[e] for e in p.edges_at[i])
    assert sum(len(es) for es in p.edges_at) == 2 * len(p.ends)


def test_no_size_limit():
    p = parse("40\n1\n" + "1" + "." * 38 + "1\n")
    assert len(p.ends) == 1


@pytest.mark.parametrize("text, message", [
    ("", "line 1: missing width"),
    ("x\n1\n1\n", "line 1: width must be an integer 1..100, got 'x'"),
    ("0\n1\n\n", "line 1: width must be an integer 1..100, got '0'"),
    ("2\n-1\n", "line 2: height must be an integer 1..100, got '-1'"),
    ("2\n", "line 2: missing height"),
    ("2\n2\n1.\n", "line 4: missing row 2 of 2"),
    ("2\n1\n1..\n", "line 3: row has 3 characters, expected 2"),
    ("2\n1\n19\n", "line 3, column 2: unexpected character '9'"),
    ("2\n1\n1x\n", "line 3, column 2: unexpected character 'x'"),
    ("2\n1\n11\nextra\n", "line 4: unexpected text after the 1 rows"),
])
def test_malformed_text_names_the_line(text, message):
    with pytest.raises(PuzzleError) as caught:
        parse(text)
    assert str(caught.value).startswith(message)
    assert "\n" not in str(caught.value)


def test_windows_newlines_and_trailing_blank_lines_are_accepted():
    p = parse("2\r\n1\r\n11\r\n\r\n")
    assert p.value == (1, 1)
