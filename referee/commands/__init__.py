"""The subcommands of `spoon2` (`python -m referee`), one module each.

A command module has a docstring (its --help), `configure(parser)` to add its options,
and `execute(args) -> int` returning the exit status. To add a command, write the
module and register it with one line in COMMANDS. The judge's commands live here; the
lab's (which call the bot as a library) in referee.lab, loaded only when asked for.
"""

COMMANDS = {
    "run": "referee.commands.run",
    "gen": "referee.lab.gen",
    "bench": "referee.lab.bench",
    "profile": "referee.lab.profiler",
    "show": "referee.commands.show",
    "stress-gen": "referee.lab.stress_gen",
    "explain": "referee.lab.explain",
    "play": "referee.lab.play",
    "hunt": "referee.lab.hunt",
    "history": "referee.commands.history",
    "compare": "referee.commands.compare",
}


class UsageError(Exception):
    """A mistake in how the command was called: one line for the user, exit status 2."""
