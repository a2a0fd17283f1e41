/* SPDX-License-Identifier: MIT */
/*
 * watcher.c: the watcher thread (idlelock_watch_start / idlelock_watch_stop)
 * under threads that start and stop it on one handle at once. Every call
 * returns, each stop waits for exactly the thread it stopped, and once the
 * toggling threads are joined and the handle destroyed the process has as
 * many threads as before: no watcher outlives its stop.
 *
 * A watchdog turns a hang into a failure: the main thread waits for the
 * toggling threads at most WATCH_DEADLINE_S seconds, then prints the count
 * (with this failure) and exits.
 *
 * Regression (issue 11, finding 2): two threads toggling the watcher hung
 * in 2 of 3 runs (both callers in pthread_join, both watcher threads in
 * poll): a new watcher thread looked up the handle's current watcher only
 * when it first ran, so after a stop and a new start it adopted the new
 * watcher, two threads shared one wake-up, and one swallowed the stop.
 */
#include "harness.h"

#include <errno.h>
#include <unistd.h>

#define WATCH_THREADS 4
#define WATCH_TOGGLES 2000
#define WATCH_DEADLINE_S 120

struct toggler {
    idlelock *lock;
    uint32_t seed;
    int bad;  /* calls that returned other than IDLELOCK_OK */
    int done; /* under done_mutex */
};

static pthread_mutex_t done_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t done_cond = PTHREAD_COND_INITIALIZER;

static void *toggle(void *arg)
{
    struct toggler *t = arg;
    int i;
    for (i = 0; i < WATCH_TOGGLES; i++) {
        /* xorshift32: start or stop, at random */
        t->seed ^= t->seed << 13;
        t->seed ^= t->seed >> 17;
        t->seed ^= t->seed << 5;
        if ((t->seed & 1) ? idlelock_watch_start(t->lock) != OK : idlelock_watch_stop(t->lock) != OK)
            t->bad++;
    }
    pthread_mutex_lock(&done_mutex);
    t->done = 1;
    pthread_cond_broadcast(&done_cond);
    pthread_mutex_unlock(&done_mutex);
    return NULL;
}

void test_watcher_toggling(void)
{
    struct toggler t[WATCH_THREADS];
    pthread_t threads[WATCH_THREADS];
    struct timespec deadline;
    idlelock_config c;
    idlelock *l;
    int before, after, i, all, started = 0;
    before = thread_count_low();
    CHECK(before > 0);
    base_config(&c);
    c.clock = NULL; /* the watcher sleeps on CLOCK_BOOTTIME */
    c.clock_ctx = NULL;
    l = create_or_report(&c, __FILE__, __LINE__);
    if (l == NULL)
        return;
    CHECK_ST(idlelock_set_passcode(l, LIT("1234")), OK);
    for (i = 0; i < WATCH_THREADS; i++) {
        t[i].lock = l;
        t[i].seed = 0x9e3779b9u * (uint32_t)(i + 1);
        t[i].bad = 0;
        t[i].done = 0;
        if (pthread_create(&threads[i], NULL, toggle, &t[i]) == 0)
            started++;
        else
            t[i].done = 1;
    }
    CHECK_EQ(started, WATCH_THREADS);

    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += WATCH_DEADLINE_S;
    pthread_mutex_lock(&done_mutex);
    for (;;) {
        all = 1;
        for (i = 0; i < WATCH_THREADS; i++)
            all = all && t[i].done;
        if (all)
            break;
        if (pthread_cond_timedwait(&done_cond, &done_mutex, &deadline) == ETIMEDOUT) {
            printf("FAIL %s:%d: threads starting and stopping the watcher hung for %d s "
                   "(a stop waits for a watcher thread that never wakes)\n",
                   __FILE__, __LINE__, WATCH_DEADLINE_S);
            printf("%u passed, %u failed\n", passed, failed + 1);
            fflush(stdout);
            _exit(1);
        }
    }
    pthread_mutex_unlock(&done_mutex);
    for (i = 0; i < WATCH_THREADS; i++) {
        if (i < started)
            pthread_join(threads[i], NULL);
        CHECK_EQ(t[i].bad, 0);
    }
    /* A watcher may still run: destroy stops it and waits for it. */
    CHECK_ST(idlelock_watch_start(l), OK);
    idlelock_destroy(l);
    after = thread_count_settled(before);
    if (after > before)
        printf("     %d threads before the watcher test, %d after destroy\n", before, after);
    CHECK(after <= before);
}

/* The watcher armed for deadlines far beyond what a 32-bit time_t holds
 * (2^31 s, 68 years): idle timeouts of 10^13 ms (317 years) and
 * INT64_MAX - 1 ms are valid. It must arm its alarm, wake for the touch
 * that moves the deadline, and stop, with the session still unlocked.
 *
 * Regression (issue 21): on 32-bit ARM the watcher converted the deadline's
 * seconds to time_t with a trapping conversion, so idlelock_watch_start
 * with such a timeout killed the process on the watcher thread. */
void test_watcher_far_deadline(void)
{
    static const int64_t idle[] = {10000000000000LL, INT64_MAX - 1};
    struct timespec pause = {0, 20000000};
    idlelock_config c;
    idlelock *l;
    size_t i;
    for (i = 0; i < sizeof idle / sizeof idle[0]; i++) {
        base_config(&c);
        c.clock = NULL;
        c.clock_ctx = NULL;
        c.idle_after_ms = idle[i];
        c.background_after_ms = IDLELOCK_NEVER;
        c.lock_on_start = 0;
        l = create_or_report(&c, __FILE__, __LINE__);
        if (l == NULL)
            return;
        CHECK_ST(idlelock_set_passcode(l, LIT("1234")), OK);
        CHECK_ST(idlelock_watch_start(l), OK);
        nanosleep(&pause, NULL); /* the watcher arms for the idle deadline */
        CHECK_ST(idlelock_touch(l, NULL), OK);
        nanosleep(&pause, NULL); /* and again after the touch */
        CHECK_EQ(snap_of(l).state, IDLELOCK_STATE_UNLOCKED);
        CHECK_ST(idlelock_watch_stop(l), OK);
        idlelock_destroy(l);
    }
}
