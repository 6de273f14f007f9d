"""The changing state of a solve: bounds on the links of every edge, and nothing else.

Edge `e` holds between `lo[e]` and `hi[e]` links (0..2); a solution is reached when every
`lo == hi`. `got[i]`/`cap[i]` are node i's sums of `lo`/`hi`, kept current as bounds move.
Every change is recorded on a trail, so `revert(mark)` undoes back to a saved point without
copying the state; `clone` makes an independent copy.

The grid also keeps the groups of nodes that drawn links join (`parent`, `next_member`), and
refuses at once a bound that leaves a node unable to reach its value, and a link that
finishes a group smaller than the puzzle, which could then never join the rest. The
`Contradiction` then names the node (an end of the link), so the search blames it.

Each change is also told, as it is made, to the grid's `changes` (see `Changes`): the rule
engine gives its own. The grid only tells; what the rules make of it (their queue, flags
and cursors) and the search's memory are their owners' (`bot.rules.Rules`), kept and given
back by them, not by the grid's mark.
"""


class Changes:
    """What a grid tells of each change as it makes it (a listener the grid writes to, told
    directly: the hottest path of a solve). `dirty`: the nodes at the ends of each changed
    edge, in the order first told (a dict as an ordered set); `joined`: set when a low bound
    rises (groups or their needs changed); `cut`: set when a high bound falls to 0 (the
    possible links lost a connection). Whoever listens reads and clears them; a grid no one
    listens to tells a `Changes` of its own."""

    def __init__(self, nodes):
        self.dirty = dict.fromkeys(range(nodes))  # (every node: nothing looked at yet)
        self.joined = self.cut = True


class Mark(tuple):
    """A point `Grid.revert` goes back to (`Grid.mark`): only the grid reads what it holds.
    A bare tuple underneath: a mark is made at every probe and branch."""
    __slots__ = ()


class Contradiction(Exception):
    """The state admits no solution. Every rule signals a dead end this one way; its
    arguments, where given, are the node it was met at and the rule that met it (`REGION`,
    `CUT`, `SLACK`, or `CLOSED` for a link that closes its group), so that its reason is
    looked for there first."""


REGION, CUT, SLACK, CLOSED = "region", "cut", "slack", "closed"


