"""Play one CodinGame turn sequence: read the puzzle from stdin, print one link per line.

Exit status: 0 solved, 1 no solution, 2 malformed input, a grid with no island included
(one line on stderr each time).
"""

import sys
import time

from bot.options import DEFAULT
from bot.pacing import Pacer
from bot.puzzle import PuzzleError
from bot.solver import Unsolvable, solve

EXIT_UNSOLVABLE = 1
EXIT_MALFORMED = 2


def read_puzzle(stream):
    """Read exactly the puzzle's lines: CodinGame keeps stdin open, so never read to EOF."""
    lines = [stream.readline(), stream.readline()]
    word = lines[1].strip()
    rows = int(word) if word.isascii() and word.isdigit() else 0
    for _ in range(rows):
        line = stream.readline()
        if not line:
            break
        lines.append(line)
    return "".join(lines)


def main(options=DEFAULT, pacer=Pacer):
    """Play the puzzle on stdin (`options` tune the search, `pacer` makes the Pacer)."""
    text = read_puzzle(sys.stdin)
    # CodinGame's clock runs from the input: so does the pacer's.
    pacer = pacer(sys.stdout, start=time.monotonic()).start()
    try:
        links = solve(text, sure=pacer.sure, press=pacer, options=options)
        if not links:   # only a grid without islands needs no link; the referee rejects it too
            raise PuzzleError("the grid has no island")
    except PuzzleError as error:
        pacer.stop()
        print(f"bot: malformed puzzle: {error}", file=sys.stderr)
        sys.exit(EXIT_MALFORMED)
    except Unsolvable as error:
        pacer.stop()
        said = ("no solution holds the links guessed when the sure ones ran out"
                if pacer.guesses else error)
        print(f"bot: {said}", file=sys.stderr)
        sys.exit(EXIT_UNSOLVABLE)
    try:
        # CodinGame reads each turn as it comes: every line is flushed.
        pacer.finish(links)
    except BrokenPipeError:
        sys.exit(0)
