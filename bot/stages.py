"""The stages of a solve, each deeper than the last: the rules alone, then elimination (every
node narrowed to the completions the rules do not refute), then branching. A solve's `Stats`
count the deepest it needed; the generator grades a puzzle by it (Tatham's way: the stages
a solver needs), through `bot.elimination.solve_to`.
"""

RULES, ELIMINATION, BRANCHING = 1, 2, 3
STAGE_NAMES = {RULES: "rules", ELIMINATION: "elimination", BRANCHING: "branching"}
