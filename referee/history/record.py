"""A `run` written into the history: each bot's matches, its version, the machine's load."""

from __future__ import annotations

import datetime
import subprocess
import sys
import uuid
from importlib import metadata
from pathlib import Path

from referee.history.fingerprint import bot_hash
from referee.history.machine import load_now
from referee.history.store import HistoryError, Match, Run, add_run, connect, default_path
from referee.judge.limits import Limits
from referee.judge.result import MatchResult
from referee.terminal import safe
from referee.units import ms_number

ROOT = Path(__file__).resolve().parents[2]


def now() -> str:
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


def referee_version() -> str:
    """'spoon2 0.1.0', with the checkout's commit (and '-dirty') when it runs from one."""
    try:
        version = f"spoon2 {metadata.version('spoon2')}"
    except metadata.PackageNotFoundError:
        version = "spoon2 (not installed)"
    try:
        described = subprocess.run(["git", "describe", "--always", "--dirty"], cwd=ROOT,
                                   capture_output=True, text=True, timeout=5)
    except (OSError, subprocess.SubprocessError):
        return version
    return f"{version} {described.stdout.strip()}" if described.returncode == 0 else version


def record_run(path: Path, bots: list[str], argvs: list[list[str]], labels: tuple[str, ...],
               results: list[MatchResult], containment: str, limits: Limits,
               started: str, loads: tuple[dict, dict]) -> list[int]:
    """One row per bot, its matches with it; the ids given. HistoryError if it cannot."""
    session, finished, version = uuid.uuid4().hex, now(), referee_version()
    db = connect(path, create=True)
    try:
        ids = []
        for bot, argv, label in zip(bots, argvs, labels):
            mine = [r for r in results if r.bot == label]
            run = Run(id=0, session=session, label=label, started=started, finished=finished,
                      bot=bot, bot_hash=bot_hash(argv), referee_version=version,
                      containment=containment,
                      box=next((r.usage.box for r in mine if r.usage.box), None),
                      memory_mode=next((r.usage.memory_count for r in mine
                                        if r.usage.memory_count), None),
                      first_line_limit_ms=limits.first_line_s * 1000,
                      turn_limit_ms=limits.turn_s * 1000, load_start=loads[0],
                      load_end=loads[1], passed=sum(r.won for r in mine),
                      failed=sum(not r.won for r in mine),
                      matches=tuple(match_row(r) for r in mine))
            ids.append(add_run(db, run))
        return ids
    except Exception as error:   # sqlite3.Error, OSError: the run's results stand regardless
        if isinstance(error, HistoryError):
            raise
        raise HistoryError(f"{path}: {error}") from None
    finally:
        db.close()


def match_row(result: MatchResult) -> Match:
    return Match(puzzle=result.name, path=result.path, verdict=result.verdict.value,
                 turns=len(result.lines),
                 latencies_ms=[ms_number(s) for s in result.latencies_s],
                 cpu_ms=ms_number(result.usage.cpu_s),
                 peak_mb=None if result.usage.peak_rss_bytes is None
                 else round(result.usage.peak_rss_bytes / 2**20, 1),
                 busy=int(result.busy))


def record_after_run(args, bots: list[str], argvs: list[list[str]], labels: tuple[str, ...],
                     results: list[MatchResult], containment: str, limits: Limits,
                     started: str, load_start: dict) -> None:
    """`run`'s hook: record unless --no-record; a database that fails costs a warning on
    stderr, never the run's results or exit status."""
    if args.no_record:
        return
    path = Path(args.db) if args.db else default_path()
    try:
        ids = record_run(path, bots, argvs, labels, results, containment, limits, started,
                         (load_start, load_now()))
    except HistoryError as error:
        print(f"run: not recorded in the history: {safe(error)}", file=sys.stderr)
        return
    if not args.quiet:
        print(f"run: recorded as run {', '.join(map(str, ids))} in {safe(path)} "
              "(`spoon2 history` lists the runs)", file=sys.stderr)
