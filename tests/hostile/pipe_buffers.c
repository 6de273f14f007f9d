/* Pipes filled and never read, each raised to the most an unprivileged user may
 * (fs.pipe-max-size, then the per-user fs.pipe-user-pages-soft cuts new ones short):
 * memory held by the kernel's pipe buffers. usage: pipe_buffers MB */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdlib.h>
#include <sys/resource.h>
#include "hostile.h"

int main(int argc, char **argv) {
    long total = atol(argv[1]) * MB, queued = 0, reported = 0;
    static char block[1 << 16];
    struct rlimit files;
    getrlimit(RLIMIT_NOFILE, &files);   /* as many descriptors as allowed */
    files.rlim_cur = files.rlim_max;
    setrlimit(RLIMIT_NOFILE, &files);
    while (queued < total) {
        int ends[2];
        if (pipe2(ends, O_NONBLOCK) < 0) {
            say("pipes: pipe after %ld MB: %s", queued / MB, strerror(errno));
            break;
        }
        fcntl(ends[1], F_SETPIPE_SZ, 1 << 20);
        ssize_t sent;
        while ((sent = write(ends[1], block, sizeof block)) > 0)
            queued += sent;
        if (queued - reported >= 20 * MB) {
            reported = queued;
            say("pipes: %ld MB queued", queued / MB);
        }
    }
    say("pipes: %ld MB queued in all", queued / MB);
    solve();
    hold();
}
