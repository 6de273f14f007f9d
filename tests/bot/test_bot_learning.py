"""The search that learns: its facts, the reasons it rebuilds, and its answers."""

import ast
import random
from bisect import bisect_right

import pytest

import bot
import bot.rules.groups
from bot.branching import Phases
from bot.cdcl import REFUTED, SOLVED, UNDECIDED, Learner, Levels, Nogoods
from bot.facts import (AT_LEAST_1, AT_LEAST_2, AT_MOST_0, AT_MOST_1, at_least, at_most, bound,
                       bound_facts, edge, every_fact, fact_count, is_lower, made_true, negate)
from bot.facts import holds as fact_holds
from bot.grid import CLOSED, CUT, REGION, Contradiction, Grid, components
from bot.learning import Turns, learned_solutions, make_root
from bot.options import DEFAULT
from bot.puzzle import parse
from bot.rules import CONNECT, FULL, Rules
from bot.rules.balance import balance
from bot.rules.connect import connect
from bot.rules.groups import cycle_edges
from bot.rules.nodes import node_reason
from bot.stats import Stats
from tests.judge import fault, links_text
from tests.project import PUBLIC, ROOT

# The search that learns from the start: the node search hands over before its first branch.
LEARNING_ONLY = DEFAULT.replace(node_search_branches=0)


def learned_without_fill(text, stats):
    """The grid at each solution of the search that learns, made as `learned_solutions`
    makes it but with the first descent at the engine's default counts, not at a fill's:
    the boards of the tests that call this were chosen for the conflicts and restarts they
    meet so, and a fill leads most of them straight to an answer. Also the engine."""
    rules = Rules(Grid(parse(text)), LEARNING_ONLY)
    assert make_root(rules, stats)
    engine = Learner(rules, stats)
    return engine, (grid for grid in Turns(engine).solutions() if grid.valid())


def count_without_fill(text, limit, stats=None):
    """How many distinct solutions `learned_without_fill` finds, stopping at `limit`."""
    found = set()
    for grid in learned_without_fill(text, Stats() if stats is None else stats)[1]:
        found.add(tuple(sorted(grid.links())))
        if len(found) >= limit:
            break
    return len(found)


def fact(grid, a, b, kind):
    """The fact of `kind` on the edge between the nodes at positions a and b."""
    p = grid.puzzle
    return 4 * p.edge_between(p.pos.index(a), p.pos.index(b)) + kind


def holds(grid, facts):
    return all(fact_holds(grid.lo, grid.hi, f) for f in facts)


def top(grid):
    return [min(2, grid.value[a], grid.value[b]) for a, b in grid.puzzle.ends]


def node_reason_now(grid, top_, fact):
    """`node_reason` for a change that would make `fact`, from the grid's present state
    (every true fact became true before it)."""
    return node_reason(grid, top_, fact, [-1] * (4 * len(top_)), 0)


def node_rules_before(grid, top_, e, new_lo, new_hi):
    """The node rules' reason for moving edge e to (new_lo, new_hi), read the slow way in
    the state just before the move: an independent oracle for `node_reason`."""
    p = grid.puzzle
    lo, hi, value = grid.lo, grid.hi, p.value
    for x in p.ends[e]:
        others = [f for f in p.edges_at[x] if f != e]
        if new_lo > lo[e] and value[x] - sum(hi[f] for f in others) >= new_lo:
            return [fact for f in others for fact in bound_facts(grid, top_, f, lows=False)]
        if new_lo == lo[e] and value[x] - sum(lo[f] for f in others) <= new_hi:
            return [fact for f in others for fact in bound_facts(grid, top_, f, highs=False)]
    return None


def test_a_fact_and_its_negation_never_hold_together():
    grid = Grid(parse("2\n1\n22\n"))
    for kind in range(4):
        f = kind  # edge 0
        assert negate(negate(f)) == f
        assert {f, negate(f)} in ({AT_LEAST_1, AT_MOST_0}, {AT_LEAST_2, AT_MOST_1})
    grid.raise_lo(0, 1)
    assert fact_holds(grid.lo, grid.hi, AT_LEAST_1) and not fact_holds(grid.lo, grid.hi, AT_MOST_0)


def test_a_fact_reads_back_as_the_edge_bound_and_count_it_was_made_of():
    for e in (0, 3):
        made = [at_most(e, 0), at_most(e, 1), at_least(e, 2), at_least(e, 1)]
        assert list(every_fact(e)) == made   # kinds 3 down to 0
        assert [(edge(f), is_lower(f), bound(f)) for f in made] == [
            (e, False, 0), (e, False, 1), (e, True, 2), (e, True, 1)]
    assert set(range(fact_count(4))) == {f for e in range(4) for f in every_fact(e)}


