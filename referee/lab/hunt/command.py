"""Hunt for boards a bot loses on, and shrink each way it loses to a small board.

  spoon2 hunt --bot ./a.out --time 120
  spoon2 hunt --bot "java -cp build Player" --time 600 --jobs 2 --seed 7
  spoon2 hunt --bot "python3 bot.py" --skip timeout --max-islands 60

Plays generated boards of many shapes (the generator's walk with each difficulty's
settings, and the stress suite's layouts: referee/lab/hunt/boards.py), small ones first,
then larger up to 30x30, as `run` plays them, until --time seconds have passed. The
first time the bot loses in a way (a verdict: third_link, crossing, over_capacity,
not_a_link, malformed, incomplete, disconnected, timeout, crash, memory), that board is
queued to be shrunk: islands and links of its known solution are taken away,
delta-debugging style, while the bot still loses the same way (referee/lab/hunt/shrink.py).
The hunt goes on meanwhile: new boards and shrinks share the matches, the shrinking half
of the time when both want it (referee/lab/hunt/hunting.py), and wrong answers and crashes
are shrunk before a bot over its memory, before timeouts. Every board tried is a valid,
solvable CodinGame puzzle: each island's number is its links in what is left of the
solution, which stays connected, and its empty rows and columns are dropped.

A timeout counts only when the lateness was the bot's own: one the judge marks busy (the
machine kept the bot waiting) is no loss; a shrink plays such a board once more. The
smallest board of each way to lose is then played 3 times more, as `run` plays it, and
how often it lost the same way is said.

Each way to lose is written as DIR/VERDICT.txt (the smallest board, which `spoon2 run`
plays) and DIR/VERDICT.solution, and printed: where it was found, how far it shrank, how
its replays went, the losing line with the board drawn, and the command that replays it.
DIR/report.html is `run --html`'s page of them all. The work is counted in bot runs (every
match played) and printed with the wall time.

--skip VERDICTS leaves ways to lose alone (counted, not shrunk), --verdicts VERDICTS
chases only those (a comma list each); --max-islands N and --max-size WxH bound the
boards. --seed N gives the same boards in the same order (and, for a bot that plays the
same every time, the same small boards); --jobs N plays N matches at once, hunting and
shrinking alike. A shrink still going when the time is up stops there and keeps the
smallest board so far, said on its line; the replays come after.

Exit status: 0 no loss found, 1 a loss found (or a match the referee could not play,
which stops the hunt), 2 usage error; 130 and 143 on Ctrl-C and SIGTERM, after the
report of what was found.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from referee.cli import UsageError
from referee.cli.args import bot_argv, default_bot, integer, number, output_path, relative_path
from referee.box.sandbox import ContainmentError, choose_mode
from referee.lab.hunt.boards import LARGEST, SMALLEST, Bounds
from referee.lab.hunt.hunting import LOSSES, Hunted, Plan, hunt
from referee.lab.hunt.matches import BotRuns
from referee.lab.hunt.report import Loss, loss_text, replay_command, write_loss, write_report
from referee.judge.limits import FIRST_LINE_LIMIT_S, TURN_LIMIT_S, Limits
from referee.judge.rules import Verdict
from referee.report.progress import Progress
from referee.report.tables import loss_line

DEFAULT_OUT = "out/hunt"   # out/ is git-ignored
DEFAULT_SECONDS = 60.0
NAMES = ", ".join(v.value for v in Verdict if v in LOSSES)


def verdicts(text: str) -> frozenset[Verdict]:
    """An argparse type: ways to lose, as a comma list of verdicts (`timeout,crash`)."""
    found = set()
    for name in text.split(","):
        try:
            verdict = Verdict(name)
        except ValueError:
            verdict = None
        if verdict not in LOSSES:
            raise argparse.ArgumentTypeError(f"not a way to lose: {name!r} (one of {NAMES})")
        found.add(verdict)
    return frozenset(found)


def size(text: str) -> tuple[int, int]:
    """An argparse type: WxH, each side from SMALLEST to LARGEST."""
    match = re.fullmatch(r"([0-9]{1,3})x([0-9]{1,3})", text)
    if not match:
        raise argparse.ArgumentTypeError(f"not a size WxH: {text!r}")
    sides = int(match.group(1)), int(match.group(2))
    if not all(SMALLEST <= side <= LARGEST for side in sides):
        raise argparse.ArgumentTypeError(f"each side from {SMALLEST} to {LARGEST}, got {text}")
    return sides


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--bot", metavar="CMD", default=None,
                        help="the bot's command, as for `run` (default: dist/bot.py run by "
                             "this Python)")
    parser.add_argument("--time", type=number(low=0.0, low_open=True), default=DEFAULT_SECONDS,
                        metavar="SECONDS", help="how long to hunt, shrinking included; the "
                        "replays come after (default: %(default)g)")
    parser.add_argument("--seed", type=integer(0), default=1, metavar="N",
                        help="the hunt's seed: the same boards in the same order (default: 1)")
    parser.add_argument("--jobs", type=integer(1), default=1, metavar="N",
                        help="matches played at once, hunting and shrinking (default: 1)")
    parser.add_argument("--losses", type=integer(1), default=None, metavar="N",
                        help="stop once N ways to lose are shrunk (default: hunt until --time)")
    parser.add_argument("--verdicts", type=verdicts, default=LOSSES, metavar="LIST",
                        help="the ways to lose to chase, a comma list (default: all)")
    parser.add_argument("--skip", type=verdicts, default=frozenset(), metavar="LIST",
                        help="ways to lose counted but not chased, a comma list, e.g. timeout "
                        "(default: none)")
    parser.add_argument("--max-islands", type=integer(2), default=None, metavar="N",
                        help="boards of at most N islands (default: no bound)")
    parser.add_argument("--max-size", type=size, default=(LARGEST, LARGEST), metavar="WxH",
                        help=f"boards at most W wide and H high (default: {LARGEST}x{LARGEST})")
    parser.add_argument("--out", type=output_path, default=DEFAULT_OUT, metavar="DIR",
                        help=f"where the small boards and report.html go (default: {DEFAULT_OUT})")
    parser.add_argument("--first-line-ms", type=number(0.0, 86_400_000.0, low_open=True),
                        default=FIRST_LINE_LIMIT_S * 1000, metavar="MS",
                        help="limit for the first line, as for `run` (default: %(default)g)")
    parser.add_argument("--turn-ms", type=number(0.0, 86_400_000.0, low_open=True),
                        default=TURN_LIMIT_S * 1000, metavar="MS",
                        help="limit for each later line, as for `run` (default: %(default)g)")


def plan_of(args: argparse.Namespace) -> Plan:
    chased = args.verdicts - args.skip
    if not chased:
        raise UsageError("--skip leaves no way to lose to chase")
    width, height = args.max_size
    return Plan(seed=args.seed, seconds=args.time, verdicts=chased, wanted=args.losses,
                bounds=Bounds(width, height, args.max_islands))


def execute(args: argparse.Namespace) -> int:
    command = args.bot or default_bot()
    argv = bot_argv(command)
    plan = plan_of(args)
    out = Path(args.out)
    try:
        out.mkdir(parents=True, exist_ok=True)
        mode = choose_mode(None)
    except OSError as error:
        raise UsageError(f"cannot create --out {out}: {error.strerror or error}") from None
    except ContainmentError as error:
        raise UsageError(str(error)) from None
    limits = Limits(first_line_s=args.first_line_ms / 1000, turn_s=args.turn_ms / 1000)
    runs = BotRuns(argv, limits, args.jobs, mode)
    told: list[tuple[Loss, Path, str]] = []
    progress = Progress("hunt")

    def tell(loss: Loss) -> None:
        path = write_loss(out, loss)
        replay = replay_command(command, path, limits)
        told.append((loss, path, replay))
        with progress.aside():
            print(loss_text(loss, path, replay) + "\n", flush=True)

    hunted = Hunted()
    try:
        hunt(runs, plan, tell, progress, hunted)
    except KeyboardInterrupt:
        progress.close()
        runs.close()
        finish(hunted, told, out, limits, command, stopped=True)
        raise
    finally:
        runs.close()
    progress.close()
    finish(hunted, told, out, limits, command)
    return 1 if hunted.losses or hunted.error else 0


def finish(hunted: Hunted, told: list, out: Path, limits: Limits, command: str,
           stopped: bool = False) -> None:
    """The report page (when a loss was found) and the hunt's last lines."""
    lines = []
    if hunted.error is not None:
        lines.append(f"hunt stopped: the referee could not play a match: {loss_line(hunted.error)}")
    kinds = ", ".join(f"{loss.verdict} ({len(loss.shrunk.islands)} islands)"
                      for loss, _, _ in told) or "no loss"
    how = "stopped after" if stopped else "hunted"
    lines.append(f"hunt: {how} {hunted.boards} boards in {hunted.wall_s:.1f} s, "
                 f"{hunted.runs} bot runs; {len(told)} way(s) to lose: {kinds}")
    if hunted.seen:
        lines.append("boards lost: " + ", ".join(f"{verdict.value} {count}" for verdict, count
                                                 in hunted.seen.most_common()))
    if hunted.undecided:
        lines.append(f"boards undecided: {hunted.undecided} timeout(s) while the machine was "
                     "busy (not the bot's loss)")
    if told:
        page = write_report(out, told, limits, bot=command,
                            title=f"spoon2 hunt of {command}: {len(told)} way(s) to lose")
        lines.append(f"report: {relative_path(page)}")
    print("\n".join(lines), flush=True)
