"""Stress boards for the solver: dense layouts, random fills, big research boards, unsolvables.

A board is a layout of islands (which cells hold one) plus a random connected set of
links among them; each island's value is the sum of its links, so the board is solvable
and the links are one known solution (usually of many: the links are a random spanning
tree plus random extra loops). Links are all single, all double or mixed.

Layouts (`layout_cells`):
  full     every cell an island
  rows     every other row full of islands
  grid     every other row and every other column: islands on a lattice
  blocks   2x2 blocks of islands, one empty row and column between blocks
  fillNN   a random NN% of the cells (NN from 35 to 70)
The spanning tree is Kruskal's on the candidate edges in random order, skipping an edge
that would cross one already taken; on a fill, islands the tree cannot reach without a
crossing are dropped (so a fill keeps slightly fewer islands than asked).

Sub-suites (`SUITES`, each a folder under the output directory):
  full        the full layout on every size, each link kind
  lattice     rows, grid and blocks on every size, each link kind
  fill        random fills of 35-70% on every size, each link kind
  tree        full, rows and fill (50%) layouts on every size, single links, whose links
              are a random spanning tree and nothing else, or plus a 2% chance of each
              other edge (a few loops): solutions that are nearly trees, where a guess
              that closes a loop is found wrong only much later (the hardest boards of the
              other suites have few loops, and so came here)
  research    24 of 800 candidates (30x30 walks of referee.lab.gen.walk, and 200-400
              island fills of 30x30 to 40x40 with few loops): those on which the bot's
              solver spends the most propagation rounds. Which ones depends on the solver,
              so the pick for seed 1 is fixed in RESEARCH_KEPT (the committed suite's
              candidates) and the suite is the same whatever the solver of the day;
              another seed, or pick="solver", asks the solver of the day
  unsolvable  a dense solvable board with one island's value changed by 2 (so the sum of
              values stays even and parity alone cannot refute it), kept only when the
              SAT peer (referee.lab.peer) proves it has no solution
  tree-unsolvable  each tree board with one island's value changed by 2, kept when the
              peer proves it has no solution: almost no slack, so what refutes it is
              connection, and the search meets it late
Sizes: 20x20, 30x15, 30x30 and 40x40 (CodinGame's boards stop at 30; the bot has no limit,
and the lab loads bigger boards for benchmarks, up to referee.judge.board.LAB_MAX_SIDE).

Every board uses its own generator seeded from (seed, suite, index), so one seed always
writes byte-identical files.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import bot
from referee.lab.gen.grading import OverBudget, budget
from referee.lab.gen.walk import generate, links_text
from referee.judge import geometry
from referee.lab.peer import Cell, Link, candidate_edges, crossings, find

SIZES = ((20, 20), (30, 15), (30, 30), (40, 40))
KINDS = ("single", "double", "mixed")
LATTICES = ("rows", "grid", "blocks")
FILL_RANGE = (0.35, 0.70)
EXTRA_RANGE = (0.0, 0.6)      # chance that a non-tree edge joins the links (loops)
TREE_LAYOUTS = ("full", "rows", "fill")
TREE_EXTRAS = (0.0, 0.02)     # chance that a non-tree edge joins the links
TREE_FILL = 0.5
RESEARCH_SIZES = ((30, 30), (35, 35), (40, 40))
RESEARCH_ISLANDS = (200, 400)
RESEARCH_EXTRA = (0.05, 0.3)
WALK_DENSITY = (0.25, 0.45)   # the walk stops short of it: 180-270 islands on 30x30
RESEARCH_POOL = 800           # candidates the research suite picks its hardest from
RESEARCH_WORK = 200_000       # propagation rounds counted per candidate at most
# The research candidates kept for a seed: the 24 the solver worked hardest on when the
# committed suite (puzzles/stress/research) was made. Fixed here so that stress-gen writes
# that suite again byte for byte, whatever a later solver finds hard.
RESEARCH_KEPT = {
    1: (15, 21, 55, 59, 105, 177, 199, 217, 223, 319, 331, 349, 373, 385, 415, 429, 445, 477,
        481, 547, 661, 697, 723, 751),
}
UNSOLVABLE_SOURCES = (("full", 20, 20), ("full", 30, 15), ("full", 30, 30), ("rows", 30, 30),
                      ("blocks", 30, 30), ("fill", 20, 20), ("fill", 30, 15), ("fill", 30, 30),
                      ("fill", 40, 40))
UNSOLVABLE_TRIES = 40         # islands tried per board before giving up on one source
PEER_TIMEOUT_S = 20.0         # a candidate the peer cannot refute in this time is skipped


@dataclass(frozen=True)
class StressBoard:
    """One stress board: suite folder, file stem, puzzle text, known solution (None if unsolvable)."""

    suite: str
    name: str
    text: str
    links: list[Link] | None

    @property
    def islands(self) -> int:
        return sum(ch.isdigit() for ch in self.text.split("\n", 2)[2])


def board_rng(seed: int, suite: str, index: int) -> random.Random:
    """The generator of board `index` of `suite` (stable across runs and machines)."""
    return random.Random(f"spoon2-stress:{seed}:{suite}:{index}")


# -- layouts and links ------------------------------------------------------------------

def layout_cells(layout: str, width: int, height: int, rng: random.Random,
                 fill: float = 0.5) -> set[Cell]:
    """The cells holding an island in a layout (`fill` is the fraction for "fill")."""
    cells = [(x, y) for y in range(height) for x in range(width)]
    if layout == "full":
        return set(cells)
    if layout == "rows":
        return {(x, y) for x, y in cells if y % 2 == 0}
    if layout == "grid":
        return {(x, y) for x, y in cells if x % 2 == 0 and y % 2 == 0}
    if layout == "blocks":
        return {(x, y) for x, y in cells if x % 3 < 2 and y % 3 < 2}
    if layout == "fill":
        return set(rng.sample(cells, round(fill * len(cells))))
    raise ValueError(f"unknown layout {layout!r}")


def random_links(cells: set[Cell], rng: random.Random, kind: str, extra: float) -> list[Link]:
    """A random connected, crossing-free set of links over the largest reachable group.

    A random spanning tree (Kruskal, shuffled edges, crossing edges skipped) plus each
    other edge that crosses nothing taken with chance `extra`; amounts by `kind`. Islands
    left outside the largest tree are not linked (the caller drops them).
    """
    edges = candidate_edges(cells)
    crossing: dict[int, list[int]] = {i: [] for i in range(len(edges))}
    for i, j in crossings(edges):
        crossing[i].append(j)
        crossing[j].append(i)
    order = list(range(len(edges)))
    rng.shuffle(order)
    parent = {cell: cell for cell in cells}

    def root(cell):
        return find(parent, cell)

    taken: set[int] = set()
    blocked: set[int] = set()
    for i in order:
        a, b = edges[i]
        if i in blocked or root(a) == root(b):
            continue
        parent[root(a)] = root(b)
        taken.add(i)
        blocked.update(crossing[i])
    for i in order:
        if i not in taken and i not in blocked and rng.random() < extra:
            taken.add(i)
            blocked.update(crossing[i])
    chosen = [edges[i] for i in sorted(taken)]
    largest = set(max(geometry.groups(cells, chosen), key=len))
    return [(*a, *b, _amount(kind, rng)) for a, b in chosen if a in largest]


def _amount(kind: str, rng: random.Random) -> int:
    if kind == "single":
        return 1
    if kind == "double":
        return 2
    return rng.choice((1, 2))


def make_board(suite: str, name: str, width: int, height: int, cells: set[Cell],
               rng: random.Random, kind: str, extra: float) -> StressBoard:
    links = random_links(cells, rng, kind, extra)
    return StressBoard(suite, name, links_text(width, height, links), links)


# -- the sub-suites ---------------------------------------------------------------------

def full_suite(seed: int) -> list[StressBoard]:
    boards: list[StressBoard] = []
    for width, height in SIZES:
        for kind in KINDS:
            boards.append(_laid_out(seed, "full", "full", width, height, kind, len(boards)))
    return boards


def lattice_suite(seed: int) -> list[StressBoard]:
    boards: list[StressBoard] = []
    for layout in LATTICES:
        for width, height in SIZES:
            for kind in KINDS:
                boards.append(_laid_out(seed, "lattice", layout, width, height, kind, len(boards)))
    return boards


def _laid_out(seed: int, suite: str, layout: str, width: int, height: int, kind: str,
              index: int) -> StressBoard:
    """Board `index` of a suite: its spare links' share drawn first, then the layout."""
    rng = board_rng(seed, suite, index)
    extra = round(rng.uniform(*EXTRA_RANGE), 2)
    cells = layout_cells(layout, width, height, rng)
    return make_board(suite, f"{width}x{height}_{layout}_{kind}_{index:03d}",
                      width, height, cells, rng, kind, extra)


