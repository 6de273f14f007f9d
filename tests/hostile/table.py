"""Run every bot of the hostile kit in every containment mode here; print a Markdown table.

    .venv/bin/python -m tests.hostile.table [--mode MODE] [--case TEXT]

Per mode and case: the verdict, the kernel's peak of the bot's memory (MB; the memory
bots play under a 200 MB cap, pipes under 100 MB, the others under CodinGame's 768 MB), the match's seconds
(start to clean-up; limits 30 s to the first line, 2 s a turn), what the bot said it
managed (the last line of its stderr) and what it left on the machine (processes, System V
objects, /dev/shm files). Run as root, as the tests are.
"""

import argparse
import re
import time
import uuid

from referee.box import sandbox
from referee.judge.board import load_board
from referee.box.sandbox import Mode
from referee.judge.limits import Limits
from referee.judge.match import play_match
from referee.box.runner import BotProcess
from tests.fakebots.procs import SESSION_TMP, wait_until_none_running
from tests.hostile import cases, kit

# memory bots fill before their first line; the others hang, if at all, after one
LIMITS = Limits(first_line_s=30.0, turn_s=2.0)


def modes() -> list[Mode]:
    return [m for m in Mode if m is Mode.SUBREAPER
            or (m is Mode.PIDNS and sandbox.pidns_available())
            or (m is Mode.BWRAP and sandbox.bubblewrap.bwrap() is not None)]


def play(mode: Mode, case: str, built: dict, context: cases.Context):
    """(result, leftovers) of one match of `case`."""
    cap = {**cases.CASES, **cases.QUEUE_CASES}[case][0]
    marker = f"hostile-{uuid.uuid4().hex[:12]}"
    kwargs = {"memory_limit_bytes": cap} if cap else {}
    bot = BotProcess(cases.argv(case, built, marker, context), mode=mode, tmp_parent=SESSION_TMP, **kwargs)
    start = time.monotonic()
    result = play_match(load_board(kit.SIMPLEST), bot, LIMITS)
    seconds = time.monotonic() - start
    wait_until_none_running(1.0)
    return result, seconds, kit.leftovers(marker)


# the lines of the bot's report that say what it managed (else its last line)
SHOWN = {
    "read /etc/shadow, write a host file": r"(shadow|unlink|overwrite): .*",
    "move to the root cgroup": r"cgroup: /sys/fs/cgroup/memory/cgroup.procs: .*",
    "setuid(0), setuid-root id, su": r"root: (setuid\(0\)|`/\S+/id` printed).*",
    "ptrace/SIGSTOP the referee and all": r"(visible|kill\(-1, SIGSTOP\)): .*",
}


def said(case: str, stderr: str) -> str:
    lines = [line for line in stderr.splitlines() if line.strip()]
    if case in SHOWN:
        lines = ["; ".join(line for line in lines if re.fullmatch(SHOWN[case], line))]
    text = re.sub(r"`/\S+/id`", "id (setuid root)", lines[-1]) if lines else ""
    return text.replace("|", "/")[:120]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", choices=[m.value for m in Mode])
    parser.add_argument("--case", default="", help="only the cases whose name holds TEXT")
    args = parser.parse_args()
    built = kit.build()
    server = cases.listener()
    context = cases.Context(cases.host_file(), server.getsockname()[1],
                            cases.setuid_copy_of_id())
    print("| mode | case | verdict | peak MB | s | what the bot managed (its stderr) | left |")
    print("|---|---|---|---|---|---|---|")
    for mode in modes():
        if args.mode and mode.value != args.mode:
            continue
        for case in [*cases.CASES, *cases.QUEUE_CASES]:
            if args.case not in case:
                continue
            result, seconds, left = play(mode, case, built, context)
            peak = (result.usage.peak_rss_bytes or 0) / 2**20
            print(f"| {mode.value} | {case} | {result.verdict.value} | {peak:.0f} | {seconds:.1f} | "
                  f"{said(case, result.usage.stderr_tail)} | {len(left) or 'nothing'} |", flush=True)
    connections = cases.accepted(server)
    intact = open(context.host_file).read() == "the host's\n"
    print(f"\nTCP connections the listener accepted: {len(connections)}; "
          f"the host file intact: {'yes' if intact else 'NO'}")


if __name__ == "__main__":
    main()
