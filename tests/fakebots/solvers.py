"""Stand-ins for `bot.solve` in the in-process bench tests: a solve that takes a while."""

import time

import bot


def slept(seconds):
    """bot.solve, after `seconds` asleep (no CPU spent)."""
    solve = bot.solve

    def late(text, **kwargs):
        time.sleep(seconds)
        return solve(text, **kwargs)
    return late
