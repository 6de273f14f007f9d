"""List the runs `run` recorded: by bot and version, with their figures, and the versions
ranked on the same puzzles.

Every `run` is recorded in a local SQLite database (default: $SPOON2_HISTORY, else
$XDG_DATA_HOME/spoon2/history.sqlite, else ~/.local/share/spoon2/history.sqlite; --db
PATH names another). A bot's version is a hash of what it runs (its program and the files
beside it that it can load), named by `run --label NAME`. Per run: id, when it started
(UTC), passed and failed matches, the first line's p50 and p99 over its puzzles, the
slowest later line, the CPU time of all its matches, its mode (the box, how memory was
counted, the caps), and whether Ctrl-C or SIGTERM stopped it. Then, for each set of
puzzles, the versions played on it, ranked by the share of matches won, then by the first
line's p99: runs, matches won and lost, first-line and per-turn p50 and p99, the last run.
--json prints both as one JSON object instead; --html FILE draws them in a page. `compare
ID ID` sets two runs side by side. More: docs/HISTORY.md.

Exit status: 0 listed, 2 usage error (no database, a damaged one, an unwritable --html).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from referee.cli import UsageError
from referee.cli.args import output_path, unwritable
from referee.history.chart import history_page
from referee.history.standings import Table, tables
from referee.history.store import HistoryError, connect, default_path, read_runs
from referee.history.summary import by_bot, mode_text, played, summary, version_name
from referee.terminal import safe

SHOWN_PUZZLES = 4    # puzzles named above a ranking; the rest counted


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", type=output_path, metavar="PATH",
                        help="the history database (default: as `run` records)")
    parser.add_argument("--json", action="store_true", help="print the runs and the ranked "
                        "versions as one JSON object")
    parser.add_argument("--html", type=output_path, metavar="FILE",
                        help="also write them as a self-contained page: a chart and a table "
                        "per bot, the ranking")


def open_runs(db: str | None, ids: list[int] | None = None):
    """The runs of the database (`ids`, in order, if given); UsageError if it cannot."""
    path = Path(db) if db else default_path()
    try:
        connection = connect(path, create=False)
        try:
            return read_runs(connection, ids)
        finally:
            connection.close()
    except HistoryError as error:
        raise UsageError(str(error)) from None


def execute(args: argparse.Namespace) -> int:
    if args.html and unwritable(args.html):
        raise UsageError(f"cannot write --html {args.html}: {unwritable(args.html)}")
    runs = open_runs(args.db)
    if args.html:
        try:
            Path(args.html).write_text(history_page(runs), encoding="utf-8")
        except OSError as error:
            raise UsageError(f"cannot write --html {args.html}: {error.strerror or error}") from None
    if args.json:
        print(json.dumps({"runs": [summary(run) for run in runs],
                          "versions": [table.as_dict() for table in tables(runs)]}, indent=1))
        return 0
    print("\n".join(listing(runs) + [""] + ranking(tables(runs))) if runs
          else "no run recorded yet")
    return 0


COLUMNS = ("id", "started", "passed", "failed", "first p50", "first p99", "slowest later",
           "cpu ms", "mode", "")
RANK_COLUMNS = ("rank", "version", "runs", "won", "lost", "first p50", "first p99",
                "turn p50", "turn p99", "last run")


def listing(runs) -> list[str]:
    """Each bot, each of its versions (its name, what was hashed), a row per run."""
    lines = []
    for bot, versions in by_bot(runs).items():
        lines.append(f"bot {safe(bot)}")
        for version, mine in versions.items():
            lines.append(f"  version {version}{_named(version_name(mine))}{_scope(mine[-1])}")
            lines += aligned([COLUMNS] + [row(run) for run in mine], range(2, 8), "    ")
    return lines


def ranking(ranked: list[Table]) -> list[str]:
    """Each set of puzzles, its versions ranked."""
    lines = ["versions on the same puzzles, ranked by matches won (as a share of those "
             "played), then by first-line p99:"]
    for table in ranked:
        names = ", ".join(safe(name) for name in table.puzzles[:SHOWN_PUZZLES])
        more = table.size - min(len(table.puzzles), SHOWN_PUZZLES)
        lines.append(f"  {table.size} puzzle(s): {names}" + (f" and {more} more" if more > 0 else ""))
        rows = [RANK_COLUMNS] + [(str(s.rank), s.version + _named(s.label), str(s.runs),
                                  str(s.won), str(s.lost), _ms(s.first_line_p50_ms),
                                  _ms(s.first_line_p99_ms), _ms(s.turn_p50_ms),
                                  _ms(s.turn_p99_ms), f"{s.last_run} {_when(s.last_started)}")
                                 for s in table.standings]
        lines += aligned(rows, range(2, 9), "    ")
    return lines


def aligned(rows: list[tuple[str, ...]], right: range, indent: str) -> list[str]:
    """Columns padded to their widths, those of `right` to the right, the others to the
    left; no trailing spaces."""
    widths = [max(len(r[k]) for r in rows) for k in range(len(rows[0]))]
    return [(indent + "  ".join(text.rjust(widths[k]) if k in right else text.ljust(widths[k])
                                for k, text in enumerate(r))).rstrip() for r in rows]


def row(run) -> tuple[str, ...]:
    figures = summary(run)
    return (str(run.id) + (f" {run.side}" if run.side else ""), _when(run.started),
            str(run.passed), str(run.failed), _ms(figures["first_line_p50_ms"]),
            _ms(figures["first_line_p99_ms"]), _ms(figures["slowest_later_line_ms"]),
            _ms(figures["cpu_ms"]), mode_text(run.setup), played(run))


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


def _when(started: str) -> str:
    return started.replace("T", " ")[:19]


def _named(name: str) -> str:
    return f" {safe(name)}" if name else ""


def _scope(run) -> str:
    """'  (3 files, 4.1 kB hashed)', and what the bound left out."""
    scope = run.version_scope
    if not scope:
        return ""
    cut = f"; cut: {safe(scope['cut'])}" if scope.get("cut") else ""
    return f"  ({scope['files']} file(s), {scope['bytes'] / 1000:.1f} kB hashed{cut})"
