"""What a hunt leaves: each way to lose as a puzzle file with its solution, told on the
terminal with how often it lost when replayed and the command that replays it, and an
HTML report of them all.

DIR/VERDICT.txt is the smallest board found (CodinGame's format: `spoon2 run` plays it),
DIR/VERDICT.solution the solution it was shrunk with (as `gen` writes one), and
DIR/report.html `run --html`'s page for the losing match on each, and DIR/report.play.html
the page it links each board to, to play it by hand.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, replace
from pathlib import Path

from referee.cli import UsageError
from referee.cli.args import relative_path, spoon2_words
from referee.lab.gen.walk import solution_text
from referee.lab.hunt.matches import lost, undecided
from referee.lab.hunt.witness import Witness
from referee.judge.limits import FIRST_LINE_LIMIT_S, TURN_LIMIT_S, Limits
from referee.report.tables import loss_details
from referee.judge.result import MatchResult
from referee.report.player import build_page, puzzle_entry
from referee.report.viewer import build_html

REPORT = "report.html"


@dataclass(frozen=True)
class Loss:
    """One way the bot loses: where it was found and what it was shrunk to."""

    board: str                # the name of the board it was found on
    found: Witness
    found_after_s: float      # from the start of the hunt
    runs_to_find: int         # bot runs of the hunt until then
    shrunk: Witness
    result: MatchResult       # the bot's match on the shrunk board
    shrink_s: float
    shrink_runs: int
    complete: bool            # False: the time ran out before the shrink could end
    replays: tuple[MatchResult, ...] = ()   # the shrunk board played again, as `run` plays it

    @property
    def verdict(self) -> str:
        return self.result.verdict.value

    @property
    def replays_lost(self) -> int:
        """Replays the bot lost the same way, its own loss each."""
        return sum(r.verdict is self.result.verdict and lost(r) for r in self.replays)


def replays_text(loss: Loss) -> str:
    """How the replays went: lost the same way, left undecided (a timeout the machine
    made), won or lost otherwise."""
    said = [f"lost {loss.replays_lost} of {len(loss.replays)} the same way"]
    busy = sum(undecided(r) for r in loss.replays)
    if busy:
        said.append(f"{busy} timeout(s) while the machine was busy (not counted)")
    other = sorted({r.verdict.value for r in loss.replays
                    if not undecided(r) and r.verdict is not loss.result.verdict})
    if other:
        count = len(loss.replays) - loss.replays_lost - busy
        said.append(f"{count} otherwise ({', '.join(other)})")
    return f"replayed {len(loss.replays)} times: " + "; ".join(said)


def write_loss(out: Path, loss: Loss) -> Path:
    """DIR/VERDICT.txt and .solution; the puzzle file's path."""
    path = out / f"{loss.verdict}.txt"
    try:
        path.write_text(loss.shrunk.text)
        path.with_suffix(".solution").write_text(solution_text(list(loss.shrunk.links)))
    except OSError as error:
        raise UsageError(f"cannot write to --out {out}: {error.strerror or error}") from None
    return path


def replay_command(bot: str, path: Path, limits: Limits) -> str:
    """`spoon2 run --bot BOT FILE` as `run` prints its own, with the limits when they are
    not CodinGame's: the bot's command as the player gave it, the file's path from the
    working folder."""
    parts = [*spoon2_words(), "run", "--bot", bot]
    if limits.first_line_s != FIRST_LINE_LIMIT_S:
        parts += ["--first-line-ms", f"{limits.first_line_s * 1000:g}"]
    if limits.turn_s != TURN_LIMIT_S:
        parts += ["--turn-ms", f"{limits.turn_s * 1000:g}"]
    return shlex.join(parts + [str(relative_path(path))])


def loss_text(loss: Loss, path: Path, replay: str) -> str:
    """The loss as the terminal tells it: where it was found, how far it shrank, then the
    match on the small board as `run` explains a loss (its board drawn, the replay)."""
    before, after = len(loss.found.islands), len(loss.shrunk.islands)
    cut = "" if loss.complete else " (cut short: the hunt ended first)"
    head = [f"LOSS {loss.verdict}: found on board {loss.board} ({before} islands) after "
            f"{loss.found_after_s:.1f} s and {loss.runs_to_find} bot runs",
            f"shrunk to {after} islands on {loss.shrunk.width}x{loss.shrunk.height} in "
            f"{loss.shrink_s:.1f} s and {loss.shrink_runs} bot runs{cut}: {relative_path(path)}",
            replays_text(loss)]
    return "\n".join(head) + "\n" + loss_details(named(loss, path), replay)


def named(loss: Loss, path: Path) -> MatchResult:
    """The match on the small board, named by its file."""
    return replace(loss.result, name=path.stem, path=str(path))


def write_report(out: Path, losses: list[tuple[Loss, Path, str]], limits: Limits,
                 bot: str, title: str) -> Path:
    """DIR/report.html, `run --html`'s page with the match on each small board, and
    beside it the page it links each one to, where the board can be played by hand."""
    path = out / REPORT
    results = [named(loss, file) for loss, file, _ in losses]
    _write(path, build_html(results, [replay for _, _, replay in losses], limits, bot=bot,
                            title=title))
    boards = [puzzle_entry(result.name, result.board, solution=list(loss.shrunk.links))
              for result, (loss, _, _) in zip(results, losses)]
    _write(path.with_suffix(".play.html"), build_page(boards, "hunt: the small boards"))
    return path


def _write(path: Path, text: str) -> None:
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as error:
        raise UsageError(f"cannot write {path}: {error.strerror or error}") from None

