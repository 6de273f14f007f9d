#!/bin/sh
# Fake bot: its very first act is to fork a child that tries to hold MB megabytes (a
# Python one-liner), before a cap set from outside after the start could reach it. The
# child says on stderr whether it got the memory; once it has, the bot wins 01_simplest.
# usage: fork_first.sh MARKER MB
python3 -c "import sys
try:
    hog = bytearray($2 * 2**20)
except MemoryError:
    sys.exit('child: MemoryError')
print('child: holds $2 MB', file=sys.stderr, flush=True)" "$1" &
wait
read line
echo "0 0 2 0 1"
echo "2 0 2 2 1"
sleep 600
