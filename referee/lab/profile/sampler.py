"""The wrapper `profile --bot` starts in a Python bot's place: it runs the bot and writes,
down a descriptor the referee hands in, the bot's stack as it is sampled.

    PYTHON sampler.py --fd N [--interval S] -- SCRIPT.py ARGS...   a Python bot's file
    PYTHON sampler.py --fd N [--interval S] -m MODULE -- ARGS...   a Python bot's module

The bot runs in this process as __main__ (its file as `python FILE` runs it, a module
through runpy), unchanged; a SIGALRM handler samples its main thread's stack every
--interval seconds of wall time (see Sampler). Only the bot's own frames are written: a
stack is cut at the bot's top-level code (the frame that runs it: BOT_ROOTS), and a sample
taken while the main thread is outside the bot's code (this wrapper starting or ending,
the interpreter's shutdown) has an empty stack: the referee counts its time but shows it
nowhere. Each record is one JSON line, written as it is taken (the referee kills a bot
after its winning line, so nothing waits for an exit):

    ["start", T, INTERVAL]
    ["frame", ID, FILE, FUNCTION, LINE]       a function, named once before its first use
    ["sample", T, [ID, ...]]                  the bot's stack, outermost first
    ["handover", T]                           the bot took SIGALRM: no samples after T
    ["wrote", T, LINES]                       LINES line ends of sys.stdout's had left by T

T is time.perf_counter(), the clock the referee stamps lines with (CLOCK_MONOTONIC on
Linux, the same in every process), so the referee splits the samples at its own stamps of
the bot's lines, whichever process printed them; or, where this process says a line left
earlier (the "wrote" records: see Stdout), at that moment: the referee stamps a line once
it has read it, and a sample taken in between is the next line's work. Standard library
only, no import of the project: the bot's own Python runs it, with the bot's environment.
"""

import os
import signal
import sys
import time

DEFAULT_INTERVAL_S = 0.0005
BOT_ROOTS = set()   # the code of the frames that run the bot's top-level code


def quoted(text):
    """`text` as a JSON string, without the import of json (its start is the bot's first
    line's time): control characters, quotes, backslashes and lone surrogates escaped."""
    return '"' + "".join(
        f"\\u{ord(c):04x}" if c < " " or c in '"\\' or "\ud800" <= c <= "\udfff" else c
        for c in text) + '"'


class Records:
    """The descriptor the records go down, one JSON line per write."""

    def __init__(self, fd):
        self.fd = fd

    def write(self, text):
        try:
            os.write(self.fd, text.encode())
        except OSError:
            pass   # the referee stopped reading: the bot runs on unprofiled


class Stacks:
    """The bot's stacks as record text, each function named once by its code object.

    The frames of the last stack are kept, each with the text of the stack up to it: a
    sample walks up only to the first frame it shares with the last one (a frame's callers
    never change), as reaching a frame costs (Python 3.11 and later make its object then)."""

    def __init__(self, records):
        self.records = records
        self.ids = {}
        self.chain = []   # the last stack's frames, outermost first (held: no id is reused)
        self.texts = []   # the text of the stack up to each of them
        self.index = {}   # id(frame) -> its place in the chain

    def of(self, frame):
        """The bot's part of the stack of `frame`, as text ("" outside the bot's code)."""
        fresh = []
        while True:
            known = self.index.get(id(frame))
            if known is not None and self.chain[known] is frame:
                break
            fresh.append(frame)
            back = frame.f_back
            if back is None:
                self.forget()
                return ""   # no bot code below: this wrapper's or the interpreter's own
            if back.f_code in BOT_ROOTS:
                known = -1
                break
            frame = back
        for gone in self.chain[known + 1:]:
            del self.index[id(gone)]
        del self.chain[known + 1:], self.texts[known + 1:]
        text = self.texts[known] if known >= 0 else ""
        for frame in reversed(fresh):
            ident = str(self._id(frame.f_code))
            text = f"{text},{ident}" if text else ident
            self.index[id(frame)] = len(self.chain)
            self.chain.append(frame)
            self.texts.append(text)
        return text

    def forget(self):
        """Let the last stack's frames go."""
        self.chain, self.texts, self.index = [], [], {}

    def _id(self, code):
        found = self.ids.get(code)
        if found is None:
            found = self.ids[code] = len(self.ids)
            name = getattr(code, "co_qualname", code.co_name)
            self.records.write(f'["frame",{found},{quoted(code.co_filename)},{quoted(name)},'
                               f'{code.co_firstlineno}]\n')
        return found


