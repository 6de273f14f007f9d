"""Where to look next when the bot is not Python: its language's own profiler, as a
command to run from the folder `profile --bot` ran in, on one puzzle, with the file it
writes and how to read it."""

from __future__ import annotations

import shlex

JFR = "-XX:StartFlightRecording=filename=bot.jfr,settings=profile,method-profiling=max"
NODE = ["--cpu-prof", "--cpu-prof-interval", "100"]   # microseconds: 10 samples a ms
ASYNC_PROFILER = "/path/to/libasyncProfiler.so=start,event=cpu,interval=1ms,file=flame.html"
PERF = ["perf", "record", "-F", "10000", "--call-graph", "dwarf", "-o", "perf.data", "--"]


def next_tool(argv: list[str], language: str, puzzle: str) -> list[str]:
    """Lines: the command that profiles the bot on `puzzle`, then how to read its file."""
    stdin = f" < {shlex.quote(puzzle)}"
    if language == "java":
        return [f"  {shlex.join([argv[0], JFR, *argv[1:]])}{stdin}",
                "then: jfr print --events jdk.ExecutionSample bot.jfr (JDK 21 and later: "
                "jfr view hot-methods bot.jfr), or JDK Mission Control;",
                f"or async-profiler: java -agentpath:{ASYNC_PROFILER} ..."]
    if language == "node":
        return [f"  {shlex.join([argv[0], *NODE, *argv[1:]])}{stdin}",
                "then open the CPU.*.cpuprofile it writes in https://www.speedscope.app or "
                "Chrome's DevTools"]
    return [f"  {shlex.join([*PERF, *argv])}{stdin}",
            "then: perf report -i perf.data (build with -g for source lines; "
            "apt-get install linux-perf brings perf)"]
