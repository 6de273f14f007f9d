"""The walk: a local search beside the search that learns, on boards that are nearly trees.

The search that learns (`bot.learning`) fixes one bound at a time and must refute every dead
end it enters. On boards whose solution is a spanning tree plus a few links (every cell an
island, or rows of islands, with loops: `puzzles/stress/tree`) a wrong choice is often
refuted only hundreds of levels deeper, and the search could run for minutes. The walk
looks at the whole board at once and never decides anything:

1. *Fill*: give every island exactly its value, within the root's bounds and with no two
   links crossing. Links are spread at random, then each island still short is made whole
   by an alternating path: a link added at the short island, one taken off where that
   leaves one too many, and so on until a link lands on another short island.
2. *Join*: while the links make more than one group, a move takes a link off a random edge
   and makes its two ends whole again by a random alternating path between them, so every
   island keeps its value. A move is kept if the groups do not grow in number, and one in
   `Options.walk_worse` that adds one group is kept too (a way out of a dead end). Half the moves
   start at an island outside the largest group: that is where groups can join, and a move
   deep inside the largest group rarely changes anything. Where the path takes a link off,
   it takes a loose one if it can (doubled, or on a cycle: it splits no group).
3. After `Options.walk_fill_moves` moves without an answer, fill afresh.

A fill starts from the root's bounds, or from counts the search hands over (`refill`): the
search's fullest state. Its decided edges start at their counts, then the spread and the
paths run as above over every open edge, so a few of them move (Kissat starts its local
search from the CDCL search's phases alike).

On a board where the walk does not run, one fill still sets the counts the search's first
descent follows (`filled`).

The walk can find an answer but can never prove there is none. So it takes turns with the
search that learns. Between turns the search follows the fewest groups the walk has met: an
island-exact state, short only of connection. It gives each answer once, and from an answer
its moves that keep one group lead to others, so a count of solutions takes its answers too.
"""

import random
from itertools import permutations

from bot.grid import components, solves
from bot.options import DEFAULT
from bot.rules.connect import bridges_from

# Islands a search takes in one turn of `Groups.among` (one a turn would spend more on the
# turns than on the islands).
_TURN = 8
_GIVE_UP_FILLS = 3  # fills in a row that leave an island short: the walk stops
_STOP_EVERY = 64  # steps between the asks whether to end a turn early (a few ms apart)

# Every order of an island's (at most four) edges: one draw picks an order, where a shuffle
# would draw once an edge.
_ORDERS = [list(permutations(range(d))) for d in range(5)]


def loose_links(node_edges, count):
    """Per edge, 1 if a link can come off it without splitting its group: the edge is
    doubled, or no bridge of the links (it lies on a cycle)."""
    n = len(node_edges)
    order, low = [-1] * n, [0] * n
    bridges = set()
    clock = 0
    for root in range(n):
        if order[root] < 0:
            found, clock = bridges_from(node_edges, count, root, order, low, clock)
            bridges.update(found)
    return bytearray(1 if c > 1 or (c and e not in bridges) else 0 for e, c in enumerate(count))


def filled(grid, seed=DEFAULT.seed, options=DEFAULT):
    """One fill from the bounds `grid` holds now: a count per edge that gives every island
    its value, no two links crossing; None if the fill's paths run out (as they do on most
    boards with crossings)."""
    walk = Walk(grid, seed, options)
    walk.fill()
    return walk.count


