"""Deduction rules, one test (or more) each, grouped by rule: bot/rules/."""

import itertools

import pytest

import bot
import bot.rules.balance
from bot.grid import CLOSED, CUT, REGION, SLACK, Contradiction, Grid
from bot.options import DEFAULT
from bot.puzzle import parse
from bot.rules import (BALANCE, BALANCE_IN_PROBE, CONNECT, CONNECT_DECIDED, FULL, ISOLATE,
                       LEARN, LEARN_CHEAP, LEARN_CHEAP_NO_SLACK, LEARN_NO_SLACK, NODES, PROBE,
                       SLACKEN, Rule, Rules)
from bot.rules.balance import balance, balance_in_probe, due_in_probe
from bot.rules.connect import connect
from bot.rules.groups import isolate, slack
from bot.rules.nodes import settle
from bot.stats import Stats
from tests.project import PUBLIC


def at(p, xy):
    return p.pos.index(xy)


def edge(p, a, b):
    return p.edge_between(at(p, a), at(p, b))


def tuned(**changes):
    """The default options with `changes`."""
    return DEFAULT.replace(**changes)


# -- nodes: settle ---------------------------------------------------------------------------

def test_settle_magicval_fills_what_others_cannot():
    p = parse("3\n1\n242\n")
    g = Grid(p)
    settle(Rules(g))
    assert g.solved() and g.lo == [2, 2]


def test_settle_partial_magicval():
    # The top 3 has two neighbours that can take 2 each: one link at least each way.
    p = parse("3\n3\n332\n..1\n2.1\n")
    g = Grid(p)
    settle(Rules(g))
    three = at(p, (1, 0))
    assert [(g.lo[e], g.hi[e]) for e, _ in p.node_edges[three]] == [(1, 2), (1, 2)]


def test_settle_contradiction_when_capacity_is_short():
    with pytest.raises(Contradiction):
        settle(Rules(Grid(parse("2\n1\n13\n"))))


def test_settle_blocks_edges_of_a_saturated_node():
    p = parse("3\n2\n.12\n.12\n")
    g = Grid(p)
    right, down = edge(p, (1, 0), (2, 0)), edge(p, (1, 0), (1, 1))
    g.draw(right, 1)  # the top 1 has its link
    settle(Rules(g))
    assert g.hi[down] == 0


def node_rules(g, i):
    """The node rules at node i, written plainly: the reference for `settle`."""
    value = g.puzzle.value[i]
    if not g.got[i] <= value <= g.cap[i]:
        raise Contradiction()
    for e, _ in g.puzzle.node_edges[i]:
        g.raise_lo(e, g.hi[e] - (g.cap[i] - value))  # what the other edges cannot carry
        g.lower_hi(e, g.lo[e] + (value - g.got[i]))  # no more than the node lacks


def test_settle_reaches_the_fixpoint_of_the_node_rules():
    import random
    text = (PUBLIC.parent / "hard30" / "30x30_hard_unique_s1_004.txt").read_text()
    p = parse(text)
    rng = random.Random(4)
    for trial in range(30):
        g = Grid(p)
        for e in rng.sample(range(len(p.ends)), 12):
            try:
                g.raise_lo(e, 1) if rng.random() < 0.5 else g.lower_hi(e, 0)
            except Contradiction:
                break
        reference = g.clone()
        try:
            settle(Rules(g))
        except Contradiction:
            g = None
        try:
            changed = True
            while changed:
                before = (reference.lo[:], reference.hi[:])
                for i in range(len(p)):
                    node_rules(reference, i)
                changed = before != (reference.lo, reference.hi)
        except Contradiction:
            reference = None
        assert (g is None) == (reference is None)
        if g is not None:
            assert (g.lo, g.hi) == (reference.lo, reference.hi)


# -- groups: isolate -------------------------------------------------------------------------

def test_isolate_two_ones_and_two_twos():
    p = parse("3\n2\n1.1\n2.2\n")
    g = Grid(p)
    isolate(Rules(g))
    assert g.hi[edge(p, (0, 0), (2, 0))] == 0     # 1-1 would be a finished pair
    assert g.hi[edge(p, (0, 1), (2, 1))] == 1     # 2=2 would be a finished pair


