/*
 * hot_instructions.c: a small loop over the hot calls, for counting their
 * instructions with valgrind's callgrind (an exact count, which other work
 * on the machine does not disturb, unlike the wall-clock ratios of
 * bench.c). scripts/callgrind-hot.sh runs it on two builds of the library
 * and prints the instructions per call of each, side by side.
 *
 *   hot_instructions CASE N
 *
 * CASE is touch, touch_out, check, snapshot_get, require_unlocked or
 * background_foreground;
 * N the number of calls. The session is engaged and unlocked, in memory,
 * on a clock callback that returns a counter (no system call), as in
 * bench.c section 1; the snapshot has the size the library running it
 * knows (idlelock_snapshot_size()), so an older library built with fewer
 * fields takes its own fast path too. Only hot_loop() is meant to be counted
 * (callgrind --toggle-collect=hot_loop).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idlelock.h"

static int64_t ticks;

static int64_t counter_clock(void *ctx)
{
    (void)ctx;
    return ++ticks;
}

__attribute__((noinline)) static int hot_loop(idlelock *l, const char *which, long n)
{
    idlelock_snapshot s;
    int bad = 0;
    long i;
    memset(&s, 0, sizeof s);
    /* The size the library knows: an older library then fills it in place
     * too (a larger struct would take its copy path). */
    s.size = (uint32_t)idlelock_snapshot_size();
    if (strcmp(which, "touch") == 0) {
        for (i = 0; i < n; i++) bad |= idlelock_touch(l, NULL);
    } else if (strcmp(which, "touch_out") == 0) {
        for (i = 0; i < n; i++) bad |= idlelock_touch(l, &s);
    } else if (strcmp(which, "check") == 0) {
        for (i = 0; i < n; i++) bad |= idlelock_check(l, &s);
    } else if (strcmp(which, "snapshot_get") == 0) {
        for (i = 0; i < n; i++) bad |= idlelock_snapshot_get(l, &s);
    } else if (strcmp(which, "require_unlocked") == 0) {
        for (i = 0; i < n; i++) bad |= idlelock_require_unlocked(l);
    } else if (strcmp(which, "background_foreground") == 0) {
        for (i = 0; i < n; i++) bad |= idlelock_background(l, &s) | idlelock_foreground(l, &s);
    } else {
        return -1;
    }
    return bad != 0 || s.state != IDLELOCK_STATE_UNLOCKED;
}

int main(int argc, char **argv)
{
    idlelock_config c;
    idlelock *l = NULL;
    long n;
    int rc;
    if (argc != 3 || (n = strtol(argv[2], NULL, 10)) <= 0) {
        fprintf(stderr, "usage: %s touch|touch_out|check|snapshot_get|require_unlocked|background_foreground N\n",
                argv[0]);
        return 2;
    }
    idlelock_config_init(&c, sizeof c);
    c.idle_after_ms = 3600000;
    c.background_after_ms = 3600000;
    c.lock_on_start = 0;
    c.kdf_opslimit = IDLELOCK_KDF_OPSLIMIT_MIN;
    c.kdf_memlimit = IDLELOCK_KDF_MEMLIMIT_MIN;
    c.clock = counter_clock;
    if (idlelock_create(&c, &l) != IDLELOCK_OK || idlelock_set_passcode(l, "2468", 4) != IDLELOCK_OK) {
        fprintf(stderr, "setup: %s\n", idlelock_last_error());
        return 1;
    }
    rc = hot_loop(l, argv[1], n);
    idlelock_destroy(l);
    if (rc != 0) fprintf(stderr, "%s: %s\n", argv[1], rc < 0 ? "unknown case" : "a call failed or locked");
    return rc != 0;
}
