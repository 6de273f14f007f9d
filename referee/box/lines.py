"""The bot's output as the match reads it: stamped frames in, stamped lines out.

The stamping process (referee/box/stamper.py) sends what it read with the time it read it;
here that becomes lines, each stamped with the arrival of the chunk that ended it. A line
longer than MAX_LINE_BYTES is cut and marked, and the rest of it dropped, not stored. The
stamper keeps the tail of the bot's stderr and sends it as it leaves.
"""

from __future__ import annotations

from collections import deque
from typing import NamedTuple

from referee.judge.limits import MAX_LINE_BYTES, STDERR_TAIL_BYTES
from referee.judge.match import Event, EventKind
from referee.box.stamper import COUNT, FRAME


class Frame(NamedTuple):
    kind: str
    at: float
    size: int
    data: bytes


class FrameReader:
    """Frames parsed from the bytes of the stamper's pipe, as they come."""

    def __init__(self):
        self._buffer = b""

    def feed(self, data: bytes) -> list[Frame]:
        self._buffer += data
        frames = []
        while len(self._buffer) >= FRAME.size:
            kind, at, size = FRAME.unpack_from(self._buffer)
            carries = kind in (b"O", b"X", b"D")
            end = FRAME.size + (size if carries else 0)
            if len(self._buffer) < end:
                break
            frames.append(Frame(kind.decode(), at, size, self._buffer[FRAME.size:end]))
            self._buffer = self._buffer[end:]
        return frames


class LineSplitter:
    """Output chunks into line events."""

    def __init__(self):
        self.events: deque[Event] = deque()
        self._partial = b""
        self._skipping = False     # dropping the rest of a cut line
        self.lines_seen = 0

    def take(self, data: bytes, at: float) -> None:
        self._partial += data
        while (end := self._partial.find(b"\n")) >= 0:
            line, self._partial = self._partial[:end], self._partial[end + 1:]
            if self._skipping:
                self._skipping = False
            else:
                self._emit(line, at)
        if len(self._partial) > MAX_LINE_BYTES and not self._skipping:
            self._emit(self._partial, at)
            self._skipping = True
        if self._skipping:
            self._partial = b""    # a flood is dropped, not stored

    def end(self, at: float) -> None:
        """Stdout closed: a last line without its newline still counts."""
        if self._partial and not self._skipping:
            self._emit(self._partial, at)
        self._partial = b""
        self.events.append(Event(EventKind.EOF, at))

    def _emit(self, line: bytes, at: float) -> None:
        cut = len(line) > MAX_LINE_BYTES
        text = line[:MAX_LINE_BYTES].decode("utf-8", errors="replace").removesuffix("\r")
        self.lines_seen += 1
        self.events.append(Event(EventKind.LINE, at, text, cut))


class StderrTail:
    """The end of the bot's stderr (the stamper keeps STDERR_TAIL_BYTES of it), and how
    many bytes it wrote in all."""

    def __init__(self, tail: bytes = b"", count: int = 0):
        self.tail = tail[-STDERR_TAIL_BYTES:]
        self.bytes = count

    @classmethod
    def from_frame(cls, data: bytes) -> "StderrTail":
        """From a `D` frame: the count, then the tail."""
        return cls(data[COUNT.size:], COUNT.unpack_from(data)[0])

    def text(self) -> str:
        return self.tail.decode("utf-8", errors="replace")
