"""The rule engine: the rules' own state beside a grid, and the schedules that run them.

Rules run cheapest first to a fixed point, going back to the node rules after any change a
global rule makes. Which rules run is a named `Schedule`:

- `FULL`: every rule, as at the root of a search;
- `NODES`: the node rules only (and `connect` once every edge is decided); the global rules'
  flags stay set, so the next full propagation catches up;
- `PROBE`: as `FULL`, but `connect` waits until every edge is decided and `balance` until a
  probe has moved enough bounds (probes gain the least from them);
- `LEARN_CHEAP` / `LEARN`: the search that learns runs its nogoods between the cheap rules and
  the two that sweep the board (`connect`, `balance`); each has a `_NO_SLACK` twin for boards
  where `slack`'s reasons span too much of the board to prune.

The engine reads what changed off the grid's trail (`nodes.settle`): the nodes at the ends
of each changed edge are queued for the node rules, and two flags tell the global rules
whether they can find anything new: `joined` (some `lo` rose, so groups or their needs
changed) and `cut` (some `hi` fell to 0, so the possible links lost a connection). A global
rule runs only when its flag is set: it is the costly part of a round, and most rounds
change neither.
"""

from bot.grid import CLOSED, CUT, REGION, SLACK
from bot.options import DEFAULT
from bot.rules import balance, connect, groups, nodes


class Schedule:
    """Which rules one propagation runs: `whole`, the global rules (else the node rules
    alone); `probing`, connect waits for a decided board and balance for enough changes;
    `slack`, the slack rule; `sweeps`, connect and balance (the rules that sweep the board).
    (Not a named tuple: the bot starts without importing `collections`.)"""

    __slots__ = ("whole", "probing", "slack", "sweeps")

    def __init__(self, whole=True, probing=False, slack=True, sweeps=True):
        self.whole, self.probing, self.slack, self.sweeps = whole, probing, slack, sweeps


FULL = Schedule()
NODES = Schedule(whole=False)
PROBE = Schedule(probing=True)
LEARN = FULL  # (a whole round of the search that learns runs every rule)
LEARN_CHEAP = Schedule(sweeps=False)
LEARN_NO_SLACK = Schedule(slack=False)
LEARN_CHEAP_NO_SLACK = Schedule(slack=False, sweeps=False)


