"""The referee's one progress report, on stderr: redrawn in place on a terminal, plain lines otherwise.

Two ways to feed it: `update(done, note)` for a long loop that reports now and then
(throttled), `step(note)` for one line per finished item (a match played). `close()`
ends it with a summary line, or, given none, clears the line a terminal was showing.
"""

from __future__ import annotations

import sys
import threading
import time
from typing import TextIO

from referee.terminal import safe


class Progress:
    """Progress of `total` items (None: unknown) under `label`, on `stream` (stderr).

    On a terminal the line is redrawn (at most ten times a second); when the stream is a
    file or a pipe, `update` writes a plain line every `every` seconds and `step` one line
    per item. `enabled=False` writes nothing. Safe to call from several threads.
    """

    def __init__(self, label: str, total: int | None = None, stream: TextIO | None = None,
                 every: float = 5.0, enabled: bool = True):
        self.label = label
        self.total = total
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = enabled
        self.tty = self.stream.isatty()
        self.every = 0.1 if self.tty else every
        self.done = 0
        self._last = time.perf_counter()
        self._shown = False
        self._lock = threading.Lock()

    def update(self, done: int, note: str = "") -> None:
        """`done` items so far; shown unless the last line is too recent."""
        with self._lock:
            self.done = done
            now = time.perf_counter()
            if now - self._last < self.every:
                return
            self._last = now
            self._write(self._line(note))

    def step(self, note: str = "") -> None:
        """One more item done: always shown, as a line of its own when not on a terminal."""
        with self._lock:
            self.done += 1
            self._write(self._line(note))

    def close(self, summary: str | None = None) -> None:
        with self._lock:
            if summary is not None:
                self._write(f"{self.label}: {summary}", end="\n")
            elif self.tty and self._shown and self.enabled:
                self.stream.write("\r\x1b[K")
                self.stream.flush()

    def _line(self, note: str) -> str:
        if self.total:
            bar = ""
            if self.tty:
                width = 20
                filled = width * self.done // self.total
                bar = f"[{'#' * filled}{'.' * (width - filled)}] "
            text = f"{self.label}: {bar}[{self.done}/{self.total}]"
        else:
            text = f"{self.label}: [{self.done}]"
        return f"{text} {note}".rstrip()

    def _write(self, text: str, end: str | None = None) -> None:
        if not self.enabled:
            return
        text = safe(text)   # notes carry puzzle names, which may hold any character
        self._shown = True
        if self.tty:
            self.stream.write("\r\x1b[K" + text + (end or ""))
        else:
            self.stream.write(text + "\n")
        self.stream.flush()
