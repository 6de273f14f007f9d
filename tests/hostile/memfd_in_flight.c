/* Memfds of 64 MB each, filled, sent over a unix socketpair and closed here: held only
 * "in flight" in the socket, by no process's descriptor or mapping. usage: memfd_in_flight MB */
#define _GNU_SOURCE
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include "hostile.h"

static int send_fd(int sock, int fd) {
    char data = 'x', control[CMSG_SPACE(sizeof fd)] = {0};
    struct iovec iov = {&data, 1};
    struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = control,
                         .msg_controllen = sizeof control};
    struct cmsghdr *cmsg = CMSG_FIRSTHDR(&msg);
    cmsg->cmsg_level = SOL_SOCKET;
    cmsg->cmsg_type = SCM_RIGHTS;
    cmsg->cmsg_len = CMSG_LEN(sizeof fd);
    memcpy(CMSG_DATA(cmsg), &fd, sizeof fd);
    return sendmsg(sock, &msg, 0);
}

int main(int argc, char **argv) {
    long total = atol(argv[1]) * MB, chunk = 64 * MB, held = 0;
    int pair[2];
    static char block[1 << 20];
    memset(block, 'x', sizeof block);
    if (socketpair(AF_UNIX, SOCK_DGRAM, 0, pair) < 0) {
        say("memfd: socketpair: %s", strerror(errno));
        return 1;
    }
    while (held < total) {
        int fd = memfd_create("hostile", 0);
        for (long done = 0; done < chunk; done += sizeof block)
            if (write(fd, block, sizeof block) < 0) {
                say("memfd: write after %ld MB: %s", (held + done) / MB, strerror(errno));
                return 1;
            }
        if (send_fd(pair[0], fd) < 0) {
            say("memfd: sendmsg after %ld MB: %s", held / MB, strerror(errno));
            return 1;
        }
        close(fd);
        held += chunk;
        say("memfd: %ld MB in flight", held / MB);
    }
    solve();
    hold();
}
