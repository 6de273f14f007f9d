"""Fake bot: leaves a mess in its TMPDIR, then plays 01_simplest's solution and exits.

usage: tmpdir_mess.py KIND [ARG]
  nest N     a folder nest N deep
  closed     folders and files, some folders then made mode 000 or 500
  symlink T  its TMPDIR swapped for a symlink to folder T
  huge MB    a file of MB megabytes written, and a sparse one of 1 TB
"""

import os
import sys

SOLUTION = "0 0 2 0 1\n2 0 2 2 1\n"   # puzzles/public/01_simplest.txt


def nest(tmp, depth):
    here = os.open(tmp, os.O_RDONLY)
    for _ in range(depth):   # by descriptor: no path grows past PATH_MAX
        os.mkdir("d", dir_fd=here)
        below = os.open("d", os.O_RDONLY, dir_fd=here)
        os.close(here)
        here = below
    os.close(here)


def closed(tmp):
    for top in ("a", "b"):
        os.makedirs(os.path.join(tmp, top, "inner", "deeper"))
        for folder in ("", "inner", "inner/deeper"):
            with open(os.path.join(tmp, top, folder, "file"), "w") as file:
                file.write("x")
    os.chmod(os.path.join(tmp, "a", "inner", "deeper"), 0)
    os.chmod(os.path.join(tmp, "a", "inner"), 0)
    os.chmod(os.path.join(tmp, "b"), 0o500)
    os.chmod(tmp, 0o500)


def symlink(tmp, target):
    os.rmdir(tmp)
    os.symlink(target, tmp)


def huge(tmp, megabytes):
    block = b"x" * (1 << 20)
    with open(os.path.join(tmp, "huge"), "wb") as file:
        for _ in range(megabytes):
            file.write(block)
    with open(os.path.join(tmp, "sparse"), "wb") as file:
        file.truncate(1 << 40)


def main():
    sys.stdin.readline()   # the puzzle first, as a bot must read it (stdin stays open)
    for _ in range(int(sys.stdin.readline())):
        sys.stdin.readline()
    kind, arg = sys.argv[1], (sys.argv[2] if len(sys.argv) > 2 else "")
    tmp = os.environ["TMPDIR"]
    {"nest": lambda: nest(tmp, int(arg)), "closed": lambda: closed(tmp),
     "symlink": lambda: symlink(tmp, arg), "huge": lambda: huge(tmp, int(arg))}[kind]()
    sys.stdout.write(SOLUTION)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
