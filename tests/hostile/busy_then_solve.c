/* The honest side of a CPU test: it needs MS milliseconds of CPU time (its own clock, so
 * time it waits for a CPU does not count), then answers 01_simplest; with AFTER_MS, it
 * sleeps that long first (so that a saboteur beside it is in full swing).
 * usage: busy_then_solve MS [AFTER_MS] */
#include <stdlib.h>
#include <time.h>
#include "hostile.h"

static double cpu_ms(void) {
    struct timespec now;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
    return now.tv_sec * 1e3 + now.tv_nsec / 1e6;
}

int main(int argc, char **argv) {
    double needed = atof(argv[1]);
    struct timespec start, end;
    if (argc > 2)
        usleep(atoi(argv[2]) * 1000);
    clock_gettime(CLOCK_MONOTONIC, &start);
    while (cpu_ms() < needed)
        continue;
    clock_gettime(CLOCK_MONOTONIC, &end);
    say("busy: %.0f ms of CPU in %.0f ms", cpu_ms(),
        (end.tv_sec - start.tv_sec) * 1e3 + (end.tv_nsec - start.tv_nsec) / 1e6);
    solve();
    return 0;
}
