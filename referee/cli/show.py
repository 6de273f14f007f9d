"""Draw a puzzle in the terminal, with a bot's links replayed through the rules.

  spoon2 show PUZZLE                      the board alone
  spoon2 show PUZZLE --links out.txt      the board after a bot's output
  python3 dist/bot.py < p.txt | spoon2 show p.txt --links -

PUZZLE is a .txt puzzle or a CodinGame SDK .json test file. --links FILE is a bot's
output (lines `x1 y1 x2 y2 n`, '-' for stdin); its lines are judged one by one by the
referee's rules, as `run` judges them. When a line loses, the board is shown with the
links placed before it, the losing link drawn as '*', and the verdict, reason and line.
When the output ends before a win, the verdict is `incomplete`. --upto N stops after
line N, to look at a match part way.

Drawing: nodes are their digits, '.' an empty cell; '-' and '|' a single link, '=' and
'"' a double link. Below the board, the nodes that still lack links (`(x,y) held/value`).
On a terminal, short nodes are yellow, full nodes green, links cyan and the losing link
red; --colour always/never overrides (NO_COLOR in the environment means never).

Bytes that are not UTF-8 are read as `run` reads a bot's output: each becomes U+FFFD
and its line is judged (malformed), from a file as from stdin.

Exit status: 0 the board is shown and the links (if any) win or are not yet decided
(--upto); 1 the links lose (a malformed line too); 2 usage error (unreadable or
malformed puzzle, unreadable links file or closed stdin).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from referee.judge.board import Board, BoardError, load_board, refuse_special
from referee.cli import UsageError
from referee.cli.args import integer
from referee.report.drawing import mark_note, render, short_nodes
from referee.judge.rules import Judge, Outcome, output_lines
from referee.terminal import quoted, safe, use_colour

SHORT_NODES_LISTED = 12   # the list of short nodes below the board is cut after this many
EXIT_SHOWN, EXIT_LOST = 0, 1


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("puzzle", metavar="PUZZLE", help="a .txt puzzle or an SDK .json test")
    parser.add_argument("--links", metavar="FILE", default=None,
                        help="a bot's output to replay, '-' for stdin (default: none, the "
                             "board alone)")
    parser.add_argument("--upto", type=integer(), default=None, metavar="N",
                        help="replay only the first N lines (default: all)")
    parser.add_argument("--colour", "--color", choices=("auto", "always", "never"),
                        default="auto", help="ANSI colour (default: auto, when stdout is a "
                        "terminal and NO_COLOR is unset)")


def execute(args: argparse.Namespace) -> int:
    try:
        board = load_board(args.puzzle)
    except BoardError as error:
        raise UsageError(str(error)) from None
    if args.upto is not None and args.upto < 0:
        raise UsageError(f"--upto must be 0 or more, got {args.upto}")
    lines = None if args.links is None else read_links(args.links)
    colour = use_colour(args.colour, sys.stdout)
    text, outcome = show(board, Path(args.puzzle).stem, lines, args.upto, colour)
    try:
        print(text, flush=True)
    except BrokenPipeError:   # `| head`: the reader has gone, which is not an error here
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return EXIT_LOST if outcome is not None and not outcome.won else EXIT_SHOWN


def read_links(name: str) -> list[str]:
    """The output lines of FILE, or of stdin for '-', decoded as `run` decodes a bot's
    output: bytes that are not UTF-8 become U+FFFD, and their line is judged malformed."""
    try:
        data = read_stdin() if name == "-" else read_file(Path(name))
    except BoardError as error:
        raise UsageError(f"--links {error}") from None
    except OSError as error:
        raise UsageError(f"cannot read --links {name}: {error}") from None
    text = data.decode("utf-8", errors="replace")
    return output_lines(text) if text else []


def read_stdin() -> bytes:
    """stdin's bytes; OSError when there is no stdin (`<&-` closes it: Python sets None)."""
    if sys.stdin is None:
        raise OSError("stdin is closed")
    return sys.stdin.buffer.read()


def read_file(path: Path) -> bytes:
    """A regular file's bytes (a named pipe would wait for a writer forever)."""
    refuse_special(path)
    return path.read_bytes()


def show(board: Board, name: str, lines: list[str] | None, upto: int | None = None,
         colour: bool = False) -> tuple[str, Outcome | None]:
    """The drawing and the text under it, and the outcome (None: board alone or undecided)."""
    judge = Judge(board)
    outcome = None
    fed = lines if lines is None or upto is None else lines[:upto]
    for line in fed or []:
        outcome = judge.feed(line)
        if outcome is not None:
            break
    if lines is not None and outcome is None and (upto is None or upto >= len(lines)):
        outcome = judge.finish()
    mark = judge.offending if outcome is not None and not outcome.won else None
    head = f"{safe(name)}: {board.width}x{board.height}, {len(board.nodes)} nodes"
    if lines is not None:
        head += f", {len(lines)} output line(s)"
    parts = [head, render(board, judge.links, mark, colour)]
    short = short_nodes(board, judge.links)
    if short:
        listed = ", ".join(f"({x},{y}) {held}/{value}" for (x, y), held, value
                           in short[:SHORT_NODES_LISTED])
        more = f" and {len(short) - SHORT_NODES_LISTED} more" if len(short) > SHORT_NODES_LISTED else ""
        parts.append(f"short of links ({len(short)}): {listed}{more}")
    if mark is not None:
        parts.append(mark_note(mark, judge.links.get((mark.a, mark.b), 0), "losing"))
    parts.extend(verdict_lines(outcome, judge.turn, lines is not None))
    if outcome is not None and outcome.line is not None and outcome.turn < len(lines):
        parts.append(f"({len(lines) - outcome.turn} later line(s) not judged: the match was decided)")
    return "\n".join(parts), outcome


def verdict_lines(outcome: Outcome | None, fed: int, replayed: bool) -> list[str]:
    """'WIN at line 12: ...', 'LOST: crossing at line 7: ...' and the line, or progress."""
    if outcome is None:
        return [f"after line {fed}: not decided yet"] if replayed else []
    if outcome.won:
        return [f"WIN at line {outcome.turn}: {safe(outcome.reason)}"]
    where = f"at line {outcome.turn}" if outcome.line is not None else f"awaiting line {outcome.turn}"
    text = [f"LOST: {outcome.verdict.value} {where}: {safe(outcome.reason)}"]
    if outcome.line is not None:
        text.append(f"  line {outcome.turn}: {quoted(outcome.line)}")
    return text
