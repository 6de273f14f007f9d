"""The solver's tuning, as one frozen value: `Options()` holds the defaults, one line each.

What each trades and how to measure it: docs/TUNING.md. A caller that wants other settings
passes `dataclasses.replace(DEFAULT, name=value)` down; nothing reads a module global.
"""

from dataclasses import dataclass


@dataclass(frozen=True)
class Options:
    """Every tuning constant of the solver, with its default."""

    # The rules (`bot.rules`).
    region_walk: int = 60             # balance gives up on a region of undecided edges past this many nodes
    probe_balance_after: int = 20     # bound changes a probe makes before balance looks
    parity_pays: int = 20             # balance pays where one look in this many finds a contradiction
    probe_balance_rarely: int = 70    # bound changes before balance looks in probes where it does not pay
    mend_share: int = 50              # connect walks the board afresh past islands / this cut edges to mend

    # The node search (`bot.nodesearch`).
    node_search_branches: int = 40    # branches before the search that learns takes over...
    node_search_stall: int = 5        # ...unless the node search reached a new depth within this many...
    node_search_stretch: int = 5      # ...up to this many times the branches in all
    global_every: int = 2             # the whole-board rules run at every this-many depths of the search...
    islands_per_global: int = 100     # ...or every (islands / this)-many on big boards
    probe_options: int = 2            # a probe tries the nodes with at most this many options
    score_heap_from: int = 500        # islands from which the search keeps its node scores on a heap

    # The search that learns (`bot.learning`).
    learn_slack_spare: int = 6        # slack runs in this search on boards with at most this spare
    activity_decay: float = 0.95      # how fast old conflicts stop steering the choice of a node's edge
    restart_window: int = 50          # a restart weighs the glue of this many latest nogoods...
    restart_margin: float = 0.7       # ...and comes once their mean times this passes the mean of all
    block_depth: float = 1.4          # a conflict this many times deeper than the mean puts it off...
    depth_window: int = 5000          # ...the mean of this many latest conflicts' trail lengths...
    block_after: int = 100            # ...once this many conflicts are met
    node_weight: float = 0.3          # what a conflict adds to the weight of the nodes it met
    shake: float = 0.5                # a restart scales each node's weight by 1 to 1 + this, at random
    seed: int = 1                     # ...drawn from this seed: a puzzle always gets the same answer
    prove_for: float = 0.01           # s spent proving likely links before guessing one, when pressed

    # The walk beside it (`bot.local`), on boards whose solutions are nearly trees.
    walk_spare: int = 20              # the walk runs on boards with under islands / this links of slack...
    walk_after: int = 300             # ...once the search that learns has met this many conflicts...
    walk_every: int = 200             # ...then a turn every this many conflicts...
    walk_moves: int = 4000            # ...of this many moves
    walk_fill_moves: int = 30000      # moves from one fill before the walk fills afresh
    walk_reach: int = 400             # an alternating path is given up past this many islands
    walk_worse: int = 300             # one move in this many that adds a group is kept
    walk_focus: float = 0.5           # the share of moves that start outside the largest group...
    walk_focus_every: int = 50        # ...as looked up every this many moves
    walk_loose_every: int = 200       # moves between looks at which links are loose (on a cycle, or doubled)


DEFAULT = Options()
