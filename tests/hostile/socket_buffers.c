/* Unix socketpairs filled both ways and never read, each buffer raised to the most an
 * unprivileged user may (net.core.wmem_max): memory held by the kernel's socket queues.
 * usage: socket_buffers MB */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include "hostile.h"

int main(int argc, char **argv) {
    long total = atol(argv[1]) * MB, queued = 0, reported = 0;
    static char block[1 << 16];
    struct rlimit files;
    getrlimit(RLIMIT_NOFILE, &files);   /* as many descriptors as allowed */
    files.rlim_cur = files.rlim_max;
    setrlimit(RLIMIT_NOFILE, &files);
    while (queued < total) {
        int pair[2], size = 64 << 20;
        if (socketpair(AF_UNIX, SOCK_STREAM, 0, pair) < 0) {
            say("sockets: socketpair after %ld MB: %s", queued / MB, strerror(errno));
            break;
        }
        for (int end = 0; end < 2; end++) {
            setsockopt(pair[end], SOL_SOCKET, SO_SNDBUF, &size, sizeof size);
            fcntl(pair[end], F_SETFL, O_NONBLOCK);
            ssize_t sent;
            while ((sent = write(pair[end], block, sizeof block)) > 0)
                queued += sent;
        }
        if (queued - reported >= 100 * MB) {
            reported = queued;
            say("sockets: %ld MB queued", queued / MB);
        }
    }
    say("sockets: %ld MB queued in all", queued / MB);
    solve();
    hold();
}
