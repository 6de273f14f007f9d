"""Pacing: keep CodinGame's clock happy while the search runs on.

CodinGame wants the first line within 1 s of the input and each later line within 100 ms of
the one before; only the first line waits for thought. A board whose search takes longer
than that would be lost, unless the bot has something true to say meanwhile. It has: the
links the rules draw before any guess (and those the search proves later, at its root) are
in every solution. So when the search has not finished by `FIRST_AT`, a printer prints those
links one at a time, a line every `EVERY`, each line buying the search another turn; the
rest of the answer follows when the search ends. A board solved within `FIRST_AT` prints
as it always did: its whole answer, checked, at once.

When the sure links run out before the search ends, the match is lost at the next line,
unless the bot prints a link it has not proved. So `due()` tells the search, `LEAD` before
the printer would wait in vain, and the search proves what it can in a few milliseconds,
or else guesses its likeliest link and keeps to it (`bot.learning`): a right guess buys a
turn, and a wrong one loses a match that was lost anyway. A board solved in time never
guesses.

The printer (`bot.printers`) is made at the first sure link, a child process where the
system allows one.
"""

import time

from bot.lines import line

FIRST_AT = 0.5  # s after the input: the first sure link, if the search is still running
EVERY = 0.07    # s between sure links: CodinGame allows 0.1, the rest is margin
LEAD = 0.02     # s before the printer runs dry that the search is told to guess


class LineSchedule:
    """The sure links waiting, one per entry, and when the next is due; what was printed."""

    def __init__(self, start, first_at, every, clock=time.monotonic):
        self.clock = clock
        self.every = every
        self.next_at = start + first_at
        self.waiting = []   # (x1, y1, x2, y2), one entry per link
        self.printed = {}   # links printed, per pair of nodes

    def wait(self):
        """Seconds until the next line is due; None if nothing is waiting."""
        if not self.waiting:
            return None
        return max(0.0, self.next_at - self.clock())

    def take(self):
        """The next link to print now, counted as printed."""
        pair = self.waiting.pop(0)   # (a few hundred at most, one every `every`)
        self.printed[pair] = self.printed.get(pair, 0) + 1
        self.next_at = self.clock() + self.every
        return pair


class Pacer:
    """Prints sure links on a schedule while the caller searches, then the answer's rest.

    `sure(links)` may be called any number of times with every link known so far to be in
    every solution ((x1, y1, x2, y2, n) tuples, as `solve` returns); `finish(links)` prints
    what the answer adds to the lines already printed. Each line carries one link (n = 1)
    while pacing, so that every sure link buys a turn. `out` needs a file descriptor for
    the child printer; without one (or without fork) a thread prints.
    """

    def __init__(self, out, start=None, first_at=FIRST_AT, every=EVERY, clock=time.monotonic,
                 lead=LEAD):
        self.out = out
        start = clock() if start is None else start
        self.known = {}  # links announced sure, per pair of nodes
        self.clock = clock
        self.every = every
        self.lead = lead  # None: never ask for a guess
        # When the printer will want a line it has not got: its schedule, replayed here.
        self.dry_at = start + first_at
        self.guesses = 0
        self.schedule = LineSchedule(start, first_at, every, clock)
        # Made at the first sure link: a board solved at the root never needs one, and the
        # bot's first line comes sooner without a process made and stopped for nothing.
        self.printer = None
        self.stopped = False

    def sure(self, links):
        """Queue the sure links not yet queued."""
        units = []
        for *pair, n in links:
            pair = tuple(pair)
            known = self.known.get(pair, 0)
            units += [pair] * (n - known)
            self.known[pair] = max(known, n)
        if units and not self.stopped:
            if self.printer is None:
                # Imported here: a board solved at the root starts without it (or `os`).
                from bot.printers import printer

                self.printer = printer(self.out, self.schedule)
            self.printer.queue(units)
            now = self.clock()
            for _ in units:  # each goes out when due, or at once if the printer waits
                self.dry_at = max(self.dry_at, now) + self.every

    def due(self):
        """Whether the search must give a link to print now: the sure ones run out within
        `lead`."""
        return self.lead is not None and self.clock() + self.lead >= self.dry_at

    def guessed(self):
        """Note that the search guessed: the links it announces from now on may be wrong."""
        self.guesses += 1

    def finish(self, links):
        """Stop pacing and print the answer's links beyond those already printed."""
        printed = self.stop()
        for *pair, n in links:
            left = n - printed.get(tuple(pair), 0)
            if left > 0:
                self.out.write(line(*pair, left))
                self.out.flush()

    def stop(self):
        """Stop pacing: no sure line is printed once this returns. The links printed."""
        self.stopped = True
        return self.printer.stop() if self.printer is not None else {}
