"""The independent judge for the bot's tests: the referee's pure rules (no bot code)."""

from referee.judge.board import parse_board
from referee.judge.rules import Verdict, judge_text


def links_text(links):
    """Links as the bot prints them."""
    return "".join(" ".join(map(str, link)) + "\n" for link in links)


def fault(puzzle_text, output_text):
    """None if the output solves the puzzle, else the referee's verdict and reason.

    Stricter than a match: every line must count, so a win before the last line (the
    referee ignores what follows) is a fault here.
    """
    outcome = judge_text(parse_board(puzzle_text), output_text)
    if outcome.verdict is not Verdict.WIN:
        return f"{outcome.verdict.value}: {outcome.reason}"
    lines = len(output_text.splitlines())
    if outcome.turn != lines:
        return f"won at line {outcome.turn} of {lines}: the rest are extra links"
    return None
