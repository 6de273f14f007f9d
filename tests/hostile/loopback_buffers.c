/* Memory held in the queues of the box's own loopback: TCP connections to itself written
 * both ways and never read, or UDP sockets sent datagrams they never read, each buffer
 * raised to the most an unprivileged user may (net.core.rmem_max, wmem_max). What the
 * kernel holds is read back per socket (SO_MEMINFO), not guessed from what was written.
 * usage: loopback_buffers tcp|udp MB */
#include <arpa/inet.h>
#include <fcntl.h>
#include <linux/sock_diag.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include "hostile.h"

#define MAX_SOCKETS 60000
static int sockets[MAX_SOCKETS], count;
static char block[1 << 16];

static int keep(int fd) {
    if (fd >= 0 && count < MAX_SOCKETS)
        sockets[count++] = fd;
    return fd;
}

/* Bytes the kernel holds for every socket made so far: receive and send queues. */
static long held(void) {
    long total = 0;
    for (int i = 0; i < count; i++) {
        unsigned int info[SK_MEMINFO_VARS] = {0};
        socklen_t size = sizeof info;
        if (getsockopt(sockets[i], SOL_SOCKET, SO_MEMINFO, info, &size) == 0)
            total += info[SK_MEMINFO_RMEM_ALLOC] + info[SK_MEMINFO_WMEM_QUEUED];
    }
    return total;
}

static void big_buffers(int fd) {
    int size = 64 << 20;   /* cut to the sysctl's maximum */
    setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, sizeof size);
    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof size);
}

static void fill(int fd) {
    fcntl(fd, F_SETFL, O_NONBLOCK);
    while (write(fd, block, sizeof block) > 0)
        continue;
}

/* One more connection to our own listener, filled both ways; -1 once refused. */
static int tcp_round(int listener, struct sockaddr_in *where) {
    int client = keep(socket(AF_INET, SOCK_STREAM, 0));
    if (client < 0) {
        say("loopback: socket: %s", strerror(errno));
        return -1;
    }
    big_buffers(client);
    if (connect(client, (struct sockaddr *)where, sizeof *where) < 0) {
        say("loopback: connect: %s", strerror(errno));
        return -1;
    }
    int server = keep(accept(listener, NULL, NULL));
    if (server < 0) {
        say("loopback: accept: %s", strerror(errno));
        return -1;
    }
    fill(client);
    fill(server);
    return 0;
}

/* One more UDP socket of ours, sent datagrams until its queue drops them; -1 once refused. */
static int udp_round(int sender) {
    struct sockaddr_in where = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t length = sizeof where;
    int receiver = keep(socket(AF_INET, SOCK_DGRAM, 0));
    if (receiver < 0 || bind(receiver, (struct sockaddr *)&where, sizeof where) < 0
            || getsockname(receiver, (struct sockaddr *)&where, &length) < 0) {
        say("loopback: udp socket: %s", strerror(errno));
        return -1;
    }
    big_buffers(receiver);
    for (int sent = 0; sent < 1024; sent++)   /* the queue's excess is dropped silently */
        if (sendto(sender, block, 60000, 0, (struct sockaddr *)&where, sizeof where) < 0) {
            say("loopback: sendto: %s", strerror(errno));
            return errno == ENOBUFS || errno == EAGAIN ? 0 : -1;
        }
    return 0;
}

int main(int argc, char **argv) {
    int udp = strcmp(argv[1], "udp") == 0;
    long total = atol(argv[2]) * MB, reported = 0, now = 0;
    struct rlimit files;
    getrlimit(RLIMIT_NOFILE, &files);   /* as many descriptors as allowed */
    files.rlim_cur = files.rlim_max;
    setrlimit(RLIMIT_NOFILE, &files);
    struct sockaddr_in where = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t length = sizeof where;
    int base = socket(AF_INET, udp ? SOCK_DGRAM : SOCK_STREAM, 0);
    big_buffers(base);   /* a listener's buffers are its connections' */
    if (base < 0 || bind(base, (struct sockaddr *)&where, sizeof where) < 0
            || getsockname(base, (struct sockaddr *)&where, &length) < 0
            || (!udp && listen(base, 128) < 0)) {
        say("loopback: %s: %s", argv[1], strerror(errno));
        return 1;
    }
    int rounds = 0;
    while ((now = held()) < total && count < MAX_SOCKETS - 2) {
        if ((udp ? udp_round(base) : tcp_round(base, &where)) < 0)
            break;
        if (++rounds % 8 == 0 && now - reported >= 100 * MB) {
            reported = now;
            say("loopback: %s: %ld MB held", argv[1], now / MB);
        }
        if (udp && rounds > 4096)
            break;
    }
    say("loopback: %s: %ld MB held in %d sockets", argv[1], held() / MB, count);
    solve();
    hold();
}
