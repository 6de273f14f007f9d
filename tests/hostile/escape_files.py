"""Reads /etc/shadow, then tries to delete, overwrite and take over HOST_FILE, a file of
root's on the host. Reports each attempt, then plays 01_simplest's solution.

usage: escape_files.py HOST_FILE
"""
import os
import sys


def attempt(what, action):
    try:
        result = action()
        print(f"{what}: DONE {result or ''}", file=sys.stderr, flush=True)
    except OSError as error:
        print(f"{what}: {error.strerror}", file=sys.stderr, flush=True)


def overwrite(path):
    with open(path, "w") as file:
        file.write("owned by the bot\n")


host_file = sys.argv[1]
attempt("shadow", lambda: f"read {len(open('/etc/shadow').read())} characters")
attempt("unlink", lambda: os.unlink(host_file))
attempt("overwrite", lambda: overwrite(host_file))
attempt("chmod", lambda: os.chmod(host_file, 0o666))
attempt("rename", lambda: os.rename(host_file, host_file + ".moved"))
print("0 0 2 0 1\n2 0 2 2 1", flush=True)
