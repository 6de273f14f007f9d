/* Memory in the kernel's own structures, not in a page of data:
 *   pages N        N anonymous mappings of 4 KiB, each touched, protections alternated
 *                  so that no two merge (a VMA and a page each);
 *   page-tables N  one byte read every 2 MiB of a huge read-only reservation: each read
 *                  maps the shared zero page and costs a page table, no data at all.
 * usage: many_mappings pages|page-tables N */
#include <stdlib.h>
#include <sys/mman.h>
#include "hostile.h"

static void pages(long count) {
    long made = 0;
    for (; made < count; made++) {
        int prot = made % 2 ? PROT_READ | PROT_WRITE : PROT_READ | PROT_WRITE | PROT_EXEC;
        char *page = mmap(NULL, 4096, prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (page == MAP_FAILED) {
            say("mappings: mmap after %ld: %s", made, strerror(errno));
            break;
        }
        page[0] = 1;
        if ((made + 1) % 20000 == 0)
            say("mappings: %ld touched", made + 1);
    }
    say("mappings: %ld pages of 4 KiB mapped and touched", made);
}

static void page_tables(long count) {
    long span = 2 * MB;
    volatile char *area = mmap(NULL, count * span, PROT_READ,
                               MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (area == MAP_FAILED) {
        say("page tables: mmap: %s", strerror(errno));
        return;
    }
    long sum = 0;
    for (long made = 0; made < count; made++) {
        sum += area[made * span];
        if ((made + 1) % 25000 == 0)
            say("page tables: %ld made (%ld MB of them)", made + 1, (made + 1) * 4096 / MB);
    }
    say("page tables: %ld made, %ld MB, sum %ld", count, count * 4096 / MB, sum);
}

int main(int argc, char **argv) {
    long count = atol(argv[2]);
    if (strcmp(argv[1], "pages") == 0)
        pages(count);
    else
        page_tables(count);
    solve();
    hold();
}
