/* What every hostile bot of the kit shares: the first legal line of 01_simplest, its
 * solution, and a report of what it managed on stderr (the referee keeps its tail). */
#ifndef HOSTILE_H
#define HOSTILE_H
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define MB (1L << 20)

static void say(const char *format, ...) {
    va_list args;
    va_start(args, format);
    vfprintf(stderr, format, args);
    va_end(args);
    fputc('\n', stderr);
    fflush(stderr);
}

/* The first line only: the referee sees the bot run, and waits for the next. */
static void first_line(void) {
    fputs("0 0 2 0 1\n", stdout);
    fflush(stdout);
}

/* The whole solution: a bot whose attack did not stop it wins, so the test sees it. */
static void solve(void) {
    fputs("0 0 2 0 1\n2 0 2 2 1\n", stdout);
    fflush(stdout);
}

/* Hold what it made until the referee kills it. */
static void hold(void) {
    for (;;)
        pause();
}
#endif
