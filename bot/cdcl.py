"""The conflict-driven engine of the search that learns, shaped like a classic CDCL solver.

Its facts are bounds on edges (`bot.facts`); its propagation is the rules (`bot.rules`) and
the nogoods it learned, watched two facts each; every contradiction is traced back, through
the facts each rule read, to the first point of the latest decision's consequences that all
of it passes through, and the facts found become a nogood. The interface a strategy drives:

- `search(conflicts, stop)`: propagate, learn, restart and decide until SOLVED, REFUTED or
  UNDECIDED (paused: `conflicts` more conflicts met, or `stop()` at a fixed point);
- its steps: `propagate()`, `decide()` (`suppose` the bound its phases choose),
  `analyse(conflict)` (learn, jump back, assert what was learned), `backjump(level)`,
  `restart()`, and `rule_out()` a solution found;
- for a strategy's own moves (`bot.learning.Turns`): `suppose(fact)` opens a level on which a
  fact holds, `open()` one the strategy fills itself.

Its parts: `Levels` (where and at which level each fact became true), `Nogoods` (what it
learned, watched) and `bot.branching.Phases` (where it decides).

The rules do not record why they moved a bound: that would cost every solve. A reason is
rebuilt only for the facts a contradiction needs, by walking the trail back and asking, in
the state just before each change, which rule's premises held (`Rules.reason`); the node
rules' premises are read off the later state without going back to it.
"""

import random

from bot.branching import Phases
from bot.facts import (bound, enforce, every_fact, fact_count, holds, is_lower, made_true,
                       negate)
from bot.grid import Contradiction
from bot.restarts import Restarts
from bot.rules.engine import LEARN, LEARN_CHEAP, LEARN_CHEAP_NO_SLACK, LEARN_NO_SLACK
from bot.rules.nodes import node_reason

DECISION = -1  # `why` of a decision
# How `Learner.search` ends, as minisat's l_True, l_False and l_Undef.
SOLVED, REFUTED, UNDECIDED = True, False, None


class Levels:
    """The engine's record of the grid's trail: the trail position and decision level each
    true fact became true at, where each level began and the rules' mark just before it,
    and why each change was made (a nogood's index, or DECISION; none: a rule)."""

    def __init__(self, grid):
        edges = len(grid.puzzle.ends)
        self.grid = grid
        self.fact_pos = [-1] * fact_count(edges)   # trail position each true fact became true at
        self.fact_level = [0] * fact_count(edges)  # the decision level it became true at
        self.starts = []  # trail length when each decision level began
        self.marks = []   # the rules' mark just before each level's decision
        self.why = {}     # trail position -> the nogood that set it, or DECISION
        self.scanned = len(grid.trail)

    def open(self, mark):
        """Open a level at the trail's end, `mark` the rules' mark there."""
        length = len(self.grid.trail)
        self.marks.append(mark)
        self.starts.append(length)
        self.why[length] = DECISION

    def scan(self):
        """Note where each fact made true since the last scan became true; return them."""
        grid = self.grid
        trail, fact_pos, fact_level, lo, hi = (grid.trail, self.fact_pos, self.fact_level,
                                                grid.lo, grid.hi)
        # Nothing is left unscanned when a level opens, so all of it is the deepest level's.
        level = len(self.starts)
        made = []
        after = {}  # edge -> its bounds after the entry being read (reading backwards)
        for position in range(len(trail) - 1, self.scanned - 1, -1):
            e, old_lo, old_hi = trail[position]
            new_lo, new_hi = after.get(e) or (lo[e], hi[e])
            # `made_true`, written out as in `Nogoods._visit`: a bound moves by one or two,
            # strongest fact first
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

    def forget(self, length, phase):
        """Drop what is recorded of the trail past `length`, saving in `phase` the counts
        it held."""
        grid = self.grid
        trail, lo, hi, why = grid.trail, grid.lo, grid.hi, self.why
        for position in range(length, len(trail)):
            e = trail[position][0]
            if lo[e] == hi[e]:
                phase[e] = lo[e]
            why.pop(position, None)
        if self.scanned > length:
            self.scanned = length

    def decisions(self):
        """Every decision's fact, the root's first."""
        grid = self.grid
        trail = grid.trail
        facts = []
        for position in self.starts:
            e, old_lo, old_hi = trail[position]
            # The edge's bounds right after the decision: the next change's old bounds, or now.
            new_lo, new_hi = next(((lo, hi) for f, lo, hi in trail[position + 1:] if f == e),
                                  (grid.lo[e], grid.hi[e]))
            facts.append(made_true(e, old_lo, old_hi, new_lo, new_hi)[0])
        return facts