class Walk:
    """A local search over link counts, from the bounds `grid` holds now (its root)."""

    def __init__(self, grid, seed=DEFAULT.seed, options=DEFAULT):
        p = grid.puzzle
        self.puzzle = p
        self.options = options
        self.lo, self.hi, self.got = grid.lo[:], grid.hi[:], grid.got[:]
        self.rng = random.Random(seed)
        self.stop = None    # a callable that says when to end a turn early, or None
        self.count = None   # links per edge once filled (None: to fill)
        self.start = None   # counts the next fill starts from (-1: open), or None: the root
        self.groups = 0     # how many groups the links make
        self.moves = 0      # moves since the last fill
        self.failed = 0     # fills in a row that failed
        self.best = None    # the counts of the fewest groups met since the last fill
        self.best_groups = 0
        self.parts = Groups(p.node_edges)  # the groups the links make, labelled
        self.focus = []     # edges at islands outside the largest group, as last looked at
        self.answers = set()  # the answers given, each once
        self.loose = None     # `loose_links` of the counts, as last looked at
        self.orders = [_ORDERS[len(around)] for around in p.node_edges]  # `_ORDERS` per island

    def run(self, moves):
        """Take up to `moves` more steps; an answer (links per edge) not given before if
        one is found, else None. A fill counts as one step. `stop`, if set, is asked every
        `_STOP_EVERY` steps whether to end the turn now (a long turn on a big board outlasts
        the wait CodinGame allows between lines)."""
        stop = self.stop
        for step in range(moves):
            if stop is not None and not step % _STOP_EVERY and step and stop():
                return None
            if self.count is None or self.moves >= self.options.walk_fill_moves:
                if self.failed >= _GIVE_UP_FILLS:
                    return None
                self.fill()
                continue
            if self.groups == 1:
                answer = tuple(self.count)
                if answer not in self.answers:
                    if not solves(self.puzzle, self.count):
                        self.count = None  # (cannot happen: every move keeps the values)
                        continue
                    self.answers.add(answer)
                    return list(answer)
                # An answer given before: the moves that keep one group lead to others.
            self.move()
        return None

    # -- fill ---------------------------------------------------------------------------
    def refill(self, start):
        """Fill afresh at the next step, from `start` (a count per edge within the root's
        bounds, -1 where open) rather than from the root alone."""
        self.start, self.count = start, None

    def fill(self):
        """Counts that give every island its value (count None if the paths run out), and
        each island's group labelled afresh."""
        count, short = self._start_counts()
        self._spread(count, short)
        self.count, self.moves = count, 0
        if not self._make_whole(short):
            self.count = None
            self.failed += 1
            return
        self.failed = 0
        # (`components` reads a grid's `puzzle` and `got`, which the walk holds for its root.)
        label, _, size = components(self, count)
        self.parts.label_afresh(label, size)
        self.groups = len(size)
        self.best, self.best_groups = count[:], self.groups

    def _start_counts(self):
        """The root's low bounds, raised to the counts `refill` handed over: (count per edge,
        links each island still lacks)."""
        ends, count = self.puzzle.ends, self.lo[:]
        short = [v - g for v, g in zip(self.puzzle.value, self.got)]
        if self.start is not None:
            for e, n in enumerate(self.start):
                if n > count[e]:
                    a, b = ends[e]
                    short[a] -= n - count[e]
                    short[b] -= n - count[e]
                    count[e] = n
            self.start = None
        return count, short

    def _spread(self, count, short):
        """Links spread at random over the open edges: within each island's lack, never
        across a link."""
        rng, lo, hi = self.rng, self.lo, self.hi
        ends, crossings = self.puzzle.ends, self.puzzle.crossings
        order = [e for e in range(len(ends)) if hi[e] > lo[e]]
        rng.shuffle(order)
        for e in order:
            a, b = ends[e]
            room = min(hi[e] - count[e], short[a], short[b])
            if room <= 0 or (not count[e] and any(count[f] for f in crossings[e])):
                continue
            take = room if room == 1 or rng.random() < 0.5 else 1
            count[e] += take
            short[a] -= take
            short[b] -= take

    def _make_whole(self, short):
        """Each island still short made whole, in random order, by shortest alternating
        paths to other short islands; False if a path runs out."""
        needy = [i for i, s in enumerate(short) if s > 0]
        self.rng.shuffle(needy)
        for i in needy:
            while short[i] > 0:
                path = self.alternating_path(i, -1, lambda j, i=i: short[j] > 0 and j != i,
                                             len(short), True)
                if path is None or not self._apply(path):
                    return False
                short[i] -= 1
                short[path[-1][2]] -= 1
        return True

    # -- join ---------------------------------------------------------------------------
    def move(self):
        """One move: a link off a random edge, its ends made whole by an alternating path;
        undone if it leaves more groups (but one in `Options.walk_worse`)."""
        count = self.count
        self.moves += 1
        e = self._pick_edge()
        if count[e] <= self.lo[e]:
            return
        a, b = self.puzzle.ends[e]
        if self.rng.random() < 0.5:
            a, b = b, a
        count[e] -= 1
        path = self.alternating_path(b, e, lambda j: j == a, self.options.walk_reach, False)
        if path is None:
            count[e] += 1
            return
        # Only the groups of the changed edges' ends can change. The labels give those
        # before the move; searches from the ends count those after, rather than a walk of
        # the whole board each move.
        ends = [a, b] + [i for f, _, _ in path for i in self.puzzle.ends[f]]
        label = self.parts.label
        touched = {label[i] for i in ends}
        if not self._apply(path):
            count[e] += 1
            return
        if not self._keep(ends, touched):
            self._undo(path)
            count[e] += 1

    def _pick_edge(self):
        """The edge a move starts at: one at an island outside the largest group in
        `Options.walk_focus` of the moves, else any. Looks again at the focus and at the
        loose links when due."""
        options, rng = self.options, self.rng
        if self.moves % options.walk_focus_every == 1:
            self.focus = self.parts.outside_largest()
        if self.moves % options.walk_loose_every == 1:
            self.loose = loose_links(self.puzzle.node_edges, self.count)
        if self.focus and rng.random() < options.walk_focus:
            return self.focus[int(rng.random() * len(self.focus))]
        return rng.randrange(len(self.count))

    def _keep(self, ends, touched):
        """Whether a move made is kept: yes if its links make no more groups than before,
        and in one case of `Options.walk_worse` if one more (a way out of a dead end).
        `touched`: the groups of the move's `ends` before it. A kept move's groups, labels
        and best counts are noted."""
        parts = self.parts
        after, walked = parts.among(ends, self.count)
        groups = self.groups + after - len(touched)
        worse = groups - self.groups
        if worse > 0 and (worse > 1 or self.rng.random() * self.options.walk_worse >= 1):
            return False
        self.groups = groups
        parts.relabel(*walked(), touched, self.count)
        if groups < self.best_groups:
            self.best, self.best_groups = self.count[:], groups
        return True

    def alternating_path(self, start, banned, is_goal, reach, every):
        """A path from `start` that adds a link, takes one off, adds one, ... and ends with
        a link added at an island `is_goal` accepts: [(edge, +1 or -1, island reached)], or
        None past `reach` islands. Edge `banned` is left alone. With `every`, the shortest
        such path (a breadth-first search, as a fill needs); without, each island a link is
        added at goes on by one link taken off, at random but a loose one first: a longer,
        more random path, which joins groups far more often (as a move needs)."""
        count, lo, hi, loose, draw = self.count, self.lo, self.hi, self.loose, self.rng.random
        node_edges, crossings, orders_at = self.puzzle.node_edges, self.puzzle.crossings, self.orders
        came, queue = {start: None}, [start]  # island -> (edge added, island before, edge taken off)
        for u in queue:
            if len(came) > reach:
                return None
            adds, orders = node_edges[u], orders_at[u]
            for k in orders[int(draw() * len(orders))]:
                f, v = adds[k]
                if (f == banned or v in came or count[f] >= hi[f] or (
                        not count[f] and crossings[f] and any(count[g] for g in crossings[f]))):
                    continue
                if is_goal(v):
                    return self._path_to(came, u, f, v)
                came[v] = None
                takes, orders, chosen = node_edges[v], orders_at[v], None
                for k in orders[int(draw() * len(orders))]:
                    g, w = takes[k]
                    if g != f and g != banned and count[g] > lo[g] and w not in came:
                        if every:
                            came[w] = (f, u, g, v)
                            queue.append(w)
                        elif loose[g]:  # it splits no group: taken off first
                            chosen = g, w
                            break
                        else:
                            chosen = chosen or (g, w)
                if chosen is not None:
                    g, w = chosen
                    came[w] = (f, u, g, v)
                    queue.append(w)
        return None

    @staticmethod
    def _path_to(came, u, f, v):
        """The alternating path that reached u, then the link added on f to v."""
        path = [(f, 1, v)]
        while came[u] is not None:
            added, before, taken, via = came[u]
            path.append((taken, -1, u))
            path.append((added, 1, via))
            u = before
        path.reverse()
        return path

    def _apply(self, path):
        """Make the path's changes; False (and nothing changed) if two links would cross."""
        count, crossings = self.count, self.puzzle.crossings
        for f, step, _ in path:
            count[f] += step
        for f, step, _ in path:
            if step > 0 and count[f] and crossings[f] and any(count[g] for g in crossings[f]):
                self._undo(path)
                return False
        return True

    def _undo(self, path):
        count = self.count
        for f, step, _ in path:
            count[f] -= step


