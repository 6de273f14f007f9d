"""The text `profile --bot` prints: a Python bot's slow lines with the functions that held
them, another bot's lines with their CPU, slowest first, and the overhead's ratios."""

from __future__ import annotations

import statistics
from pathlib import Path

from referee.judge.limits import Limits
from referee.judge.result import MatchResult
from referee.lab.profile.pooled import CODINGAME, PooledLine, Profiled
from referee.terminal import safe
from referee.units import ms

RATIO_FLOOR_S = 0.001   # later lines faster than this get no overhead ratio: clock noise
START_SHOWN_S = 0.001   # an unsampled start shorter than this is not worth a word


def sampling_line(interval_s: float, want: int, most: int) -> str:
    return (f"sampling: the bot's stack every {ms(interval_s, 'g')} ms; a match is played "
            f"again until {want} samples of the bot's code are pooled, at most {most} matches "
            "(--samples, --repeat); times are per match")


def limits_line(slack: float, limits: Limits) -> str:
    return (f"limits: CodinGame's x{slack:g} (first line {ms(limits.first_line_s, 'g')} ms, "
            f"later lines {ms(limits.turn_s, 'g')} ms), as the profiler slows the bot; "
            "lines are shown by CodinGame's own limits")


def python_report(name: str, matches: list[Profiled], lines: list[PooledLine],
                  top: int) -> list[str]:
    """The puzzle's verdict and pooling, then a table for each slow line, slowest first."""
    shown = sorted((line for line in lines if line.slow), key=lambda line: -line.latency_s)
    samples = sum(m.bot_samples for m in matches)
    played = f"{len(matches)} matches pooled" if len(matches) > 1 else "1 match"
    out = [f"{_verdicts(name, matches)}, {len(lines)} line(s); {played}, {samples} samples "
           f"of the bot's code; CPU: {matches[0].cpu.source}",
           f"{len(shown)} line(s) shown, slowest first: the first, and any over half of "
           "CodinGame's limit"]
    out += [f"  {safe(m.result.reason)}" for m in matches if not m.result.won]
    starts = [s for s in (m.unsampled_start_s for m in matches) if s is not None]
    start = statistics.median(starts) if starts else None
    for line in shown:
        out += line_table(line, top, start if line.number == 1 else None)
    return out


def _verdicts(name: str, matches: list[Profiled]) -> str:
    won = sum(m.result.won for m in matches)
    if won == len(matches) or not won:
        return f"{safe(name)}: {matches[-1].result.verdict.value}"
    return f"{safe(name)}: won {won} of {len(matches)}"


def line_table(line: PooledLine, top: int, start_s: float | None) -> list[str]:
    """The line's times and the functions that held them, by own time per match."""
    limit = CODINGAME.for_turn(line.number)
    wall = (f"{ms(line.latency_s)} ms" if line.matches == 1 else
            f"{ms(line.latency_s)} ms median of {line.matches}, max {ms(max(line.latencies))}")
    cpu = "" if line.cpu_s is None else f", CPU {ms(line.cpu_s)} ms"
    head = (f"line {line.number}: {wall} (CodinGame's limit {ms(limit, 'g')} ms){cpu}, "
            f"{line.samples} samples")
    if start_s is not None and start_s >= START_SHOWN_S:
        head += f"; its first {ms(start_s)} ms were the interpreter's start, before any sample"
    out = [head]
    if not line.own or not top:
        return out
    out.append(f"  {'own ms':>8} {'cum ms':>8}  function")
    for frame, own in line.own.most_common(top):
        where = f"{frame.function}  {_short(frame.file)}:{frame.line}"
        cum = line.total[frame] / line.matches
        out.append(f"  {ms(own / line.matches):>8} {ms(cum):>8}  {safe(where)}")
    return out


def _short(file: str) -> str:
    """A file's path from the working directory when it is below it."""
    try:
        return str(Path(file).resolve().relative_to(Path.cwd()))
    except (ValueError, OSError):
        return file


