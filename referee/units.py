"""Durations for people and for JSON: the referee's one millisecond formatter."""

from __future__ import annotations


def ms(seconds: float | None, spec: str = ".1f") -> str:
    """Seconds as milliseconds, formatted by `spec`: ms(0.01234) is '12.3'; None is '-'."""
    return "-" if seconds is None else format(seconds * 1000, spec)


def ms_number(seconds: float | None) -> float | None:
    """Seconds as milliseconds for JSON, to the microsecond; None stays None."""
    return None if seconds is None else round(seconds * 1000, 3)
