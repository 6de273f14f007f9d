"""What a profiled match leaves, split into its turns: the sampler's stacks (a Python bot)
and the bot's CPU readings (every bot), cut where each of the bot's lines ended.

Turn k runs from the end of line k - 1 (the input's stamp for the first) to the end of line
k: the moment the bot's process says the line left it (the sampler's "wrote" records), where
that came before the referee's stamp (the referee stamps a line once it has read it, and
work the bot did in between is the next line's), else the stamp. A sample counts for the
time since the sample before it, in the turn it was taken in: the sampler waits for the
interpreter lock while the bot runs, so samples come further apart than the interval on a
busy bot, and the stack it then sees is the one that held the lock. A gap over
MAX_WEIGHT_S (the machine paused the bot) counts as that much. A sample with an empty
stack was taken outside the bot's code: its time is no function's.
"""

from __future__ import annotations

import bisect
import json
from collections import Counter
from dataclasses import dataclass, field

MAX_WEIGHT_S = 0.05


@dataclass(frozen=True)
class Frame:
    file: str
    function: str
    line: int


@dataclass
class Samples:
    """What the sampler wrote: stacks with their times and weights."""

    interval_s: float = 0.001
    started_at: float | None = None   # the sampler's start: the bot's code runs after it
    times: list[float] = field(default_factory=list)      # perf_counter of each sample
    stacks: list[tuple[Frame, ...]] = field(default_factory=list)   # outermost first
    weights: list[float] = field(default_factory=list)    # seconds each sample stands for
    wrote: list[tuple[float, int]] = field(default_factory=list)   # (T, line ends gone by T)


@dataclass(frozen=True)
class CpuReadings:
    """The bot's CPU seconds at perf_counter times, and what counted them."""

    times: tuple[float, ...] = ()
    seconds: tuple[float, ...] = ()
    source: str = ""

    def at(self, moment: float) -> float | None:
        """The CPU seconds at `moment`, between the readings on either side of it."""
        if not self.times:
            return None
        k = bisect.bisect_left(self.times, moment)
        if k == 0:
            return self.seconds[0]
        if k == len(self.times):
            return self.seconds[-1]
        t0, t1 = self.times[k - 1], self.times[k]
        c0, c1 = self.seconds[k - 1], self.seconds[k]
        return c0 + (c1 - c0) * (moment - t0) / (t1 - t0) if t1 > t0 else c1


@dataclass(frozen=True)
class Turn:
    number: int
    latency_s: float
    cpu_s: float | None
    samples: int       # samples of the bot's code
    own: Counter       # Frame -> seconds at the top of the stack
    total: Counter     # Frame -> seconds anywhere in the stack
    first: int         # its samples: indexes first..last-1 of Samples
    last: int


def read_samples(data: bytes) -> Samples:
    """Parse the records; a line cut short by the bot's kill is dropped."""
    found = Samples()
    frames: dict[int, Frame] = {}
    previous = None
    for raw in data.splitlines():
        try:
            record = json.loads(raw)
        except ValueError:
            continue
        kind = record[0]
        if kind == "start":
            found.started_at, found.interval_s = record[1], record[2]
            previous = record[1]
        elif kind == "frame":
            frames[record[1]] = Frame(record[2], record[3], record[4])
        elif kind == "sample":
            at = record[1]
            gap = at - previous if previous is not None else found.interval_s
            found.times.append(at)
            found.stacks.append(tuple(frames.get(i, Frame("?", f"frame {i}", 0))
                                      for i in record[2]))
            found.weights.append(min(max(gap, 0.0), MAX_WEIGHT_S))
            previous = at
        elif kind == "wrote":
            found.wrote.append((record[1], record[2]))
    return found


def split_turns(samples: Samples, cpu: CpuReadings, sent_at: float,
                latencies: tuple[float, ...]) -> list[Turn]:
    """One Turn per output line, with the samples taken while the bot worked on it; the
    first line's CPU counts from the first reading (the bot's start), not the input."""
    turns, start, stamp, index, told = [], sent_at, sent_at, 0, 0
    while index < len(samples.times) and samples.times[index] <= sent_at:
        index += 1   # start-up, before the input came
    cpu_before = cpu.seconds[0] if cpu.seconds else None
    wrote = samples.wrote   # counts only grow: one pass finds each line's record
    for number, latency in enumerate(latencies, 1):
        stamp += latency
        while told < len(wrote) and wrote[told][1] < number:
            told += 1
        end = stamp if told == len(wrote) else max(start, min(stamp, wrote[told][0]))
        first = index
        while index < len(samples.times) and samples.times[index] <= end:
            index += 1
        own, total, count = Counter(), Counter(), 0
        for k in range(first, index):
            stack = samples.stacks[k]
            if stack:
                weight = min(samples.weights[k], samples.times[k] - start)   # not before the turn
                count += 1
                own[stack[-1]] += weight
                for frame in set(stack):
                    total[frame] += weight
        cpu_after = cpu.at(end)
        used = None if cpu_before is None else max(cpu_after - cpu_before, 0.0)
        turns.append(Turn(number, latency, used, count, own, total, first, index))
        start, cpu_before = end, cpu_after
    return turns


def bot_samples(samples: Samples) -> int:
    """How many samples were taken in the bot's code (start-up included)."""
    return sum(1 for stack in samples.stacks if stack)
