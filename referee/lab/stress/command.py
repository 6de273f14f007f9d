"""Write the stress suite: dense, lattice, filled, research and unsolvable boards.

Writes OUT/SUITE/NAME.txt (CodinGame's input format, any size: the 40x40 boards are past
CodinGame's 30-cell bound on purpose) and OUT/SUITE/NAME.solution beside each solvable
board (its known solution, `x1 y1 x2 y2 n` lines, as `spoon2 gen` writes them). The
sub-suites and how their boards are made are described in referee/lab/stress/suite.py. The same
--seed always writes byte-identical files; the unsolvable boards are checked with the SAT
peer (referee.lab.peer, the `lab` dependency group), which takes a minute or two.

The committed suite in puzzles/stress is written again, byte for byte, by
    spoon2 stress-gen --seed 1 --out puzzles/stress
(the research boards are the candidates listed in referee.lab.stress.suite.RESEARCH_KEPT, not
those the solver finds hardest; --research-pick solver asks it instead). Without
--out the files go to out/stress.

Prints one line per board written (file, islands) to stdout; a reader that stops early
(`| head`) stops the listing, not the work: every board is still written.

Exit status: 0 written, 2 usage error (unknown suite, unwritable directory, python-sat
missing for the unsolvable suite).
"""

from __future__ import annotations

import argparse
import importlib.util
from pathlib import Path

from referee.cli import UsageError
from referee.cli.args import integer, output_path
from referee.lab.gen.command import print_listing
from referee.lab.stress.suite import SUITES, StressBoard, research_suite
from referee.lab.gen.walk import solution_text
from referee.files import write_new

PEER_SUITES = ("unsolvable", "tree-unsolvable")   # proved unsolvable by the SAT peer (python-sat)
DEFAULT_OUT = "out/stress"   # out/ is git-ignored
SOLUTION_SUFFIX = ".solution"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seed", type=integer(0), default=1, help="the suite's seed (default: 1)")
    parser.add_argument("--out", type=output_path, default=DEFAULT_OUT, metavar="DIR",
                        help=f"directory for the sub-suite folders (default: {DEFAULT_OUT})")
    parser.add_argument("--research-pick", choices=("kept", "solver"), default="kept",
                        help="the research boards: kept = the candidates fixed for the seed "
                             "(seed 1: the committed suite), solver = the 24 of 800 the "
                             "solver works hardest on (default: kept; a seed with none fixed "
                             "asks the solver)")
    parser.add_argument("--suite", action="append", default=[], choices=list(SUITES),
                        help="write only this sub-suite (repeatable; default: all of "
                             + ", ".join(SUITES) + ")")


def execute(args: argparse.Namespace) -> int:
    out = Path(args.out)
    twice = next((suite for suite in args.suite if args.suite.count(suite) > 1), None)
    if twice:   # its boards would be written, and listed, twice
        raise UsageError(f"--suite {twice} is named twice")
    suites = args.suite or list(SUITES)
    peer_needed = [suite for suite in suites if suite in PEER_SUITES]
    if peer_needed and importlib.util.find_spec("pysat") is None:   # before any file is written
        raise UsageError(f"{', '.join(peer_needed)}: needs the lab dependencies "
                         "(pip install -e '.[lab]', or make test): no module named 'pysat'")
    for suite in suites:
        try:
            boards = (research_suite(args.seed, pick=args.research_pick) if suite == "research"
                      else SUITES[suite](args.seed))
        except ImportError as error:
            raise UsageError(f"{suite}: needs the lab dependencies "
                             f"(pip install -e '.[lab]'): {error}") from None
        folder = out / suite
        for board in boards:
            _write(folder, board)
            print_listing(f"{folder / (board.name + '.txt')}  islands={board.islands}")
    return 0


def _write(folder: Path, board: StressBoard) -> None:
    """The board's file, and its solution's when it has one (the folder made if need be)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        write_new(folder / f"{board.name}.txt", board.text)
        if board.links is not None:
            write_new(folder / f"{board.name}{SOLUTION_SUFFIX}", solution_text(board.links))
    except OSError as error:   # only the files: a closed stdout is not the folder's fault
        raise UsageError(f"cannot write to {folder}: {error.strerror}") from None
