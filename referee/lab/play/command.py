"""Write a page to solve puzzles in a browser, with hints that say why a link is sure.

  spoon2 play                                    the 13 public tests, in out/play.html
  spoon2 play puzzles/hard30 my.txt --out p.html
  spoon2 play --gen 10x10:count=3 --gen 30x30:medium:count=5 --gen 30x30:hard:unique:count=1

PUZZLE is a .txt puzzle, an SDK .json test or a directory of them. --gen SPEC generates
a set as `bench --gen` does (WxH[:easy|medium|hard][:unique][:key=value...]); a SPEC
without a difficulty gives one set at each of easy, medium and hard (graded as `gen`
grades them: the deepest solver stage a puzzle needs). Easy and medium sets are made
unique, as `unique` makes them: such a puzzle has one solution by definition (the rules,
or elimination, prove every link), and without the repairs almost every 30x30 board has
several solutions and needs search. Each set shows `gen`'s progress; a set that comes
short of its count stops the command with `gen`'s hint, and no page is written (an
existing one is left as it was).

The page (--out, default out/play.html) is one self-contained file: no network request, no
external asset. Pick a puzzle by size and difficulty; click an island then another in line
with it (or drag) to add a link, again to double it, again to remove it; arrows and
Shift+arrow do the same from the keyboard. Every move is checked at once by the rules (in
line, nothing in between, no crossing, not past an island's value); a refused move says
why. Undo, redo; "hint" adds the next sure link with its rule and sentence (from the
lab's explainer, worked out here when the page is built, about 1 s for a hard 30x30);
"check" marks the links the solution does not hold; "solve" plays the solution in. The
board is kept in the browser's local storage, so a reload resumes it. The board takes the window's
room under the controls, so a 30x30 board fits a laptop's screen or a phone's width whole;
the wheel, a pinch, + and - zoom, a drag on the empty board pans, "fit" shows it whole.
The numbers on its edges are the (column,row) that hints and messages name. A puzzle's
difficulty reads "easy: rules only", "medium: needs elimination" or "hard: needs search".

This is lab tooling: it calls the bot (solve, count_solutions) as a library, and the lab's
explainer (referee/lab/explain/) for the hints.

An SDK .json test is named by its title, as `run` names it; a .txt puzzle by its file name.

Exit status: 0 written, every puzzle asked for; 1 a --gen set found fewer than its count
(no page written), or some puzzle file has no solution (the others are written; with
none left, no page); 2 usage error (unreadable puzzle, bad --gen spec, unwritable --out).
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import threading
import time
from pathlib import Path

from bot.counting import count_solutions, find_solutions
from bot.limits import Limit, OverLimit
from bot.solver import Unsolvable
from referee.judge.board import (Board, BoardError, load_board, parse_board, puzzle_files,
                                  sdk_fields)
from referee.cli import UsageError
from referee.cli.args import output_path, unwritable
from referee.home import in_checkout
from referee.lab.alarm import Alarm, NoAlarm, SolveTimeout
from referee.lab.explain import explain, replay
from referee.lab.gen.grading import DEFAULT_WORK, HARD, classify_or_none
from referee.lab.gen.sets import generate_named, parse_spec, shortfall
from referee.report.player import build_page, puzzle_entry
from referee.report.progress import Progress, SetProgress
from referee.terminal import safe
from referee.files import write_new

DEFAULT_PUZZLES = "puzzles/public"
DEFAULT_OUT = "out/play.html"   # out/ is git-ignored
LEVELS = ("easy", "medium", "hard")
EXIT_OK, EXIT_SHORT = 0, 1   # short: a puzzle without a solution, or a --gen set short
NEAREST_OF = 16              # solutions looked through for the one nearest a bot's position
NEAREST_ROUNDS = 200_000     # and the work that search may take
POSITION_S = 5.0             # the solver's time for one lost position, all of it


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
    if args.out == DEFAULT_OUT:
        out.parent.mkdir(exist_ok=True)
    why = unwritable(args.out)
    if why:
        raise UsageError(f"cannot write --out {out}: {why}")
    default = [] if args.gen else [str(in_checkout(DEFAULT_PUZZLES, "give PUZZLE files or --gen SPEC"))]
    sources = list(read_files(args.puzzles or default))
    sets = [one for text in args.gen for one in parse_gen(text)]   # all checked before any is made
    made = generated(sets)
    if made is None:
        return EXIT_SHORT
    sources += made
    entries = solved_entries(sources)
    failed = len(sources) - len(entries)
    lacking = f"{failed} left out with no solution" if failed else ""
    if not entries:
        print(f"play: {out} not written: no puzzle to put in it ({lacking})", file=sys.stderr)
        return EXIT_SHORT
    page = build_page(entries, args.title)
    try:
        write_new(out, page)
    except OSError as error:
        raise UsageError(f"cannot write --out {out}: {error.strerror or error}") from None
    print(f"{out}: {len(entries)} puzzle(s), {len(page.encode()):,} bytes"
          + (f"; {lacking}" if lacking else ""))
    return EXIT_SHORT if lacking else EXIT_OK


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
    """The --gen SPEC's sets: itself, or one per difficulty when it names none; easy and
    medium sets are made unique."""
    try:
        spec = parse_spec(text)
    except ValueError as error:
        raise UsageError(f"--gen {text}: {error}") from None
    specs = [spec] if spec.difficulty else [dataclasses.replace(spec, difficulty=d) for d in LEVELS]
    # An easy or medium puzzle has one solution by definition (the rules, or elimination,
    # prove every link); the repairs that make a board unique find them where plain boards,
    # with several solutions, almost all need search.
    return [dataclasses.replace(one, unique=True) if one.difficulty != HARD else one
            for one in specs]


def generated(specs) -> list | None:
    """[(name, board, difficulty)] for the puzzles of the sets, with `gen`'s progress;
    None (and `gen`'s hint) as soon as one set comes short of its count."""
    made = []
    for one in specs:
        progress = SetProgress(f"gen {one.name}", one.count, one.max_attempts)
        kept, verdicts = generate_named(one.name, one, on_attempt=progress.attempt)
        progress.close(f"tried {sum(verdicts.values())}, kept {len(kept)} of {one.count}")
        if len(kept) < one.count:
            print(f"play: --gen {one.name}: {shortfall(one, len(kept), verdicts)}; "
                  "no page written", file=sys.stderr)
            return None
        made += [(puzzle.name, parse_board(puzzle.text), puzzle.difficulty) for puzzle in kept]
    return made


def solved_entries(sources) -> list[dict]:
    """The page's entries of the puzzles that have a solution, with the solver's data;
    progress (one line per puzzle off a terminal) and each puzzle left out on stderr."""
    progress = Progress("play hints", len(sources))
    entries = []
    for name, board, difficulty in sources:
        start = time.perf_counter()
        entry = solved_entry(name, board, difficulty)
        if entry is None:
            with progress.aside():
                print(f"play: {safe(name)}: the puzzle has no solution, left out", file=sys.stderr)
            continue
        entries.append(entry)
        progress.step(f"{safe(name)}: {len(entry['hints'])} hints in "
                      f"{time.perf_counter() - start:.2f} s")
    progress.close(f"{len(entries)} puzzle(s) worked out")
    return entries


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


def position_entry(name: str, board: Board, lines, seconds: float = POSITION_S) -> dict | None:
    """The page's entry for a bot's lost position (`lines`: its output): the solver's data,
    its solution the one, of the first NEAREST_OF, that keeps most of the bot's links, so
    "check" marks only links no solution found holds. None if the puzzle has no solution,
    or the solver takes over `seconds` (some boards take it minutes to explain)."""
    timer = Alarm("wall", seconds) if threading.current_thread() is threading.main_thread() else NoAlarm()
    with timer:
        try:
            return timer.call(lambda: _position_entry(name, board, lines))
        except SolveTimeout:
            return None


def _position_entry(name: str, board: Board, lines) -> dict | None:
    entry = solved_entry(name, board, None)
    if entry is None or entry["unique"]:
        return entry
    placed = bot_links(lines)
    try:
        found = find_solutions(board.to_text(), limit=NEAREST_OF, within=Limit(rounds=NEAREST_ROUNDS))
    except OverLimit:
        return entry
    if found:
        entry["solution"] = [list(link) for link in min(found, key=lambda s: wrong_count(placed, s))]
    return entry


def bot_links(lines) -> dict:
    """{(x1, y1, x2, y2): links} the bot's lines add up to, ends in order; lines that are
    not five integers are left out (the match was lost on them)."""
    links: dict = {}
    for line in lines:
        try:
            x1, y1, x2, y2, n = map(int, line.split())
        except ValueError:
            continue
        key = min((x1, y1), (x2, y2)) + max((x1, y1), (x2, y2))
        links[key] = links.get(key, 0) + n
    return links


def wrong_count(placed: dict, solution) -> int:
    """Links of `placed` over what `solution` holds on their pair."""
    held = {min((a, b), (c, d)) + max((a, b), (c, d)): n for a, b, c, d, n in solution}
    return sum(max(0, n - held.get(key, 0)) for key, n in placed.items())
