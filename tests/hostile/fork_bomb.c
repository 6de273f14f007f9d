/* A fork bomb after the first line: every process forks for ever; pids.max bounds it,
 * and the referee must still end the match and leave nothing. usage: fork_bomb MARKER */
#include <stdlib.h>
#include "hostile.h"

int main(int argc, char **argv) {
    first_line();
    long failed = 0;
    for (;;)
        if (fork() < 0 && ++failed % 100000 == 1)
            say("fork bomb: fork: %s", strerror(errno));
}