def fact_arithmetic_outside_facts_py():
    """{'file:function'} of the functions and methods in bot/ that make or read a fact by
    hand (`4 * e`, `fact >> 2`, `fact & 3`) rather than through bot/facts.py."""
    found = set()
    for path in sorted((ROOT / "bot").rglob("*.py")):
        if path.name == "facts.py":
            continue
        for top in ast.parse(path.read_text()).body:
            owner = top.name + "." if isinstance(top, ast.ClassDef) else ""
            for node in top.body if owner else [top]:
                if isinstance(node, ast.FunctionDef) and any(map(by_hand, ast.walk(node))):
                    found.add(f"{path.relative_to(ROOT / 'bot')}:{owner}{node.name}")
    return found


def by_hand(node):
    """Whether `node` is one of a fact's operations written out."""
    if not isinstance(node, ast.BinOp):
        return False
    sides = [node.left, node.right]
    constants = [side.value for side in sides if isinstance(side, ast.Constant)]
    named = any(isinstance(side, ast.Name) for side in sides)
    return (isinstance(node.op, ast.RShift) and constants == [2]
            or isinstance(node.op, ast.BitAnd) and constants == [3]
            or isinstance(node.op, ast.Mult) and constants == [4] and named)


def test_facts_are_written_out_only_in_the_two_hot_loops_that_say_why():
    assert fact_arithmetic_outside_facts_py() == {"cdcl.py:Levels.scan", "cdcl.py:Nogoods._visit"}


def test_made_true_lists_every_bound_a_change_crossed():
    assert made_true(3, 0, 2, 2, 2) == [4 * 3 + AT_LEAST_2, 4 * 3 + AT_LEAST_1]
    assert made_true(3, 0, 2, 0, 0) == [4 * 3 + AT_MOST_0, 4 * 3 + AT_MOST_1]
    assert made_true(3, 1, 2, 1, 1) == [4 * 3 + AT_MOST_1]


def test_magicval_is_explained_by_the_caps_of_the_other_edges():
    # The 3 at the middle of three in a row has two edges; cap the left one at 1: the
    # right one needs at least 2.
    grid = Grid(parse("3\n1\n232\n"))
    left = grid.puzzle.edge_between(0, 1)
    grid.hi[left] = 1  # set by hand: the rules would find the left 2 short at once
    right = grid.puzzle.edge_between(1, 2)
    assert node_reason_now(grid, top(grid), 4 * right + AT_LEAST_2) == [4 * left + AT_MOST_1]


def test_the_sieve_is_explained_by_the_links_already_drawn():
    grid = Grid(parse("3\n1\n232\n"))
    left, right = grid.puzzle.edge_between(0, 1), grid.puzzle.edge_between(1, 2)
    grid.raise_lo(left, 2)
    assert node_reason_now(grid, top(grid), 4 * right + AT_MOST_1) == [4 * left + AT_LEAST_2]


@pytest.mark.parametrize("path", ["puzzles/public/13_expert.txt",
                                  "puzzles/stress/fill/20x20_fill48_mixed_007.txt",
                                  "puzzles/stress/research/30x30_sparse_single_0055.txt"])
def test_the_node_rules_read_from_a_later_state_explain_as_in_the_state_before(path):
    # The trace asks `node_reason` without going back: the facts true now, each with the
    # trail position where it became true, must tell the bounds before each change. Make a
    # trail of decisions and the rules' changes; then, going back one change at a time, the
    # node rules read the slow way in the state just before each must give what
    # `node_reason` gave for it from the state at the end of the trail.
    grid = Grid(parse((ROOT / path).read_text()))
    tops = top(grid)
    rng = random.Random(3)
    rules = Rules(grid)
    rules.propagate()
    while not grid.solved():  # decide an edge at random, up to the first dead end
        mark = rules.mark()
        e = rng.choice([f for f in range(len(tops)) if grid.lo[f] != grid.hi[f]])
        try:
            grid.raise_lo(e, grid.hi[e]) if rng.random() < 0.5 else grid.lower_hi(e, grid.lo[e])
            rules.propagate()
        except Contradiction:
            rules.revert(mark)
            break
    trail = grid.trail
    fact_pos = [-1] * (4 * len(tops))
    after = {}  # edge -> its bounds after the entry read (reading backwards)
    made = []
    for position in range(len(trail) - 1, -1, -1):
        e, old_lo, old_hi = trail[position]
        new_lo, new_hi = after.get(e) or (grid.lo[e], grid.hi[e])
        facts = made_true(e, old_lo, old_hi, new_lo, new_hi)
        for f in facts:
            fact_pos[f] = position
        made.append((position, e, new_lo, new_hi, facts[0]))
        after[e] = old_lo, old_hi
    read_ahead = {position: node_reason(grid, tops, strongest, fact_pos, position)
                  for position, _, _, _, strongest in made}
    explained = 0
    for position, e, new_lo, new_hi, _ in made:  # the latest first
        rules.undo(position)
        assert read_ahead[position] == node_rules_before(grid, tops, e, new_lo, new_hi)
        explained += read_ahead[position] is not None
    assert 0 < explained < len(made)


