"""The kernel's keyrings of a box user, which outlive the bot's processes: emptied after them.

    python -I -S keyrings.py UID

The kernel keeps, per user, keyrings that no process needs to hold: the user keyring, the
user session keyring and the persistent keyring. A key a bot adds there stays under its
box user's uid after the match, for the next bot of that uid to read. In a box the
system-call filter refuses the key calls (referee/box/seccomp.py); a match's session
keyring is its own (the stamper gives its launcher one) and goes with its processes. The
rest is emptied here once the bot's processes are gone, and again as the uid's next match
begins (a referee killed mid-match cleared nothing): `held` reads how many keys the uid
owns (/proc/key-users, readable by all), and only then `clear` runs this script by path,
as root: it becomes the user (a keyring answers to its possessor, not to root), then
clears each of the three and invalidates it, so the kernel collects them and every key
they held. Standard library only.

A referee run by another user has no box users: its bot's keys are that user's own, and
are left alone.
"""

import os
import sys

KEY_USERS = "/proc/key-users"   # `uid: usage keys/instantiated ...`, one line per user
KEYCTL = {"x86_64": 250, "aarch64": 219}   # the keyctl call's number
GET_KEYRING_ID, CLEAR, INVALIDATE, GET_PERSISTENT = 0, 7, 21, 22   # from <linux/keyctl.h>
USER_KEYRING, USER_SESSION_KEYRING, PROCESS_KEYRING = -4, -5, -2
CLEAR_WAIT_S = 2.0


def held(uid: int) -> int:
    """How many keys `uid` owns (its keyrings included); 0 if none, or where unknown."""
    try:
        with open(KEY_USERS) as file:
            for line in file:
                owner, _, counts = line.partition(":")
                if owner.strip() == str(uid):
                    return int(counts.split()[1].split("/")[0])
    except (OSError, ValueError, IndexError):
        pass
    return 0


def clear(uid: int) -> str:
    """Empty `uid`'s shared keyrings if it owns a key: '' once done (or none was there),
    else why not, in one line. Only root may become the uid."""
    if not held(uid):
        return ""
    import subprocess
    try:
        done = subprocess.run([sys.executable, "-I", "-S", __file__, str(uid)],
                              stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True, timeout=CLEAR_WAIT_S)
    except (OSError, subprocess.SubprocessError) as error:
        return f"the keys of uid {uid}: {error}"
    return done.stderr.strip().replace("\n", "; ")


def main() -> None:
    uid = int(sys.argv[1])
    number = KEYCTL.get(os.uname().machine)
    if number is None:
        sys.exit(f"the keys of uid {uid}: no keyctl number known for {os.uname().machine}")
    import ctypes   # before the drop: the stdlib may lie where the uid cannot read
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    os.setgroups([])
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)

    def keyctl(*args: int) -> int:
        return libc.syscall(ctypes.c_long(number), *(ctypes.c_long(arg) for arg in args))

    # all three found before any is invalidated: looking one up makes the user keyrings anew
    rings = [keyctl(GET_PERSISTENT, -1, PROCESS_KEYRING),
             keyctl(GET_KEYRING_ID, USER_KEYRING, 0),
             keyctl(GET_KEYRING_ID, USER_SESSION_KEYRING, 0)]
    rings = [ring for ring in rings if ring > 0]
    for ring in rings:
        keyctl(CLEAR, ring)
    for ring in rings:
        keyctl(INVALIDATE, ring)


if __name__ == "__main__":
    main()
