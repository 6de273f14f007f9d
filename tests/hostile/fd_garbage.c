/* Writes garbage to every descriptor from 3 to 20 that it finds open (words, a line that
 * reads as an exit status, bytes that are no text), says which were open, then plays the
 * solution and exits. Nothing it writes may change the verdict or the clean-up.
 * usage: fd_garbage MARKER */
#include <fcntl.h>
#include <stdlib.h>
#include "hostile.h"

static const char GARBAGE[] = "garbage\n0 0.0 0.0 0\n-9 1 2 3\n\377\376\0\n";

int main(void) {
    char found[256] = "";
    size_t used = 0;
    for (int fd = 3; fd <= 20; fd++) {
        if (fcntl(fd, F_GETFD) < 0)
            continue;
        used += snprintf(found + used, sizeof found - used, " %d", fd);
        fcntl(fd, F_SETFL, O_NONBLOCK);   /* a full pipe must not hold the bot */
        for (int round = 0; round < 4; round++)
            if (write(fd, GARBAGE, sizeof GARBAGE - 1) < 0)
                break;
    }
    say("descriptors: open beyond 0, 1 and 2:%s", used ? found : " none");
    solve();
    return 0;
}
