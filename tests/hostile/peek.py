"""Looks where a bot has no business: reads files, connects to unix sockets, writes files
of its own folder. Each target is an argument naming what to do and where, so that no
argument names a path the referee would show the bot:

    read:PATH    read a file              ->  "read PATH: DONE N characters" or the error
    unix:PATH    connect to a socket      ->  "unix PATH: CONNECTED" or the error
    write:PATH   overwrite a file         ->  "write PATH: DONE" or the error

Reports each attempt on stderr, then plays 01_simplest's solution.

usage: peek.py TARGET...
"""
import socket
import sys


def read(path):
    with open(path, "rb") as file:
        return f"DONE {len(file.read())} characters"


def connect(path):
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
        conn.settimeout(3)
        conn.connect(path)
        conn.sendall(b"hello from the bot\n")
    return "CONNECTED"


def write(path):
    with open(path, "r+b") as file:
        file.write(b"owned by the bot\n")
    return "DONE"


ACTIONS = {"read": read, "unix": connect, "write": write}

for target in sys.argv[1:]:
    kind, _, path = target.partition(":")
    try:
        said = ACTIONS[kind](path)
    except OSError as error:
        said = error.strerror or str(error)
    print(f"{kind} {path}: {said}", file=sys.stderr, flush=True)
print("0 0 2 0 1\n2 0 2 2 1", flush=True)
