"""A flame graph file in speedscope's format (https://www.speedscope.app, "Import"): one
sampled profile per puzzle and one per slow line, each over every match played of it,
over the frames they all share."""

from __future__ import annotations

import json
from typing import Iterable

from referee.lab.profile.turn_samples import Frame, Samples

SCHEMA = "https://www.speedscope.app/file-format-schema.json"
Segment = tuple[Samples, int, int]   # samples first..last-1 of one match


class FlameFile:
    """Profiles added one by one; `text()` is the file."""

    def __init__(self, name: str):
        self.name = name
        self.frames: list[dict] = []
        self._index: dict[Frame, int] = {}
        self.profiles: list[dict] = []

    def add(self, name: str, segments: Iterable[Segment]) -> int:
        """The samples of the bot's code in `segments` as one profile named `name`
        (milliseconds); how many there were (none: no profile)."""
        stacks, weights = [], []
        for samples, first, last in segments:
            for k in range(first, last):
                if samples.stacks[k]:
                    stacks.append([self._frame(frame) for frame in samples.stacks[k]])
                    weights.append(round(samples.weights[k] * 1000, 4))
        if stacks:
            self.profiles.append({"type": "sampled", "name": name, "unit": "milliseconds",
                                  "startValue": 0, "endValue": round(sum(weights), 4),
                                  "samples": stacks, "weights": weights})
        return len(stacks)

    def _frame(self, frame: Frame) -> int:
        if frame not in self._index:
            self._index[frame] = len(self.frames)
            self.frames.append({"name": frame.function, "file": frame.file, "line": frame.line})
        return self._index[frame]

    def text(self) -> str:
        return json.dumps({"$schema": SCHEMA, "name": self.name, "exporter": "spoon2 profile --bot",
                           "activeProfileIndex": 0, "shared": {"frames": self.frames},
                           "profiles": self.profiles}) + "\n"
