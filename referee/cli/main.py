"""spoon2 COMMAND ... (or python -m referee COMMAND ...): the local referee and lab for
CodinGame's "There Is No Spoon - Episode 2".

The referee judges a bot independently of the bot's own code, under CodinGame's rules and
limits. `spoon2` alone (or `--help`) lists the commands; `spoon2 COMMAND --help`
describes one; `spoon2 --version` prints the version.

Exit status: 0 success, 1 a match was lost, 2 usage error.
"""

from __future__ import annotations

import argparse
import importlib
import os
import signal
import sys
import threading

from referee.cli import COMMANDS, UsageError
from referee.home import NotInCheckout, package_version
from referee.terminal import safe

EXIT_USAGE = 2
PROG = "python -m referee"


class Parser(argparse.ArgumentParser):
    """argparse, with the arguments it quotes in its errors escaped for the terminal, and
    no abbreviated options: `--jso` is a typo, not `--json`."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)

    def error(self, message: str):
        """One line (`--help` shows the usage), then exit status 2."""
        self.exit(EXIT_USAGE, f"{self.prog}: error: {safe(message)}\n")


class CommandParser(Parser):
    """A command's parser: it refuses what it does not know itself, so the error names the
    command (argparse would leave the words to the top-level parser, which names none)."""

    def parse_known_args(self, args=None, namespace=None):
        namespace, extras = super().parse_known_args(args, namespace)
        if extras:
            self.error(f"unrecognized arguments: {' '.join(extras)}")
        return namespace, extras


def build_parser(argv: list[str] | None = None, prog: str = PROG) -> argparse.ArgumentParser:
    """The top-level parser with one subparser per registered command.

    When `argv` names a command, only that command's module is imported, so `run` never
    loads the lab (nor, through it, the bot); the others are listed by name.
    """
    parser = Parser(prog=prog, description=__doc__,
                    formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True,
                                     parser_class=CommandParser)
    chosen = next((arg for arg in argv or [] if not arg.startswith("-")), None)
    for name, module_name in COMMANDS.items():
        if chosen in COMMANDS and name != chosen:
            commands.add_parser(name)
            continue
        module = importlib.import_module(module_name)
        doc = module.__doc__ or name
        sub = commands.add_parser(name, help=doc.strip().splitlines()[0], description=doc,
                                  formatter_class=argparse.RawDescriptionHelpFormatter)
        module.configure(sub)
        sub.set_defaults(execute=module.execute)
    return parser


class Terminated(KeyboardInterrupt):
    """SIGTERM (what `timeout` and `kill` send), taken down the path Ctrl-C takes: every
    bot's processes and every worker are stopped before the referee exits."""


def _terminated(signum, frame):
    raise Terminated()


def summary(name: str) -> str:
    """A command's one line: the first line of its module's docstring."""
    doc = importlib.import_module(COMMANDS[name]).__doc__ or name
    return doc.strip().splitlines()[0]


def listing(prog: str) -> str:
    """Every command with its one line, for `spoon2` alone and `spoon2 --help`."""
    width = max(map(len, COMMANDS))
    lines = [f"usage: {prog} COMMAND [options]    ({prog} COMMAND --help: the command's options)",
             "",
             "The local referee and lab for CodinGame's \"There Is No Spoon - Episode 2\".",
             "",
             "commands:"]
    lines += [f"  {name:<{width}}  {summary(name)}" for name in COMMANDS]
    lines += ["", f"{prog} --version prints the version.",
              "Exit status: 0 success, 1 a match was lost (or a set came short), 2 usage error."]
    return "\n".join(lines)


def main(argv: list[str] | None = None, prog: str = PROG) -> int:
    if argv is None:
        argv = sys.argv[1:]
    if argv in ([], ["-h"], ["--help"]):
        print(listing(prog))
        return 0
    if argv == ["--version"]:
        print(f"{prog} {package_version()}")
        return 0
    parser = build_parser(argv, prog)
    args = parser.parse_args(argv)
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _terminated)
    try:
        return args.execute(args)
    except (UsageError, NotInCheckout) as error:
        print(f"{parser.prog} {args.command}: error: {safe(error)}", file=sys.stderr)
        return EXIT_USAGE
    except Terminated:
        return 143   # what a shell reports for SIGTERM
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (`| head`): stop quietly, and keep Python from complaining
        # again when it flushes stdout at exit. 141 is what a shell reports for SIGPIPE.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141


def console() -> int:
    """The installed `spoon2` script (pyproject.toml's [project.scripts])."""
    return main(prog="spoon2")

