"""The walk (`bot.walk`): a local search that keeps every island at its value, and its
turns beside the search that learns."""

import random
from collections import Counter

import pytest

import bot
import bot.walk
from bot.cdcl import Learner
from bot.grid import Grid, components
from bot.learning import Turns
from bot.options import DEFAULT
from bot.puzzle import parse
from bot.rules import FULL, Rules
from bot.stats import Stats
from bot.walk import Walk, filled
from tests.judge import fault, links_text
from tests.project import ROOT
from tests.bot.test_bot_learning import connected_board, near_tree_board

# The search that learns from the start, with the walk's first turn at once.
WALK_AT_ONCE = DEFAULT.replace(node_search_branches=0, walk_after=0,
                                   walk_every=1, walk_moves=50)


def rooted(text):
    """A grid of `text` after the rules at its root, as the walk starts from."""
    grid = Grid(parse(text))
    Rules(grid).propagate(FULL)
    return grid


def answer_text(puzzle, counts):
    pos = puzzle.pos
    return links_text([(*pos[a], *pos[b], n) for (a, b), n in zip(puzzle.ends, counts) if n])


def assert_counts_exact(p, lows, highs, count):
    """Link counts that keep the bounds `lows`..`highs`, give every island its value, and
    cross no link."""
    assert all(lo <= n <= hi for lo, n, hi in zip(lows, count, highs))
    degree = [0] * len(p)
    for (a, b), n in zip(p.ends, count):
        degree[a] += n
        degree[b] += n
    assert degree == list(p.value)
    assert not any(count[e] and count[f] for e in range(len(count)) for f in p.crossings[e])


def assert_island_exact(walk):
    """The walk's counts keep the root's bounds, give every island its value, cross no
    link, and make as many groups as the walk says."""
    p, count = walk.puzzle, walk.count
    assert_counts_exact(p, walk.lo, walk.hi, count)
    grid = Grid(p)
    label = components(grid, count)[0]
    assert len(set(label)) == walk.groups
    # The walk's own labels make the same groups, and its sizes count them.
    assert len(set(zip(label, walk.parts.label))) == walk.groups == len(walk.parts.size)
    assert all(walk.parts.size[g] == n for g, n in Counter(walk.parts.label).items())


@pytest.mark.parametrize("seed", range(6))
def test_every_move_keeps_each_island_at_its_value(seed):
    walk = Walk(rooted(near_tree_board(9, 7, seed, cycles=3, doubles=seed % 2)), seed)
    walk.run(1)  # the fill
    assert walk.count is not None
    assert_island_exact(walk)
    for _ in range(300):
        if walk.groups == 1:
            break
        walk.move()
        assert_island_exact(walk)


def test_moves_keep_islands_exact_on_a_board_with_crossings():
    # A fill whose root leaves a dozen crossing edges open: no move may draw two links
    # that cross.
    text = (ROOT / "puzzles" / "stress" / "fill" / "20x20_fill66_double_005.txt").read_text()
    walk = Walk(rooted(text), 1)
    walk.run(1)
    assert walk.count is not None
    for _ in range(300):
        walk.move()
        assert_island_exact(walk)


def groups_by_union(puzzle, count):
    """Each island's group, joined edge by edge (not the board walk `components` makes)."""
    parent = list(range(len(puzzle)))

    def root(i):
        while parent[i] != i:
            i = parent[i]
        return i
    for (a, b), n in zip(puzzle.ends, count):
        if n:
            parent[root(a)] = root(b)
    return [root(i) for i in range(len(puzzle))]


@pytest.mark.parametrize("seed", range(4))
def test_moves_start_at_edges_outside_the_largest_group(seed):
    walk = Walk(rooted(near_tree_board(12, 9, seed, cycles=2, doubles=seed % 2)), seed)
    walk.run(1)  # the fill
    looked = 0
    for _ in range(400):
        if walk.groups == 1:
            break
        if walk.moves % walk.options.walk_focus_every == 0:  # the next move looks the focus up
            group = groups_by_union(walk.puzzle, walk.count)
            most = max(map(group.count, group))
            outside = [{f for i, g in enumerate(group) if g != largest
                        for f, _ in walk.puzzle.node_edges[i]}
                       for largest in set(group) if group.count(largest) == most]
            walk.move()
            assert set(walk.focus) in outside and all(outside)  # (a tie: any largest)
            looked += 1
        else:
            walk.move()
    assert looked >= 2


