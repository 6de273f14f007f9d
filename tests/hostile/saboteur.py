"""Bot A of an A-vs-B run that goes for bot B: it leaves a process behind (double fork,
own session) and both scan /proc for processes whose command line holds B's marker,
sending them SIGSTOP then SIGKILL, for FOR_S seconds. Reports how many it hit, and never
answers: FOR_S under the first-line limit, A's matches end as timeouts.

usage: saboteur.py B_MARKER OWN_MARKER FOR_S
"""
import os
import signal
import sys
import time

# B's marker comes reversed, so that A's own command line does not hold it
target, seconds = sys.argv[1][::-1].encode(), float(sys.argv[3])


def hunt(until):
    hit = set()
    while time.monotonic() < until:
        for name in os.listdir("/proc"):
            try:
                with open(f"/proc/{name}/cmdline", "rb") as file:
                    if target not in file.read():
                        continue
                os.kill(int(name), signal.SIGSTOP)
                os.kill(int(name), signal.SIGKILL)
                hit.add(int(name))
            except (OSError, ValueError):
                continue
        time.sleep(0.01)
    return hit


until = time.monotonic() + seconds
if os.fork() == 0:            # the process left behind, in a session of its own
    os.setsid()
    if os.fork() == 0:
        hunt(until)
    os._exit(0)
hit = hunt(until)
print(f"saboteur: hit {len(hit)} process(es) of B", file=sys.stderr, flush=True)
time.sleep(600)
