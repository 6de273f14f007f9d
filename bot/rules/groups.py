"""The group rules: what the groups joined by drawn links allow.

- `isolate`: no link may close a finished group smaller than the whole puzzle (two 1s, a
  2=2 and every larger case alike). A link that would do it is refused by `Grid.raise_lo`;
  this rule caps the edges that would.
- `slack`: a solution joins its n islands with at least n - 1 edges, so at most
  `Grid.spare` of its links join no two groups (a second link on an edge, a first one
  inside a group); `Grid.waste` counts those drawn. With `left` of them left, an edge takes
  at most `left` more links inside a group, and one more between two groups. It bites once
  one or none is left, on boards whose solutions are nearly trees.

Each rule's reason (the facts it read) and the diagnosis of a closed group stand beside it.
The groups themselves are kept by the grid (`Grid.parent`, `Grid.need`, `Grid.next_member`).
"""

from bot.facts import at_least, at_most, bound_facts
from bot.grid import SLACK, Contradiction
from bot.rules.connect import bridges_from


def isolate(rules):
    """Cap every edge below the count that would close a group smaller than the puzzle.

    Adding k links to an edge lowers the remaining need of the group(s) it joins by 2k; at 0
    the group can take no more links. Only groups a link joined or whose need fell since
    the last look can give a new verdict, so only their edges are looked at. Returns True
    if anything changed.
    """
    grid = rules.grid
    starts = joined_since(grid, rules.isolated)
    rules.isolated = len(grid.trail)
    lo, hi, got, value, node_edges = grid.lo, grid.hi, grid.got, grid.value, grid.puzzle.node_edges
    parent, size, need, next_member = grid.parent, grid.size, grid.need, grid.next_member
    whole = len(value)
    changed = False
    for group in roots(grid, starts):
        lacking = need[group]  # never 0 short of the whole: `Grid.raise_lo` refuses that
        if lacking > 4:
            continue  # links come at most two to an edge: only a need of 4 or less closes
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
                        # j's own need is part of its group's: often enough to rule it out.
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


def slack(rules):
    """Cap every edge at what the board's slack leaves it. True if anything changed."""
    grid = rules.grid
    left = grid.spare - grid.waste
    if left > 1:
        return False
    if left < 0:
        raise Contradiction(None, SLACK)
    at, was = rules.slackened  # where it last looked, and the slack left there
    starts = joined_since(grid, at) if was == left else None
    rules.slackened = len(grid.trail), left
    if starts is not None:  # the same slack: only edges groups joined since can be capped
        return _slack_in_groups(grid, starts, left)
    lo, hi, ends, parent = grid.lo, grid.hi, grid.ends, grid.parent
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
    for group in roots(grid, starts):
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


def roots(grid, starts):
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


def joined_since(grid, position):
    """One end of each edge whose low bound rose after trail `position` (every node if -1):
    only there did a group grow or its need fall (both ends are then in one group)."""
    if position < 0:
        return range(len(grid.puzzle))
    lo, ends = grid.lo, grid.ends
    return {ends[e][0] for e, old_lo, _ in grid.trail[position:] if lo[e] != old_lo}


# -- reasons ---------------------------------------------------------------------------------