def test_a_crossing_is_explained_by_the_link_it_crosses():
    text = "3\n3\n.1.\n1.1\n.1.\n"
    grid = Grid(parse(text))
    across = fact(grid, (0, 1), (2, 1), AT_LEAST_1) // 4
    down = fact(grid, (1, 0), (1, 2), AT_LEAST_1) // 4
    grid.lo[across] = 1  # as raise_lo leaves it just before it blocks the crossing edge
    assert Rules(grid).reason(top(grid), down, 0, 0) == [4 * across + AT_LEAST_1]


def test_a_bridge_is_explained_by_the_cut_edges_around_its_side():
    # 2-2 over 2-2: the only links from the top pair to the bottom pair are the two
    # verticals; with the left one cut, the right one must carry a link.
    grid = Grid(parse("2\n2\n22\n22\n"))
    p = grid.puzzle
    left = p.edge_between(0, 2)
    grid.lower_hi(left, 0)
    right = p.edge_between(1, 3)
    reason = Rules(grid).reason(top(grid), right, 1, grid.hi[right])
    assert reason is not None and holds(grid, reason)
    assert 4 * left + AT_MOST_0 in reason


def test_isolation_is_explained_by_the_shut_ways_out_of_the_group():
    # 1 2 1 in a row under a 1: with (0,0)-(1,0) drawn, the 2 and the left 1 would close if
    # the 2 took its second link from the right 1... isolate caps what closes the group.
    text = "3\n2\n121\n.1.\n"
    grid = Grid(parse(text))
    p = grid.puzzle
    left = p.edge_between(p.pos.index((0, 0)), p.pos.index((1, 0)))
    right = p.edge_between(p.pos.index((1, 0)), p.pos.index((2, 0)))
    grid.raise_lo(left, 1)
    reason = Rules(grid).reason(top(grid), right, grid.lo[right], 0)
    assert reason is not None and holds(grid, reason)
    assert 4 * left + AT_LEAST_1 in reason


@pytest.mark.parametrize("text, state, kind", [
    ("3\n1\n2.2\n", lambda g: g.hi.__setitem__(0, 1) or g.cap.__setitem__(0, 1), "short"),
    ("3\n3\n.1.\n1.1\n.1.\n", None, "crossing"),
])
def test_diagnose_names_facts_that_hold_and_explain_the_contradiction(text, state, kind):
    grid = Grid(parse(text))
    if kind == "crossing":
        for e in range(len(grid.puzzle.ends)):
            grid.lo[e] = 1
    else:
        state(grid)
    conflict = Rules(grid).diagnose(top(grid))
    assert conflict and holds(grid, conflict)


def test_a_link_that_closes_its_group_names_itself_and_diagnose_goes_straight_to_the_group():
    # Two pairs of 1s: the top link closes its pair, and the grid names the link's first
    # end and the rule. Diagnosing from there gives what a walk of the whole board gives.
    grid = Grid(parse("2\n3\n11\n..\n11\n"))
    top_pair = grid.puzzle.edge_between(0, 1)
    with pytest.raises(Contradiction) as dead:
        grid.raise_lo(top_pair, 1)
    assert dead.value.args == (0, CLOSED)
    conflict = Rules(grid).diagnose(top(grid), *dead.value.args)
    assert conflict == Rules(grid).diagnose(top(grid)) and holds(grid, conflict)
    assert {edge(f) for f in conflict} <= {top_pair} | {e for e, _ in grid.puzzle.node_edges[0]
                                                       + grid.puzzle.node_edges[1]}


def test_diagnose_finds_a_cut_in_the_possible_links():
    grid = Grid(parse("2\n2\n22\n22\n"))
    p = grid.puzzle
    for a, b in ((0, 2), (1, 3)):
        e = p.edge_between(a, b)
        grid.hi[e] = 0
    conflict = Rules(grid).diagnose(top(grid))
    assert sorted(conflict) == sorted(4 * p.edge_between(a, b) + AT_MOST_0
                                      for a, b in ((0, 2), (1, 3)))


