"""Deduction rules ("intersection"): links that must or cannot exist, found without guessing.

Rules run cheapest first to a fixed point (`propagate`), going back to the cheap local rules
after any change a global rule makes:

1. `settle` - the node rules, at each node whose edges changed:
   - magicVal: a direction must carry at least `need - (capacity of the other directions)`
     links;
   - sieve: a direction carries at most `value - (links already drawn elsewhere)`, so a
     saturated node or a saturated neighbour blocks the edge.
   Links crossing a drawn link are blocked by `Grid.raise_lo` itself.
   A node two links from both of its bounds is skipped: no rule can move its edges.
2. `isolate`: no link may close a finished group smaller than the whole puzzle
   (two 1s, a 2=2 and every larger case alike). The groups are kept by the grid.
3. `slack`: of the links still to come, all but the board's slack must join two groups (k
   groups need k - 1 more links); once one or none is left, no edge may take a link that
   would join nothing.
4. `connect`: the edges that can still carry links must connect every node, and on the first
   look an edge whose loss would split them (a bridge) must carry at least one link.
5. `balance`, once the others have nothing to add (it only checks): within each region
   joined by undecided edges, the links still missing must pair up (an even total).
   Without it, a region that cannot complete was found only after the search had varied
   every other region's choices. Checking it last rather than every round measured 6% less
   CPU on hard 30x30 puzzles, with the same search.

A rule that meets a dead end raises `Contradiction`.
"""

from bot.grid import CUT, REGION, SLACK, Contradiction
from bot.tuning import (MEND_SHARE, PARITY_PAYS, PROBE_BALANCE_AFTER, PROBE_BALANCE_RARELY,
                        REGION_WALK)


class Looks:
    """The rules' own state beside a grid: the trail positions up to which `balance`,
    `isolate`, `connect` and `slack` have looked (-1: nothing yet) and the slack left at
    `slack`'s last look, kept by the grid's marks and given back by its revert; the nodes
    `settle` found complete (for a probe, which clears the list first); `connect`'s
    certificate of connection, true for every state back to where it was made (going back
    only makes edges possible again); and the looks `balance` took in probes and the
    contradictions they found, which are learned, so kept across revert."""

    __slots__ = ("balanced", "isolated", "connected", "slackened", "slack_left", "completed",
                 "parity_looks", "parity_hits", "spanning", "spanned")

    def __init__(self):
        self.balanced = self.isolated = self.connected = self.slackened = -1
        self.slack_left = None  # the slack left at `slack`'s last look
        self.completed = []
        self.parity_looks = self.parity_hits = 0
        self.spanning = None  # connect's certificate (see there); None: to be made
        self.spanned = 0      # how many edges it holds

    def mark(self):
        return self.balanced, self.isolated, self.connected, self.slackened, self.slack_left

    def restore(self, state):
        (self.balanced, self.isolated, self.connected, self.slackened,
         self.slack_left) = (-1, -1, -1, -1, None) if state is None else state

    def cloned(self, length):
        """The cursors for a copy of a grid whose trail was `length` long (the copy's trail
        starts empty: a cursor that had seen everything has seen the copy's start)."""
        other = Looks()
        other.balanced = 0 if self.balanced == length else -1
        other.isolated = 0 if self.isolated == length else -1
        other.connected = 0 if self.connected == length else -1
        if self.slackened == length:
            other.slackened, other.slack_left = 0, self.slack_left
        other.parity_looks, other.parity_hits = self.parity_looks, self.parity_hits
        if other.connected == 0 and self.spanning is not None:
            other.spanning, other.spanned = bytearray(self.spanning), self.spanned
        return other


def looks(grid):
    """The rules' cursors beside `grid`, made on first use."""
    if grid.looks is None:
        grid.looks = Looks()
    return grid.looks


