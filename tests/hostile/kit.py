"""The hostile kit's bots, built and ready to run, and what a match may leave behind.

C bots are compiled by gcc into a folder the box user may read (in the test session's
SESSION_TMP); Python bots run with a Python the box user can reach (box_python).
"""

import os
import re
import subprocess
import tempfile
from pathlib import Path

from tests.fakebots.procs import SESSION_TMP, box_python, running_with_marker

HERE = Path(__file__).parent
BOX_UID_BASE = 60000
SIMPLEST = HERE.parent.parent / "puzzles" / "public" / "01_simplest.txt"


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
    return [box_python(), str(HERE / script), *map(str, args)]


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


def shm_files(marker: str, uid: int | None) -> list[str]:
    """Files in the host's /dev/shm named with the marker or owned by the match's user."""
    found = []
    for entry in os.scandir("/dev/shm"):
        try:
            owner = entry.stat(follow_symlinks=False).st_uid
        except OSError:
            continue
        if marker in entry.name or (uid is not None and owner == uid):
            found.append(entry.path)
    return found


def match_folders() -> list[str]:
    """referee-match-* and referee-stage-* folders of this session's referees."""
    return [name for name in os.listdir(SESSION_TMP)
            if name.startswith(("referee-match-", "referee-stage-"))]


def leftovers(marker: str, uid: int | None) -> list[str]:
    """Everything of the match still on the machine: its processes, System V objects of
    its user, its /dev/shm files."""
    left = running_with_marker(marker)
    if uid is not None:
        left += [obj for obj in sysv_objects(uid) if f" uid {uid}" in obj]
    return left + shm_files(marker, uid)
