/* For a hostile bot that holds a lock while the reader it starves runs elsewhere: move to
 * any CPU but the one it is on (the file that includes this defines _GNU_SOURCE). */
#ifndef CPUS_H
#define CPUS_H
#include <sched.h>

static void leave_this_cpu(void) {
    cpu_set_t allowed, others;
    int here = sched_getcpu();
    if (sched_getaffinity(0, sizeof allowed, &allowed) < 0)
        return;
    CPU_ZERO(&others);
    for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
        if (cpu != here && CPU_ISSET(cpu, &allowed))
            CPU_SET(cpu, &others);
    if (CPU_COUNT(&others))
        sched_setaffinity(0, sizeof others, &others);
}
#endif
