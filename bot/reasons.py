"""Why a bound moved, and why a state is dead: the facts behind each rule, rebuilt on demand.

The rules do not record why they move a bound (that would tax every solve). The search that
learns (`bot.learning`) asks here, only for the facts a contradiction needs: why a change
was made (`node_reason` for the node rules, read off any later state; `reason_for` for the
others, in the grid's state just before it), and `diagnose` a dead state. A fact is one
bound of one edge, numbered `4 * edge + kind`; a reason is a list of facts that hold and
imply the change (or the contradiction) by one rule.
"""

from itertools import chain

from bot.grid import CLOSED, CUT, REGION, SLACK
from bot.intersection import bridges_from

AT_LEAST_1, AT_LEAST_2, AT_MOST_1, AT_MOST_0 = range(4)


def bound_facts(grid, top, e, lows=True, highs=True):
    """The facts that state edge e's present bounds, leaving out what holds from the start."""
    facts = []
    low, high = grid.lo[e], grid.hi[e]
    if lows and low:
        facts.append(4 * e + low - 1)
    if highs and high < top[e]:
        facts.append(4 * e + 3 - high)
    return facts


def reason_for(grid, top, e, new_lo, new_hi, drawn=None):
    """Why a rule other than the node rules (whose reasons `node_reason` reads, from any
    later state) moved edge e's bounds to (new_lo, new_hi), in the grid's state just before:
    the facts that rule read there that imply the move, or None if no such rule's premises
    hold (the move is then kept as a fact of its own).

    `drawn`, a dict the caller keeps while it only takes changes back, holds what was
    worked out of the drawn links, by how many rises of a low bound the trail holds (the
    same count there means the same links drawn)."""
    p = grid.puzzle
    lo = grid.lo
    a, b = p.ends[e]
    if new_lo > lo[e]:
        if new_lo == 1:
            # A bridge: every other way out of one side is cut.
            side = _reachable(grid, a, e)
            if b not in side:
                return [4 * f + AT_MOST_0 for x in side for f, y in p.node_edges[x]
                        if f != e and y not in side]
        return None
    if new_hi == 0:
        for f in p.crossings[e]:
            if lo[f]:
                return [4 * f + AT_LEAST_1]
    return _isolation(grid, top, e, new_hi) or _slack(grid, e, new_hi, drawn)


def node_reason(grid, top, fact, fact_pos, position):
    """The node rules' reason (magicVal, the sieve) for the change at trail `position` that
    made `fact` (its strongest), read from the present state without going back to it: the
    bounds that held before it are those of the facts true now that became true earlier
    (`fact_pos`, the trail position of each true fact; bounds only tighten along a trail).
    None if neither rule explains the change: `reason_for` then looks at the other rules, in
    the state before it."""
    p = grid.puzzle
    lo, hi, value, edges_at = grid.lo, grid.hi, p.value, p.edges_at
    e, kind = fact >> 2, fact & 3
    new_lo, new_hi = kind + 1, 3 - kind  # (the one of the two that moved)
    a, b = p.ends[e]
    for x in (a, b):
        facts = []
        if kind < 2:
            # magicVal: the other edges could carry too little.
            room = value[x]
            for f in edges_at[x]:
                if f != e:
                    high = (0 if not hi[f] and fact_pos[4 * f + 3] < position else
                            1 if hi[f] < 2 and fact_pos[4 * f + 2] < position else top[f])
                    room -= high
                    if high < top[f]:
                        facts.append(4 * f + 3 - high)
            if room >= new_lo:
                return facts
        else:
            # The sieve: the node had only so many links left after its others.
            left = value[x]
            for f in edges_at[x]:
                if f != e:
                    low = (2 if lo[f] == 2 and fact_pos[4 * f + 1] < position else
                           1 if lo[f] and fact_pos[4 * f] < position else 0)
                    left -= low
                    if low:
                        facts.append(4 * f + low - 1)
            if left <= new_hi:
                return facts
    return None


def _slack(grid, e, new_hi, drawn=None):
    """The facts behind `slack` capping edge e at new_hi: the links drawn that join no two
    groups (`_waste`), and where the cap counts e's ends as one group, a path of links
    between them. None if the slack left does not cap e there."""
    left = grid.spare - grid.waste
    if left > 1:
        return None
    low = grid.lo[e]
    if new_hi < low + left:
        return None
    waste = _waste(grid) if drawn is None else drawn.get(len(grid.joins))
    if waste is None:
        waste = drawn[len(grid.joins)] = _waste(grid)
    if new_hi >= low + left + 1 or low:
        return waste  # (a drawn edge's ends are one group: it is its own path)
    a, b = grid.puzzle.ends[e]
    path = _drawn_path(grid, a, b)
    return None if path is None else waste + path


