"""The connection rule: the possible links must reach every node, and on the first look an
edge whose loss would split them (a bridge) must carry at least one link.

The first look keeps a certificate of connection, a `Certificate` the engine holds for the
rule (`Rules.certificate`): a set of possible edges that joins every node (the walk's tree).
It stays true as the search goes back, since going back only makes edges possible again.
Later looks need only mend it: for each of its edges cut since, the cut edge's ends must
still meet, and the path that joins them goes into the certificate; a cut outside it changes
nothing. Bridges found after the first look rarely matter, and the search finds them
anyway.

The bridge's reason and the diagnosis of a board that falls apart stand beside the rule.
"""

from bot.facts import at_most
from bot.grid import CUT, Contradiction


def connect(rules):
    """Check the possible links connect every node; on the first look, draw the bridges."""
    grid = rules.grid
    n = len(grid.value)
    if n < 2:
        return False
    if rules.connected < 0:
        rules.connected = len(grid.trail)
        return _draw_bridges(rules)
    hi, certificate = grid.hi, rules.certificate
    if certificate is None or certificate.size > 2 * n:
        rules.connected = len(grid.trail)
        _span(rules)
        return False
    edges = certificate.edges
    mended = {e for e, _, old_hi in grid.trail[rules.connected:]
              if old_hi and not hi[e] and edges[e]}
    rules.connected = len(grid.trail)
    if len(mended) * rules.options.mend_share > n:
        _span(rules)  # one walk of the board costs less than this many paths
        return False
    certificate.mend(grid, mended)
    return False


class Certificate:
    """`connect`'s proof that the possible links join every node: a set of possible edges
    that does (`edges`, a 1 for each edge in it), true for every state back to where it was
    made; `size`, the edges it holds."""

    def __init__(self, edges, size):
        self.edges, self.size = edges, size

    def mend(self, grid, mended):
        """Join the ends of each edge in `mended` (cut since the last look) by a path of
        possible links, which goes into the certificate (Contradiction if none)."""
        edges, ends = self.edges, grid.ends
        for e in mended:
            edges[e] = 0
        for e in mended:
            path = _path(grid, *ends[e])
            if path is None:
                for f in mended:
                    edges[f] = 1  # as it was: true again once the search goes back
                raise Contradiction(None, CUT)
            for f in path:
                if not edges[f]:
                    edges[f] = 1
                    self.size += 1
            self.size -= 1


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
    ends, path = grid.ends, []
    e = via[x]
    while e >= 0:
        path.append(e)
        a, b = ends[e]
        x = a if b == x else b
        e = via[x]
    return path


def _span(rules):
    """Make the certificate afresh: a tree of possible edges reaching every node (raises
    Contradiction if there is none)."""
    grid = rules.grid
    p = grid.puzzle
    hi, node_edges = grid.hi, p.node_edges
    rules.certificate = None
    tree = bytearray(len(p.ends))
    seen = bytearray(len(p))
    seen[0] = 1
    reached = [0]
    for x in reached:
        for e, y in node_edges[x]:
            if hi[e] and not seen[y]:
                seen[y] = 1
                tree[e] = 1
                reached.append(y)
    if len(reached) < len(p):
        raise Contradiction(None, CUT)
    rules.certificate = Certificate(tree, len(reached) - 1)


def _draw_bridges(rules):
    """Draw a link on every bridge of the possible links; raise Contradiction if they do not
    reach every node. Returns True if anything changed."""
    grid = rules.grid
    p = grid.puzzle
    n = len(p)
    rules.certificate = None
    tree = bytearray(len(p.ends))  # the walk's tree: the certificate
    order, low = [-1] * n, [0] * n
    bridges, reached = bridges_from(p.node_edges, grid.hi, 0, order, low, 0, tree)
    if reached < n:
        raise Contradiction(None, CUT)
    rules.certificate = Certificate(tree, n - 1)
    changed = False
    for e in bridges:
        changed |= grid.raise_lo(e, 1)
    return changed


def bridges_from(node_edges, bound, root, order, low, clock, tree=None):
    """Tarjan's walk from `root` over edges with bound[e] > 0: its bridges and the clock after
    it (`order`, -1 unreached; `low`, by one back edge; `tree` marks the walk's edges)."""
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


# -- reasons ---------------------------------------------------------------------------------

def bridge_reason(grid, top, e, new_lo, new_hi, drawn):
    """Why edge e must carry a link: every other way out of one end's side is cut. None if
    e is no bridge, or the change is not its first link (`Rule.reason`'s arguments)."""
    if new_lo != 1 or grid.lo[e]:
        return None
    p = grid.puzzle
    a, b = p.ends[e]
    side = reachable(grid.hi, p.node_edges, a, e)
    if b in side:
        return None
    return [at_most(f, 0) for x in side for f, y in p.node_edges[x]
            if f != e and y not in side]


def reachable(bound, node_edges, start, without):
    """The nodes reached from `start` through edges with bound[e] > 0, but `without`."""
    seen = {start}
    stack = [start]
    while stack:
        x = stack.pop()
        for f, y in node_edges[x]:
            if bound[f] and f != without and y not in seen:
                seen.add(y)
                stack.append(y)
    return seen


def smallest_cut(grid, top, hint=None):
    """If the possible links fall apart: the cut edges around the part with the fewest.
    (`Rule.met`'s arguments.)"""
    p = grid.puzzle
    hi, node_edges = grid.hi, p.node_edges
    label = [-1] * len(p)
    best = None
    for start in range(len(p)):
        if label[start] >= 0:
            continue
        label[start] = start
        part = [start]
        for x in part:
            for f, y in node_edges[x]:
                if hi[f] and label[y] < 0:
                    label[y] = start
                    part.append(y)
        if len(part) == len(p):
            return None
        cut = [at_most(f, 0) for x in part for f, y in node_edges[x] if label[y] != start]
        if best is None or len(cut) < len(best):
            best = cut
    return best