def test_diagnose_finds_a_region_lacking_an_odd_number_of_links():
    grid = Grid(parse("3\n1\n131\n"))
    p = grid.puzzle
    left = p.edge_between(0, 1)
    grid.lo[left] = grid.hi[left] = 0  # decided at 0 by hand: the right pair lacks 3
    conflict = Rules(grid).diagnose(top(grid))
    assert conflict is not None and holds(grid, conflict)


def learned(text):
    """Every solution the search that learns finds, sorted, up to ten."""
    grid = Grid(parse(text))
    found = []
    for solved in learned_solutions(Rules(grid), Stats()):
        found.append(tuple(sorted(solved.links())))
        if len(found) >= 10:
            break
    return found


@pytest.mark.parametrize("path", sorted(PUBLIC.glob("*.txt")) +
                         sorted((ROOT / "puzzles" / "hard30").glob("*.txt"))[:6],
                         ids=lambda p: p.stem)
@pytest.mark.slow
def test_the_learning_search_alone_solves_every_public_and_hard_puzzle(path):
    text = path.read_text()
    links = bot.solve(text, options=LEARNING_ONLY)
    assert fault(text, links_text(links)) is None


def test_the_learning_search_finds_each_solution_once():
    text = (PUBLIC / "09_multiple_solutions_1.txt").read_text()
    found = learned(text)
    assert len(found) == len(set(found)) == bot.count_solutions(text, limit=10)
    for links in found:
        assert fault(text, links_text(links)) is None


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(9))
def test_no_nogood_rules_out_a_solution_the_search_has_yet_to_find(seed, monkeypatch):
    # A nogood may rule out only dead states and the solutions already found (each is
    # ruled out once found): check every one the learner stores while it counts every
    # solution of a board with few.
    text = near_tree_board(6, 5, seed, cycles=1 + seed % 3, doubles=seed % 2)
    found, stored, add = [], [], Nogoods.add

    def noted(self, facts):
        stored.append((len(found), list(facts)))
        return add(self, facts)
    monkeypatch.setattr(Nogoods, "add", noted)
    for solved in learned_solutions(Rules(Grid(parse(text))), Stats()):
        found.append(solved.lo[:])
    assert len(stored) > len(found)  # nogoods learned from contradictions, not only ends
    for known, facts in stored:
        assert not any(admits(facts, counts) for counts in found[known:])

def connected_board(width, height, seed, density=1.0):
    """A legal board with many solutions: islands on a share of the cells, values from a
    random connected set of non-crossing links (single or double)."""
    rng = random.Random(seed)
    cells = [(x, y) for y in range(height) for x in range(width) if rng.random() < density]
    p = parse(f"{width}\n{height}\n" + "\n".join(
        "".join("1" if (x, y) in set(cells) else "." for x in range(width))
        for y in range(height)) + "\n")
    parent = list(range(len(p)))

    def root(i):
        while parent[i] != i:
            i = parent[i]
        return i
    blocked, counts = set(), {}
    for e in rng.sample(range(len(p.ends)), len(p.ends)):
        a, b = p.ends[e]
        if e not in blocked and (root(a) != root(b) or rng.random() < 0.3):
            parent[root(a)] = root(b)
            counts[e] = rng.choice((1, 2))
            blocked.update(p.crossings[e])
    values = [0] * len(p)
    for e, n in counts.items():
        for i in p.ends[e]:
            values[i] += n
    keep = root(max(range(len(p)), key=lambda i: sum(root(j) == root(i) for j in range(len(p)))))
    rows = [["."] * width for _ in range(height)]
    for i, (x, y) in enumerate(p.pos):
        if root(i) == keep and values[i]:
            rows[y][x] = str(values[i])
    return f"{width}\n{height}\n" + "\n".join("".join(r) for r in rows) + "\n"


@pytest.mark.parametrize("seed", range(12))
def test_the_learning_search_solves_boards_full_of_islands(seed):
    text = connected_board(9, 8, seed, density=1.0 if seed % 2 else 0.6)
    assert fault(text, links_text(bot.solve(text, options=LEARNING_ONLY))) is None


@pytest.mark.parametrize("seed", (42, 45))  # boards where it decides: 25 and 8 decisions were early
def test_the_learning_search_decides_only_once_the_rules_have_nothing_left(seed, monkeypatch):
    # A nogood learned is asserted at the level it jumps back to; deciding before the rules
    # have run on it decided edges they would fix, and learned what they knew already.
    decide = Learner.decide
    pending = []

    def checked(self):
        pending.append(bool(self.rules.changes.dirty))
        return decide(self)
    monkeypatch.setattr(Learner, "decide", checked)
    stats = Stats()
    text = connected_board(14, 14, seed)
    _, found = learned_without_fill(text, stats)
    assert fault(text, links_text(next(found).links())) is None
    assert stats.nogoods > 0 and pending and not any(pending)


