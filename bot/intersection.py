"""Deduction rules ("intersection"): links that must or cannot exist, found without guessing.

Rules run cheapest first to a fixed point (`propagate`), going back to the cheap local rules
after any change a global rule makes:

1. `settle` - `tighten` each node whose edges changed:
   - magicVal: a direction must carry at least `need - (capacity of the other directions)`
     links;
   - sieve: a direction carries at most `value - (links already drawn elsewhere)`, so a
     saturated node or a saturated neighbour blocks the edge.
   Links crossing a drawn link are blocked by `Grid.raise_lo` itself.
2. `isolate`: no link may close a finished group smaller than the whole puzzle
   (two 1s, a 2=2 and every larger case alike).
3. `connect`: the edges that can still carry links must connect every node, and an edge whose
   loss would split them (a bridge) must carry at least one link.
4. `balance`, once the others have nothing to add (it only checks): within each region
   joined by undecided edges, the links still missing must pair up (an even total) and fit
   on those edges. Without it, a region that cannot complete was found only after the
   search had varied every other region's choices. Checking it last rather than every
   round measured 6% less CPU on hard 30x30 puzzles, with the same search.

A rule that meets a dead end raises `Contradiction`.
"""

from bot.grid import Contradiction


def tighten(grid, i):
    """Both node rules for node i, in one pass over its open edges.

    - magicVal (links that must exist): an edge carries at least what the node's other edges
      cannot, `hi[e] - (cap - value)`;
    - sieve (links that cannot): an edge carries at most what the node has left after its
      other links, `lo[e] + (value - got)`, so a saturated node or neighbour blocks it.
    A change re-queues the node, so bounds read before it are caught up on the next visit.
    """
    value = grid.puzzle.value[i]
    got, cap = grid.got[i], grid.cap[i]
    if got > value or cap < value:
        raise Contradiction()
    spare = cap - value   # links the node's edges can still lose
    room = value - got    # links the node can still gain
    lo, hi = grid.lo, grid.hi
    for e, _ in grid.puzzle.node_edges[i]:
        low, high = lo[e], hi[e]
        if low == high:
            continue
        if high - spare > low:
            grid.raise_lo(e, high - spare)
        if low + room < high:
            grid.lower_hi(e, low + room)


def settle(grid):
    """Run the node rules until no node's edges change."""
    dirty, queued = grid.dirty, grid.queued
    got, cap, value = grid.got, grid.cap, grid.puzzle.value
    while dirty:
        i = dirty.pop()
        queued[i] = 0
        try:
            if got[i] == cap[i]:
                # Every edge decided: only the bounds check is left.
                if got[i] != value[i]:
                    raise Contradiction()
                continue
            tighten(grid, i)
        except Contradiction:
            _blame(grid, i)
            raise


def _blame(grid, i):
    """Count a contradiction against node i and its neighbours: it steers the search."""
    conflicts = grid.conflicts
    conflicts[i] += 1
    grid.blamed.add(i)
    for _, j in grid.puzzle.node_edges[i]:
        conflicts[j] += 1
        grid.blamed.add(j)


def balance(grid):
    """Each region of undecided edges must be able to place exactly the links it lacks.

    Every link still to come joins two nodes of one region, so a region's missing total is
    even and at most twice what its edges can still take. Raises Contradiction otherwise.
    It runs after every round of node rules, so after the first look it walks only the
    regions holding a node whose edges changed (the only verdicts that can differ), and
    gives up on a region past REGION_WALK nodes: a large region rarely fails, and the
    parity of the whole board never changes.
    """
    p = grid.puzzle
    lo, hi, got, value, node_edges = grid.lo, grid.hi, grid.got, p.value, p.node_edges
    if grid.balanced == len(grid.trail):
        return
    walk = len(p) if grid.balanced < 0 else REGION_WALK
    starts = grid.changed_since(grid.balanced)
    seen = bytearray(len(p))
    for start in starts:
        if seen[start] or got[start] == value[start]:
            continue
        seen[start] = 1
        region = [start]
        missing = room = 0
        limit = walk
        for i in region:  # grows while walked
            missing += value[i] - got[i]
            for e, j in node_edges[i]:
                if lo[e] != hi[e]:
                    room += hi[e] - lo[e]  # met from both ends: twice the edge's room
                    if not seen[j]:
                        seen[j] = 1
                        region.append(j)
                    elif seen[j] == GAVE_UP:
                        limit = -1  # part of a region given up on: give up on it too
            if len(region) > limit:
                # Mark the part walked, so a walk that meets it gives up too rather than
                # judge a fragment of the region.
                for j in region:
                    seen[j] = GAVE_UP
                break
        else:
            if missing % 2 or missing > room:
                raise Contradiction()
    grid.balanced = len(grid.trail)


# Measured (CPU time of bot.solve): at 40 two of 100 dense boards (seed 7, 258 islands)
# took 81 and 109 ms, regions of 40 to 60 nodes that could not complete being found late;
# at 60 the slowest is 33 ms, for 5% more time on hard unique boards. Past 60 it only costs.
REGION_WALK = 60
GAVE_UP = 2


