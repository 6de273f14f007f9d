"""Connects to a TCP listener on the host's loopback and sends a line; reports whether
it got through, then plays 01_simplest's solution.

usage: escape_network.py PORT
"""
import socket
import sys

try:
    with socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=3) as conn:
        conn.sendall(b"hello from the bot\n")
    print("network: CONNECTED", file=sys.stderr, flush=True)
except OSError as error:
    print(f"network: {error.strerror or error}", file=sys.stderr, flush=True)
print("0 0 2 0 1\n2 0 2 2 1", flush=True)