@pytest.mark.parametrize("seed", range(6))
def test_a_loose_link_is_one_that_comes_off_without_splitting_a_group(seed):
    p = parse(near_tree_board(9, 7, seed, cycles=3))
    draw = random.Random(seed)
    count = [draw.choice((0, 0, 1, 1, 2)) for _ in p.ends]  # any links: crossings, values aside
    loose = bot.walk.loose_links(p.node_edges, count)
    groups = len(set(groups_by_union(p, count)))
    kinds = set()
    for e, n in enumerate(count):
        if not n:
            assert not loose[e]
            continue
        fewer = count[:]
        fewer[e] -= 1
        keeps = len(set(groups_by_union(p, fewer))) == groups
        assert loose[e] == keeps, (e, n)
        kinds.add((n, keeps))
    assert {(1, True), (1, False), (2, True)} <= kinds  # cycles, bridges and doubles met


def test_a_move_takes_a_loose_link_off_where_the_island_has_one():
    chose = 0  # takes made where the island had a loose link and another beside it
    for seed in range(4):
        walk = Walk(rooted(near_tree_board(12, 9, seed, cycles=4, doubles=1)), seed)
        walk.run(200)
        p, count, lo = walk.puzzle, walk.count, walk.lo
        walk.loose = loose = bot.walk.loose_links(p.node_edges, count)
        for start in [i for i in range(len(p)) for _ in range(4)]:
            asked = []
            # The goal is the second island a link is added at: the path takes one off.
            path = walk.alternating_path(
                start, -1, lambda j: asked.append(j) or len(asked) > 1, len(p), False)
            if path is None or len(path) != 3:
                continue
            (added, _, island), (taken, _, _), _ = path
            others = [e for e, j in p.node_edges[island]
                      if e != added and count[e] > lo[e] and j != start]
            assert loose[taken] or not any(loose[e] for e in others)
            chose += any(loose[e] for e in others) and not all(loose[e] for e in others)
    assert chose >= 3


@pytest.mark.parametrize("seed", range(8))
def test_the_walk_answers_near_trees_with_a_solution_the_referee_accepts(seed):
    text = near_tree_board(10, 8, seed, cycles=2 + seed % 2, doubles=seed % 2)
    walk = Walk(rooted(text), 1)
    found = None
    for _ in range(50):
        found = walk.run(1000)
        if found is not None:
            break
    assert found is not None
    assert fault(text, answer_text(walk.puzzle, found)) is None


def test_the_walk_is_the_same_walk_for_the_same_seed():
    text = near_tree_board(10, 8, 3, cycles=3)
    runs = []
    for seed in (1, 1, 2):
        walk = Walk(rooted(text), seed)
        walk.run(400)
        runs.append((walk.groups, walk.count))
    assert runs[0] == runs[1] and runs[0][1] != runs[2][1]


def test_the_walk_stops_after_three_fills_that_leave_an_island_short(monkeypatch):
    walk = Walk(rooted(near_tree_board(6, 5, 1, cycles=1)), 1)
    walk.hi = walk.lo[:]  # no link may be added: no fill can make the islands whole
    fills = []
    real_fill = Walk.fill
    monkeypatch.setattr(Walk, "fill", lambda self: (fills.append(1), real_fill(self)))
    assert walk.run(50) is None
    assert walk.run(50) is None
    assert len(fills) == 3 and walk.count is None and walk.best is None


def test_a_fill_from_an_answer_s_counts_gives_that_answer_back():
    # The search hands the walk its fullest state; handed a whole answer, the walk's next
    # fill is that answer, where a fill from the root alone is not.
    text = near_tree_board(12, 10, 5, cycles=2)
    finder = Walk(rooted(text), 1)
    answer = next(found for found in iter(lambda: finder.run(1000), "never") if found)
    walk, control = Walk(rooted(text), 2), Walk(rooted(text), 2)
    walk.refill(answer)
    assert walk.run(2) == answer
    assert control.run(2) is None