def fill_suite(seed: int, per_size_kind: int = 3) -> list[StressBoard]:
    boards = []
    for width, height in SIZES:
        for kind in KINDS:
            for _ in range(per_size_kind):
                rng = board_rng(seed, "fill", len(boards))
                fill = round(rng.uniform(*FILL_RANGE), 2)
                extra = round(rng.uniform(*EXTRA_RANGE), 2)
                cells = layout_cells("fill", width, height, rng, fill)
                name = f"{width}x{height}_fill{round(fill * 100)}_{kind}_{len(boards):03d}"
                boards.append(make_board("fill", name, width, height, cells, rng, kind, extra))
    return boards


def tree_suite(seed: int) -> list[StressBoard]:
    boards = []
    for layout in TREE_LAYOUTS:
        for width, height in SIZES:
            for extra in TREE_EXTRAS:
                rng = board_rng(seed, "tree", len(boards))
                cells = layout_cells(layout, width, height, rng, TREE_FILL)
                name = f"{width}x{height}_{layout}_loops{round(extra * 100)}_{len(boards):03d}"
                boards.append(make_board("tree", name, width, height, cells, rng, "single", extra))
    return boards


def research_candidate(seed: int, index: int) -> StressBoard:
    """Research candidate `index`: even ones grown by referee.lab.gen.walk on 30x30,
    odd ones a 200-400 island fill of 30x30 to 40x40 with few loops."""
    rng = board_rng(seed, "research", index)
    if index % 2 == 0:
        density = round(rng.uniform(*WALK_DENSITY), 2)
        text, links = generate(30, 30, rng, density=density, join=round(rng.uniform(0.1, 0.5), 2),
                               double=round(rng.uniform(0.2, 0.8), 2))
        return StressBoard("research", f"30x30_walk_{index:04d}", text, links)
    width, height = RESEARCH_SIZES[index // 2 % len(RESEARCH_SIZES)]
    target = rng.randint(*RESEARCH_ISLANDS)
    extra = round(rng.uniform(*RESEARCH_EXTRA), 2)
    cells = layout_cells("fill", width, height, rng, target / (width * height))
    kind = rng.choice(KINDS)
    return make_board("research", f"{width}x{height}_sparse_{kind}_{index:04d}",
                      width, height, cells, rng, kind, extra)


def solver_work(text: str, work: int = RESEARCH_WORK) -> int:
    """Propagation rounds the bot's solver spends on a board (work + 1 when over `work`).

    Counted, not timed, so picking the hardest boards gives the same files on any machine
    (for one version of the solver).
    """
    stats = budget(work)
    try:
        bot.solve(text, stats=stats)
    except OverBudget:
        return work + 1
    except bot.Unsolvable:
        pass
    return stats.rounds


def research_suite(seed: int, count: int = 24, pool: int = RESEARCH_POOL,
                   pick: str = "kept") -> list[StressBoard]:
    """The `count` research candidates (of the first `pool`) the bot works hardest on.

    With pick="kept" and a seed in RESEARCH_KEPT (at the default count and pool), the
    candidates listed there, and the bot is not consulted. With pool <= count the first
    `count` candidates are kept as they are. Otherwise the solver of the day picks.
    """
    kept = RESEARCH_KEPT.get(seed) if pick == "kept" else None
    if kept is not None and (count, pool) == (len(kept), RESEARCH_POOL):
        return [research_candidate(seed, index) for index in kept]
    candidates = [research_candidate(seed, index) for index in range(max(count, pool))]
    if pool > count:
        work = [solver_work(board.text) for board in candidates]
        hardest = sorted(range(len(candidates)), key=lambda i: (-work[i], i))[:count]
        candidates = [candidates[i] for i in sorted(hardest)]
    return candidates


def unsolvable_suite(seed: int, per_source: int = 2, sources=UNSOLVABLE_SOURCES,
                     peer_timeout_s: float = PEER_TIMEOUT_S) -> list[StressBoard]:
    """Dense solvable boards with one island's value moved by 2, proved unsolvable by the peer."""
    from referee.lab.peer import islands

    boards = []
    index = -1
    for layout, width, height in sources:
        for _ in range(per_source):
            index += 1
            rng = board_rng(seed, "unsolvable", index)
            fill = round(rng.uniform(0.55, FILL_RANGE[1]), 2)
            kind = rng.choice(KINDS)
            cells = layout_cells(layout, width, height, rng, fill)
            links = random_links(cells, rng, kind, round(rng.uniform(*EXTRA_RANGE), 2))
            _, _, values = islands(links_text(width, height, links))
            broken = _refuted_variant(width, height, values, rng, peer_timeout_s)
            if broken is not None:
                text, (x, y) = broken
                name = f"{width}x{height}_{layout}_{kind}_at{x}-{y}_{index:03d}"
                boards.append(StressBoard("unsolvable", name, text, None))
    return boards


def tree_unsolvable_suite(seed: int, sources=None,
                          peer_timeout_s: float = PEER_TIMEOUT_S) -> list[StressBoard]:
    """The tree suite's boards (or `sources`) with one island's value moved by 2, proved
    unsolvable by the peer. A near-tree has almost no slack, so what refutes it is
    connection, met late in a search; the dense unsolvable boards fall to the rules."""
    from referee.lab.peer import islands

    boards = []
    for index, source in enumerate(tree_suite(seed) if sources is None else sources):
        rng = board_rng(seed, "tree-unsolvable", index)
        width, height, values = islands(source.text)
        broken = _refuted_variant(width, height, values, rng, peer_timeout_s)
        if broken is not None:
            text, (x, y) = broken
            boards.append(StressBoard("tree-unsolvable", f"{source.name}_at{x}-{y}", text, None))
    return boards


def _refuted_variant(width: int, height: int, values: dict[Cell, int], rng: random.Random,
                     peer_timeout_s: float):
    """(text, cell): the board with the value at `cell` moved by 2 (so the sum stays even
    and parity alone cannot refute it), for the first of UNSOLVABLE_TRIES islands, in a
    random order, where the SAT peer proves the board unsolvable; None if none does."""
    from referee.lab.peer import PeerTimeout, peer_solve

    candidates = sorted(values)
    rng.shuffle(candidates)
    for cell in candidates[:UNSOLVABLE_TRIES]:
        moves = [v for v in (values[cell] - 2, values[cell] + 2) if 1 <= v <= 8]
        if not moves:
            continue
        text = _values_text(width, height, {**values, cell: rng.choice(moves)})
        try:
            if peer_solve(text, timeout_s=peer_timeout_s) is not None:
                continue
        except PeerTimeout:
            continue
        return text, cell
    return None


def _values_text(width: int, height: int, values: dict[Cell, int]) -> str:
    rows = ["".join(str(values.get((x, y), ".")) for x in range(width)) for y in range(height)]
    return "\n".join([str(width), str(height), *rows]) + "\n"


SUITES = {
    "full": full_suite,
    "lattice": lattice_suite,
    "fill": fill_suite,
    "tree": tree_suite,
    "research": research_suite,
    "unsolvable": unsolvable_suite,
    "tree-unsolvable": tree_unsolvable_suite,
}


def stress_boards(seed: int, suites=tuple(SUITES)) -> list[StressBoard]:
    """Every board of the named sub-suites, in a fixed order."""
    boards = []
    for suite in suites:
        boards.extend(SUITES[suite](seed))
    return boards
