/* Tries to become root: setuid(0) and setgid(0), then each COMMAND (a setuid-root
 * program, su), whose output it reports. usage: escape_root MARKER COMMAND... */
#include <stdlib.h>
#include "hostile.h"

int main(int argc, char **argv) {
    say("root: setuid(0): %s", setuid(0) ? strerror(errno) : "DONE");
    say("root: setgid(0): %s", setgid(0) ? strerror(errno) : "DONE");
    say("root: running as uid %d, euid %d", (int)getuid(), (int)geteuid());
    for (int i = 2; i < argc; i++) {
        FILE *child = popen(argv[i], "r");
        char out[256] = "";
        if (child == NULL || fgets(out, sizeof out, child) == NULL)
            strcpy(out, "(nothing)\n");
        say("root: `%s` printed %.*s", argv[i], (int)strcspn(out, "\n"), out);
        if (child)
            pclose(child);
    }
    solve();
    return 0;
}
