"""The bound on a solve's work, and the exception past it. The library's: the bot always
searches to the end (`bot.solve`), so the bundle leaves this module out.
"""


class OverLimit(Exception):
    """The solve spent its Limit without an answer."""


class Limit:
    """How much work a solve may do: propagation rounds and branches (None: no bound).
    Counted in work, not seconds, so a verdict is the same on every machine."""

    __slots__ = ("rounds", "branches")

    def __init__(self, rounds=None, branches=None):
        self.rounds = rounds
        self.branches = branches

    def __repr__(self):
        return f"Limit(rounds={self.rounds}, branches={self.branches})"

    def check(self, stats):
        """Raise OverLimit if the work `stats` counts is past this limit."""
        if self.rounds is not None and stats.rounds > self.rounds:
            raise OverLimit(f"over {self.rounds} propagation rounds")
        if self.branches is not None and stats.branches > self.branches:
            raise OverLimit(f"over {self.branches} branches")