class Groups:
    """The groups a walk's links make, kept true move by move: each island's `label` and
    each label's `size`; and the searches that count the groups of a move's ends."""

    def __init__(self, node_edges):
        self.node_edges = node_edges
        self.label = []     # each island's group
        self.size = {}      # group label -> islands
        self.fresh = 0      # the next unused label
        self.seen = [0] * len(node_edges)   # `among`'s stamp per island...
        self.owner = [0] * len(node_edges)  # ...and the search that reached it
        self.stamp = 0

    def label_afresh(self, label, size):
        """Take `label` (per island) and `size` (per label, labels from 0)."""
        self.label, self.size, self.fresh = label, dict(enumerate(size)), len(size)

    def outside_largest(self):
        """The edges at islands outside the largest group."""
        size = self.size
        largest = max(size, key=size.__getitem__)
        node_edges = self.node_edges
        return sorted({f for i, g in enumerate(self.label) if g != largest
                       for f, _ in node_edges[i]})

    def relabel(self, parts, rest, touched, count):
        """Keep each island's group label true after a kept move. `parts`: the islands of
        each group the move's searches walked whole; `rest`: the move's ends in the one
        group left unwalked (its other islands keep the labels of the `touched` groups
        they came from)."""
        label, size = self.label, self.size
        for part in parts:
            new = self.fresh
            self.fresh += 1
            for i in part:
                size[label[i]] -= 1
                label[i] = new
            size[new] = len(part)
        if rest:
            self._join(rest, count)
        for old in touched:
            if not size[old]:
                del size[old]

    def _join(self, rest, count):
        """The groups of the ends `rest` are one now: the largest keeps its label, and the
        others take it, relabelled from those ends. Every piece of a group the move cut
        holds an end, and is joined within itself by its own links."""
        label, size = self.label, self.size
        keep = max({label[i] for i in rest}, key=size.__getitem__)
        node_edges = self.node_edges
        for i in rest:
            old = label[i]
            if old == keep:
                continue
            label[i] = keep
            moved = 1
            stack = [i]
            while stack:
                u = stack.pop()
                for f, v in node_edges[u]:
                    if count[f] and label[v] == old:
                        label[v] = keep
                        moved += 1
                        stack.append(v)
            size[keep] += moved
            size[old] -= moved

    def among(self, sources, count):
        """How many groups hold the islands `sources`, and a function that gives the
        islands of each group walked whole and the sources in the one group left unwalked
        (empty if none was). Most moves are undone, so only a kept one asks for those.

        A search grows from each source at once, _TURN islands a turn each; searches that
        meet join, and one that runs out has walked its whole group. Once one search is
        left running, the rest is its group: so a move inside the board's largest group
        costs the walks around its ends, not the board."""
        # Which search reached each island: lists marked with a stamp per call rather than
        # a dict built each call.
        self.stamp += 1
        stamp, seen, owner = self.stamp, self.seen, self.owner
        reached = []    # the islands reached, in order
        lead = []       # search -> the search it joined (itself while it leads)
        todo = []       # search -> islands still to look from
        for i in sources:
            if seen[i] != stamp:
                seen[i] = stamp
                owner[i] = len(lead)
                reached.append(i)
                lead.append(len(lead))
                todo.append([i])
        running, finished = self._grow(reached, lead, todo, count)
        return len(finished) + len(running), lambda: _walked(sources, reached, owner, lead,
                                                             finished, running)

    def _grow(self, reached, lead, todo, count):
        """Rounds of turns, so the searches stay within _TURN islands of one another, until
        at most one is left running: (those left running, those that ran out, each having
        walked its whole group)."""
        running, finished = list(range(len(lead))), []
        while len(running) > 1:
            if self._round(running, reached, lead, todo, finished, count):
                running = [k for k in running if lead[k] == k and k not in finished]
        return running, finished

    def _round(self, running, reached, lead, todo, finished, count):
        """A turn for each running search; True if one ran out or was taken over."""
        node_edges = self.node_edges
        stamp, seen, owner = self.stamp, self.seen, self.owner
        changed = False
        for k in running:
            if lead[k] != k:
                continue  # taken over: its islands are another search's to look from now
            islands = todo[k]
            for _ in range(_TURN):
                if not islands:
                    finished.append(k)
                    changed = True
                    break
                i = islands.pop()
                for f, j in node_edges[i]:
                    if count[f]:
                        if seen[j] != stamp:
                            seen[j] = stamp
                            owner[j] = k
                            reached.append(j)
                            islands.append(j)
                        elif owner[j] != k:
                            other = _leader(lead, owner[j])
                            if other != k:  # k takes it over, and looks from its islands too
                                lead[other] = k
                                islands.extend(todo[other])
                                changed = True
                            owner[j] = k  # (a shorter way to the leader next time)
        return changed


def _leader(lead, k):
    """The search that carries search k's islands on."""
    while lead[k] != k:
        k = lead[k]
    return k


def _walked(sources, reached, owner, lead, finished, running):
    """The islands of each group a search of `Groups.among` walked whole, and the
    sources in the one group left unwalked."""
    parts = {k: [] for k in finished}
    left = running[0] if running else -1
    wanted = set(sources)
    rest = []
    for i in reached:
        k = _leader(lead, owner[i])
        if k in parts:
            parts[k].append(i)
        elif k == left and i in wanted:
            rest.append(i)
    return list(parts.values()), rest
