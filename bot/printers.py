"""The printers that keep a pacer's LineSchedule (bot/pacing.py): print each sure link
when it is due, and say on "stop" what they printed.

The printer is a child process where the system allows one. A thread would share the
interpreter with the search: when the machine is busy and the system pauses the search
while it holds the interpreter, a due line waits for it, past CodinGame's 100 ms on a busy
machine; a child's line does not. A child that loses its parent (killed at a timeout)
reads the end of its pipe and exits at once.
"""

import os
import select
import sys

from bot.lines import line

SWITCH = 0.001  # s: how soon the search yields the interpreter to a thread printer


class ThreadPrinter:
    """The schedule kept by a thread of this process."""

    def __init__(self, out, schedule):
        # Imported here: only where there is no fork does the bot need threads, and it
        # starts sooner without them.
        import threading

        self.out = out
        self.schedule = schedule
        self.turn = threading.Condition()
        self.done = False
        self.thread = threading.Thread(target=self._run, name="pacer", daemon=True)
        # The search never blocks, so a due line waits for it to yield the interpreter:
        # every 5 ms by default, every 1 ms here.
        sys.setswitchinterval(SWITCH)
        self.thread.start()

    def queue(self, units):
        with self.turn:
            self.schedule.waiting.extend(units)
            self.turn.notify()

    def stop(self):
        with self.turn:
            self.done = True
            self.turn.notify()
        if self.thread.is_alive():
            self.thread.join()
        return self.schedule.printed

    def _run(self):
        schedule = self.schedule
        with self.turn:
            while not self.done:
                wait = schedule.wait()
                if wait is None or wait > 0:
                    self.turn.wait(wait)
                    continue
                try:
                    self.out.write(line(*schedule.take(), 1))
                    self.out.flush()
                except (BrokenPipeError, ValueError):
                    return  # the reader is gone: the main thread will find out


def printer(out, schedule):
    """A printer at work: a child process on `out`'s descriptor, or a thread where there is
    no descriptor or the system makes no child."""
    try:
        return ChildPrinter(out.fileno(), out, schedule)
    except (AttributeError, OSError, ValueError):
        return ThreadPrinter(out, schedule)


class ChildPrinter:
    """The schedule kept by a child process: links go to it down a pipe, one per line; on
    "stop" it replies with what it printed, "end", and exits."""

    def __init__(self, fd, out, schedule):
        out.flush()  # the child must not inherit lines still buffered
        self.schedule = schedule
        down, self.orders = os.pipe()
        self.replies, up = os.pipe()
        self.pid = os.fork()   # AttributeError where there is none
        if self.pid == 0:
            os.close(self.orders)
            os.close(self.replies)
            code = 0
            try:
                _pace(down, up, fd, schedule)
            except BaseException:
                code = 1
            os._exit(code)  # never the parent's exit handlers or buffers
        os.close(down)
        os.close(up)

    def queue(self, units):
        if self.pid is not None:   # else stopped: nothing more is paced
            os.write(self.orders, "".join(line(*pair) for pair in units).encode())

    def stop(self):
        if self.pid is None:
            return {}
        pid, self.pid = self.pid, None
        printed, ended = {}, False
        try:
            os.write(self.orders, b"stop\n")
            for reply in _lines(self.replies):
                if reply == "end":
                    ended = True
                    break
                *pair, n = map(int, reply.split())
                printed[tuple(pair)] = n
            if not ended:
                # It died on a write to a reader that is gone: so would the answer.
                raise BrokenPipeError("the pacer is gone")
        finally:
            os.close(self.orders)
            os.close(self.replies)
            os.waitpid(pid, 0)
        return printed


def _lines(fd):
    """The lines read from `fd` until its end."""
    rest = b""
    while True:
        chunk = os.read(fd, 65536)
        if not chunk:
            return
        rest += chunk
        *whole, rest = rest.split(b"\n")
        for text in whole:
            yield text.decode()


def _pace(orders, replies, fd, schedule):
    """The child's loop: take orders, print what is due, report on "stop"."""
    rest = b""
    while True:
        readable, _, _ = select.select([orders], [], [], schedule.wait())
        if not readable:
            os.write(fd, line(*schedule.take(), 1).encode())
            continue
        chunk = os.read(orders, 65536)
        if not chunk:
            return  # the parent is gone
        rest += chunk
        *whole, rest = rest.split(b"\n")
        for order in whole:
            if order == b"stop":
                report = "".join(line(*pair, n) for pair, n in schedule.printed.items())
                os.write(replies, (report + "end\n").encode())
                return
            schedule.waiting.append(tuple(map(int, order.split())))