class Grid:
    """Mutable link bounds over an immutable Puzzle.

    Groups of nodes joined by drawn links (`isolate` reads them) are a union-find, joined
    by size, whose root holds the group's `size` and `need` (the links its nodes still
    lack); `next_member` threads each group's nodes in a circle. Each rise of a low bound
    notes in `joins` its group's root and the root it joined under it (-1 if none), which
    `revert` reads back rather than walk the tree again. A solution joins n islands with at
    least n - 1 edges, so of its links all but `spare` join two groups: the others (a second
    link on an edge, or a first one inside a group) are `waste`, never past `spare`.
    """

    def __init__(self, puzzle):
        self.puzzle = puzzle
        # The puzzle's tuples the bound changes and `revert` read, held here: one lookup less
        # on the hottest path.
        self.ends, self.value, self.crossings = puzzle.ends, puzzle.value, puzzle.crossings
        value = puzzle.value
        self.lo = [0] * len(puzzle.ends)
        self.hi = [min(2, value[a], value[b]) for a, b in puzzle.ends]
        self.got = [0] * len(puzzle)
        self.cap = [0] * len(puzzle)
        for (a, b), high in zip(puzzle.ends, self.hi):
            self.cap[a] += high
            self.cap[b] += high
        self.trail = []
        self.parent = list(range(len(puzzle)))
        self.size = [1] * len(puzzle)
        self.need = list(value)
        self.next_member = list(range(len(puzzle)))
        self.joins = []
        self.spare = sum(value) // 2 - (len(puzzle) - 1)
        self.waste = 0
        self.changes = Changes(len(puzzle))

    def clone(self):
        """An independent copy sharing only the immutable puzzle (the trail starts empty)."""
        other = Grid.__new__(Grid)
        other.puzzle = self.puzzle
        other.ends, other.value, other.crossings = self.ends, self.value, self.crossings
        other.lo, other.hi = self.lo[:], self.hi[:]
        other.got, other.cap = self.got[:], self.cap[:]
        other.trail = []
        other.parent, other.size, other.need = self.parent[:], self.size[:], self.need[:]
        other.next_member, other.joins = self.next_member[:], []
        other.spare, other.waste = self.spare, self.waste
        other.changes = Changes(len(self.puzzle))
        return other

    def mark(self):
        """A point to `revert` to."""
        return Mark((len(self.trail),))

    def revert(self, mark):
        """Undo every change made since `mark`."""
        trail, lo, hi, got, cap, ends = self.trail, self.lo, self.hi, self.got, self.cap, self.ends
        parent, size, next_member, joins = self.parent, self.size, self.next_member, self.joins
        need = self.need
        length, = mark
        # Each entry undoes one change: `raise_lo` moved only lo, `lower_hi` only hi.
        for _ in range(len(trail) - length):
            e, old_lo, old_hi = trail.pop()
            a, b = ends[e]
            d = lo[e] - old_lo
            if d:
                lo[e] = old_lo
                got[a] -= d
                got[b] -= d
                root, child = joins.pop()
                need[root] += 2 * d
                self.waste -= d - (child >= 0)
                if child >= 0:
                    # Undo the union this link made (the inverse of `raise_lo`'s).
                    parent[child] = child
                    size[root] -= size[child]
                    need[root] -= need[child]
                    next_member[root], next_member[child] = next_member[child], next_member[root]
            else:
                d = hi[e] - old_hi
                hi[e] = old_hi
                cap[a] -= d
                cap[b] -= d

    def mark_at(self, length):
        """A mark at trail `length`, earlier than now."""
        return Mark((length,))

    def changed_since(self, position):
        """The nodes at either end of an edge whose bounds changed after trail `position`;
        every node if `position` is -1 (nothing seen yet)."""
        if position < 0:
            return range(len(self.puzzle))
        ends = self.ends
        return {i for e, _, _ in self.trail[position:] for i in ends[e]}

    def raise_lo(self, e, n):
        """Require at least n links on edge e. Returns True if that changed anything.

        Raises Contradiction if the edge cannot carry n, if an end node would then have
        more links than its value, or if the link finishes a group smaller than the puzzle
        (named by the link's first end): found the moment it happens, a doomed probe stops
        early."""
        old = self.lo[e]
        if n <= old:
            return False
        if n > self.hi[e]:
            raise Contradiction()
        self.trail.append((e, old, self.hi[e]))
        self.lo[e] = n
        a, b = self.ends[e]
        changes = self.changes
        changes.joined = True
        dirty = changes.dirty
        dirty[a] = dirty[b] = None
        got, value = self.got, self.value
        got[a] += n - old
        got[b] += n - old
        parent, size, need = self.parent, self.size, self.need
        root = a
        while parent[root] != root:
            root = parent[root]
        child = -1
        if old == 0:
            other = b
            while parent[other] != other:
                other = parent[other]
            if root != other:
                if size[root] < size[other]:
                    root, other = other, root
                parent[other] = root
                size[root] += size[other]
                need[root] += need[other]
                nxt = self.next_member
                nxt[root], nxt[other] = nxt[other], nxt[root]
                child = other
        self.joins.append((root, child))
        need[root] -= 2 * (n - old)
        self.waste += n - old - (child >= 0)  # a link that joined two groups is no waste
        if got[a] > value[a]:
            raise Contradiction(a)
        if got[b] > value[b]:
            raise Contradiction(b)
        if not need[root] and size[root] < len(value):
            raise Contradiction(a, CLOSED)
        if old == 0:
            # A drawn link blocks every edge that crosses it.
            for f in self.crossings[e]:
                self.lower_hi(f, 0)
        return True

    def lower_hi(self, e, n):
        """Allow at most n links on edge e; True if that changed anything. Raises
        Contradiction if e carries more, or an end node (named) could no longer fill."""
        old = self.hi[e]
        if n >= old:
            return False
        if n < self.lo[e]:
            raise Contradiction()
        self.trail.append((e, self.lo[e], old))
        self.hi[e] = n
        a, b = self.ends[e]
        changes = self.changes
        if not n:
            changes.cut = True
        dirty = changes.dirty
        dirty[a] = dirty[b] = None
        cap, value = self.cap, self.value
        cap[a] -= old - n
        cap[b] -= old - n
        if cap[a] < value[a]:
            raise Contradiction(a)
        if cap[b] < value[b]:
            raise Contradiction(b)
        return True

    def draw(self, e, n):
        """Add n links on edge e (on top of those already drawn)."""
        self.raise_lo(e, self.lo[e] + n)

    def solved(self):
        """Every edge's link count is decided."""
        return self.lo == self.hi

    def links(self):
        """The drawn links as (x1, y1, x2, y2, n) tuples."""
        pos = self.puzzle.pos
        return [(*pos[a], *pos[b], n)
                for (a, b), n in zip(self.puzzle.ends, self.lo) if n]

    def valid(self):
        """True unless the state already rules out every solution.

        Checks each node against its value, crossing drawn links, a finished group cut off
        from the rest, and whether the links still possible can connect all nodes. Once
        every edge is decided, the links are checked afresh as an answer (`solves`).
        """
        p = self.puzzle
        if self.lo == self.hi:
            return solves(p, self.lo)
        for i, v in enumerate(p.value):
            if self.got[i] > v or self.cap[i] < v:
                return False
        for e, n in enumerate(self.lo):
            if n and any(self.lo[f] for f in p.crossings[e]):
                return False
            if not self.lo[e] <= self.hi[e]:
                return False
        if len(p) < 2:
            return True
        label, need, size = components(self, self.lo)
        if any(n == 0 and s < len(p) for n, s in zip(need, size)):
            return False
        return len(components(self, self.hi)[2]) == 1


