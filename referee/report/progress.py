"""The referee's one progress report, on stderr: redrawn in place on a terminal, plain lines otherwise.

Two ways to feed it: `update(done, note)` for a long loop that reports now and then
(throttled), `step(note)` for one line per finished item (a match played). `close()`
ends it with a summary line, or, given none, clears the line a terminal was showing.
A result printed while the line is up goes through `aside()`, so the two never share a
line. `SetProgress` counts a generated set: puzzles kept of the count asked, attempts beside.
"""

from __future__ import annotations

import sys
import threading
import time
from contextlib import contextmanager
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
        self._line_up = ""   # what a terminal shows now, to draw again after a result
        self._lock = threading.RLock()

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

    @contextmanager
    def aside(self):
        """Around printing a result: on a terminal the progress line is cleared first and
        drawn again after, so a result never shares its line (stdout and stderr meet on
        one screen)."""
        with self._lock:
            up = self._line_up
            self._clear()
            try:
                yield
            finally:
                if up:
                    self._write(up)

    def close(self, summary: str | None = None) -> None:
        with self._lock:
            if summary is not None:
                self._write(f"{self.label}: {summary}", end="\n")
            else:
                self._clear()

    def _clear(self) -> None:
        if self.tty and self._line_up and self.enabled:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
        self._line_up = ""

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
        if self.tty:
            self.stream.write("\r\x1b[K" + text + (end or ""))
            self._line_up = "" if end else text
        else:
            self.stream.write(text + "\n")
        self.stream.flush()


class SetProgress(Progress):
    """A generated set's progress: the bar counts the puzzles kept of the `count` asked;
    the attempts tried are shown beside it, against the most the set may try."""

    def __init__(self, label: str, count: int, attempts: int, **kwargs):
        super().__init__(label, count, **kwargs)
        self.attempts = attempts

    def attempt(self, tried: int, kept: int) -> None:
        """After each candidate: `tried` so far, `kept` of them. A new puzzle kept is
        always shown; attempts alone are throttled."""
        if kept != self.done and self.tty:
            self._last = 0.0
        self.update(kept, f"kept, {tried} of at most {self.attempts} attempts")
