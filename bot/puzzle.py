"""The puzzle: parsed once from CodinGame's text into immutable geometry.

Everything that never changes during a solve lives here (nodes, the candidate edge in each
direction, which edges cross), so the search state in `grid.py` stays a few flat lists.
"""

NODE_CHARS = "12345678"
BLANKS = " \t"      # the only blanks a line may carry: the referee reads the same
BOM = "\ufeff"      # an editor's mark at the start of a file, not part of the puzzle
LARGEST_SIDE = 100   # CodinGame's boards have at most 30; the lab benchmarks up to 100


class PuzzleError(ValueError):
    """The puzzle text is malformed; the message names the line."""


class Puzzle:
    """Nodes, candidate edges and crossings of one board. Never mutated after construction.

    Nodes are numbered in reading order. Edge `e` joins `ends[e] = (a, b)` with `a` left of or
    above `b`, and no node between them; `crossings[e]` lists the edges whose segment crosses
    `e`'s. `node_edges[i]` lists `(e, other_node)` for node `i`, and `edges_at[i]` the same
    edges alone (for the loops that need no neighbour).
    """

    def __init__(self, width, height, nodes):
        """Build the geometry from `nodes`: a list of (x, y, value) in reading order."""
        self.width = width
        self.height = height
        self.pos = tuple((x, y) for x, y, _ in nodes)
        self.value = tuple(v for _, _, v in nodes)
        ends, horizontal = _find_edges(self.pos)
        self.ends = tuple(ends)
        self.horizontal = tuple(horizontal)
        self.crossings = _find_crossings(width, height, self.pos, self.ends, self.horizontal)
        node_edges = [[] for _ in self.pos]
        edges_at = [[] for _ in self.pos]
        for e, (a, b) in enumerate(self.ends):
            node_edges[a].append((e, b))
            node_edges[b].append((e, a))
            edges_at[a].append(e)
            edges_at[b].append(e)
        self.node_edges = tuple(map(tuple, node_edges))
        self.edges_at = tuple(map(tuple, edges_at))

    def __len__(self):
        return len(self.pos)

    def edge_between(self, a, b):
        """Return the edge joining nodes a and b, or None if they are not neighbours."""
        for e, other in self.node_edges[a]:
            if other == b:
                return e
        return None


def _find_edges(pos):
    """Each node's nearest neighbour to the right and below: the only places a link can go.

    Nodes come in reading order, so a node's right neighbour is the next node when that one
    shares its row, and the node below is the next one met in its column.
    """
    right = [None] * len(pos)
    below = [None] * len(pos)
    last_in_column = {}
    for i, (x, y) in enumerate(pos):
        if i and pos[i - 1][1] == y:
            right[i - 1] = i
        above = last_in_column.get(x)
        if above is not None:
            below[above] = i
        last_in_column[x] = i
    ends, horizontal = [], []
    for i in range(len(pos)):
        if right[i] is not None:
            ends.append((i, right[i]))
            horizontal.append(True)
        if below[i] is not None:
            ends.append((i, below[i]))
            horizontal.append(False)
    return ends, horizontal


def _find_crossings(width, height, pos, ends, horizontal):
    """For each edge, the edges whose segments cross its interior."""
    # Each empty cell lies inside at most one horizontal edge: cell (row by row) -> that
    # edge, or -1.
    covered = [-1] * (width * height)
    for e, (a, b) in enumerate(ends):
        if horizontal[e]:
            (x1, y), (x2, _) = pos[a], pos[b]
            covered[y * width + x1 + 1:y * width + x2] = [e] * (x2 - x1 - 1)
    crossings = [[] for _ in ends]
    for e, (a, b) in enumerate(ends):
        if not horizontal[e]:
            (x, y1), (_, y2) = pos[a], pos[b]
            # The cells strictly between the ends, down the column.
            for h in covered[(y1 + 1) * width + x:y2 * width + x:width]:
                if h >= 0:
                    crossings[e].append(h)
                    crossings[h].append(e)
    return tuple(map(tuple, crossings))


def parse(text):
    """Parse CodinGame's input (width, height, then the rows) into a Puzzle; PuzzleError
    names the offending line. As the referee reads it (referee/judge/board.py): a line ends at
    LF (one CR before it dropped), one leading BOM is dropped, blanks (space, tab) may
    surround the numbers and follow a row, and only blank lines may follow the grid."""
    lines = [line.removesuffix("\r") for line in text.removeprefix(BOM).split("\n")]
    while lines and not lines[-1].strip(BLANKS):
        lines.pop()   # blank lines may end the text
    width = _side(lines, 0, "width")
    height = _side(lines, 1, "height")
    nodes = []
    for y in range(height):
        number = y + 3
        if y + 2 >= len(lines):
            raise PuzzleError(f"line {number}: missing row {y + 1} of {height}")
        row = lines[y + 2].rstrip(BLANKS)
        if len(row) != width:
            raise PuzzleError(f"line {number}: row has {len(row)} characters, expected {width}")
        for x, c in enumerate(row):
            if c == ".":
                continue
            if c in NODE_CHARS:
                nodes.append((x, y, int(c)))
            else:
                raise PuzzleError(
                    f"line {number}, column {x + 1}: unexpected character {_shown(c)} "
                    "(expected '.' or a digit 1-8)")
    for number, line in enumerate(lines[height + 2:], start=height + 3):
        if line.strip(BLANKS):   # trailing blank lines are gone: this names the first text
            raise PuzzleError(f"line {number}: unexpected text after the {height} rows")
    return Puzzle(width, height, nodes)


def _shown(char):
    """A character for a message; read_puzzle keeps a byte that is not UTF-8 as a lone
    surrogate, named here by the byte's value."""
    if "\udc80" <= char <= "\udcff":
        return f"byte 0x{ord(char) - 0xdc00:02x} that is not UTF-8"
    return repr(char)


def side_value(line):
    """The width or height a line (its end removed) gives: 1..LARGEST_SIDE, or None.
    Leading zeros are dropped before int(), which refuses strings over 4,300 digits."""
    word = line.strip(BLANKS)
    digits = word.lstrip("0")
    if not (word.isascii() and word.isdigit()) or not 0 < len(digits) <= len(str(LARGEST_SIDE)):
        return None
    value = int(digits)
    return value if value <= LARGEST_SIDE else None


def _side(lines, index, name):
    """Read the width or height from lines[index], or raise PuzzleError naming the line."""
    if index >= len(lines):
        raise PuzzleError(f"line {index + 1}: missing {name}")
    value = side_value(lines[index])
    if value is None:
        word = lines[index].strip(BLANKS)
        shown = word if len(word) <= 40 else word[:40] + "..."
        raise PuzzleError(f"line {index + 1}: {name} must be an integer 1..{LARGEST_SIDE}, "
                          f"got {shown!r}")
    return value
