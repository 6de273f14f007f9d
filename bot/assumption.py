"""Assumption search, for when the rules stall.

An assumption is one way a node can still complete: a link count for each of its open
edges (a "completion"). Assume it, run the rules, and if they meet a contradiction the
completion is eliminated (the seed paper's elimination search, taken per node rather than
per edge so one probe settles up to four edges).

- `bot.elimination.eliminate` probes every completion of every open node, most constrained
  node first, and narrows the node's edges to what its surviving completions allow; it
  repeats until nothing is eliminated. It never guesses, so it grades a puzzle's difficulty.
- `solutions` branches depth-first: it takes the most constrained node (fewest
  completions, weighted by how often it has met contradictions) and tries each completion
  in turn, and a completion that fails is eliminated on the spot. Before it branches it
  `probe`s: the nodes with at most two completions (`Options.probe_options`), among those
  the last assumption changed (every node at the root), have each completion tried and the
  refuted ones eliminated. That is `eliminate` made cheap enough for every branch: few
  nodes, the costliest rule left out. Each probe's reach also steers `choose_node`.

Every assumption is undone with `Rules.revert`: the search never mutates state it cannot
restore. Where it branches is `bot.branching`'s, shared with the search that learns; its
`Memory` (contradictions met per node, branching scores) is kept beside the rules, which
tell it of dead ends and reverts.
"""

from bot.branching import choose_node, completions, count_completions, memory_of
from bot.grid import Contradiction
from bot.options import DEFAULT
from bot.rules.engine import FULL, NODES, PROBE
from bot.stages import BRANCHING, ELIMINATION


def assume(grid, edges, counts):
    """Set each edge to its count (raises Contradiction at once if one cannot be)."""
    for e, n in zip(edges, counts):
        grid.raise_lo(e, n)
        grid.lower_hi(e, n)


def changes_of(rules, edges, counts, stats, survived=None, outcome=None):
    """Try one completion and undo it: how many bound changes the rules made of it, or None
    if they met a contradiction.

    With a `survived` set (probing): `connect` is left out, and every node the completion
    completes is added to the set, as `completed_node` names it. With an `outcome` list, the
    bounds the rules ended with are added to it, for `replay`.
    """
    stats.assumptions += 1
    grid = rules.grid
    start = len(grid.trail)
    mark = rules.mark()
    completed = rules.completed = [] if survived is not None else None
    try:
        assume(grid, edges, counts)
        rules.propagate(FULL if survived is None else PROBE, stats)
        if survived is not None:
            at, edges_at = grid.lo.__getitem__, grid.puzzle.edges_at
            for j in completed:
                survived.add((j, tuple(map(at, edges_at[j]))))
        if outcome is not None:
            lo, hi = grid.lo, grid.hi
            outcome.extend((e, lo[e], hi[e]) for e in {e for e, _, _ in grid.trail[start:]})
        return len(grid.trail) - start
    except Contradiction:
        return None
    finally:
        rules.completed = None
        rules.revert(mark)


def narrow(grid, edges, survivors):
    """Narrow each edge to the hull of the surviving completions; True if anything changed.

    Bounds hold only the hull: a completion eliminated inside it (1+1 between 0+2 and 2+0)
    narrows nothing.
    """
    narrowed = False
    for k, e in enumerate(edges):
        narrowed |= grid.raise_lo(e, min(c[k] for c in survivors))
        narrowed |= grid.lower_hi(e, max(c[k] for c in survivors))
    return narrowed


