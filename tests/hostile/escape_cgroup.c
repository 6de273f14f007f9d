/* Moves itself out of its match's cgroup: into each hierarchy's root and each parent of
 * its own group (v1 and v2), then holds on. It must fail, and still die with the match.
 * usage: escape_cgroup MARKER */
#include <fcntl.h>
#include <stdlib.h>
#include "hostile.h"

static void move_into(const char *folder) {
    char path[4096];
    snprintf(path, sizeof path, "%s/cgroup.procs", folder);
    int fd = open(path, O_WRONLY);
    if (fd < 0 || write(fd, "0\n", 2) < 0)
        say("cgroup: %s: %s", path, strerror(errno));
    else
        say("cgroup: %s: MOVED", path);
    if (fd >= 0)
        close(fd);
}

int main(int argc, char **argv) {
    const char *roots[] = {"/sys/fs/cgroup", "/sys/fs/cgroup/memory", "/sys/fs/cgroup/pids",
                           "/sys/fs/cgroup/freezer", "/sys/fs/cgroup/cpu",
                           "/sys/fs/cgroup/cpuacct", "/sys/fs/cgroup/unified"};
    for (size_t i = 0; i < sizeof roots / sizeof *roots; i++)
        move_into(roots[i]);
    FILE *own = fopen("/proc/self/cgroup", "r");   /* lines: id:controllers:/path */
    char line[4096];
    while (own && fgets(line, sizeof line, own)) {
        char *controllers = strchr(line, ':') + 1, *path = strchr(controllers, ':') + 1;
        path[strcspn(path, "\n")] = controllers[path - controllers - 1] = 0;
        char *comma = strchr(controllers, ',');
        if (comma)
            *comma = 0;
        char *slash = strrchr(path, '/'), folder[4096];
        if (slash)
            *slash = 0;   /* the parent of its own group */
        snprintf(folder, sizeof folder, "/sys/fs/cgroup/%s%s", *controllers ? controllers : "",
                 path);
        move_into(folder);
    }
    first_line();
    hold();
}
