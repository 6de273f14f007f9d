"""Goes for the referee: ptrace-attaches to and SIGSTOPs each ancestor (getppid's
chain), then SIGSTOPs every other process it can see and kill(-1, SIGSTOP). Reports what
it reached, then plays 01_simplest's solution: the referee must judge it all the same.
What it did stop it wakes at once (SIGCONT): a hole must show, not hang someone's run.

usage: kill_referee.py MARKER
"""
import ctypes
import os
import signal
import sys

PTRACE_ATTACH, PTRACE_DETACH = 16, 17
libc = ctypes.CDLL(None, use_errno=True)


def say(text):
    print(text, file=sys.stderr, flush=True)


def parent(pid):
    try:
        with open(f"/proc/{pid}/stat") as file:
            return int(file.read().rpartition(")")[2].split()[1])
    except (OSError, ValueError, IndexError):
        return 0


def state(pid):
    try:
        with open(f"/proc/{pid}/stat") as file:
            return file.read().rpartition(")")[2].split()[0]
    except (OSError, IndexError):
        return ""


def who(pid):
    """'uid command' of a process, to say whose it was."""
    try:
        with open(f"/proc/{pid}/status") as file:
            uid = next(line.split()[1] for line in file if line.startswith("Uid:"))
        with open(f"/proc/{pid}/cmdline", "rb") as file:
            return f"{uid} {file.read().replace(bytes(1), b' ').decode(errors='replace')[:80]}"
    except (OSError, StopIteration):
        return "gone"


def stop(pid):
    try:
        os.kill(pid, signal.SIGSTOP)
        os.kill(pid, signal.SIGCONT)
        return "STOPPED"
    except OSError as error:
        return error.strerror


ancestor = os.getppid()
while ancestor > 0:
    if libc.ptrace(PTRACE_ATTACH, ancestor, None, None) == 0:
        say(f"ancestor {ancestor}: ptrace ATTACHED")
        libc.ptrace(PTRACE_DETACH, ancestor, None, None)
    else:
        say(f"ancestor {ancestor}: ptrace {os.strerror(ctypes.get_errno())}")
    say(f"ancestor {ancestor}: SIGSTOP {stop(ancestor)}")
    ancestor = parent(ancestor)
others = [int(p) for p in os.listdir("/proc") if p.isdigit() and int(p) != os.getpid()]
stopped = [pid for pid in others if stop(pid) == "STOPPED"]
say(f"visible: {len(others)} other process(es), stopped {len(stopped)}: "
    f"{[(pid, who(pid)) for pid in stopped[:10]]}")
already = {pid for pid in others if state(pid) == "T"}
try:   # Linux returns 0 when it found processes, even if each refused the signal
    os.kill(-1, signal.SIGSTOP)
    now = [pid for pid in others if state(pid) == "T" and pid not in already]
    os.kill(-1, signal.SIGCONT)
    say(f"kill(-1, SIGSTOP): {len(now)} process(es) stopped: {now[:20]}")
except OSError as error:
    say(f"kill(-1, SIGSTOP): {error.strerror}")
print("0 0 2 0 1\n2 0 2 2 1", flush=True)
