/* SPDX-License-Identifier: MIT */
/*
 * threads.c: several threads on one handle: allowed statuses only,
 * secrets never mixed up, listeners in seq order and silent once
 * unsubscribe has returned.
 */
#include "harness.h"

/* A clock that moves 1 ms per reading, safe to call from any thread. */
static pthread_mutex_t tick_mutex = PTHREAD_MUTEX_INITIALIZER;
static int64_t tick_now;

static int64_t ticking_clock(void *ctx)
{
    int64_t v;
    (void)ctx;
    pthread_mutex_lock(&tick_mutex);
    v = ++tick_now;
    pthread_mutex_unlock(&tick_mutex);
    return v;
}

/* A listener's record, under its own mutex. */
struct guarded {
    pthread_mutex_t m;
    unsigned calls, out_of_order, after_gone;
    uint64_t last_seq;
    int gone; /* set once idlelock_unsubscribe() has returned */
};

static void guarded_listener(void *ctx, const idlelock_snapshot *s)
{
    struct guarded *g = ctx;
    pthread_mutex_lock(&g->m);
    if (g->calls > 0 && s->seq <= g->last_seq)
        g->out_of_order++;
    g->last_seq = s->seq;
    g->calls++;
    if (g->gone)
        g->after_gone++;
    pthread_mutex_unlock(&g->m);
}

#define WORKERS 4
#define WORKER_OPS 3000

struct worker {
    idlelock *l;
    int id;
    unsigned bad;
    int bad_status; /* the last unexpected status, and where */
    int bad_op;
};

/* get our own secret: OK with our value, or closed, or not there yet. */
static int worker_get(const struct worker *w, const char *name, const char *want)
{
    uint8_t buf[32];
    size_t len = sizeof buf;
    int st = idlelock_secret_get(w->l, name, buf, &len);
    if (st == OK && (len != strlen(want) || memcmp(buf, want, len) != 0))
        return -1; /* someone else's bytes: a bug */
    return st == OK || st == IDLELOCK_ERR_SESSION_LOCKED || st == IDLELOCK_ERR_NOT_FOUND
               ? OK : st;
}

/* One call; returns OK when its status is one the contract allows. */
static int worker_op(struct worker *w, int i)
{
    idlelock_snapshot s = blank_snap();
    char name[16], want[16];
    int st;
    snprintf(name, sizeof name, "t%d", w->id);
    snprintf(want, sizeof want, "value-%d", w->id);
    switch (i % 10) {
    case 0: return idlelock_touch(w->l, &s);
    case 1: return idlelock_check(w->l, NULL);
    case 2: return idlelock_background(w->l, &s);
    case 3: return idlelock_foreground(w->l, NULL);
    case 4: return idlelock_snapshot_get(w->l, &s);
    case 5:
        st = idlelock_secret_put(w->l, name, (const uint8_t *)want, strlen(want));
        return st == IDLELOCK_ERR_SESSION_LOCKED ? OK : st;
    case 6: return worker_get(w, name, want);
    case 7:
        st = idlelock_require_unlocked(w->l);
        return st == IDLELOCK_ERR_SESSION_LOCKED ? OK : st;
    case 8: return i % 100 == 8 ? idlelock_lock(w->l, NULL) : idlelock_touch(w->l, NULL);
    default:
        if (w->id == 0 && i % 150 == 9)
            st = idlelock_unlock(w->l, LIT("1234"), &s);
        else if (w->id == 1 && i % 1000 == 9)
            st = idlelock_set_passcode(w->l, LIT("1234"));
        else
            st = idlelock_check(w->l, &s);
        return st == IDLELOCK_ERR_SESSION_LOCKED ? OK : st;
    }
}

static void *worker_main(void *arg)
{
    struct worker *w = arg;
    int i;
    for (i = 0; i < WORKER_OPS; i++) {
        int st = worker_op(w, i);
        if (st != OK) {
            w->bad++;
            w->bad_status = st;
            w->bad_op = i % 10;
        }
    }
    return NULL;
}

/* Run WORKERS threads on `l`; if `g` is given, unsubscribe `token` while
 * they run. Returns the number of unexpected statuses. */
static unsigned run_workers(idlelock *l, struct guarded *g, uint64_t token)
{
    struct worker w[WORKERS];
    pthread_t t[WORKERS];
    unsigned bad = 0;
    int i, started = 0;
    for (i = 0; i < WORKERS; i++) {
        memset(&w[i], 0, sizeof w[i]);
        w[i].l = l;
        w[i].id = i;
        if (pthread_create(&t[i], NULL, worker_main, &w[i]) == 0)
            started++;
    }
    CHECK_EQ(started, WORKERS);
    if (g != NULL) {
        struct timespec pause = { 0, 20 * 1000 * 1000 };
        nanosleep(&pause, NULL);
        CHECK_ST(idlelock_unsubscribe(l, token), OK);
        pthread_mutex_lock(&g->m);
        g->gone = 1;
        pthread_mutex_unlock(&g->m);
    }
    for (i = 0; i < started; i++) {
        pthread_join(t[i], NULL);
        if (w[i].bad != 0)
            printf("FAIL worker %d: %u unexpected results, last %s in worker_op case %d\n",
                   i, w[i].bad, w[i].bad_status < 0 ? "a wrong secret value"
                   : sname(w[i].bad_status), w[i].bad_op);
        bad += w[i].bad;
    }
    return bad;
}

void test_threads(void)
{
    static struct guarded g1 = { PTHREAD_MUTEX_INITIALIZER, 0, 0, 0, 0, 0 };
    static struct guarded g2 = { PTHREAD_MUTEX_INITIALIZER, 0, 0, 0, 0, 0 };
    uint64_t t1 = 0, t2 = 0;
    idlelock_config c;
    idlelock_snapshot s;
    idlelock *l;
    base_config(&c);
    c.idle_after_ms = 200;
    c.clock = ticking_clock;
    c.clock_ctx = NULL;
    l = create_or_report(&c, __FILE__, __LINE__);
    if (l == NULL)
        return;
    CHECK_ST(idlelock_set_passcode(l, LIT("1234")), OK);
    CHECK_ST(idlelock_subscribe(l, guarded_listener, &g1, &t1), OK);
    CHECK_EQ(run_workers(l, NULL, 0), 0);
    s = snap_of(l);
    CHECK(g1.calls > 0);
    CHECK_EQ(g1.out_of_order, 0);
    CHECK(g1.last_seq == s.seq); /* every change was delivered */
    CHECK_ST(idlelock_subscribe(l, guarded_listener, &g2, &t2), OK);
    CHECK_EQ(run_workers(l, &g2, t2), 0);
    CHECK_EQ(g2.after_gone, 0); /* never called after unsubscribe returned */
    CHECK_EQ(g2.out_of_order, 0);
    CHECK_EQ(g1.out_of_order, 0);
    idlelock_destroy(l);
}
