"""The node rules, at each node whose edges changed, and the grid's own checks.

- magicVal (links that must exist): an edge carries at least what the node's other edges
  cannot, `hi[e] - (cap - value)`;
- the sieve (links that cannot): an edge carries at most what the node has left after its
  other links, `lo[e] + (value - got)`, so a saturated node or neighbour blocks it.

The grid itself refuses a node over or under its value and blocks every edge that crosses a
drawn link (`Grid.raise_lo`, `Grid.lower_hi`): their reasons and diagnoses stand here too.
"""

from itertools import chain

from bot.facts import at_least, at_most, bound, bound_facts, edge, is_lower
from bot.grid import Contradiction


def settle(rules):
    """Run the node rules until no node's edges change.

    A change re-queues the node (the grid queues the ends of each edge it changes,
    `bot.grid.Changes`), so bounds read before it are caught up on the next visit (the rules
    are written inline: this is the hottest loop of a solve). Every node visited after its
    last edge was decided is added to `rules.completed`, where a probe lent a list: each
    node that changes is visited after its last change, so a probe learns from it which
    nodes it completed without walking its trail.
    """
    grid = rules.grid
    dirty, completed = rules.changes.dirty, rules.completed
    got, cap, value = grid.got, grid.cap, grid.value
    lo, hi, edges_at = grid.lo, grid.hi, grid.puzzle.edges_at
    raise_lo, lower_hi = grid.raise_lo, grid.lower_hi
    while dirty:
        i, _ = dirty.popitem()
        try:
            if got[i] == cap[i]:
                if got[i] != value[i]:  # every edge decided: only the bounds check is left
                    raise Contradiction(i)
                if completed is not None:
                    completed.append(i)
                continue
            spare = cap[i] - value[i]  # links the node's edges can still lose
            room = value[i] - got[i]   # links the node can still gain
            if spare > 1 and room > 1:
                continue  # an open edge spans at most 2 links: neither rule can move one
            for e in edges_at[i]:
                low, high = lo[e], hi[e]
                if low == high:
                    continue
                magic_val = high - spare   # magicVal: what the other edges cannot carry
                if magic_val > low:
                    raise_lo(e, magic_val)
                if low + room < high:
                    lower_hi(e, low + room)     # the sieve
        except Contradiction as dead:
            rules.blame(dead.args[0] if dead.args else i)
            raise


def node_reason(grid, top, fact, fact_pos, position):
    """The node rules' reason for the change at trail `position` that made `fact` (its
    strongest), read from the present state without going back to it: the bounds that held
    before it are those of the facts true now that became true earlier (`fact_pos`, the
    trail position of each true fact; bounds only tighten along a trail). None if neither
    rule explains the change."""
    e, n, lower = edge(fact), bound(fact), is_lower(fact)
    for x in grid.puzzle.ends[e]:
        if lower:
            facts = _magic_reason(grid, top, fact_pos, position, x, e, n)
        else:
            facts = _sieve_reason(grid, fact_pos, position, x, e, n)
        if facts is not None:
            return facts
    return None


def _magic_reason(grid, top, fact_pos, position, x, e, new_lo):
    """magicVal at node x: x's other edges could carry too little for fewer than new_lo."""
    hi = grid.hi
    room = grid.value[x]
    facts = []
    for f in grid.puzzle.edges_at[x]:
        if f != e:
            high = (0 if not hi[f] and fact_pos[at_most(f, 0)] < position else
                    1 if hi[f] < 2 and fact_pos[at_most(f, 1)] < position else top[f])
            room -= high
            if high < top[f]:
                facts.append(at_most(f, high))
    return facts if room >= new_lo else None


def _sieve_reason(grid, fact_pos, position, x, e, new_hi):
    """The sieve at node x: x had only new_hi links left after its other edges'."""
    lo = grid.lo
    left = grid.value[x]
    facts = []
    for f in grid.puzzle.edges_at[x]:
        if f != e:
            low = (2 if lo[f] == 2 and fact_pos[at_least(f, 2)] < position else
                   1 if lo[f] and fact_pos[at_least(f, 1)] < position else 0)
            left -= low
            if low:
                facts.append(at_least(f, low))
    return facts if left <= new_hi else None


def crossing_reason(grid, e):
    """Why edge e was cut by the grid: a drawn link crosses it. None if none does."""
    for f in grid.puzzle.crossings[e]:
        if grid.lo[f]:
            return [at_least(f, 1)]
    return None


def dead_node(grid, top, hint=None):
    """The facts of a node over or under its value, or of two drawn links that cross (the
    grid's own checks); None if there is none. Nodes near `hint` and the latest changes
    are looked at first: a contradiction is met where the last changes were."""
    p = grid.puzzle
    got, cap, value = grid.got, grid.cap, p.value
    recent = [hint] if hint is not None else []
    recent += [x for e, _, _ in grid.trail[-8:] for x in p.ends[e]]
    for x in chain(recent, range(len(p))):
        if got[x] > value[x]:
            return [fact for f in p.edges_at[x] for fact in bound_facts(grid, top, f, highs=False)]
        if cap[x] < value[x]:
            return [fact for f in p.edges_at[x] for fact in bound_facts(grid, top, f, lows=False)]
    lo = grid.lo
    for e, low in enumerate(lo):
        if low:
            for f in p.crossings[e]:
                if lo[f]:
                    return [at_least(e, 1), at_least(f, 1)]
    return None
