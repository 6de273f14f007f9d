"""The bot against the SAT peer on the same puzzles: `spoon2 bench --peer sat`.

Puzzles are timed in turn, bot then peer on puzzle 1, bot then peer on puzzle 2, ...
(so a noisy neighbour on the machine slows both alike), each side --repeat times, the
median counting. Each solve has a time limit (--timeout), enforced in-process by
SIGALRM: the alarm's exception leaves the bot's search at its next Python line, and the
peer at its next slice of SAT conflicts (referee.lab.peer). A solve past the limit is a
timeout, and counts as the limit in the times: the worst case is never hidden.

Each answer is checked: links go to the referee's judge; "no solution" (bot.Unsolvable,
or None from the peer) is taken as right unless the other side's links win. Outcomes:
solved, refuted (no solution, not contradicted), timeout, wrong, crash. A side answered
a puzzle when it solved or refuted it.

Per suite, each side's answered/total, timeouts, median, p99, max and slowest puzzle,
then the peer/bot ratio of the medians and of the maxima (below 1.0: the peer is faster).
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import bot
from referee.judge.board import LAB_MAX_SIDE, parse_board
from referee.cli import UsageError
from referee.report.progress import Progress
from referee.judge.rules import judge_text
from referee.lab.alarm import Alarm, SolveTimeout
from referee.lab.figures import percentile
from referee.lab.gen.walk import solution_text
from referee.files import write_new

SIDES = ("bot", "peer")
SOLVED, REFUTED, TIMEOUT, WRONG, CRASH = "solved", "refuted", "timeout", "wrong", "crash"
ANSWERED = (SOLVED, REFUTED)


@dataclass
class SideRun:
    """One side's result on one puzzle: median seconds (the limit for a timeout), outcome."""

    suite: str
    name: str
    side: str
    islands: int
    seconds: float
    outcome: str
    detail: str = ""

    @property
    def key(self) -> str:
        return f"{self.suite}/{self.name}"


def _bot_solve(text: str, timeout: float, seed: int | None = None):
    try:
        return bot.solve(text) if seed is None else bot.solve(text, seed=seed)
    except bot.Unsolvable:
        return None


def _peer_solve(text: str, timeout: float, seed: int | None = None):
    from referee.lab.peer import PeerTimeout, peer_solve

    try:
        return peer_solve(text, timeout_s=timeout)
    except PeerTimeout:
        raise SolveTimeout() from None


SOLVERS = {"bot": _bot_solve, "peer": _peer_solve}


def timed(side: str, text: str, timeout: float, seed: int | None = None):
    """(seconds, links or None for no solution, or the exception raised) of one solve
    (`seed`: the bot's restarts; the peer has none), stopped at the limit as `bench` stops
    one (`referee.lab.alarm`): past it the answer is a SolveTimeout, rung or not."""
    start = time.perf_counter()
    with Alarm("wall", timeout) as alarm:
        try:
            answer = alarm.call(lambda: SOLVERS[side](text, timeout, seed))
        except Exception as error:   # a crash or the alarm is a result, not our failure
            answer = error
    elapsed = time.perf_counter() - start
    if elapsed > timeout and not isinstance(answer, SolveTimeout):
        answer = SolveTimeout()
    return elapsed, answer


def measure(suite: str, name: str, text: str, side: str, repeat: int, timeout: float,
            seed: int | None = None) -> tuple[SideRun, object]:
    """Time one side `repeat` times; the run (outcome not yet cross-checked) and its answer."""
    board = parse_board(text, max_side=LAB_MAX_SIDE)
    times, answer = [], None
    for _ in range(repeat):
        seconds, answer = timed(side, text, timeout, seed)
        times.append(seconds)
        if isinstance(answer, Exception):
            break
    run = SideRun(suite, name, side, len(board.nodes), statistics.median(times), SOLVED)
    if isinstance(answer, SolveTimeout):
        run.outcome, run.seconds, run.detail = TIMEOUT, timeout, f"over {timeout:g} s"
    elif isinstance(answer, Exception):
        run.outcome, run.detail = CRASH, f"{type(answer).__name__}: {answer}"
    elif answer is None:
        run.outcome = REFUTED
    else:
        run.outcome, run.detail = judged(board, answer)
    return run, answer


def judged(board, links) -> tuple[str, str]:
    """(SOLVED, "") if the rules accept the links on the board, else WRONG and why."""
    verdict = judge_text(board, solution_text(links))
    return (SOLVED, "") if verdict.won else (WRONG, f"wrong answer: {verdict.reason}")