def test_isolate_looks_again_after_a_revert_to_before_its_look():
    p = parse("3\n2\n1.1\n2.2\n")
    g = Grid(p)
    rules = Rules(g)
    mark = rules.mark()
    assert isolate(rules)
    assert not isolate(rules)  # nothing changed since: nothing to look at
    rules.revert(mark)
    assert isolate(rules)
    assert g.hi[edge(p, (0, 0), (2, 0))] == 0


def test_isolate_never_judges_part_of_a_group_as_a_finished_group():
    # 4-4-2-2-1 joined by single links: the 4s still need 5 links, the rest none. The look
    # from the first 4 stops once the need passes 4; the one from the second 2 must not then
    # take the 2-1 end it reaches for a finished group of two.
    p = parse("9\n1\n4.4.2.2.1\n")
    g = Grid(p)
    for a, b in [((0, 0), (2, 0)), ((2, 0), (4, 0)), ((4, 0), (6, 0)), ((6, 0), (8, 0))]:
        g.draw(edge(p, a, b), 1)
    assert not isolate(Rules(g))


def test_isolate_a_group_closing_on_itself():
    p = parse("3\n2\n2.2\n2.2\n")
    g = Grid(p)
    top = edge(p, (0, 0), (2, 0))
    g.draw(top, 1)
    isolate(Rules(g))
    # A second top link would finish the top pair alone.
    assert g.hi[top] == 1


def test_isolate_leaves_the_closing_link_of_the_whole_puzzle():
    p = parse("2\n1\n11\n")
    g = Grid(p)
    assert not isolate(Rules(g))
    assert g.hi == [1]


# -- groups: slack ---------------------------------------------------------------------------

def ring_of_four():
    """Four 2s in a square (spare 1: four links join four islands and one closes the
    ring), with the top, left and right sides drawn: one group, no link spent yet."""
    g = Grid(parse("2\n2\n22\n22\n"))
    p = g.puzzle
    for a, b in ((0, 1), (0, 2), (1, 3)):
        g.raise_lo(p.edge_between(a, b), 1)
    return g, p.edge_between(2, 3)


def test_slack_caps_a_link_inside_a_group_at_what_is_left():
    g, bottom = ring_of_four()
    assert (g.spare, g.waste) == (1, 0)
    assert slack(Rules(g))
    assert g.hi[bottom] == 1  # it would close a cycle: one link, not two
    assert all(g.hi[e] == 2 for e in range(4) if e != bottom)  # each may still double


def test_slack_once_spent_allows_no_second_link_and_no_cycle():
    g, bottom = ring_of_four()
    g.raise_lo(bottom, 1)  # closes the ring: the spare is spent
    assert g.waste == 1
    assert slack(Rules(g))
    assert g.hi == [1, 1, 1, 1]


def test_slack_refuses_a_state_past_the_spare():
    g = Grid(parse("4\n1\n1111\n"))  # two links cannot join four islands
    assert g.spare == -1
    with pytest.raises(Contradiction) as dead:
        slack(Rules(g))
    assert dead.value.args[1] == SLACK


def test_slack_after_its_first_look_caps_what_a_full_look_would():
    import random
    from test_bot_learning import near_tree_board
    rng = random.Random(2)
    for trial in range(6):
        g = Grid(parse(near_tree_board(6, 5, trial, cycles=1)))
        rules = Rules(g)
        marks = []
        for step in range(60):
            if marks and rng.random() < 0.25:
                rules.revert(marks.pop())
            else:
                marks.append(rules.mark())
                e = rng.choice([e for e in range(len(g.lo)) if g.lo[e] < g.hi[e]] or [0])
                try:
                    g.raise_lo(e, g.lo[e] + 1) if rng.random() < 0.7 else g.lower_hi(e, g.lo[e])
                except Contradiction:
                    rules.revert(marks.pop())
                    continue
            fresh = Rules(g.clone())  # its first look: every edge
            try:
                slack(fresh)
            except Contradiction:
                with pytest.raises(Contradiction):
                    slack(rules)
                rules.revert(marks.pop())
                continue
            try:
                slack(rules)
            except Contradiction:
                pytest.fail("a later look refused what a first look allows")
            assert g.hi == fresh.grid.hi


