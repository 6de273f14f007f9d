"""The limits a match is played under, named with their units."""

from __future__ import annotations

from dataclasses import dataclass

FIRST_LINE_LIMIT_S = 1.0        # CodinGame: first output line within 1 s of the input
TURN_LIMIT_S = 0.100            # CodinGame: each later line within 100 ms of the previous one
KILL_GRACE_S = 0.050            # the bot is killed this long after a limit, so a late line is still seen
MEMORY_LIMIT_BYTES = 768 * 1024 * 1024   # CodinGame's 768 MB, for all the bot's processes together
MEMORY_SAMPLE_S = 0.025         # how often the resident memory of the bot's processes is summed
START_LIMIT_S = 10.0            # a launcher (shell, reaper) must have exec'd the bot by then
MAX_LINE_BYTES = 4096           # a longer stdout line is cut and judged malformed
STDERR_TAIL_BYTES = 4096        # how much of the end of stderr a result keeps
READ_CHUNK_BYTES = 65536        # one os.read from a pipe
BUSY_SHARE = 0.5                # a late line whose bot waited this share of the interval
                                # for a CPU others held: busy
CPU_CAP_CPUS = 1.0              # CPUs a match's processes may use at once, together (run --cpu-cap)


@dataclass(frozen=True)
class Limits:
    """The time limits of one match (seconds); defaults are CodinGame's."""

    first_line_s: float = FIRST_LINE_LIMIT_S
    turn_s: float = TURN_LIMIT_S
    grace_s: float = KILL_GRACE_S

    def for_turn(self, turn: int) -> float:
        """The limit for 1-based output line `turn`."""
        return self.first_line_s if turn == 1 else self.turn_s