@pytest.mark.parametrize("seed", (42, 45))
def test_the_learning_search_walks_the_board_only_once_its_nogoods_have_nothing_left(
        seed, monkeypatch):
    # connect and balance walk the board's edges: the nogoods, cheaper, run first. Each time
    # one of the two runs in the search, the nogoods have seen every fact on the trail. They
    # run in the schedules that walk, balance last: at the start of each such propagation
    # of the search and at its end the trail holds nothing the nogoods have not seen (it
    # only grows within one), so neither did it whenever the two ran in between.
    stats = Stats()
    text = connected_board(14, 14, seed)
    engine, found = learned_without_fill(text, stats)
    propagate, behind = Rules.propagate, []

    def walked(self, schedule=FULL, stats=None):
        if CONNECT not in schedule:
            return propagate(self, schedule, stats)
        before = len(self.grid.trail) - engine.levels.scanned
        try:
            return propagate(self, schedule, stats)
        finally:
            behind.append((before, len(self.grid.trail) - engine.levels.scanned))
    monkeypatch.setattr(Rules, "propagate", walked)
    assert fault(text, links_text(next(found).links())) is None
    assert stats.nogoods > 0 and len(behind) > 20 and not any(a or b for a, b in behind)


@pytest.mark.parametrize("seed", (42, 45))
def test_the_scan_notes_the_facts_made_true_names_for_each_change(seed, monkeypatch):
    # The scan writes made_true out (its hottest loop): the two must never part.
    scan = Levels.scan
    scans = []

    def checked(self):
        trail, lo, hi = self.grid.trail, self.grid.lo, self.grid.hi
        start, after, expected = self.scanned, {}, []
        for position in range(len(trail) - 1, start - 1, -1):  # as the scan reads them
            e, old_lo, old_hi = trail[position]
            new_lo, new_hi = after.get(e) or (lo[e], hi[e])
            expected += made_true(e, old_lo, old_hi, new_lo, new_hi)
            after[e] = old_lo, old_hi
        made = scan(self)
        assert made == expected
        assert all(self.fact_pos[f] >= start for f in made)
        scans.append(len(made))
        return made
    monkeypatch.setattr(Levels, "scan", checked)
    text = connected_board(14, 14, seed)
    assert fault(text, links_text(bot.solve(text, options=LEARNING_ONLY))) is None
    assert sum(scans) > 100


@pytest.mark.slow
@pytest.mark.parametrize("size, seed, restarts", [(14, 42, 0), (14, 45, 0), (26, 44, 2)])
def test_the_level_noted_for_each_fact_is_the_level_its_trail_position_lies_in(
        size, seed, restarts, monkeypatch):
    # The learner notes a fact's level when it scans the fact, rather than searching the
    # levels' starts for its trail position at every look: at each conflict it learns
    # from, both must agree for every fact on the trail, through conflicts, jumps back,
    # the solutions counting goes past and restarts (the 26x26 board restarts three times).
    learn, shake = Learner.learn, Phases.shake
    looked, shaken = [], []

    def checked(self, conflict):
        lo, hi, length = self.grid.lo, self.grid.hi, len(self.grid.trail)
        levels = self.levels
        for f, position in enumerate(levels.fact_pos):
            if 0 <= position < length and fact_holds(lo, hi, f):
                level = levels.fact_level[f]
                assert level == bisect_right(levels.starts, position)
                looked.append(level)
        return learn(self, conflict)

    def counted(self, rules):
        shaken.append(1)
        return shake(self, rules)
    monkeypatch.setattr(Learner, "learn", checked)
    monkeypatch.setattr(Phases, "shake", counted)
    text = connected_board(size, size, seed)
    assert count_without_fill(text, limit=3) >= 1
    assert max(looked) > 1
    assert len(shaken) >= restarts


# -- the engine's search: paused, refuted, solved ------------------------------------------

UNIQUE = ROOT / "puzzles" / "hard30" / "30x30_hard_unique_s1_002.txt"  # about 25 conflicts


def rooted_engine(text, stats):
    """An engine over the board's root, as the search that learns starts it."""
    rules = Rules(Grid(parse(text)), LEARNING_ONLY)
    assert make_root(rules, stats)
    return Learner(rules, stats)


def never():
    return False


def test_a_search_paused_at_its_conflicts_goes_on_to_the_same_answer():
    text = UNIQUE.read_text()
    whole = rooted_engine(text, Stats())
    assert whole.search(float("inf"), never) is SOLVED
    stats = Stats()
    engine = rooted_engine(text, stats)
    pauses = 0
    while (outcome := engine.search(5, never)) is UNDECIDED:
        pauses += 1
        assert engine.conflicts >= 5 * pauses
    assert outcome is SOLVED and pauses >= 2
    assert engine.grid.valid() and engine.grid.lo == whole.grid.lo
    assert engine.conflicts == whole.conflicts


