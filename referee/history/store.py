"""The history database: where it is, its tables, a run written and read back.

One row in `runs` per bot per `run` (two bots: two rows, one `session`), one row in
`matches` per puzzle it played, with every line's latency. `box` says how the bot was
boxed, `memory_mode` how its memory was counted (`v1`, `v2`: the kernel; `sampled`),
`containment` the mode the run used: figures of different modes are not compared. A database
that is not ours, or not SQLite at all, is a HistoryError: one line for the user.
"""

from __future__ import annotations

import json
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path

ENV_VAR = "SPOON2_HISTORY"   # the database's path, before the per-user default
DEFAULT_DB = "$XDG_DATA_HOME/spoon2/history.sqlite (~/.local/share/spoon2/history.sqlite)"
SCHEMA_VERSION = 1
SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY,
    session TEXT NOT NULL,             -- the runs of one `run` share it (two bots: A and B)
    label TEXT NOT NULL,               -- '' alone, 'A' or 'B'
    started TEXT NOT NULL,             -- UTC, ISO 8601
    finished TEXT NOT NULL,
    bot TEXT NOT NULL,                 -- the command as given
    bot_hash TEXT NOT NULL,            -- its files' content (fingerprint.py)
    referee_version TEXT NOT NULL,
    containment TEXT NOT NULL,         -- cgroup, pidns or subreaper
    box TEXT,                          -- the sandbox the bot ran in
    memory_mode TEXT,                  -- how its memory was counted
    first_line_limit_ms REAL NOT NULL,
    turn_limit_ms REAL NOT NULL,
    load_start TEXT NOT NULL,          -- machine.load_now() as JSON
    load_end TEXT NOT NULL,
    passed INTEGER NOT NULL,
    failed INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS matches (
    run_id INTEGER NOT NULL REFERENCES runs(id),
    puzzle TEXT NOT NULL,
    path TEXT NOT NULL,
    verdict TEXT NOT NULL,
    turns INTEGER NOT NULL,
    latencies_ms TEXT NOT NULL,        -- every line's, as JSON
    cpu_ms REAL,
    peak_mb REAL,
    busy INTEGER NOT NULL              -- lost on time while the machine was busy
);
CREATE INDEX IF NOT EXISTS matches_by_run ON matches(run_id);
"""


class HistoryError(Exception):
    """The database cannot be opened, read or written: one line for the user."""


@dataclass(frozen=True)
class Match:
    puzzle: str
    path: str
    verdict: str
    turns: int
    latencies_ms: list[float]
    cpu_ms: float | None
    peak_mb: float | None
    busy: int

    @property
    def won(self) -> bool:
        return self.verdict == "win"


@dataclass(frozen=True)
class Run:
    id: int
    session: str
    label: str
    started: str
    finished: str
    bot: str
    bot_hash: str
    referee_version: str
    containment: str
    box: str | None
    memory_mode: str | None
    first_line_limit_ms: float
    turn_limit_ms: float
    load_start: dict
    load_end: dict
    passed: int
    failed: int
    matches: tuple[Match, ...] = ()


def default_path() -> Path:
    """$SPOON2_HISTORY, else $XDG_DATA_HOME/spoon2/history.sqlite, else
    ~/.local/share/spoon2/history.sqlite."""
    named = os.environ.get(ENV_VAR)
    if named:
        return Path(named)
    data = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data) / "spoon2" / "history.sqlite"


def connect(path: Path, create: bool) -> sqlite3.Connection:
    """The database at `path`, its tables made when `create`; HistoryError otherwise."""
    if not create and not path.is_file():
        raise HistoryError(f"no history at {path}: `run` records one (or give --db PATH)")
    try:
        if create:
            path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(path, timeout=10)
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
        if tables and "meta" not in tables:   # another program's database: left alone
            db.close()
            raise HistoryError(f"{path}: not a spoon2 history database (no meta table)")
        if create:
            db.executescript(SCHEMA)
            db.execute("INSERT OR IGNORE INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
            db.commit()
        version = db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
    except (sqlite3.Error, OSError) as error:
        raise HistoryError(f"{path}: not a spoon2 history database ({error})") from None
    if version is None or version[0] != str(SCHEMA_VERSION):
        raise HistoryError(f"{path}: a history of another version ({version and version[0]})")
    return db


def add_run(db: sqlite3.Connection, run: Run) -> int:
    """Write the run and its matches in one transaction; its id."""
    fields = {k: v for k, v in run.__dict__.items() if k not in ("id", "matches")}
    fields["load_start"] = json.dumps(run.load_start)
    fields["load_end"] = json.dumps(run.load_end)
    with db:
        cursor = db.execute(f"INSERT INTO runs ({', '.join(fields)}) VALUES "
                            f"({', '.join('?' * len(fields))})", tuple(fields.values()))
        run_id = cursor.lastrowid
        db.executemany("INSERT INTO matches VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                       [(run_id, m.puzzle, m.path, m.verdict, m.turns, json.dumps(m.latencies_ms),
                         m.cpu_ms, m.peak_mb, m.busy) for m in run.matches])
    return run_id


def read_runs(db: sqlite3.Connection, ids: list[int] | None = None) -> list[Run]:
    """Every run (or those of `ids`, in that order) with its matches."""
    try:
        rows = db.execute("SELECT * FROM runs ORDER BY id").fetchall()
        names = [d[0] for d in db.execute("SELECT * FROM runs LIMIT 0").description]
        by_run: dict[int, list[Match]] = {}
        for row in db.execute("SELECT * FROM matches ORDER BY rowid"):
            by_run.setdefault(row[0], []).append(
                Match(row[1], row[2], row[3], row[4], json.loads(row[5]), row[6], row[7], row[8]))
        runs = {}
        for row in rows:
            data = dict(zip(names, row))
            data["load_start"] = json.loads(data["load_start"])
            data["load_end"] = json.loads(data["load_end"])
            runs[data["id"]] = Run(**data, matches=tuple(by_run.get(data["id"], ())))
    except (sqlite3.Error, ValueError, TypeError) as error:
        raise HistoryError(f"the history database is damaged ({error})") from None
    if ids is None:
        return list(runs.values())
    missing = [i for i in ids if i not in runs]
    if missing:
        raise HistoryError(f"no run {missing[0]} in the history (`spoon2 history` lists them)")
    return [runs[i] for i in ids]
