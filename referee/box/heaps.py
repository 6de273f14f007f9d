"""The heap each runtime is told it may use under the match's memory cap.

A JVM or Node sizes its heap from the memory it believes it has: the host's RAM where the
box hides the cgroup (a 6 GB heap on a 24 GB machine: a bot that churns garbage grows past
the cap and is killed), a quarter of the cap where it sees the cgroup (192 MB: a bot with a
300 MB heap fails). Every Java and Node process of the bot is told its heap outright,
through the environment (so a script that starts java is told too): the cap less
HEADROOM_BYTES, what a runtime uses beside its heap (JIT code and compiler arenas,
metaspace, the collector's own tables, thread stacks). A heap named on the command line
(`java -Xmx2g`) still wins: the JVM reads JAVA_TOOL_OPTIONS before its arguments.
"""

from __future__ import annotations

HEADROOM_BYTES = 128 << 20


def heap_bytes(cap_bytes: int) -> int:
    """The heap for a cap: the cap less HEADROOM_BYTES, at least half the cap."""
    return max(cap_bytes // 2, cap_bytes - HEADROOM_BYTES)


def runtime_environment(cap_bytes: int | None) -> dict[str, str]:
    """The variables that set Java's and Node's heaps under `cap_bytes` (none uncapped)."""
    if cap_bytes is None:
        return {}
    megabytes = heap_bytes(cap_bytes) >> 20
    return {"JAVA_TOOL_OPTIONS": f"-Xmx{megabytes}m",
            "NODE_OPTIONS": f"--max-old-space-size={megabytes}"}