def test_slack_leaves_boards_with_room_alone():
    g = Grid(parse("3\n3\n4.4\n...\n4.4\n"))  # a square of doubles: spare 8 - 3 = 5
    before = g.hi[:]
    assert not slack(Rules(g)) and g.hi == before


# -- connect ---------------------------------------------------------------------------------

def test_connect_draws_bridges():
    p = parse("3\n3\n2.2\n...\n2.2\n")
    g = Grid(p)
    g.lower_hi(edge(p, (0, 0), (2, 0)), 0)
    assert connect(Rules(g))
    for a, b in (((0, 0), (0, 2)), ((0, 2), (2, 2)), ((2, 0), (2, 2))):
        assert g.lo[edge(p, a, b)] == 1


def test_connect_without_bridges_changes_nothing():
    g = Grid(parse("3\n3\n2.2\n...\n2.2\n"))
    assert not connect(Rules(g))
    assert g.lo == [0, 0, 0, 0]


def test_connect_contradiction_when_nodes_cannot_meet():
    p = parse("3\n3\n2.2\n...\n2.2\n")
    g = Grid(p)
    g.lower_hi(edge(p, (0, 0), (2, 0)), 0)
    g.lower_hi(edge(p, (0, 2), (2, 2)), 0)
    with pytest.raises(Contradiction):
        connect(Rules(g))


def test_connect_after_its_first_look_refuses_a_cut_that_splits_the_links():
    p = parse("3\n3\n2.2\n...\n2.2\n")
    g = Grid(p)
    rules = Rules(g)
    assert not connect(rules)  # the first look: a ring, no bridge
    mark = rules.mark()
    g.lower_hi(edge(p, (0, 0), (2, 0)), 0)
    assert not connect(rules)  # a later look: the ends of the cut still meet the long way
    g.lower_hi(edge(p, (0, 2), (2, 2)), 0)
    with pytest.raises(Contradiction):
        connect(rules)
    rules.revert(mark)
    assert not connect(rules)


def test_connect_later_looks_agree_with_a_full_count_of_the_components():
    import random
    from bot.grid import components
    text = (PUBLIC.parent / "hard30" / "30x30_hard_unique_s1_004.txt").read_text()
    rng = random.Random(8)
    for trial in range(20):
        g = Grid(parse(text))
        rules = Rules(g)
        connect(rules)
        while True:
            open_edges = [e for e in range(len(g.lo)) if g.lo[e] == 0 < g.hi[e]]
            e = rng.choice(open_edges)
            g.hi[e], g.trail = 0, g.trail + [(e, 0, g.hi[e])]  # a bare cut: no node rules
            whole = len(components(g, g.hi)[2]) == 1
            try:
                connect(rules)
                assert whole
            except Contradiction:
                assert not whole
                break


def test_connect_keeps_a_true_certificate_through_cuts_and_reverts():
    import random
    from bot.grid import components
    text = (PUBLIC.parent / "hard30" / "30x30_hard_unique_s1_004.txt").read_text()
    rng = random.Random(3)
    g = Grid(parse(text))
    rules = Rules(g)
    ends = g.puzzle.ends
    connect(rules)
    marks, verdicts = [], []
    for step in range(400):
        if marks and rng.random() < 0.3:
            rules.revert(marks.pop())
        else:
            marks.append(rules.mark())
            for e in rng.sample([e for e in range(len(g.lo)) if g.lo[e] == 0 < g.hi[e]], 2):
                # A bare cut: the node rules do not run.
                g.trail.append((e, g.lo[e], g.hi[e]))
                for x in ends[e]:
                    g.cap[x] -= g.hi[e]
                g.hi[e] = 0
        whole = len(components(g, g.hi)[2]) == 1
        try:
            connect(rules)
        except Contradiction:
            assert not whole
            verdicts.append(False)
            rules.revert(marks.pop())
            continue
        assert whole
        verdicts.append(True)
        # The certificate: possible edges only, and they join every node.
        spanning = rules.certificate.edges
        kept = [e for e in range(len(ends)) if spanning[e]]
        assert all(g.hi[e] for e in kept)
        assert len(components(g, [1 if spanning[e] else 0 for e in range(len(ends))])[2]) == 1
    assert verdicts.count(False) > 10 and verdicts.count(True) > 100