def cross_check(bot_run: SideRun, peer_run: SideRun) -> None:
    """A side that says "no solution" while the other's links win is wrong."""
    for said, other in ((bot_run, peer_run), (peer_run, bot_run)):
        if said.outcome == REFUTED and other.outcome == SOLVED:
            said.outcome, said.detail = WRONG, f"said no solution; the {other.side}'s links win"


def side_summary(runs: list[SideRun]) -> dict:
    times = [r.seconds for r in runs]
    slowest = max(runs, key=lambda r: r.seconds)
    return {"answered": sum(r.outcome in ANSWERED for r in runs), "total": len(runs),
            "timeouts": sum(r.outcome == TIMEOUT for r in runs),
            "median": statistics.median(times), "p99": percentile(times, 99),
            "max": slowest.seconds, "slowest": slowest.name}


def summaries(runs: list[SideRun], suites: list[str]) -> dict:
    """{suite: {side: summary, "ratio": {...}}} with peer/bot ratios of median and max."""
    out = {}
    for suite in suites:
        entry = {side: side_summary([r for r in runs if r.suite == suite and r.side == side])
                 for side in SIDES}
        entry["ratio"] = {k: _ratio(entry["peer"][k], entry["bot"][k]) for k in ("median", "max")}
        out[suite] = entry
    return out


def _ratio(peer: float, bot: float) -> float | None:
    return peer / bot if bot > 0 else None


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f}"


def print_report(table: dict, runs: list[SideRun], timeout: float, out=None) -> None:
    out = out or sys.stdout
    head = (f"  {'side':<5} {'answered':>9} {'timeouts':>8} {'median ms':>10} {'p99 ms':>9} "
            f"{'max ms':>9}  slowest")
    for suite, entry in table.items():
        islands = [r.islands for r in runs if r.suite == suite and r.side == "bot"]
        print(f"suite {suite}: {len(islands)} puzzles, islands mean {statistics.mean(islands):.0f} "
              f"max {max(islands)}", file=out)
        print(head, file=out)
        for side in SIDES:
            s = entry[side]
            print(f"  {side:<5} {s['answered']:>4}/{s['total']:<4} {s['timeouts']:>8} "
                  f"{_ms(s['median']):>10} {_ms(s['p99']):>9} {_ms(s['max']):>9}  {s['slowest']}",
                  file=out)
        ratio = entry["ratio"]
        print("  peer/bot: " + "  ".join(
            f"{k} x{ratio[k]:.2f}" if ratio[k] is not None else f"{k} -" for k in ("median", "max")),
            file=out)
    for r in runs:
        if r.outcome not in ANSWERED:
            print(f"NOT ANSWERED {r.side} {r.key}: {r.outcome} ({r.detail})", file=out)
    for side in SIDES:
        mine = [r for r in runs if r.side == side]
        print(f"{side}: answered {sum(r.outcome in ANSWERED for r in mine)}/{len(mine)}, "
              f"timeouts {sum(r.outcome == TIMEOUT for r in mine)} (limit {timeout:g} s)", file=out)


def run(suites_in: list[tuple[str, list[tuple[str, str]]]], repeat: int, timeout: float,
        json_path: str | None = None, seed: int | None = None) -> int:
    """Bench both sides on every puzzle; print the report; 0 if the bot answered everything."""
    try:
        import pysat  # noqa: F401  (the peer's solver, from the lab extra)
    except ImportError:
        raise UsageError("--peer sat needs python-sat: pip install -e '.[lab]'") from None
    total = sum(len(puzzles) for _, puzzles in suites_in)
    progress = Progress("bench --peer", total)
    runs: list[SideRun] = []
    done = 0
    for suite, puzzles in suites_in:
        for name, text in puzzles:
            progress.update(done, f"{suite}/{name}")
            bot_run, _ = measure(suite, name, text, "bot", repeat, timeout, seed)
            peer_run, _ = measure(suite, name, text, "peer", repeat, timeout)
            cross_check(bot_run, peer_run)
            runs += [bot_run, peer_run]
            done += 1
    progress.close(f"{done} puzzles timed on both sides")
    table = summaries(runs, [suite for suite, _ in suites_in])
    print_report(table, runs, timeout)
    if json_path:
        data = {"repeat": repeat, "timeout": timeout, "seed": seed, "suites": table,
                "puzzles": [asdict(r) for r in runs]}
        try:
            Path(json_path).parent.mkdir(parents=True, exist_ok=True)
            write_new(json_path, json.dumps(data, indent=1, sort_keys=True) + "\n")
        except OSError as error:
            raise UsageError(f"--json {json_path}: {error.strerror}") from None
    # The bench judges the bot; the peer is the yardstick, its timeouts only figures.
    return 0 if all(r.outcome in ANSWERED for r in runs if r.side == "bot") else 1
