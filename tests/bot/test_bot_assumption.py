"""Assumption search: bot/assumption.py."""

import itertools
import random

import pytest

import bot
from bot.assumption import (Budget, OutOfBranches, assume, changes_of, completed_node,
                            first_solution, probe, probe_completions, replay, solutions,
                            spread_first)
from bot.branching import Memory, choose_node, count_completions, completions, forget_counts
from bot.elimination import eliminate, solve_to
from bot.grid import Contradiction, Grid
from bot.options import DEFAULT
from bot.puzzle import parse
from bot.rules import PROBE, Rules
from bot.stages import BRANCHING, ELIMINATION, RULES
from bot.stats import Stats
from tests.judge import fault, links_text
from tests.project import PUBLIC, ROOT


def public(name):
    return (PUBLIC / name).read_text()


def rules_of(text, **tuning):
    """The rule engine over a fresh grid of `text`, with `tuning` set in its options."""
    return Rules(Grid(parse(text)), DEFAULT.replace(**tuning))


def all_solutions(text):
    """Every solution, as a sorted tuple of links, found by the search."""
    return [tuple(sorted(g.links())) for g in solutions(rules_of(text), Stats())]


def brute_force_solutions(text):
    """Every solution found by trying every link count on every edge, judged by the referee."""
    p = parse(text)
    found = []
    for counts in itertools.product(range(3), repeat=len(p.ends)):
        links = [(*p.pos[a], *p.pos[b], n) for (a, b), n in zip(p.ends, counts) if n]
        if fault(text, links_text(links)) is None:
            found.append(tuple(sorted(links)))
    return found


def test_eliminate_fixes_bounds_every_solution_agrees_with():
    text = public("11_cg.txt")
    rules = rules_of(text)
    grid = rules.grid
    rules.propagate()
    stats = Stats()
    assert eliminate(rules, stats)
    assert stats.eliminations > 0 and stats.assumptions >= stats.eliminations
    every = all_solutions(text)
    p = grid.puzzle
    for solution in every:
        counts = {(x1, y1, x2, y2): n for x1, y1, x2, y2, n in solution}
        for e, (a, b) in enumerate(p.ends):
            n = counts.get((*p.pos[a], *p.pos[b]), 0)
            assert grid.lo[e] <= n <= grid.hi[e]


def assert_bounds_hold_every_solution(grid, text):
    p = grid.puzzle
    for solution in all_solutions(text):
        counts = {(x1, y1, x2, y2): n for x1, y1, x2, y2, n in solution}
        for e, (a, b) in enumerate(p.ends):
            assert grid.lo[e] <= counts.get((*p.pos[a], *p.pos[b]), 0) <= grid.hi[e]


def test_probe_narrows_and_keeps_every_solution():
    text = public("11_cg.txt")
    rules = rules_of(text)
    grid = rules.grid
    rules.propagate()
    before = (grid.lo[:], grid.hi[:])
    stats = Stats()
    assert probe(rules, stats, range(len(grid.puzzle)))
    assert stats.eliminations > 0 and (grid.lo[:], grid.hi[:]) != before
    assert_bounds_hold_every_solution(grid, text)


def test_probe_skips_completions_a_surviving_probe_completed():
    # A completion of its node that a surviving probe already met is taken as a
    # survivor without a probe of its own; its reach is then unknown.
    text = (PUBLIC.parent / "hard30" / "30x30_hard_unique_s1_004.txt").read_text()
    rules = rules_of(text)
    rules.propagate()
    grid = rules.grid
    skipped = 0
    for i in range(len(grid.puzzle)):
        if grid.got[i] == grid.cap[i] or count_completions(grid, i) != 2:
            continue
        edges, choices = completions(grid, i)
        alone, met = Stats(), Stats()
        survivors, product, _ = probe_completions(rules, alone, i, edges, choices, set())
        if len(survivors) < 2:
            continue
        seen = {completed_node(grid, i, edges, choices[0])}
        again, unknown, _ = probe_completions(rules, met, i, edges, choices, seen)
        assert again == survivors and unknown is None and product is not None
        assert met.assumptions == alone.assumptions - 1   # the first completion was not probed
        skipped += 1
    assert skipped > 5


