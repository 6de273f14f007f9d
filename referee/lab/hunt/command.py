"""Hunt for boards a bot loses on, and shrink each way it loses to a small board.

  spoon2 hunt --bot ./a.out --time 120
  spoon2 hunt --bot "java -cp build Player" --time 600 --jobs 2 --seed 7

Plays generated boards of many shapes (the generator's walk with each difficulty's
settings, and the stress suite's layouts: referee/lab/hunt/boards.py) at sizes from 6x6
to 30x30, as `run` plays them, until --time seconds have passed. The first time the bot
loses in a way (a verdict: third_link, crossing, over_capacity, not_a_link, malformed,
incomplete, disconnected, timeout, crash, memory), that board is shrunk: islands and
links of its known solution are taken away, delta-debugging style, while the bot still
loses the same way (referee/lab/hunt/shrink.py). Every board tried is a valid, solvable
CodinGame puzzle: each island's number is its links in what is left of the solution,
which stays connected. A match lost on time is played again before it counts.

Each way to lose is written as DIR/VERDICT.txt (the smallest board, which `spoon2 run`
plays) and DIR/VERDICT.solution, and printed: where it was found, how far it shrank, the
losing line with the board drawn, and the command that replays it. DIR/report.html is
`run --html`'s page of them all. The work is counted in bot runs (every match played,
replays of timeouts included) and printed with the wall time.

--seed N gives the same boards in the same order (and, for a bot that plays the same
every time, the same small boards); --jobs N plays N matches at once (more, on a busy
machine, makes timeouts that the replay has to clear). A shrink still going when the
time is up stops there and keeps the smallest board so far, said on its line.

Exit status: 0 no loss found, 1 a loss found (or a match the referee could not play,
which stops the hunt), 2 usage error; 130 and 143 on Ctrl-C and SIGTERM, after the
report of what was found.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from referee.cli import UsageError
from referee.cli.args import bot_argv, default_bot, integer, number, output_path
from referee.box.sandbox import ContainmentError, choose_mode
from referee.lab.hunt.boards import hunt_board
from referee.lab.hunt.matches import BotRuns
from referee.lab.hunt.report import Loss, loss_text, replay_command, write_loss, write_report
from referee.lab.hunt.shrink import shrink
from referee.lab.hunt.witness import Witness
from referee.judge.limits import FIRST_LINE_LIMIT_S, TURN_LIMIT_S, Limits
from referee.report.progress import Progress
from referee.report.tables import loss_line
from referee.judge.result import MatchResult
from referee.judge.rules import Verdict

DEFAULT_OUT = "out/hunt"   # out/ is git-ignored
DEFAULT_SECONDS = 60.0


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--bot", metavar="CMD", default=None,
                        help="the bot's command, as for `run` (default: dist/bot.py run by "
                             "this Python)")
    parser.add_argument("--time", type=number(low=0.0, low_open=True), default=DEFAULT_SECONDS,
                        metavar="SECONDS", help="how long to hunt, shrinking included "
                        "(default: %(default)g)")
    parser.add_argument("--seed", type=integer(0), default=1, metavar="N",
                        help="the hunt's seed: the same boards in the same order (default: 1)")
    parser.add_argument("--jobs", type=integer(1), default=1, metavar="N",
                        help="matches played at once (default: 1)")
    parser.add_argument("--losses", type=integer(1), default=None, metavar="N",
                        help="stop once N ways to lose are shrunk (default: hunt until --time)")
    parser.add_argument("--out", type=output_path, default=DEFAULT_OUT, metavar="DIR",
                        help=f"where the small boards and report.html go (default: {DEFAULT_OUT})")
    parser.add_argument("--first-line-ms", type=number(0.0, 86_400_000.0, low_open=True),
                        default=FIRST_LINE_LIMIT_S * 1000, metavar="MS",
                        help="limit for the first line, as for `run` (default: %(default)g)")
    parser.add_argument("--turn-ms", type=number(0.0, 86_400_000.0, low_open=True),
                        default=TURN_LIMIT_S * 1000, metavar="MS",
                        help="limit for each later line, as for `run` (default: %(default)g)")


@dataclass
class Hunted:
    """What a hunt did: the losses shrunk, boards played, bot runs, wall time."""

    losses: list[Loss] = field(default_factory=list)
    boards: int = 0
    runs: int = 0
    wall_s: float = 0.0
    error: MatchResult | None = None     # a match the referee could not play


def execute(args: argparse.Namespace) -> int:
    command = args.bot or default_bot()
    argv = bot_argv(command)
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

    def tell(loss: Loss) -> None:
        path = write_loss(out, loss)
        replay = replay_command(argv, path, limits)
        told.append((loss, path, replay))
        progress.close()
        print(loss_text(loss, path, replay) + "\n", flush=True)

    progress = Progress("hunt")
    hunted = Hunted()
    try:
        hunt(runs, args.seed, args.time, args.losses, tell, progress, hunted)
    except KeyboardInterrupt:
        progress.close()
        finish(hunted, told, out, limits, command, stopped=True)
        raise
    finally:
        runs.close()
    progress.close()
    finish(hunted, told, out, limits, command)
    return 1 if hunted.losses or hunted.error else 0


def hunt(runs: BotRuns, seed: int, seconds: float, wanted: int | None = None,
         tell: Callable[[Loss], None] = lambda loss: None, progress: Progress | None = None,
         hunted: Hunted | None = None) -> Hunted:
    """Play the hunt's boards until `seconds` have passed (or `wanted` ways to lose are
    shrunk), shrinking each new way to lose; `hunted` is filled as it goes."""
    hunted = Hunted() if hunted is None else hunted
    start = time.monotonic()
    deadline = start + seconds
    found: set[Verdict] = set()
    while time.monotonic() < deadline and (wanted is None or len(found) < wanted):
        batch = [hunt_board(seed, hunted.boards + k) for k in range(runs.jobs)]
        hunted.boards += len(batch)
        results = runs.play_all([(witness, name) for name, witness in batch])
        hunted.runs, hunted.wall_s = runs.runs, time.monotonic() - start
        if progress is not None:
            progress.update(hunted.boards, f"boards, {runs.runs} bot runs, "
                            f"{len(found)} way(s) to lose")
        for (name, witness), result in zip(batch, results):
            if result.verdict is Verdict.ERROR:
                hunted.error = result
                return hunted
            if result.won or result.verdict in found or (wanted is not None and len(found) >= wanted):
                continue
            found.add(result.verdict)
            loss = shrink_loss(runs, name, witness, result, start, deadline, progress)
            hunted.losses.append(loss)
            hunted.runs, hunted.wall_s = runs.runs, time.monotonic() - start
            tell(loss)
    hunted.runs, hunted.wall_s = runs.runs, time.monotonic() - start
    return hunted


def shrink_loss(runs: BotRuns, name: str, witness: Witness, result: MatchResult,
                start: float, deadline: float, progress: Progress | None = None) -> Loss:
    """Shrink the board `result` lost on, while the bot loses it the same way."""
    found_at, runs_then = time.monotonic(), runs.runs
    kept = {witness: result}
    label = f"shrink {result.verdict.value}"

    def first_losing(candidates):
        hit = runs.first_losing(candidates, result.verdict, label, kept)
        if progress is not None and hit is not None:
            progress.update(progress.done, f"{label}: {len(candidates[hit].islands)} islands, "
                            f"{runs.runs - runs_then} bot runs")
        return hit

    shrunk = shrink(witness, first_losing, lambda: time.monotonic() > deadline)
    return Loss(board=name, found=witness, found_after_s=found_at - start, runs_to_find=runs_then,
                shrunk=shrunk.witness, result=kept[shrunk.witness],
                shrink_s=time.monotonic() - found_at, shrink_runs=runs.runs - runs_then,
                complete=shrunk.complete)


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
    if told:
        page = write_report(out, told, limits, bot=command,
                            title=f"spoon2 hunt of {command}: {len(told)} way(s) to lose")
        lines.append(f"report: {page}")
    print("\n".join(lines), flush=True)
