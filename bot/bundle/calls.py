"""What the bot calls on a puzzle: run by build.py as `python calls.py COPY/` in COPY, a
copy of bot/ as it ships, with the puzzle on stdin. Writes to stderr one line of JSON, the
sorted [path under COPY, qualified name] of each function called, in the bot's process and
in its child printer's (which ends at os._exit).
"""

import json
import os
import sys

called = set()


def heard(frame, event, arg):
    """The profiler: each call of a function defined under the copy."""
    code = frame.f_code
    if event == "call" and code.co_filename.startswith(sys.argv[1]):
        called.add((code.co_filename[len(sys.argv[1]):], code.co_qualname))


def told():
    """Stop listening and write what was called, in one write (the printer's os._exit
    flushes nothing)."""
    sys.setprofile(None)
    os.write(2, (json.dumps(sorted(called)) + "\n").encode())


def exit_told(code, exit=os._exit):
    """os._exit, which tells first."""
    told()
    exit(code)


def main():
    """Run the copy's bot, heard from its imports on."""
    sys.path[0] = sys.argv[1]   # the copy's bot, not the one beside this file
    os._exit = exit_told
    sys.setprofile(heard)
    try:
        from bot.cli import main as bot
        bot()
    finally:
        told()


if __name__ == "__main__":
    main()
