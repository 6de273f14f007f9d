"""The referee's crew for a run: each match's bot made ahead, and finished behind.

Starting a bot costs the referee some 30 ms before the bot's first instruction (the
cgroup's first join, bubblewrap's mounts, the drop of root), and
ending one some 15 ms after its verdict (its box's processes dying, the stamper reaping
them, the cgroup's removal). None of it counts against a bot (its clock starts at its
start mark and stops at its verdict), but all of it is the run's wall time. So a run that
plays one bot on many puzzles
  - makes the next match's bot `held` (referee/box/runner.py: everything up to its exec, the
    launcher waiting at its gate) while the current match plays, and opens its gate when
    that match begins: a spare, made only for a match still to come, with a folder of its
    own (`referee-match-PID-START-*`, swept if the referee is killed), in a thread of the
    crew's;
  - hands the end of a boxed bot's close to that thread: the box is killed at the
    verdict (SIGKILL to bubblewrap: nothing of it runs on), and the waits for its end and
    the clean-up happen while the next match plays.
The work is the same; it moves to where the referee would wait, on the machine's other
core. When the run ends, spares left are closed and every finish is waited for: nothing
outlives the run.
"""

from __future__ import annotations

import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Callable, Sequence

from referee.box import leftovers
from referee.box.sandbox import Mode
from referee.box.reaper import remove_tree
from referee.box.runner import BotProcess, BotStartError

FOLDER_PREFIX = "referee-match-"

Key = tuple[tuple[str, ...], "Mode | None"]


def match_folder() -> str:
    """A folder for one match's temporary files, named for the sweep of a killed referee."""
    return tempfile.mkdtemp(prefix=leftovers.own_prefix(FOLDER_PREFIX))


class Crew:
    """Held bots, by command and containment mode, for the matches still to play; and the
    thread that finishes the bots whose matches are over."""

    def __init__(self, plays: dict[Key, int], workers: int = 1):
        self._to_play = dict(plays)   # matches still to start, per key
        self._held: dict[Key, list[tuple[BotProcess, str]]] = {}
        self._lock = threading.Lock()
        self._closed = False
        # one a match played at once: the crew keeps up with `run --jobs N`
        self._behind = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="referee-crew")

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
        self.finish(lambda: self._make(key))   # behind too: the match starts meanwhile
        return taken

    def held(self, argv: Sequence[str], mode: Mode | None) -> int:
        """How many bots of this command are held ready now."""
        with self._lock:
            return len(self._held.get(self.key(argv, mode), []))

    def finish(self, work: Callable[[], None]) -> None:
        """Run `work` behind the run, in the crew's thread (a spare's making, the end of a
        bot's close: BotProcess's `finisher`); here and now once the crew has closed."""
        try:
            self._behind.submit(work)
        except RuntimeError:   # shut down: no thread is left to do it
            work()

    def _make(self, key: Key) -> None:
        with self._lock:
            if self._closed or len(self._held.get(key, [])) >= self._to_play.get(key, 0):
                return
        folder = match_folder()
        try:
            bot = BotProcess(key[0], tmp_parent=folder, mode=key[1], held=True,
                             finisher=self.finish, idle=True)
        except (BotStartError, OSError):
            remove_tree(folder)   # the match itself starts its bot cold, and says why it fails
            return
        with self._lock:
            if not self._closed:
                self._held.setdefault(key, []).append((bot, folder))
                return
        _discard(bot, folder)

    def close(self) -> None:
        """End every spare left and wait for every finish: the run is over."""
        with self._lock:
            self._closed = True
            left = [spare for held in self._held.values() for spare in held]
            self._held.clear()
        for bot, folder in left:
            _discard(bot, folder)
        self._behind.shutdown(wait=True)

    def __enter__(self) -> "Crew":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _discard(bot: BotProcess, folder: str) -> None:
    bot.close()
    remove_tree(folder)
