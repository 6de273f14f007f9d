"""Strict argument types for the commands: ASCII digits only, finite numbers in range.

argparse's `type=int` takes '٣' or '1_000', and `type=float` takes 'inf' and 'nan'; these
types refuse them with a one-line message (exit 2).
"""

from __future__ import annotations

import argparse
import math
import re

_INTEGER = re.compile(r"-?[0-9]{1,18}")
_NUMBER = re.compile(r"-?([0-9]{1,18}(\.[0-9]*)?|\.[0-9]+)([eE][-+]?[0-9]{1,3})?")


def integer(low: int | None = None):
    """An argparse type: a base-10 integer in ASCII digits, at least `low`."""
    def parse(text: str) -> int:
        if not _INTEGER.fullmatch(text):
            raise argparse.ArgumentTypeError(f"not an integer: {text!r}")
        value = int(text)
        if low is not None and value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}, got {value}")
        return value
    return parse


def number(low: float = 0.0, high: float = math.inf, low_open: bool = False):
    """An argparse type: a finite decimal number in ASCII, in [low, high] ((low, high] if low_open)."""
    def parse(text: str) -> float:
        if not _NUMBER.fullmatch(text):
            raise argparse.ArgumentTypeError(f"not a number: {text!r}")
        value = float(text)
        if not math.isfinite(value) or value < low or value > high or (low_open and value == low):
            raise argparse.ArgumentTypeError(
                f"must be {'positive' if low == 0 and low_open else f'at least {low:g}'}"
                + (f" and at most {high:g}" if high != math.inf else "") + f", got {text}")
        return value
    return parse
