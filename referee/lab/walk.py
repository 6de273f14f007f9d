"""Random Hashi puzzles with a known solution: the generation algorithm as a library.

`generate(width, height, rng)` grows a connected set of islands by a stack walk (the seed
applet's method): one island at a random cell; for the island on top of the stack, each
direction is tried once in random order; a direction's free run (cells with no island and
no bridge) gets 1 or 2 bridges to a new island placed at a random distance inside the run
(the new island is pushed), or, sometimes, to the existing island that ends the run. An
island is popped when all its directions are spent. A new island is never placed on a
bridge's path nor beyond another island, so every bridge joins nearest neighbours and no
two bridges cross. The islands' values are the sums of their bridges, so every puzzle is
connected and solvable, and the links returned are one solution.

All randomness comes from the `random.Random` passed in; `puzzle_rng(seed, index)` gives a
per-puzzle generator, so the same arguments always give the same puzzle.

Density is the target number of islands as a fraction of the cells: `density=0.15` on
30x30 asks for 135 islands. The walk stops there, or earlier when no island can grow
(about 0.2 to 0.3 of the cells is the most a walk reaches; 1.0 is the densest legal board).

Selection (Tatham's rule: keep a puzzle only if the solver at the target level proves it):
`classify` names the deepest solver stage a puzzle needs; `make_unique` adds islands on
the known solution's links until `bot.count_solutions` proves it unique (`two_solutions`
reads a second solution with bot.find_solutions, to know where to add one);
`harden` walks from a unique puzzle towards one that needs branching; `generate_set`
rejection-samples a whole set from a `SetSpec` (also parsed from `WxH:hard:unique:...`).
Every solver call has a budget in propagation rounds (`OverBudget`), never in seconds,
so the same arguments give the same puzzles on any machine.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

DIRECTIONS = ((1, 0), (0, 1), (-1, 0), (0, -1))  # right, down, left, up
DEFAULT_DENSITY = 0.15   # islands per cell
DEFAULT_JOIN = 0.3       # chance to bridge to an existing island that ends a free run
DEFAULT_DOUBLE = 0.5     # chance that a new bridge is a double one
MIN_ISLANDS = 2

Link = tuple[int, int, int, int, int]  # x1, y1, x2, y2, n with (x1, y1) < (x2, y2)


def puzzle_rng(seed: int | str, index: int) -> random.Random:
    """The random generator of puzzle `index` in a set made with `seed` (stable across runs)."""
    return random.Random(f"spoon2:{seed}:{index}")


def target_islands(width: int, height: int, density: float) -> int:
    """How many islands `density` asks for on a width x height board."""
    if not 0 < density <= 1:
        raise ValueError(f"density must be in (0, 1], got {density}")
    cells = width * height
    return max(min(MIN_ISLANDS, cells), min(cells, round(density * cells)))


def generate(width: int, height: int, rng: random.Random, density: float = DEFAULT_DENSITY,
             join: float = DEFAULT_JOIN, double: float = DEFAULT_DOUBLE,
             max_length: int | None = None, squares: bool = True,
             touching: bool = True) -> tuple[str, list[Link]]:
    """Return (puzzle text in CodinGame's input format, its known solution as links).

    `max_length` caps a bridge's length in cells (None: the free run decides); short
    bridges pack islands closer, which lets dense targets be reached. `squares=False`
    never places four islands in a 2x2 block, whose links can often be rotated into a
    second solution that no added island can rule out. `touching=False` never places a new
    island next to another one, so every link has inner cells where an island can be added.
    """
    if not (1 <= width <= 30 and 1 <= height <= 30) or width * height < 2:
        raise ValueError(f"a board is 1..30 x 1..30 with at least 2 cells, got {width}x{height}")
    target = target_islands(width, height, density)
    value: dict[tuple[int, int], int] = {}
    bridged: set[tuple[int, int]] = set()       # empty cells a bridge passes over
    links: dict[tuple[tuple[int, int], tuple[int, int]], int] = {}

    start = (rng.randrange(width), rng.randrange(height))
    value[start] = 0
    stack = [(start, _shuffled(rng))]
    while stack and len(value) < target:
        island, directions = stack[-1]
        if not directions:
            stack.pop()
            continue
        dx, dy = directions.pop()
        run, end = _free_run(island, dx, dy, width, height, value, bridged)
        if max_length is not None:
            run = run[:max_length]
        pair = tuple(sorted((island, end))) if end is not None else None
        can_join = pair is not None and len(run) == _gap(island, end) and pair not in links
        if can_join and (not run or rng.random() < join):
            other, path = end, run
        else:
            places = [k for k in range(len(run))
                      if (squares or not _completes_square(run[k], value))
                      and (touching or not _touches(run[k], value))]
            if not places:
                continue
            k = rng.choice(places)
            other, path = run[k], run[:k]
        n = 2 if rng.random() < double else 1
        value[island] += n
        value[other] = value.get(other, 0) + n
        bridged.update(path)
        links[tuple(sorted((island, other)))] = n
        if other != end:
            stack.append((other, _shuffled(rng)))

    if len(value) < 2:
        raise ValueError(f"a {width}x{height} board cannot hold two islands")
    return _text(width, height, value), sorted((*a, *b, n) for (a, b), n in links.items())


def _shuffled(rng: random.Random) -> list[tuple[int, int]]:
    directions = list(DIRECTIONS)
    rng.shuffle(directions)
    return directions


def _completes_square(cell: tuple[int, int], value) -> bool:
    """True if an island on `cell` would make a 2x2 block of islands."""
    x, y = cell
    return any((x + dx, y) in value and (x, y + dy) in value and (x + dx, y + dy) in value
               for dx in (-1, 1) for dy in (-1, 1))


def _touches(cell: tuple[int, int], value) -> bool:
    """True if an island is next to `cell` (left, right, above or below)."""
    x, y = cell
    return any((x + dx, y + dy) in value for dx, dy in DIRECTIONS)


def _gap(a: tuple[int, int], b: tuple[int, int]) -> int:
    """Cells strictly between two cells in one line."""
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) - 1


def _free_run(island, dx, dy, width, height, value, bridged):
    """The free cells from `island` in one direction, and the island that ends them (or None)."""
    run = []
    x, y = island[0] + dx, island[1] + dy
    while 0 <= x < width and 0 <= y < height:
        if (x, y) in value:
            return run, (x, y)
        if (x, y) in bridged:
            return run, None
        run.append((x, y))
        x, y = x + dx, y + dy
    return run, None


def _text(width: int, height: int, value: dict[tuple[int, int], int]) -> str:
    rows = ["".join(str(value[(x, y)]) if (x, y) in value else "." for x in range(width))
            for y in range(height)]
    return "\n".join([str(width), str(height), *rows]) + "\n"


def solution_text(links: list[Link]) -> str:
    """The links as a bot would print them: one `x1 y1 x2 y2 n` line each."""
    return "".join(" ".join(map(str, link)) + "\n" for link in links)


# -- selection: keep a puzzle only if the solver proves it at the target level ----------

EASY, MEDIUM, HARD = "easy", "medium", "hard"
DIFFICULTIES = (EASY, MEDIUM, HARD)
DEFAULT_WORK = 20000  # propagation rounds one solver check may spend before giving up


class OverBudget(Exception):
    """The solver spent its work budget without an answer."""


def _budget_stats(limit: int):
    """A bot.Stats that raises OverBudget once `limit` propagation rounds are spent.

    Counting rounds, not seconds, keeps the verdict (and so the generated files) the same
    on every machine.
    """
    import bot

    class BudgetStats(bot.Stats):
        __slots__ = ("_rounds",)

        @property
        def rounds(self):
            return self._rounds

        @rounds.setter
        def rounds(self, value):
            if value > limit:
                raise OverBudget(f"over {limit} propagation rounds")
            self._rounds = value

    return BudgetStats()


def classify(text: str, work: int = DEFAULT_WORK) -> str:
    """The deepest solver stage the puzzle needs: easy (rules), medium (elimination), hard.

    Raises OverBudget if elimination alone spends more than `work` rounds.
    """
    import bot
    from bot.assumption import ELIMINATION, RULES

    for stage, name in ((RULES, EASY), (ELIMINATION, MEDIUM)):
        try:
            bot.solve(text, stats=_budget_stats(work), stage=stage)
            return name
        except bot.Unsolvable:
            pass
    return HARD


def is_unique(text: str, work: int = DEFAULT_WORK) -> bool:
    """True if the solver proves exactly one solution (OverBudget if it cannot tell in time)."""
    import bot

    return bot.count_solutions(text, 2, stats=_budget_stats(work)) == 1


def two_solutions(text: str, work: int = DEFAULT_WORK) -> list[list[Link]]:
    """Up to two solutions of the puzzle, each a sorted list of links (OverBudget if slow)."""
    import bot

    return bot.find_solutions(text, 2, stats=_budget_stats(work))


def links_text(width: int, height: int, links: list[Link]) -> str:
    """The puzzle whose islands are the links' ends, valued by the sum of their links."""
    value: dict[tuple[int, int], int] = {}
    for x1, y1, x2, y2, n in links:
        for cell in ((x1, y1), (x2, y2)):
            value[cell] = value.get(cell, 0) + n
    return _text(width, height, value)


def _inner(link: Link) -> list[tuple[int, int]]:
    x1, y1, x2, y2, _ = link
    if y1 == y2:
        return [(x, y1) for x in range(x1 + 1, x2)]
    return [(x1, y) for y in range(y1 + 1, y2)]


def _ordered(a: tuple[int, int], b: tuple[int, int], n: int) -> Link:
    return (*min(a, b), *max(a, b), n)


def apply_repair(links: list[Link], repair: tuple) -> list[Link]:
    """Apply one repair; the known solution stays a solution of the new puzzle.

    ("split", link, cell): a new island on `cell` of `link`'s path, linked to both ends.
    ("leaf", end, cell, n): a new island on a free `cell`, linked to the island `end`.
    """
    if repair[0] == "split":
        _, link, cell = repair
        rest = [other for other in links if other != link]
        return sorted(rest + [_ordered(link[:2], cell, link[4]), _ordered(cell, link[2:4], link[4])])
    _, end, cell, n = repair
    return sorted(links + [_ordered(end, cell, n)])


def repair_choices(known: list[Link], other: list[Link]) -> list[tuple]:
    """Ways to add an island that keep the known solution and break the other one.

    A link of the other solution that the known one lacks is cut: by splitting a known link
    where they cross, or by a new leaf island on its free path, linked to one of its ends.
    A known link whose count differs is split at each of its inner cells.
    """
    mine = {link[:4] for link in known}
    under = {cell: link for link in known for cell in _inner(link)}
    counts = {link[:4]: link[4] for link in other}
    choices: list[tuple] = []
    for link in other:
        if link[:4] in mine:
            continue
        cells = _inner(link)
        choices += [("split", under[cell], cell) for cell in cells if cell in under]
        for end, path in ((link[:2], cells), (link[2:4], cells[::-1])):
            for cell in path:
                if cell in under:
                    break
                choices += [("leaf", end, cell, 1), ("leaf", end, cell, 2)]
    for link in known:
        if counts.get(link[:4], 0) != link[4]:
            choices += [("split", link, cell) for cell in _inner(link)]
    return sorted(set(choices))


def make_unique(width: int, height: int, links: list[Link], rng: random.Random,
                work: int = DEFAULT_WORK, repairs: int = 0) -> tuple[str, list[Link]] | None:
    """Add islands until the solver proves one solution; None if `repairs` run out."""
    for _ in range(repairs + 1):
        text = links_text(width, height, links)
        found = two_solutions(text, work)
        if len(found) < 2:
            return text, links
        other = found[1] if found[0] == links else found[0]
        islands = {end for link in links for end in (link[:2], link[2:4])}
        choices = [choice for choice in repair_choices(links, other)
                   if not _completes_square(choice[2], islands)]
        if not choices:
            return None
        links = apply_repair(links, rng.choice(choices))
    return None


# -- hardening: a local search from a unique puzzle towards one that needs branching -------

DEFAULT_CLIMB = 400  # mutations `harden` may try on one candidate


def grade(text: str, work: int = DEFAULT_WORK) -> tuple[int, int] | None:
    """(0 easy / 1 medium / 2 hard, assumptions elimination tried): higher is harder; None
    when the puzzle is not unique or the solver runs over budget.

    Cheapest first: the rules, then the uniqueness proof, then elimination (its probes are
    90% of a walk's time: cProfile of `harden` on 20x20), which a non-unique puzzle skips.
    """
    import bot
    from bot.assumption import ELIMINATION, RULES

    try:
        try:
            bot.solve(text, stats=_budget_stats(work), stage=RULES)
            return 0, 0
        except bot.Unsolvable:
            pass
        if not is_unique(text, work):
            return None
        stats = _budget_stats(work)
        try:
            bot.solve(text, stats=stats, stage=ELIMINATION)
            return 1, stats.assumptions
        except bot.Unsolvable:
            return 2, 0
    except OverBudget:
        return None


def mutations(links: list[Link]) -> list[tuple]:
    """Every change that keeps `links` a solution of the changed puzzle, in a fixed order.

    ("toggle", link): a single link becomes double or back; ("drop", link): a link whose
    ends keep other links and whose removal keeps the islands connected; ("leaf", cell):
    an island with one link goes; ("merge", cell): an island between two equal links in
    one line goes, the links become one; ("split", link, cell): a new island on a link.
    """
    ends: dict[tuple[int, int], list[Link]] = {}
    for link in links:
        for cell in (link[:2], link[2:4]):
            ends.setdefault(cell, []).append(link)
    found: list[tuple] = []
    for cell, touching in ends.items():
        if len(touching) == 1 and len(ends) > 2:
            found.append(("leaf", cell))
        if len(touching) == 2:
            a, b = touching
            in_line = (a[1] == a[3] == b[1] == b[3]) or (a[0] == a[2] == b[0] == b[2])
            if in_line and a[4] == b[4]:
                found.append(("merge", cell))
    for link in links:
        found.append(("toggle", link))
        if len(ends[link[:2]]) > 1 and len(ends[link[2:4]]) > 1:
            found.append(("drop", link))
        found += [("split", link, cell) for cell in _inner(link)]
    return sorted(found)


def mutate(links: list[Link], change: tuple) -> list[Link] | None:
    """Apply one of `mutations`; None if it would disconnect the islands."""
    kind = change[0]
    if kind == "toggle":
        link = change[1]
        return sorted([other for other in links if other != link] + [(*link[:4], 3 - link[4])])
    if kind == "drop":
        rest = [other for other in links if other != change[1]]
        return rest if _connected(rest) else None
    if kind == "leaf":
        return [link for link in links if change[1] not in (link[:2], link[2:4])]
    if kind == "merge":
        a, b = [link for link in links if change[1] in (link[:2], link[2:4])]
        far = sorted({a[:2], a[2:4], b[:2], b[2:4]} - {change[1]})
        return sorted([link for link in links if link not in (a, b)] + [(*far[0], *far[1], a[4])])
    return apply_repair(links, change)


def _connected(links: list[Link]) -> bool:
    neighbours: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for link in links:
        a, b = link[:2], link[2:4]
        neighbours.setdefault(a, []).append(b)
        neighbours.setdefault(b, []).append(a)
    start = next(iter(neighbours))
    seen, todo = {start}, [start]
    while todo:
        for other in neighbours[todo.pop()]:
            if other not in seen:
                seen.add(other)
                todo.append(other)
    return len(seen) == len(neighbours)


def harden(width: int, height: int, links: list[Link], rng: random.Random,
           work: int = DEFAULT_WORK, steps: int = DEFAULT_CLIMB) -> tuple[str, list[Link], str]:
    """Random local search over unique puzzles towards one that needs branching.

    Each step applies a random mutation; all keep the known solution.
    The change is kept if the puzzle stays unique, needs at least the same stage, and
    elimination tries at least 80% as many assumptions (so the walk drifts as it climbs).
    Stops at the first hard puzzle. Returns the last puzzle kept, its links and difficulty.
    """
    text = links_text(width, height, links)
    current = grade(text, work)
    if current is None:
        return text, links, "several"
    for _ in range(steps):
        if current[0] == 2:
            break
        # Uniform over all mutations, so mostly splits (one per inner cell): measured on
        # 12x12, that finds hard puzzles several times as often as choosing the kind first.
        changed = mutate(links, rng.choice(mutations(links)))
        if changed is None:
            continue
        candidate = links_text(width, height, changed)
        score = grade(candidate, work)
        if score is None or score[0] < current[0] or (
                score[0] == current[0] and score[1] < 0.8 * current[1]):
            continue
        text, links, current = candidate, changed, score
    return text, links, DIFFICULTIES[current[0]]


def select(width: int, height: int, rng: random.Random, difficulty: str | None = None,
           unique: bool = False, work: int = DEFAULT_WORK, repairs: int = 0, climb: int = 0,
           **options):
    """Generate one candidate and judge it: (text, links, verdict).

    With `unique`, up to `repairs` islands are added on the known solution's links to rule
    out other solutions; for a hard target, a unique candidate that is not hard gets up to
    `climb` steps of `harden`. `verdict` is the difficulty name when the candidate is kept, else
    why it was rejected: "easy"/"medium"/"hard" (wrong difficulty), "several" (not unique)
    or "budget" (the solver spent `work` rounds without an answer).
    """
    text, links = generate(width, height, rng, **options)
    try:
        if unique:
            fixed = make_unique(width, height, links, rng, work, repairs)
            if fixed is None:
                return text, links, "several"
            text, links = fixed
        if difficulty is not None:
            got = classify(text, work)
            if unique and climb and difficulty == HARD and got != HARD:
                text, links, got = harden(width, height, links, rng, work, climb)
            if got != difficulty:
                return text, links, got
    except OverBudget:
        return text, links, "budget"
    return text, links, difficulty or "any"


# -- sets: many puzzles from one seed, as `gen` writes them and `bench --gen` reads them ----

# Generator settings per difficulty, from measured rates (see the gen command's help):
# more joins (loops) and fewer double links leave more for elimination and branching.
# Hard sets start sparser: `harden` adds islands as it walks (0.08 on 30x30: 72 asked,
# 119-145 at the end), and a walk on 135 starting islands took 4 min per puzzle, 46 s here.
PRESETS = {
    None: {"join": 0.3, "double": 0.5, "density": DEFAULT_DENSITY},
    EASY: {"join": 0.3, "double": 0.5, "density": DEFAULT_DENSITY},
    MEDIUM: {"join": 1.0, "double": 0.1, "density": DEFAULT_DENSITY},
    HARD: {"join": 1.0, "double": 0.1, "density": 0.08},
}
DEFAULT_ATTEMPTS_PER_PUZZLE = 100
DEFAULT_REPAIRS = 40


@dataclass(frozen=True)
class SetSpec:
    """What to generate: `count` puzzles of `width` x `height` from `seed`, and the filters."""

    width: int = 10
    height: int = 10
    count: int = 10
    seed: int = 1
    density: float | None = None  # None: the difficulty's preset
    difficulty: str | None = None
    unique: bool = False
    join: float | None = None     # None: the difficulty's preset
    double: float | None = None   # None: the difficulty's preset
    attempts: int | None = None   # None: DEFAULT_ATTEMPTS_PER_PUZZLE per puzzle asked
    work: int = DEFAULT_WORK
    repairs: int = DEFAULT_REPAIRS
    climb: int = DEFAULT_CLIMB

    @property
    def name(self) -> str:
        """A short name for the set, used as the file-name prefix and the suite name."""
        parts = [f"{self.width}x{self.height}", self.difficulty or "any"]
        if self.unique:
            parts.append("unique")
        parts.append(f"s{self.seed}")
        return "_".join(parts)

    @property
    def max_attempts(self) -> int:
        return self.attempts if self.attempts is not None else DEFAULT_ATTEMPTS_PER_PUZZLE * self.count

    def options(self) -> dict:
        """Keyword arguments for `select` beyond the board size and rng."""
        preset = PRESETS[self.difficulty]
        return {
            "difficulty": self.difficulty, "unique": self.unique, "work": self.work,
            "repairs": self.repairs if self.unique else 0,
            "density": preset["density"] if self.density is None else self.density,
            "climb": self.climb if self.unique else 0,
            "join": preset["join"] if self.join is None else self.join,
            "double": preset["double"] if self.double is None else self.double,
            # Unique sets avoid islands side by side: their links could swap with nothing
            # in between where a repair island could go.
            "squares": not self.unique, "touching": not self.unique,
        }


@dataclass(frozen=True)
class Generated:
    """One kept puzzle: its name, text, known solution and the attempt index that made it."""

    name: str
    text: str
    links: list
    attempt: int
    difficulty: str

    @property
    def islands(self) -> int:
        return sum(ch.isdigit() for ch in self.text.split("\n", 2)[2])


def generate_set(spec: SetSpec, on_attempt=None, on_keep=None,
                 workers=None) -> tuple[list[Generated], dict[str, int]]:
    """Rejection-sample `spec.count` puzzles within `spec.max_attempts` candidates.

    Returns the kept puzzles (possibly fewer than asked when the attempts run out) and how
    many candidates got each verdict. Candidate i always uses `puzzle_rng(seed, i)` and
    candidates are judged in index order whatever `workers` (a referee.lab.workers.Workers;
    None: this process) runs them, so the same spec always gives the same puzzles.
    `on_attempt(tried, kept)` reports progress; `on_keep(puzzle)` sees each puzzle as soon
    as it is kept.
    """
    if workers is None:
        from referee.lab.workers import open_workers
        with open_workers() as inline:
            return generate_set(spec, on_attempt, on_keep, inline)
    kept: list[Generated] = []
    seen: set[str] = set()
    verdicts: dict[str, int] = {}
    wanted = spec.difficulty or "any"
    if spec.count == 0:
        return kept, verdicts
    attempts = ((spec, index) for index in range(spec.max_attempts))
    for index, (text, links, verdict, difficulty) in enumerate(workers.in_order(_attempt, attempts)):
        if verdict == wanted and text in seen:
            verdict = "duplicate"
        verdicts[verdict] = verdicts.get(verdict, 0) + 1
        if verdict == wanted:
            seen.add(text)
            kept.append(Generated(f"{spec.name}_{len(kept):03d}", text, links, index, difficulty))
            if on_keep is not None:
                on_keep(kept[-1])
        if on_attempt is not None:
            on_attempt(index + 1, len(kept))
        if len(kept) == spec.count:
            break
    return kept, verdicts


def _attempt(job: tuple[SetSpec, int]) -> tuple[str, list[Link], str, str]:
    """Candidate `index` of a set: (text, links, verdict, difficulty); one task for workers."""
    spec, index = job
    text, links, verdict = select(spec.width, spec.height, puzzle_rng(spec.seed, index),
                                  **spec.options())
    difficulty = spec.difficulty or (classify_or_none(text, spec.work) if verdict == "any" else "")
    return text, links, verdict, difficulty


def classify_or_none(text: str, work: int) -> str:
    """The difficulty, or "unknown" when the solver runs over budget."""
    try:
        return classify(text, work)
    except OverBudget:
        return "unknown"


_SPEC_FLAGS = {EASY: ("difficulty", EASY), MEDIUM: ("difficulty", MEDIUM), HARD: ("difficulty", HARD),
               "unique": ("unique", True)}
_SPEC_KEYS = {"count": int, "seed": int, "density": float, "join": float, "double": float,
              "attempts": int, "work": int, "repairs": int, "climb": int}


def parse_spec(text: str) -> SetSpec:
    """Parse `WxH[:easy|medium|hard][:unique][:key=value...]`, e.g. `30x30:hard:unique:count=50:seed=1`.

    Keys: count, seed, density, join, double, attempts, work, repairs, climb (as in `gen`).
    Raises ValueError naming the bad part.
    """
    size, *parts = text.split(":")
    width, height = parse_size(size)
    fields: dict = {"width": width, "height": height}
    for part in parts:
        key, eq, value = part.partition("=")
        if not eq and key in _SPEC_FLAGS:
            field, flag = _SPEC_FLAGS[key]
            fields[field] = flag
        elif eq and key in _SPEC_KEYS:
            try:
                fields[key] = _SPEC_KEYS[key](value)
            except ValueError:
                raise ValueError(f"{key}={value!r} in {text!r} is not a {_SPEC_KEYS[key].__name__}") from None
        else:
            raise ValueError(f"unknown part {part!r} in {text!r}: expected easy, medium, hard, "
                             f"unique or one of {', '.join(k + '=' for k in _SPEC_KEYS)}")
    spec = SetSpec(**fields)
    check_spec(spec)
    return spec


def parse_size(text: str) -> tuple[int, int]:
    """`WxH` -> (W, H), each 1..30."""
    w, x, h = text.lower().partition("x")
    if not (x and w.isdigit() and h.isdigit()):
        raise ValueError(f"size {text!r} is not WxH, e.g. 30x30")
    width, height = int(w), int(h)
    if not (1 <= width <= 30 and 1 <= height <= 30) or width * height < 2:
        raise ValueError(f"size {text!r}: each side is 1..30 and the board needs 2 cells")
    return width, height


def check_spec(spec: SetSpec) -> None:
    """Raise ValueError for settings no generator run could use."""
    if spec.count < 1:
        raise ValueError(f"count must be at least 1, got {spec.count}")
    if spec.density is not None and not 0 < spec.density <= 1:
        raise ValueError(f"density must be in (0, 1], got {spec.density}")
    for name in ("join", "double"):
        value = getattr(spec, name)
        if value is not None and not 0 <= value <= 1:
            raise ValueError(f"{name} must be in [0, 1], got {value}")
    if spec.max_attempts < 1 or spec.work < 1 or spec.repairs < 0 or spec.climb < 0:
        raise ValueError("attempts and work must be positive, repairs and climb not negative")
