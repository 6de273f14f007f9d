"""The solver's tuning, as one immutable value: `Options()` holds the defaults, one line each.

What each trades and how to measure it: docs/TUNING.md. A caller that wants other settings
passes `DEFAULT.replace(name=value)` down; nothing reads a module global. (A plain class
rather than a dataclass or a named tuple: the bot starts without importing `dataclasses`
or `collections`, and without compiling the code a named tuple writes for itself.)
"""

FIELDS = (
    # The rules (`bot.rules`).
    ("region_walk", 60),           # balance gives up on a region of open edges past this many nodes
    ("probe_balance_after", 20),   # bound changes a probe makes before balance looks
    ("parity_pays", 20),           # balance pays where one look in this many finds a dead end
    ("probe_balance_rarely", 70),  # ...changes before it looks in probes where it does not pay
    ("mend_share", 50),            # connect walks the board afresh past islands / this cuts

    # The node search (`bot.assumption`).
    ("node_search_branches", 40),  # branches before the search that learns takes over...
    ("node_search_stall", 5),      # ...unless it reached a new depth within this many...
    ("node_search_stretch", 5),    # ...up to this many times the branches in all
    ("global_every", 2),           # the whole-board rules run every this-many levels...
    ("islands_per_global", 100),   # ...or every (islands / this)-many on big boards
    ("probe_options", 2),          # a probe tries the nodes with at most this many options
    ("score_heap_from", 500),      # islands from which the search keeps its node scores on a heap

    # The search that learns (`bot.learning`).
    ("learn_slack_spare", 6),      # slack runs in this search on boards with at most this spare
    ("activity_decay", 0.95),      # how fast old conflicts stop steering which edge is decided
    ("restart_window", 50),        # a restart weighs the glue of this many latest nogoods...
    ("restart_margin", 0.7),       # ...and comes once their mean times this passes the mean of all
    ("block_depth", 1.4),          # a conflict this many times deeper than the mean puts it off...
    ("depth_window", 5000),        # ...the mean of this many latest conflicts' trail lengths...
    ("block_after", 100),          # ...once this many conflicts are met
    ("node_weight", 0.3),          # what a conflict adds to the weight of the nodes it met
    ("shake", 0.5),                # a restart scales each node's weight by 1 to 1 + this, at random
    ("seed", 1),                   # ...drawn from this seed: a puzzle's answer never varies
    ("prove_for", 0.01),           # s spent proving likely links before guessing one, when pressed

    # The walk beside it (`bot.walk`), on boards whose solutions are nearly trees.
    ("walk_spare", 20),            # the walk runs where slack links < islands / this...
    ("walk_after", 300),           # ...once the search that learns has met this many conflicts...
    ("walk_every", 200),           # ...then a turn every this many conflicts...
    ("walk_moves", 4000),          # ...of this many moves
    ("walk_fill_moves", 30000),    # moves from one fill before the walk fills afresh
    ("walk_reach", 400),           # an alternating path is given up past this many islands
    ("walk_worse", 300),           # one move in this many that adds a group is kept
    ("walk_focus", 0.5),           # the share of moves that start outside the largest group...
    ("walk_focus_every", 50),      # ...as looked up every this many moves
    ("walk_loose_every", 200),     # moves between looks at the loose links (on a cycle, doubled)
)


class Options:
    """Every tuning constant of the solver, with its default; set once, when made."""

    __slots__ = tuple(name for name, _ in FIELDS)

    def __init__(self, **values):
        for name, default in FIELDS:
            object.__setattr__(self, name, values.pop(name, default))
        if values:
            raise ValueError(f"not an option: {', '.join(values)}")

    def __setattr__(self, name, value):
        raise AttributeError("options are one value: make another with replace()")

    def replace(self, **changes):
        """These options with `changes` made (ValueError for a name that is not a field)."""
        return Options(**{**{name: getattr(self, name) for name in self.__slots__}, **changes})


DEFAULT = Options()
