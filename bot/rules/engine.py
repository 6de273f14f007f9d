"""The rule engine: the rules' own state beside a grid, and the schedules that run them.

Each global rule is a `Rule`: its tag, when it is due, what it runs, its reason and its
diagnoses. A schedule is an ordered tuple of rules, cheapest first. `Rules.propagate` runs
the node rules to a fixed point, then each of the schedule's rules that is due, in order,
and goes back to the node rules after any that moved a bound. The named schedules:

- `FULL`: every rule, as at the root of a search (`isolate`, `slack`, `connect`,
  `balance`);
- `NODES`: the node rules, and `connect` once every edge is decided; the global rules'
  flags stay set, so the next full propagation catches up;
- `PROBE`: as `FULL`, but `connect` waits until every edge is decided and `balance` until a
  probe has moved enough bounds (probes gain the least from them);
- `LEARN_CHEAP` / `LEARN`: the search that learns runs its nogoods between the cheap rules and
  the two that sweep the board (`connect`, `balance`); each has a `_NO_SLACK` twin for boards
  where `slack`'s reasons span too much of the board to prune.

The engine gives its grid the `bot.grid.Changes` it reads: the grid queues the nodes at the
ends of each edge it changes for the node rules, and sets two flags that tell the global rules
whether they can find anything new: `joined` (some `lo` rose, so groups or their needs
changed) and `cut` (some `hi` fell to 0, so the possible links lost a connection). A rule
that waits on a flag is due only when it is set, and takes it: the global rules are the
costly part of a round, and most rounds change neither. The grid is told them as it
changes, not read them off its trail later: noting the trail's changes after each visit
cost the hard set 6% more CPU time (`bench --against`). The engine holds that `Changes`
rather than being it: a grid pointing back at its engine would be a cycle, so a solve's
state would wait for the cyclic collector rather than go when the solve ends (4-7% more
CPU time on boards solved in a few milliseconds).
"""

from bot.grid import CLOSED, CUT, REGION, SLACK, Changes
from bot.options import DEFAULT
from bot.rules import balance, connect, groups, nodes


class Rule:
    """A global rule as a schedule runs it and the engine asks it.

    `tag`: the rule a Contradiction it raises names; `due(rules)`: whether a round runs it
    now (taking the flag it waits on), or None for a rule that runs whenever the rule before
    it in the schedule does; `run(rules)`: True if it moved a bound; `met(grid, top, hint)`:
    the facts behind a contradiction it raised; `finds(grid, top)`: those behind one it sees
    in the state, None if none; `reason(grid, top, e, new_lo, new_hi, drawn)`: the facts it
    read to move edge e's bounds there, None if it did not. (Not a named tuple: the bot
    starts without importing `collections`.)"""

    def __init__(self, tag, due, run, met=None, finds=None, reason=None):
        self.tag, self.due, self.run = tag, due, run
        self.met, self.finds, self.reason = met, finds, reason


def _joined(rules):
    """Groups changed on a board not yet decided (a decided one keeps the flag)."""
    if rules.changes.joined and not rules.grid.solved():
        rules.changes.joined = False
        return True


def _cut(rules):
    """The possible links lost a connection."""
    if rules.changes.cut:
        rules.changes.cut = False
        return True


def _cut_decided(rules):
    """As `_cut`, on a board whose every edge is decided."""
    return rules.grid.solved() and _cut(rules)


def _always(rules):
    """(`balance` keeps its own cursor.)"""
    return True


ISOLATE = Rule(CLOSED, _joined, groups.isolate, groups.closed_reason, groups.closed_group,
               groups.isolation_reason)
# In `isolate`'s turn, on its look at the groups (it returns at once with more than one left).
SLACKEN = Rule(SLACK, None, groups.slack, groups.waste_facts, None, groups.slack_reason)
CONNECT = Rule(CUT, _cut, connect.connect, connect.smallest_cut, connect.smallest_cut,
               connect.bridge_reason)
BALANCE = Rule(REGION, _always, balance.balance, balance.unbalanced_region,
               balance.unbalanced_region)
# The probes' variants (their reasons and diagnoses are the rules' above, in `FULL`).
CONNECT_DECIDED = Rule(CUT, _cut_decided, connect.connect)
BALANCE_IN_PROBE = Rule(REGION, balance.due_in_probe, balance.balance_in_probe)

FULL = ISOLATE, SLACKEN, CONNECT, BALANCE
NODES = CONNECT_DECIDED,
PROBE = ISOLATE, SLACKEN, CONNECT_DECIDED, BALANCE_IN_PROBE
LEARN = FULL  # (a whole round of the search that learns runs every rule)
LEARN_CHEAP = ISOLATE, SLACKEN
LEARN_NO_SLACK = ISOLATE, CONNECT, BALANCE
LEARN_CHEAP_NO_SLACK = ISOLATE,


