/* SPDX-License-Identifier: MIT */
/*
 * hot_calls.c: sections 1 and 2: thread CPU ns per hot call (touch,
 * check, snapshot_get, a background+foreground pair within grace,
 * require_unlocked, secret_get of 1 KiB) against the baseline, on one
 * thread; then wall ns per call with two threads on one handle.
 */
#include "bench.h"

int lib_touch(tctx *t)
{
    (void)t;
    return idlelock_touch(H, NULL);
}
int bas_touch(tctx *t)
{
    (void)t;
    return base_touch(&B, NULL);
}
#if IDLELOCK_VERSION_NUMBER >= 10100
int lib_touch_prompted(tctx *t)
{
    (void)t;
    return idlelock_touch(H_prompted, NULL);
}
#endif
int lib_touch_out(tctx *t)
{
    return idlelock_touch(H, &t->snap);
}
int bas_touch_out(tctx *t)
{
    return base_touch(&B, &t->snap);
}
int lib_check(tctx *t)
{
    return idlelock_check(H, &t->snap);
}
int bas_check(tctx *t)
{
    return base_check(&B, &t->snap);
}
int lib_snapshot_get(tctx *t)
{
    return idlelock_snapshot_get(H, &t->snap);
}
int bas_snapshot_get(tctx *t)
{
    return base_snapshot_get(&B, &t->snap);
}
int lib_background(tctx *t)
{
    return idlelock_background(H, &t->snap);
}
int bas_background(tctx *t)
{
    return base_background(&B, &t->snap);
}
int lib_foreground(tctx *t)
{
    return idlelock_foreground(H, &t->snap);
}
int bas_foreground(tctx *t)
{
    return base_foreground(&B, &t->snap);
}
int lib_bgfg(tctx *t)
{
    return lib_background(t) | lib_foreground(t);
}
int bas_bgfg(tctx *t)
{
    return bas_background(t) | bas_foreground(t);
}
int lib_require(tctx *t)
{
    (void)t;
    return idlelock_require_unlocked(H);
}
int bas_require(tctx *t)
{
    (void)t;
    return base_require_unlocked(&B);
}
int lib_secret(tctx *t)
{
    size_t len = sizeof t->buf;
    int status = idlelock_secret_get(H, SECRET_NAME, t->buf, &len);
    return status != IDLELOCK_OK ? status : len != SECRET_BYTES ? -1 : 0;
}
int bas_secret(tctx *t)
{
    size_t len = sizeof t->buf;
    int status = base_secret_get(&B, SECRET_NAME, t->buf, &len);
    return status != IDLELOCK_OK ? status : len != SECRET_BYTES ? -1 : 0;
}

void summarize(cmp_result *c, const double *lib, const double *base, const double *ratio,
                      int rounds, long iters)
{
    c->lib_ns = median(lib, rounds);
    c->base_ns = median(base, rounds);
    c->ratio = median(ratio, rounds);
    c->ratio_q1 = quantile(ratio, rounds, 0.25);
    c->ratio_q3 = quantile(ratio, rounds, 0.75);
    c->ratio_of_minima = vmin(lib, rounds) / vmin(base, rounds);
    c->iters = iters;
    c->rounds = rounds;
}

/* Each case names its two functions for scripts/callgrind-hot.sh
 * (`idlelock-bench --list`), which counts their instructions. */