class Nogoods:
    """What the engine learned: lists of facts that never all hold, each watched by its
    first two facts."""

    def __init__(self, facts):
        self.lists = []
        self.watches = [[] for _ in range(facts)]

    def add(self, facts):
        """Store a nogood, watching its first two facts (the caller orders them)."""
        index = len(self.lists)
        self.lists.append(facts)
        if len(facts) > 1:
            self.watches[facts[0]].append(index)
            self.watches[facts[1]].append(index)
        return index

    def watch(self, made, lo, hi, fire):
        """Propagate the nogoods over the facts `made` true: `fire(index, other)` for each
        nogood with every fact but `other` true; the first conflict it returns, or None."""
        watches = self.watches
        for fact in made:
            watching = watches[fact]
            if watching:
                conflict = self._visit(fact, watching, lo, hi, fire)
                if conflict is not None:
                    return conflict
        return None

    def _visit(self, fact, watching, lo, hi, fire):
        """Visit the nogoods watching `fact`, now true: move each watch to a fact that
        fails, or fire the nogood with the one fact left open, or return a conflict."""
        watches, nogoods = self.watches, self.lists
        # Facts are read inline here, not through `bot.facts`: millions of reads in a hard
        # solve, where a call each (with `Levels.scan`'s) adds about 2% to its instructions.
        keep = []
        for k, index in enumerate(watching):
            facts = nogoods[index]
            if facts[0] == fact:
                facts[0], facts[1] = facts[1], facts[0]
            other = facts[0]
            kind = other & 3  # holds(lo, hi, negate(other)), written out
            if lo[other >> 2] > 3 - kind if kind > 1 else hi[other >> 2] <= kind:
                keep.append(index)  # the nogood cannot fire while `other` fails
                continue
            for j in range(2, len(facts)):
                other_fact = facts[j]
                kind = other_fact & 3  # not holds(...), written out: the hottest loop here
                if (lo[other_fact >> 2] <= kind if kind < 2
                        else hi[other_fact >> 2] > 3 - kind):
                    facts[1], facts[j] = facts[j], facts[1]
                    watches[facts[1]].append(index)
                    break
            else:
                keep.append(index)
                conflict = fire(index, other)
                if conflict is not None:
                    keep.extend(watching[k + 1:])
                    watching[:] = keep
                    return conflict
        watching[:] = keep
        return None


def _file(fact_level, facts, level, here, learned):
    """Put each fact of the present `level` in `here` (to trace further), and each of an
    earlier level but 0 (true from the start) in `learned`."""
    for fact in facts:
        at = fact_level[fact]
        if at == level:
            here.add(fact)
        elif at > 0:
            learned.add(fact)