def test_probe_measures_the_reach_of_nodes_whose_completions_all_survive():
    rules = rules_of(public("11_cg.txt"))
    grid = rules.grid
    rules.propagate()
    reach = {}
    probe(rules, Stats(), range(len(grid.puzzle)), reach)
    assert reach
    for i, product in reach.items():
        assert grid.got[i] != grid.cap[i] and len(completions(grid, i)[1]) == 2
        assert product >= 4  # each completion changes at least its own edge


@pytest.mark.parametrize("heap_from", [0, 10 ** 6])  # scores on a heap, or scanned
def test_choose_node_keeps_its_scores_true_through_changes_reverts_and_blame(heap_from):
    text = (PUBLIC.parent / "hard30" / "30x30_hard_unique_s1_004.txt").read_text()
    rules = rules_of(text, score_heap_from=heap_from)
    grid = rules.grid
    rules.propagate()
    rng = random.Random(5)
    marks = []
    for step in range(150):
        fresh = Rules(grid.clone(), rules.options)  # scores everything from scratch...
        if rules.listener is not None:  # ...with the contradictions met so far
            fresh.listener = Memory(len(grid.puzzle), heap_from)
            fresh.listener.conflicts = rules.listener.conflicts[:]
        assert choose_node(rules) == choose_node(fresh)
        if marks and rng.random() < 0.3:
            rules.revert(marks.pop())
        elif rng.random() < 0.2:
            rules.blame(rng.randrange(len(grid.puzzle)))  # a contradiction met there
        else:
            edges, choices = choose_node(rules)
            marks.append(rules.mark())
            try:
                assume(grid, edges, choices[0])
                rules.propagate()
            except Contradiction:
                rules.revert(marks.pop())
    assert (rules.listener.ranked is not None) == (heap_from == 0)  # kept on a heap, or scanned


def test_choose_node_leans_to_a_node_of_great_reach():
    rules = rules_of(public("09_multiple_solutions_1.txt"))
    grid = rules.grid
    rules.propagate()
    first = choose_node(rules)[0]
    other = next(i for i in range(len(grid.puzzle))
                 if grid.got[i] != grid.cap[i] and completions(grid, i)[0] != first)
    assert choose_node(rules, {other: 10 ** 6})[0] == completions(grid, other)[0]


def test_probe_tries_only_nodes_with_few_completions():
    rules = rules_of(public("11_cg.txt"), probe_options=1)
    rules.propagate()
    stats = Stats()
    assert not probe(rules, stats, range(len(rules.grid.puzzle)))
    assert stats.assumptions == 0


def test_probe_raises_when_a_node_has_no_completion_left():
    # 2 2 1 in a row: the middle 2 goes 2+0 (the 1 is cut off) or 1+1 (the left 2 is short).
    rules = rules_of("3\n1\n221\n")
    rules.caught_up()  # no rules yet: only the probe can find it
    with pytest.raises(Contradiction):
        probe(rules, Stats(), [1])


def test_eliminate_raises_on_a_dead_state():
    # Two 2s and a 1 in a row: the 1 cannot take a link the others leave over.
    rules = rules_of("3\n1\n221\n")
    with pytest.raises(Contradiction):
        rules.propagate()
        eliminate(rules, Stats())


def test_completions_are_the_ways_a_node_can_complete():
    p = parse("3\n2\n232\n.1.\n")
    grid = Grid(p)
    middle = p.pos.index((1, 0))
    edges, choices = completions(grid, middle)
    assert len(edges) == 3
    assert all(sum(c) == 3 for c in choices)
    assert len(choices) == len(set(choices)) == 5  # (0,1,2) with the 1 capped at 1: 5 ways
    grid.draw(edges[0], 2)
    edges, choices = completions(grid, middle)
    assert len(edges) == 2 and sorted(choices) == [(0, 1), (1, 0)]


def test_choose_node_picks_an_open_node_with_completions():
    rules = rules_of(public("09_multiple_solutions_1.txt"))
    grid = rules.grid
    rules.propagate()
    edges, choices = choose_node(rules)
    assert edges and all(grid.lo[e] < grid.hi[e] for e in edges)
    assert len(choices) >= 2


