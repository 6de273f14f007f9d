"""A `run` written into the history: each bot's matches, its version and its name, the
mode and limits, the machine's load; a run stopped early, with the matches it finished."""

from __future__ import annotations

import datetime
import hashlib
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from referee.history.fingerprint import Version, bot_version
from referee.history.machine import load_now
from referee.history.store import (HistoryError, Match, Run, Setup, add_run, box_kind, connect,
                                   default_path)
from referee.home import ROOT, package_version
from referee.judge.board import Board
from referee.judge.limits import Limits
from referee.judge.result import MatchResult
from referee.terminal import safe
from referee.units import ms_number

GIT_WAIT_S = 5   # the most a record waits for `git describe`


def now() -> str:
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


class RefereeVersion:
    """'spoon2 0.1.0', with the checkout's commit (and '-dirty') when it runs from one:
    git is asked as the run starts (the checkout it started from), and its answer read
    when the run is recorded, so the matches never wait for it."""

    def __init__(self):
        try:
            self._git: subprocess.Popen | None = subprocess.Popen(
                ["git", "describe", "--always", "--dirty"], cwd=ROOT, text=True,
                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        except OSError:
            self._git = None

    def text(self) -> str:
        version = f"spoon2 {package_version()}"
        if self._git is None:
            return version
        try:
            described, _ = self._git.communicate(timeout=GIT_WAIT_S)
        except subprocess.TimeoutExpired:
            self._git.kill()
            self._git.wait()
            return version
        return f"{version} {described.strip()}" if self._git.returncode == 0 else version


@dataclass(frozen=True)
class Plan:
    """What a `run` sets out to do, known before its first match."""

    bots: tuple[str, ...]             # the commands as given
    versions: tuple[Version, ...]     # each bot's, read before its first match
    sides: tuple[str, ...]            # '' alone, 'A' and 'B'
    labels: tuple[str | None, ...]    # each bot's version's name (run --label), or None
    containment: str
    limits: Limits
    memory_cap_bytes: int | None
    cpu_cap: str | None
    puzzles: tuple[tuple[str, Board], ...]   # (name, board) of each puzzle to play
    started: str
    load_start: dict
    referee: RefereeVersion | None   # None: the run is not recorded

    @classmethod
    def make(cls, bots: list[str], argvs: list[list[str]], sides: tuple[str, ...],
             labels: tuple[str | None, ...], containment: str, limits: Limits,
             memory_cap_bytes: int | None, cpu_cap: str | None,
             puzzles: list[tuple[str, Board]], recorded: bool = True) -> "Plan":
        """The plan of a run about to start: each bot's version read, the clock and the
        machine's load taken now (and, for a run to be recorded, the referee's version
        asked of git)."""
        return cls(tuple(bots), tuple(bot_version(argv) for argv in argvs), tuple(sides),
                   tuple(labels), containment, limits, memory_cap_bytes, cpu_cap,
                   tuple(puzzles), now(), load_now(),
                   RefereeVersion() if recorded else None)


def puzzle_set(puzzles) -> str:
    """12 hex digits naming a set of puzzles by their names and boards, in any order."""
    digest = hashlib.sha256()
    for name, rows in sorted((name, "\n".join(board.rows())) for name, board in puzzles):
        digest.update(f"{name}\0{rows}\0".encode(errors="surrogateescape"))
    return digest.hexdigest()[:12]


def record_run(path: Path, plan: Plan, results: list[MatchResult],
               stopped: bool = False) -> list[int]:
    """One row per bot, its matches with it; the ids given. HistoryError if it cannot."""
    session, finished = os.urandom(16).hex(), now()
    version = (plan.referee or RefereeVersion()).text()
    puzzles, load_end = puzzle_set(plan.puzzles), load_now()
    db = connect(path, create=True)
    try:
        ids = []
        for bot, hashed, side, label in zip(plan.bots, plan.versions, plan.sides, plan.labels):
            mine = [r for r in results if r.bot == side]
            run = Run(id=0, session=session, side=side, started=plan.started, finished=finished,
                      bot=bot, bot_hash=hashed.digest, label=label,
                      version_scope=hashed.scope(), referee_version=version,
                      setup=setup(plan, mine), load_start=plan.load_start,
                      load_end=load_end, passed=sum(r.won for r in mine),
                      failed=sum(not r.won for r in mine), stopped=stopped,
                      planned=len(plan.puzzles), puzzle_set=puzzles,
                      matches=tuple(match_row(r) for r in mine))
            ids.append(add_run(db, run))
        return ids
    except Exception as error:   # sqlite3.Error, OSError: the run's results stand regardless
        if isinstance(error, HistoryError):
            raise
        raise HistoryError(f"{path}: {error}") from None
    finally:
        db.close()


def setup(plan: Plan, results: list[MatchResult]) -> Setup:
    """The mode and limits a bot's matches had: the box without its user's number."""
    return Setup(containment=plan.containment,
                 box=box_kind(next((r.usage.box for r in results if r.usage.box), None)),
                 memory_mode=next((r.usage.memory_count for r in results
                                   if r.usage.memory_count), None),
                 memory_cap_mb=None if plan.memory_cap_bytes is None
                 else plan.memory_cap_bytes / 2**20,
                 cpu_cap=plan.cpu_cap,
                 first_line_limit_ms=plan.limits.first_line_s * 1000,
                 turn_limit_ms=plan.limits.turn_s * 1000)


def match_row(result: MatchResult) -> Match:
    return Match(puzzle=result.name, path=result.path, verdict=result.verdict.value,
                 turns=len(result.lines),
                 latencies_ms=[ms_number(s) for s in result.latencies_s],
                 cpu_ms=ms_number(result.usage.cpu_s),
                 peak_mb=None if result.usage.peak_rss_bytes is None
                 else round(result.usage.peak_rss_bytes / 2**20, 1),
                 busy=int(result.busy))


def record_after_run(args, plan: Plan, results: list[MatchResult], stopped: bool = False) -> None:
    """`run`'s hook: record unless --no-record; a database that fails costs a warning on
    stderr, never the run's results or exit status. A stopped run is recorded with the
    matches it finished, and says so."""
    if args.no_record:
        return
    path = Path(args.db) if args.db else default_path()
    try:
        ids = record_run(path, plan, results, stopped)
    except HistoryError as error:
        print(f"run: not recorded in the history: {safe(error)}", file=sys.stderr)
        return
    if stopped:
        print(f"run: recorded as run {', '.join(map(str, ids))} in {safe(path)}, stopped after "
              f"{len(results)} of {len(plan.puzzles) * len(plan.bots)} match(es)", file=sys.stderr)
    elif not args.quiet:
        print(f"run: recorded as run {', '.join(map(str, ids))} in {safe(path)} "
              "(`spoon2 history` lists the runs)", file=sys.stderr)