def settle(grid):
    """Run the node rules until no node's edges change. For each queued node, in one pass over
    its open edges:

    - magicVal (links that must exist): an edge carries at least what the node's other edges
      cannot, `hi[e] - (cap - value)`;
    - sieve (links that cannot): an edge carries at most what the node has left after its
      other links, `lo[e] + (value - got)`, so a saturated node or neighbour blocks it.
    A change re-queues the node, so bounds read before it are caught up on the next visit.
    (The rules are written inline: a call per visit cost 3% of a hard solve, measured.)

    Every node visited after its last edge was decided is added to `Looks.completed`: each
    node that changes is visited after its last change, so a probe learns from the list
    which nodes it completed without walking its trail.
    """
    dirty, queued, completed = grid.dirty, grid.queued, looks(grid).completed
    got, cap, value = grid.got, grid.cap, grid.puzzle.value
    lo, hi, edges_at = grid.lo, grid.hi, grid.puzzle.edges_at
    raise_lo, lower_hi = grid.raise_lo, grid.lower_hi
    while dirty:
        i = dirty.pop()
        queued[i] = 0
        try:
            if got[i] == cap[i]:
                # Every edge decided: only the bounds check is left.
                if got[i] != value[i]:
                    raise Contradiction(i)
                completed.append(i)
                continue
            spare = cap[i] - value[i]  # links the node's edges can still lose
            room = value[i] - got[i]   # links the node can still gain (never below 0: the
            # grid refuses that; with a spare below 0, magicVal asks an edge for too much)
            if spare > 1 and room > 1:
                # An open edge spans at most 2 links, so with 2 to spare and 2 to gain
                # neither rule can move one (a fifth of the visits on hard boards, measured).
                continue
            for e in edges_at[i]:
                low, high = lo[e], hi[e]
                if low == high:
                    continue
                if high - spare > low:
                    raise_lo(e, high - spare)
                if low + room < high:
                    lower_hi(e, low + room)
        except Contradiction as dead:
            _blame(grid, dead.args[0] if dead.args else i)
            raise


def _blame(grid, i):
    """Count a contradiction against node i and its neighbours, where a search keeps a
    memory beside the grid: it steers the search."""
    if grid.memory is not None:
        grid.memory.blame(i, [j for _, j in grid.puzzle.node_edges[i]])


def balance(grid):
    """Each region of undecided edges must lack as many links on both sides, where it has
    two sides, and an even number of links where it has not.

    Every link still to come joins two nodes of one region, so a region's missing total is
    even. Where the region's undecided edges split its nodes in two sides (no cycle of odd
    length: on a board full of islands every edge joins neighbouring cells, so every region
    does), each link to come joins one node of each side, and the sides lack as many links.
    Raises Contradiction otherwise. (That the total fits on the region's edges follows from
    the node rules: each node's need is at most its own room.) After the first look it
    walks only from the ends of edges decided since: while a region stays whole, a link
    lowers both sides' missing totals by one, so only a decided edge that splits it (or
    breaks its odd cycles) can leave it unbalanced. It gives up on a region past
    REGION_WALK nodes: a large region rarely fails, and the whole board was looked at first.
    """
    p = grid.puzzle
    lo, hi, got, value, node_edges = grid.lo, grid.hi, grid.got, p.value, p.node_edges
    cursors = looks(grid)
    if cursors.balanced == len(grid.trail):
        return
    walk = len(p) if cursors.balanced < 0 else REGION_WALK
    starts = _decided_since(grid, cursors.balanced)
    seen = bytearray(len(p))
    side = bytearray(len(p))
    for start in starts:
        if seen[start] or got[start] == value[start]:
            continue
        seen[start] = 1
        region = [start]
        missing = [0, 0]
        two_sides = True
        limit = walk
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
                        limit = -1  # part of a region given up on: give up on it too
                    elif side[j] == here:
                        two_sides = False
            if len(region) > limit:
                # Mark the part walked, so a walk that meets it gives up too rather than
                # judge a fragment of the region.
                for j in region:
                    seen[j] = GAVE_UP
                break
        else:
            if missing[0] != missing[1] if two_sides else (missing[0] + missing[1]) % 2:
                raise Contradiction(start, REGION)
    cursors.balanced = len(grid.trail)


def _decided_since(grid, position):
    """The ends of the edges decided after trail `position` (every node if -1)."""
    if position < 0:
        return range(len(grid.puzzle))
    lo, hi, ends = grid.lo, grid.hi, grid.puzzle.ends
    return {i for e, _, _ in grid.trail[position:] if lo[e] == hi[e] for i in ends[e]}


GAVE_UP = 2


