"""The subcommands of `python -m referee`, one module each.

A module here has a docstring (its --help), `configure(parser)` to add its options,
and `execute(args) -> int` returning the exit status. To add a command, write the
module and register it with one line in COMMANDS.
"""

COMMANDS = {
    "run": "referee.commands.run",
    "gen": "referee.commands.gen",
    "bench": "referee.commands.bench",
    "profile": "referee.commands.profiler",
    "show": "referee.commands.show",
    "stress-gen": "referee.commands.stress_gen",
    "explain": "referee.commands.explain",
    "play": "referee.commands.play",
}


class UsageError(Exception):
    """A mistake in how the command was called: one line for the user, exit status 2."""
