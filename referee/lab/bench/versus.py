"""This checkout's bot against another checkout's, on the same puzzles: `spoon2 bench
--against DIR`.

Two runs of `bench` timed one after the other see different machines: on a shared one a
busy spell in either shifts every ratio (the same code, benched twice, gives one board
x0.7 and then x1.6). Here both versions solve each puzzle in the same moment: each round
solves every puzzle once with each side, the side that goes first swapped every round.
Each side runs in a Python of its own (this interpreter, the same flags), a worker that
imports its checkout's `bot` and nothing of the other's, and times its solves by the
clock --clock names. Each round starts both workers afresh: a process's memory layout and
hash seed are its luck for as long as it runs (the same code in two workers took 149 and
192 ms on one board, in every round), so fresh workers spread that luck over both sides
rather than give one side its luck for the whole run. A worker imports every module of
its bot before its first solve: no round times an import.

Every answer is judged by the referee's rules; an `Unsolvable` answer is a refutation,
wrong where the other side's links win. A solve over --timeout (the worker's own timer,
on the same clock) ends that side's puzzle. Per puzzle: each side's median time, the
ratio new/old, and whether the solver's counters (rounds, assumptions, eliminations, dead
ends, nogoods, branches, depth, stage) were the same. Per suite: each side's median, p99, max and
slowest puzzle, and the geometric mean of the puzzles' ratios (of medians) over the
puzzles both sides answered alike, with a bootstrap interval (`referee.history.bootstrap`) that
draws the rounds as well as the puzzles: on a few puzzles whose times swing it is wide.
"""

from __future__ import annotations

import json
import os
import selectors
import signal
import statistics
import subprocess
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path

from referee.judge.board import LAB_MAX_SIDE, parse_board
from referee.history.bootstrap import grouped_ratio
from referee.cli import UsageError
from referee.lab.bench.peers import (ANSWERED, CRASH, REFUTED, SOLVED, TIMEOUT, WRONG, SideRun,
                                   cross_check, judged, side_summary)
from referee.report.progress import Progress
from referee.terminal import safe
from referee.units import ms
from referee.home import ROOT
from referee.files import write_new

SIDES = ("old", "new")
START_TIMEOUT_S = 60.0   # for a worker to import its bot and say where from
SLACK_S = 5.0            # beyond --timeout, before a worker whose timer failed is killed

# The worker: imports `bot` from the checkout in argv[1], and each of its modules but
# `__main__` (which would run the bot), then for each job line on stdin (the puzzle's
# text, the timeout, the seed) solves once and writes one JSON line. Its
# timer raises in the solve, as `bench`'s alarm does; thread_time counts the solving thread.
# What the bot prints goes to stderr (discarded): stdout carries the answers alone.
WORKER = r"""
import json, signal, sys, time
answers, sys.stdout = sys.stdout, sys.stderr
sys.path.insert(0, sys.argv[1])
import importlib, pkgutil
import bot
for module in pkgutil.walk_packages(bot.__path__, "bot."):
    if not module.name.endswith("__main__"):
        importlib.import_module(module.name)
CLOCKS = {"wall": (time.perf_counter, signal.ITIMER_REAL, signal.SIGALRM),
          "cpu": (time.thread_time, signal.ITIMER_PROF, signal.SIGPROF)}
now, timer, signum = CLOCKS[sys.argv[2]]
class Late(Exception):
    pass
def ring(*_):
    raise Late()
signal.signal(signum, ring)
print(json.dumps({"bot": bot.__file__}), file=answers, flush=True)
for line in sys.stdin:
    job = json.loads(line)
    stats = bot.Stats()
    seeded = {} if job["seed"] is None else {"seed": job["seed"]}
    links, error, start = None, "", now()
    signal.setitimer(timer, job["timeout"])
    try:
        links = bot.solve(job["text"], stats=stats, **seeded)
    except bot.Unsolvable:
        pass
    except Late:
        error = "late"
    except Exception as exc:
        error = type(exc).__name__ + ": " + str(exc)
    finally:
        signal.setitimer(timer, 0)
    seconds = now() - start
    if seconds > job["timeout"] and not error:
        error = "late"
    print(json.dumps({"seconds": seconds, "links": links, "error": error,
                      "counters": stats.as_dict() if hasattr(stats, "as_dict") else {}}),
          file=answers, flush=True)
"""


class WorkerError(Exception):
    """A worker did not start, or stopped answering."""


