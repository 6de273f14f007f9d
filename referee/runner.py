"""The bot's process: spawn it, read it without blocking, kill it and everything it started.

Like CodinGame: the bot gets the puzzle on stdin and stdin then stays OPEN until
the match ends (a bot that reads to EOF hangs and times out); PYTHONUNBUFFERED is
not passed on (an unflushed bot is caught); memory is capped with RLIMIT_AS.
The bot runs in its own session and process group with a fresh TMPDIR (removed
afterwards: a stickytape bundle that is killed leaves its modules there); on
close the group and every descendant found in /proc are killed and the bot is
reaped, so no process outlives its match (see proctree for children that escape).
"""

from __future__ import annotations

import os
import resource
import selectors
import shutil
import subprocess
import tempfile
import time
from collections import deque
from typing import Sequence

from referee.board import Board
from referee.limits import (MAX_LINE_BYTES, MEMORY_LIMIT_BYTES, READ_CHUNK_BYTES,
                            STDERR_TAIL_BYTES, Limits)
from referee.match import Event, EventKind, play_match
from referee.proctree import kill_orphans, kill_tree, killpg, starting_bot, track
from referee.result import MatchResult, Usage

# Variables passed to the bot; everything else (PYTHONUNBUFFERED, PYTHONPATH, ...) is dropped.
ENV_KEPT = ("PATH", "HOME", "LANG", "LC_ALL", "LC_CTYPE", "USER", "LOGNAME")
EXIT_POLL_S = 0.001   # how often wait_exit looks for the exit status
STDERR_DRAIN_READS = 16   # reads of what a killed bot left in its stderr pipe (64 KiB each)


class BotStartError(Exception):
    """The bot command could not be started at all (missing or not executable)."""


def bot_environment(tmpdir: str) -> dict[str, str]:
    """A clean environment for the bot, with its own TMPDIR."""
    env = {key: os.environ[key] for key in ENV_KEPT if key in os.environ}
    env["TMPDIR"] = tmpdir
    return env


