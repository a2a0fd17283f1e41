/* SPDX-License-Identifier: MIT */
/*
 * harness.c: the checks and counters of test_abi, and the fixtures the
 * areas share (see harness.h).
 */
#include "harness.h"

#include <dirent.h>

/* ---------------------------------------------------------------------- */
/* Checks                                                                 */
/* ---------------------------------------------------------------------- */

unsigned passed, failed;

/* Counted on the main thread only. */
void check_true(int ok, const char *file, int line, const char *what)
{
    if (ok) {
        passed++;
        return;
    }
    failed++;
    printf("FAIL %s:%d: %s\n", file, line, what);
}

const char *sname(int st)
{
    const char *s = idlelock_status_name(st);
    return s != NULL ? s : "(null)";
}

void check_status(int got, int want, const char *file, int line, const char *call)
{
    if (got == want) {
        passed++;
        return;
    }
    failed++;
    printf("FAIL %s:%d: %s returned %s, expected %s (last_error: %s)\n",
           file, line, call, sname(got), sname(want), idlelock_last_error());
}

void check_i64(int64_t got, int64_t want, const char *file, int line, const char *what)
{
    if (got == want) {
        passed++;
        return;
    }
    failed++;
    printf("FAIL %s:%d: %s is %" PRId64 ", expected %" PRId64 "\n", file,
           line, what, got, want);
}

/* ---------------------------------------------------------------------- */
/* Fixtures                                                               */
/* ---------------------------------------------------------------------- */

int64_t now;

static int64_t test_clock(void *ctx)
{
    return *(const int64_t *)ctx;
}

/* The defaults, idle 60 s, the KDF floor and the test clock. Counts no
 * check, so other threads may use it. */
int fill_config(idlelock_config *c)
{
    int st = idlelock_config_init(c, sizeof *c);
    c->idle_after_ms = 60000;
    c->kdf_opslimit = IDLELOCK_KDF_OPSLIMIT_MIN;
    c->kdf_memlimit = IDLELOCK_KDF_MEMLIMIT_MIN;
    c->clock = test_clock;
    c->clock_ctx = &now;
    return st;
}

/* fill_config(), checked (main thread only). */
void base_config(idlelock_config *c)
{
    CHECK_ST(fill_config(c), OK);
}

idlelock *create_or_report(const idlelock_config *c, const char *file, int line)
{
    idlelock *l = NULL;
    int st = idlelock_create(c, &l);
    check_status(st, OK, file, line, "idlelock_create");
    return st == OK ? l : NULL;
}

/* A fresh, unengaged lock with base_config. */
idlelock *new_lock(void)
{
    idlelock_config c;
    base_config(&c);
    return create_or_report(&c, __FILE__, __LINE__);
}

/* A fresh lock with passcode "1234" and max_attempts `attempts`. */
idlelock *engaged_lock(int32_t attempts)
{
    idlelock_config c;
    idlelock *l;
    base_config(&c);
    c.max_attempts = attempts;
    l = create_or_report(&c, __FILE__, __LINE__);
    if (l != NULL)
        CHECK_ST(idlelock_set_passcode(l, LIT("1234")), OK);
    return l;
}

idlelock_snapshot blank_snap(void)
{
    idlelock_snapshot s;
    memset(&s, 0, sizeof s);
    s.size = (uint32_t)sizeof s;
    return s;
}

idlelock_snapshot snap_of(idlelock *l)
{
    idlelock_snapshot s = blank_snap();
    CHECK_ST(idlelock_snapshot_get(l, &s), OK);
    return s;
}

int same_snap(const idlelock_snapshot *a, const idlelock_snapshot *b)
{
    return a->state == b->state && a->seq == b->seq && a->reason == b->reason &&
           a->is_enabled == b->is_enabled &&
           a->is_biometrics_enabled == b->is_biometrics_enabled &&
           a->is_biometrics_available == b->is_biometrics_available &&
           a->is_away == b->is_away && a->attempts_remaining == b->attempts_remaining &&
           a->last_activity_ms == b->last_activity_ms &&
           a->ms_until_idle_lock == b->ms_until_idle_lock;
}

/* Storage with the strictest alignment we use, for pointers the library
 * must reject without reading. */
union dummy_object dummy_object;

void noop_listener(void *ctx, const idlelock_snapshot *s)
{
    (void)ctx;
    (void)s;
}

/* ---------------------------------------------------------------------- */
/* Threads of this process (the watcher's tests)                          */
/* ---------------------------------------------------------------------- */

/* Threads of this process: the entries of /proc/self/task. */
int thread_count(void)
{
    DIR *dir = opendir("/proc/self/task");
    struct dirent *e;
    int n = 0;
    if (dir == NULL)
        return -1;
    while ((e = readdir(dir)) != NULL) {
        if (e->d_name[0] != '.')
            n++;
    }
    closedir(dir);
    return n;
}

/* The fewest threads seen in about 100 ms: threads of earlier tests that
 * have been joined may still be leaving /proc/self/task (pthread_join
 * returns when the kernel clears the thread's id, before its task is
 * released; under qemu-user the host thread exits only after the guest's
 * join has woken). */
int thread_count_low(void)
{
    struct timespec pause = {0, 1000000};
    int n = thread_count(), m, i;
    for (i = 0; i < 100; i++) {
        nanosleep(&pause, NULL);
        m = thread_count();
        if (m < n) n = m;
    }
    return n;
}

/* thread_count() once it falls to `want` or below, or after about 10 s
 * what it is then (a thread that outlived its stop never leaves). */
int thread_count_settled(int want)
{
    struct timespec pause = {0, 1000000};
    int n = thread_count(), i;
    for (i = 0; i < 10000 && n > want; i++) {
        nanosleep(&pause, NULL);
        n = thread_count();
    }
    return n;
}