def test_a_fill_from_a_partial_state_keeps_its_counts_where_no_path_moves_them():
    text = near_tree_board(12, 10, 6, cycles=2)
    answer = Walk(rooted(text), 1)
    answer = next(found for found in iter(lambda: answer.run(1000), "never") if found)
    rng = random.Random(6)
    start = [n if rng.random() < 0.5 else -1 for n in answer]  # half the edges decided
    walk, control = Walk(rooted(text), 3), Walk(rooted(text), 3)
    walk.refill(start)
    walk.run(1)
    control.run(1)
    assert_island_exact(walk)
    drawn = [e for e, n in enumerate(start) if n > 0]  # (most edges hold no link anyway)
    kept, by_chance = (sum(w.count[e] == start[e] for e in drawn) for w in (walk, control))
    assert kept >= 0.8 * len(drawn) and kept >= by_chance + 0.15 * len(drawn)
    assert walk.start is None  # one fill from it: the next fills start from the root


def near_tree_for_the_learner():
    """A near-tree the search that learns takes (with `WALK_AT_ONCE`, the walk's first
    turn at once)."""
    text = near_tree_board(12, 10, 5, cycles=1)  # 1 link of slack, 120 islands
    grid = Grid(parse(text))
    assert grid.spare * WALK_AT_ONCE.walk_spare < len(grid.puzzle)
    return text


def test_solve_takes_its_turns_with_the_walk_and_answers_the_same_each_time(monkeypatch):
    text = near_tree_for_the_learner()
    turns = []
    real_run = Walk.run
    monkeypatch.setattr(Walk, "run", lambda self, moves: (turns.append(moves),
                                                          real_run(self, moves))[1])
    first = bot.solve(text, options=WALK_AT_ONCE)
    assert turns and fault(text, links_text(first)) is None
    assert bot.solve(text, options=WALK_AT_ONCE) == first


def test_an_answer_the_grid_refuses_sends_the_search_on_without_the_walk(monkeypatch):
    text = near_tree_for_the_learner()
    asked = []

    def wrong(self, moves):
        asked.append(moves)
        return [3] * len(self.lo)  # no edge carries 3 links
    monkeypatch.setattr(Walk, "run", wrong)
    links = bot.solve(text, options=WALK_AT_ONCE)
    assert len(asked) == 1  # the walk is dropped after its answer is refused
    assert fault(text, links_text(links)) is None


def test_the_walk_guides_the_search_between_its_turns(monkeypatch):
    # A walk that never answers still sets the target phases and restarts the search.
    text = near_tree_for_the_learner()
    real_run = Walk.run
    monkeypatch.setattr(Walk, "run", lambda self, moves: (real_run(self, moves), None)[1])
    turns_of = {}  # id of each engine -> the turns around it (where its walk is)
    real_turns = Turns.__init__

    def noted(self, engine, *args, **kwargs):
        real_turns(self, engine, *args, **kwargs)
        turns_of[id(engine)] = self
    targets = []
    real_backjump = Learner.backjump

    def backjump(self, level):
        walk = turns_of[id(self)].walk if id(self) in turns_of else None
        if level == 0 and walk is not None and walk.best is not None:
            targets.append(self.phases.target == walk.best)
        real_backjump(self, level)
    monkeypatch.setattr(Turns, "__init__", noted)
    monkeypatch.setattr(Learner, "backjump", backjump)
    links = bot.solve(text, options=WALK_AT_ONCE)
    assert fault(text, links_text(links)) is None
    assert targets and all(targets)


def test_the_walk_fills_afresh_from_the_search_s_fullest_state_each_time_it_grows(monkeypatch):
    # At each turn the walk is handed the search's fullest state if, and only if, the search
    # has found a fuller one since the walk was last handed one.
    text = near_tree_for_the_learner()
    searches, handed, turns = [], [], []
    real_init, real_refill, real_run = Learner.__init__, Walk.refill, Walk.run

    def noted(self, *args, **kwargs):
        real_init(self, *args, **kwargs)
        searches.append(self)

    def refill(self, start):
        handed.append(start)
        real_refill(self, start)

    def run(self, moves):
        turns.append((searches[-1].phases.fullest, len(handed)))
        return real_run(self, moves)
    monkeypatch.setattr(Learner, "__init__", noted)
    monkeypatch.setattr(Walk, "refill", refill)
    monkeypatch.setattr(Walk, "run", run)
    assert fault(text, links_text(bot.solve(text, options=WALK_AT_ONCE))) is None
    last = None
    for (fullest, count), before in zip(turns, [0] + [count for _, count in turns]):
        if fullest is not last:
            assert count == before + 1 and handed[count - 1] is fullest
            last = fullest
        else:
            assert count == before
    assert handed and len(handed) < len(turns)  # some turns found nothing fuller to hand


