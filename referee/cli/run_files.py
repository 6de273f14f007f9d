"""The files `run` writes: --json, --csv, --html and the page of lost matches beside it.

Each path is checked before any match is played (`check_outputs`): a folder missing, a
path that cannot be written, or two outputs at one path is a usage error that costs no
match. In the JSON and CSV a match's exit_status is the bot's own, or empty where the
referee stopped the bot (`match_json`).
"""

from __future__ import annotations

import argparse
import csv
import sys
import io
import json
from pathlib import Path
from typing import Callable

from referee.box.cgroups import shares_cpu
from referee.cli import UsageError, lab_part
from referee.cli.args import real_path, unwritable
from referee.judge.limits import KILL_GRACE_S, Limits
from referee.report.tables import latency_stats, summary_line
from referee.judge.result import MatchResult
from referee.files import same_file, write_new
from referee.terminal import safe

CSV_FIELDS = ("puzzle", "path", "validator", "bot", "command", "verdict", "won", "turn",
              "turns", "first_line_ms", "slowest_turn_ms", "first_line_limit_ms",
              "turn_limit_ms", "cpu_ms", "peak_mb", "exit_status", "reason")


def output_files(args: argparse.Namespace) -> list[tuple[str, str]]:
    """(what, path) of each file the options ask for, --html's page of lost matches too."""
    files = [(f"--{option}", getattr(args, option)) for option in ("json", "csv", "html")
             if getattr(args, option)]
    if args.html:
        files.append(("the --html page of lost matches", play_page(args.html)))
    return files


def check_outputs(args: argparse.Namespace) -> None:
    """Before any match: each output's folder exists, and no two outputs share a path
    (the one written last would silently replace the other)."""
    seen: dict[Path, str] = {}
    if args.out:   # --out is a folder: no file may take its path
        seen[real_path(args.out)] = f"--out {args.out}"
    for what, name in output_files(args):
        why = unwritable(name)
        if why:
            raise UsageError(f"cannot write {what} {name}: {why}")
        path = real_path(name)
        if path in seen:
            raise UsageError(f"{what} {name} is the same file as {seen[path]}: "
                             "give each output its own path")
        seen[path] = f"{what} {name}"


def check_inputs(args: argparse.Namespace, inputs: list[Path | str]) -> None:
    """Before any match: no output names an input (a puzzle, or a file of a bot's
    command), by path or as the same file under another name (a hard link): the report
    would overwrite what it judged."""
    taken = {real_path(path): str(path) for path in inputs}
    for what, name in output_files(args):
        found = taken.get(real_path(name)) or next(
            (str(path) for path in inputs if same_file(name, path)), None)
        if found:
            raise UsageError(f"{what} {name} is an input ({found}): "
                             "give the output its own path")


def write_outputs(writers: list[tuple[str, Callable[[], None]]]) -> list[str]:
    """Run each writer; a failure is a line to show after the report, never a lost report."""
    failed = []
    for what, write in writers:
        try:
            write()
        except OSError as error:
            failed.append(f"cannot write {what}: {error.strerror or error}")
        except UsageError as error:   # a writer's own word on its failure
            failed.append(str(error))
    return failed


def play_page(html: str) -> str:
    """The page of lost matches written beside the --html page (viewer.js links to it)."""
    return str(Path(html).with_suffix(".play.html"))


def _limits_json(args: argparse.Namespace) -> dict:
    """The limits; the CPU cap as CPUs (null: none), where each match's CPU is shared."""
    return {"first_line_ms": args.first_line_ms, "turn_ms": args.turn_ms,
            "kill_grace_ms": KILL_GRACE_S * 1000, "cpu_shared": shares_cpu(),
            "cpu_cap": args.cpu_cap if shares_cpu() else None}


