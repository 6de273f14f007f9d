"""Why each link is sure: the solver's reasoning, step by step, with the board drawn.

  spoon2 explain PUZZLE              every step, then the solved board
  spoon2 explain PUZZLE --step 40    steps 1..40, then the board after step 40

PUZZLE is a .txt puzzle or a CodinGame SDK .json test file. Each numbered step names the
rule (magicVal, sieve, crossing, isolation, connectivity, elimination, search), the edge
and the bound it set ("at least" or "at most" so many links) and says why in one sentence.
The board under the steps shows the links sure so far (the `show` drawing: '-' and '|'
one link, '=' and '"' two); --colour as in `show`.

This is lab tooling: the explainer (referee/lab/explain/) keeps its own geometry, bounds
and rules, independent of the bot's; "search" marks the only steps that take the bot's
answer (bot.solve) instead of a deduction.

Exit status: 0 shown; 1 the puzzle has no solution; 2 usage error (unreadable or malformed
puzzle, --step out of range).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections import Counter

from bot.solver import Unsolvable
from referee.judge.board import Board, BoardError, load_board
from referee.cli import UsageError
from referee.terminal import use_colour
from referee.report.drawing import render, short_nodes
from referee.lab.explain import explain

EXIT_SHOWN, EXIT_UNSOLVABLE = 0, 1


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("puzzle", metavar="PUZZLE", help="a .txt puzzle or an SDK .json test")
    parser.add_argument("--step", type=int, default=None, metavar="N",
                        help="show steps 1..N and the board after step N (default: all)")
    parser.add_argument("--colour", "--color", choices=("auto", "always", "never"),
                        default="auto", help="ANSI colour in the drawing (default: auto)")


def execute(args: argparse.Namespace) -> int:
    try:
        board = load_board(args.puzzle)
    except BoardError as error:
        raise UsageError(str(error)) from None
    try:
        steps = explain(board.to_text())
    except Unsolvable as error:
        print(f"explain: {error}", file=sys.stderr)
        return EXIT_UNSOLVABLE
    upto = len(steps) if args.step is None else args.step
    if not 0 <= upto <= len(steps):
        raise UsageError(f"--step must be 0..{len(steps)} for this puzzle, got {args.step}")
    text = report(board, steps, upto, use_colour(args.colour, sys.stdout))
    try:
        print(text, flush=True)
    except BrokenPipeError:   # `| head`: the reader has gone
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return EXIT_SHOWN


def step_line(number: int, step) -> str:
    """'  12  magicVal      (4,2)-(6,2) >= 1  (4,2) needs 5 links ...'"""
    (x1, y1), (x2, y2) = step.ends
    bound = ">=" if step.bound == "lo" else "<="
    return (f"{number:4}  {step.rule:<12}  ({x1},{y1})-({x2},{y2}) {bound} {step.value}  "
            f"{step.sentence}")


def sure_links(steps) -> dict:
    """{(a, b): links} that the steps' lower bounds make sure."""
    return {step.ends: step.value for step in steps if step.bound == "lo"}


def report(board: Board, steps, upto: int, colour: bool = False) -> str:
    """The numbered steps 1..upto, a count by rule, and the board as it stands after them."""
    shown = steps[:upto]
    parts = [step_line(i, step) for i, step in enumerate(shown, start=1)]
    by_rule = Counter(step.rule for step in shown)
    parts.append(f"\nstep {upto} of {len(steps)}: " +
                 ", ".join(f"{rule} {n}" for rule, n in by_rule.most_common()))
    links = sure_links(shown)
    parts.append(render(board, links, None, colour))
    short = short_nodes(board, links)
    parts.append(f"{len(short)} island(s) still short of links" if short else
                 "every island is full: solved")
    return "\n".join(parts)
