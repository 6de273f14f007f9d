"""Fake bot: reports its environment and cwd on stderr as JSON, leaves a file in TMPDIR,
prints one legal line of 01_simplest (so the referee has seen the report), then hangs."""
import json
import os
import sys
import tempfile
import time

sys.stdin.readline()
with open(os.path.join(tempfile.gettempdir(), "left-behind.txt"), "w") as f:
    f.write("a stickytape bundle leaves its modules here when killed")
import resource
print(json.dumps({"env": dict(os.environ), "cwd": os.getcwd(),
                  "rlimit_as": resource.getrlimit(resource.RLIMIT_AS),
                  "tmp": tempfile.gettempdir(), "pgid": os.getpgid(0), "sid": os.getsid(0),
                  "pid": os.getpid()}), file=sys.stderr, flush=True)
print("0 0 2 0 1", flush=True)
time.sleep(600)