def _waste(grid):
    """Facts that make the drawn links hold `Grid.waste` links that join no two groups: a
    second link on each doubled edge, and the edges on cycles of the drawn links (the
    others, bridges among them, each joined two groups)."""
    lo = grid.lo
    doubled = lo.count(2)
    facts = []
    if grid.waste > doubled:  # some drawn links closed a cycle
        facts = [4 * e + AT_LEAST_1 for e in _cycle_edges(grid)[0] if lo[e] == 1]
    if doubled:
        facts += [4 * e + AT_LEAST_2 for e, low in enumerate(lo) if low == 2]
    return facts


def _cycle_edges(grid):
    """The drawn edges that lie on a cycle of drawn edges, and how many cycles they make: a
    bridge search over the groups that hold one (a group's drawn edges less its nodes, plus
    one), so trees cost a count of the drawn edges only."""
    p = grid.puzzle
    lo, node_edges, parent, size, next_member = (grid.lo, p.node_edges, grid.parent,
                                                  grid.size, grid.next_member)
    loops = {}
    for f, (a, _) in enumerate(p.ends):
        if lo[f]:
            while parent[a] != a:
                a = parent[a]
            loops[a] = loops.get(a, 0) + 1
    order = [-1] * len(p)
    low = [0] * len(p)
    on_cycles = []
    cycles = 0
    clock = 0
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


def _drawn_path(grid, a, b):
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
    ends, facts, x = grid.puzzle.ends, [], b
    while via[x] >= 0:
        f = via[x]
        facts.append(4 * f + AT_LEAST_1)
        x = ends[f][0] if ends[f][1] == x else ends[f][1]
    return facts


def _isolation(grid, top, e, new_hi):
    """The facts behind `isolate` capping edge e at new_hi: at new_hi + 1 links both ends
    would be full, and every other way out of their group(s) is already shut, so the
    group(s) would close smaller than the puzzle."""
    p = grid.puzzle
    lo, parent, need, size = grid.lo, grid.parent, grid.need, grid.size
    a, b = p.ends[e]
    # The group(s)' size and lack, as the grid keeps them at their roots.
    ra, rb = a, b
    while parent[ra] != ra:
        ra = parent[ra]
    while parent[rb] != rb:
        rb = parent[rb]
    joined, total = (size[ra], need[ra]) if ra == rb else (size[ra] + size[rb], need[ra] + need[rb])
    if joined == len(p) or total <= 0 or total % 2 or lo[e] + total // 2 - 1 > new_hi:
        return None
    members = _group(grid, a)
    if b not in members:
        members |= _group(grid, b)
    # Past the sieve's cap, the lack is all at the two ends: their other links say so.
    ends = [fact for x in {a, b} for f in p.edges_at[x] if f != e
            for fact in bound_facts(grid, top, f, highs=False)]
    drawn = _drawn_facts(grid, members)
    shut = _shut(grid, top, members, (a, b))
    if shut is None or len(drawn) <= len(ends) + len(shut):
        return drawn
    return ends + shut


def _drawn_facts(grid, members):
    """The links drawn at `members`: with the puzzle's values they fix what each still
    lacks (the area of a group, where `_shut` gives its border)."""
    lo, edges_at = grid.lo, grid.puzzle.edges_at
    return list({4 * f + lo[f] - 1 for x in members for f in edges_at[x] if lo[f]})


def _shut(grid, top, members, ends=()):
    """Why no link can leave the node set `members` (but at `ends`, whose fullness the
    caller explains): each way out is cut, or starts at a node already full. None if some
    way out is still open."""
    p = grid.puzzle
    lo, hi, got, value = grid.lo, grid.hi, grid.got, p.value
    facts = []
    full = set()
    for x in members:
        if x in ends:
            continue
        for f, y in p.node_edges[x]:
            if y in members:
                continue
            if not hi[f]:
                facts.append(4 * f + AT_MOST_0)
            elif got[x] == value[x]:
                if x not in full:
                    full.add(x)
                    facts.extend(fact for g in p.edges_at[x]
                                 for fact in bound_facts(grid, top, g, highs=False))
            else:
                return None
    return facts


def _group(grid, start):
    """The nodes joined to `start` by drawn links: the grid's group, read off the circle
    that threads its members."""
    next_member = grid.next_member
    members = {start}
    x = next_member[start]
    while x != start:
        members.add(x)
        x = next_member[x]
    return members


