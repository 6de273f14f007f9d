"""The solver's tuning constants, one line each. How each was measured: docs/TUNING.md."""

# The rules (`bot.intersection`).
REGION_WALK = 60            # balance gives up on a region of undecided edges past this many nodes
PROBE_BALANCE_AFTER = 20    # bound changes a probe makes before balance looks
PARITY_PAYS = 20            # balance pays where one look in this many finds a contradiction
PROBE_BALANCE_RARELY = 70   # bound changes before balance looks in probes where it does not pay
MEND_SHARE = 50             # connect walks the board afresh past islands / this cut edges to mend

# The node search (`bot.assumption`).
NODE_SEARCH_BRANCHES = 40   # branches before the search that learns takes over...
NODE_SEARCH_STALL = 5       # ...unless the node search reached a new depth within this many...
NODE_SEARCH_STRETCH = 5     # ...up to this many times the branches in all
GLOBAL_EVERY = 2            # the whole-board rules run at every this-many depths of the search...
ISLANDS_PER_GLOBAL = 100    # ...or every (islands / this)-many on big boards
PROBE_OPTIONS = 2           # a probe tries the nodes with at most this many options
SCORE_HEAP_FROM = 500       # islands from which the search keeps its node scores on a heap

# The search that learns (`bot.learning`).
LEARN_SLACK_SPARE = 6       # slack runs in this search on boards with at most this spare
ACTIVITY_DECAY = 0.95       # how fast old conflicts stop steering the choice of a node's edge
RESTART_WINDOW = 50         # a restart weighs the glue of this many latest nogoods...
RESTART_MARGIN = 0.7        # ...and comes once their mean times this passes the mean of all
BLOCK_DEPTH = 1.4           # a conflict this many times deeper than the mean puts it off...
DEPTH_WINDOW = 5000         # ...the mean of this many latest conflicts' trail lengths...
BLOCK_AFTER = 100           # ...once this many conflicts are met
NODE_WEIGHT = 0.3           # what a conflict adds to the weight of the nodes it met
SHAKE = 0.5                 # a restart scales each node's weight by 1 to 1 + this, at random
SEED = 1                    # ...drawn from this seed: a puzzle always gets the same answer
PROVE_FOR = 0.01            # s spent proving likely links before guessing one, when pressed

# The walk beside it (`bot.local`), on boards whose solutions are nearly trees.
WALK_SPARE = 20             # the walk runs on boards with under islands / this links of slack...
WALK_AFTER = 300            # ...once the search that learns has met this many conflicts...
WALK_EVERY = 200            # ...then a turn every this many conflicts...
WALK_MOVES = 4000           # ...of this many moves
WALK_FILL_MOVES = 30000     # moves from one fill before the walk fills afresh
WALK_REACH = 400            # an alternating path is given up past this many islands
WALK_WORSE = 300            # one move in this many that adds a group is kept
WALK_FOCUS = 0.5            # the share of moves that start outside the largest group...
WALK_FOCUS_EVERY = 50       # ...as looked up every this many moves
WALK_LOOSE_EVERY = 200      # moves between looks at which links are loose (on a cycle, or doubled)