class Rules:
    """The rule engine over one grid: its options, its queue and flags, and where each rule
    last looked.

    `dirty` holds the nodes queued for the node rules, in the order they were queued (a dict
    as an ordered set: a node queued again keeps its place), as of trail position `seen`
    (the changes after it are noted when the node rules next look);
    `joined` and `cut` are the global rules' flags. The cursors are trail positions up to
    which `balance`, `isolate`, `connect` and `slack` have looked (-1: nothing yet), and the
    slack left at `slack`'s last look. `mark` keeps the queue, flags and cursors beside the
    grid's mark and `revert` gives them back, so the rules look again only at what the
    revert undid: a mark taken before the first propagation (every node queued) gives every
    node back. `completed` lists the nodes `settle` found complete (a probe clears it
    first). `spanning` is `connect`'s certificate of connection, true for every state back
    to where it was made (going back only makes edges possible again).
    `parity_looks` and `parity_hits` count `balance`'s looks in probes and the
    contradictions they found: learned, so kept across revert. `memory`, where a search
    keeps one (`bot.branching.Memory`), hears of every dead end the node rules meet and of
    every revert.
    """

    def __init__(self, grid, options=DEFAULT):
        self.grid = grid
        self.options = options
        self.memory = None
        self.dirty = dict.fromkeys(range(len(grid.puzzle)))  # (every node: nothing looked at)
        self.joined = self.cut = True
        self.seen = 0
        self.balanced = self.isolated = self.connected = self.slackened = -1
        self.slack_left = None
        self.completed = []
        self.parity_looks = self.parity_hits = 0
        self.spanning = None  # connect's certificate; None: to be made
        self.spanned = 0      # how many edges it holds

    def mark(self):
        """A point to `revert` to: the grid's, its trail length, and the queue, flags and
        cursors. The queue and flags are kept as last noted: the changes since are still on
        the trail after a revert to the mark, and are noted then."""
        cursors = self.balanced, self.isolated, self.connected, self.slackened, self.slack_left
        state = self.seen, tuple(self.dirty), self.joined, self.cut, cursors
        return self.grid.mark(), len(self.grid.trail), state

    def revert(self, mark):
        """Undo every change made since `mark`, with the queue, flags and cursors."""
        board, length, (self.seen, pending, self.joined, self.cut, cursors) = mark
        self.balanced, self.isolated, self.connected, self.slackened, self.slack_left = cursors
        if self.memory is not None:
            self.memory.reverted(length, self.grid.trail, self.grid.ends)
        self.grid.revert(board)
        self.dirty = dict.fromkeys(pending)

    def undo(self, length):
        """Go back to trail `length`, forgetting where the rules looked (a trace reads the
        state there; the level's mark gives the cursors back when the search jumps)."""
        forgotten = length, (), True, True, (-1, -1, -1, -1, None)
        self.revert((self.grid.mark_at(length), length, forgotten))

    def caught_up(self):
        """The rules but `connect` have nothing left to find in the present state (as at a
        probe's end, replayed): no node queued, `joined` clear, isolate and balance looked."""
        grid = self.grid
        lo, hi = grid.lo, grid.hi
        for e, old_lo, _ in grid.trail[self.seen:]:  # (as `nodes.settle` notes them)
            if lo[e] == old_lo and not hi[e]:
                self.cut = True  # (the rest of the changes' notes is dropped)
        self.seen = len(grid.trail)
        self.dirty.clear()
        self.joined = False
        self.isolated = self.balanced = self.seen

    def blame(self, i):
        """Count a dead end against node i and its neighbours, where a search listens."""
        if self.memory is not None:
            self.memory.blame(i, [j for _, j in self.grid.puzzle.node_edges[i]])

    def propagate(self, schedule=FULL, stats=None):
        """Apply the `schedule`'s rules until none finds more (or raise Contradiction)."""
        grid = self.grid
        while True:
            if stats is not None:
                stats.round()
            nodes.settle(self)
            if not schedule.whole:
                if grid.solved() and self.cut:
                    self.cut = False
                    connect.connect(self)
                return
            if self.joined and not grid.solved():
                self.joined = False
                changed = groups.isolate(self)
                if schedule.slack and grid.waste + 1 >= grid.spare:
                    changed |= groups.slack(self)  # (it has nothing to do with more left)
                if changed:
                    continue
            if not schedule.sweeps:
                return
            if self.cut and (not schedule.probing or grid.solved()):
                self.cut = False
                if connect.connect(self):
                    continue
            if not schedule.probing:
                balance.balance(self)
            elif balance.due_in_probe(self):
                balance.balance_in_probe(self)
            return

    def reason(self, top, e, new_lo, new_hi, drawn=None):
        """Why a rule other than the node rules (whose reasons `nodes.node_reason` reads off
        any later state) moved edge e's bounds to (new_lo, new_hi), in the grid's state just
        before: the facts that rule read there, or None if no such rule's premises hold.
        `drawn` caches what was worked out of the drawn links (see `groups.slack_reason`)."""
        grid = self.grid
        if new_lo > grid.lo[e]:
            return connect.bridge_reason(grid, e) if new_lo == 1 else None
        if new_hi == 0:
            found = nodes.crossing_reason(grid, e)
            if found is not None:
                return found
        return (groups.isolation_reason(grid, top, e, new_hi)
                or groups.slack_reason(grid, e, new_hi, drawn))

    def diagnose(self, top, hint=None, rule=None):
        """The facts behind a contradiction visible in the grid's state, or None if none is.

        `hint` is the node where a rule met it, `rule` the rule that did, if it names
        itself: a global rule runs once the node rules have nothing left, and a link that
        closes its group is refused before anything else moves, so the checks before
        theirs would find nothing, and are skipped."""
        grid = self.grid
        if rule == SLACK:
            return groups.waste_facts(grid)
        if rule == CLOSED:
            return groups.closed_reason(grid, top, hint)
        if rule == REGION:
            found = balance.unbalanced_region(grid, top)
            if found is not None:
                return found
        elif rule == CUT:
            found = connect.smallest_cut(grid)
            if found is not None:
                return found
        found = nodes.dead_node(grid, top, hint)
        if found is None:
            found = groups.closed_group(grid, top)
        if found is None and len(grid.puzzle) > 1:
            found = connect.smallest_cut(grid)
        return found if found is not None else balance.unbalanced_region(grid, top)

