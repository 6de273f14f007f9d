"""The boards `hunt` plays: many shapes, each with a known solution, from one seed.

Board `index` of a hunt takes the shape SHAPES[index % len(SHAPES)], so every shape comes
round early, and a size from SIZES drawn by its own generator (seeded from the hunt's seed
and the index: the same seed gives the same boards, whatever ran before). The shapes are
those of the lab's sets:
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

from referee.lab.gen.sets import PRESETS
from referee.lab.stress.suite import (EXTRA_RANGE, FILL_RANGE, KINDS, TREE_EXTRAS, TREE_FILL,
                                TREE_LAYOUTS, layout_cells, random_links)
from referee.lab.gen.walk import generate
from referee.lab.hunt.witness import Witness

WALKS = {"walk-any": None, "walk-medium": "medium", "walk-hard": "hard"}
LAYOUTS = ("full", "rows", "grid", "blocks", "fill")
SHAPES = (*WALKS, *LAYOUTS, "tree")
SIZES = ((6, 6), (8, 8), (10, 10), (12, 12), (15, 15), (20, 20), (30, 15), (30, 30))


def hunt_rng(seed: int, index: int) -> random.Random:
    """The generator of board `index` of a hunt (stable across runs and machines)."""
    return random.Random(f"spoon2-hunt:{seed}:{index}")


def hunt_board(seed: int, index: int) -> tuple[str, Witness]:
    """Board `index` of the hunt `seed`: (its name, the board with its solution)."""
    rng = hunt_rng(seed, index)
    shape = SHAPES[index % len(SHAPES)]
    width, height = rng.choice(SIZES)
    name = f"{index:04d}_{shape}_{width}x{height}"
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
    return name, Witness(width, height, tuple(sorted(links)))
