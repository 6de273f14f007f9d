"""Where the searches branch: the node each one opens next, and what steers it.

Both searches branch at the most constrained node: the open node with the fewest
completions (`completions`: the ways it can still reach its value), weighed by the square of
the contradictions met there (`Memory`). The node search tries each completion of it in
turn; the search that learns fixes one bound of one of its edges, as its `Phases` say.
"""

from heapq import heapify, heappop, heappush
from itertools import product

from bot.facts import at_least, at_most, edge
from bot.options import DEFAULT


class Memory:
    """What the search has learned of a board, beside its grid: the contradictions met at
    each node (from 1), which steer where it branches, and its branching score per node,
    valid for the state at trail length `scored_at` (-1: never scored) but at the nodes in
    `blamed`. Kept across revert: a revert below `scored_at` blames the nodes it gives back
    and moves `scored_at` down to where it went, so only they are scored again."""

    def __init__(self, nodes, heap_from=DEFAULT.score_heap_from):
        self.conflicts = [1] * nodes
        self.blamed = set()  # nodes whose conflicts rose since the search last scored
        self.scores = [0.0] * nodes
        self.scored_at = -1
        # A heap of (score, node), stale entries left in, on boards where a scan of every
        # score at every branch costs more than keeping it (None: scan).
        self.ranked = [] if nodes >= heap_from else None

    def blame(self, i, neighbours, weight=1):
        """Count a contradiction against node i and its neighbours."""
        conflicts, blamed = self.conflicts, self.blamed
        conflicts[i] += weight
        blamed.add(i)
        for j in neighbours:
            conflicts[j] += weight
            blamed.add(j)

    def reverted(self, length, trail, ends):
        """The grid goes back to trail `length`: its nodes changed since then, up to the
        last scoring, are scored again."""
        if length < self.scored_at:
            undone = trail[length:self.scored_at]
            self.blamed.update([i for entry in undone for i in ends[entry[0]]])
            self.scored_at = length

    def shake(self, rng, amount):
        """Jitter every node's weight by up to `amount` of it, and score afresh."""
        self.conflicts = [c * (1 + amount * rng.random()) for c in self.conflicts]
        self.scored_at = -1



def memory_of(rules):
    """The search's memory, made on first use and then listening to `rules`: dead ends met
    before it was made are not counted."""
    if rules.listener is None:
        rules.listener = Memory(len(rules.grid.puzzle), rules.options.score_heap_from)
    return rules.listener


def completions(grid, i):
    """Node i's open edges and every way to complete it: one link count per open edge."""
    lo, hi = grid.lo, grid.hi
    edges = [e for e in grid.puzzle.edges_at[i] if lo[e] != hi[e]]
    bounds = tuple((lo[e], hi[e]) for e in edges)
    return edges, _counts_adding(bounds, grid.puzzle.value[i] - grid.got[i])


_COUNTS_ADDING = {}


def _counts_adding(bounds, missing):
    """Link counts within `bounds` ((lo, hi) per edge) that add `missing` to the lows.

    Few (bounds, missing) pairs exist, and the search asks for them at every branch, so
    they are memoised.
    """
    key = (bounds, missing)
    found = _COUNTS_ADDING.get(key)
    if found is None:
        target = missing + sum(low for low, _ in bounds)
        ranges = [range(low, high + 1) for low, high in bounds]
        found = _COUNTS_ADDING[key] = tuple(c for c in product(*ranges) if sum(c) == target)
    return found


def choose_node(rules, reach=None):
    """The open node to branch on: fewest completions, by the square of contradictions met,
    and by the square root of its `reach` (from `probe`) where it has one.

    Squared, the learned weight wins over the completion count sooner; the reach is the
    lookahead of SAT solvers: a branch that settles much on both sides leaves less to
    search.
    """
    scores = _scores(rules)
    learned = rules.listener
    if learned.ranked is None:
        best = scores.index(min(scores))
        best_key = scores[best], best
    else:
        best_key = _lowest(learned)
    for i, product in (reach or {}).items():
        key = scores[i] / product ** 0.5, i
        if key < best_key:
            best_key = key
    return completions(rules.grid, best_key[1])


