"""What a solve did and how much it may do: its counters and the bound it keeps to (a
`bot.stages.Limit`, where the library gives one)."""

RULES, ELIMINATION, BRANCHING = 1, 2, 3  # the stages, each deeper than the last
_NONE = float("inf")


class OverLimit(Exception):
    """The solve spent its Limit without an answer."""


class Stats:
    """Counters that explain a solve's time, and the limit the solve must keep to."""

    COUNTERS = ("rounds", "assumptions", "eliminations", "branches", "max_depth", "stage")

    def __init__(self, limit=None):
        self.rounds = self.assumptions = self.eliminations = 0
        self.branches = self.max_depth = 0
        self.stage = RULES  # the deepest stage the solve needed
        self.keep_to(limit)

    def keep_to(self, limit):
        """Bound the work from now on (None: no bound)."""
        rounds = limit.rounds if limit is not None else None
        branches = limit.branches if limit is not None else None
        self.most_rounds = _NONE if rounds is None else rounds
        self.most_branches = _NONE if branches is None else branches

    def round(self):
        """Count a propagation round; raises OverLimit past the limit."""
        self.rounds += 1
        if self.rounds > self.most_rounds:
            raise OverLimit(f"over {self.most_rounds} propagation rounds")

    def branch(self):
        """Count a branch; raises OverLimit past the limit."""
        self.branches += 1
        if self.branches > self.most_branches:
            raise OverLimit(f"over {self.most_branches} branches")

    def as_dict(self):
        return {name: getattr(self, name) for name in self.COUNTERS}
