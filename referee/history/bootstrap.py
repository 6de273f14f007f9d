"""How sure a ratio of two runs' times is: the geometric mean of paired ratios, with a
seeded bootstrap interval over the pairs (standard library only).

Each pair is one puzzle timed in both runs. The interval says how far the mean ratio
moves when the puzzles are drawn again with replacement; when it holds 1, the runs are not
told apart: `no difference`. It knows only the spread between puzzles: a machine that was
busier for one whole run shifts every puzzle alike, which is why the runs' load is compared
beside it.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

RESAMPLES = 2000
LEVEL = 0.95
SEED = 1
MIN_PAIRS = 3   # fewer pairs give no interval worth printing


@dataclass(frozen=True)
class Ratio:
    ratio: float                 # geometric mean of new/old over the pairs
    low: float | None            # the interval; None with fewer than MIN_PAIRS pairs
    high: float | None
    pairs: int

    @property
    def differs(self) -> bool:
        return self.low is not None and not self.low <= 1.0 <= self.high

    def text(self, slower: str = "slower", faster: str = "faster") -> str:
        """'x1.12 [1.05, 1.19]: slower', 'x0.99 [0.95, 1.03]: no difference'."""
        if self.low is None:
            return f"x{self.ratio:.2f} ({self.pairs} pair(s): too few to tell)"
        said = (slower if self.ratio > 1 else faster) if self.differs else "no difference"
        return f"x{self.ratio:.2f} [{self.low:.2f}, {self.high:.2f}]: {said}"


def paired_ratio(pairs: list[tuple[float, float]], seed: int = SEED,
                 resamples: int = RESAMPLES, level: float = LEVEL) -> Ratio | None:
    """new/old over (old, new) pairs of positive figures; None when no pair has both."""
    logs = [math.log(new / old) for old, new in pairs if old > 0 and new > 0]
    if not logs:
        return None
    point = math.exp(math.fsum(logs) / len(logs))
    if len(logs) < MIN_PAIRS:
        return Ratio(point, None, None, len(logs))
    draw = random.Random(seed)
    means = sorted(math.fsum(draw.choices(logs, k=len(logs))) / len(logs)
                   for _ in range(resamples))
    tail = (1 - level) / 2
    low = means[int(tail * resamples)]
    high = means[min(resamples - 1, int((1 - tail) * resamples))]
    return Ratio(point, math.exp(low), math.exp(high), len(logs))


def grouped_ratio(old_runs: list[dict], new_runs: list[dict], seed: int = SEED,
                  resamples: int = RESAMPLES, level: float = LEVEL,
                  paired: bool = False) -> Ratio | None:
    """new/old where each side is several runs ({puzzle: positive figure} each) of the same
    puzzles: a puzzle's figure is its median over the side's runs, and the bootstrap draws
    the runs of each side as well as the puzzles, so a whole run slowed alike widens the
    interval. `paired`: the sides' runs went in turn, run i of one beside run i of the
    other (as many a side), so a draw takes the same runs of both and a spell that slowed
    both alike moves no ratio. One run a side is paired_ratio. None when no puzzle has a
    figure everywhere."""
    keys = [k for k in old_runs[0] if all(_positive(run.get(k)) for run in old_runs + new_runs)]
    if not keys:
        return None
    if len(old_runs) == len(new_runs) == 1:
        return paired_ratio([(old_runs[0][k], new_runs[0][k]) for k in keys], seed, resamples, level)
    point = _mean_log(keys, old_runs, new_runs)
    if len(keys) < MIN_PAIRS:
        return Ratio(math.exp(point), None, None, len(keys))
    draw = random.Random(seed)
    means = sorted(_mean_log(draw.choices(keys, k=len(keys)),
                             *_draw_runs(draw, old_runs, new_runs, paired))
                   for _ in range(resamples))
    tail = (1 - level) / 2
    return Ratio(math.exp(point), math.exp(means[int(tail * resamples)]),
                 math.exp(means[min(resamples - 1, int((1 - tail) * resamples))]), len(keys))


def _draw_runs(draw: random.Random, old_runs: list, new_runs: list, paired: bool) -> tuple:
    """Each side's runs drawn again with replacement: the same indices for both if paired."""
    if not paired:
        return draw.choices(old_runs, k=len(old_runs)), draw.choices(new_runs, k=len(new_runs))
    picks = draw.choices(range(len(old_runs)), k=len(old_runs))
    return [old_runs[i] for i in picks], [new_runs[i] for i in picks]


def _mean_log(keys, old_runs, new_runs) -> float:
    """The mean over `keys` of log(median over new_runs / median over old_runs)."""
    return math.fsum(math.log(_median([r[k] for r in new_runs]) / _median([r[k] for r in old_runs]))
                     for k in keys) / len(keys)


def _median(values: list[float]) -> float:
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def _positive(value) -> bool:
    return value is not None and value > 0