class Sampler:
    """The bot's stack, taken by a SIGALRM handler every `interval` of wall time: the
    handler runs in the main thread between two of its instructions, so sampling waits
    for no lock and no other thread, and a busy machine delays a sample but never the bot
    more than one sample's work. A bot that sets SIGALRM or the real-time timer itself
    (signal.signal, signal.alarm, signal.setitimer) is handed them back: sampling stops,
    and a record says when. The timer pauses while the bot forks (a signal can make the
    kernel start a fork over), and a child the bot forks is not sampled."""

    def __init__(self, records, interval):
        self.records = records
        self.interval = interval
        self.stacks = Stacks(records)
        self.busy = False
        self.handed = False
        self.running = False
        self.own = {name: getattr(signal, name) for name in ("signal", "alarm", "setitimer")}

    def start(self):
        signal.signal = self._signal
        signal.alarm = self._alarm
        signal.setitimer = self._setitimer
        os.register_at_fork(before=self._pause, after_in_parent=self._resume,
                            after_in_child=self._leave)
        self.own["signal"](signal.SIGALRM, self.sample)
        self.running = True
        self._resume()

    def stop(self):
        self.own["setitimer"](signal.ITIMER_REAL, 0)
        self.running = False
        self.stacks.forget()
        for name, function in self.own.items():
            setattr(signal, name, function)

    def _pause(self):
        if self.running:   # once handed over, the timer is the bot's
            self.own["setitimer"](signal.ITIMER_REAL, 0)

    def _resume(self):
        if self.running:
            self.own["setitimer"](signal.ITIMER_REAL, self.interval, self.interval)

    def _leave(self):
        """In a child the bot forked: no sampling, no record, SIGALRM as it was."""
        if self.running:
            self.handed = True
            self.stop()
            self.own["signal"](signal.SIGALRM, signal.SIG_DFL)

    def sample(self, signum, frame):
        if self.busy or frame.f_globals is globals():
            return   # a signal while a sample is taken: the sampler's own time, not the bot's
        self.busy = True
        try:
            self.records.write(f'["sample",{time.perf_counter()!r},[{self.stacks.of(frame)}]]\n')
        finally:
            self.busy = False

    def _hand_over(self):
        if self.handed:
            return
        self.handed = True
        self.stop()
        self.own["signal"](signal.SIGALRM, signal.SIG_DFL)
        self.records.write(f'["handover",{time.perf_counter()!r}]\n')

    def _signal(self, signum, handler):
        if signum == signal.SIGALRM:
            self._hand_over()
        return self.own["signal"](signum, handler)

    def _alarm(self, seconds):
        self._hand_over()
        return self.own["alarm"](seconds)

    def _setitimer(self, which, seconds, interval=0.0):
        if which == signal.ITIMER_REAL:
            self._hand_over()
        return self.own["setitimer"](which, seconds, interval)


class Stdout:
    """The bot's sys.stdout, as it was, saying when its lines left: after a flush, or a
    write its stream passes on at once (line buffering, write-through), a "wrote" record
    counts the line ends written so far. Anything else is the stream's own. Lines written
    around it (sys.stdout.buffer, os.write) or by a child the bot forked go uncounted: the
    count can lag, never lead, and where it lags the referee's stamps come first."""

    def __init__(self, stream, records):
        self._stream = stream
        self._records = records
        self._lines = 0
        self._told = 0
        self._pid = os.getpid()

    def write(self, text):
        done = self._stream.write(text)
        self._lines += text.count("\n")
        stream = self._stream
        if getattr(stream, "line_buffering", False) or getattr(stream, "write_through", False):
            self._tell()
        return done

    def flush(self):
        self._stream.flush()
        self._tell()

    def _tell(self):
        if self._lines != self._told and os.getpid() == self._pid:
            self._told = self._lines
            self._records.write(f'["wrote",{time.perf_counter()!r},{self._lines}]\n')

    def __getattr__(self, name):
        return getattr(self._stream, name)


def run_script(code, path):
    """Run the bot's compiled file as __main__, as `python FILE` does (runpy's run_path
    would import pkgutil first, in the bot's time)."""
    main = type(sys)("__main__")
    main.__dict__.update(__file__=path, __cached__=None, __builtins__=__builtins__)
    sys.modules["__main__"] = main
    exec(code, main.__dict__)


BOT_ROOTS.add(run_script.__code__)


def run_python(records, interval, module, argv):
    """Run the bot in this process as __main__, its main thread's stack sampled."""
    if module:
        import runpy
        BOT_ROOTS.add(runpy._run_code.__code__)
        sys.argv = [module] + argv
        sys.path[0] = os.getcwd()
    else:
        with open(argv[0], "rb") as file:
            code = compile(file.read(), argv[0], "exec", dont_inherit=True)
        sys.argv = argv
        sys.path[0] = os.path.dirname(os.path.abspath(argv[0]))
    sys.stdout = Stdout(sys.stdout, records)
    sampler = Sampler(records, interval)
    sampler.start()
    try:
        if module:
            runpy.run_module(module, run_name="__main__", alter_sys=True)
        else:
            run_script(code, argv[0])
    finally:
        sampler.stop()


def main(args):
    fd, interval, module = None, DEFAULT_INTERVAL_S, None
    while args and args[0] != "--":
        option, args = args[0], args[1:]
        if option in ("--fd", "--interval", "-m") and args:
            value, args = args[0], args[1:]
            if option == "--fd":
                fd = int(value)
            elif option == "--interval":
                interval = float(value)
            else:
                module = value
        else:
            sys.exit(f"sampler: unknown option {option}")
    argv = args[1:]
    if fd is None or not (argv or module):
        sys.exit("usage: sampler.py --fd N [--interval S] [-m MODULE] -- ARGS...")
    records = Records(fd)
    records.write(f'["start",{time.perf_counter()!r},{interval!r}]\n')
    run_python(records, interval, module, argv)


if __name__ == "__main__":
    main(sys.argv[1:])
