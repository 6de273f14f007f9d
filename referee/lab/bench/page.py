"""docs/BENCHMARKS.md, written afresh from `bench --json` files: `make benchmarks`.

    python -m referee.lab.bench.page --out docs/BENCHMARKS.md BENCH.json [BENCH.json ...]

Each file is either a plain bench (`spoon2 bench --json`: the bot alone, per suite solved,
median, p99, max, slowest board) or a bench against the SAT peer (`spoon2 bench --peer sat
--json`, as `make stress` writes: the same figures for the bot, where a board proved
unsolvable counts as answered, and the peer/bot ratios). The page holds one table per file,
in the order given, with the machine (CPU model, cores) and the date, and replaces whatever
the output file held: figures are never appended to older ones.

Exit status: 0 written, 2 a file that cannot be read or is not a bench --json file.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import sys
from pathlib import Path

from referee.files import write_new

COMMAND = "make benchmarks"


class PageError(Exception):
    """A bench file the page cannot be made from: one line for the user."""


def _ms(seconds: float | None) -> str:
    return "-" if seconds is None else f"{seconds * 1000:,.1f}"


def _ratio(value: float | None) -> str:
    return "-" if value is None else f"x{value:.2f}"


def load(path: str) -> dict:
    """A bench --json file's data, checked to have the suites the page reads."""
    try:
        data = json.loads(Path(path).read_text())
    except OSError as error:
        raise PageError(f"{path}: {error.strerror}") from None
    except ValueError as error:
        raise PageError(f"{path}: not JSON ({error})") from None
    suites = data.get("suites") if isinstance(data, dict) else None
    if not isinstance(suites, dict) or not suites:
        raise PageError(f"{path}: not a bench --json file (no suites)")
    for name, suite in suites.items():
        wanted = ("bot", "peer", "ratio") if is_peer(data) else ("solved", "total", "median", "p99", "max")
        if not isinstance(suite, dict) or any(key not in suite for key in wanted):
            raise PageError(f"{path}: suite {name} lacks {', '.join(wanted)}")
    return data


def is_peer(data: dict) -> bool:
    """True for a `bench --peer` file (the bot's and the peer's figures per suite)."""
    return "timeout" in data and all("bot" in s for s in data["suites"].values())


def bench_rows(data: dict) -> list[str]:
    """One table row per suite of a plain bench."""
    rows = ["| suite | solved | median ms | p99 ms | max ms | slowest board |",
            "|---|---|---:|---:|---:|---|"]
    for name, s in data["suites"].items():
        rows.append(f"| {name} | {s['solved']}/{s['total']} | {_ms(s['median'])} | {_ms(s['p99'])} "
                    f"| {_ms(s['max'])} | {s.get('slowest_board', s.get('slowest', '-'))} |")
    return rows


def peer_rows(data: dict) -> list[str]:
    """One table row per suite of a bench against the peer: the bot's figures, the peer's
    answers and the peer/bot ratios (above 1: the bot is faster)."""
    rows = ["| suite | solved | median ms | p99 ms | max ms | slowest board "
            "| peer solved | peer/bot median | peer/bot max |",
            "|---|---|---:|---:|---:|---|---|---:|---:|"]
    for name, entry in data["suites"].items():
        b, p, ratio = entry["bot"], entry["peer"], entry["ratio"]
        rows.append(f"| {name} | {b['answered']}/{b['total']} | {_ms(b['median'])} | {_ms(b['p99'])} "
                    f"| {_ms(b['max'])} | {b['slowest']} | {p['answered']}/{p['total']} "
                    f"| {_ratio(ratio.get('median'))} | {_ratio(ratio.get('max'))} |")
    return rows


def settings(data: dict) -> str:
    """How a file's solves were timed, in one line."""
    if is_peer(data):
        return (f"`bench --peer sat`: each side {data['repeat']} "
                f"solve(s) a board, the median counting; a solve stops at {data['timeout']:g} s "
                "and counts as the limit. A board proved unsolvable counts as solved.")
    clock = "CPU time of the solving thread" if data.get("clock") == "cpu" else "wall clock"
    seed = data.get("seed")
    return (f"`bench`: {data.get('repeat', 1)} solve(s) a board, the median "
            f"counting; {clock}; seed {'the bot' + chr(39) + 's own' if seed is None else seed}.")


def machine() -> str:
    """The CPU model and the number of cores, as this machine reports them."""
    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    model = model or platform.processor() or platform.machine() or "unknown CPU"
    return f"{model}, {os.cpu_count()} core(s), Python {platform.python_version()}"


def render(files: list[tuple[str, dict]], where: str, when: str) -> str:
    """The whole page: a heading, the machine and the date, then one table per file."""
    lines = ["# Benchmarks", "",
             f"Written by `{COMMAND}` on {when}, on {where}. The page is regenerated whole, "
             "never appended to: to see how a change moves these figures, run "
             "`bench --compare` old tree against new (see the README).", "",
             "Suites: `public` (CodinGame's 13 tests), `hard30` (20 unique 30x30 puzzles that "
             "need branching), `full30` (an island on every cell of a 30x30 board), two "
             "generated 30x30 sets (`--gen`, 135 and 258 islands a board), and the stress "
             "folders of `puzzles/stress` (what each holds: "
             "[puzzles/stress/README.md](../puzzles/stress/README.md)). Times are one solve "
             "in-process, in milliseconds; CodinGame allows 1,000 ms for the first line.", ""]
    for path, data in files:
        title = "The bot against the SAT peer" if is_peer(data) else "The bot alone"
        lines += [f"## {title}", "", f"{settings(data)} From `{Path(path).name}`.", ""]
        lines += peer_rows(data) if is_peer(data) else bench_rows(data)
        lines.append("")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m referee.lab.bench.page",
                                     description=__doc__.splitlines()[0], allow_abbrev=False)
    parser.add_argument("files", nargs="+", metavar="BENCH.json", help="bench --json files")
    parser.add_argument("--out", default="docs/BENCHMARKS.md", metavar="FILE",
                        help="the page to write (default: docs/BENCHMARKS.md)")
    args = parser.parse_args(argv)
    try:
        files = [(path, load(path)) for path in args.files]
    except PageError as error:
        print(f"{parser.prog}: error: {error}", file=sys.stderr)
        return 2
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
    page = render(files, machine(), date)
    try:
        write_new(args.out, page)
    except OSError as error:
        print(f"{parser.prog}: error: {args.out}: {error.strerror}", file=sys.stderr)
        return 2
    print(f"{args.out}: {len(files)} bench file(s), "
          f"{sum(len(d['suites']) for _, d in files)} suite(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