def isolation_reason(grid, top, e, new_lo, new_hi, drawn):
    """The facts behind `isolate` capping edge e at new_hi: at new_hi + 1 links both ends
    would be full, and every other way out of their group(s) is already shut. None if the
    group(s) do not cap e there, or the low bound moved (`Rule.reason`'s arguments)."""
    p = grid.puzzle
    lo, parent, need, size = grid.lo, grid.parent, grid.need, grid.size
    a, b = p.ends[e]
    ra, rb = a, b
    while parent[ra] != ra:
        ra = parent[ra]
    while parent[rb] != rb:
        rb = parent[rb]
    joined, total = (size[ra], need[ra]) if ra == rb else (size[ra] + size[rb], need[ra] + need[rb])
    if (new_lo > lo[e] or joined == len(p) or total <= 0 or total % 2
            or lo[e] + total // 2 - 1 > new_hi):
        return None
    members = group_of(grid, a)
    if b not in members:
        members |= group_of(grid, b)
    # Past the sieve's cap, the lack is all at the two ends: their other links say so.
    ends = [fact for x in {a, b} for f in p.edges_at[x] if f != e
            for fact in bound_facts(grid, top, f, highs=False)]
    area = _drawn_facts(grid, members)
    shut = _shut(grid, top, members, (a, b))
    if shut is None or len(area) <= len(ends) + len(shut):
        return area
    return ends + shut


def slack_reason(grid, top, e, new_lo, new_hi, drawn=None):
    """The facts behind `slack` capping edge e at new_hi: the links drawn that join no two
    groups (`waste_facts`), and where the cap counts e's ends as one group, a path of links
    between them. None if the slack left does not cap e there. `drawn`, a dict the caller
    keeps while it only takes changes back, holds the waste by how many rises of a low bound
    the trail holds (the same count there means the same links drawn). None too if the low
    bound moved."""
    left = grid.spare - grid.waste
    if left > 1:
        return None
    low = grid.lo[e]
    if new_hi < low + left or new_lo > low:
        return None
    waste = waste_facts(grid) if drawn is None else drawn.get(len(grid.joins))
    if waste is None:
        waste = drawn[len(grid.joins)] = waste_facts(grid)
    if new_hi >= low + left + 1 or low:
        return waste  # (a drawn edge's ends are one group: it is its own path)
    path = drawn_path(grid, *grid.ends[e])
    return None if path is None else waste + path


def waste_facts(grid, top=None, hint=None):
    """Facts that make the drawn links hold `Grid.waste` links that join no two groups: a
    second link on each doubled edge, and the edges on cycles of the drawn links (the
    others, bridges among them, each joined two groups). (`Rule.met`'s arguments.)"""
    lo = grid.lo
    doubled = lo.count(2)
    facts = []
    if grid.waste > doubled:  # some drawn links closed a cycle
        facts = [at_least(e, 1) for e in cycle_edges(grid)[0] if lo[e] == 1]
    if doubled:
        facts += [at_least(e, 2) for e, low in enumerate(lo) if low == 2]
    return facts


def cycle_edges(grid):
    """The drawn edges on a cycle of drawn edges, and how many cycles they make (a bridge
    search over the groups that hold one, so trees cost a count of the drawn edges)."""
    p = grid.puzzle
    lo, node_edges, parent, size, next_member = (grid.lo, p.node_edges, grid.parent,
                                                  grid.size, grid.next_member)
    loops = {}
    for f, (a, _) in enumerate(p.ends):
        if lo[f]:
            while parent[a] != a:
                a = parent[a]
            loops[a] = loops.get(a, 0) + 1
    order, low = [-1] * len(p), [0] * len(p)
    on_cycles = []
    cycles = clock = 0
    for root, drawn in loops.items():
        if drawn < size[root]:
            continue
        cycles += drawn - size[root] + 1
        found, clock = bridges_from(node_edges, lo, root, order, low, clock)
        bridges = set(found)
        x = root
        while True:  # the group's drawn edges, each once, but its bridges
            for f, y in node_edges[x]:
                if lo[f] and x < y and f not in bridges:
                    on_cycles.append(f)
            x = next_member[x]
            if x == root:
                break
    return on_cycles, cycles


def drawn_path(grid, a, b):
    """Facts of a path of drawn links from a to b, or None if there is none."""
    lo, node_edges = grid.lo, grid.puzzle.node_edges
    via = {a: -1}
    queue = [a]
    for x in queue:
        if x == b:
            break
        for f, y in node_edges[x]:
            if lo[f] and y not in via:
                via[y] = f
                queue.append(y)
    if b not in via:
        return None
    ends, facts, x = grid.ends, [], b
    while via[x] >= 0:
        f = via[x]
        facts.append(at_least(f, 1))
        x = ends[f][0] if ends[f][1] == x else ends[f][1]
    return facts


def closed_group(grid, top):
    """The facts behind a group whose links are all drawn, smaller than the puzzle; None if
    there is none."""
    parent, need, size, n = grid.parent, grid.need, grid.size, len(grid.value)
    for x in range(n):
        if parent[x] == x and need[x] <= 0 and size[x] < n:
            return closed_reason(grid, top, x)
    return None


def closed_reason(grid, top, x):
    """Why the group of `x`, whose links are all drawn, is closed: the ways out of it shut,
    or its drawn links, whichever holds fewer facts."""
    members = group_of(grid, x)
    shut = _shut(grid, top, members)
    drawn = _drawn_facts(grid, members)
    return shut if shut is not None and len(shut) < len(drawn) else drawn


def _drawn_facts(grid, members):
    """The links drawn at `members`: with the puzzle's values they fix what each still
    lacks (the area of a group, where `_shut` gives its border)."""
    lo, edges_at = grid.lo, grid.puzzle.edges_at
    return list({at_least(f, lo[f]) for x in members for f in edges_at[x] if lo[f]})


def _shut(grid, top, members, ends=()):
    """Why no link can leave the node set `members` (but at `ends`, whose fullness the
    caller explains): each way out is cut, or starts at a node already full. None if some
    way out is still open."""
    p = grid.puzzle
    hi, got, value = grid.hi, grid.got, p.value
    facts = []
    full = set()
    for x in members:
        if x in ends:
            continue
        for f, y in p.node_edges[x]:
            if y in members:
                continue
            if not hi[f]:
                facts.append(at_most(f, 0))
            elif got[x] == value[x]:
                if x not in full:
                    full.add(x)
                    facts.extend(fact for g in p.edges_at[x]
                                 for fact in bound_facts(grid, top, g, highs=False))
            else:
                return None
    return facts


def group_of(grid, start):
    """The nodes joined to `start` by drawn links, read off the circle of its group."""
    next_member = grid.next_member
    members = {start}
    x = next_member[start]
    while x != start:
        members.add(x)
        x = next_member[x]
    return members
