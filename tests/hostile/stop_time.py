"""How long Ctrl-C takes to end a run whose bot holds its stderr pipe's lock for good
(stderr_lock.c), in every containment mode here: the median, p99 and worst of N runs.

    .venv/bin/python -m tests.hostile.stop_time [--runs N] [--mode MODE]

Each run plays three puzzles with that bot, silent under a 30 s first-line limit; half a
second after the bot appears (its splice holds the lock by then), SIGINT goes to the
referee, and the time to its exit is taken. Beside busy processes it shows what a loaded
machine makes of the referee's promise: a run ends within a second of Ctrl-C. Run as root,
as the tests are.
"""

import argparse
import math
import signal
import statistics
import subprocess
import time
import uuid

from tests.fakebots.procs import running_with_marker
from tests.hostile import kit
from tests.hostile.table import modes

PUZZLES = [str(kit.SIMPLEST.with_name(f"{name}.txt"))
           for name in ("01_simplest", "02_simpler", "03_simple")]
START_WAIT_S = 60     # for the bot to appear
LOCKED_S = 0.5        # its splice holds the lock by then
GIVE_UP_S = 10        # a referee that has not ended by then is stuck


def stop_once(mode: str, built: dict) -> tuple[float | None, int | None, str]:
    """(seconds from SIGINT to the referee's exit, its status, the run's marker); None
    seconds where it did not end within GIVE_UP_S, or the bot never appeared."""
    marker = f"stop-{uuid.uuid4().hex[:12]}"
    bot = f"{built['stderr_lock']} {marker}"
    run = kit.run_referee(mode, f"{bot} silent", "--first-line-ms", "30000", *PUZZLES)
    took = None
    try:
        deadline = time.monotonic() + START_WAIT_S
        while not any(line.split(": ", 1)[1].startswith(bot)
                      for line in running_with_marker(marker)):
            if time.monotonic() > deadline or run.poll() is not None:
                return None, run.poll(), marker
            time.sleep(0.05)
        time.sleep(LOCKED_S)
        asked = time.monotonic()
        run.send_signal(signal.SIGINT)
        try:
            run.wait(timeout=GIVE_UP_S)
            took = time.monotonic() - asked
        except subprocess.TimeoutExpired:
            pass
    finally:
        if run.poll() is None:   # stuck: the bot, the lock's holder, must go first
            kit.kill_marked(marker)
            run.kill()
        run.communicate()
    return took, run.returncode, marker


def summary(mode: str, times: list[float | None]) -> str:
    ended = sorted(t for t in times if t is not None)
    stuck = len(times) - len(ended)
    if not ended:
        return f"| {mode} | {len(times)} | - | - | - | {stuck} |"
    p99 = ended[min(len(ended) - 1, math.ceil(0.99 * len(ended)) - 1)]
    return (f"| {mode} | {len(times)} | {statistics.median(ended):.3f} | {p99:.3f} | "
            f"{ended[-1]:.3f} | {stuck} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10, help="runs a mode (default 10)")
    parser.add_argument("--mode", help="only this containment mode")
    args = parser.parse_args()
    built = kit.build()
    print(f"| mode | runs | median s | p99 s | max s | failed: not ended in {GIVE_UP_S} s, "
          "or not 130 |")
    print("|---|---|---|---|---|---|")
    for mode in modes():
        if args.mode and mode.value != args.mode:
            continue
        times = []
        for _ in range(args.runs):
            took, status, _ = stop_once(mode.value, built)
            times.append(took if status == 130 else None)
        print(summary(mode.value, times), flush=True)


if __name__ == "__main__":
    main()