def test_a_search_asks_stop_at_its_first_fixed_point_and_pauses_there():
    engine = rooted_engine(UNIQUE.read_text(), Stats())
    asked = []
    assert engine.search(float("inf"), lambda: not asked.append(engine.level)) is UNDECIDED
    assert asked == [0] and engine.conflicts == 0


def test_a_search_refutes_a_board_held_to_a_link_its_only_answer_lacks():
    text = UNIQUE.read_text()
    solved = rooted_engine(text, Stats())
    assert solved.search(float("inf"), never) is SOLVED
    engine = rooted_engine(text, Stats())
    e, n = next((e, n) for e, n in enumerate(solved.grid.lo)
                if n and engine.is_open(at_least(e, n)))
    assert Turns(engine).hold(negate(at_least(e, n)))  # the root alone does not refuse it
    assert engine.search(float("inf"), never) is REFUTED


@pytest.mark.parametrize("seed", range(40))
def test_both_searches_count_the_same_solutions(seed):
    text = connected_board(5, 5, 100 + seed, density=0.7)
    node_count = bot.count_solutions(text, limit=3)
    assert bot.count_solutions(text, limit=3, options=LEARNING_ONLY) == node_count


def test_a_board_with_one_island_off_by_two_has_no_solution_either_way():
    text = connected_board(8, 8, 7)
    rows = text.splitlines()
    y = next(y for y in range(2, len(rows)) if any(c in "123456" for c in rows[y]))
    x = next(x for x, c in enumerate(rows[y]) if c in "123456")
    rows[y] = rows[y][:x] + str(int(rows[y][x]) + 2) + rows[y][x + 1:]
    broken = "\n".join(rows) + "\n"
    expected = bot.count_solutions(broken, limit=1)
    assert bot.count_solutions(broken, limit=1, options=LEARNING_ONLY) == expected
    if expected == 0:
        with pytest.raises(bot.Unsolvable):
            bot.solve(broken, options=LEARNING_ONLY)


def test_diagnose_blames_the_decided_edges_around_an_unbalanced_region():
    # Full 3x2 board: decide the left column's edge at 1 by hand; the rest of the board
    # still has two sides that lack different totals.
    grid = Grid(parse("3\n2\n232\n323\n"))
    p = grid.puzzle
    left = p.edge_between(0, 3)
    grid.lo[left] = grid.hi[left] = 1
    conflict = Rules(grid).diagnose(top(grid))
    assert conflict is not None and holds(grid, conflict)


def unbalanced_regions(grid):
    """Each region of undecided edges that cannot balance, as the set of facts behind it,
    in the order of each region's lowest node (written plainly, apart from `bot.rules.balance`)."""
    p = grid.puzzle
    lo, hi, got, value = grid.lo, grid.hi, grid.got, p.value
    side = {}
    found = []
    for start in range(len(p)):
        if start in side:
            continue
        side[start] = 0
        region, two_sides = [start], True
        for x in region:
            for f, y in p.node_edges[x]:
                if lo[f] != hi[f]:
                    if y not in side:
                        side[y] = 1 - side[x]
                        region.append(y)
                    elif side[y] == side[x]:
                        two_sides = False
        missing = [sum(value[x] - got[x] for x in region if side[x] == s) for s in (0, 1)]
        if missing[0] != missing[1] if two_sides else sum(missing) % 2:
            inside = set(region)
            read = {f for x in region for f, y in p.node_edges[x] if lo[f] == hi[f]
                    and (y not in inside or (two_sides and side[x] == side[y]))}
            found.append({g for f in read for g in bound_facts(grid, top(grid), f)})
    return found


@pytest.mark.slow
@pytest.mark.parametrize("size, density, seed", [(8, 0.9, 7), (10, 0.9, 6), (14, 1.0, 5)])
def test_an_unbalanced_region_is_explained_by_the_one_with_the_fewest_facts(
        size, density, seed, monkeypatch):
    # What the learner learns from a region `balance` refutes is the smallest such region's
    # facts, wherever on the board it lies (finished nodes are not even looked at).
    told = Rules.diagnose
    checked = []

    def diagnosed(self, top_, hint=None, rule=None):
        conflict = told(self, top_, hint, rule)
        if rule == REGION:
            regions = unbalanced_regions(self.grid)
            fewest = min(len(r) for r in regions)
            assert set(conflict) == next(r for r in regions if len(r) == fewest)
            checked.append(len(regions))
        return conflict
    monkeypatch.setattr(Rules, "diagnose", diagnosed)
    count_without_fill(connected_board(size, size, seed, density=density), limit=2)
    assert len(checked) >= 20 and max(checked) > 1  # and some states hold more than one

