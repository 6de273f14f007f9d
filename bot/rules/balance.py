"""The parity rule: within each region joined by undecided edges, the links still missing
must pair up.

Every link still to come joins two nodes of one region, so a region's missing total is even.
Where the region's undecided edges split its nodes in two sides (no cycle of odd length: on
a board full of islands every edge joins neighbouring cells, so every region does), each
link to come joins one node of each side, and the sides lack as many links. It only checks,
and runs last, once the other rules have nothing to add: a region that cannot complete is
found before the search varies every other region's choices.

The diagnosis of an unbalanced region stands beside the rule.
"""

from bot.facts import bound_facts
from bot.grid import REGION, Contradiction

GAVE_UP = 2  # `seen` mark of a region walked past the rule's limit


def balance(rules):
    """Raise Contradiction unless every region of undecided edges balances.

    After the first look it walks only from the ends of edges decided since: while a region
    stays whole, a link lowers both sides' missing totals by one, so only a decided edge
    that splits it (or breaks its odd cycles) can leave it unbalanced. It gives up on a
    region past `Options.region_walk` nodes: a large region rarely fails, and the whole
    board was looked at first.
    """
    grid = rules.grid
    if rules.balanced == len(grid.trail):
        return
    n = len(grid.value)
    walk = n if rules.balanced < 0 else rules.options.region_walk
    seen, side = bytearray(n), bytearray(n)
    got, value = grid.got, grid.value
    for start in _decided_since(grid, rules.balanced):
        if seen[start] or got[start] == value[start]:
            continue
        if not _region_balances(grid, start, walk, seen, side):
            raise Contradiction(start, REGION)
    rules.balanced = len(grid.trail)


def _region_balances(grid, start, limit, seen, side):
    """Whether the region of `start` can balance (True too if walked past `limit` nodes)."""
    walked = _walk_region(grid, start, limit, seen, side)
    return walked is None or _balances(*walked[1:])


def _balances(missing, two_sides):
    """Whether links still missing on (side 0, side 1) can pair up."""
    if two_sides:
        return missing[0] == missing[1]
    return (missing[0] + missing[1]) % 2 == 0


def _walk_region(grid, start, limit, seen, side):
    """Walk the region of `start` through undecided edges, giving each node a side: (its
    nodes, the links missing on each side, whether the sides split it), or None past
    `limit` nodes or where it meets a region given up on (the part walked is then marked
    given up, so a walk that meets it gives up too rather than judge a fragment)."""
    lo, hi, got, value, node_edges = grid.lo, grid.hi, grid.got, grid.value, grid.puzzle.node_edges
    seen[start] = 1
    region = [start]
    missing = [0, 0]
    two_sides = True
    for i in region:  # grows while walked
        here = side[i]
        missing[here] += value[i] - got[i]
        for e, j in node_edges[i]:
            if lo[e] != hi[e]:
                if not seen[j]:
                    seen[j] = 1
                    side[j] = 1 - here
                    region.append(j)
                elif seen[j] == GAVE_UP:
                    limit = -1
                elif side[j] == here:
                    two_sides = False
        if len(region) > limit:
            for j in region:
                seen[j] = GAVE_UP
            return None
    return region, missing, two_sides


def _decided_since(grid, position):
    """The ends of the edges decided after trail `position` (every node if -1)."""
    if position < 0:
        return range(len(grid.puzzle))
    lo, hi, ends = grid.lo, grid.hi, grid.ends
    return {i for e, _, _ in grid.trail[position:] if lo[e] == hi[e] for i in ends[e]}


class Worth:
    """What `balance` is worth in probes on this board: its `looks` there and the `hits`
    among them (the contradictions they found). Learned, so the engine keeps it across
    revert (`Rules.worth`)."""

    def __init__(self):
        self.looks = self.hits = 0


def due_in_probe(rules):
    """Whether a probe has changed enough bounds since `balance` last looked (or it never
    has) for a look to be worth it on this board."""
    if rules.balanced < 0:
        return True
    options, worth = rules.options, rules.worth
    after = options.probe_balance_after
    if worth.hits * options.parity_pays < worth.looks:
        after = options.probe_balance_rarely
    return len(rules.grid.trail) - rules.balanced >= after


def balance_in_probe(rules):
    """`balance`, counting its looks and the contradictions they find."""
    worth = rules.worth
    worth.looks += 1
    try:
        balance(rules)
    except Contradiction:
        worth.hits += 1
        raise


# -- diagnosis -------------------------------------------------------------------------------

def unbalanced_region(grid, top, hint=None):
    """The facts behind the region of undecided edges, with the fewest, that `balance`
    refutes: where its edges split it in two sides, the decided edges that leave it or join
    two nodes of one side (a link between the sides counts for both alike); otherwise the
    decided edges around it, its missing total being odd. None if every region balances.
    (`Rule.met`'s arguments.)"""
    p = grid.puzzle
    got, cap, value = grid.got, grid.cap, p.value
    seen, side = bytearray(len(p)), bytearray(len(p))
    best = None
    for start in range(len(p)):
        if seen[start] or got[start] == cap[start] == value[start]:
            continue  # (a finished node is a region of its own, and balances)
        facts = _region_facts(grid, top, start, seen, side)
        if facts is not None and (best is None or len(facts) < len(best)):
            best = facts
    return best


def _region_facts(grid, top, start, seen, side):
    """Walk the region of `start` whole; the facts behind it if it does not balance."""
    region, missing, two_sides = _walk_region(grid, start, len(grid.value), seen, side)
    if _balances(missing, two_sides):
        return None
    lo, hi, node_edges = grid.lo, grid.hi, grid.puzzle.node_edges
    inside = set(region)
    read = {f for x in region for f, y in node_edges[x] if lo[f] == hi[f] and
            (y not in inside or (two_sides and side[x] == side[y]))}
    return [fact for f in read for fact in bound_facts(grid, top, f)]