# -- balance ---------------------------------------------------------------------------------

def test_balance_refuses_a_region_with_an_odd_total():
    # Three 1s: every link serves two of them, so one is always left over.
    with pytest.raises(Contradiction):
        balance(Rules(Grid(parse("5\n1\n1.1.1\n"))))


# Two rows of three 1s joined by three columns: one region of 6 until the columns are cut.
ROWS = "5\n3\n1.1.1\n.....\n1.1.1\n"


def cut_columns(p, g):
    for x in (0, 2, 4):
        g.lower_hi(edge(p, (x, 0), (x, 2)), 0)


def test_balance_judges_each_region_alone():
    p = parse(ROWS)
    g = Grid(p)
    rules = Rules(g)
    balance(rules)  # one region lacking 6 links
    cut_columns(p, g)  # every 1 can still reach its value along its row
    with pytest.raises(Contradiction):
        balance(rules)  # two regions lacking 3 each: odd


def test_balance_checks_again_what_changed_and_what_a_revert_restored():
    p = parse(ROWS)
    g = Grid(p)
    rules = Rules(g)
    balance(rules)
    balance(rules)  # nothing changed: nothing to walk, still fine
    mark = rules.mark()
    cut_columns(p, g)
    with pytest.raises(Contradiction):
        balance(rules)
    rules.revert(mark)
    balance(rules)


def test_balance_on_a_clone_checks_every_region_the_original_had_not():
    g = Grid(parse("5\n1\n1.1.1\n"))
    with pytest.raises(Contradiction):
        balance(Rules(g.clone()))


def test_balance_giving_up_on_a_long_region_never_refuses_a_sound_state():
    # Every 4-island row whose two end edges are narrowed after the first look: with walks
    # of two nodes, the walk from the left end gives up, and the one from the right end
    # must give up too when it meets it, never judge the fragment it walked.
    for values in itertools.product("1234", repeat=4):
        p = parse("7\n1\n" + ".".join(values) + "\n")
        if p.value[0] < 2 or min(p.value[2:]) < 2:
            continue
        grid = Grid(p)
        rules = Rules(grid, tuned(region_walk=2))
        try:
            balance(rules)  # the first look walks everything
        except Contradiction:
            continue
        try:
            grid.lower_hi(0, 1)
            grid.lower_hi(2, 1)
        except Contradiction:
            continue  # a node can no longer reach its value: not a state balance sees
        try:
            balance(Rules(grid.clone(), tuned(region_walk=len(p))))
        except Contradiction:
            continue  # refused on a full walk: any verdict is sound
        balance(rules)


def test_balance_later_looks_agree_with_a_full_look(monkeypatch):
    # After its first look, `balance` walks only from the ends of edges decided since: a
    # region can turn odd only when a decided edge splits it. Through whole searches, every
    # look must agree with a full look at a clone (the node rules alone rarely leave an odd
    # region, so random states would not test it). A full schedule ends with `balance`, so
    # a spy on the engine's propagate sees every state it judged.
    real = Rules.propagate
    verdicts = []

    def checked(rules, schedule=FULL, stats=None):
        try:
            real(rules, schedule, stats)
        except Contradiction as dead:
            if dead.args[1:] == (REGION,):   # balance found an odd region here
                verdicts.append("odd")
                with pytest.raises(Contradiction):
                    balance(Rules(rules.grid.clone(), rules.options))
            raise
        if schedule == FULL and not rules.grid.solved():   # balance passed this state
            try:
                balance(Rules(rules.grid.clone(), rules.options))   # a fresh look everywhere
            except Contradiction:
                pytest.fail("a later look passed a state with an odd region")
            verdicts.append("even")
    monkeypatch.setattr(Rules, "propagate", checked)
    options = tuned(region_walk=10 ** 6)  # judge every region
    for name in ("30x30_hard_unique_s1_010.txt", "30x30_hard_unique_s1_017.txt"):
        bot.solve((PUBLIC.parent / "hard30" / name).read_text(), options=options)
    assert "odd" in verdicts and "even" in verdicts