def test_first_solution_past_its_budget_hands_over_with_the_grid_restored():
    text = public("12_multiple_solutions_2.txt")
    rules = rules_of(text)
    grid = rules.grid
    before = grid.lo[:], grid.hi[:], len(grid.trail)
    with pytest.raises(OutOfBranches):
        first_solution(rules, Stats(), budget=Budget(0, 0))
    assert (grid.lo, grid.hi, len(grid.trail)) == before


def spent_after(budget, depths):
    """How many branches `budget` allows when the search branches from `depths` in turn."""
    for used, depth in enumerate(depths):
        if not budget.spend(depth):
            return used
    return None


def test_a_budget_goes_on_past_its_branches_while_the_search_goes_deeper():
    stall = DEFAULT.node_search_stall
    assert spent_after(Budget(10, 1000), range(100)) is None  # deeper at every branch
    assert spent_after(Budget(10, 50), range(100)) == 50  # ...up to `most`
    # Back up after 30 levels: more branches at depths already reached.
    assert spent_after(Budget(10, 1000), list(range(30)) + [29] * 100) == 29 + stall
    # Past the branches and no new depth for `stall` branches: spent at once.
    assert spent_after(Budget(10, 1000), [0, 1, 2] + [2] * 100) == 10
    assert spent_after(Budget(0), [0]) == 0  # no branches: no stretch either


def test_the_node_search_answers_a_fill_it_would_have_handed_over_at_its_branches():
    # A board of the stress suite that the node search answers after more than
    # `node_search_branches` branches, going deeper: it answers it within the default budget.
    text = (ROOT / "puzzles" / "stress" / "fill" / "30x15_fill58_single_009.txt").read_text()
    branches = DEFAULT.node_search_branches
    stats = Stats()
    links = first_solution(rules_of(text), stats)
    assert fault(text, links_text(links)) is None
    assert stats.branches > branches
    with pytest.raises(OutOfBranches):
        first_solution(rules_of(text), Stats(), budget=Budget(branches, most=branches))


def test_first_solution_within_its_budget_is_valid():
    text = public("12_multiple_solutions_2.txt")
    links = first_solution(rules_of(text), Stats())
    assert fault(text, links_text(links)) is None


def test_completions_that_spread_links_come_first():
    p = parse("3\n3\n2.2\n...\n2..\n")
    grid = Grid(p)
    edges, choices = completions(grid, p.pos.index((0, 0)))
    assert sorted(choices) == [(0, 2), (1, 1), (2, 0)]
    assert spread_first(grid, edges, choices)[0] == (1, 1)


def test_first_solution_of_an_unsolvable_board_is_none():
    assert first_solution(rules_of("3\n2\n2.1\n...\n"), Stats()) is None


def test_solutions_finds_each_solution_once():
    text = public("09_multiple_solutions_1.txt")
    found = all_solutions(text)
    assert len(found) == len(set(found)) == 2
    assert sorted(found) == sorted(brute_force_solutions(text))


def random_solvable_board(rng):
    """A small board built from a random link network, so it has at least one solution."""
    while True:
        cells = [(x, y) for y in range(3) for x in range(4) if rng.random() < 0.5]
        if len(cells) < 2:
            continue
        p = parse(_board_text(4, 3, {c: 1 for c in cells}))
        if not 1 <= len(p.ends) <= 8:
            continue
        links = [(*p.pos[a], *p.pos[b], rng.randint(0, 2)) for a, b in p.ends]
        links = [link for link in links if link[4]]
        degree = {c: 0 for c in cells}
        for x1, y1, x2, y2, n in links:
            degree[(x1, y1)] += n
            degree[(x2, y2)] += n
        if min(degree.values()) == 0:
            continue
        text = _board_text(4, 3, degree)
        if fault(text, links_text(links)) is None:
            return text


def _board_text(width, height, values):
    rows = ["".join(str(values.get((x, y), ".")) for x in range(width)) for y in range(height)]
    return f"{width}\n{height}\n" + "\n".join(rows) + "\n"


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(12))
def test_solutions_match_brute_force_on_small_random_boards(seed):
    text = random_solvable_board(random.Random(seed))
    found = all_solutions(text)
    assert found, text
    assert sorted(found) == sorted(brute_force_solutions(text))


def test_solutions_leave_the_grid_as_they_found_it():
    rules = rules_of(public("12_multiple_solutions_2.txt"))
    grid = rules.grid
    before = (grid.lo[:], grid.hi[:], grid.got[:], grid.cap[:])
    assert sum(1 for _ in solutions(rules, Stats())) > 1
    assert (grid.lo, grid.hi, grid.got, grid.cap) == before