class Rules:
    """The rule engine over one grid: its options, its queue and flags, and where each rule
    last looked.

    `changes` (`bot.grid.Changes`), which the engine gives its grid to tell: `dirty` holds
    the nodes queued for the node rules, in the order they were queued (a dict as an
    ordered set: a node queued again keeps its place); `joined` and `cut` are the global
    rules' flags. The cursors are trail positions up to which `balance`, `isolate`,
    `connect` and `slack` have looked (-1: nothing yet), `slack`'s with the slack it saw
    there. `mark` keeps the queue, flags and cursors beside the grid's mark and `revert`
    gives them back, so the rules look again only at what the revert undid: a mark taken
    before the first propagation (every node queued) gives every node back. What a rule
    learned stays across revert, in an object of its own: `certificate`, `connect`'s proof of
    connection (`connect.Certificate`), and `worth`, what `balance` is worth in probes on
    this board (`balance.Worth`).

    Two listeners, None where no one listens: `completed`, a list a probe lends, gets every
    node `settle` finds complete; `listener`, a search's memory, hears of every dead end
    the node rules meet (`blame(i, neighbours)`) and of every revert (`reverted(length,
    trail, ends)`).
    """

    def __init__(self, grid, options=DEFAULT):
        self.grid = grid
        self.options = options
        self.listener = self.completed = None
        self.changes = grid.changes = Changes(len(grid.puzzle))
        self.balanced = self.isolated = self.connected = -1
        self.slackened = -1, None
        self.certificate = None  # connect's; None: to be made
        self.worth = balance.Worth()

    def mark(self):
        """A point to `revert` to: the grid's, its trail length, and the queue, flags and
        cursors."""
        cursors = self.balanced, self.isolated, self.connected, self.slackened
        state = tuple(self.changes.dirty), self.changes.joined, self.changes.cut, cursors
        return self.grid.mark(), len(self.grid.trail), state

    def revert(self, mark):
        """Undo every change made since `mark`, with the queue, flags and cursors."""
        changes = self.changes
        board, length, (pending, changes.joined, changes.cut, cursors) = mark
        self.balanced, self.isolated, self.connected, self.slackened = cursors
        if self.listener is not None:
            self.listener.reverted(length, self.grid.trail, self.grid.ends)
        self.grid.revert(board)
        changes.dirty = dict.fromkeys(pending)

    def undo(self, length):
        """Go back to trail `length`, forgetting where the rules looked (a trace reads the
        state there; the level's mark gives the cursors back when the search jumps)."""
        forgotten = (), True, True, (-1, -1, -1, (-1, None))
        self.revert((self.grid.mark_at(length), length, forgotten))

    def caught_up(self):
        """The rules but `connect` have nothing left to find in the present state (as at a
        probe's end, replayed): no node queued, `joined` clear, isolate and balance looked."""
        self.changes.dirty.clear()
        self.changes.joined = False
        self.isolated = self.balanced = len(self.grid.trail)

    def blame(self, i):
        """Count a dead end against node i and its neighbours, where a search listens."""
        if self.listener is not None:
            self.listener.blame(i, [j for _, j in self.grid.puzzle.node_edges[i]])

    def propagate(self, schedule=FULL, stats=None):
        """Run the node rules to a fixed point, then each rule of the `schedule` that is due,
        in order; start again after a rule that moved a bound, until none does (or raise
        Contradiction)."""
        while True:
            if stats is not None:
                stats.round()
            nodes.settle(self)
            ran = moved = False
            for rule in schedule:
                if rule.due:
                    if moved:
                        break
                    ran = rule.due(self)
                    moved = ran and rule.run(self)
                elif ran:  # (in the turn of the rule before it)
                    moved |= rule.run(self)
            if not moved:
                return

    def reason(self, top, e, new_lo, new_hi, drawn=None):
        """Why a rule other than the node rules (whose reasons `nodes.node_reason` reads off
        any later state) moved edge e's bounds to (new_lo, new_hi), in the grid's state just
        before: the facts that rule read there, or None if no such rule's premises hold.
        The grid's own cut of a crossing edge is asked first, then each rule of `FULL`.
        `drawn` caches what was worked out of the drawn links (see `groups.slack_reason`)."""
        grid = self.grid
        found = None if new_hi else nodes.crossing_reason(grid, e)
        for rule in FULL:
            if found is None and rule.reason:
                found = rule.reason(grid, top, e, new_lo, new_hi, drawn)
        return found

    def diagnose(self, top, hint=None, rule=None):
        """The facts behind a contradiction visible in the grid's state, or None if none is.

        `hint` is the node where a rule met it, `rule` the tag of the rule that did, if it
        names itself: that rule's own diagnosis comes first (a global rule runs once the
        node rules have nothing left, and a link that closes its group is refused before
        anything else moves, so the checks before theirs would find nothing). Then the
        grid's own checks, and what each rule of `FULL` finds, in order."""
        grid, found = self.grid, None
        for each in FULL:
            if each.tag == rule:
                found = each.met(grid, top, hint)
        if found is None:
            found = nodes.dead_node(grid, top, hint)
        for each in FULL:
            if found is None and each.finds:
                found = each.finds(grid, top)
        return found