def test_probes_look_for_parity_rarely_where_it_has_not_paid():
    text = (PUBLIC.parent / "hard30" / "30x30_hard_unique_s1_004.txt").read_text()
    g = Grid(parse(text))
    rules = Rules(g, tuned(probe_balance_after=2, probe_balance_rarely=4, parity_pays=10))
    rules.propagate(PROBE)
    assert (rules.worth.looks, rules.worth.hits) == (1, 0)  # the first look counts, and passed
    start = rules.balanced
    open_edges = [e for e in range(len(g.lo)) if g.lo[e] != g.hi[e]]
    g.trail.extend((e, g.lo[e], g.hi[e]) for e in open_edges[:3])  # three changes, seen
    assert not due_in_probe(rules)  # 3 < 4: no hit in 1 look, so rarely
    rules.worth.hits = 1
    assert due_in_probe(rules)  # 3 >= 2: one hit in 1 look pays
    rules.worth.looks = 11
    assert not due_in_probe(rules)  # one hit in 11 looks does not
    g.trail.append((open_edges[3], g.lo[open_edges[3]], g.hi[open_edges[3]]))
    assert due_in_probe(rules)  # 4 changes: the rare look is due
    assert rules.balanced == start


def test_a_contradiction_balance_finds_in_a_probe_is_counted():
    rules = Rules(Grid(parse("3\n3\n1.1\n...\n1..\n")))  # three 1s in one region: 3 links short
    with pytest.raises(Contradiction):
        balance_in_probe(rules)
    assert (rules.worth.looks, rules.worth.hits) == (1, 1)


def test_balance_refutes_a_region_whose_two_sides_lack_different_totals():
    # Every link joins neighbouring cells: one of (0,0),(1,1) and one of (1,0),(0,1). The
    # first pair lacks 6, the second 4, an even total that parity alone lets through.
    grid = Grid(parse("2\n2\n32\n23\n"))
    with pytest.raises(Contradiction):
        balance(Rules(grid))


def test_balance_lets_a_region_with_an_odd_cycle_through_on_parity():
    # Three islands in an L plus one closing the square are two-sided; a long edge that
    # skips a cell joins cells of one colour, and a triangle of such edges has no sides.
    grid = Grid(parse("3\n3\n2.2\n...\n2.2\n"))
    balance(Rules(grid))  # four corners, even total, two sides of 4 each: nothing to refute


def test_a_full_board_off_by_two_is_refuted_at_once():
    assert bot.count_solutions("4\n4\n" + "2222\n" * 4, limit=1) == 1  # solvable: the sides balance
    broken = "4\n4\n4222\n2222\n2222\n2222\n"  # one island two more: the sides cannot balance
    stats = Stats()
    assert bot.count_solutions(broken, limit=1, stats=stats) == 0
    assert stats.branches == 0


# -- the engine: schedules -------------------------------------------------------------------

def test_each_named_schedule_is_a_tuple_of_rules_cheapest_first():
    assert FULL == (ISOLATE, SLACKEN, CONNECT, BALANCE) and LEARN is FULL
    assert NODES == (CONNECT_DECIDED,)
    assert PROBE == (ISOLATE, SLACKEN, CONNECT_DECIDED, BALANCE_IN_PROBE)
    assert LEARN_CHEAP == (ISOLATE, SLACKEN) and LEARN_CHEAP_NO_SLACK == (ISOLATE,)
    assert LEARN_NO_SLACK == (ISOLATE, CONNECT, BALANCE)
    # A probe's variant is the same rule on its own turn: it names itself alike.
    assert [rule.tag for rule in PROBE] == [CLOSED, SLACK, CUT, REGION]
    assert [rule.tag for rule in FULL] == [CLOSED, SLACK, CUT, REGION]


