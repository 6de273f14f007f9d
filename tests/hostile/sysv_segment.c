/* A System V segment of MB megabytes, every page touched, left behind without IPC_RMID:
 * it outlives its maker unless the box (its IPC namespace) or the referee removes it.
 * usage: sysv_segment MB KEY */
#include <stdlib.h>
#include <sys/ipc.h>
#include <sys/shm.h>
#include "hostile.h"

int main(int argc, char **argv) {
    long size = atol(argv[1]) * MB;
    int id = shmget((key_t)atol(argv[2]), size, IPC_CREAT | IPC_EXCL | 0600);
    if (id < 0) {
        say("sysv: shmget: %s", strerror(errno));
        return 1;
    }
    char *at = shmat(id, NULL, 0);
    for (long done = 0; done < size; done += 4096) {
        at[done] = 1;
        if ((done + 4096) % (100 * MB) == 0)
            say("sysv: touched %ld MB", (done + 4096) / MB);
    }
    shmdt(at);
    say("sysv: %ld MB held, detached", size / MB);
    solve();
    return 0;   /* no IPC_RMID: the segment stays */
}
