"""Generate random puzzles with a known solution, filtered by difficulty and uniqueness.

Each candidate is grown by a stack walk from a random island (referee/lab/gen/walk.py), so it
is connected and solvable by construction; its solution is known. Filters then decide:
  --difficulty  the deepest stage the bot's solver needs: easy = its rules alone solve
                it, medium = it needs elimination (one-step assumptions), hard = it
                needs branching (search).
  --unique      the solver must prove exactly one solution (bot.count_solutions). A
                candidate with a second solution gets up to --repairs extra islands,
                placed on its known links so that the known solution stays valid and
                the other one breaks; unique sets place no two islands side by side.
Candidates are rejection-sampled: at most --attempts are tried. Every solver check may
spend --work propagation rounds (counted, not timed, so results never depend on the
machine); a candidate over budget is rejected.

--density is the number of islands as a fraction of the cells (0.15 on 30x30 asks for
135 islands; hard sets default to 0.08, see below). The walk stops at that count or when no island can grow; walks reach
about 0.2-0.3 of the cells (1.0 would be every cell, the densest legal board).

Files: DIR/NAME.txt in CodinGame's input format and DIR/NAME.solution beside it (the
known solution as output lines `x1 y1 x2 y2 n`; not .txt/.json, so `spoon2 run DIR`
plays only the puzzles). NAME is SIZE_DIFFICULTY[_unique]_sSEED_NNN. The same
arguments always write byte-identical files (candidate i uses a generator seeded from
SEED and i, never the global random state).

Prints one line per puzzle written (file, islands, difficulty, attempt) to stdout; the
count tried and kept, by verdict, goes to stderr, after a progress line (puzzles kept of
the count, attempts tried beside; on a terminal, redrawn below the listing). A reader
that stops early (`| head`) stops the listing, not the work: every puzzle is still written.

Measured rates (bot of 2026-11-22, unique candidates, no local search): 30x30 at the
medium preset about 5% easy, 75% medium, 20% not made unique; hard only 1 in 2000
(9 min); from 7x7 to 20x20, none in 7500. So with --difficulty hard --unique, a unique
candidate that is not hard gets a local search (--climb steps): random changes that keep
its known solution (a link single/double, a link or a leaf island removed, an island
merged into a link or added on one), kept while the puzzle stays unique, needs no
easier stage, and elimination needs at least 80% as many assumptions; it stops at the
first hard puzzle. Then most 12x12 and 30x30 candidates end hard: about 1-10 s per
puzzle on 12x12; on 30x30 about 46 s at the hard default density 0.08 (72 islands
asked, 119-145 in the end: the walk adds islands) and 4 min at 0.15 (~200 in the end).

--jobs N tries candidates in N worker processes, --dask ADDRESS on a dask.distributed
cluster (the optional `lab` extra; every worker needs this checkout installed).
Candidates are still judged in index order, so the files are the same bytes whatever runs
them; a few candidates past the last one kept are tried and thrown away.

Exit status: 0 all puzzles written, 1 the attempts ran out first (the puzzles kept are
still written), 2 usage error or unwritable directory.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from referee.cli import UsageError
from referee.cli.args import integer, number, output_path
from referee.lab.gen.grading import DEFAULT_WORK, DIFFICULTIES
from referee.lab.gen.hardening import DEFAULT_CLIMB
from referee.lab.gen.sets import (DEFAULT_ATTEMPTS_PER_PUZZLE, DEFAULT_REPAIRS, PRESETS, Generated,
                              SetSpec, check_spec, generate_set, parse_size, shortfall)
from referee.lab.gen.walk import solution_text
from referee.lab.workers import add_worker_options, workers_from_args
from referee.report.progress import SetProgress
from referee.terminal import safe
from referee.files import write_new

EXIT_OK, EXIT_BUDGET = 0, 1  # usage errors exit 2 from the dispatcher
DEFAULT_OUT = "out/gen"   # out/ is git-ignored
SOLUTION_SUFFIX = ".solution"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--size", default="10x10", metavar="WxH",
                        help="board size, each side 1..30 (default: 10x10)")
    parser.add_argument("--count", type=integer(), default=10, help="puzzles to keep (default: 10)")
    parser.add_argument("--seed", type=integer(), default=1, help="the set's seed (default: 1)")
    parser.add_argument("--density", type=number(), default=None,
                        help="islands per cell, in (0, 1] (default: "
                             + ", ".join(f"{k or 'any'} {v['density']}" for k, v in PRESETS.items()) + ")")
    parser.add_argument("--difficulty", choices=DIFFICULTIES, default=None,
                        help="keep only puzzles the solver needs exactly this stage for "
                             "(default: any)")
    parser.add_argument("--unique", action="store_true",
                        help="keep only puzzles with one solution (default: off)")
    parser.add_argument("--out", type=output_path, default=DEFAULT_OUT, metavar="DIR",
                        help=f"directory for the files, created if needed (default: {DEFAULT_OUT})")
    parser.add_argument("--attempts", type=integer(), default=None,
                        help=f"candidates to try in all (default: {DEFAULT_ATTEMPTS_PER_PUZZLE} "
                             "per puzzle asked)")
    parser.add_argument("--work", type=integer(), default=DEFAULT_WORK,
                        help=f"propagation rounds per solver check (default: {DEFAULT_WORK})")
    parser.add_argument("--repairs", type=integer(), default=DEFAULT_REPAIRS,
                        help=f"islands --unique may add to one candidate (default: {DEFAULT_REPAIRS})")
    parser.add_argument("--climb", type=integer(), default=DEFAULT_CLIMB,
                        help="steps of the local search that turns a unique puzzle hard, "
                             f"for --difficulty hard --unique (default: {DEFAULT_CLIMB})")
    add_worker_options(parser)
    parser.add_argument("--join", type=number(), default=None,
                        help="chance to link to an island already met, making loops (default: "
                             + ", ".join(f"{k or 'any'} {v['join']}" for k, v in PRESETS.items()) + ")")
    parser.add_argument("--double", type=number(), default=None,
                        help="chance that a link is double (default: "
                             + ", ".join(f"{k or 'any'} {v['double']}" for k, v in PRESETS.items()) + ")")


def spec_from_args(args: argparse.Namespace) -> SetSpec:
    """The SetSpec the flags describe (UsageError if they make no sense)."""
    try:
        width, height = parse_size(args.size)
        spec = SetSpec(width=width, height=height, count=args.count, seed=args.seed,
                       density=args.density, difficulty=args.difficulty, unique=args.unique,
                       join=args.join, double=args.double, attempts=args.attempts,
                       work=args.work, repairs=args.repairs, climb=args.climb)
        check_spec(spec)
    except ValueError as error:
        raise UsageError(str(error)) from None
    return spec


def _make_folder(out: Path) -> None:
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UsageError(f"cannot create {out}: {error.strerror}") from None


def _remove_if_empty(made: list[Path]) -> None:
    """Remove the folders this run made (deepest first) while they are empty."""
    for folder in made:
        try:
            folder.rmdir()
        except OSError:
            return   # something is in it: not ours to remove


def execute(args: argparse.Namespace) -> int:
    spec = spec_from_args(args)
    out = Path(args.out)
    progress = SetProgress(f"gen {spec.name}", spec.count, spec.max_attempts)
    start = time.perf_counter()

    def write(puzzle: Generated) -> None:
        """Write each puzzle once kept: an interrupted run keeps what it found."""
        try:
            write_new(out / f"{puzzle.name}.txt", puzzle.text)
            write_new(out / f"{puzzle.name}{SOLUTION_SUFFIX}", solution_text(puzzle.links))
        except OSError as error:
            raise UsageError(f"cannot write to {out}: {error.strerror}") from None
        with progress.aside():
            print_listing(f"{safe(out / (puzzle.name + '.txt'))}  islands={puzzle.islands}  "
                          f"difficulty={puzzle.difficulty}  attempt={puzzle.attempt}")

    made = [folder for folder in (out, *out.parents) if not folder.exists()]
    try:
        with workers_from_args(args) as workers:
            _make_folder(out)   # once the workers stand: a bad --dask leaves no empty folder
            kept, verdicts = generate_set(
                spec, on_attempt=progress.attempt, on_keep=write, workers=workers)
    except ValueError as error:   # settings no candidate can meet (a board too small for two islands)
        _remove_if_empty(made)   # a usage error leaves nothing behind
        raise UsageError(str(error)) from None
    tried = sum(verdicts.values())
    detail = ", ".join(f"{name} {n}" for name, n in sorted(verdicts.items()))
    progress.close(f"tried {tried}, kept {len(kept)} of {spec.count} ({detail}) "
                   f"in {time.perf_counter() - start:.1f} s")
    if len(kept) < spec.count:
        print(f"gen: {shortfall(spec, len(kept), verdicts)}", file=sys.stderr)
        return EXIT_BUDGET
    return EXIT_OK



def print_listing(line: str) -> None:
    """Print one line of the listing of files written. Once the reader has gone (`| head`),
    print nothing more but go on: the files are the work asked for, the listing is not."""
    try:
        print(line, flush=True)
    except BrokenPipeError:
        # Later lines, and the flush at exit, go to /dev/null instead of failing again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
