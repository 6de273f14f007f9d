/* A match's bot that goes for the machine's CPU: N children, each in a session of its own
 * (so, with autogroups, a scheduling group of its own), held until all are made, then all
 * spinning; it never answers. usage: session_spinners N */
#include <stdlib.h>
#include "hostile.h"

static void spin(void) {
    for (volatile unsigned long n = 0;; n++)
        continue;
}

int main(int argc, char **argv) {
    int wanted = atoi(argv[1]), made = 0, start[2];
    char go;
    if (pipe(start) < 0)
        return 1;
    for (; made < wanted; made++) {
        pid_t pid = fork();
        if (pid < 0) {
            say("spinners: fork after %d: %s", made, strerror(errno));
            break;
        }
        if (pid == 0) {
            setsid();
            close(start[1]);
            if (read(start[0], &go, 1) < 0)   /* end of file once all are made */
                return 1;
            spin();
        }
    }
    close(start[1]);
    say("spinners: %d session(s) spinning", made);
    spin();
}
