"""The versions ranked as a leaderboard would: among the runs of the same puzzles, each
version's matches won and lost, its first-line and per-turn p50 and p99, its last run.

A version ranks by the share of its matches won (its matches won, when every version
played as many), then by its first-line p99, lower first. A stopped run counts the
matches it finished. Runs are of the same puzzles when their puzzle sets match (names
and boards, recorded by `run`); a run recorded without one is grouped by its puzzles'
names.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace

from referee.history.store import Run
from referee.history.summary import percentile, version_name


@dataclass(frozen=True)
class Standing:
    rank: int
    version: str
    label: str                # the names its runs were given, or ''
    bots: tuple[str, ...]
    runs: int
    won: int
    lost: int
    first_line_p50_ms: float | None
    first_line_p99_ms: float | None
    turn_p50_ms: float | None
    turn_p99_ms: float | None
    last_run: int
    last_started: str

    def as_dict(self) -> dict:
        return dict(self.__dict__) | {"bots": list(self.bots)}


@dataclass(frozen=True)
class Table:
    """One set of puzzles and the versions played on it, ranked."""

    puzzle_set: str
    size: int                     # puzzles in the set
    puzzles: tuple[str, ...]      # the names its runs played (a stopped run's: fewer)
    standings: tuple[Standing, ...]

    def as_dict(self) -> dict:
        return {"puzzle_set": self.puzzle_set, "size": self.size, "puzzles": list(self.puzzles),
                "versions": [s.as_dict() for s in self.standings]}


def set_of(run: Run) -> str:
    """The run's puzzle set: as recorded, else one named by its puzzles' names."""
    if run.puzzle_set:
        return run.puzzle_set
    names = "\0".join(sorted({m.puzzle for m in run.matches}))
    return "names:" + hashlib.sha256(names.encode(errors="surrogateescape")).hexdigest()[:12]


def tables(runs: list[Run]) -> list[Table]:
    """A ranked table per puzzle set, the set played last first."""
    groups: dict[str, dict[str, list[Run]]] = {}
    for run in sorted(runs, key=lambda r: r.id, reverse=True):
        groups.setdefault(set_of(run), {}).setdefault(run.bot_hash, []).append(run)
    return [Table(key, max(run.planned or len(run.matches) for mine in versions.values()
                           for run in mine),
                  tuple(sorted({m.puzzle for mine in versions.values()
                                for run in mine for m in run.matches})),
                  ranked(versions))
            for key, versions in groups.items()]


def ranked(versions: dict[str, list[Run]]) -> tuple[Standing, ...]:
    rows = [standing(version, sorted(mine, key=lambda r: r.id))
            for version, mine in versions.items()]
    rows.sort(key=lambda s: (-_share(s), _or_last(s.first_line_p99_ms), s.version))
    return tuple(replace(row, rank=rank) for rank, row in enumerate(rows, start=1))


def standing(version: str, runs: list[Run]) -> Standing:
    """One version's figures over its runs (unranked: rank 0)."""
    matches = [m for run in runs for m in run.matches]
    firsts = [m.latencies_ms[0] for m in matches if m.latencies_ms]
    later = [x for m in matches for x in m.latencies_ms[1:]]
    won = sum(m.won for m in matches)
    return Standing(0, version, version_name(runs), tuple(dict.fromkeys(r.bot for r in runs)),
                    len(runs), won, len(matches) - won, percentile(firsts, 50),
                    percentile(firsts, 99), percentile(later, 50), percentile(later, 99),
                    runs[-1].id, runs[-1].started)


def _share(row: Standing) -> float:
    played = row.won + row.lost
    return row.won / played if played else 0.0


def _or_last(value: float | None) -> float:
    return float("inf") if value is None else value