def isolate(grid):
    """Cap every edge below the count that would close a group smaller than the puzzle.

    Adding k links to an edge lowers the remaining need of the group(s) it joins by 2k; at 0
    the group can take no more links and would be cut off. Only groups holding a node whose
    edges changed since the last look can give a new verdict, so only they (and the groups
    they border) are labelled. Returns True if anything changed.
    """
    p = grid.puzzle
    starts = grid.changed_since(grid.isolated)
    grid.isolated = len(grid.trail)
    groups = _Groups(grid)
    label, need, size, members = groups.label, groups.need, groups.size, groups.members
    whole = len(p)
    lo, hi, got, value, node_edges = grid.lo, grid.hi, grid.got, p.value, p.node_edges
    changed = False
    looked = set()
    for start in starts:
        group = label[start]
        if group < 0:
            group = groups.find(start)
        if group in looked:
            continue
        looked.add(group)
        if need[group] == 0 and size[group] < whole:
            raise Contradiction()
        # Links come at most two to an edge, so only a group needing 4 or fewer can close.
        if need[group] > 4:
            continue
        for i in members[group]:
            for e, j in node_edges[i]:
                low, high = lo[e], hi[e]
                if low == high:
                    continue
                other = label[j]
                if other == group:
                    total, joined = need[group], size[group]
                else:
                    # j's own need is part of its group's: often enough to rule the edge
                    # out before labelling that group.
                    if need[group] + value[j] - got[j] > 2 * (high - low):
                        continue
                    if other < 0:
                        other = groups.find(j)
                    total, joined = need[group] + need[other], size[group] + size[other]
                if joined == whole or total > 2 * (high - low):
                    continue
                if total % 2 == 0 and total > 0:
                    changed |= grid.lower_hi(e, low + total // 2 - 1)
    return changed


class _Groups:
    """Groups of nodes joined by drawn links, labelled on demand.

    `find(i)` labels i's group: its members, size and remaining need (the links its nodes
    still lack). `isolate` cares only for groups needing 4 or fewer, so a walk stops as soon
    as the need passes 4 and the group is recorded as BIG (its need then reads as 5, its
    members as none). A later walk from an unlabelled node of that group meets one of its
    labelled nodes, and stops there too.
    """

    __slots__ = ("grid", "label", "need", "size", "members")
    BIG = 0  # the group id every group needing more than 4 shares

    def __init__(self, grid):
        self.grid = grid
        self.label = [-1] * len(grid.puzzle)
        self.need, self.size, self.members = [5], [0], [()]

    def find(self, start):
        grid = self.grid
        lo, got, value, node_edges = grid.lo, grid.got, grid.puzzle.value, grid.puzzle.node_edges
        label = self.label
        group = len(self.need)
        label[start] = group
        members = [start]
        lacking = 0
        for i in members:  # grows while walked: a breadth-first walk
            lacking += value[i] - got[i]
            for e, j in node_edges[i]:
                if lo[e]:
                    if label[j] < 0:
                        label[j] = group
                        members.append(j)
                    elif label[j] != group:
                        lacking = 5  # joined to a group already known to be big
            if lacking > 4:
                for j in members:
                    label[j] = self.BIG
                return self.BIG
        self.need.append(lacking)
        self.size.append(len(members))
        self.members.append(members)
        return group


def connect(grid):
    """The possible links must reach every node; a bridge among them must be drawn.

    Returns True if anything changed; raises Contradiction if the nodes cannot be connected.
    """
    p = grid.puzzle
    n = len(p)
    if n < 2:
        return False
    hi, node_edges = grid.hi, p.node_edges
    # Iterative Tarjan: order[i] is the visit time, low[i] the earliest time reachable
    # from i's subtree by one back edge.
    order = [-1] * n
    low = [0] * n
    order[0] = low[0] = 0
    clock = 1
    bridges = []
    stack = [(0, -1, iter(node_edges[0]))]
    while stack:
        i, via, edges = stack[-1]
        for e, j in edges:
            if not hi[e] or e == via:
                continue
            if order[j] < 0:
                order[j] = low[j] = clock
                clock += 1
                stack.append((j, e, iter(node_edges[j])))
                break
            if order[j] < low[i]:
                low[i] = order[j]
        else:
            stack.pop()
            if stack:
                parent = stack[-1][0]
                if low[i] < low[parent]:
                    low[parent] = low[i]
                if low[i] > order[parent]:
                    bridges.append(via)
    if clock < n:
        raise Contradiction()
    changed = False
    for e in bridges:
        changed |= grid.raise_lo(e, 1)
    return changed


def propagate(grid, stats=None, whole=True, probing=False):
    """Apply every rule until none finds anything more (or raise Contradiction).

    A global rule runs only when its input changed since it last ran (`Grid.joined`,
    `Grid.cut`): it is the costly part of a round. With `whole` false only the node rules
    run, and the connectivity check once every edge is decided; the flags stay set, so the
    next whole propagation catches up. When `probing`, `connect` too waits until every edge
    is decided: it is the one rule that walks the whole board each time, and measured,
    probes gain the least from it.
    """
    while True:
        if stats is not None:
            stats.rounds += 1
        settle(grid)
        if not whole:
            if grid.solved() and grid.cut:
                grid.cut = False
                connect(grid)
            return
        if grid.joined and not grid.solved():
            grid.joined = False
            if isolate(grid):
                continue
        if grid.cut and (not probing or grid.solved()):
            grid.cut = False
            if connect(grid):
                continue
        balance(grid)
        return