def test_stage_limits_how_deep_the_search_goes():
    text = public("11_cg.txt")
    with pytest.raises(bot.Unsolvable):
        solve_to(text, RULES)
    assert fault(text, links_text(solve_to(text, BRANCHING))) is None
    stats = Stats()
    try:
        solve_to(text, ELIMINATION, stats)
    except bot.Unsolvable:
        pass
    assert stats.branches == 0 and stats.eliminations > 0


@pytest.mark.slow
def test_replay_sets_the_state_a_probe_reached():
    text = (PUBLIC.parent / "hard30" / "30x30_hard_unique_s1_004.txt").read_text()
    rules = rules_of(text)
    grid = rules.grid
    rules.propagate()
    replayed = 0
    for i in range(len(grid.puzzle)):
        if grid.got[i] == grid.cap[i]:
            continue
        edges, choices = completions(grid, i)
        for c in choices:
            outcome = []
            if changes_of(rules, edges, c, Stats(), set(), outcome) is None:
                continue
            mark = rules.mark()
            replay(rules, outcome)
            replayed_state = (grid.lo[:], grid.hi[:], grid.got[:], grid.cap[:])
            assert not rules.changes.dirty
            rules.revert(mark)
            assume(grid, edges, c)
            rules.propagate(PROBE)
            assert (grid.lo, grid.hi, grid.got, grid.cap) == replayed_state
            rules.revert(mark)
            replayed += 1
    assert replayed > 20


@pytest.mark.slow
def test_a_probe_records_every_node_it_completed():
    text = (PUBLIC.parent / "hard30" / "30x30_hard_unique_s1_004.txt").read_text()
    rules = rules_of(text)
    grid = rules.grid
    rules.propagate()
    lo, got, cap, node_edges = grid.lo, grid.got, grid.cap, grid.puzzle.node_edges
    probed = 0
    for i in range(len(grid.puzzle)):
        if got[i] == cap[i]:
            continue
        edges, choices = completions(grid, i)
        for c in choices:
            survived = set()
            if changes_of(rules, edges, c, Stats(), survived) is None:
                continue
            # The same probe, read from the state it ends in: each node whose edges it
            # changed and left all decided.
            start = len(grid.trail)
            mark = rules.mark()
            assume(grid, edges, c)
            rules.propagate(PROBE)
            expected = {(j, tuple(lo[e] for e, _ in node_edges[j]))
                        for j in grid.changed_since(start) if got[j] == cap[j]}
            rules.revert(mark)
            assert survived == expected and expected
            probed += 1
    assert probed > 20


def test_probing_nodes_of_three_completions_still_finds_the_solution():
    # A later completion can then be the one probed survivor left; its probe kept no bounds to
    # replay, so the probe narrows to it instead.
    three = DEFAULT.replace(probe_options=3)
    for name in ("30x30_hard_unique_s1_004.txt", "30x30_hard_unique_s1_010.txt"):
        text = (PUBLIC.parent / "hard30" / name).read_text()
        assert fault(text, links_text(bot.solve(text, options=three))) is None


def test_completion_counts_do_not_depend_on_what_was_counted_before():
    # Two states of the middle node whose packed keys once collided: 6 links missing on
    # one open 0..1 edge (no way to complete), and none missing on a 1..2 and a 0..1 edge
    # (one way). Bounds set by hand: only the count is under test.
    grid = Grid(parse("3\n1\n282\n"))
    left, right = grid.puzzle.edge_between(0, 1), grid.puzzle.edge_between(1, 2)

    def state(bounds, got):
        for e, (low, high) in zip((left, right), bounds):
            grid.lo[e], grid.hi[e] = low, high
        grid.got[1] = got

    for first, second in ((((0, 0), (0, 1)), 2), (((1, 2), (0, 1)), 8)), \
                         ((((1, 2), (0, 1)), 8), (((0, 0), (0, 1)), 2)):
        forget_counts()  # (a cache: only what is counted here is in it)
        state(*first)
        assert count_completions(grid, 1) == len(completions(grid, 1)[1])
        state(*second)
        assert count_completions(grid, 1) == len(completions(grid, 1)[1])
