/* Holds its stderr pipe's lock for good: it writes a line on stderr, which wakes the
 * pipe's reader, and at once splices into stderr from a unix socket holding one byte whose
 * low-water mark is 4096 bytes: the splice puts the byte in the pipe and waits for ever,
 * holding the lock. The reader, woken, waits on that lock in the kernel, where no signal
 * reaches it. Meanwhile a child plays the solution (`solve`) or nothing (`silent`) and
 * holds on. The splice must reach the lock first: it runs on another CPU than the one the
 * bot started on. usage: stderr_lock MARKER solve|silent */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/socket.h>
#include "cpus.h"
#include "hostile.h"

int main(int argc, char **argv) {
    int pair[2], low = 4096;
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, pair) < 0
        || setsockopt(pair[0], SOL_SOCKET, SO_RCVLOWAT, &low, sizeof low) < 0
        || write(pair[1], "x", 1) != 1) {
        say("stderr lock: socket: %s", strerror(errno));
        return 1;
    }
    if (fork() == 0) {
        usleep(100000);   /* the lock is held by now */
        if (argc > 2 && strcmp(argv[2], "solve") == 0)
            solve();
        hold();
    }
    leave_this_cpu();
    say("stderr lock: splicing");
    if (splice(pair[0], NULL, 2, NULL, 65536, 0) < 0)
        say("stderr lock: splice: %s", strerror(errno));
    hold();
}
