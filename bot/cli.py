"""Play one CodinGame turn sequence: read the puzzle from stdin, print one link per line.

Exit status: 0 solved, 1 no solution, 2 malformed input, a grid with no island included
(one line on stderr each time).
"""

import select
import sys
import time

from bot.options import DEFAULT
from bot.pacing import Pacer
from bot.puzzle import PuzzleError, side_value
from bot.solver import Unsolvable, solve

EXIT_UNSOLVABLE = 1
EXIT_MALFORMED = 2
READ_BYTES = 1 << 16
MAX_INPUT_BYTES = 1 << 24   # a 100x100 puzzle is 10 KB: more is not a puzzle


def read_puzzle(stream):
    """The puzzle's text from `stream` (stdin): its lines, then whatever else is there
    already. CodinGame keeps stdin open, so never wait for EOF; but what a file has after
    the grid is seen, and refused as the referee refuses it. Never raises: a byte that is
    not UTF-8 becomes a character the parser refuses at its line."""
    try:   # its file, read unbuffered (`os.read` would import `os`, at start-up's cost)
        raw = getattr(stream, "buffer", stream).raw   # (a text stream's, or a binary one's)
        fd = raw.fileno()
    except (AttributeError, OSError, ValueError):   # an in-memory stream: all of it is there
        return stream.read()
    data, lines, wanted = bytearray(), 0, None
    while wanted is None or lines < wanted:
        chunk = raw.read(READ_BYTES)
        if not chunk:
            break
        data += chunk
        lines += chunk.count(b"\n")
        if wanted is None and lines >= 2:   # the rows the height line announces
            line = data.split(b"\n", 2)[1].removesuffix(b"\r")
            height = side_value(line.decode("ascii", "replace"))
            wanted = 2 + (height or 0)
        if len(data) > MAX_INPUT_BYTES:
            break
    while len(data) <= MAX_INPUT_BYTES and select.select([fd], [], [], 0)[0]:
        chunk = raw.read(READ_BYTES)
        if not chunk:
            break
        data += chunk
    return data.decode("utf-8", errors="surrogateescape")


def main(options=DEFAULT, pacer=Pacer):
    """Play the puzzle on stdin (`options` tune the search, `pacer` makes the Pacer)."""
    text = read_puzzle(sys.stdin)
    # CodinGame's clock runs from the input: so does the pacer's.
    pacer = pacer(sys.stdout, start=time.monotonic())
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
