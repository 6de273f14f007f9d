/* The kernel's keyrings: counts the keys it finds in the keyrings a user's processes share
 * (the user keyring, the user session keyring, its session keyring; the persistent
 * keyring only when adding, since looking makes it), then, told to `add`, adds 20 keys to
 * each and plays the solution. A key left after the match would pass data to the next bot
 * of the same user. usage: keys MARKER look|add */
#define _GNU_SOURCE
#include <stdlib.h>
#include <sys/syscall.h>
#include "hostile.h"

#define KEYCTL_GET_KEYRING_ID 0
#define KEYCTL_DESCRIBE 6
#define KEYCTL_READ 11
#define KEYCTL_GET_PERSISTENT 22
#define SESSION (-3)
#define USER (-4)
#define USER_SESSION (-5)
#define PROCESS (-2)

static long keyctl(long op, long a, long b, long c) {
    return syscall(SYS_keyctl, op, a, b, c, 0L);
}

/* How many keys of type "user" (keyrings aside) the keyring holds. */
static int user_keys(long keyring) {
    int ids[256], found = 0;
    long bytes = keyctl(KEYCTL_READ, keyring, (long)ids, sizeof ids);
    for (long k = 0; k < bytes / 4 && k < 256; k++) {
        char what[256] = "";
        if (keyctl(KEYCTL_DESCRIBE, ids[k], (long)what, sizeof what - 1) > 0
            && strncmp(what, "user;", 5) == 0)
            found++;
    }
    return found;
}

/* The keyring's id, never making one that is not there; 0 if none. */
static long keyring(int which, int make) {
    if (which == 0)   /* the persistent keyring: only `add` may make it */
        return make ? keyctl(KEYCTL_GET_PERSISTENT, -1, PROCESS, 0) : 0;
    long id = keyctl(KEYCTL_GET_KEYRING_ID, which, make, 0);
    return id < 0 ? 0 : id;
}

int main(int argc, char **argv) {
    const int rings[] = {USER, USER_SESSION, SESSION, 0};
    const char *names[] = {"user", "user session", "session", "persistent"};
    int add = argc > 2 && strcmp(argv[2], "add") == 0, found = 0, added = 0;
    for (int i = 0; i < 4; i++) {
        long id = keyring(rings[i], 0);
        if (id > 0)
            found += user_keys(id);
    }
    say("keys: found %d", found);
    if (!add)
        return 0;
    for (int i = 0; i < 4; i++) {
        long id = keyring(rings[i], 1);
        if (id <= 0) {
            say("keys: %s keyring: %s", names[i], strerror(errno));
            continue;
        }
        for (int k = 0; k < 20; k++) {
            char name[64];
            snprintf(name, sizeof name, "%s-%s-%d", argv[1], names[i], k);
            if (syscall(SYS_add_key, "user", name, "left behind", 11, id) >= 0)
                added++;
            else if (k == 0)
                say("keys: add_key to the %s keyring: %s", names[i], strerror(errno));
        }
    }
    say("keys: added %d", added);
    solve();
    return 0;
}