def probe(rules, stats, nodes, reach=None):
    """Try every completion of each of `nodes` that has at most `Options.probe_options`; keep
    the hull of those the rules do not refute, then probe the nodes that changes. A
    completion a surviving probe completed is not tried again (the rules deduce more from
    more, so it would survive too). With a `reach` dict, a node whose completions all
    survive gets how far a branch on it would reach (`choose_node`). True if anything
    narrowed."""
    grid = rules.grid
    got, cap, most = grid.got, grid.cap, rules.options.probe_options
    queue = [i for i in nodes if got[i] != cap[i]]
    queued = set(queue)
    progress = False
    survived = set()  # (node, link count on each of its edges) that a probe completed
    while queue:
        i = queue.pop()
        queued.discard(i)
        if got[i] == cap[i] or count_completions(grid, i) > most:
            continue  # (counting is cheaper than building the completions: most have more)
        position = len(grid.trail)
        if not _probe_node(rules, stats, i, survived, reach):
            continue
        survived.clear()  # they held for the state before the narrowing
        progress = True
        for j in grid.changed_since(position):
            if got[j] != cap[j] and j not in queued:
                queued.add(j)
                queue.append(j)
    if progress:
        rules.propagate(FULL, stats)
    return progress


def _probe_node(rules, stats, i, survived, reach):
    """Probe each completion of node i and narrow it to the survivors; True if that narrowed.

    A node left with one completion it probed takes the bounds that probe ended with rather
    than run the rules again (`replay`)."""
    grid = rules.grid
    edges, choices = completions(grid, i)
    survivors, product, outcomes = probe_completions(rules, stats, i, edges, choices, survived)
    if len(survivors) == len(choices):
        if reach is not None and product is not None:
            reach[i] = product
        return False
    stats.eliminations += len(choices) - len(survivors)
    if len(survivors) == 1 and survivors[0] in outcomes:
        replay(rules, outcomes[survivors[0]])
    else:
        narrow(grid, edges, survivors)
        rules.propagate(PROBE, stats)
    return True


def probe_completions(rules, stats, i, edges, choices, survived):
    """Probe node i's completions: the survivors, the product of (changes + 1) over them
    (None if one was taken unprobed), and the bounds the first one's probe ended with."""
    survivors = []
    product = 1
    outcomes = {}  # completion -> the bounds its probe ended with, where kept
    for k, c in enumerate(choices):
        if not survivors and k == len(choices) - 1:
            # Every other completion failed: narrowing to this one propagates it anyway.
            survivors.append(c)
        elif survived and completed_node(rules.grid, i, edges, c) in survived:
            survivors.append(c)
            product = None  # not probed: its reach is unknown
        else:
            # With two completions, only a first one can be the one probed survivor left (a
            # second is probed beside a survivor or taken unprobed), so only its bounds are
            # kept; a later survivor left alone is narrowed to instead.
            outcome = [] if k == 0 else None
            changes = changes_of(rules, edges, c, stats, survived, outcome)
            if changes is not None:
                if outcome is not None:
                    outcomes[c] = outcome
                survivors.append(c)
                if product is not None:
                    product *= changes + 1
    return survivors, product, outcomes


def replay(rules, bounds):
    """Set the bounds a probe ended with, without running the rules again: the state is the
    one the probe reached, where the rules (but `connect`) had nothing left to find."""
    grid = rules.grid
    for e, low, high in bounds:
        grid.raise_lo(e, low)
        grid.lower_hi(e, high)
    rules.caught_up()


def completed_node(grid, i, edges, counts):
    """Node i as it would be with `counts` on its open `edges`: (i, count on every edge)."""
    chosen = dict(zip(edges, counts))
    lo = grid.lo
    return i, tuple([chosen.get(e, lo[e]) for e in grid.puzzle.edges_at[i]])


def spread_first(grid, edges, choices):
    """Options that add links on more edges first.

    Spreading links over neighbours, rather than doubling them, keeps more of the board
    connected.
    """
    lo = grid.lo

    def spread(counts):
        return sum(1 for e, n in zip(edges, counts) if n > lo[e])
    return sorted(choices, key=spread, reverse=True)


class OutOfBranches(Exception):
    """The node search's branch budget is spent: the search that learns takes over."""


