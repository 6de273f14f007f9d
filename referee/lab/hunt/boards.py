"""The boards `hunt` plays: many shapes, each with a known solution, small ones first.

Board `index` of a hunt takes the shape SHAPES[index % len(SHAPES)], so every shape comes
round early, and is made by its own generator (seeded from the hunt's seed and the index:
the same seed gives the same boards, whatever ran before). The sizes grow: the first
round of shapes is played at the smallest size of SIZES, the next round at the next size,
and so on; past the largest, each board's size is drawn from them all. A slow bot thus
meets the small boards, where its wrong answers are quick to show, before its time limit.
`Bounds` caps the sizes (each clipped to the largest board allowed) and the islands (a
board with more keeps a compact block of that many: referee.lab.hunt.witness.Witness.at_most).
The shapes are those of the lab's sets:
  walk-any, walk-medium, walk-hard  the generator's walk (referee.lab.gen.walk) with the
                 settings `gen` uses for each difficulty (referee.lab.gen.sets.PRESETS: joins,
                 double links, density); not graded, so no solver runs
  full, rows, grid, blocks, fill     the stress suite's layouts (referee.lab.stress.suite), each
                 with single, double or mixed links and a random share of loops
  tree           a stress tree: single links on a random spanning tree, few loops or none
Sizes run from 6x6 to 30x30 (CodinGame's largest); the stress suite's 40x40 is left out.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from referee.lab.gen.sets import PRESETS
from referee.lab.stress.suite import (EXTRA_RANGE, FILL_RANGE, KINDS, TREE_EXTRAS, TREE_FILL,
                                      TREE_LAYOUTS, layout_cells, random_links)
from referee.lab.gen.walk import generate
from referee.lab.hunt.witness import Witness

WALKS = {"walk-any": None, "walk-medium": "medium", "walk-hard": "hard"}
LAYOUTS = ("full", "rows", "grid", "blocks", "fill")
SHAPES = (*WALKS, *LAYOUTS, "tree")
SIZES = ((6, 6), (8, 8), (10, 10), (12, 12), (15, 15), (20, 20), (30, 15), (30, 30))
LARGEST = 30          # CodinGame's largest side
SMALLEST = 3          # the least side a bound may set: every shape makes a board there


@dataclass(frozen=True)
class Bounds:
    """The largest boards a hunt plays: sides and islands (None: no cap on islands)."""

    width: int = LARGEST
    height: int = LARGEST
    islands: int | None = None

    def sizes(self) -> tuple[tuple[int, int], ...]:
        """SIZES, each clipped to the bounds, in order, each once."""
        clipped = [(min(w, self.width), min(h, self.height)) for w, h in SIZES]
        return tuple(dict.fromkeys(clipped))


def hunt_rng(seed: int, index: int) -> random.Random:
    """The generator of board `index` of a hunt (stable across runs and machines)."""
    return random.Random(f"spoon2-hunt:{seed}:{index}")


def hunt_board(seed: int, index: int, bounds: Bounds = Bounds()) -> tuple[str, Witness]:
    """Board `index` of the hunt `seed`: (its name, the board with its solution)."""
    rng = hunt_rng(seed, index)
    shape = SHAPES[index % len(SHAPES)]
    sizes = bounds.sizes()
    drawn = rng.choice(sizes)
    grown = index // len(SHAPES)
    width, height = sizes[grown] if grown < len(sizes) else drawn
    if shape in WALKS:
        preset = PRESETS[WALKS[shape]]
        _, links = generate(width, height, rng, density=preset["density"],
                            join=preset["join"], double=preset["double"])
    elif shape == "tree":
        cells = layout_cells(rng.choice(TREE_LAYOUTS), width, height, rng, TREE_FILL)
        links = random_links(cells, rng, "single", rng.choice(TREE_EXTRAS))
    else:
        cells = layout_cells(shape, width, height, rng, rng.uniform(*FILL_RANGE))
        links = random_links(cells, rng, rng.choice(KINDS), rng.uniform(*EXTRA_RANGE))
    witness = Witness(width, height, tuple(sorted(links)))
    if bounds.islands is not None:
        witness = witness.at_most(bounds.islands)
    return f"{index:04d}_{shape}_{witness.width}x{witness.height}", witness