#define HOT_CASE(k, l, lib_side, base_side) \
    {.key = k, .label = l, .lib = lib_side, .base = base_side, .lib_fn = #lib_side, .base_fn = #base_side}
hot_case HOT[] = {
    HOT_CASE("touch", "touch (out NULL)", lib_touch, bas_touch),
#if IDLELOCK_VERSION_NUMBER >= 10100
    HOT_CASE("touch_after_prompt", "touch (after a prompt)", lib_touch_prompted, bas_touch),
#endif
    HOT_CASE("touch_out", "touch (out)", lib_touch_out, bas_touch_out),
    HOT_CASE("check", "check (out)", lib_check, bas_check),
    HOT_CASE("snapshot_get", "snapshot_get", lib_snapshot_get, bas_snapshot_get),
    HOT_CASE("background_foreground", "background+foreground pair", lib_bgfg, bas_bgfg),
    HOT_CASE("require_unlocked", "require_unlocked", lib_require, bas_require),
    HOT_CASE("secret_get", "secret_get (1 KiB)", lib_secret, bas_secret),
};
#undef HOT_CASE
const int N_HOT = (int)(sizeof HOT / sizeof HOT[0]);

/* Distinct loops for each side, so callgrind can tell them apart (noipa:
 * GCC's identical code folding at -O2 would otherwise make them one). */
__attribute__((noinline, noipa)) static double loop_lib(op_fn fn, tctx *t, long n)
{
    long i;
    int64_t t0 = cpu_ns();
    for (i = 0; i < n; i++) {
        fn(t);
    }
    return (double)(cpu_ns() - t0) / (double)n;
}

__attribute__((noinline, noipa)) static double loop_base(op_fn fn, tctx *t, long n)
{
    long i;
    int64_t t0 = cpu_ns();
    for (i = 0; i < n; i++) {
        fn(t);
    }
    return (double)(cpu_ns() - t0) / (double)n;
}

void tctx_init(tctx *t)
{
    memset(t, 0, sizeof *t);
    t->snap.size = sizeof t->snap;
}

/* Every op must succeed; also warms caches and branch predictors. */
static void warm(const hot_case *c, tctx *t, long n)
{
    long i;
    int st;
    for (i = 0; i < n; i++) {
        if ((st = c->lib(t)) != 0) {
            die("%s: the library returned %d (%s): %s", c->key, st, idlelock_status_name(st),
                idlelock_last_error());
        }
        if ((st = c->base(t)) != 0) {
            die("%s: the baseline returned %d", c->key, st);
        }
    }
}

static int64_t abs_diff(int64_t a, int64_t b)
{
    if (a == b) {
        return 0;
    }
    if (a == IDLELOCK_NEVER || b == IDLELOCK_NEVER) {
        return INT64_MAX;
    }
    return a > b ? a - b : b - a;
}

/* The 1.1 fields of a snapshot, for a message (static buffer, two in turn). */
static const char *snapshot_v11(const idlelock_snapshot *s)
{
    static char buf[2][96];
    static int k;
    k = !k;
#if IDLELOCK_VERSION_NUMBER >= 10100
    snprintf(buf[k], sizeof buf[k], " warning %d until_warning %lld until_next %lld", s->is_warning,
             (long long)s->ms_until_warning, (long long)s->ms_until_next_deadline);
#else
    (void)s;
    buf[k][0] = '\0';
#endif
    return buf[k];
}

static int snapshots_same(const idlelock_snapshot *lib, const idlelock_snapshot *base)
{
    int same = lib->state == base->state && lib->reason == base->reason &&
           lib->is_enabled == base->is_enabled &&
           lib->is_biometrics_enabled == base->is_biometrics_enabled &&
           lib->is_biometrics_available == base->is_biometrics_available &&
           lib->is_away == base->is_away && lib->attempts_remaining == base->attempts_remaining &&
           abs_diff(lib->last_activity_ms, base->last_activity_ms) <= 5 &&
           abs_diff(lib->ms_until_idle_lock, base->ms_until_idle_lock) <= 5;
#if IDLELOCK_VERSION_NUMBER >= 10100
    same = same && lib->is_warning == base->is_warning &&
           abs_diff(lib->ms_until_warning, base->ms_until_warning) <= 5 &&
           abs_diff(lib->ms_until_next_deadline, base->ms_until_next_deadline) <= 5;
#endif
#if IDLELOCK_VERSION_NUMBER >= 10200
    same = same && lib->is_passcode_required == base->is_passcode_required &&
           lib->last_auth_ms == base->last_auth_ms;
#endif
    return same;
}

/* 1 when the two sides' snapshots agree (times within 5 ms), after one
 * call of the case on each side; -1 when a call failed (warm() reports). */
static int snapshots_agree(hot_case *c, tctx *t, idlelock_snapshot *lib, idlelock_snapshot *base)
{
    /* Align the last activity of both sides first. */
    lib_touch(t);
    bas_touch(t);
    if (c->lib(t) != 0) {
        return -1;
    }
    *lib = t->snap;
    if (c->base(t) != 0) {
        return -1;
    }
    *base = t->snap;
    return snapshots_same(lib, base);
}

static void compare_snapshots(hot_case *c, tctx *t)
{
    idlelock_snapshot lib, base;
    int same, tries;
    /* A thread preempted between the two calls (a loaded machine, or
     * valgrind) sees times further apart than 5 ms: a baseline that really
     * computes something else differs every time. */
    for (tries = 0; tries < 5; tries++) {
        if ((same = snapshots_agree(c, t, &lib, &base)) != 0) {
            break;
        }
    }
    if (same < 0) {
        return;
    }
    if (!same) {
        c->mismatch = 1;
        baseline_mismatches++;
        fprintf(stderr, "idlelock-bench: %s: the baseline's snapshot differs from the library's:\n"
                "  lib:  state %d reason %d away %d attempts %d until_idle %lld%s\n"
                "  base: state %d reason %d away %d attempts %d until_idle %lld%s\n",
                c->key, lib.state, lib.reason, lib.is_away, lib.attempts_remaining,
                (long long)lib.ms_until_idle_lock, snapshot_v11(&lib), base.state, base.reason,
                base.is_away, base.attempts_remaining, (long long)base.ms_until_idle_lock,
                snapshot_v11(&base));
    }
}

/* Calls per round so that the slower side takes about --target-ms: the
 * fastest of several short trials (a preempted trial only looks slower). */
static long calibrate(const hot_case *c, tctx *t)
{
    double est = 1e30, l, b;
    long n;
    int k;
    if (opt.iters > 0) {
        return opt.iters;
    }
    for (k = 0; k < 7; k++) {
        l = loop_lib(c->lib, t, 500);
        b = loop_base(c->base, t, 500);
        l = l > b ? l : b;
        est = l < est ? l : est;
    }
    n = (long)(opt.target_ms * 1e6 / (est > 1 ? est : 1));
    return n < 200 ? 200 : n > 20000000 ? 20000000 : n;
}

void run_one_thread(hot_case *c)
{
    double lib[MAX_ROUNDS], base[MAX_ROUNDS], ratio[MAX_ROUNDS];
    tctx t;
    int r;
    long n;
    tctx_init(&t);
    warm(c, &t, 1000);
    compare_snapshots(c, &t);
    n = calibrate(c, &t);
    for (r = 0; r < opt.rounds; r++) {
        if (lib_first()) {
            lib[r] = loop_lib(c->lib, &t, n);
            base[r] = loop_base(c->base, &t, n);
        } else {
            base[r] = loop_base(c->base, &t, n);
            lib[r] = loop_lib(c->lib, &t, n);
        }
        ratio[r] = lib[r] / base[r];
    }
    summarize(&c->one, lib, base, ratio, opt.rounds, n);
}

/* Two threads on one handle (or one baseline). Each thread times itself
 * from the common start to its own end; the wall time is from the earliest
 * start to the latest end. */
typedef struct {
    op_fn fn;
    long n;
    pthread_barrier_t *start;
    int64_t t0, t1;
    tctx t;
} worker_arg;

static void *worker(void *p)
{
    worker_arg *w = p;
    long i;
    pthread_barrier_wait(w->start);
    w->t0 = now_ns();
    for (i = 0; i < w->n; i++) {
        w->fn(&w->t);
    }
    w->t1 = now_ns();
    return NULL;
}

#define N_THREADS 2

/* Wall time per call of all threads together (ns), i.e. 1 / throughput. */
static double run_threads(op_fn fn, long n_per_thread)
{
    pthread_t th[N_THREADS];
    worker_arg w[N_THREADS];
    pthread_barrier_t start;
    int64_t t0 = INT64_MAX, t1 = 0;
    int i;
    pthread_barrier_init(&start, NULL, N_THREADS);
    for (i = 0; i < N_THREADS; i++) {
        w[i].fn = fn;
        w[i].n = n_per_thread;
        w[i].start = &start;
        tctx_init(&w[i].t);
        if (pthread_create(&th[i], NULL, worker, &w[i]) != 0) {
            die("pthread_create failed");
        }
    }
    for (i = 0; i < N_THREADS; i++) {
        pthread_join(th[i], NULL);
        t0 = w[i].t0 < t0 ? w[i].t0 : t0;
        t1 = w[i].t1 > t1 ? w[i].t1 : t1;
    }
    pthread_barrier_destroy(&start);
    return (double)(t1 - t0) / (double)(n_per_thread * N_THREADS);
}

void run_two_threads(hot_case *c)
{
    double lib[MAX_ROUNDS], base[MAX_ROUNDS], ratio[MAX_ROUNDS];
    int r;
    long n = c->one.iters; /* per thread: twice the calls of a one-thread round */
    run_threads(c->base, n / 10 + 1); /* warm up the threads' path */
    run_threads(c->lib, n / 10 + 1);
    for (r = 0; r < opt.rounds; r++) {
        if (lib_first()) {
            lib[r] = run_threads(c->lib, n);
            base[r] = run_threads(c->base, n);
        } else {
            base[r] = run_threads(c->base, n);
            lib[r] = run_threads(c->lib, n);
        }
        ratio[r] = lib[r] / base[r];
    }
    summarize(&c->two, lib, base, ratio, opt.rounds, n * N_THREADS);
}