def schedule_of(*names, moves=()):
    """Rules that note each run in `ran`, due every round; those in `moves` move a bound
    on their first run."""
    ran = []

    def run_of(name):
        return lambda rules: ran.append(name) or (name in moves and ran.count(name) == 1)
    return tuple(Rule(name, lambda rules: True, run_of(name)) for name in names), ran


def test_a_round_runs_the_due_rules_in_order_and_starts_again_after_one_that_moves_a_bound():
    schedule, ran = schedule_of("first", "second", "third", moves=("second",))
    stats = Stats()
    Rules(Grid(parse("3\n1\n2.2\n"))).propagate(schedule, stats)
    assert ran == ["first", "second", "first", "second", "third"] and stats.rounds == 2


def test_a_rule_without_a_turn_of_its_own_runs_in_the_turn_of_the_rule_before_it():
    # As `slack` does on `isolate`'s look at the groups, even after the look moved a bound.
    ran, turns = [], iter([True, False])  # the lead is due in the first round only
    lead = Rule("lead", lambda rules: next(turns), lambda rules: not ran.append("lead"))
    follower = Rule("follower", None, lambda rules: ran.append("follower") or False)
    Rules(Grid(parse("3\n1\n2.2\n"))).propagate((lead, follower))
    assert ran == ["lead", "follower"]


def test_a_schedule_without_a_rule_never_runs_it():
    # Each global rule marks where it looked the moment it runs: -1 is a rule that never ran.
    text = (PUBLIC / "12_multiple_solutions_2.txt").read_text()
    rules = Rules(Grid(parse(text)))
    rules.propagate(NODES)
    assert (rules.isolated, rules.connected, rules.balanced) == (-1, -1, -1)
    rules.propagate(LEARN_CHEAP)
    assert rules.isolated >= 0 and (rules.connected, rules.balanced) == (-1, -1)
    assert rules.changes.cut
    rules.propagate(LEARN_NO_SLACK)
    assert rules.connected >= 0 and rules.balanced >= 0 and not rules.changes.cut


def test_reason_and_diagnose_ask_the_rules_of_the_full_schedule():
    # 2-2 over 2-2, the left vertical cut: the right one is a bridge, which only `connect`
    # explains; with both cut, the board falls apart, which `connect` diagnoses.
    grid = Grid(parse("2\n2\n22\n22\n"))
    p = grid.puzzle
    top = [min(2, grid.value[a], grid.value[b]) for a, b in p.ends]
    left, right = p.edge_between(0, 2), p.edge_between(1, 3)
    grid.lower_hi(left, 0)
    move = grid, top, right, 1, grid.hi[right], None
    assert [rule.reason(*move) is not None for rule in FULL if rule.reason] == [False, False, True]
    assert Rules(grid).reason(*move[1:]) == CONNECT.reason(*move) is not None
    grid.hi[right] = 0
    assert Rules(grid).diagnose(top, None, CUT) == CONNECT.met(grid, top, None) is not None


def test_propagate_for_a_probe_leaves_connect_to_the_end():
    # `connect` marks where it looked the moment it runs: -1 is a rule that never ran.
    text = (PUBLIC / "12_multiple_solutions_2.txt").read_text()
    rules = Rules(Grid(parse(text)))
    rules.propagate(PROBE)
    assert not rules.grid.solved() and rules.connected == -1
    rules = Rules(Grid(parse(text)))
    rules.propagate(FULL)
    assert rules.connected >= 0


def test_propagate_for_a_probe_leaves_balance_to_larger_changes():
    # `balance` moves its cursor to the trail's end whenever it looks, and the changes
    # below always grow the trail: it looked exactly when the cursor sits at the end.
    text = (PUBLIC.parent / "hard30" / "30x30_hard_unique_s1_004.txt").read_text()
    g = Grid(parse(text))
    # Where the rule has not paid, a probe waits for more changes than this test makes;
    # where it pays, one change is enough.
    rules = Rules(g, tuned(probe_balance_after=1, probe_balance_rarely=10 ** 6))

    def looked():
        return rules.balanced == len(g.trail)

    def change():
        e = next(e for e in range(len(g.lo)) if g.lo[e] != g.hi[e])
        g.lower_hi(e, g.hi[e] - 1)

    rules.propagate(PROBE)
    assert looked()  # the first look always walks every region
    change()
    rules.propagate(PROBE)
    assert not looked()  # a probe's change too small to look
    rules.propagate(FULL)
    assert looked()  # outside a probe it looks
    rules.worth.hits = rules.worth.looks  # the rule pays on this board
    change()
    rules.propagate(PROBE)
    assert looked()