def write_json(args: argparse.Namespace, bots: list[str], labels: tuple[str, ...],
               results: list[MatchResult], replays: list[str], stats: dict | None) -> None:
    """One bot: its command, the totals and every match. Two: each bot's command, totals
    and latencies, the versus summary, and every match with its bot's label."""
    matches = [dict(match_json(r), replay=c) for r, c in zip(results, replays)]
    data: dict = {"limits": _limits_json(args),
                  "passed": sum(r.won for r in results),
                  "failed": sum(not r.won for r in results)}
    if stats is None:
        data = {"bot": bots[0], **data, "latency_ms": latency_stats(results)}
    else:
        data["bots"] = [{"label": label, "command": bot,
                         "passed": sum(r.won for r in results if r.bot == label),
                         "failed": sum(not r.won for r in results if r.bot == label),
                         "latency_ms": latency_stats([r for r in results if r.bot == label])}
                        for label, bot in zip(labels, bots)]
        data["versus"] = stats
    data["matches"] = matches
    _write(args.json, "--json", json.dumps(data, indent=1) + "\n")


def match_json(result: MatchResult) -> dict:
    """The match as JSON, its exit_status None when the referee stopped the bot: a bot
    stopped after its winning line would otherwise show -9 (SIGKILL), as if it had died."""
    data = result.to_json()
    if result.usage.stopped:
        data["exit_status"] = None
    return data


def write_csv(name: str, bots: list[str], labels: tuple[str, ...], results: list[MatchResult],
              limits: Limits) -> None:
    """One row per match, CSV_FIELDS, times in ms; empty cells for figures not measured."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=CSV_FIELDS, lineterminator="\n")
    writer.writeheader()
    for r in results:
        data = match_json(r)
        writer.writerow({
            **{k: data[k] for k in ("puzzle", "path", "validator", "bot", "verdict", "won",
                                    "turn", "turns", "first_line_ms", "slowest_turn_ms",
                                    "cpu_ms", "peak_mb", "exit_status", "reason")},
            "command": bots[labels.index(r.bot)],
            "first_line_limit_ms": f"{limits.first_line_s * 1000:g}",
            "turn_limit_ms": f"{limits.turn_s * 1000:g}"})
    _write(name, "--csv", buffer.getvalue())


def write_html(args: argparse.Namespace, bots: list[str], labels: tuple[str, ...],
               results: list[MatchResult], replays: list[str], limits: Limits,
               versus: str = "") -> None:
    # here, not at the top: a run without --html starts without the page's code
    from referee.report.player import build_page
    from referee.report.viewer import build_html

    page = build_html(results, replays, limits, bot=bots[0],
                      title=f"referee run: {summary_line(results)}",
                      bots=list(zip(labels, bots)) if len(bots) > 1 else None, versus=versus)
    _write(args.html, "--html", page)
    lost = [lost_entry(r) for r in results if not r.won]
    if lost:   # the report links each lost position to this page (viewer.js, playerLink)
        _write(play_page(args.html), "--html", build_page(lost, "lost matches"))


def lost_entry(result: MatchResult) -> dict:
    """A lost position for the player page, the bot's links placed (the page opens there on
    its own): with the solver's data (hint, check and solve on the bot's links) worked out
    by the lab where it is installed, else the board alone."""
    from referee.report.viewer import match_data

    steps = match_data(result)["steps"]
    position = [steps[k:k + 5] for k in range(0, len(steps), 5)]
    return {**_solved_entry(result), "position": position}


def _solved_entry(result: MatchResult) -> dict:
    from referee.report.player import puzzle_entry
    try:
        position_entry = lab_part("positions").position_entry
    except ImportError:
        return puzzle_entry(result.name, result.board)
    try:
        entry = position_entry(result.name, result.board, result.lines)
    except Exception:   # the solver's failure costs the page its help, not the run its files
        entry = None
    if entry is None:
        print(f"run: no hint, check or solve for {safe(result.name)} in the page of lost "
              "matches: the solver found no solution in its time", file=sys.stderr)
    return entry or puzzle_entry(result.name, result.board)


def _write(name: str, option: str, text: str) -> None:
    try:
        write_new(name, text)
    except OSError as error:
        raise UsageError(f"cannot write {option} {name}: {error.strerror or error}") from None