@pytest.mark.parametrize("text, cut, rule", [
    ("3\n2\n232\n323\n", [], REGION),              # left column at 1: sides lack 4 and 3
    ("2\n2\n22\n22\n", [(0, 2), (1, 3)], CUT),      # the top row no longer meets the bottom
])
def test_a_global_rule_names_itself_and_diagnose_goes_straight_to_its_reason(text, cut, rule):
    grid = Grid(parse(text))
    p = grid.puzzle
    if rule == REGION:
        left = p.edge_between(0, 3)
        grid.lo[left] = grid.hi[left] = 1
    for a, b in cut:
        grid.hi[p.edge_between(a, b)] = 0
    rules = Rules(grid)
    with pytest.raises(Contradiction) as dead:
        (balance if rule == REGION else connect)(rules)
    assert dead.value.args[1] == rule
    conflict = rules.diagnose(top(grid), *dead.value.args)
    assert conflict == rules.diagnose(top(grid)) and holds(grid, conflict)


def near_tree_board(width, height, seed, cycles=0, doubles=0):
    """Every cell an island, the values from a random spanning tree of single links plus
    `cycles` more single links and `doubles` doubled ones: a board with almost no spare."""
    rng = random.Random(seed)
    p = parse(f"{width}\n{height}\n" + "\n".join("1" * width for _ in range(height)) + "\n")
    parent = list(range(len(p)))

    def root(i):
        while parent[i] != i:
            i = parent[i]
        return i
    counts, rest = {}, []
    for e in rng.sample(range(len(p.ends)), len(p.ends)):
        a, b = p.ends[e]
        if root(a) != root(b):
            parent[root(a)] = root(b)
            counts[e] = 1
        else:
            rest.append(e)
    for e in rest[:cycles]:
        counts[e] = 1
    for e in rng.sample(sorted(counts), doubles):
        counts[e] = 2
    values = [0] * len(p)
    for e, n in counts.items():
        for i in p.ends[e]:
            values[i] += n
    rows = ["".join(str(values[p.pos.index((x, y))]) for x in range(width)) for y in range(height)]
    return f"{width}\n{height}\n" + "\n".join(rows) + "\n"