def test_propagate_solves_the_expert_test_by_rules_alone():
    g = Grid(parse((PUBLIC / "13_expert.txt").read_text()))
    Rules(g).propagate(FULL)
    assert g.solved() and g.valid()


def test_propagate_in_part_leaves_the_global_rules_their_flags():
    # A square of 2s: only `isolate` sees that a double link would close a pair.
    g = Grid(parse("3\n3\n2.2\n...\n2.2\n"))
    rules = Rules(g)
    rules.propagate(NODES)
    assert g.hi == [2, 2, 2, 2] and rules.changes.joined and rules.changes.cut
    rules.propagate(FULL)
    assert g.solved() and g.lo == [1, 1, 1, 1] and not rules.changes.cut


def test_propagate_in_part_still_checks_a_finished_board_is_connected():
    # Four 1s in a square, one pair drawn: the node rules finish the other pair, and the
    # board would be two groups.
    p = parse("2\n2\n11\n11\n")
    g = Grid(p)
    with pytest.raises(Contradiction):
        g.draw(edge(p, (0, 0), (1, 0)), 1)  # refused at once: a finished pair, cut off
        Rules(g).propagate(NODES)


def test_propagate_stops_short_on_a_puzzle_with_several_solutions():
    g = Grid(parse((PUBLIC / "09_multiple_solutions_1.txt").read_text()))
    Rules(g).propagate(FULL)
    assert not g.solved() and g.valid()


def test_the_grid_tells_the_engine_each_change_and_the_engines_mark_gives_them_back():
    # The grid is the board: it tells each change to the `Changes` its engine gave it, as it
    # makes it; the queue and flags are the engine's, kept in the engine's own mark.
    p = parse("3\n3\n2.2\n...\n2.2\n")
    g = Grid(p)
    rules = Rules(g)
    told = rules.changes
    assert g.changes is told
    before = rules.mark()  # before the first look: every node queued, both flags set
    rules.propagate(FULL)
    assert g.solved() and not told.dirty and not told.cut
    rules.revert(before)
    assert g.lo == [0, 0, 0, 0] and sorted(told.dirty) == list(range(len(p)))
    assert told.joined and told.cut
    rules.caught_up()
    told.cut = False
    quiet = rules.mark()
    top, bottom = edge(p, (0, 0), (2, 0)), edge(p, (0, 2), (2, 2))
    g.lower_hi(top, 1)  # the grid alone moves a bound, and tells the engine at once
    assert list(told.dirty) == list(p.ends[top]) and not told.joined and not told.cut
    g.lower_hi(bottom, 0)  # a high bound down to 0: the possible links lost a connection
    assert list(told.dirty) == [*p.ends[top], *p.ends[bottom]] and told.cut
    rules.revert(quiet)
    assert (g.lo, g.hi) == ([0, 0, 0, 0], [2, 2, 2, 2])
    assert not told.dirty and not told.joined and not told.cut


def test_a_grid_no_engine_listens_to_tells_its_own_changes_and_a_clone_its_own():
    p = parse("3\n3\n2.2\n...\n2.2\n")
    g = Grid(p)
    g.changes.dirty.clear()
    g.changes.joined = g.changes.cut = False
    top = edge(p, (0, 0), (2, 0))
    g.raise_lo(top, 1)
    assert list(g.changes.dirty) == list(p.ends[top]) and g.changes.joined
    copy = g.clone()
    rules = Rules(copy)
    copy.raise_lo(edge(p, (0, 2), (2, 2)), 1)
    assert list(g.changes.dirty) == list(p.ends[top])   # the original heard nothing of it
    assert copy.changes is rules.changes and rules.changes.joined
