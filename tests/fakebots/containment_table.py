"""Measure each hostile fake bot under each containment mode; print a Markdown table.

    .venv/bin/python -m tests.fakebots.containment_table [--runs N]

Per mode and case: the verdict (all runs), processes of the bot still alive right after
the match (found by a marker in their command line, summed over runs), the clean-up
after the verdict (BotProcess.close: kill and reap everything; median and max over
runs, ms) and the peak memory of the bot (all its processes together, MB; max). The cap
is the real 768 MB.
"""

import argparse
import statistics
import sys
import uuid
from pathlib import Path

from referee.box import sandbox
from referee.judge.board import load_board
from referee.box.sandbox import Mode
from referee.judge.limits import Limits
from referee.judge.match import play_match
from referee.box.runner import BotProcess
from tests.fakebots.procs import running_with_marker, time_close

HERE = Path(__file__).parent
BOARD = load_board(HERE.parent.parent / "puzzles" / "public" / "01_simplest.txt")
PY = sys.executable
CASES = {
    "fork chain, a link every 5 ms": [PY, HERE / "fork_chain.py", "{m}", "--every-ms", "5"],
    "fork chain, as fast as it forks": [PY, HERE / "fork_chain.py", "{m}", "--every-ms", "0"],
    "3 children x 500 MB": [PY, HERE / "memory_split.py", "{m}", "3", "500"],
    "shell bot forks 900 MB first": ["sh", HERE / "fork_first.sh", "{m}", "900"],
    "escape codes on stderr": [PY, HERE / "escape_codes.py", "{m}"],
    "hangs after one line": [PY, HERE / "fork_chain.py", "{m}", "--every-ms", "1", "--hang"],
}


def measure(mode: Mode, argv: list) -> tuple[str, int, float, float]:
    marker = f"contain-{uuid.uuid4().hex[:10]}"
    bot = BotProcess([str(a).replace("{m}", marker) for a in argv], mode=mode)
    took = time_close(bot)
    result = play_match(BOARD, bot, Limits(first_line_s=5.0, turn_s=1.0))
    survivors = len(running_with_marker(marker))
    return result.verdict.value, survivors, took[0], (result.usage.peak_rss_bytes or 0) / 2**20


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    modes = [m for m in Mode if m is Mode.SUBREAPER
             or (m is Mode.PIDNS and sandbox.pidns_available())
             or (m is Mode.CGROUP and sandbox.cgroup_parent())]
    print("| mode | case | verdict | survivors | clean-up ms (median / max) | peak MB |")
    print("|---|---|---|---|---|---|")
    for mode in modes:
        for case, argv in CASES.items():
            runs = [measure(mode, argv) for _ in range(args.runs)]
            verdicts = "/".join(sorted({r[0] for r in runs}))
            clean = [r[2] * 1000 for r in runs]
            print(f"| {mode.value} | {case} | {verdicts} | {sum(r[1] for r in runs)} | "
                  f"{statistics.median(clean):.0f} / {max(clean):.0f} | "
                  f"{max(r[3] for r in runs):.0f} |", flush=True)


if __name__ == "__main__":
    main()
