"""The history database: where it is, its tables, a run written and read back.

One row in `runs` per bot per `run` (two bots: two rows, one `session`), one row in
`matches` per puzzle it played, with every line's latency. The mode a run had is its
`containment`, its `box` (the sandbox, and whether the bot ran as a box user), its
`memory_mode` (how memory was counted: `v1`, `v2` by the kernel, or `sampled`) and its
caps (`memory_cap_mb`, `cpu_cap`): figures of different modes are not compared. A database
that is not ours, or not SQLite at all, is a HistoryError: one line for the user. A
database of an earlier schema is brought up to this one as it opens (`MIGRATIONS`), or,
where it cannot be written, read as it stands.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
from dataclasses import dataclass, fields
from pathlib import Path

ENV_VAR = "SPOON2_HISTORY"   # the database's path, before the per-user default
DEFAULT_DB = "$XDG_DATA_HOME/spoon2/history.sqlite (~/.local/share/spoon2/history.sqlite)"
SCHEMA_VERSION = 2
SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY,
    session TEXT NOT NULL,             -- the runs of one `run` share it (two bots: A and B)
    side TEXT NOT NULL,                -- '' alone, 'A' or 'B'
    started TEXT NOT NULL,             -- UTC, ISO 8601
    finished TEXT NOT NULL,
    bot TEXT NOT NULL,                 -- the command as given
    bot_hash TEXT NOT NULL,            -- the version: what it runs, by content (fingerprint.py)
    referee_version TEXT NOT NULL,
    containment TEXT NOT NULL,         -- bwrap, pidns or subreaper
    box TEXT,                          -- the sandbox the bot ran in, and as whom
    memory_mode TEXT,                  -- how its memory was counted
    first_line_limit_ms REAL NOT NULL,
    turn_limit_ms REAL NOT NULL,
    load_start TEXT NOT NULL,          -- machine.load_now() as JSON
    load_end TEXT NOT NULL,
    passed INTEGER NOT NULL,
    failed INTEGER NOT NULL,
    label TEXT,                        -- the name `run --label` gave the version
    version_scope TEXT,                -- what the version hashed, as JSON (fingerprint.Version)
    memory_cap_mb REAL,                -- NULL: not recorded
    cpu_cap TEXT,                      -- NULL: none
    stopped INTEGER NOT NULL DEFAULT 0,   -- Ctrl-C or SIGTERM ended the run early
    planned INTEGER,                   -- the matches it was to play
    puzzle_set TEXT                    -- its puzzles, by name and board, hashed
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
# From each schema to the next: the statements, and a rewrite of the rows in Python.
MIGRATIONS = {
    1: ["ALTER TABLE runs RENAME COLUMN label TO side",
        "ALTER TABLE runs ADD COLUMN label TEXT",
        "ALTER TABLE runs ADD COLUMN version_scope TEXT",
        "ALTER TABLE runs ADD COLUMN memory_cap_mb REAL",
        "ALTER TABLE runs ADD COLUMN cpu_cap TEXT",
        "ALTER TABLE runs ADD COLUMN stopped INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE runs ADD COLUMN planned INTEGER",
        "ALTER TABLE runs ADD COLUMN puzzle_set TEXT"],
}
BOX_USER = re.compile(r" as uid \d+")


def box_kind(text: str | None) -> str | None:
    """The box without the number of its user: 'sandboxed: bwrap as uid 60002' is
    'sandboxed: bwrap as a box user' (the number is only which box was free)."""
    return None if text is None else BOX_USER.sub(" as a box user", text)


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
class Setup:
    """What a run's figures depend on besides the bot: its mode and its limits."""

    containment: str
    box: str | None
    memory_mode: str | None
    memory_cap_mb: float | None
    cpu_cap: str | None
    first_line_limit_ms: float
    turn_limit_ms: float

    def mode(self) -> dict:
        """The mode alone: the kind of box, the memory count, the caps."""
        return {"containment": self.containment, "box": self.box,
                "memory_mode": self.memory_mode, "memory_cap_mb": self.memory_cap_mb,
                "cpu_cap": self.cpu_cap}


