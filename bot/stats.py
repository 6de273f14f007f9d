"""What a solve did: its counters, and the `bot.limits.Limit` it keeps to (where the library
gives one)."""

from bot.stages import RULES


class Stats:
    """Counters that explain a solve's time, and the limit the solve must keep to: propagation
    `rounds`; `assumptions`, completions tried (probed or branched on); `eliminations`, those
    the probes refuted; `dead_ends`, those a branch tried that the bounds refused at once;
    `nogoods`, what the search that learns learned (a nogood a conflict); `branches`, the node
    search's branches and the learning search's decisions; `max_depth`, the deepest level
    either reached; `stage`, the deepest stage the solve needed (`bot.stages`)."""

    COUNTERS = ("rounds", "assumptions", "eliminations", "dead_ends", "nogoods", "branches",
                "max_depth", "stage")

    def __init__(self, limit=None):
        self.rounds = self.assumptions = self.eliminations = self.dead_ends = self.nogoods = 0
        self.branches = self.max_depth = 0
        self.stage = RULES
        self.limit = limit  # None: no bound

    def round(self):
        """Count a propagation round (OverLimit past the limit)."""
        self.rounds += 1
        if self.limit is not None:
            self.limit.check(self)

    def branch(self):
        """Count a branch (OverLimit past the limit)."""
        self.branches += 1
        if self.limit is not None:
            self.limit.check(self)

    def as_dict(self):
        return {name: getattr(self, name) for name in self.COUNTERS}