class Budget:
    """How far the node search may go before the search that learns takes over: `branches`
    branches, then on (up to `most` in all: `stretch` times the branches unless given)
    while it has reached a depth new to it within the last `stall` branches. A node search
    still going deeper is often near an answer; one that keeps coming back up is
    thrashing, where the search that learns does better."""

    def __init__(self, branches=DEFAULT.node_search_branches, most=None,
                 stall=DEFAULT.node_search_stall, stretch=DEFAULT.node_search_stretch):
        self.branches = branches
        self.most = branches * stretch if most is None else most
        self.stall = stall
        self.used = 0       # branches taken
        self.deepest = -1   # the deepest level branched from...
        self.deepened = 0   # ...first reached after this many branches

    @classmethod
    def of(cls, options):
        """The budget `options` set."""
        return cls(options.node_search_branches, stall=options.node_search_stall,
                   stretch=options.node_search_stretch)

    def spend(self, depth):
        """Count a branch from level `depth`; False (nothing counted) once none is left."""
        if depth > self.deepest:
            self.deepest, self.deepened = depth, self.used
        stalled = self.used - self.deepened >= self.stall
        if self.used >= self.most or (self.used >= self.branches and stalled):
            return False
        self.used += 1
        return True


def first_solution(rules, stats, budget=None, sure=None):
    """The first solution's links the node search finds within `budget` (a Budget, the
    options' if None), or None if the puzzle has none. Raises OutOfBranches once the
    budget is spent (the grid is then back as it was). Every answer is checked with
    `Grid.valid` before it is returned. `sure`, if given, hears the links drawn at the root
    (in every solution).
    """
    budget = Budget.of(rules.options) if budget is None else budget
    for found in solutions(rules, stats, budget=budget, sure=sure):
        if found.valid():
            return found.links()
    return None


def solutions(rules, stats, depth=0, budget=None, since=-1, sure=None):
    """Yield the grid each time it holds a solution (consume it before resuming).

    With a `budget` (a Budget), raises OutOfBranches once it is spent. Every branch first
    probes the nodes whose edges changed after trail position `since` (the assumption that
    led here; -1 at the root: every node). `sure`, if given, hears the links drawn once the
    root is probed (they are in every solution), unless they solve it. The grid is back in
    its entry state once the generator is exhausted or closed.
    """
    grid = rules.grid
    stats.max_depth = max(stats.max_depth, depth)
    memory_of(rules)  # contradictions met from here on are learned
    mark = rules.mark()
    reach = {}
    try:
        try:
            _narrow_here(rules, stats, depth, since, reach)
        except Contradiction:
            return
        if grid.solved():
            yield grid
            return
        if sure is not None:
            sure(grid.links())
        yield from _branch(rules, stats, depth, budget, reach)
    finally:
        rules.revert(mark)


def _narrow_here(rules, stats, depth, since, reach):
    """The rules, then the probes, at one level of the search. The whole-board rules run
    every few levels only (`Options.global_every`)."""
    grid, tuning = rules.grid, rules.options
    whole = depth % max(tuning.global_every, len(grid.puzzle) // tuning.islands_per_global) == 0
    rules.propagate(PROBE if whole else NODES, stats)
    if not grid.solved():
        # The bridge search waited for the probes; a probe that narrowed has run it.
        if probe(rules, stats, grid.changed_since(since), reach):
            stats.stage = max(stats.stage, ELIMINATION)
        elif whole:
            rules.propagate(FULL, stats)


def _branch(rules, stats, depth, budget, reach):
    """Try each completion of the most constrained node; one that fails is eliminated."""
    if budget is not None and not budget.spend(depth):
        raise OutOfBranches()
    stats.stage = BRANCHING
    stats.branch()
    grid = rules.grid
    edges, choices = choose_node(rules, reach)
    for counts in spread_first(grid, edges, choices):
        stats.assumptions += 1
        start = len(grid.trail)
        mark = rules.mark()
        try:
            assume(grid, edges, counts)
        except Contradiction:
            stats.dead_ends += 1
            rules.revert(mark)
            continue
        yield from solutions(rules, stats, depth + 1, budget, start)
        rules.revert(mark)