class Worker:
    """One side's Python, solving the jobs it is sent, one at a time."""

    def __init__(self, side: str, root: Path, clock: str):
        self.side, self.root, self.clock = side, root, clock
        self.process = None
        self.start()

    def start(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-c", WORKER, str(self.root), self.clock], cwd=self.root,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            text=True, start_new_session=True)
        try:
            where = Path(json.loads(self._read_line(START_TIMEOUT_S))["bot"]).resolve()
        except (ValueError, KeyError, TypeError):
            self.stop()
            raise WorkerError(f"the {self.side} side's worker did not start as one") from None
        if not where.is_relative_to(self.root.resolve()):
            self.stop()
            raise WorkerError(f"the {self.side} side imported its bot from {where}, "
                              f"not from {self.root}")

    def solve(self, text: str, timeout: float, seed: int | None) -> dict:
        """The worker's answer to one puzzle: {seconds, links, error, counters}. A worker
        past the timeout and SLACK_S is killed, one that ended or answered garbage is done
        with; either is started again, its answer `late` or the reason it failed."""
        try:
            self.process.stdin.write(json.dumps({"text": text, "timeout": timeout,
                                                 "seed": seed}) + "\n")
            self.process.stdin.flush()
            return json.loads(self._read_line(timeout + SLACK_S))
        except (WorkerError, OSError, ValueError) as failure:
            late = isinstance(failure, WorkerError) and self.process.poll() is None
            self.stop()
            self.start()
            error = "late" if late else f"the worker failed: {failure}"
            return {"seconds": timeout, "links": None, "error": error, "counters": {}}

    def _read_line(self, within: float) -> str:
        with selectors.DefaultSelector() as selector:
            selector.register(self.process.stdout, selectors.EVENT_READ)
            if not selector.select(within):
                raise WorkerError(f"the {self.side} side gave no answer in {within:g} s")
        line = self.process.stdout.readline()
        if not line:
            raise WorkerError(f"the {self.side} side's worker ended "
                              f"(exit status {self.process.wait()})")
        return line

    def stop(self) -> None:
        """Kill the worker and whatever it started."""
        if self.process is not None and self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        if self.process is not None:
            self.process.wait()
            for stream in (self.process.stdin, self.process.stdout):
                try:
                    stream.close()
                except OSError:   # a pipe to a dead worker may refuse its last flush
                    pass


@dataclass
class Duel:
    """One puzzle, both sides: each side's times (one per round), outcome and counters."""

    suite: str
    name: str
    islands: int
    times: dict = field(default_factory=lambda: {side: [] for side in SIDES})
    outcome: dict = field(default_factory=dict)
    detail: dict = field(default_factory=dict)
    counters: dict = field(default_factory=dict)
    same_counters: bool = True

    @property
    def key(self) -> str:
        return f"{self.suite}/{self.name}"

    def seconds(self, side: str) -> float:
        return statistics.median(self.times[side])

    @property
    def alike(self) -> bool:
        """Both sides answered, and alike: solved both, or both said no solution."""
        return self.outcome["old"] == self.outcome["new"] and self.outcome["old"] in ANSWERED

    def ratio(self) -> float:
        return self.seconds("new") / self.seconds("old")

    def play(self, board, text: str, workers: dict, turn: int, timeout: float,
             seed: int | None) -> None:
        """One round: each side solves once, in the order `turn` gives (SIDES when even,
        reversed when odd), but a side done with this puzzle by a timeout or crash."""
        for side in SIDES if turn % 2 == 0 else SIDES[::-1]:
            if self.outcome.get(side) in (TIMEOUT, CRASH):
                continue
            answer = workers[side].solve(text, timeout, seed)
            self.times[side].append(min(answer["seconds"], timeout)
                                    if answer["error"] != "late" else timeout)
            outcome, detail = outcome_of(board, answer)
            if self.outcome.get(side) in (None, SOLVED, REFUTED):
                self.outcome[side], self.detail[side] = outcome, detail
            self.counters.setdefault(side, answer["counters"])

    def cross_check(self) -> None:
        """After the last round: "no solution" where the other side's links win is wrong;
        whether both sides' counters were the same."""
        sides = [self.side_run(side) for side in SIDES]
        cross_check(*sides)
        for side in sides:
            self.outcome[side.side], self.detail[side.side] = side.outcome, side.detail
        self.same_counters = self.counters.get("old") == self.counters.get("new")

    def side_run(self, side: str) -> SideRun:
        """One side's result as `bench --peer` keeps one (its median, outcome, detail)."""
        return SideRun(self.suite, self.name, side, self.islands, self.seconds(side),
                       self.outcome[side], self.detail.get(side, ""))


def outcome_of(board, answer: dict) -> tuple[str, str]:
    """(outcome, detail) of one worker's answer, judged by the rules."""
    if answer["error"] == "late":
        return TIMEOUT, "over the timeout"
    if answer["error"]:
        return CRASH, answer["error"]
    if answer["links"] is None:
        return REFUTED, ""
    links = answer["links"]
    if not isinstance(links, list) or not all(isinstance(link, list) for link in links):
        return WRONG, "not a list of links"
    return judged(board, [tuple(link) for link in links])


def run_versus(suites_in: list, against: Path, rounds: int, timeout: float, clock: str,
               seed: int | None, json_path: str | None) -> int:
    """Time both sides on every puzzle; print the report; 0 if both answered every puzzle
    alike and right, 1 otherwise."""
    here = ROOT
    jobs = [(suite, name, text) for suite, puzzles in suites_in for name, text in puzzles]
    boards = [parse_board(text, max_side=LAB_MAX_SIDE) for _, _, text in jobs]
    duels = [Duel(suite, name, len(board.nodes)) for (suite, name, _), board in zip(jobs, boards)]
    progress = Progress("bench --against", len(jobs) * rounds)
    for round_ in range(rounds):
        workers = {}
        try:   # fresh workers each round (the module's docstring says why)
            workers["old"] = Worker("old", against, clock)
            workers["new"] = Worker("new", here, clock)
            for index, (run, board, (_, _, text)) in enumerate(zip(duels, boards, jobs)):
                run.play(board, text, workers, round_ + index % 2, timeout, seed)
                progress.update(round_ * len(jobs) + index + 1, run.key)
        except WorkerError as error:
            raise UsageError(str(error)) from None
        finally:
            for worker in workers.values():
                worker.stop()
    progress.close(f"{len(duels)} puzzles timed, {rounds} round(s) a side")
    for run in duels:
        run.cross_check()
    suites = {suite: summary([d for d in duels if d.suite == suite]) for suite, _ in suites_in}
    print_report(suites, duels, against, here, rounds, clock)
    if json_path:
        data = {"against": str(against), "rounds": rounds, "clock": clock, "seed": seed,
                "puzzles": {d.key: asdict(d) for d in duels}, "suites": suites}
        try:
            write_new(json_path, json.dumps(data, indent=1, sort_keys=True) + "\n")
        except OSError as error:
            raise UsageError(f"--json {json_path}: {error.strerror}") from None
    fine = all(d.alike and d.outcome["new"] in ANSWERED for d in duels)
    return 0 if fine else 1


def summary(duels: list[Duel]) -> dict:
    """Each side's figures, the puzzles' ratio with its interval, the counters' agreement."""
    alike = [d for d in duels if d.alike]
    # Each round is a run of each side, in turn: the interval draws the rounds (the same
    # ones for both sides) as well as the puzzles, so puzzles whose times swing widen it.
    rounds = min((len(d.times[side]) for d in alike for side in SIDES), default=0)
    runs = {side: [{d.key: d.times[side][r] for d in alike} for r in range(rounds)]
            for side in SIDES}
    ratio = grouped_ratio(runs["old"], runs["new"], paired=True) if rounds else None
    return {**{side: side_summary([d.side_run(side) for d in duels]) for side in SIDES},
            "ratio": None if ratio is None else {"ratio": ratio.ratio, "low": ratio.low,
                                                 "high": ratio.high, "text": ratio.text()},
            "compared": len(alike),
            "same_counters": sum(d.same_counters for d in duels)}


def print_report(suites: dict, duels: list[Duel], against: Path, here: Path, rounds: int,
                 clock: str) -> None:
    print(f"new: {safe(str(here))}  old: {safe(str(against))}")
    print(f"each puzzle solved {rounds} time(s) a side, in turn, the first side swapped each "
          f"round, fresh workers each round; times: "
          f"{'CPU of the solving thread' if clock == 'cpu' else 'wall clock'}, medians")
    for d in duels:
        said = "" if d.same_counters else "  counters differ"
        outcomes = "" if d.alike else "  " + "  ".join(
            f"{side} {d.outcome[side]}" + (f" ({safe(d.detail[side])})" if d.detail[side] else "")
            for side in SIDES)
        print(f"  {safe(d.key)}: {ms(d.seconds('old'))} -> {ms(d.seconds('new'))} ms"
              f"  x{d.ratio():.2f}{said}{outcomes}")
    for name, s in suites.items():
        print(f"suite {safe(name)}:")
        for side in SIDES:
            f = s[side]
            print(f"  {side}: answered {f['answered']}/{f['total']}  median {ms(f['median'])} ms"
                  f"  p99 {ms(f['p99'])} ms  max {ms(f['max'])} ms  slowest {safe(f['slowest'])}")
        said = s["ratio"]["text"] if s["ratio"] else "no puzzle answered alike by both"
        print(f"  new/old per puzzle, geometric mean over {s['compared']} answered alike: {said}")
        print(f"  counters the same on {s['same_counters']} of {s['old']['total']} puzzles")


def check_against(path: str) -> Path:
    """The other checkout's root: a folder with bot/__init__.py."""
    root = Path(path)
    if not (root / "bot" / "__init__.py").is_file():
        raise UsageError(f"--against {path}: not a checkout of this project (no bot/__init__.py)")
    return root.resolve()
