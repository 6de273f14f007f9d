"""Bots made ahead: the next match's box ready, held at its gate, while this match plays.

Starting a bot costs the referee some 60 ms before the bot's first instruction (the
stamper's Python, the cgroup's first join, bubblewrap's mounts, the drop of root). None of
it counts against the bot (its clock starts at its start mark), but all of it is the run's
wall time. A run that plays one bot on many puzzles makes the next match's bot `held`
(referee/runner.py: everything up to its exec) while the current match plays, and opens its
gate when that match begins. The work is the same; it moves to the time a match waits for
its bot, on the machine's other core.

A spare is only made for a match still to come, and each holds a folder of its own (the
bot's TMPDIR when unboxed, `referee-match-PID-START-*`, swept if the referee is killed).
Spares left when the run ends are closed: their launchers killed at the gate, their
folders removed.
"""

from __future__ import annotations

import tempfile
import threading
from typing import Sequence

from referee import leftovers
from referee.containment import Mode
from referee.reaper import remove_tree
from referee.runner import BotProcess, BotStartError

FOLDER_PREFIX = "referee-match-"

Key = tuple[tuple[str, ...], "Mode | None"]


def match_folder() -> str:
    """A folder for one match's temporary files, named for the sweep of a killed referee."""
    return tempfile.mkdtemp(prefix=leftovers.own_prefix(FOLDER_PREFIX))


class Spares:
    """Held bots, by command and containment mode, for the matches still to play."""

    def __init__(self, plays: dict[Key, int]):
        self._to_play = dict(plays)   # matches still to start, per key
        self._held: dict[Key, list[tuple[BotProcess, str]]] = {}
        self._lock = threading.Lock()
        self._closed = False

    @staticmethod
    def key(argv: Sequence[str], mode: Mode | None) -> Key:
        return tuple(argv), mode

    def take(self, argv: Sequence[str], mode: Mode | None) -> tuple[BotProcess | None, str]:
        """A held bot and its folder for a match starting now (None, "" if none is ready),
        and a spare made for the next match of this bot, if one is still to come."""
        key = self.key(argv, mode)
        with self._lock:
            self._to_play[key] = max(0, self._to_play.get(key, 0) - 1)
            held = self._held.get(key)
            taken = held.pop() if held else (None, "")
        self._make(key)
        return taken

    def _make(self, key: Key) -> None:
        with self._lock:
            if self._closed or len(self._held.get(key, [])) >= self._to_play.get(key, 0):
                return
        folder = match_folder()
        try:
            bot = BotProcess(key[0], tmp_parent=folder, mode=key[1], held=True)
        except (BotStartError, OSError):
            remove_tree(folder)   # the match itself starts its bot cold, and says why it fails
            return
        with self._lock:
            if not self._closed:
                self._held.setdefault(key, []).append((bot, folder))
                return
        _discard(bot, folder)

    def close(self) -> None:
        """End every spare left: the run is over."""
        with self._lock:
            self._closed = True
            left = [spare for held in self._held.values() for spare in held]
            self._held.clear()
        for bot, folder in left:
            _discard(bot, folder)

    def __enter__(self) -> "Spares":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _discard(bot: BotProcess, folder: str) -> None:
    bot.close()
    remove_tree(folder)
