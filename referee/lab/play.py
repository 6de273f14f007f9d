"""Write a page to solve puzzles in a browser, with hints that say why a link is sure.

  python -m referee play                                  the 13 public tests
  python -m referee play puzzles/hard30 my.txt --out p.html
  python -m referee play --gen 10x10:count=3 --gen 30x30:hard:unique:count=1

PUZZLE is a .txt puzzle, an SDK .json test or a directory of them. --gen SPEC generates
a set as `bench --gen` does (WxH[:easy|medium|hard][:unique][:key=value...]); a SPEC
without a difficulty gives one set at each of easy, medium and hard (graded as `gen`
grades them: the deepest solver stage a puzzle needs).

The page (--out, default play.html) is one self-contained file: no network request, no
external asset. Pick a puzzle by size and difficulty; click an island then another in line
with it (or drag) to add a link, again to double it, again to remove it; arrows and
Shift+arrow do the same from the keyboard. Every move is checked at once by the rules (in
line, nothing in between, no crossing, not past an island's value); a refused move says
why. Undo, redo; "hint" adds the next sure link with its rule and sentence (from
bot.explain, worked out here when the page is built, about 1 s for a hard 30x30); "check"
marks the links the solution does not hold; "solve" plays the solution in. The board is
kept in the browser's local storage, so a reload resumes it.

This is lab tooling: it calls the bot (explain, solve, count_solutions) as a library.

An SDK .json test is named by its title, as `run` names it; a .txt puzzle by its file name.

Exit status: 0 written, every puzzle asked for; 1 some puzzle has no solution or a --gen
set found fewer than its count (the others are still written; with none left, no page);
2 usage error (unreadable puzzle, bad --gen spec, unwritable --out).
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from pathlib import Path

from bot.explainer import explain, replay
from bot.solver import Unsolvable, count_solutions
from referee.board import Board, BoardError, load_board, parse_board, puzzle_files
from referee.commands import UsageError
from referee.commands.args import output_path, unwritable
from referee.commands.run import sdk_fields
from referee.lab.grading import DEFAULT_WORK, classify_or_none
from referee.lab.sets import generate_named, parse_spec
from referee.play import build_page, puzzle_entry
from referee.terminal import safe

DEFAULT_PUZZLES = "puzzles/public"
DEFAULT_OUT = "play.html"
LEVELS = ("easy", "medium", "hard")
EXIT_OK, EXIT_SHORT = 0, 1   # short: a puzzle without a solution, or a --gen set short


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("puzzles", nargs="*", metavar="PUZZLE",
                        help=f"puzzle files or directories (default: {DEFAULT_PUZZLES} "
                             "when no --gen is given)")
    parser.add_argument("--gen", action="append", default=[], metavar="SPEC",
                        help="a generated set, repeatable; without a difficulty, one set "
                             "per difficulty (default: none)")
    parser.add_argument("--out", type=output_path, default=DEFAULT_OUT, metavar="FILE",
                        help=f"the page to write (default: {DEFAULT_OUT})")
    parser.add_argument("--title", default="Hashi player", help="the page's title")


def execute(args: argparse.Namespace) -> int:
    out = Path(args.out)
    why = unwritable(args.out)
    if why:
        raise UsageError(f"cannot write --out {out}: {why}")
    sources = list(read_files(args.puzzles or ([] if args.gen else [DEFAULT_PUZZLES])))
    sets = [one for text in args.gen for one in parse_gen(text)]   # all checked before any is made
    made, missing = generated(sets)
    sources += made
    entries, failed = [], 0
    for name, board, difficulty in sources:
        start = time.perf_counter()
        entry = solved_entry(name, board, difficulty)
        if entry is None:
            failed += 1
            print(f"play: {safe(name)}: the puzzle has no solution, left out", file=sys.stderr)
            continue
        entries.append(entry)
        print(f"play: {safe(name)}: {len(entry['hints'])} hints worked out in "
              f"{time.perf_counter() - start:.2f} s", file=sys.stderr, flush=True)
    lacking = shortfall(failed, missing)
    if not entries:
        print(f"play: {out} not written: no puzzle to put in it ({lacking})", file=sys.stderr)
        return EXIT_SHORT
    page = build_page(entries, args.title)
    try:
        out.write_text(page, encoding="utf-8")
    except OSError as error:
        raise UsageError(f"cannot write --out {out}: {error.strerror or error}") from None
    print(f"{out}: {len(entries)} puzzle(s), {len(page.encode()):,} bytes"
          + (f"; {lacking}" if lacking else ""))
    return EXIT_SHORT if lacking else EXIT_OK


def shortfall(unsolvable: int, not_found: int) -> str:
    """What the page lacks of what was asked for, in words ('' when nothing)."""
    parts = [f"{unsolvable} left out with no solution"] if unsolvable else []
    if not_found:
        parts.append(f"{not_found} asked of --gen not found")
    return ", ".join(parts)


def read_files(paths: list[str]):
    """(name, board, None) for each puzzle file named or inside a named directory."""
    for raw in paths:
        try:
            files = puzzle_files(raw)   # as every command reads its arguments
        except BoardError as error:
            raise UsageError(str(error)) from None
        for file in files:
            try:
                board = load_board(file)
            except BoardError as error:
                raise UsageError(str(error)) from None
            yield sdk_fields(file)[0] or file.stem, board, None


def parse_gen(text: str):
    """The --gen SPEC's sets: itself, or one per difficulty when it names none."""
    try:
        spec = parse_spec(text)
    except ValueError as error:
        raise UsageError(f"--gen {text}: {error}") from None
    return [spec] if spec.difficulty else [dataclasses.replace(spec, difficulty=d) for d in LEVELS]


def generated(specs) -> tuple[list, int]:
    """[(name, board, difficulty)] for the puzzles of the sets, and how many fewer than
    asked were found."""
    made, missing = [], 0
    for one in specs:
        kept, _ = generate_named(one.name, one)
        if len(kept) < one.count:
            print(f"play: --gen {one.name}: only {len(kept)} of {one.count} found",
                  file=sys.stderr)
            missing += one.count - len(kept)
        made += [(puzzle.name, parse_board(puzzle.text), puzzle.difficulty) for puzzle in kept]
    return made, missing


def solved_entry(name: str, board: Board, difficulty: str | None) -> dict | None:
    """The page's entry for one puzzle with the solver's data, or None if it has no solution."""
    text = board.to_text()
    try:
        steps = explain(text)
    except Unsolvable:
        return None
    hints = [(*step.ends[0], *step.ends[1], step.value, step.rule, step.sentence)
             for step in steps if step.bound == "lo"]
    if difficulty is None:
        difficulty = classify_or_none(text, DEFAULT_WORK)
    return puzzle_entry(name, board, difficulty, solution=replay(text, steps),
                        unique=count_solutions(text, limit=2) == 1, hints=hints)
