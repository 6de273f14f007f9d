"""List the runs `run` recorded: by bot and version, with their figures.

Every `run` is recorded in a local SQLite database (default: $SPOON2_HISTORY, else
$XDG_DATA_HOME/spoon2/history.sqlite, else ~/.local/share/spoon2/history.sqlite; --db
PATH names another). A bot's version is a hash of the files its command names, by content.
Per run: id, when it started (UTC), passed and failed matches, the first line's p50 and p99
over its puzzles, the slowest later line, the CPU time of all its matches, and the
containment it ran under. --json prints the runs as a JSON list instead; --html FILE draws
them as a chart, one per bot. `compare ID ID` sets two of them side by side. More:
docs/HISTORY.md.

Exit status: 0 listed, 2 usage error (no database, a damaged one, an unwritable --html).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from referee.cli import UsageError
from referee.cli.args import output_path, unwritable
from referee.history.chart import history_page
from referee.history.store import HistoryError, connect, default_path, read_runs
from referee.history.summary import by_bot, summary
from referee.terminal import safe


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", type=output_path, metavar="PATH",
                        help="the history database (default: as `run` records)")
    parser.add_argument("--json", action="store_true", help="print the runs as a JSON list")
    parser.add_argument("--html", type=output_path, metavar="FILE",
                        help="also draw the runs as a chart in a self-contained page")


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
        print(json.dumps([summary(run) for run in runs], indent=1))
        return 0
    print("\n".join(listing(runs)) if runs else "no run recorded yet")
    return 0


COLUMNS = ("id", "started", "passed", "failed", "first p50", "first p99", "slowest later",
           "cpu ms", "mode")


def listing(runs) -> list[str]:
    """Each bot, each of its versions, a row per run."""
    lines = []
    for bot, versions in by_bot(runs).items():
        lines.append(f"bot {safe(bot)}")
        for version, mine in versions.items():
            lines.append(f"  version {version}")
            rows = [COLUMNS] + [row(summary(run)) for run in mine]
            widths = [max(len(r[k]) for r in rows) for k in range(len(COLUMNS))]
            lines += ["    " + "  ".join(cell.ljust(w) if k < 2 else cell.rjust(w)
                                          for k, (cell, w) in enumerate(zip(r, widths)))
                      for r in rows]
    return lines


def row(figures: dict) -> tuple[str, ...]:
    def ms(value):
        return "-" if value is None else f"{value:.1f}"
    mode = figures["containment"] + (f"/{figures['box']}" if figures["box"] else "")
    return (str(figures["id"]) + (f" {figures['label']}" if figures["label"] else ""),
            figures["started"].replace("T", " ")[:19], str(figures["passed"]),
            str(figures["failed"]), ms(figures["first_line_p50_ms"]),
            ms(figures["first_line_p99_ms"]), ms(figures["slowest_later_line_ms"]),
            ms(figures["cpu_ms"]), mode)
