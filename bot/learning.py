"""Search that learns: the complete search for boards where guessing node by node thrashes.

The node search in `assumption.py` forgets each contradiction it meets and backtracks one
level at a time. On boards with many islands and many solutions (every cell an island,
lattices, dense random fills) an early choice can doom a corner that is found only hundreds
of levels deeper, and it then re-tries every level in between. Here the search learns as a
conflict-driven SAT solver does:

- a *fact* is one bound on one edge: at least 1 or 2 links, at most 1 or 0 links;
- every contradiction is traced back, through the facts each rule read, to the first point
  of the latest decision's consequences that all of it passes through; the facts it found
  become a *nogood* (facts that never hold all together), which prunes every later branch;
- the search jumps back past the decisions that played no part (backjumping), decides at
  the most constrained nodes, weighed by the contradictions met near them, and restarts now
  and then, keeping what it learned;
- on boards that are nearly trees, a local search (the walk, `bot.local`) takes turns with
  it, and between turns the search decides along the walk's state nearest an answer.

The rules do not record why they moved a bound: that would cost every solve. A reason is
rebuilt only for the facts a contradiction needs, by walking the trail back and asking, in
the state just before each change, which rule's premises held (`bot.reasons`); the node
rules' premises, most of them, are read off the later state without going back to it. The
rules' own vocabulary stays: intersection rules propagate, elimination is the nogood, search
decides.
"""

import random
import time

from bot.grid import Contradiction
from bot.intersection import looks, propagate
from bot.reasons import diagnose, node_reason, reason_for
from bot.assumption import choose_node, memory, probe
from bot.local import Walk, filled
from bot.restarts import Restarts
from bot.tuning import (ACTIVITY_DECAY, LEARN_SLACK_SPARE, NODE_WEIGHT, PROVE_FOR, SEED, SHAKE,
                        WALK_AFTER, WALK_EVERY, WALK_MOVES, WALK_SPARE)

_DECISION = -1


def negate(fact):
    """The fact that holds exactly when `fact` does not."""
    kind = fact & 3
    return fact - kind + 3 - kind


def is_true(lo, hi, fact):
    """Whether bounds `lo`, `hi` make `fact` hold."""
    kind = fact & 3
    if kind < 2:
        return lo[fact >> 2] > kind       # at least kind + 1
    return hi[fact >> 2] <= 3 - kind      # at most 3 - kind


def enforce(grid, fact):
    """Make `fact` hold (raises Contradiction if the bounds refuse it)."""
    e, kind = fact >> 2, fact & 3
    if kind < 2:
        grid.raise_lo(e, kind + 1)
    else:
        grid.lower_hi(e, 3 - kind)


def entry_facts(e, old_lo, old_hi, new_lo, new_hi):
    """The facts a bound change on edge e made true, strongest first."""
    if new_lo != old_lo:
        return [4 * e + k for k in range(new_lo - 1, old_lo - 1, -1)]
    return [4 * e + 3 - k for k in range(new_hi, old_hi)]


def learned_solutions(grid, stats, sure=None, seed=SEED, walk=False, press=None):
    """Yield `grid` at each solution the search that learns finds, from the grid's present
    state; every one is checked with `Grid.valid`. The grid is left where the search ended.
    `sure`, if given, hears the links drawn at the search's root (in every solution), each
    time they grow, until the first solution. `press`, given with `sure`, says when the
    caller is about to run out of sure links to print (`press.due()`): the search then
    proves what it can, or guesses (`Learner._answer_press`; it tells `press.guessed()`),
    and from then on looks only for solutions that hold the guess, which `sure` hears as
    drawn at the root. `seed` draws the restarts' shake (and the walk's moves and fill).
    With `walk`, on a board that is nearly a tree (under islands / WALK_SPARE links of
    slack) the walk (`bot.local`) takes turns with the search, and its answers are yielded
    too. An answer can then come twice, once from each: a caller that
    counts solutions keeps the distinct ones. On other boards one fill of the walk's sets
    the counts of the search's first descent."""
    # The node search's weights count its own contradictions, and would outweigh this
    # search's for hundreds of conflicts: start afresh (research boards of the stress suite,
    # median / max ms: 854 / 4,078 kept, 509 / 1,188 afresh).
    grid.memory = None
    try:
        propagate(grid, stats)
        if not grid.solved():
            probe(grid, stats, range(len(grid.puzzle)))
    except Contradiction:
        return
    helper = None
    if walk and grid.spare * WALK_SPARE < len(grid.puzzle):
        helper = Walk(grid, seed)
    press = press if sure is not None else None
    if helper is not None and press is not None:
        helper.stop = press.due  # a turn of the walk must not hold up a line
    learner = Learner(grid, stats, sure, seed, helper, press)
    if helper is None:
        # The first descent follows a fill of every island's value, short only of
        # connection, rather than a single link on each edge (full and lattice boards, the
        # stress suite's and two held out, seeds 1-6: 127.1 -> 83.0 s; docs/TUNING.md,
        # "Seventeenth session"). Near-trees, whose walk sets the target, lost by it.
        learner.target = filled(grid, seed) or learner.target
    for found in learner.solutions():
        if found.valid():
            yield found