def isolate(grid):
    """Cap every edge below the count that would close a group smaller than the puzzle.

    Adding k links to an edge lowers the remaining need of the group(s) it joins by 2k; at 0
    the group can take no more links and would be cut off (a link that does it is refused
    by `Grid.raise_lo`; this rule caps the edges that would). Only groups a link joined or
    whose need fell since the last look can give a new verdict, so only their edges are
    looked at. The groups themselves are kept by the grid (`Grid.parent`, `Grid.need`).
    Returns True if anything changed.
    """
    p = grid.puzzle
    cursors = looks(grid)
    starts = _joined_since(grid, cursors.isolated)
    cursors.isolated = len(grid.trail)
    whole = len(p)
    lo, hi, got, value, node_edges = grid.lo, grid.hi, grid.got, p.value, p.node_edges
    parent, size, need, next_member = grid.parent, grid.size, grid.need, grid.next_member
    changed = False
    for group in _roots(grid, starts):
        lacking = need[group]  # never 0 short of the whole: `Grid.raise_lo` refuses that
        # Links come at most two to an edge, so only a group needing 4 or fewer can close.
        if lacking > 4:
            continue
        i = group
        while True:  # once around the group's circle of members
            if got[i] != value[i]:  # a finished node has no open edge once settled
                for e, j in node_edges[i]:
                    low, high = lo[e], hi[e]
                    if low == high:
                        continue
                    other = j
                    while parent[other] != other:
                        other = parent[other]
                    if other == group:
                        total, joined = lacking, size[group]
                    else:
                        # j's own need is part of its group's: often enough to rule the
                        # edge out before counting that group.
                        if lacking + value[j] - got[j] > 2 * (high - low):
                            continue
                        total = lacking + need[other]
                        joined = size[group] + size[other]
                    if joined == whole or total > 2 * (high - low):
                        continue
                    if total % 2 == 0 and total > 0:
                        changed |= grid.lower_hi(e, low + total // 2 - 1)
            i = next_member[i]
            if i == group:
                break
    return changed


def slack(grid):
    """Of the links still to come, all but the board's slack join two groups: cap every edge
    at what that leaves it.

    A solution joins its n islands with at least n - 1 edges, so at most `Grid.spare` of
    its links do not join two groups (a second link on an edge, a first one inside a
    group); `Grid.waste` counts those drawn so far, and `Grid.raise_lo` refuses one past
    the spare. With `left` of them left, an edge takes at most `left` more links inside a
    group, and one more between two groups. It bites only once one or none is left, and
    then on boards whose solutions are nearly trees (single links, few cycles: the slowest
    boards of the stress suite) it does what connectivity alone found only deep in the
    search. Returns True if anything changed.
    """
    left = grid.spare - grid.waste
    if left > 1:
        return False
    if left < 0:
        raise Contradiction(None, SLACK)
    cursors = looks(grid)
    if cursors.slack_left == left:
        # Caps on the same slack: only edges that groups joined since put inside one.
        starts = _joined_since(grid, cursors.slackened)
        cursors.slackened = len(grid.trail)
        return _slack_in_groups(grid, starts, left)
    cursors.slackened, cursors.slack_left = len(grid.trail), left
    lo, hi, ends, parent = grid.lo, grid.hi, grid.puzzle.ends, grid.parent
    changed = False
    for e, high in enumerate(hi):
        low = lo[e]
        if low == high or high <= low + left:
            continue
        if low:
            changed |= grid.lower_hi(e, low + left)
            continue
        a, b = ends[e]
        while parent[a] != a:
            a = parent[a]
        while parent[b] != b:
            b = parent[b]
        limit = left if a == b else left + 1
        if limit < high:
            changed |= grid.lower_hi(e, limit)
    return changed


def _slack_in_groups(grid, starts, left):
    """Cap at `left` every undrawn edge inside the groups of `starts`."""
    lo, hi, parent, next_member = grid.lo, grid.hi, grid.parent, grid.next_member
    node_edges = grid.puzzle.node_edges
    changed = False
    for group in _roots(grid, starts):
        i = group
        while True:
            for e, j in node_edges[i]:
                if hi[e] > left and not lo[e]:
                    other = j
                    while parent[other] != other:
                        other = parent[other]
                    if other == group:
                        changed |= grid.lower_hi(e, left)
            i = next_member[i]
            if i == group:
                break
    return changed


def _roots(grid, starts):
    """The root of each group that holds one of `starts`, once each."""
    parent = grid.parent
    looked = set()
    for start in starts:
        group = start
        while parent[group] != group:
            group = parent[group]
        if group not in looked:
            looked.add(group)
            yield group


def _joined_since(grid, position):
    """One end of each edge whose low bound rose after trail `position` (every node if -1):
    only there did a group grow or its need fall. (The link joins both ends in one group,
    so one end stands for it.)"""
    if position < 0:
        return range(len(grid.puzzle))
    lo, ends = grid.lo, grid.puzzle.ends
    return {ends[e][0] for e, old_lo, _ in grid.trail[position:] if lo[e] != old_lo}


def connect(grid):
    """The possible links must reach every node; on the first look, a bridge among them must
    be drawn.

    The first look keeps a certificate of connection: a set of possible edges that joins
    every node (`Looks.spanning`, the walk's tree). It stays true as the search goes back,
    since going back only makes edges possible again. Later looks (`Looks.connected` is
    where the last look was) need only mend it: for each of its edges cut since, the cut
    edge's ends must still meet, and the path that joins them goes into the certificate. A
    cut outside it changes nothing. (Walking from the ends of every cut edge until they
    all met was a quarter of a 40x40 fill's solve.) Bridges found later rarely mattered
    (12 of 1,900 looks on hard and dense 30x30 boards drew one), and the search finds them
    anyway. Returns True if anything changed; raises Contradiction if the nodes cannot be
    connected.
    """
    p = grid.puzzle
    n = len(p)
    if n < 2:
        return False
    cursors = looks(grid)
    if cursors.connected < 0:
        cursors.connected = len(grid.trail)
        return _draw_bridges(grid)
    hi, ends, spanning = grid.hi, p.ends, cursors.spanning
    if spanning is None or cursors.spanned > 2 * n:
        cursors.connected = len(grid.trail)
        _span(grid)
        return False
    mended = {e for e, _, old_hi in grid.trail[cursors.connected:]
              if old_hi and not hi[e] and spanning[e]}
    cursors.connected = len(grid.trail)
    if len(mended) * MEND_SHARE > n:
        _span(grid)  # one walk of the board costs less than this many paths
        return False
    for e in mended:
        spanning[e] = 0
    for e in mended:
        path = _path(grid, *ends[e])
        if path is None:
            for f in mended:
                spanning[f] = 1  # as it was: true again once the search goes back
            raise Contradiction(None, CUT)
        for f in path:
            if not spanning[f]:
                spanning[f] = 1
                cursors.spanned += 1
        cursors.spanned -= 1
    return False


def _path(grid, a, b):
    """The edges of a path of possible links from a to b, or None if there is none. Walks
    grow from both ends, a layer at a time, the smaller first: a detour around a cut is
    found near it, and a part that closes is most often small."""
    hi, node_edges = grid.hi, grid.puzzle.node_edges
    via = [-1] * len(node_edges)          # the edge each node was reached by
    side = bytearray(len(node_edges))     # 1: reached from a, 2: from b
    side[a], side[b] = 1, 2
    layers = [[a], [b]]
    while layers[0] and layers[1]:
        walk = 0 if len(layers[0]) <= len(layers[1]) else 1
        mine = walk + 1
        reached = []
        for x in layers[walk]:
            for e, y in node_edges[x]:
                if hi[e]:
                    seen = side[y]
                    if not seen:
                        side[y] = mine
                        via[y] = e
                        reached.append(y)
                    elif seen != mine:
                        return _back(grid, via, x) + [e] + _back(grid, via, y)
        layers[walk] = reached
    return None


def _back(grid, via, x):
    """The edges from x back to the start of its walk."""
    ends, path = grid.puzzle.ends, []
    e = via[x]
    while e >= 0:
        path.append(e)
        a, b = ends[e]
        x = a if b == x else b
        e = via[x]
    return path


def _span(grid):
    """Make connect's certificate afresh: a tree of possible edges reaching every node
    (raises Contradiction if there is none)."""
    p = grid.puzzle
    hi, node_edges = grid.hi, p.node_edges
    cursors = looks(grid)
    cursors.spanning = None
    spanning = bytearray(len(p.ends))
    seen = bytearray(len(p))
    seen[0] = 1
    reached = [0]
    for x in reached:
        for e, y in node_edges[x]:
            if hi[e] and not seen[y]:
                seen[y] = 1
                spanning[e] = 1
                reached.append(y)
    if len(reached) < len(p):
        raise Contradiction(None, CUT)
    cursors.spanning, cursors.spanned = spanning, len(reached) - 1


def _draw_bridges(grid):
    """Draw a link on every bridge of the possible links; raise Contradiction if they do not
    reach every node. Returns True if anything changed."""
    p = grid.puzzle
    n = len(p)
    cursors = looks(grid)
    cursors.spanning = None
    spanning = bytearray(len(p.ends))  # the walk's tree: connect's certificate
    order, low = [-1] * n, [0] * n
    bridges, reached = bridges_from(p.node_edges, grid.hi, 0, order, low, 0, spanning)
    if reached < n:
        raise Contradiction(None, CUT)
    cursors.spanning, cursors.spanned = spanning, n - 1
    changed = False
    for e in bridges:
        changed |= grid.raise_lo(e, 1)
    return changed


def bridges_from(node_edges, bound, root, order, low, clock, tree=None):
    """Tarjan's walk from `root` over the edges with bound[e] > 0: the bridges it meets, and
    the clock after it (the nodes reached, if it starts at 0). `order[i]` (-1: not reached
    yet) is i's visit time, `low[i]` the earliest time i's subtree reaches by one back edge;
    `tree`, if given, marks the walk's edges."""
    order[root] = low[root] = clock
    clock += 1
    bridges = []
    stack = [(root, -1, iter(node_edges[root]))]
    while stack:
        i, via, edges = stack[-1]
        for e, j in edges:
            if not bound[e] or e == via:
                continue
            if order[j] < 0:
                order[j] = low[j] = clock
                clock += 1
                if tree is not None:
                    tree[e] = 1
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
    return bridges, clock


def propagate(grid, stats=None, whole=True, probing=False, slack_too=True, walks_too=True):
    """Apply every rule until none finds anything more (or raise Contradiction).

    A global rule runs only when its input changed since it last ran (`Grid.joined`,
    `Grid.cut`): it is the costly part of a round. With `whole` false only the node rules
    run, and the connectivity check once every edge is decided; the flags stay set, so the
    next whole propagation catches up. When `probing`, `connect` too waits until every edge
    is decided (measured, probes gain the least from it), and `balance` waits for a change
    of PROBE_BALANCE_AFTER bounds, or more where it rarely pays (`_balance_due`). Without
    `slack_too`, `slack` does not run (the search that learns, on boards with much spare).
    Without `walks_too`, the two rules that walk the board's edges (`connect`, `balance`)
    wait: the search that learns runs its nogoods first.
    """
    while True:
        if stats is not None:
            stats.round()
        settle(grid)
        if not whole:
            if grid.solved() and grid.cut:
                grid.cut = False
                connect(grid)
            return
        if grid.joined and not grid.solved():
            grid.joined = False
            changed = isolate(grid)
            if slack_too and grid.waste + 1 >= grid.spare:  # (nothing to do with more left)
                changed |= slack(grid)
            if changed:
                continue
        if not walks_too:
            return
        if grid.cut and (not probing or grid.solved()):
            grid.cut = False
            if connect(grid):
                continue
        if not probing:
            balance(grid)
        elif _balance_due(grid):
            _balance_in_probe(grid)
        return


def _balance_due(grid):
    """Whether a probe has changed enough bounds since `balance` last looked (or it never
    has) for a look to be worth it on this board."""
    cursors = looks(grid)
    if cursors.balanced < 0:
        return True
    after = PROBE_BALANCE_AFTER
    if cursors.parity_hits * PARITY_PAYS < cursors.parity_looks:
        after = PROBE_BALANCE_RARELY
    return len(grid.trail) - cursors.balanced >= after


def _balance_in_probe(grid):
    """`balance`, counting its looks and the contradictions they find on the grid."""
    cursors = looks(grid)
    cursors.parity_looks += 1
    try:
        balance(grid)
    except Contradiction:
        cursors.parity_hits += 1
        raise