def _scores(rules):
    """Each node's completion count by the square of its contradictions (inf once it is
    closed), brought up to date for the nodes whose edges changed since the last call: scoring
    every node at every branch would make a board full of islands O(N^2)."""
    grid, learned = rules.grid, memory_of(rules)
    scores, got, cap, conflicts = learned.scores, grid.got, grid.cap, learned.conflicts
    ranked = learned.ranked
    if learned.scored_at < 0:
        for i in range(len(scores)):
            scores[i] = (count_completions(grid, i) / conflicts[i] ** 2 if got[i] != cap[i]
                         else _CLOSED)
        if ranked is not None:
            ranked.clear()
    else:
        for i in grid.changed_since(learned.scored_at) | learned.blamed:
            score = (count_completions(grid, i) / conflicts[i] ** 2 if got[i] != cap[i]
                     else _CLOSED)
            if score != scores[i]:
                scores[i] = score
                if ranked is not None:
                    heappush(ranked, (score, i))
    if ranked is not None and (not ranked or len(ranked) > 4 * len(scores)):
        ranked[:] = [(score, i) for i, score in enumerate(scores)]
        heapify(ranked)
    learned.blamed.clear()
    learned.scored_at = len(grid.trail)
    return scores


def _lowest(learned):
    """The (score, node) of the lowest score, the first such node on a tie: the heap's
    top, once the entries left behind by later scores are dropped."""
    ranked, scores = learned.ranked, learned.scores
    while ranked[0][0] != scores[ranked[0][1]]:
        heappop(ranked)
    return ranked[0]


_CLOSED = float("inf")


def count_completions(grid, i):
    """len(completions(grid, i)[1]), from a packed key rather than building the options.

    The key is a leading 1, the links missing, then each open edge's bounds, a hex digit
    each: the leading 1 tells a key's length, so a missing count never reads as an edge.
    """
    lo, hi = grid.lo, grid.hi
    key = 16 + grid.puzzle.value[i] - grid.got[i]
    for e in grid.puzzle.edges_at[i]:
        if lo[e] != hi[e]:
            key = key * 16 + lo[e] * 4 + hi[e]
    count = _COUNTS.get(key)
    if count is None:
        count = _COUNTS[key] = len(completions(grid, i)[1])
    return count


_COUNTS = {}


def forget_counts():
    """Empty the memo of completion counts (`count_completions`)."""
    _COUNTS.clear()


class Phases:
    """Which bound the search that learns decides at the node `choose_node` picks: its
    edge met in the most recent conflicts (`activity`), at the count that edge holds in the
    fullest conflict-free state so far (`target`), else at the count it last held (`phase`,
    saved as the search jumps back), else at a single link."""

    def __init__(self, edges, options, rng):
        self.options = options
        self.activity = [0.0] * edges  # how often each edge met a conflict, recent ones most
        self.bump = 1.0
        self.phase = [-1] * edges   # the count each edge last held (phase saving)
        self.target = [-1] * edges  # the counts of the largest conflict-free state so far
        self.best = 0
        self.fullest = None  # those counts, as the search itself last found them
        self.rng = rng       # shakes the nodes' weights at a restart (seeded)

    def choose(self, rules):
        """The fact to decide next: one bound of one edge moved to its chosen count (the
        edge is decided at once or by the next level)."""
        lo, hi = rules.grid.lo, rules.grid.hi
        edges, _ = choose_node(rules)
        e = max(edges, key=self.activity.__getitem__)
        count = self.target[e]
        if not lo[e] <= count <= hi[e]:
            count = self.phase[e]
        if not lo[e] <= count <= hi[e]:
            count = 1 if lo[e] == 0 else lo[e]  # a single link first: spread, not double
        return at_least(e, count) if count > lo[e] else at_most(e, count)

    def follow(self, counts):
        """Steer the next decisions towards `counts` (a count per edge, -1: none)."""
        self.target = counts

    def reached(self, grid):
        """Note the grid's state at a conflict: the fullest yet sets the target."""
        depth = len(grid.trail)
        if depth > self.best:
            self.best = depth
            self.target = self.fullest = [low if low == high else -1
                                          for low, high in zip(grid.lo, grid.hi)]

    def bumped(self, rules, *groups):
        """Weigh the edges of the facts in `groups`, met in a conflict, and the nodes at
        their ends: the search decides there first from now on."""
        activity = self.activity
        self.bump /= self.options.activity_decay
        bump, weight = self.bump, self.options.node_weight
        edges = {edge(f) for group in groups for f in group}
        learned, ends = memory_of(rules), rules.grid.puzzle.ends
        for e in edges:
            activity[e] += bump
            learned.blame(ends[e][0], ends[e][1:], weight)
        if bump > 1e100:
            self.activity = [a * 1e-100 for a in activity]
            self.bump *= 1e-100

    def shake(self, rules):
        """Jitter the nodes' weights at a restart, so the next descent takes another path
        (seeded: a puzzle always gets the same answer)."""
        memory_of(rules).shake(self.rng, self.options.shake)

    def seed(self):
        """A seed for a helper that must start afresh (drawn from the same seeded stream)."""
        return self.rng.random()
