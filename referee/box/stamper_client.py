"""The referee's end of the stamping process (referee/box/stamper.py).

`StamperServer` is this referee's stamper server, started at its first match: each match
asks it for a stamper (a fork, not a Python's start). `StamperLink` is one match's stamper,
which starts the bot's launcher; it sends the stamper its commands (open the gate, the
input, a sync, close the input, kill) and reads what comes back: the launcher's pid, the
bot's output as stamped lines (referee/box/lines.py), the launcher's exit, and at the end
the tail of the bot's stderr.

The referee reads no pipe of the bot's, only the stamper's frames: a bot can hold its own
pipes' locks, and a read waiting on such a lock waits in the kernel for good. Every wait
for the stamper's answer is bounded by the time the caller gives it.
"""

from __future__ import annotations

import atexit
import os
import selectors
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Sequence

from referee.judge.limits import READ_CHUNK_BYTES, STDERR_TAIL_BYTES
from referee.box.lines import Frame, FrameReader, LineSplitter, StderrTail

STAMPER = Path(__file__).with_name("stamper.py")
SERVER_WAIT_S = 0.1       # for the server to leave at the end of its socket, then killed


class StamperServer:
    """The server that forks this referee's stampers; one per referee process."""

    _lock = threading.Lock()
    _current: "StamperServer | None" = None

    def __init__(self):
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            self.proc = subprocess.Popen([sys.executable, "-I", "-S", str(STAMPER)],
                                         stdin=theirs, stdout=subprocess.DEVNULL,
                                         close_fds=True)
        except OSError:
            ours.close()
            raise
        finally:
            theirs.close()
        self._socket = ours
        self._owner = os.getpid()   # a forked referee starts a server of its own
        atexit.register(self.stop)

    def stop(self) -> None:
        """End the server (the referee is leaving): it goes at the end of its socket, or
        is killed (it holds nothing the referee needs, and Ctrl-C must end a run at once)."""
        if self._owner != os.getpid():
            return
        self._socket.close()
        try:
            self.proc.wait(timeout=SERVER_WAIT_S)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            try:
                self.proc.wait(timeout=SERVER_WAIT_S)
            except subprocess.TimeoutExpired:
                pass   # dying: the system reaps it once the referee is gone

    @classmethod
    def warm(cls) -> None:
        """Start the server now, if it is not running, so that its own start (some 30 ms
        of a Python's) overlaps the run's preparation rather than delaying the first match."""
        with cls._lock:
            cls._live()

    @classmethod
    def _live(cls) -> "StamperServer":
        """The server of this process, started anew if none runs (the lock held)."""
        server = cls._current
        if server is None or server._owner != os.getpid() or server.proc.poll() is not None:
            server = cls._current = cls()
        return server

    @classmethod
    def request(cls, text: str, fds: Sequence[int]) -> None:
        """Have a stamper forked with `fds` ([frames, control, *passed]); a server
        that has died is started again, once."""
        with cls._lock:
            for attempt in range(2):
                server = cls._live()
                try:
                    socket.send_fds(server._socket, [text.encode()], list(fds))
                    return
                except OSError:
                    cls._current = None
                    if attempt:
                        raise

    @classmethod
    def pid(cls) -> int | None:
        """The running server's pid (None before the first match)."""
        server = cls._current
        return server.proc.pid if server and server._owner == os.getpid() else None