@pytest.mark.parametrize("seed", range(30))
def test_both_searches_count_the_same_solutions_on_boards_with_almost_no_spare(seed):
    text = near_tree_board(4 + seed % 3, 4, seed, cycles=seed % 3, doubles=seed % 2)
    node_count = bot.count_solutions(text, limit=3)
    assert node_count >= 1
    assert bot.count_solutions(text, limit=3, options=LEARNING_ONLY) == node_count


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(8))
def test_boards_with_almost_no_spare_match_brute_force(seed):
    from test_bot_assumption import all_solutions, brute_force_solutions
    text = near_tree_board(3, 2, seed, cycles=seed % 2, doubles=seed % 3 // 2)
    assert sorted(all_solutions(text)) == sorted(brute_force_solutions(text))


@pytest.mark.slow
def test_cycle_edges_are_the_drawn_edges_that_are_no_bridge_and_count_the_cycles():
    from test_bot_grid import draws_and_reverts
    for step, g in enumerate(draws_and_reverts("stress/full/20x20_full_mixed_002.txt", 5, 400)):
        if step % 20:
            continue
        on_cycles, cycles = cycle_edges(g)
        assert cycles == g.waste - sum(1 for low in g.lo if low == 2)
        for e in (e for e, low in enumerate(g.lo) if low):
            # On a cycle exactly when its ends still meet through the other drawn links.
            without = [low if f != e else 0 for f, low in enumerate(g.lo)]
            label = components(g, without)[0]
            a, b = g.puzzle.ends[e]
            assert (e in on_cycles) == (label[a] == label[b])


def admits(facts, counts):
    """Whether link `counts` (one per edge) make every fact hold."""
    return all(fact_holds(counts, counts, f) for f in facts)


@pytest.mark.parametrize("seed", range(16))
def test_every_reason_is_true_where_it_was_read_and_holds_in_every_solution(seed):
    # Walk to one solution an edge at a time; explain each bound the rules move on the way,
    # in the state just before it, and check the reason against every solution.
    text = near_tree_board(4, 3, seed, cycles=seed % 3, doubles=seed % 4 // 2)
    grid = Grid(parse(text))
    solutions = [g.lo[:] for g in learned_solutions(Rules(grid), Stats())]
    assert solutions
    grid = Grid(parse(text))
    rules = Rules(grid)
    goal = random.Random(seed).choice(solutions)
    order = random.Random(seed).sample(range(len(goal)), len(goal))
    explained = 0
    for e in [None] + order:
        if e is not None:
            grid.raise_lo(e, goal[e])
            grid.lower_hi(e, goal[e])
        start = len(grid.trail)
        rules.propagate()
        moves = [(position, *grid.trail[position]) for position in range(start, len(grid.trail))]
        after = (grid.lo[:], grid.hi[:])
        for position, f, old_lo, old_hi in reversed(moves):
            new_lo, new_hi = grid.lo[f], grid.hi[f]
            rules.undo(position)
            strongest = made_true(f, old_lo, old_hi, new_lo, new_hi)[0]
            reason = (node_reason_now(grid, top(grid), strongest)
                      or rules.reason(top(grid), f, new_lo, new_hi))
            if reason is None:
                continue
            explained += 1
            assert holds(grid, reason)
            for counts in solutions:  # the bound that moved holds wherever the reason does
                if admits(reason, counts):
                    assert counts[f] >= new_lo if new_lo > old_lo else counts[f] <= new_hi
        for f, (low, high) in enumerate(zip(*after)):  # back to where the walk was
            grid.raise_lo(f, low)
            grid.lower_hi(f, high)
    assert grid.lo == goal and explained


@pytest.mark.parametrize("limit", [bot.Limit(rounds=5), bot.Limit(branches=3)])
def test_a_limit_stops_either_search_with_over_limit(limit):
    text = connected_board(9, 8, 3)
    with pytest.raises(bot.OverLimit):
        bot.count_solutions(text, 2, within=limit)
    with pytest.raises(bot.OverLimit):
        bot.count_solutions(text, 2, within=limit, options=LEARNING_ONLY)


def test_a_generous_limit_changes_nothing():
    text = (PUBLIC / "11_cg.txt").read_text()
    assert bot.solve(text, within=bot.Limit(rounds=10 ** 6, branches=10 ** 6)) == bot.solve(text)


@pytest.mark.slow
def test_the_seed_draws_another_path_to_a_valid_answer_and_one_is_the_default():
    # 20x20_full_mixed_002 restarts: its restarts' shake, and so its search, follows the seed.
    text = (ROOT / "puzzles" / "stress" / "full" / "20x20_full_mixed_002.txt").read_text()
    runs = {}
    for seed in (None, 1, 2):
        stats = Stats()
        links = bot.solve(text, stats=stats) if seed is None else bot.solve(text, stats, seed=seed)
        assert fault(text, links_text(links)) is None
        runs[seed] = (stats.branches, stats.nogoods, sorted(links))
    assert runs[None] == runs[1] != runs[2]


@pytest.mark.slow
def test_another_seed_counts_the_same_solutions_by_another_path():
    # The 22x22 board restarts while its solutions are counted (as in the level test).
    text = connected_board(22, 22, 45)
    runs = []
    for seed in (1, 2):
        stats = Stats()
        runs.append((bot.count_solutions(text, limit=3, stats=stats, seed=seed,
                                         options=LEARNING_ONLY), stats.branches))
    (count_1, branches_1), (count_2, branches_2) = runs
    assert count_1 == count_2 >= 1 and branches_1 != branches_2


def slack_looks(text, monkeypatch, spare_limit):
    """How often the search that learns runs `slack` (from its root on) while it finds every
    solution of `text`, given the spare past which it leaves slack out; and the solutions."""
    rules = Rules(Grid(parse(text)), DEFAULT.replace(learn_slack_spare=spare_limit))
    rules.propagate(FULL, Stats())
    looks = []
    # `slack` notes the slack left at each look: a propagation that ends with it noted
    # has run the rule (a revert gives back only what a look had noted before).
    real = Rules.propagate
    monkeypatch.setattr(Rules, "propagate", lambda r, *args: (
        real(r, *args), r.slackened[1] is not None and looks.append(1))[0])
    found = sorted(tuple(sorted(g.links()))
                   for g in Turns(Learner(rules, Stats())).solutions())
    monkeypatch.undo()
    return len(looks), found


@pytest.mark.parametrize("seed", range(6))
def test_the_learning_search_leaves_slack_out_past_its_spare_and_finds_the_same(seed,
                                                                               monkeypatch):
    text = near_tree_board(5, 4, seed, cycles=2 + seed % 3, doubles=seed % 2)
    spare = Grid(parse(text)).spare
    looked, kept = slack_looks(text, monkeypatch, spare)
    skipped, left = slack_looks(text, monkeypatch, spare - 1)
    assert kept and looked > 0   # every solution spends the spare: slack has looked by then
    assert skipped == 0
    assert left == kept