class BotProcess:
    """A running bot; implements the match's Transport."""

    def __init__(self, argv: Sequence[str], cwd: str | None = None,
                 memory_limit_bytes: int | None = MEMORY_LIMIT_BYTES,
                 tmp_parent: str | None = None):
        self._tmpdir = tempfile.mkdtemp(prefix="referee-bot-", dir=tmp_parent)
        with starting_bot():
            self.proc = self._start(argv, cwd)
            track(self.pid, alive=True)
        if memory_limit_bytes is not None:
            _limit_memory(self.pid, memory_limit_bytes)
        self._selector = selectors.DefaultSelector()
        self._stdout = self.proc.stdout.fileno()
        self._stderr = self.proc.stderr.fileno()
        self._selector.register(self._stdout, selectors.EVENT_READ)
        self._selector.register(self._stderr, selectors.EVENT_READ)
        self._pending: deque[Event] = deque()   # complete lines read, not yet handed out
        self._partial = b""               # the start of a line not yet ended
        self._skipping = False            # dropping the rest of a cut line
        self._eof_at: float | None = None
        self._stderr_tail = b""
        self._stderr_bytes = 0
        self._status: int | None = None
        self._rusage = None
        self._closed = False
        self._usage = Usage()

    def _start(self, argv: Sequence[str], cwd: str | None) -> subprocess.Popen:
        """Spawn the bot in its own session with pipes on all three streams."""
        try:
            proc = subprocess.Popen(
                list(argv), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, bufsize=0, cwd=cwd, env=bot_environment(self._tmpdir),
                start_new_session=True, close_fds=True)
        except OSError as error:
            shutil.rmtree(self._tmpdir, ignore_errors=True)
            raise BotStartError(f"cannot start {argv[0]!r}: {error.strerror or error}") from None
        self.pid = proc.pid
        return proc

    # -- Transport ---------------------------------------------------------

    def send(self, text: str) -> float:
        data = text.encode()
        try:
            while data:
                data = data[os.write(self.proc.stdin.fileno(), data):]
        except BrokenPipeError:
            pass  # the bot is already gone; the match sees its EOF and exit status
        return time.perf_counter()

    def read_line(self, deadline: float) -> Event:
        while not self._pending:
            if self._eof_at is not None:
                return Event(EventKind.EOF, self._eof_at)
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                return Event(EventKind.TIMEOUT, deadline)
            self._pump(remaining)
        return self._pending.popleft()

    def wait_exit(self, deadline: float) -> int | None:
        while not self._reap(os.WNOHANG):
            if time.perf_counter() >= deadline:
                return None
            self._pump(EXIT_POLL_S)  # keep draining stderr so the bot cannot block on it
        return self._status

    def close(self) -> Usage:
        if self._closed:
            return self._usage
        self._closed = True
        if not self._reap(os.WNOHANG):
            kill_tree(self.pid)
            self._reap(0)
        else:
            killpg(self.pid)  # the bot is gone; children left in its group are not
        track(self.pid, alive=False)
        kill_orphans()
        self._drain_stderr()
        self._selector.close()
        for pipe in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            pipe.close()
        shutil.rmtree(self._tmpdir, ignore_errors=True)
        self._usage = self._make_usage()
        return self._usage

    def __enter__(self) -> "BotProcess":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- reading -----------------------------------------------------------

    def _pump(self, timeout: float) -> None:
        """Wait up to `timeout` for output and take whatever is there."""
        for key, _ in self._selector.select(timeout):
            data = os.read(key.fd, READ_CHUNK_BYTES)
            now = time.perf_counter()
            if key.fd == self._stdout:
                self._take_stdout(data, now)
            else:
                self._take_stderr(data)
            if not data:
                self._selector.unregister(key.fd)

    def _take_stdout(self, data: bytes, now: float) -> None:
        """Split stdout into lines stamped with their arrival; cut over-long ones."""
        if not data:
            if self._partial and not self._skipping:
                self._emit(self._partial, now)  # a last line without its newline
            self._partial = b""
            self._eof_at = now
            return
        self._partial += data
        while True:
            end = self._partial.find(b"\n")
            if end < 0:
                break
            line, self._partial = self._partial[:end], self._partial[end + 1:]
            if self._skipping:
                self._skipping = False
            else:
                self._emit(line, now)
        if len(self._partial) > MAX_LINE_BYTES and not self._skipping:
            self._emit(self._partial, now)
            self._skipping = True
        if self._skipping:
            self._partial = b""  # a flood is dropped, not stored

    def _emit(self, line: bytes, now: float) -> None:
        cut = len(line) > MAX_LINE_BYTES
        text = line[:MAX_LINE_BYTES].decode("utf-8", errors="replace").removesuffix("\r")
        self._pending.append(Event(EventKind.LINE, now, text, cut))

    def _take_stderr(self, data: bytes) -> None:
        """Keep only the tail of stderr, however much the bot writes."""
        self._stderr_bytes += len(data)
        self._stderr_tail = (self._stderr_tail + data)[-STDERR_TAIL_BYTES:]

    def _drain_stderr(self) -> None:
        """Read what a dead bot left in its stderr pipe (never blocks: writers are gone)."""
        if self._stderr not in self._selector.get_map():
            return
        os.set_blocking(self._stderr, False)
        try:
            for _ in range(STDERR_DRAIN_READS):  # bounded: an escaped child may still write
                data = os.read(self._stderr, READ_CHUNK_BYTES)
                if not data:
                    break
                self._take_stderr(data)
        except BlockingIOError:
            pass  # a surviving escaped child still holds the pipe open

    # -- ending ------------------------------------------------------------

    def _reap(self, flags: int) -> bool:
        """Collect the exit status and resource usage; True once the bot has exited."""
        if self._rusage is not None:
            return True
        pid, status, rusage = os.wait4(self.pid, flags)
        if pid == 0:
            return False
        self._status = os.waitstatus_to_exitcode(status)
        self._rusage = rusage
        self.proc.returncode = self._status  # reaped here, so Popen must not wait again
        return True

    def _make_usage(self) -> Usage:
        rusage = self._rusage
        return Usage(
            cpu_s=rusage.ru_utime + rusage.ru_stime if rusage else None,
            peak_rss_bytes=rusage.ru_maxrss * 1024 if rusage else None,  # Linux: KiB
            exit_status=self._status,
            stderr_tail=self._stderr_tail.decode("utf-8", errors="replace"),
            stderr_bytes=self._stderr_bytes)


def _limit_memory(pid: int, size: int) -> None:
    """Cap the bot's address space. Set from the parent with prlimit right after the exec
    rather than in a preexec_fn, which is unsafe when matches run in threads (--jobs)."""
    try:
        resource.prlimit(pid, resource.RLIMIT_AS, (size, size))
    except (AttributeError, ValueError, OSError):
        pass  # not Linux, or the bot already exited


def run_match(board: Board, argv: Sequence[str], limits: Limits = Limits(), name: str = "",
              path: str = "", cwd: str | None = None,
              memory_limit_bytes: int | None = MEMORY_LIMIT_BYTES,
              tmp_parent: str | None = None) -> MatchResult:
    """Start the bot, play one match, and leave nothing running.

    The bot's TMPDIR is a fresh directory in `tmp_parent` (default: the system's).
    """
    bot = BotProcess(argv, cwd=cwd, memory_limit_bytes=memory_limit_bytes,
                     tmp_parent=tmp_parent)
    return play_match(board, bot, limits, name=name, path=path)