class Learner:
    """A conflict-driven search over one grid (through its `Rules`), from its present state
    (level 0)."""

    def __init__(self, rules, stats):
        grid, options = rules.grid, rules.options
        self.rules, self.grid, self.stats, self.options = rules, grid, stats, options
        # `slack`'s reason is every link drawn that joins no two groups, from all over the
        # board: past a few, its nogoods span so many levels that they barely prune.
        with_slack = grid.spare <= options.learn_slack_spare
        self.cheap = LEARN_CHEAP if with_slack else LEARN_CHEAP_NO_SLACK
        self.whole = LEARN if with_slack else LEARN_NO_SLACK
        edges = len(grid.puzzle.ends)
        value = grid.puzzle.value
        # The bound each edge starts with: a fact it implies is never worth stating.
        self.top = [min(2, value[a], value[b]) for a, b in grid.puzzle.ends]
        self.levels = Levels(grid)
        self.nogoods = Nogoods(fact_count(edges))
        self.phases = Phases(edges, options, random.Random(options.seed))
        self.restarts = Restarts(options)

    # -- the interface -------------------------------------------------------------------
    @property
    def level(self):
        """The decision level: 0 at the root."""
        return len(self.levels.starts)

    @property
    def conflicts(self):
        """The conflicts met so far."""
        return self.restarts.conflicts

    def search(self, conflicts, stop):
        """Propagate, learn from each conflict, restart when due and decide, until a
        solution is on the grid (SOLVED), none is left (REFUTED), or a pause (UNDECIDED):
        `conflicts` more conflicts learned from, or `stop()` true. `stop` is asked at each
        fixed point without conflict, before the restart, the solution and the decision;
        it may read the state (the links drawn at the root), not change it. A pause leaves
        the engine where it is (what a conflict taught asserted, not yet propagated): the
        next call goes on from there."""
        limit = self.conflicts + conflicts
        while True:
            conflict = self.propagate()
            if conflict is not None:
                if not self.analyse(conflict):
                    return REFUTED
                if self.conflicts >= limit:
                    return UNDECIDED
            elif stop():
                return UNDECIDED
            elif self.level and self.restarts.due():
                self.restart()
            elif self.grid.solved():
                return SOLVED
            elif not self.analyse(self.decide()):
                return REFUTED

    def propagate(self):
        """Run the rules and the nogoods to a fixed point; the conflict's facts, or None.

        The rules that sweep the board's edges (`connect`, `balance`) wait until the cheap
        ones and the nogoods have nothing more to add: a conflict the nogoods can show is
        found without them, and they sweep a board that has moved further."""
        grid, stats, rules, levels = self.grid, self.stats, self.rules, self.levels
        sweeps = False
        try:
            while True:
                rules.propagate(self.whole if sweeps else self.cheap, stats)
                if levels.scanned == len(grid.trail):
                    if sweeps:
                        return None
                    sweeps = True  # the cheap rules and the nogoods are done: now the sweeps
                    continue
                sweeps = False
                conflict = self.nogoods.watch(levels.scan(), grid.lo, grid.hi, self._fire)
                if conflict is not None:
                    return conflict
        except Contradiction as dead:
            return self._diagnose(dead)

    def decide(self):
        """Open a level: fix the bound the `Phases` choose (one bound). The conflict if that
        meets one, else None."""
        fact = self.phases.choose(self.rules)
        self.stats.branch()
        conflict = self.suppose(fact)
        if self.level > self.stats.max_depth:
            self.stats.max_depth = self.level
        return conflict

    def suppose(self, fact):
        """Open a level on which `fact` holds, with nothing run on it. The conflict if that
        meets one, else None."""
        self.open()
        try:
            enforce(self.grid, fact)
        except Contradiction as dead:
            return self._diagnose(dead)
        return None

    def open(self):
        """Open a decision level at the trail's end."""
        self.levels.open(self.rules.mark())

    def analyse(self, conflict):
        """Learn from `conflict` (None: there is none) and from any conflict that asserting
        what was learned meets at once. False once no solution is left."""
        while conflict is not None:
            deepest = max(map(self.levels.fact_level.__getitem__, conflict), default=0)
            if deepest == 0:
                return False
            self.backjump(deepest)
            conflict = self.learn(conflict)
        return True

    def backjump(self, level):
        """Undo every level above `level`."""
        if level >= self.level:
            return
        grid, levels = self.grid, self.levels
        mark, length = levels.marks[level], levels.starts[level]
        levels.forget(length, self.phases.phase)  # (`scanned` kept, but not past `length`)
        if len(grid.trail) >= length:
            # What the root left unscanned below a level `Turns.impose` opened stays unscanned:
            # the next propagation shows it to the nogoods.
            self.rules.revert(mark)
        else:
            levels.scanned = len(grid.trail)
        del levels.starts[level:]
        del levels.marks[level:]

    def restart(self):
        """Back to the root with the nodes' weights shaken, so the next descent takes
        another path; what was learned is kept, and the target phases still guide it."""
        self.restarts.restarted()
        self.phases.shake(self.rules)
        self.backjump(0)

    def rule_out(self):
        """Rule the solution on the grid out: its decisions never hold all together again.
        False if no solution is left."""
        decisions = self.levels.decisions()
        return bool(decisions) and self.analyse(decisions)

    def is_open(self, fact):
        """Whether the bounds leave `fact` open."""
        lo, hi = self.grid.lo, self.grid.hi
        return not holds(lo, hi, fact) and not holds(lo, hi, negate(fact))

    # -- inside ----------------------------------------------------------------------------
    def _diagnose(self, dead):
        self.levels.scan()
        conflict = self.rules.diagnose(self.top, *dead.args)
        if conflict is None:
            # No rule's failure is visible in the state: blame every decision (sound).
            conflict = self.levels.decisions()
        return conflict

    def _fire(self, index, other):
        """Nogood `index` has every fact but `other` true: a conflict if `other` holds too,
        else make it fail (None, or the conflict that meets)."""
        grid = self.grid
        if holds(grid.lo, grid.hi, other):
            self.levels.scan()  # where the facts fired here became true
            return list(self.nogoods.lists[index])
        self.levels.why[len(grid.trail)] = index
        try:
            enforce(grid, negate(other))
        except Contradiction as dead:
            return self._diagnose(dead)
        return None

    def learn(self, conflict):
        """Trace `conflict` to its first unique implication point, store the nogood, jump
        back and assert it. A new conflict if asserting it meets one at once, else None."""
        self.stats.nogoods += 1
        grid = self.grid
        depth = len(grid.trail)
        self.phases.reached(grid)  # the fullest state yet sets the target phases
        uip, learned = self._trace(conflict)
        level_of = self.levels.fact_level.__getitem__
        self.restarts.conflict(depth, 1 + len(set(map(level_of, learned))))
        self.phases.bumped(self.rules, uip, learned)
        others = sorted(learned, key=level_of, reverse=True)
        if len(uip) == 1:
            target = level_of(others[0]) if others else 0
        else:
            target = self.level - 1
        self.backjump(target)
        index = self.nogoods.add(uip + others)
        if len(uip) != 1:
            return None
        # Its other facts hold still: assert it as watching fires a nogood.
        return self._fire(index, uip[0])

    def _trace(self, conflict):
        """The conflict's facts traced back through the present level's changes: the facts
        of this level no rule explains further (one, at the first unique implication
        point), and those of earlier levels met on the way."""
        trail, fact_pos, fact_level = self.grid.trail, self.levels.fact_pos, self.levels.fact_level
        level = self.level
        learned, here = set(), set()
        drawn = {}  # the drawn links' reasons, while the trace only takes changes back
        _file(fact_level, conflict, level, here, learned)
        kept = set()  # present-level facts no rule explains (the decision)
        while len(here) + len(kept) > 1 and here:
            # The latest change behind a fact still to trace, and every fact it made (they
            # hold still: bounds only tighten along the trail, and the trace has undone
            # nothing before it), strongest first.
            position = max(map(fact_pos.__getitem__, here))
            e = trail[position][0]
            lo, hi = self.grid.lo, self.grid.hi
            every = [f for f in every_fact(e) if fact_pos[f] == position and holds(lo, hi, f)]
            made = [f for f in every if f in here]
            here.difference_update(made)
            reason = self._reason(position, e, every, drawn)
            if reason is None:
                kept.add(made[0])
            else:
                _file(fact_level, reason, level, here, learned)
        return list(here | kept), learned

    def _reason(self, position, e, every, drawn):
        """The facts behind the change at trail `position` (on edge e, making `every`):
        a nogood's other facts, a node rule's, or another rule's in the state before it.
        None for a decision or a change no rule explains."""
        how = self.levels.why.get(position)
        if how == DECISION:
            return None
        if how is not None:
            # The nogood's other facts all held when it fired: all but the negation of
            # what it set.
            set_by_it = {negate(f) for f in every}
            return [f for f in self.nogoods.lists[how] if f not in set_by_it]
        grid = self.grid
        reason = node_reason(grid, self.top, every[0], self.levels.fact_pos, position)
        if reason is None:
            # The state the other rules read: the grid back at `position` (the level's mark
            # restores the rules' cursors when the search jumps back).
            if position < len(grid.trail):
                self.levels.forget(position, self.phases.phase)
                self.rules.undo(position)
            fact, n = every[0], bound(every[0])  # the bounds the change left
            new_lo, new_hi = (n, grid.hi[e]) if is_lower(fact) else (grid.lo[e], n)
            reason = self.rules.reason(self.top, e, new_lo, new_hi, drawn)
        return reason