def other_report(profiled: Profiled, top: int) -> list[str]:
    """The match's verdict, then its `top` slowest lines (the first among them) with their
    CPU, and what the others add up to."""
    r = profiled.result
    whole = "" if r.usage.cpu_s is None else f"; {ms(r.usage.cpu_s)} ms in all, as run counts it"
    out = [f"{safe(r.name)}: {r.verdict.value}, {len(r.lines)} line(s); CPU: "
           f"{profiled.cpu.source}{whole}"]
    if not r.won:
        out.append(f"  {safe(r.reason)}")
    turns = sorted(profiled.turns, key=lambda turn: -turn.latency_s)
    shown = turns[:max(top, 1)]
    numbers = {turn.number for turn in shown}
    if profiled.turns and 1 not in numbers:   # the first line, always
        numbers = numbers - {shown[-1].number} | {1}
        shown[-1] = profiled.turns[0]
    out.append(f"  {'line':>5} {'wall ms':>9} {'cpu ms':>9}   slowest first")
    for turn in shown:
        cpu = "-" if turn.cpu_s is None else ms(turn.cpu_s)
        slow = turn.number > 1 and turn.latency_s > CODINGAME.for_turn(turn.number) / 2
        out.append(f"  {turn.number:>5} {ms(turn.latency_s):>9} {cpu:>9}{'  !' if slow else ''}")
    rest = [turn for turn in turns if turn.number not in numbers]
    if rest:
        cpu = sum(turn.cpu_s or 0.0 for turn in rest)
        longest = max(turn.latency_s for turn in rest)
        each = f"each under {ms(0.0001)}" if longest < 0.00005 else f"each at most {ms(longest)}"
        out.append(f"  {len(rest)} more line(s), {each} ms, {ms(cpu)} ms of CPU in all")
    before = profiled.cpu_before_input_s
    if before is not None and before >= START_SHOWN_S:
        out.append(f"  line 1's CPU counts from the bot's start, its wall time from the input: "
                   f"{ms(before)} ms of CPU came before the input")
    return out


def overhead_rows(pairs: list[tuple[str, list[MatchResult], list[MatchResult]]]) -> list[str]:
    """Per puzzle: the median first line and slowest later line, unprofiled and profiled,
    and the ratios; then the median and max of the ratios over the puzzles."""
    lines = [f"{'puzzle':<24} {'first ms':>9} {'profiled':>9} {'ratio':>6}"
             f" {'slowest later':>13} {'profiled':>9} {'ratio':>6}"]
    firsts, laters = [], []
    for name, plain, sampled in pairs:
        a, b = _median_first(plain), _median_first(sampled)
        c, d = _median_later(plain), _median_later(sampled)
        firsts.append(b / a if a else None)
        laters.append(d / c if c >= RATIO_FLOOR_S else None)   # under it: the clock's noise
        lines.append(f"{safe(name)[:24]:<24} {ms(a):>9} {ms(b):>9} {_x(firsts[-1]):>6}"
                     f" {ms(c):>13} {ms(d):>9} {_x(laters[-1]):>6}")
    for label, ratios in (("first line", firsts), ("slowest later line", laters)):
        known = [x for x in ratios if x is not None]
        if known:
            lines.append(f"{label}: profiled/unprofiled median x{statistics.median(known):.2f}, "
                         f"max x{max(known):.2f} over {len(known)} puzzle(s)")
    return lines


def _median_first(results: list[MatchResult]) -> float:
    return statistics.median(r.first_line_s or 0.0 for r in results)


def _median_later(results: list[MatchResult]) -> float:
    """The median over the matches of each one's slowest later line (0 without any)."""
    return statistics.median(r.slowest_turn_s or 0.0 for r in results)


def _x(ratio: float | None) -> str:
    return "-" if ratio is None else f"x{ratio:.2f}"
