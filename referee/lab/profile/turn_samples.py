"""The records of `bot_sampler.py` read back and split into the match's turns.

Turn k runs from the referee's stamp of line k - 1 (the input for the first) to its stamp
of line k. A sample counts for the time since the sample before it, in the turn it was taken in: the
sampler waits for the interpreter lock while the bot runs, so samples come further apart
than the interval on a busy bot, and the stack it then sees is the one that held the lock.
A gap over MAX_WEIGHT_S (the machine paused the bot) counts as that much.
"""

from __future__ import annotations

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
    """What the wrapper wrote: frames by id, stacks with their times and weights."""

    interval_s: float = 0.001
    frames: dict[int, Frame] = field(default_factory=dict)
    times: list[float] = field(default_factory=list)      # perf_counter of each sample
    cpu: list[float] = field(default_factory=list)        # the process's CPU seconds then
    stacks: list[tuple[int, ...]] = field(default_factory=list)   # empty for other bots
    weights: list[float] = field(default_factory=list)    # seconds each sample stands for


@dataclass(frozen=True)
class Turn:
    number: int
    latency_s: float
    cpu_s: float | None
    samples: int
    own: Counter       # frame id -> seconds at the top of the stack
    total: Counter     # frame id -> seconds anywhere in the stack
    first: int         # its samples: indexes first..last-1 of Samples
    last: int


def read_samples(data: bytes) -> Samples:
    """Parse the records; a line cut short by the bot's kill is dropped."""
    found = Samples()
    previous = None
    for raw in data.splitlines():
        try:
            record = json.loads(raw)
        except ValueError:
            continue
        kind = record[0]
        if kind == "start":
            found.interval_s = record[2]
            previous = record[1]
        elif kind == "frame":
            found.frames[record[1]] = Frame(record[2], record[3], record[4])
        elif kind in ("sample", "cpu"):
            at = record[1]
            gap = at - previous if previous is not None else found.interval_s
            found.times.append(at)
            found.cpu.append(record[2])
            found.stacks.append(tuple(record[3]) if kind == "sample" else ())
            found.weights.append(min(max(gap, 0.0), MAX_WEIGHT_S))
            previous = at
    return found


def split_turns(samples: Samples, sent_at: float, latencies: tuple[float, ...]) -> list[Turn]:
    """One Turn per output line, with the samples taken while the bot worked on it."""
    turns, start, index = [], sent_at, 0
    while index < len(samples.times) and samples.times[index] <= sent_at:
        index += 1   # start-up, before the input came
    cpu_before = _cpu_at(samples, index)
    for number, latency in enumerate(latencies, 1):
        end = start + latency
        first = index
        while index < len(samples.times) and samples.times[index] <= end:
            index += 1
        own, total = Counter(), Counter()
        for k in range(first, index):
            stack = samples.stacks[k]
            weight = min(samples.weights[k], samples.times[k] - start)   # not before the turn
            if stack:
                own[stack[-1]] += weight
                for frame in set(stack):
                    total[frame] += weight
        cpu_after = _cpu_at(samples, index)
        cpu = None if cpu_before is None or cpu_after is None else max(cpu_after - cpu_before, 0.0)
        turns.append(Turn(number, latency, cpu, index - first, own, total, first, index))
        start, cpu_before = end, cpu_after
    return turns


def _cpu_at(samples: Samples, index: int) -> float | None:
    """The CPU seconds of the last sample before `index` (the first's if none is)."""
    if not samples.cpu:
        return None
    return samples.cpu[max(index - 1, 0)]
