"""The subcommands of `spoon2` (`python -m referee`), one module each.

A command module has a docstring (its --help), `configure(parser)` to add its options,
and `execute(args) -> int` returning the exit status. To add a command, write the
module and register it with one line in COMMANDS. The judge's commands live here; the
lab's (which call the bot as a library) in referee.lab, loaded only when asked for.
What `run` borrows from the lab is named the same way, in LAB_PARTS: the lab stands above
the command line (its commands use `args` and UsageError), so nothing here imports it.
"""

import importlib

COMMANDS = {
    "run": "referee.cli.run",
    "gen": "referee.lab.gen.command",
    "bench": "referee.lab.bench.command",
    "profile": "referee.lab.profile.command",
    "show": "referee.cli.show",
    "stress-gen": "referee.lab.stress.command",
    "explain": "referee.lab.explain.command",
    "play": "referee.lab.play.command",
    "hunt": "referee.lab.hunt.command",
    "history": "referee.cli.history",
    "compare": "referee.cli.compare",
}

# Imported only when a run asks for them, so `run` alone never loads the lab (nor the bot).
LAB_PARTS = {
    "sets": "referee.lab.gen.sets",             # run --gen: the generated sets
    "walk": "referee.lab.gen.walk",             # run --gen --out: each puzzle's solution
    "positions": "referee.lab.play.command",    # run --html: the solver's view of a lost position
}


def lab_part(name: str):
    """The lab's module LAB_PARTS names; ImportError where the lab cannot load."""
    return importlib.import_module(LAB_PARTS[name])


class UsageError(Exception):
    """A mistake in how the command was called: one line for the user, exit status 2."""