class Learner:
    """A conflict-driven search over one grid, from its present state (level 0)."""

    def __init__(self, grid, stats, sure=None, seed=SEED, walk=None, press=None):
        self.grid = grid
        self.walk = walk  # a `bot.local.Walk` that takes turns with this search, or None
        self.walk_at = WALK_AFTER  # the conflict count at which the walk's next turn comes
        self.walk_mark = None  # the grid's mark before the walk's answer was drawn
        self.stats = stats
        # `slack`'s reason is every link drawn that joins no two groups, from all over the
        # board: past a few, its nogoods span so many levels that they barely prune.
        self.slack_too = grid.spare <= LEARN_SLACK_SPARE
        self.sure = sure
        self.told = -1  # trail length at the root when `sure` last heard
        self.press = press  # the caller's clock for lines to print (`due`), or None
        edges = len(grid.puzzle.ends)
        # The bound each edge starts with: a fact it implies is never worth stating.
        value = grid.puzzle.value
        self.top = [min(2, value[a], value[b]) for a, b in grid.puzzle.ends]
        # Trail position where each true fact became true (-1: true at level 0).
        self.fact_pos = [-1] * (4 * edges)
        # The decision level at which each true fact became true (0: before any decision).
        self.fact_level = [0] * (4 * edges)
        self.level_starts = []  # trail length when each decision level began
        self.level_marks = []   # the grid's mark just before each level's decision
        self.why = {}           # trail position -> the nogood that set it, or _DECISION
        self.nogoods = []
        self.watches = [[] for _ in range(4 * edges)]
        self.scanned = len(grid.trail)
        self.activity = [0.0] * edges  # how often each edge met a conflict, recent ones most
        self.bump = 1.0
        self.phase = [-1] * edges  # the count each edge last held (phase saving)
        self.target = [-1] * edges  # the counts of the largest conflict-free state so far
        self.best = 0
        self.fullest = None  # those counts, as the search itself last found them...
        self.refilled = None  # ...and as the walk last filled from them
        self.restarts = Restarts()
        self.rng = random.Random(seed)

    # -- the search -------------------------------------------------------------------
    def solutions(self):
        """Yield the grid each time it holds a solution; each is ruled out before the next
        is looked for. Ends when no solution is left."""
        grid = self.grid
        restarts = self.restarts
        while True:
            conflict = self._propagate()
            if conflict is not None:
                if not self._settle(conflict):
                    return
                if self.walk is not None and self._walk_turn():
                    yield grid
                    self._unwalk()
                continue  # what was learned is asserted: propagate it before anything else
            if not self.level_starts:
                self._tell_sure()
            elif self.press is not None and self.press.due():
                likeliest = self._likeliest()
                if likeliest:
                    if not self._answer_press(likeliest):
                        return  # no solution is left (with the guesses made)
                    continue
            if self.level_starts and restarts.due():
                restarts.restarted()
                # Only the weights are shaken: the target phases (the fullest state yet)
                # still guide the next descent, which then starts off on another path.
                self._shake()
                self._backjump(0)
                continue
            if grid.solved():
                self.sure = None  # past a solution the root holds what rules it out
                yield grid
                # Rule the solution out: its decisions never hold all together again.
                decisions = [self._decision_fact(level) for level in range(len(self.level_starts))]
                if not decisions or not self._settle(decisions):
                    return
                continue
            if not self._settle(self._decide()):
                return

    def _walk_turn(self):
        """The walk's turn, when one is due. If it finds an answer, put the answer on the
        grid from the root and return True. Otherwise restart, and let the next descent
        follow the fewest groups the walk has met (its counts become the target phases).

        The walk's state holds every island's value, and is only short of connection. The
        search then does what the walk cannot: it decides and proves. (Kissat steers its
        phases by a local search in the same way.) On 78 near-trees at seeds 1-3, the
        timeouts at 6 s fell from 29 to 12, on 36 held out from 9 to 4 (docs/TUNING.md,
        "Eleventh session")."""
        if self.restarts.conflicts < self.walk_at:
            return False
        self.walk_at = self.restarts.conflicts + WALK_EVERY
        if self.fullest is not self.refilled:
            # The search got further since the walk last filled: the walk starts over from
            # there (40x40_full_loops2_007, seeds 1-8: 68.0 -> 34.5 s; "Fifteenth session").
            self.refilled = self.fullest
            self.walk.refill(self.fullest)
        counts = self.walk.run(WALK_MOVES)
        if counts is None:
            if self.walk.best is not None:
                self.target = self.walk.best[:]
                self.restarts.restarted()
                self._shake()
                self._backjump(0)
            return False
        self._backjump(0)
        grid = self.grid
        mark = self.walk_mark = grid.mark()
        try:
            for e, n in enumerate(counts):
                grid.raise_lo(e, n)
                grid.lower_hi(e, n)
        except Contradiction:
            # (Not met: the walk checks its answer, and the root holds only what every
            # answer does.) Go back to the root and search on without the walk.
            self._forget(mark[0])
            grid.revert(mark)
            self.walk = None
            return False
        self.sure = None  # the answer's links are not sure ones
        return True

    def _likeliest(self):
        """The links drawn above the root, likeliest first, as facts: those the fullest
        state holds too, then by the shallowest level they were made at (the fewest
        decisions behind them), the latest there first.

        Why this order: snapshots every 100 conflicts on nine slow stress and research
        boards held the first of them in the answer found 145 times of 145; any drawn link
        above the root was in it 85-93% of the time (docs/TUNING.md, "Nineteenth session")."""
        lo, fact_level, fact_pos, target = self.grid.lo, self.fact_level, self.fact_pos, self.target
        ranked = []
        for e, low in enumerate(lo):
            if low:
                fact = 4 * e + low - 1
                level = fact_level[fact]
                if level:
                    ranked.append((target[e] < low, level, -fact_pos[fact], fact))
        ranked.sort()
        return [fact for *_, fact in ranked]

    def _answer_press(self, facts):
        """The caller must print a link it cannot prove: first try, for up to PROVE_FOR
        seconds, to settle the likeliest `facts` from the root, each assumed false and
        then true (a conflict puts what it teaches at the root: a link proved, or a wrong
        guess ruled out); if no link was drawn at the root by it, guess the likeliest fact
        still open. False if no solution is left."""
        grid = self.grid
        until = time.monotonic() + PROVE_FOR
        self._backjump(0)
        links = sum(grid.lo)
        for fact in facts:
            for side in (negate(fact), fact):
                if time.monotonic() > until or not self._open(fact):
                    break
                met = self._assume(side)
                if met is None:
                    return False
                if sum(grid.lo) > links:
                    return True  # proved: the root tells `sure`
                if met:
                    break
        still = [fact for fact in facts if self._open(fact)]
        return self._guess(still[0]) if still else True

    def _open(self, fact):
        """Whether the root's bounds leave `fact` open."""
        lo, hi = self.grid.lo, self.grid.hi
        return not is_true(lo, hi, fact) and not is_true(lo, hi, negate(fact))

    def _assume(self, fact):
        """From the root, assume `fact` and propagate; learn from any conflict met, and go
        back to the root. Whether a conflict was met; None if no solution is left."""
        grid = self.grid
        self.level_marks.append(grid.mark())
        self.level_starts.append(len(grid.trail))
        self.why[len(grid.trail)] = _DECISION
        try:
            enforce(grid, fact)
        except Contradiction as dead:
            conflict = self._diagnose(dead)
        else:
            conflict = self._propagate()
        met = conflict is not None
        while conflict is not None:  # (the conflict, then any the root meets after it)
            if not self._settle(conflict):
                return None
            conflict = self._propagate()
        self._backjump(0)
        return met

    def _guess(self, fact):
        """Make `fact` hold at the root, as if every solution held it: the caller prints it.
        The nogoods learned so far stay (they hold of the puzzle), and those learned later
        hold given the guess, which stays too; the walk starts over from the new root.
        False if the root refuses it at once (no solution is left)."""
        self._backjump(0)
        self.press.guessed()
        try:
            enforce(self.grid, fact)
        except Contradiction:
            return False
        if self.walk is not None:
            stop = self.walk.stop
            self.walk = Walk(self.grid, self.rng.random())
            self.walk.stop = stop
            self.refilled = None
        return True

    def _unwalk(self):
        """Take the walk's answer off the grid: the search goes on from the root."""
        self._forget(self.walk_mark[0])
        self.grid.revert(self.walk_mark)

    def _tell_sure(self):
        """At the root, the drawn links are in every solution: say so when there are more."""
        trail = self.grid.trail
        if self.sure is not None and len(trail) > self.told:
            self.told = len(trail)
            self.sure(self.grid.links())

    def _settle(self, conflict):
        """Learn from `conflict` (None: there is none) and from any conflict that asserting
        what was learned meets at once. False once no solution is left."""
        while conflict is not None:
            if not self._jump_to_conflict(conflict):
                return False
            conflict = self._learn(conflict)
        return True

    def _decision_fact(self, level):
        """The fact decided at `level` (counted from 0 here)."""
        grid = self.grid
        trail = grid.trail
        position = self.level_starts[level]
        e, old_lo, old_hi = trail[position]
        # The edge's bounds right after the decision: the next change's old bounds, or now.
        new_lo, new_hi = next(((lo, hi) for f, lo, hi in trail[position + 1:] if f == e),
                              (grid.lo[e], grid.hi[e]))
        return entry_facts(e, old_lo, old_hi, new_lo, new_hi)[0]

    def _decide(self):
        """Open a level: fix the most active open edge at its saved count, one bound."""
        grid = self.grid
        lo, hi = grid.lo, grid.hi
        # The node with the fewest ways to complete, by the square of the contradictions
        # met near it (as the node search chooses), and its edge most met in them.
        edges, _ = choose_node(grid)
        e = max(edges, key=self.activity.__getitem__)
        stats = self.stats
        stats.branch()
        self.level_marks.append(grid.mark())
        self.level_starts.append(len(grid.trail))
        if len(self.level_starts) > stats.max_depth:
            stats.max_depth = len(self.level_starts)
        count = self.target[e]
        if not lo[e] <= count <= hi[e]:
            count = self.phase[e]
        if not lo[e] <= count <= hi[e]:
            count = 1 if lo[e] == 0 else lo[e]  # a single link first: spread, not double
        # Moving one bound to `count`: the edge is decided at once or by the next level.
        fact = 4 * e + count - 1 if count > lo[e] else 4 * e + 3 - count
        self.why[len(grid.trail)] = _DECISION
        try:
            enforce(grid, fact)
        except Contradiction as dead:
            return self._diagnose(dead)
        return None

    def _propagate(self):
        """Run the rules and the nogoods to a fixed point; the conflict's facts, or None.

        The rules that walk the board's edges (`connect`, `balance`) wait until the cheap
        ones and the nogoods have nothing more to add: a conflict the nogoods can show is
        found without them, and they walk a board that has moved further. (The worst
        unsolvable near-tree, seeds 1-4: 4.0 s to over 10 s before, 2.7-3.6 s after;
        docs/TUNING.md, "Fifteenth session".)"""
        grid, stats = self.grid, self.stats
        walks = False
        try:
            while True:
                looks(grid).completed.clear()  # (kept for probes, which this search does not run)
                propagate(grid, stats, slack_too=self.slack_too, walks_too=walks)
                if self.scanned == len(grid.trail):
                    if walks:
                        return None
                    walks = True  # the cheap rules and the nogoods are done: now the walks
                    continue
                walks = False
                conflict = self._watch()
                if conflict is not None:
                    return conflict
        except Contradiction as dead:
            return self._diagnose(dead)

    def _diagnose(self, dead):
        self._scan()
        conflict = diagnose(self.grid, self.top, *dead.args)
        if conflict is None:
            # No rule's failure is visible in the state: blame every decision (sound).
            conflict = [self._decision_fact(level) for level in range(len(self.level_starts))]
        return conflict

    # -- nogoods ------------------------------------------------------------------------
    def _scan(self):
        """Note where each fact made true since the last scan became true; return them."""
        grid = self.grid
        trail, fact_pos, fact_level, lo, hi = (grid.trail, self.fact_pos, self.fact_level,
                                                grid.lo, grid.hi)
        # Nothing is left unscanned when a level opens, so all of it is the deepest level's.
        level = len(self.level_starts)
        made = []
        after = {}  # edge -> its bounds after the entry being read (reading backwards)
        for position in range(len(trail) - 1, self.scanned - 1, -1):
            e, old_lo, old_hi = trail[position]
            new_lo, new_hi = after.get(e) or (lo[e], hi[e])
            # entry_facts, written out: a bound moves by one or two, strongest fact first
            base = 4 * e
            if new_lo != old_lo:
                fact, last = base + new_lo - 1, base + old_lo
            else:
                fact, last = base + 3 - new_hi, base + 4 - old_hi
            while fact >= last:
                fact_pos[fact] = position
                fact_level[fact] = level
                made.append(fact)
                fact -= 1
            after[e] = old_lo, old_hi
        self.scanned = len(trail)
        return made

    def _watch(self):
        """Propagate the nogoods over the facts made true since the last look; a nogood
        whose facts all hold is returned as the conflict."""
        grid, watches, nogoods, why = self.grid, self.watches, self.nogoods, self.why
        lo, hi = grid.lo, grid.hi
        for fact in self._scan():
            watching = watches[fact]
            if not watching:
                continue
            keep = []
            for k, index in enumerate(watching):
                facts = nogoods[index]
                if facts[0] == fact:
                    facts[0], facts[1] = facts[1], facts[0]
                other = facts[0]
                kind = other & 3  # is_true(lo, hi, negate(other)), written out
                if lo[other >> 2] > 3 - kind if kind > 1 else hi[other >> 2] <= kind:
                    keep.append(index)  # the nogood cannot fire while `other` fails
                    continue
                for j in range(2, len(facts)):
                    other_fact = facts[j]
                    kind = other_fact & 3  # is_true, written out: the hottest loop here
                    if (lo[other_fact >> 2] <= kind if kind < 2
                            else hi[other_fact >> 2] > 3 - kind):
                        facts[1], facts[j] = facts[j], facts[1]
                        watches[facts[1]].append(index)
                        break
                else:
                    keep.append(index)
                    if is_true(lo, hi, other):
                        keep.extend(watching[k + 1:])
                        watching[:] = keep
                        self._scan()  # where the facts fired here became true
                        return list(facts)
                    why[len(grid.trail)] = index
                    try:
                        enforce(grid, negate(other))
                    except Contradiction as dead:
                        keep.extend(watching[k + 1:])
                        watching[:] = keep
                        return self._diagnose(dead)
            watching[:] = keep
        return None

    def _add_nogood(self, facts):
        """Store a nogood, watching its first two facts (the caller orders them)."""
        index = len(self.nogoods)
        self.nogoods.append(facts)
        if len(facts) > 1:
            self.watches[facts[0]].append(index)
            self.watches[facts[1]].append(index)
        return index

    # -- learning -------------------------------------------------------------------------
    def _file(self, facts, level, here, learned):
        """Put each fact of the present `level` in `here` (to trace further), and each of an
        earlier level but 0 (true from the start) in `learned`."""
        fact_level = self.fact_level
        for fact in facts:
            at = fact_level[fact]
            if at == level:
                here.add(fact)
            elif at > 0:
                learned.add(fact)

    def _jump_to_conflict(self, conflict):
        """Go back to the deepest level the conflict's facts come from; False if that is
        level 0 (no solution is left)."""
        deepest = max(map(self.fact_level.__getitem__, conflict), default=0)
        if deepest == 0:
            return False
        self._backjump(deepest)
        return True

    def _learn(self, conflict):
        """Trace `conflict` (facts true at the present level) back to its first unique
        implication point, store the nogood, jump back and assert it. Returns a new
        conflict if asserting it meets one at once, else None."""
        self.stats.eliminations += 1
        grid = self.grid
        trail, lo, hi = grid.trail, grid.lo, grid.hi
        level = len(self.level_starts)
        depth = len(trail)
        if len(trail) > self.best:
            # The fullest state yet: its counts guide the next decisions (target phases).
            self.best = len(trail)
            self.target = self.fullest = [low if low == high else -1 for low, high in zip(lo, hi)]
        learned, here = set(), set()
        drawn = {}  # the drawn links' reasons, while the trace only takes changes back
        self._file(conflict, level, here, learned)
        kept = set()  # present-level facts no rule explains (the decision)
        fact_pos = self.fact_pos
        while len(here) + len(kept) > 1 and here:
            # The latest change behind a fact still to trace, and every fact it made (they
            # hold still: bounds only tighten along the trail, and the trace has undone
            # nothing before it), strongest first.
            position = max(map(fact_pos.__getitem__, here))
            e = trail[position][0]
            every = [f for f in range(4 * e + 3, 4 * e - 1, -1)
                     if fact_pos[f] == position and is_true(lo, hi, f)]
            made = [f for f in every if f in here]
            how = self.why.get(position)
            here.difference_update(made)
            if how == _DECISION:
                kept.add(made[0])
                continue
            if how is not None:
                # The nogood's other facts all held when it fired: all but the negation of
                # what it set.
                set_by_it = {negate(f) for f in every}
                reason = [f for f in self.nogoods[how] if f not in set_by_it]
            else:
                reason = node_reason(grid, self.top, every[0], fact_pos, position)
                if reason is None:
                    self._undo_to(position)  # the state the other rules read
                    kind = every[0] & 3  # the bounds the change left
                    new_lo, new_hi = (kind + 1, hi[e]) if kind < 2 else (lo[e], 3 - kind)
                    reason = reason_for(grid, self.top, e, new_lo, new_hi, drawn)
            if reason is None:
                kept.add(made[0])
                continue
            self._file(reason, level, here, learned)
        uip = list(here | kept)
        level_of = self.fact_level.__getitem__
        self.restarts.conflict(depth, 1 + len(set(map(level_of, learned))))
        self._bump(uip, learned)
        others = sorted(learned, key=level_of, reverse=True)
        if len(uip) == 1:
            target = level_of(others[0]) if others else 0
        else:
            target = level - 1
        self._backjump(target)
        facts = uip + others
        index = self._add_nogood(facts)
        if len(uip) != 1:
            return None
        self.why[len(grid.trail)] = index
        try:
            enforce(grid, negate(uip[0]))
        except Contradiction as dead:
            return self._diagnose(dead)
        return None

    def _undo_to(self, length):
        """Revert the grid to trail `length` during a trace (the level's mark restores the
        rules' cursors when the search jumps back)."""
        grid = self.grid
        if length >= len(grid.trail):
            return
        self._forget(length)
        grid.revert((length, True, True, None, ()))

    def _forget(self, length):
        """Drop what is recorded of the trail past `length`, saving the counts it held."""
        grid = self.grid
        trail, lo, hi, phase, why = grid.trail, grid.lo, grid.hi, self.phase, self.why
        for position in range(length, len(trail)):
            e = trail[position][0]
            if lo[e] == hi[e]:
                phase[e] = lo[e]
            why.pop(position, None)
        if self.scanned > length:
            self.scanned = length

    def _backjump(self, level):
        """Undo every level above `level`."""
        if level >= len(self.level_starts):
            return
        grid = self.grid
        mark = self.level_marks[level]
        self._forget(mark[0])
        if len(grid.trail) >= mark[0]:
            grid.revert(mark)
        del self.level_starts[level:]
        del self.level_marks[level:]
        self.scanned = len(grid.trail)

    def _shake(self):
        """Jitter the nodes' weights at a restart, so the next descent takes another path
        (seeded: a puzzle always gets the same answer)."""
        learned = memory(self.grid)
        rng = self.rng
        learned.conflicts = [c * (1 + SHAKE * rng.random()) for c in learned.conflicts]
        learned.scored_at = -1

    def _bump(self, *groups):
        """Weigh the edges met in a conflict, and the nodes at their ends: the search
        decides there first from now on."""
        activity = self.activity
        self.bump /= ACTIVITY_DECAY
        bump = self.bump
        edges = {f >> 2 for group in groups for f in group}
        learned, ends = memory(self.grid), self.grid.puzzle.ends
        for e in edges:
            activity[e] += bump
            learned.blame(ends[e][0], ends[e][1:], NODE_WEIGHT)
        if bump > 1e100:
            self.activity = [a * 1e-100 for a in activity]
            self.bump *= 1e-100