@dataclass(frozen=True)
class Run:
    id: int
    session: str
    side: str                      # '' alone, 'A' or 'B'
    started: str
    finished: str
    bot: str
    bot_hash: str
    label: str | None              # the version's name, from `run --label`
    version_scope: dict | None     # what the version hashed (None: not recorded)
    referee_version: str
    setup: Setup
    load_start: dict
    load_end: dict
    passed: int
    failed: int
    stopped: bool
    planned: int | None            # the matches it was to play (None: not recorded)
    puzzle_set: str | None
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
    """The database at `path`, its tables made when `create`, an earlier schema brought
    up to this one; HistoryError otherwise."""
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
        if create and not tables:
            db.executescript(SCHEMA)
            db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
            db.commit()
        version = db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
    except (sqlite3.Error, OSError) as error:
        raise HistoryError(f"{path}: not a spoon2 history database ({error})") from None
    number = int(version[0]) if version and version[0].isdigit() else None
    if number != SCHEMA_VERSION and number not in MIGRATIONS:
        db.close()
        raise HistoryError(f"{path}: a history of another version ({version and version[0]})")
    if number in MIGRATIONS:
        _migrate(db, number, path, create)
    return db


def _migrate(db: sqlite3.Connection, version: int, path: Path, create: bool) -> None:
    """Each step from `version` up, in one transaction. A database that cannot be written
    is read as it stands, but not written to."""
    try:
        with db:
            for step in range(version, SCHEMA_VERSION):
                for statement in MIGRATIONS[step]:
                    db.execute(statement)
            rows = db.execute("SELECT id, box FROM runs WHERE box LIKE '% as uid %'").fetchall()
            db.executemany("UPDATE runs SET box = ? WHERE id = ?",
                           [(box_kind(box), run_id) for run_id, box in rows])
            db.execute("UPDATE meta SET value = ? WHERE key = 'schema'", (str(SCHEMA_VERSION),))
    except sqlite3.OperationalError as error:
        if create or "readonly" not in str(error):
            raise HistoryError(f"{path}: cannot bring the history up to date ({error})") from None


_SETUP = [f.name for f in fields(Setup)]
_SCALARS = [f.name for f in fields(Run) if f.name not in ("id", "setup", "matches")]
_AS_JSON = ("load_start", "load_end", "version_scope")


def add_run(db: sqlite3.Connection, run: Run) -> int:
    """Write the run and its matches in one transaction; its id."""
    row = {name: getattr(run, name) for name in _SCALARS} | {
        name: getattr(run.setup, name) for name in _SETUP}
    row |= {name: json.dumps(row[name]) for name in _AS_JSON}
    row["stopped"] = int(run.stopped)
    with db:
        cursor = db.execute(f"INSERT INTO runs ({', '.join(row)}) VALUES "
                            f"({', '.join('?' * len(row))})", tuple(row.values()))
        run_id = cursor.lastrowid
        db.executemany("INSERT INTO matches VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                       [(run_id, m.puzzle, m.path, m.verdict, m.turns, json.dumps(m.latencies_ms),
                         m.cpu_ms, m.peak_mb, m.busy) for m in run.matches])
    return run_id


def read_runs(db: sqlite3.Connection, ids: list[int] | None = None) -> list[Run]:
    """Every run (or those of `ids`, in that order) with its matches."""
    try:
        cursor = db.execute("SELECT * FROM runs ORDER BY id")
        names = [d[0] for d in cursor.description]
        rows = cursor.fetchall()
        by_run: dict[int, list[Match]] = {}
        for row in db.execute("SELECT * FROM matches ORDER BY rowid"):
            by_run.setdefault(row[0], []).append(
                Match(row[1], row[2], row[3], row[4], json.loads(row[5]), row[6], row[7], row[8]))
        runs = {}
        for row in rows:
            data = dict(zip(names, row))
            runs[data["id"]] = _run(data, tuple(by_run.get(data["id"], ())))
    except (sqlite3.Error, ValueError, TypeError) as error:
        raise HistoryError(f"the history database is damaged ({error})") from None
    if ids is None:
        return list(runs.values())
    missing = [i for i in ids if i not in runs]
    if missing:
        raise HistoryError(f"no run {missing[0]} in the history (`spoon2 history` lists them)")
    return [runs[i] for i in ids]


def _run(data: dict, matches: tuple[Match, ...]) -> Run:
    """A row as a Run; a row of schema 1 (a database that could not be brought up to
    date) has `label` for the side and lacks the later columns."""
    if "side" not in data:
        data["side"], data["label"] = data.get("label", ""), None
    data["box"] = box_kind(data["box"])
    for name in _AS_JSON:
        data[name] = json.loads(data[name]) if data.get(name) is not None else None
    setup = Setup(**{name: data.get(name) for name in _SETUP})
    scalars = {name: data.get(name) for name in _SCALARS}
    scalars["stopped"] = bool(scalars["stopped"])
    return Run(id=data["id"], setup=setup, matches=matches, **scalars)
