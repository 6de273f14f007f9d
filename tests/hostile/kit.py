"""The hostile kit's bots, built and ready to run, and what a match may leave behind.

C bots are compiled by gcc into a folder the box user may read (in the test session's
SESSION_TMP); Python bots run with a Python the box user can reach (box_python).
"""

import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tests.fakebots.procs import (SESSION_TMP, box_python, hear_ctrl_c, reachable,
                                  running_with_marker)

HERE = Path(__file__).parent
ROOT = HERE.parent.parent
BOX_UID_BASE = 60000
SIMPLEST = ROOT / "puzzles" / "public" / "01_simplest.txt"


def build() -> dict[str, str]:
    """Compile every C bot; {name: path of its binary}."""
    folder = tempfile.mkdtemp(prefix="hostile-", dir=SESSION_TMP)
    os.chmod(folder, 0o755)
    built = {}
    for source in sorted(HERE.glob("*.c")):
        binary = os.path.join(folder, source.stem)
        done = subprocess.run(["gcc", "-O1", "-Wall", "-o", binary, str(source)],
                              capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            raise RuntimeError(f"gcc {source.name}: {done.stderr}")
        built[source.stem] = binary
    return built


def python_bot(script: str, *args) -> list[str]:
    return [box_python(), str(reachable(HERE) / script), *map(str, args)]


def box_uid(box_text: str) -> int | None:
    """The box user a result names ('sandboxed: bwrap as uid 60003')."""
    found = re.search(r"as uid (\d+)", box_text)
    return int(found.group(1)) if found else None


def sysv_objects(uid_at_least: int = BOX_UID_BASE) -> list[str]:
    """'kind key id uid size' of every System V object a box user owns (/proc/sysvipc)."""
    found = []
    for kind in ("shm", "sem", "msg"):
        try:
            header, *rows = [line.split() for line in open(f"/proc/sysvipc/{kind}")]
        except OSError:
            continue
        uid = header.index("uid")
        for row in rows:
            if len(row) > uid and int(row[uid]) >= uid_at_least:
                found.append(f"{kind} key {row[0]} id {row[1]} uid {row[uid]}"
                             + (f" size {row[3]}" if kind == "shm" else ""))
    return found


def sysv_key(marker: str) -> int:
    """The System V key of the match's own, from its marker (the kit's bots use it)."""
    return int(marker[-7:], 16) or 1


def shm_files(marker: str) -> list[str]:
    """Files in the host's /dev/shm named with the marker (the kit's bots name theirs so)."""
    return [entry.path for entry in os.scandir("/dev/shm") if marker in entry.name]


def match_folders() -> list[str]:
    """referee-match-* and referee-stage-* folders of this session's referees."""
    return [name for name in os.listdir(SESSION_TMP)
            if name.startswith(("referee-match-", "referee-stage-"))]


def leftovers(marker: str, wait_s: float = 3.0) -> list[str]:
    """Everything of the match still on the machine after up to `wait_s` (killed processes
    take a moment to go, as procs.wait_until_none_running allows): its processes, its
    System V objects, its /dev/shm files. Found by the match's marker, not by its user: a
    referee of another version, running meanwhile, may hand a bot of its own the same uid."""
    key = str(sysv_key(marker))
    deadline = time.monotonic() + wait_s
    while True:
        left = (running_with_marker(marker) + [obj for obj in sysv_objects(0)
                                               if obj.split()[2] == key] + shm_files(marker))
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.05)


def run_referee(mode: str, bot: str, *args: str) -> subprocess.Popen:
    """`spoon2 run` of `bot` in a process of its own, unrecorded: a referee that a bot could
    hang must not be the caller. It hears Ctrl-C even when the caller ignores it."""
    env = dict(os.environ, TMPDIR=SESSION_TMP, PYTHONPATH=str(ROOT))
    return subprocess.Popen([sys.executable, "-m", "referee", "run", "--contain", mode,
                             "--bot", bot, "--no-record", *args], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=hear_ctrl_c)


def kill_marked(marker: str) -> None:
    """Kill what is left of a match by its marker (a referee stuck on a bot's pipe waits
    until the bot, the pipe lock's holder, is gone)."""
    for line in running_with_marker(marker):
        try:
            os.kill(int(line.split(":")[0]), signal.SIGKILL)
        except OSError:
            pass