class StamperLink:
    """One match's stamper: commands out, frames in."""

    def __init__(self, launcher: list[str], cwd: str, env: dict[str, str],
                 join: list[str], pass_fds: Sequence[int], idle: bool = False):
        control_read, self._control = os.pipe()
        self._out, frames = os.pipe()
        text = "\0".join([cwd, ":".join(join), ",".join(map(str, pass_fds)),
                          "1" if idle else "", str(STDERR_TAIL_BYTES), str(len(env)),
                          *(f"{key}={value}" for key, value in env.items()), *launcher])
        try:
            StamperServer.request(text, [frames, control_read, *pass_fds])
        except OSError:
            for fd in (self._control, self._out):
                os.close(fd)
            raise
        finally:
            for fd in (control_read, frames):
                os.close(fd)
        self._frames = FrameReader()
        self.lines = LineSplitter()
        self.stderr = StderrTail()
        self._tails = 0   # the stderr frames taken
        self.stamper_pid: int | None = None
        self._early: list[Frame] = []   # output read before anyone asked for it
        self.launcher_pid: int | None = None
        self.real_time = False
        self.input_at: float | None = None
        self.exit_text: str | None = None   # the launcher's `status cpu_s maxrss_kib`
        self._synced = False
        self._selector = selectors.DefaultSelector()
        self._selector.register(self._out, selectors.EVENT_READ)

    @property
    def alive(self) -> bool:
        """The stamper's frames still come (it has not ended)."""
        held = self._selector.get_map()   # None once the link is closed
        return held is not None and self._out in held

    def poll(self, timeout: float, started: bool = True) -> list[Frame]:
        """Wait up to `timeout` for frames and take them; the frames read. Before the bot
        has `started`, its output is left to the caller (the start mark is in it)."""
        frames = []
        if not self._selector.select(max(0.0, timeout)):
            return frames
        data = os.read(self._out, READ_CHUNK_BYTES)
        if not data:
            self._selector.unregister(self._out)
        for frame in self._frames.feed(data):
            self._take(frame, started)
            frames.append(frame)
        return frames

    def _take(self, frame: Frame, started: bool) -> None:
        if frame.kind == "T":
            self.stamper_pid = frame.size
        elif frame.kind == "P":
            self.launcher_pid = frame.size
        elif frame.kind == "R":
            self.real_time = bool(frame.size)
        elif frame.kind == "I":
            self.input_at = frame.at
        elif frame.kind == "Y":
            self._synced = True
        elif frame.kind == "O" and started:
            self.lines.take(frame.data, frame.at)
        elif frame.kind == "E" and started:
            self.lines.end(frame.at)
        elif frame.kind == "X":
            self.exit_text = frame.data.decode()
        elif frame.kind == "D":
            self.stderr = StderrTail.from_frame(frame.data)
            self._tails += 1

    def await_launcher(self, limit_s: float, pump) -> int | None:
        """The launcher's pid, read within `limit_s`; the output read meanwhile is kept
        for read_to_mark."""
        deadline = time.perf_counter() + limit_s
        while self.launcher_pid is None and self.alive and time.perf_counter() < deadline:
            self._early += [f for f in pump(deadline - time.perf_counter()) if f.kind in "OE"]
        return self.launcher_pid

    def read_to_mark(self, mark: bytes, limit_s: float, pump) -> bool:
        """Read the launcher's output up to `mark`, for `limit_s` at most, with `pump` (a
        poll of the frames that leaves output to this reader); False if it never came, or
        the launcher ended first. What follows the mark is the bot's, its end included
        (in order: a bot may write and exit before this reader runs)."""
        deadline = time.perf_counter() + limit_s
        seen = b""
        while not seen.startswith(mark) and time.perf_counter() < deadline:
            batch, self._early = self._early or pump(deadline - time.perf_counter()), []
            for frame in batch:
                if frame.kind == "O" and seen.startswith(mark):
                    self.lines.take(frame.data, frame.at)   # the bot's, in the same batch
                elif frame.kind == "O":
                    seen += frame.data
                    if seen.startswith(mark) and len(seen) > len(mark):
                        self.lines.take(seen[len(mark):], frame.at)
                elif frame.kind in "EX":
                    deadline = 0.0
                    if frame.kind == "E" and seen.startswith(mark):
                        self.lines.end(frame.at)
        return seen.startswith(mark)

    def _command(self, data: bytes) -> None:
        try:
            os.write(self._control, data)
        except OSError:
            pass   # the stamper is gone: its pipe tells the rest

    def _await(self, done, pump, limit_s: float) -> None:
        """Pump until `done()`, the stamper's end, or `limit_s` have passed."""
        deadline = time.perf_counter() + limit_s
        while not done() and self.alive and time.perf_counter() < deadline:
            pump(deadline - time.perf_counter())

    def open_gate(self) -> None:
        """Let the launcher, held at its gate, write its start mark and exec the bot."""
        self._command(b"G")

    def send_input(self, data: bytes, pump, limit_s: float) -> float:
        """Have the stamper write the input; its stamp, or the time it was asked for if
        none comes within `limit_s` (a bot that holds its stdin is timed from the asking)."""
        asked = time.perf_counter()
        self._command(b"I" + len(data).to_bytes(4, "little") + data)
        self._await(lambda: self.input_at is not None, pump, limit_s)
        return self.input_at if self.input_at is not None else asked

    def sync(self, pump, limit_s: float) -> None:
        """Return once the stamper has sent every byte it read before now, or `limit_s`
        has passed (what it read later came later)."""
        if not self.alive:
            return
        self._synced = False
        self._command(b"S")
        self._await(lambda: self._synced, pump, limit_s)

    def close_input(self) -> None:
        self._command(b"C")

    def take_stderr(self, limit_s: float) -> None:
        """Have the stamper send the bot's stderr as it stands (it sends it again, whole,
        as it leaves); `limit_s` at most."""
        asked = self._tails
        self._command(b"D")
        self._await(lambda: self._tails > asked, lambda timeout: self.poll(timeout), limit_s)

    def kill(self, pump, limit_s: float) -> None:
        """Have the stamper end the launcher, and wait for its exit's report, `limit_s`
        at most."""
        self._command(b"K")
        self._await(lambda: self.exit_text is not None, pump, limit_s)

    def close(self, limit_s: float) -> None:
        """The stamper leaves at the end of its commands (its frames end, the bot's stderr
        in its last one). One that lingers past `limit_s` is killed."""
        os.close(self._control)
        self._await(lambda: False, lambda timeout: self.poll(timeout), limit_s)
        if self.alive and self.stamper_pid:
            try:
                os.kill(self.stamper_pid, signal.SIGKILL)
            except OSError:
                pass
        self._selector.close()
        os.close(self._out)
