"""One match of `run`, whatever happens in it: a result every time, and no folder left.

Each match gets a folder of its own (`referee-match-PID-START-*` in the system's temporary
folder: a later referee removes those a killed one left, referee/box/leftovers.py)
to hold the bot's TMPDIR; once the match is over it is removed with `remove_tree`, which
no nest, closed folder, symlink or mount the bot left there can stop or mislead. What
cannot be removed is said in the result (`cleanup`). A match that raises, a bot that
cannot start included, gets verdict `error` with the exception in its reason, so one
match going wrong never costs the others their results (nor `run --jobs` its files).
Ctrl-C and SIGTERM still stop the whole run.
"""

from __future__ import annotations

import threading
from dataclasses import replace
from typing import Sequence

from referee.box import leftovers
from referee.judge.board import Board
from referee.box.sandbox import Mode
from referee.judge.limits import Limits
from referee.judge.match import play_match
from referee.box.reaper import remove_tree
from referee.judge.result import MatchResult
from referee.judge.rules import Verdict
from referee.box.runner import BotProcess, BotStartError
from referee.box.crew import Crew, match_folder


def play_one(board: Board, argv: Sequence[str], limits: Limits, name: str, path: str = "",
             mode: Mode | None = None, stop: threading.Event | None = None,
             crew: Crew | None = None) -> MatchResult:
    """One match in a folder of its own, removed after; an `error` result if it raises.
    With a `crew`, the bot is one it made ahead if one is ready, and it finishes the bot."""
    folder = ""
    try:
        leftovers.sweep()
        bot, folder = crew.take(argv, mode) if crew else (None, "")
        if bot is None:
            folder = folder or match_folder()
            bot = BotProcess(argv, tmp_parent=folder, mode=mode, held=True,
                             finisher=crew.finish if crew else None)
        with bot:   # closed whatever happens: play_match's own fault included
            bot.begin(stop)
            result = play_match(board, bot, limits, name=name, path=path)
    except BotStartError as error:
        result = error_result(board, name, path, str(error))
    except Exception as error:   # the referee's own failure: this match only
        result = error_result(board, name, path, f"the referee failed in this match "
                              f"({error.__class__.__name__}: {error})")
    finally:
        left = remove_tree(folder) if folder else ""
    return replace(result, cleanup=f"not removed: {left}") if left else result


def error_result(board: Board, name: str, path: str, reason: str) -> MatchResult:
    """A match with no verdict of the rules: `reason` on one line."""
    return MatchResult(name=name, board=board, verdict=Verdict.ERROR,
                       reason=" ".join(reason.split()), turn=1, line=None, path=path)
