"""The wrapper `profile --bot` starts in the bot's place: it runs the bot and writes, down a
descriptor the referee hands in, what the referee needs to split the bot's time by turn.

    PYTHON bot_sampler.py --fd N [--interval S] -- SCRIPT.py ARGS...   a Python bot's file
    PYTHON bot_sampler.py --fd N [--interval S] -m MODULE -- ARGS...   a Python bot's module
    PYTHON bot_sampler.py --fd N [--interval S] --exec -- PROGRAM ARGS...   any other bot

A Python bot runs in this process as __main__ (runpy), its file unchanged; a thread samples
the main thread's stack every --interval seconds. Another bot runs as this process's child,
whose main thread's CPU time is read from /proc as often. Each record is one JSON line, written as it is
taken (the referee kills a bot after its winning line, so nothing waits for an exit):

    ["frame", ID, FILE, FUNCTION, LINE]       a function, named once before its first use
    ["sample", T, CPU, [ID, ...]]             the stack, outermost first (Python)
    ["cpu", T, CPU]                           the child's main thread's CPU seconds

T is time.perf_counter(), the clock the referee stamps lines with (CLOCK_MONOTONIC on
Linux, the same in every process), so the referee splits the samples at its own stamps of
the bot's lines, whichever process printed them. Standard library only, no import of the
project: the bot's own Python runs it, with the bot's environment.
"""

import json
import os
import runpy
import sys
import threading
import time

DEFAULT_INTERVAL_S = 0.001
HERE = os.path.abspath(__file__)
SKIPPED = {HERE, os.path.abspath(runpy.__file__), "<frozen runpy>"}   # this wrapper's frames, runpy's


class Records:
    """The descriptor the records go down, one JSON line per write."""

    def __init__(self, fd):
        self.fd = fd

    def write(self, record):
        try:
            os.write(self.fd, (json.dumps(record) + "\n").encode())
        except OSError:
            pass   # the referee stopped reading: the bot runs on unprofiled


def sample_stacks(records, thread_id, interval, stop):
    """Sample `thread_id`'s stack until `stop` is set; frames named once, by code object."""
    ids = {}
    while not stop.wait(interval):
        frame = sys._current_frames().get(thread_id)
        if frame is None:
            return
        stack = []
        while frame is not None:
            code = frame.f_code
            if code.co_filename not in SKIPPED:
                if code not in ids:
                    ids[code] = len(ids)
                    records.write(["frame", ids[code], code.co_filename, code.co_name,
                                   code.co_firstlineno])
                stack.append(ids[code])
            frame = frame.f_back
        stack.reverse()
        records.write(["sample", time.perf_counter(), time.process_time(), stack])


def run_python(records, interval, module, argv):
    """Run the bot in this process as __main__, its main thread sampled by another."""
    stop = threading.Event()
    # The sampler needs the interpreter lock: ask a busy bot to hand it over that often.
    sys.setswitchinterval(min(sys.getswitchinterval(), interval))
    sampler = threading.Thread(target=sample_stacks, daemon=True,
                               args=(records, threading.get_ident(), interval, stop))
    sampler.start()
    try:
        if module:
            sys.argv = [module] + argv
            sys.path[0] = os.getcwd()
            runpy.run_module(module, run_name="__main__", alter_sys=True)
        else:
            sys.argv = argv
            sys.path[0] = os.path.dirname(os.path.abspath(argv[0]))
            runpy.run_path(argv[0], run_name="__main__")
    finally:
        stop.set()


def cpu_seconds(pid):
    """The CPU time of the process's main thread (/proc's schedstat, in nanoseconds)."""
    with open(f"/proc/{pid}/schedstat", "rb") as file:
        return int(file.read().split()[0]) / 1e9


def run_program(records, interval, argv):
    """Run the bot as a child, its CPU time stamped every `interval`; its exit status."""
    pid = os.fork()
    if pid == 0:
        os.close(records.fd)
        try:
            os.execvp(argv[0], argv)
        finally:
            os._exit(127)
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status)
        try:
            records.write(["cpu", time.perf_counter(), cpu_seconds(pid)])
        except (OSError, ValueError, IndexError):
            pass   # between its exit and the wait
        time.sleep(interval)


def main(args):
    fd, interval, module, program = None, DEFAULT_INTERVAL_S, None, False
    while args and args[0] != "--":
        option, args = args[0], args[1:]
        if option == "--exec":
            program = True
        elif option in ("--fd", "--interval", "-m") and args:
            value, args = args[0], args[1:]
            if option == "--fd":
                fd = int(value)
            elif option == "--interval":
                interval = float(value)
            else:
                module = value
        else:
            sys.exit(f"bot_sampler: unknown option {option}")
    argv = args[1:]
    if fd is None or not (argv or module):
        sys.exit("usage: bot_sampler.py --fd N [--interval S] [--exec | -m MODULE] -- ARGS...")
    records = Records(fd)
    records.write(["start", time.perf_counter(), interval])
    if program:
        status = run_program(records, interval, argv)
        sys.exit(status if status >= 0 else 128 - status)
    run_python(records, interval, module, argv)


if __name__ == "__main__":
    main(sys.argv[1:])
