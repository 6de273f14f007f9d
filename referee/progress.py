"""A one-line progress report on stderr: redrawn in place on a terminal, plain lines otherwise."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    """`update(done, note)` as work goes; `close(summary)` at the end.

    On a terminal the line is redrawn (at most ten times a second); when stderr is a file
    or a pipe, only a plain line every `every` seconds and the summary are written.
    """

    def __init__(self, label: str, total: int | None = None, stream: TextIO | None = None,
                 every: float = 5.0):
        self.label = label
        self.total = total
        self.stream = stream if stream is not None else sys.stderr
        self.tty = self.stream.isatty()
        self.every = 0.1 if self.tty else every
        self._last = time.perf_counter()

    def update(self, done: int, note: str = "") -> None:
        now = time.perf_counter()
        if now - self._last < self.every:
            return
        self._last = now
        self._write(self._line(done, note))

    def close(self, summary: str) -> None:
        self._write(f"{self.label}: {summary}", end="\n")

    def _line(self, done: int, note: str) -> str:
        if self.total:
            width = 20
            filled = width * done // self.total
            bar = f"[{'#' * filled}{'.' * (width - filled)}] " if self.tty else ""
            text = f"{self.label}: {bar}{done}/{self.total}"
        else:
            text = f"{self.label}: {done}"
        return f"{text} {note}".rstrip()

    def _write(self, text: str, end: str | None = None) -> None:
        if self.tty:
            self.stream.write("\r\x1b[K" + text + (end or ""))
        else:
            self.stream.write(text + "\n")
        self.stream.flush()