def test_boards_with_slack_to_spare_never_walk(monkeypatch):
    options = DEFAULT.replace(node_search_branches=0, walk_after=0)
    walks = []  # the walk each search that learns was given
    real_turns = Turns.__init__

    def noted(self, engine, sure=None, walk=None, press=None):
        walks.append(walk)
        real_turns(self, engine, sure, walk, press)

    def refuse(self, moves):
        raise AssertionError("the walk took a turn")
    monkeypatch.setattr(Turns, "__init__", noted)
    monkeypatch.setattr(Walk, "run", refuse)
    text = connected_board(10, 10, 7)  # many links to spare
    grid = Grid(parse(text))
    assert grid.spare * options.walk_spare >= len(grid.puzzle)
    assert fault(text, links_text(bot.solve(text, Stats(), options=options))) is None
    assert walks == [None]  # the search that learns ran, without a walk


@pytest.mark.parametrize("name", ["full/20x20_full_mixed_002", "full/30x15_full_double_004",
                                  "lattice/20x20_blocks_double_025"])
def test_one_fill_gives_every_island_its_value_within_the_root_s_bounds(name):
    grid = rooted((ROOT / "puzzles" / "stress" / f"{name}.txt").read_text())
    counts = filled(grid, 1)
    assert counts is not None
    assert_counts_exact(grid.puzzle, grid.lo, grid.hi, counts)
    assert filled(grid, 1) == counts  # the same seed, the same fill


def fills_outside_turns(monkeypatch):
    """The counts of each fill made outside a turn of the walk (those `filled` makes for
    the search's first descent), as a list that grows."""
    fills, turning = [], []
    real_fill, real_run = Walk.fill, Walk.run

    def fill(self):
        real_fill(self)
        if not turning:
            fills.append(self.count)

    def run(self, moves):
        turning.append(moves)
        try:
            return real_run(self, moves)
        finally:
            turning.pop()
    monkeypatch.setattr(Walk, "fill", fill)
    monkeypatch.setattr(Walk, "run", run)
    return fills


def test_where_no_walk_runs_the_search_s_first_descent_follows_one_fill(monkeypatch):
    fills, first_targets = fills_outside_turns(monkeypatch), []
    real_decide = Learner.decide

    def decide(self):
        if self.level == 0 and not first_targets:
            first_targets.append(self.phases.target[:])
        return real_decide(self)
    monkeypatch.setattr(Learner, "decide", decide)
    options = DEFAULT.replace(node_search_branches=0)
    text = (ROOT / "puzzles" / "stress" / "full" / "20x20_full_mixed_002.txt").read_text()
    assert fault(text, links_text(bot.solve(text, options=options))) is None
    assert len(fills) == 1 and fills[0] is not None and first_targets == fills
    # A near-tree has the walk to set its target: no fill is made for the search.
    fills.clear()
    text = near_tree_for_the_learner()
    assert fault(text, links_text(bot.solve(text, options=WALK_AT_ONCE))) is None
    assert fills == []


def test_the_walk_gives_each_answer_once():
    walk = Walk(rooted(near_tree_board(8, 6, 3, cycles=3)), 1)
    answers = []
    for _ in range(40):
        found = walk.run(500)
        if found is not None:
            answers.append(tuple(found))
    assert len(answers) >= 2  # from an answer, the moves that keep one group find more
    assert len(set(answers)) == len(answers)
    assert all(bot.grid.solves(walk.puzzle, list(a)) for a in answers)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(3))
def test_counting_takes_the_walks_answers_and_counts_each_once(seed, monkeypatch):
    # (`WALK_AT_ONCE`: the search that learns, the walk at once.)
    text = near_tree_board(7, 6, seed, cycles=2)  # 42 islands, 2 links of slack
    given = []
    real_run = Walk.run

    def run(self, moves):
        found = real_run(self, moves)
        if found is not None:
            given.append(found)
        return found
    monkeypatch.setattr(Walk, "run", run)
    with_walk = bot.find_solutions(text, limit=1000, options=WALK_AT_ONCE)
    assert given  # the walk answered some of them
    alone = bot.find_solutions(text, limit=1000,  # the search alone
                               options=WALK_AT_ONCE.replace(walk_after=10 ** 9))
    assert len(alone) > 1
    assert sorted(with_walk) == sorted(alone)  # the same solutions, none counted twice
    assert all(fault(text, links_text(links)) is None for links in with_walk)
    assert bot.count_solutions(text, limit=2, options=WALK_AT_ONCE) == 2
