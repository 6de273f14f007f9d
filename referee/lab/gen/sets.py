"""Sets: many puzzles from one seed, as `gen` writes them and `bench --gen` reads them.

`select` makes one candidate with the walk and judges it (uniqueness, difficulty,
hardening); `generate_set` rejection-samples a whole set from a `SetSpec` (also parsed
from `WxH:hard:unique:...` by `parse_spec`), candidates judged in index order whatever
workers run them, so the same spec always gives the same puzzles.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from referee.judge.board import MAX_SIDE
from referee.cli import UsageError
from referee.lab.gen.grading import (DEFAULT_WORK, EASY, HARD, MEDIUM, OverBudget, classify,
                                 classify_or_none, make_unique)
from referee.lab.gen.hardening import DEFAULT_CLIMB, harden
from referee.lab.gen.walk import DEFAULT_DENSITY, Link, generate, puzzle_rng
from referee.lab.workers import open_workers


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
# The most puzzles one --gen SPEC makes (`gen --count` writes as it goes: no bound). A
# 30x30 board and its match result take tens of KB; 1000 such matches take minutes.
MAX_COUNT = 1000
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
    def boards_name(self) -> str:
        """`name` and each setting that changes the boards from the preset, e.g.
        5x5_any_s1_density0.6: specs of one boards_name make the same boards (count and
        attempts say only how many, candidate i being the same in all)."""
        preset = SetSpec(self.width, self.height, difficulty=self.difficulty,
                         unique=self.unique).options()
        changed = [f"{key}{value if isinstance(value, int) else format(value, 'g')}"
                   for key, value in self.options().items() if value != preset[key]]
        return "_".join([self.name, *changed])

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


def shortfall(spec: SetSpec, kept: int, verdicts: dict[str, int]) -> str:
    """Why a set came short of its count, and what to change (for `gen` and `play --gen`)."""
    tried = sum(verdicts.values())
    detail = ", ".join(f"{name} {n}" for name, n in sorted(verdicts.items()))
    text = f"only {kept} of {spec.count} puzzles found in {tried} attempts ({detail}); "
    if not spec.unique and spec.difficulty in (EASY, MEDIUM) and verdicts.get(HARD, 0) > tried // 2:
        # A board with two solutions cannot be solved without a guess: it grades hard.
        return text + ("most boards had several solutions and so needed search: ask for unique "
                       "ones (--unique, or unique in a SPEC)")
    return text + ("raise the attempts (--attempts, or attempts= in a SPEC) or relax the "
                   "difficulty, uniqueness or density")


def _attempt(job: tuple[SetSpec, int]) -> tuple[str, list[Link], str, str]:
    """Candidate `index` of a set: (text, links, verdict, difficulty); one task for workers."""
    spec, index = job
    text, links, verdict = select(spec.width, spec.height, puzzle_rng(spec.seed, index),
                                  **spec.options())
    difficulty = spec.difficulty or (classify_or_none(text, spec.work) if verdict == "any" else "")
    return text, links, verdict, difficulty


_SPEC_FLAGS = {EASY: ("difficulty", EASY), MEDIUM: ("difficulty", MEDIUM), HARD: ("difficulty", HARD),
               "unique": ("unique", True)}
_SPEC_KEYS = {"count": int, "seed": int, "density": float, "join": float, "double": float,
              "attempts": int, "work": int, "repairs": int, "climb": int}


def generate_named(text: str, spec: SetSpec, **kwargs) -> tuple[list[Generated], dict[str, int]]:
    """generate_set for the option --gen TEXT: settings no candidate can meet (a 2x1 board
    holds no two islands) are a usage error naming it, not a traceback."""
    try:
        return generate_set(spec, **kwargs)
    except ValueError as error:
        raise UsageError(f"--gen {text}: {error}") from None


def parse_spec(text: str) -> SetSpec:
    """Parse `WxH[:easy|medium|hard][:unique][:key=value...]`, e.g. `30x30:hard:unique:count=50:seed=1`.

    Keys: count (at most MAX_COUNT), seed, density, join, double, attempts, work, repairs,
    climb (as in `gen`). Raises ValueError naming the bad part.
    """
    size, *parts = text.split(":")
    width, height = parse_size(size)
    fields: dict = {"width": width, "height": height}
    for part in parts:
        key, eq, value = part.partition("=")
        if not eq and key in _SPEC_FLAGS:
            field, setting = _SPEC_FLAGS[key]
        elif eq and key in _SPEC_KEYS:
            field = key
            try:
                setting = _SPEC_KEYS[key](value)
            except ValueError:
                raise ValueError(f"{key}={value!r} in {text!r} is not a {_SPEC_KEYS[key].__name__}") from None
        else:
            raise ValueError(f"unknown part {part!r} in {text!r}: expected easy, medium, hard, "
                             f"unique or one of {', '.join(k + '=' for k in _SPEC_KEYS)}")
        if field in fields:   # the last would win silently: count=5:count=50
            raise ValueError(f"{part!r} in {text!r} says again what an earlier part said ({field})")
        fields[field] = setting
    spec = SetSpec(**fields)
    check_spec(spec)
    if spec.count > MAX_COUNT:
        raise ValueError(f"count must be at most {MAX_COUNT}, got {spec.count}: a --gen set "
                         "is made whole in memory before its first use, and `run` keeps "
                         "every match's result; for more, use several seeds")
    return spec


def refuse_same_boards(parsed: list) -> None:
    """A usage error if two --gen SPECs make the same boards, under the same names."""
    seen: dict[str, str] = {}
    for text, spec in parsed:
        other = seen.get(spec.boards_name)
        if other == text:
            raise UsageError(f"--gen {text} is named twice")
        if other is not None:
            raise UsageError(f"--gen {text} makes the boards of --gen {other} "
                             "(count and attempts say only how many)")
        seen[spec.boards_name] = text


def parse_size(text: str) -> tuple[int, int]:
    """`WxH` -> (W, H), each side 1..MAX_SIDE (30)."""
    w, x, h = text.lower().partition("x")
    if not (x and w.isascii() and w.isdigit() and h.isascii() and h.isdigit() and len(w + h) < 6):
        raise ValueError(f"size {text!r} is not WxH, e.g. 30x30")
    width, height = int(w), int(h)
    if not (1 <= width <= MAX_SIDE and 1 <= height <= MAX_SIDE) or width * height < 2:
        raise ValueError(f"size {text!r}: each side is 1..{MAX_SIDE} and the board needs 2 cells")
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
