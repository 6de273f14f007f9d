"""The deductions, each a named function over a State, cheapest first.

  settle_node   magicVal and sieve at one island: what its other directions can take
                forces a least amount each way; what it already holds caps each way
  isolate       a link that would complete a group smaller than the puzzle is refused
  connect       the possible links must join every island; a bridge among them is drawn

A rule that changes a bound records why through the State; one that finds the bounds
impossible raises Contradiction.
"""

from referee.judge import geometry
from referee.lab.explain.state import Contradiction, cell, direction, edge_name, links


def settle_node(state, node):
    """magicVal and sieve at `node`, until neither changes a bound there."""
    p = state.puzzle
    value, around = p.value[node], p.node_edges[node]
    lo, hi = state.lo, state.hi
    read = (p.pos[node],) + tuple(p.pos[other] for _, other in around)
    me = cell(p, node)
    while True:
        held = sum(lo[e] for e, _ in around)
        room = sum(hi[e] for e, _ in around)
        if held > value:
            raise Contradiction(f"{me} would hold {held} links, more than its {value}")
        if room < value:
            raise Contradiction(f"{me} would need {value} links but could take at most {room}")
        for e, other in around:
            way = direction(p, node, other)
            elsewhere = held - lo[e]
            cap = value - elsewhere
            if hi[e] > cap:
                state.lower_hi(e, cap, "sieve", read, lambda: _sieve(me, value, elsewhere, cap, way))
                break
            rest = room - hi[e]
            need = value - rest
            if lo[e] < need:
                state.raise_lo(e, need, "magicVal", read,
                               lambda: _magic(p, me, value, around, e, rest, need, way))
                break
        else:
            return


def _sieve(me, value, elsewhere, cap, way):
    if cap == 0:
        return f"{me} is a {value} and already has its {links(value)}: no link goes {way}"
    if elsewhere == 0:
        return f"{me} is a {value}: at most {links(cap, 'go')} {way}"
    return (f"{me} is a {value} and already has {links(elsewhere)} elsewhere: "
            f"at most {links(cap, 'go')} {way}")


def _magic(p, me, value, around, e, rest, need, way):
    if len(around) == 1:
        return f"{me} is a {value} with one neighbour: {links(need, 'go')} {way}"
    others = len(around) - 1
    if rest == 2 * others:
        return (f"{me} needs {value} links from {len(around)} directions, at most 2 each: "
                f"at least {links(need, 'go')} {way}")
    ways = "its other direction" if others == 1 else f"its other {others} directions"
    return (f"{me} needs {links(value)} and {ways} can take at most {rest}: "
            f"at least {links(need, 'go')} {way}")


def groups(puzzle, lo):
    """Each node's group (the nodes its drawn links join): (group per node, members per group)."""
    drawn = [puzzle.ends[e] for e in range(len(puzzle.ends)) if lo[e]]
    members = geometry.groups(range(len(puzzle.pos)), drawn)
    group = [0] * len(puzzle.pos)
    for g, found in enumerate(members):
        for node in found:
            group[node] = g
    return group, members


def isolate(state):
    """Refuse links that would complete a group smaller than the puzzle; True if any bound moved."""
    p, lo, hi = state.puzzle, state.lo, state.hi
    total = len(p.pos)
    group, members = groups(p, lo)
    lack = [sum(p.value[n] - sum(lo[e] for e in p.edges_at[n]) for n in found)
            for found in members]
    for g, found in enumerate(members):
        if lack[g] == 0 and len(found) < total:
            raise Contradiction(f"the group of {len(found)} island(s) around {cell(p, found[0])} "
                                f"would be complete and cut off from the other {total - len(found)}")
    moved = False
    for e, (a, b) in enumerate(p.ends):
        ga, gb = group[a], group[b]
        if ga == gb or not hi[e]:
            continue
        t = lack[ga]
        size = len(members[ga]) + len(members[gb])
        if lack[gb] == t and 0 < t <= hi[e] and size < total:
            read = tuple(p.pos[n] for n in members[ga] + members[gb])
            state.lower_hi(e, t - 1, "isolation", read, lambda: _closed(p, a, b, t, size, total))
            moved = True
    return moved


def _closed(p, a, b, t, size, total):
    cut = f"cut off from the other {total - size} island(s)"
    if size == 2:
        return (f"{cell(p, a)} and {cell(p, b)} are a {p.value[a]} and a {p.value[b]}: "
                f"{links(t)} between them would leave the pair {cut}: at most {t - 1}")
    return (f"{links(t)} between {cell(p, a)} and {cell(p, b)} would complete a group of "
            f"{size} islands {cut}: at most {t - 1}")


def connect(state):
    """The possible links must join every island; draw each bridge. True if any bound moved."""
    p = state.puzzle
    total = len(p.pos)
    reached, found = _bridges(p, state.hi)
    if reached < total:
        raise Contradiction(f"{total - reached} island(s) could never reach {cell(p, 0)}: "
                            "the islands would split")
    moved = False
    for e, child, size in found:
        if state.lo[e] == 0:
            a, b = p.ends[e]
            near = child
            side = min(size, total - size)
            if side != size:   # name the smaller side's island
                near = b if child == a else a
            read = tuple(p.pos[n] for n in p.ends[e])
            state.raise_lo(e, 1, "connectivity", read, lambda: (
                f"every way from the {side} island(s) on {cell(p, near)}'s side to the other "
                f"{total - side} goes through {edge_name(p, e)}: at least 1 link goes there"))
            moved = True
    return moved


def _bridges(p, hi):
    """(nodes reached from node 0, bridges) over the edges that may hold a link.

    A bridge is (edge, the node below it in the depth-first tree, the size of that side).
    Tarjan's low-link walk, written with an explicit stack.
    """
    count = len(p.pos)
    order, low, size = [-1] * count, [0] * count, [1] * count
    order[0], clock = 0, 1
    stack, found = [(0, -1, iter(p.node_edges[0]))], []
    while stack:
        node, via, around = stack[-1]
        for e, other in around:
            if not hi[e] or e == via:
                continue
            if order[other] < 0:
                order[other] = low[other] = clock
                clock += 1
                stack.append((other, e, iter(p.node_edges[other])))
                break
            low[node] = min(low[node], order[other])
        else:
            stack.pop()
            if stack:
                parent = stack[-1][0]
                low[parent] = min(low[parent], low[node])
                size[parent] += size[node]
                if low[node] > order[parent]:
                    found.append((via, node, size[node]))
    return clock, found
