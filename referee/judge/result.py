"""What a match leaves behind: the verdict and everything needed to explain or replay it."""

from __future__ import annotations

from dataclasses import dataclass, field

from referee.judge.board import Board
from referee.judge.rules import Verdict
from referee.units import ms_number


@dataclass(frozen=True)
class Lateness:
    """Where the bot's time went over the last interval the referee waited for a line, as
    the kernel counted it (referee/box/lateness.py): the interval split by what its
    threads were doing (their shares of it, where they wanted more than the interval)."""

    window_s: float               # the interval, from the first count to the last
    running_s: float = 0.0        # on a CPU
    machine_wait_s: float = 0.0   # ready to run, waiting for a CPU that others held
                                  # (the stamper's own wait included)
    own_wait_s: float = 0.0       # ready to run, waiting behind the bot's own threads or
                                  # held back by its CPU cap
    asleep_s: float = 0.0         # blocked: sleeping, on a lock, reading input
    own_wait_cause: str = ""      # "its own threads" or "its CPU cap"
    reading_stdin: bool = False   # at the end, a thread of the bot was blocked reading stdin

    def to_json(self) -> dict:
        return {"window_ms": ms_number(self.window_s), "running_ms": ms_number(self.running_s),
                "machine_wait_ms": ms_number(self.machine_wait_s),
                "own_wait_ms": ms_number(self.own_wait_s), "asleep_ms": ms_number(self.asleep_s),
                "own_wait_cause": self.own_wait_cause, "reading_stdin": self.reading_stdin}


@dataclass(frozen=True)
class Usage:
    """What the bot's process used, known once it is reaped."""

    cpu_s: float | None = None          # user + system time of the bot (and children it waited for)
    peak_rss_bytes: int | None = None   # peak memory of all the bot's processes together,
                                        # as sampled (its own maxrss when never sampled)
    exit_status: int | None = None      # as Popen.returncode: negative means killed by that signal
    stderr_tail: str = ""               # the last STDERR_TAIL_BYTES of stderr
    stderr_bytes: int = 0               # everything the bot wrote to stderr
    over_memory: str | None = None      # why the bot was killed at the memory cap, if it was
    box: str = ""                       # how the bot was contained ("sandboxed: bwrap as uid N")
    memory_count: str = ""              # "v1"/"v2": the kernel counted its memory; "sampled"
    stamps: str = ""                    # the stamper's priority: "real-time" or "normal priority"
    lateness: Lateness | None = None    # where its time went over the last interval waited
    stopped: bool = False               # the referee killed the bot, which had not exited:
                                        # exit_status then says only how it was stopped


@dataclass(frozen=True)
class MatchResult:
    """One bot on one puzzle: the verdict and the whole exchange.

    `lines[i]` is output line i + 1 as received; `latencies_s[i]` its delay: from the
    input for the first line, from the previous line after that.
    """

    name: str
    board: Board
    verdict: Verdict
    reason: str
    turn: int
    line: str | None
    lines: tuple[str, ...] = ()
    latencies_s: tuple[float, ...] = ()
    usage: Usage = field(default_factory=Usage)
    path: str = ""
    validator: bool | None = None   # an SDK test file's isValidator; None when it has none
    bot: str = ""                   # the bot's label ("A", "B") when several bots play
    cleanup: str = ""               # what of the bot's TMPDIR could not be removed, and why
    busy: bool = False              # lost on time while the bot waited for a CPU others held
    replayed: int = 0               # times played again after such a loss (run --replay-busy)

    @property
    def won(self) -> bool:
        return self.verdict is Verdict.WIN

    @property
    def first_line_s(self) -> float | None:
        return self.latencies_s[0] if self.latencies_s else None

    @property
    def turn_latencies_s(self) -> tuple[float, ...]:
        """Latencies of the lines after the first."""
        return self.latencies_s[1:]

    @property
    def slowest_turn_s(self) -> float | None:
        return max(self.turn_latencies_s, default=None)

    def to_json(self) -> dict:
        """A JSON-ready dict; times in milliseconds, verdict by its name."""
        return {
            "puzzle": self.name,
            "path": self.path,
            "validator": self.validator,
            "bot": self.bot,
            "input": self.board.to_text(),
            "verdict": self.verdict.value,
            "won": self.won,
            "reason": self.reason,
            "turn": self.turn,
            "line": self.line,
            "turns": len(self.lines),
            "lines": list(self.lines),
            "latencies_ms": [ms_number(s) for s in self.latencies_s],
            "first_line_ms": ms_number(self.first_line_s),
            "slowest_turn_ms": ms_number(self.slowest_turn_s),
            "cpu_ms": ms_number(self.usage.cpu_s),
            "peak_mb": _mb(self.usage.peak_rss_bytes),
            "exit_status": self.usage.exit_status,
            "stderr_tail": self.usage.stderr_tail,
            "stderr_bytes": self.usage.stderr_bytes,
            "cleanup": self.cleanup,
            "busy": self.busy,
            "replayed": self.replayed,
            "lateness": self.usage.lateness and self.usage.lateness.to_json(),
            "sandboxed": self.usage.box.startswith("sandboxed"),
            "box": self.usage.box,
            "memory_count": self.usage.memory_count,
            "stamps": self.usage.stamps,
        }


def _mb(size: int | None) -> float | None:
    return None if size is None else round(size / 2**20, 1)