def solves(puzzle, links):
    """Whether `links` (a count per edge) solve the puzzle, counted afresh from the counts
    alone: every island's value met, no two drawn links crossing, every island joined."""
    n = len(puzzle)
    degree = [0] * n
    drawn = [[] for _ in range(n)]
    for e, ((a, b), count) in enumerate(zip(puzzle.ends, links)):
        if count:
            if any(links[f] for f in puzzle.crossings[e]):
                return False
            degree[a] += count
            degree[b] += count
            drawn[a].append(b)
            drawn[b].append(a)
    if degree != list(puzzle.value):
        return False
    if n < 2:
        return True
    seen = bytearray(n)
    seen[0] = 1
    reached = [0]
    for i in reached:
        for j in drawn[i]:
            if not seen[j]:
                seen[j] = 1
                reached.append(j)
    return len(reached) == n


def components(grid, bound):
    """Connected groups of nodes through edges with bound[e] > 0.

    Returns (label per node, remaining need per group, size per group): a group's need is
    how many links its nodes still lack beyond those in `grid.lo`.
    """
    p = grid.puzzle
    value, got, node_edges = p.value, grid.got, p.node_edges
    label = [-1] * len(p)
    need, size = [], []
    for start in range(len(p)):
        if label[start] >= 0:
            continue
        group = len(need)
        label[start] = group
        stack = [start]
        lacking = count = 0
        while stack:
            i = stack.pop()
            lacking += value[i] - got[i]
            count += 1
            for e, j in node_edges[i]:
                if bound[e] and label[j] < 0:
                    label[j] = group
                    stack.append(j)
        need.append(lacking)
        size.append(count)
    return label, need, size