def _reachable(grid, start, without):
    """The nodes the possible links reach from `start`, leaving out edge `without`."""
    return _spread(grid.hi, grid.puzzle.node_edges, start, without)


def _spread(bound, node_edges, start, without):
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


def diagnose(grid, top, hint=None, rule=None):
    """The facts behind a contradiction visible in the grid's state: a node over or under
    its value, crossing links, a closed group smaller than the puzzle, possible links that
    do not connect, a region that cannot balance its links. None if none is visible.
    `hint` is the node where a rule met it, `rule` the rule that did, if it names itself: a
    global rule runs once the node rules have nothing left, and a link that closes its group
    is refused before anything else moves, so the checks before theirs would find nothing,
    and are skipped."""
    if rule == SLACK:
        return _waste(grid)
    if rule == CLOSED:
        # (1,155 of the worst board's hard case's 3,224 conflicts: their diagnosis 121 ->
        # 30 ms, where it walked every node and crossing before it reached the group)
        return _closed(grid, top, hint)
    if rule == REGION:
        found = _unbalanced_region(grid, top)
        if found is not None:
            return found
    elif rule == CUT:
        found = _smallest_cut(grid)
        if found is not None:
            return found
    p = grid.puzzle
    n = len(p)
    lo, hi, got, cap, value = grid.lo, grid.hi, grid.got, grid.cap, p.value
    # A contradiction is met where the last changes were: look there first.
    recent = [hint] if hint is not None else []
    recent += [x for e, _, _ in grid.trail[-8:] for x in p.ends[e]]
    for x in chain(recent, range(n)):
        if got[x] > value[x]:
            return [fact for f in p.edges_at[x] for fact in bound_facts(grid, top, f, highs=False)]
        if cap[x] < value[x]:
            return [fact for f in p.edges_at[x] for fact in bound_facts(grid, top, f, lows=False)]
    for e, low in enumerate(lo):
        if low:
            for f in p.crossings[e]:
                if lo[f]:
                    return [4 * e + AT_LEAST_1, 4 * f + AT_LEAST_1]
    parent, need, size = grid.parent, grid.need, grid.size
    for x in range(n):
        if parent[x] == x and need[x] <= 0 and size[x] < n:
            return _closed(grid, top, x)
    if n > 1:
        cut = _smallest_cut(grid)
        if cut is not None:
            return cut
    return _unbalanced_region(grid, top)


def _closed(grid, top, x):
    """Why the group of `x`, whose links are all drawn, is closed: the ways out of it shut,
    or its drawn links, whichever holds fewer facts."""
    members = _group(grid, x)
    shut = _shut(grid, top, members)
    drawn = _drawn_facts(grid, members)
    return shut if shut is not None and len(shut) < len(drawn) else drawn


def _smallest_cut(grid):
    """If the possible links fall apart: the cut edges around the part with the fewest."""
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
        cut = [4 * f + AT_MOST_0 for x in part for f, y in node_edges[x] if label[y] != start]
        if best is None or len(cut) < len(best):
            best = cut
    return best


def _unbalanced_region(grid, top):
    """The facts behind the region of undecided edges, with the fewest, that `balance`
    refutes: where its edges split it in two sides, the decided edges that leave it or join
    two nodes of one side (a link between the sides counts for both alike); otherwise the
    decided edges around it, its missing total being odd. None if every region balances."""
    p = grid.puzzle
    lo, hi, got, cap = grid.lo, grid.hi, grid.got, grid.cap
    value, node_edges = p.value, p.node_edges
    seen = bytearray(len(p))
    side = bytearray(len(p))
    best = None
    for start in range(len(p)):
        if seen[start] or got[start] == cap[start] == value[start]:
            continue  # (a finished node is a region of its own, and balances)
        seen[start] = 1
        region = [start]
        missing = [0, 0]
        two_sides = True
        for x in region:
            missing[side[x]] += value[x] - got[x]
            for f, y in node_edges[x]:
                if lo[f] != hi[f]:
                    if not seen[y]:
                        seen[y] = 1
                        side[y] = 1 - side[x]
                        region.append(y)
                    elif side[y] == side[x]:
                        two_sides = False
        if missing[0] != missing[1] if two_sides else (missing[0] + missing[1]) % 2:
            inside = set(region)
            read = {f for x in region for f, y in node_edges[x] if lo[f] == hi[f] and
                    (y not in inside or (two_sides and side[x] == side[y]))}
            facts = [fact for f in read for fact in bound_facts(grid, top, f)]
            if best is None or len(facts) < len(best):
                best = facts
    return best
