"""Run every bot of the hostile kit in every containment mode here; print a Markdown table.

    .venv/bin/python -m tests.hostile.table [--mode MODE] [--case TEXT]

Per mode and case: the verdict, the kernel's peak of the bot's memory (MB; the memory
bots play under a 200 MB cap, the others under CodinGame's 768 MB), what the bot said
it managed (the last line of its stderr) and what it left on the machine (processes,
System V objects, /dev/shm files). Run as root, as the tests are.
"""

import argparse
import uuid

from referee import containment
from referee.board import load_board
from referee.containment import Mode
from referee.limits import Limits
from referee.match import play_match
from referee.runner import BotProcess
from tests.fakebots.procs import SESSION_TMP, wait_until_none_running
from tests.hostile import cases, kit

GENEROUS = Limits(first_line_s=60.0, turn_s=10.0)   # memory bots fill before a line


def modes() -> list[Mode]:
    return [m for m in Mode if m is Mode.SUBREAPER
            or (m is Mode.PIDNS and containment.pidns_available())
            or (m is Mode.BWRAP and containment.box.bwrap() is not None)]


def play(mode: Mode, case: str, built: dict, context: cases.Context):
    """(result, leftovers) of one match of `case`."""
    cap = cases.CASES[case][0]
    marker = f"hostile-{uuid.uuid4().hex[:12]}"
    kwargs = {"memory_limit_bytes": cap} if cap else {}
    bot = BotProcess(cases.argv(case, built, marker, context), mode=mode, tmp_parent=SESSION_TMP, **kwargs)
    result = play_match(load_board(kit.SIMPLEST), bot, GENEROUS)
    wait_until_none_running(1.0)
    return result, kit.leftovers(marker, kit.box_uid(result.usage.box))


def said(stderr: str) -> str:
    lines = [line for line in stderr.splitlines() if line.strip()]
    return lines[-1].replace("|", "/")[:90] if lines else ""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", choices=[m.value for m in Mode])
    parser.add_argument("--case", default="", help="only the cases whose name holds TEXT")
    args = parser.parse_args()
    built = kit.build()
    server = cases.listener()
    context = cases.Context(cases.host_file(), server.getsockname()[1],
                            cases.setuid_copy_of_id())
    print("| mode | case | verdict | peak MB | the bot's last word | left |")
    print("|---|---|---|---|---|---|")
    for mode in modes():
        if args.mode and mode.value != args.mode:
            continue
        for case in cases.CASES:
            if args.case not in case:
                continue
            result, left = play(mode, case, built, context)
            peak = (result.usage.peak_rss_bytes or 0) / 2**20
            print(f"| {mode.value} | {case} | {result.verdict.value} | {peak:.0f} | "
                  f"{said(result.usage.stderr_tail)} | {len(left) or 'nothing'} |", flush=True)
    connections = cases.accepted(server)
    print(f"\nTCP connections the listener accepted: {len(connections)}; "
          f"host file intact: {open(context.host_file).read() == 'the host' + chr(39) + 's' + chr(10)}")


if __name__ == "__main__":
    main()
