#!/bin/sh
# Fake bot: its very first act is to fork a child that fills MB megabytes (a Python
# one-liner, every page written) and holds them a second, before a cap set from outside
# after the start could reach it. Once the child is done, the bot wins 01_simplest.
# usage: fork_first.sh MARKER MB
python3 -c "import sys, time
hog = bytearray($2 * 2**20)
for start in range(0, len(hog), 2**20):
    hog[start:start + 2**20] = b'x' * 2**20
print('child: holds $2 MB', file=sys.stderr, flush=True)
time.sleep(1)" "$1" &
wait
read line
echo "0 0 2 0 1"
echo "2 0 2 2 1"
sleep 600
