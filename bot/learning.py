"""The search that learns, driven: the conflict-driven engine (`bot.cdcl`) taking turns
with the walk (`bot.walk`), telling the caller the sure links, and proving and guessing
when the caller runs out of them.

The node search (`bot.assumption`) forgets each contradiction it meets and backtracks one
level at a time. On boards with many islands and many solutions (every cell an island,
lattices, dense random fills) an early choice can doom a corner found only hundreds of
levels deeper; the engine learns a nogood from each contradiction and jumps back past the
decisions that played no part. On boards that are nearly trees the walk takes turns with
it, and between turns the engine decides along the walk's state nearest an answer: the walk
finds answers, the engine decides and proves.
"""

import time

from bot.assumption import probe
from bot.cdcl import REFUTED, SOLVED, Learner
from bot.facts import at_least, enforce, negate
from bot.grid import Contradiction
from bot.rules.engine import FULL
from bot.walk import Walk, filled


def learned_solutions(rules, stats, sure=None, walk=False, press=None):
    """Yield the grid at each valid solution the search that learns finds from its
    present state (`Turns` says what `sure`, `walk` and `press` do). On a board that is
    nearly a tree, with `walk`, the walk takes turns with the engine (an answer can then
    come twice); on others one fill of the walk's sets the engine's first descent.
    """
    grid, options = rules.grid, rules.options
    if not make_root(rules, stats):
        return
    helper = None
    if walk and grid.spare * options.walk_spare < len(grid.puzzle):
        helper = Walk(grid, options.seed, options)
    press = press if sure is not None else None
    if helper is not None and press is not None:
        helper.stop = press.due  # a turn of the walk must not hold up a line
    learner = Learner(rules, stats)
    if helper is None:
        # The first descent follows a fill of every island's value, short only of
        # connection, rather than a single link on each edge. Near-trees, whose walk sets
        # the target, lose by it.
        counts = filled(grid, options.seed, options)
        if counts:
            learner.phases.follow(counts)
    for found in Turns(learner, sure, helper, press).solutions():
        if found.valid():
            yield found


def make_root(rules, stats):
    """Make the search's root: the rules and a probe of every node. False if it is dead."""
    # The node search's weights count its own contradictions, and would outweigh this
    # search's for hundreds of conflicts: start afresh.
    rules.listener = None
    try:
        rules.propagate(FULL, stats)
        if not rules.grid.solved():
            probe(rules, stats, range(len(rules.grid.puzzle)))
    except Contradiction:
        return False
    return True


