"""The matches `profile --bot` played of one puzzle, pooled line by line: a small bot's
lines hold a few samples each, so its match is played again and the samples of each line
added up over the matches."""

from __future__ import annotations

import statistics
from collections import Counter
from dataclasses import dataclass, field

from referee.judge.limits import Limits
from referee.judge.result import MatchResult
from referee.lab.profile.speedscope import Segment
from referee.lab.profile.turn_samples import CpuReadings, Samples, Turn, bot_samples

CODINGAME = Limits()


@dataclass(frozen=True)
class Profiled:
    """One match played under the profiler, its samples and CPU readings split by line."""

    result: MatchResult
    samples: Samples
    cpu: CpuReadings
    turns: list[Turn]
    sent_at: float

    @property
    def bot_samples(self) -> int:
        return bot_samples(self.samples)

    @property
    def cpu_before_input_s(self) -> float | None:
        """The CPU the bot used from its start to the input's stamp."""
        at = self.cpu.at(self.sent_at)
        return None if at is None else at - self.cpu.seconds[0]

    @property
    def unsampled_start_s(self) -> float | None:
        """How long after the input the sampler started: the interpreter's start."""
        if self.samples.started_at is None:
            return None
        return max(self.samples.started_at - self.sent_at, 0.0)


@dataclass
class PooledLine:
    """Line `number` over the matches that printed it."""

    number: int
    latencies: list[float] = field(default_factory=list)
    cpus: list[float] = field(default_factory=list)
    samples: int = 0
    own: Counter = field(default_factory=Counter)     # Frame -> seconds, summed over matches
    total: Counter = field(default_factory=Counter)
    segments: list[Segment] = field(default_factory=list)

    def add(self, profiled: Profiled, turn: Turn) -> None:
        self.latencies.append(turn.latency_s)
        if turn.cpu_s is not None:
            self.cpus.append(turn.cpu_s)
        self.samples += turn.samples
        self.own.update(turn.own)
        self.total.update(turn.total)
        self.segments.append((profiled.samples, turn.first, turn.last))

    @property
    def matches(self) -> int:
        return len(self.latencies)

    @property
    def latency_s(self) -> float:
        return statistics.median(self.latencies)

    @property
    def cpu_s(self) -> float | None:
        return statistics.median(self.cpus) if self.cpus else None

    @property
    def slow(self) -> bool:
        """The first line, and a line over half of CodinGame's limit in any match."""
        return self.number == 1 or max(self.latencies) > CODINGAME.for_turn(self.number) / 2


def pool_lines(matches: list[Profiled]) -> list[PooledLine]:
    """Each line number's turns over the matches, in line order."""
    lines: dict[int, PooledLine] = {}
    for profiled in matches:
        for turn in profiled.turns:
            lines.setdefault(turn.number, PooledLine(turn.number)).add(profiled, turn)
    return [lines[number] for number in sorted(lines)]
