"""A flame graph file in speedscope's format (https://www.speedscope.app, "Import"): one
sampled profile per match, and one per slow turn, over the frames the matches share."""

from __future__ import annotations

import json

from referee.lab.profile.turn_samples import Samples, Turn

SCHEMA = "https://www.speedscope.app/file-format-schema.json"


class FlameFile:
    """Profiles added one by one; `text()` is the file."""

    def __init__(self, name: str):
        self.name = name
        self.frames: list[dict] = []
        self._index: dict[tuple, int] = {}
        self.profiles: list[dict] = []

    def add(self, name: str, samples: Samples, first: int = 0, last: int | None = None) -> None:
        """Samples first..last-1 as one profile named `name` (milliseconds)."""
        last = len(samples.times) if last is None else last
        stacks, weights = [], []
        for k in range(first, last):
            if samples.stacks[k]:
                stacks.append([self._frame(samples, f) for f in samples.stacks[k]])
                weights.append(round(samples.weights[k] * 1000, 4))
        if not stacks:
            return
        self.profiles.append({"type": "sampled", "name": name, "unit": "milliseconds",
                              "startValue": 0, "endValue": round(sum(weights), 4),
                              "samples": stacks, "weights": weights})

    def add_turn(self, match: str, samples: Samples, turn: Turn) -> None:
        self.add(f"{match} line {turn.number}", samples, turn.first, turn.last)

    def _frame(self, samples: Samples, frame_id: int) -> int:
        frame = samples.frames.get(frame_id)
        key = (frame.file, frame.function, frame.line) if frame else ("?", f"frame {frame_id}", 0)
        if key not in self._index:
            self._index[key] = len(self.frames)
            self.frames.append({"name": key[1], "file": key[0], "line": key[2]})
        return self._index[key]

    def text(self) -> str:
        return json.dumps({"$schema": SCHEMA, "name": self.name, "exporter": "spoon2 profile --bot",
                           "activeProfileIndex": 0, "shared": {"frames": self.frames},
                           "profiles": self.profiles}) + "\n"