class Turns:
    """The turns around the engine's search (`Learner.search`), taken between its calls, and
    what they do at its root: `assume` a fact to settle it, `hold` a guess, `impose` an answer
    found apart, rank the links `drawn_above_root`.

    `sure`, if given, hears the links drawn at the root (in every solution), each time they
    grow, until the first solution. `press`, given with `sure`, says when the caller is
    about to run out of sure links to print (`press.due()`): the search then proves what it
    can, or guesses (it tells `press.guessed()`), and from then on looks only for solutions
    that hold the guess. `walk` takes a turn every `Options.walk_every` conflicts.
    """

    def __init__(self, engine, sure=None, walk=None, press=None):
        self.engine, self.grid, self.options = engine, engine.grid, engine.options
        self.walk = walk  # a `bot.walk.Walk`, or None
        self.walk_at = self.options.walk_after  # the conflict count of the walk's next turn
        self.refilled = None   # the engine's fullest state as the walk last filled from it
        self.sure = sure
        self.told = -1  # trail length at the root when `sure` last heard
        self.press = press  # the caller's clock for lines to print (`due`), or None
        self.asked = None  # the links to prove or guess when the press paused the search

    def solutions(self):
        """Yield the grid at each solution, ruled out before the next is looked for."""
        engine, grid = self.engine, self.grid
        while True:
            conflicts = self.walk_at - engine.conflicts if self.walk is not None else float("inf")
            outcome = engine.search(conflicts, self._paused)
            if outcome is REFUTED:
                return
            if outcome is SOLVED:
                self.sure = None  # past a solution the root holds what rules it out
                yield grid
                if not engine.rule_out():
                    return
            elif self.asked:
                facts, self.asked = self.asked, None
                if not self.answer_press(facts):
                    return  # no solution is left (with the guesses made)
            else:
                yield from self._walk_turn()

    def _paused(self):
        """At each fixed point of the search: at the root, tell `sure` the links; above it,
        pause when the press is due and a link is drawn above the root to prove or guess.
        (Telling does not pause: going on needs no new propagation, and one would count.)"""
        engine = self.engine
        told = len(self.grid.trail)
        if not engine.level and self.sure is not None and told > self.told:
            self.told = told  # (the links drawn at the root are in every solution)
            self.sure(self.grid.links())
        self.asked = (engine.level and self.press is not None and self.press.due()
                      and self.drawn_above_root())
        return bool(self.asked)

    def _walk_turn(self):
        """The walk's turn (the search paused at its conflicts). If it finds an answer,
        yield the grid with the answer on it from the root, then take it off. Otherwise
        restart, and let the next descent follow the fewest groups the walk has met (its
        counts become the target phases)."""
        engine = self.engine
        phases = engine.phases  # where the engine decides: the walk steers it
        self.walk_at = engine.conflicts + self.options.walk_every
        if phases.fullest is not self.refilled:
            # The engine got further since the walk last filled: the walk starts over there.
            self.refilled = phases.fullest
            self.walk.refill(phases.fullest)
        counts = self.walk.run(self.options.walk_moves)
        if counts is None:
            if self.walk.best is not None:
                phases.follow(self.walk.best[:])
                engine.restart()
        elif self.impose(counts):
            self.sure = None  # the answer's links are not sure ones
            yield self.grid
            engine.backjump(0)  # the answer off: the search goes on from the root
        else:
            # (Not met: the walk checks its answer, and the root holds only what every
            # answer does.) Search on from the root without the walk.
            self.walk = None

    def answer_press(self, facts):
        """The caller must print a link it cannot prove: first try, for up to
        `Options.prove_for` seconds, to settle the likeliest `facts` from the root, each
        assumed false and then true (a conflict puts what it teaches at the root: a link
        proved, or a wrong guess ruled out); if no link was drawn at the root by it, guess
        the likeliest fact still open. False if no solution is left."""
        engine, grid = self.engine, self.grid
        until = time.monotonic() + self.options.prove_for
        engine.backjump(0)
        links = sum(grid.lo)
        for fact in facts:
            for side in (negate(fact), fact):
                if time.monotonic() > until or not engine.is_open(fact):
                    break
                met = self.assume(side)
                if met is None:
                    return False
                if sum(grid.lo) > links:
                    return True  # proved: the root tells `sure`
                if met:
                    break
        for fact in facts:
            if engine.is_open(fact):
                return self.guess(fact)
        return True

    def guess(self, fact):
        """Make `fact` hold at the root, as if every solution held it: the caller prints it.
        The nogoods learned so far stay (they hold of the puzzle), and those learned later
        hold given the guess, which stays too; the walk starts over from the new root.
        False if the root refuses it at once (no solution is left)."""
        self.press.guessed()
        if not self.hold(fact):
            return False
        if self.walk is not None:
            stop = self.walk.stop
            self.walk = Walk(self.grid, self.engine.phases.seed(), self.options)
            self.walk.stop = stop
            self.refilled = None
        return True

    # -- at the root: what the turns ask of the engine when a link must be printed ----------
    def drawn_above_root(self):
        """The links drawn above the root, likeliest first, as facts: those the fullest
        state holds too, then by the shallowest level they were made at (the fewest
        decisions behind them), the latest there first."""
        engine = self.engine
        lo, target = self.grid.lo, engine.phases.target
        fact_level, fact_pos = engine.levels.fact_level, engine.levels.fact_pos
        ranked = []
        for e, low in enumerate(lo):
            if low:
                fact = at_least(e, low)
                level = fact_level[fact]
                if level:
                    ranked.append((target[e] < low, level, -fact_pos[fact], fact))
        ranked.sort()
        return [fact for *_, fact in ranked]

    def assume(self, fact):
        """From the root, assume `fact` and propagate; learn from any conflict met, and go
        back to the root. Whether a conflict was met; None if no solution is left."""
        engine = self.engine
        conflicts = engine.conflicts
        # Learning to a fixed point, where the search pauses: it decides nothing.
        if (not engine.analyse(engine.suppose(fact))
                or engine.search(float("inf"), lambda: True) is REFUTED):
            return None
        engine.backjump(0)
        return engine.conflicts > conflicts

    def hold(self, fact):
        """Make `fact` hold at the root, as if every solution held it (a guess); what the
        engine learns from then on holds given it. False if the root refuses it at once."""
        self.engine.backjump(0)
        try:
            enforce(self.grid, fact)
        except Contradiction:
            return False
        return True

    def impose(self, counts):
        """From the root, open a level that sets every edge to its count in `counts` (an
        answer found apart), to be read and taken off (`backjump`) with nothing run on it.
        False, back at the root, if the bounds refuse it."""
        engine, grid = self.engine, self.grid
        engine.backjump(0)
        engine.open()
        try:
            for e, n in enumerate(counts):
                grid.raise_lo(e, n)
                grid.lower_hi(e, n)
        except Contradiction:
            engine.backjump(0)
            return False
        return True
