/* A late answer under an early stamp. Once its input is read, the bot writes one blank and
 * at once splices from an empty unix socket into its stdout: the splice holds the stdout
 * pipe's lock while it waits for the socket, so a reader woken by the blank waits on that
 * lock in read(). A child sends the solution into the socket 2.5 s later; the splice moves
 * it and lets go. A stamper that takes its time before its read() completes stamps the
 * answer with the blank's time. The splice must reach the lock first: the bot writes from
 * another CPU than the one it woke on, where the stamper (whose write woke it) last ran.
 * A refused splice (the box's filter): the solution is written as late.
 * usage: splice_stamp MARKER */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include "cpus.h"
#include "hostile.h"

#define SOLUTION "0 0 2 0 1\n2 0 2 2 1\n"
#define LATE_US 2500000

int main(void) {
    int pair[2];
    char line[256];
    if (!fgets(line, sizeof line, stdin) || socketpair(AF_UNIX, SOCK_STREAM, 0, pair) < 0) {
        say("splice: no input or no socket: %s", strerror(errno));
        return 1;
    }
    pid_t child = fork();
    if (child == 0) {
        usleep(LATE_US);
        if (write(pair[1], SOLUTION, strlen(SOLUTION)) < 0)
            _exit(1);
        _exit(0);
    }
    leave_this_cpu();
    if (write(1, " ", 1) != 1)
        return 1;
    ssize_t moved = splice(pair[0], NULL, 1, NULL, strlen(SOLUTION), 0);
    if (moved < 0) {
        say("splice: %s", strerror(errno));
        waitpid(child, NULL, 0);
        solve();
    } else {
        say("splice: %zd bytes moved", moved);
    }
    hold();
}
