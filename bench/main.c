/*
 * bench.c: the benchmarks of libidlelock (see BENCHMARKS.md).
 *
 * Links the shipped build/libidlelock.so.1 and measures, in one process,
 * each figure as a ratio against a baseline measured next to it (rounds
 * alternate the two sides in random order), so that a noisy machine
 * cancels out:
 *
 *   1. thread CPU ns per hot call (touch, check, snapshot_get, a
 *      background+foreground pair within grace, require_unlocked, secret_get
 *      of 1 KiB) against a plain-C baseline in this file that does the
 *      essential work of that call: the same clock callback, one pthread
 *      mutex, the decision rules' compares and stores, the snapshot, and for
 *      secret_get the same libsodium calls. Before timing, each baseline's
 *      snapshot is compared with the library's: a baseline that computes
 *      something else is reported (BASELINE MISMATCH) and fails the run;
 *   2. the same with two threads on one handle (and on one baseline), in
 *      wall time per call (1 / throughput);
 *   3. unlock (right passcode, memory-only handle) against a bare
 *      crypto_pwhash with the same parameters; the store's extra cost; the
 *      peak RSS during an unlock;
 *   4. heap allocations per hot call (bench/malloc_count.c);
 *   5. the library's footprint (file sizes, NEEDED, and dlopen + create +
 *      destroy + dlclose against dlopen of libsodium: bench/dlopen_probe.c,
 *      run as a child because this process has both libraries loaded);
 *   6. the Python binding (bench/bench_python.py, run as a child).
 *
 * Benchmarks are not tests: nothing here asserts a time. The program fails
 * (exit 1) only when a call returns an unexpected status, a baseline does
 * not match the library, or a child fails.
 *
 * Usage: idlelock-bench [options]    (make bench passes them; see --help)
 */
#define _GNU_SOURCE 1
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <sodium.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "idlelock.h"
#include "malloc_count.h"

/* ---------------------------------------------------------------------- */
/* Options                                                                */
/* ---------------------------------------------------------------------- */

static struct {
    const char *lib;      /* path of the library, for section 5 */
    const char *stripped; /* a stripped copy of it (made by make) */
    const char *probe;    /* bench/dlopen_probe.c, built */
    const char *python;   /* shell command running bench/bench_python.py */
    const char *tmpdir;   /* folder for the store of section 3 */
    const char *json;     /* where to write the figures */
    const char *only;     /* run one hot case only (for callgrind) */
    long iters;           /* calls per round; 0: calibrate to target_ms */
    double target_ms;     /* length of one side of one round */
    int rounds;
    int unlock_rounds;
    int dl_rounds;
    long alloc_calls;
    long py_iters;
    int py_rounds;
    int smoke;
} opt = {
    NULL, NULL, NULL, NULL, ".", NULL, NULL, 0, 0.5, 101, 21, 101, 2000, 5000, 21, 0,
};

static void usage(void)
{
    puts("usage: idlelock-bench [--smoke] [--iters N] [--rounds N] [--target-ms MS]\n"
         "         [--unlock-rounds N] [--dl-rounds N] [--alloc-calls N]\n"
         "         [--py-iters N] [--py-rounds N] [--lib PATH] [--stripped PATH]\n"
         "         [--probe PATH] [--python CMD] [--tmpdir DIR] [--json PATH]\n"
         "         [--only CASE]\n"
         "--smoke: every section once with tiny counts (make bench-smoke).\n"
         "--only CASE: only section 1 for CASE (touch, touch_after_prompt, touch_out,\n"
         "  check, snapshot_get, background_foreground, require_unlocked, secret_get),\n"
         "  for valgrind --tool=callgrind; see BENCHMARKS.md.");
}

/* ---------------------------------------------------------------------- */
/* Small helpers                                                          */
/* ---------------------------------------------------------------------- */

static void die(const char *fmt, ...)
{
    va_list ap;
    fputs("idlelock-bench: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(1);
}

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* CPU time of the calling thread: time the thread spent descheduled (the
 * machine is shared) does not count. Used for one-thread figures. */
static int64_t cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Which side runs first in a round: random, so that no periodic
 * disturbance lines up with the order (xorshift, fixed seed). */
static int lib_first(void)
{
    static uint32_t x = 2463534242u;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return (int)(x & 1);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

#define MAX_ROUNDS 501

/* The q-quantile (0..1) of n values, interpolated (sorts a copy). */
static double quantile(const double *v, int n, double q)
{
    static double tmp[MAX_ROUNDS];
    double pos;
    int i;
    if (n > MAX_ROUNDS) {
        n = MAX_ROUNDS;
    }
    memcpy(tmp, v, (size_t)n * sizeof *v);
    qsort(tmp, (size_t)n, sizeof *tmp, cmp_double);
    pos = q * (n - 1);
    i = (int)pos;
    return i + 1 < n ? tmp[i] + (pos - i) * (tmp[i + 1] - tmp[i]) : tmp[n - 1];
}

static double median(const double *v, int n)
{
    return quantile(v, n, 0.5);
}

static double vmin(const double *v, int n)
{
    double m = v[0];
    int i;
    for (i = 1; i < n; i++) {
        m = v[i] < m ? v[i] : m;
    }
    return m;
}

static void expect(int got, int want, const char *what)
{
    if (got != want) {
        die("%s returned %s (expected %s): %s", what, idlelock_status_name(got),
            idlelock_status_name(want), idlelock_last_error());
    }
}

/* ---------------------------------------------------------------------- */
/* The clock: the same callback for the library and the baselines         */
/* ---------------------------------------------------------------------- */

/* CLOCK_BOOTTIME in ms, computed as the library's default clock does. */
static int64_t bench_clock(void *ctx)
{
    struct timespec ts;
    (void)ctx;
    clock_gettime(CLOCK_BOOTTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ---------------------------------------------------------------------- */
/* The baseline: the essential work of each call, in plain C              */
/* ---------------------------------------------------------------------- */

#define IDLE_MS ((int64_t)3600000)
#define BACKGROUND_MS ((int64_t)30000)
#define INACTIVE_MS ((int64_t)30000)
#define GRACE_MS ((int64_t)1500)
#define MAX_ATTEMPTS 5
#define SECRET_BYTES 1024
#define SECRET_NAME "access_token"
#define PASSCODE "2468"
#define KDF_OPS ((uint64_t)IDLELOCK_KDF_OPSLIMIT_MIN)
#define KDF_MEM ((uint64_t)IDLELOCK_KDF_MEMLIMIT_MIN)

/* What changes `seq` (the snapshot minus seq and the times). */
typedef struct {
    int32_t state, reason, is_enabled, is_bio_enabled, is_bio_available, is_away, attempts;
    int32_t is_warning; /* 1.1 */
} visible_t;

typedef struct {
    unsigned char id[32];
    unsigned char nonce[crypto_aead_xchacha20poly1305_ietf_NPUBBYTES];
    unsigned char sealed[SECRET_BYTES + crypto_aead_xchacha20poly1305_ietf_ABYTES];
    size_t sealed_len;
} base_record;

typedef struct {
    pthread_mutex_t mu;
    idlelock_clock_fn clock;
    void *clock_ctx;
    int64_t idle, background, inactive, grace;
    int32_t engaged, state, reason, key_loaded;
    int32_t away, reached_bg;
    int64_t departure, last_activity;
    int32_t max_attempts, failed;
    int32_t bio_enabled, bio_available;
    uint64_t lock_epoch, seq;
    visible_t published;
    int32_t live_prompts; /* prompts the app opened (1.1): the idle rule waits */
    int64_t earliest_prompt, prompt_cap; /* with live_prompts: the cap deadline */
    int32_t has_prompt_end;
    int64_t prompt_end; /* the last live prompt's end: covers an absence + grace */
    int64_t warn_before; /* 1.1: 0 (off, the default) or the warning window */
    int32_t retry_running; /* 1.1: an escalating delay after wrong passcodes */
    int64_t retry_started, retry_period;
    int32_t n_listeners, queued; /* listeners hear changes after the call */
    void *store; /* NULL: memory only (a store is re-read and saved to) */
    unsigned char key[64]; /* the AEAD key, then the name-id subkey */
    base_record records[1];
    size_t n_records;
} base_t;

static int64_t sat_sub(int64_t later, int64_t earlier)
{
    int64_t d;
    if (__builtin_sub_overflow(later, earlier, &d)) {
        return later > earlier ? INT64_MAX : INT64_MIN;
    }
    return d;
}

#if IDLELOCK_VERSION_NUMBER >= 10100
static int64_t sat_add(int64_t a, int64_t b)
{
    int64_t r;
    if (__builtin_add_overflow(a, b, &r)) {
        return b > 0 ? INT64_MAX : INT64_MIN;
    }
    return r;
}
#endif

static int has_passed(int64_t elapsed, int64_t timeout)
{
    return timeout != IDLELOCK_NEVER && elapsed >= timeout;
}

static void b_lock(base_t *b, int32_t why)
{
    b->state = IDLELOCK_STATE_LOCKED;
    b->reason = why;
    b->lock_epoch++;
}

static int64_t b_absence_timeout(const base_t *b, int reached_bg)
{
    return reached_bg ? b->background : (b->background > b->inactive ? b->background : b->inactive);
}

static int b_idle_passed(const base_t *b, int64_t now)
{
    return b->live_prompts == 0 && has_passed(sat_sub(now, b->last_activity), b->idle);
}

static void b_judge(base_t *b, int64_t now)
{
    if (!b->engaged || b->state != IDLELOCK_STATE_UNLOCKED) {
        return;
    }
    if (b->away) {
        int64_t away = sat_sub(now, b->departure);
        if (away <= b->grace) {
            return;
        }
        if (has_passed(away, b_absence_timeout(b, b->reached_bg))) {
            b_lock(b, IDLELOCK_REASON_BACKGROUNDED);
            return;
        }
    }
    if (b_idle_passed(b, now)) {
        b_lock(b, IDLELOCK_REASON_IDLE);
    }
}

/* The clock-step check, then judging: the start of every call. */
static void b_begin(base_t *b, int64_t now)
{
    if (now < b->last_activity || (b->away && now < b->departure)) {
        if (b->engaged) {
            if (b->state == IDLELOCK_STATE_UNLOCKED) {
                b_lock(b, IDLELOCK_REASON_CLOCK);
            }
        } else {
            b->last_activity = now;
            if (b->away) {
                b->departure = now;
            }
        }
    }
    b_judge(b, now);
}

static int64_t b_until_idle(const base_t *b, int64_t now)
{
    int64_t idle_for;
    if (!b->engaged || b->state != IDLELOCK_STATE_UNLOCKED || b->idle == IDLELOCK_NEVER) {
        return IDLELOCK_NEVER;
    }
    idle_for = sat_sub(now, b->last_activity);
    if (idle_for >= b->idle) {
        return 0;
    }
    if (idle_for <= 0) {
        return b->idle;
    }
    return b->idle - idle_for;
}

/* 1.1: the warning before the idle lock (off unless warn_before > 0). */
static int b_is_warning(const base_t *b, int64_t until_idle)
{
    return b->warn_before > 0 && b->live_prompts == 0 && until_idle != IDLELOCK_NEVER &&
           until_idle <= b->warn_before;
}

#if IDLELOCK_VERSION_NUMBER >= 10100
static int64_t b_until_warning(const base_t *b, int64_t until_idle)
{
    if (b->warn_before == 0 || until_idle == IDLELOCK_NEVER) {
        return IDLELOCK_NEVER;
    }
    return until_idle <= b->warn_before ? 0 : until_idle - b->warn_before;
}

/* 1.1: the time left of an escalating delay (none runs in the bench, but
 * every snapshot reports it): never more than its period. */
static int64_t b_until_retry(const base_t *b, int64_t now)
{
    int64_t left;
    if (!b->retry_running) {
        return 0;
    }
    left = sat_sub(sat_add(b->retry_started, b->retry_period), now);
    return left <= 0 ? 0 : (left > b->retry_period ? b->retry_period : left);
}

/* 1.1: the earliest moment anything can change: the idle deadline, the
 * warning, a prompt's cap, the end of a delay, and while away the end of
 * the grace window, the absence's timeout and the end of a prompt's cover.
 * The call has just judged at `now`, so nothing is due now. */
static int64_t b_next_deadline(const base_t *b, int64_t now, int64_t until_retry)
{
    int64_t next = INT64_MAX, m;
    if (!b->engaged || b->state != IDLELOCK_STATE_UNLOCKED) {
        return until_retry > 0 ? until_retry : IDLELOCK_NEVER;
    }
#define CONSIDER(moment) do { m = (moment); if (m > now && m < next) next = m; } while (0)
    if (until_retry > 0) {
        CONSIDER(sat_add(now, until_retry));
    }
    if (b->idle != IDLELOCK_NEVER) {
        int64_t idle_deadline = sat_add(b->last_activity, b->idle);
        CONSIDER(idle_deadline);
        if (b->warn_before > 0) {
            CONSIDER(sat_add(idle_deadline, -b->warn_before));
        }
    }
    if (b->live_prompts > 0) {
        CONSIDER(sat_add(b->earliest_prompt, b->prompt_cap));
    }
    if (b->away) {
        CONSIDER(sat_add(b->departure, sat_add(b->grace, 1)));
        CONSIDER(sat_add(b->departure, b_absence_timeout(b, b->reached_bg)));
        if (b->has_prompt_end) {
            CONSIDER(sat_add(b->prompt_end, sat_add(b->grace, 1)));
        }
    }
#undef CONSIDER
    return next == INT64_MAX ? IDLELOCK_NEVER : next - now;
}
#endif

/* A durable step of a store (never reached in the bench: memory only). */
__attribute__((noinline)) static void b_store_step(base_t *b)
{
    b->store = NULL;
}

/* The end of every call, mutex held: seal a locked session, publish a
 * change of the visible state (new seq, queued for listeners), and fill the
 * caller's snapshot if one was given (out->size already checked). */
static void b_settle(base_t *b, int64_t now, idlelock_snapshot *out)
{
    visible_t v;
    int64_t until_idle;
    if (b->store != NULL && b->state != IDLELOCK_STATE_UNLOCKED) {
        b_store_step(b); /* save the lock: never in the bench */
    }
    if (b->state != IDLELOCK_STATE_UNLOCKED && b->key_loaded) {
        sodium_memzero(b->key, sizeof b->key);
        b->key_loaded = 0;
    }
    v.state = b->state;
    v.reason = b->reason;
    v.is_enabled = b->engaged;
    v.is_bio_enabled = b->bio_enabled;
    v.is_bio_available = b->bio_available;
    v.is_away = b->away;
    v.attempts = b->engaged ? b->max_attempts - b->failed : b->max_attempts;
    until_idle = b_until_idle(b, now);
    v.is_warning = b_is_warning(b, until_idle);
    if (v.state != b->published.state || v.reason != b->published.reason ||
        v.is_enabled != b->published.is_enabled || v.is_bio_enabled != b->published.is_bio_enabled ||
        v.is_bio_available != b->published.is_bio_available || v.is_away != b->published.is_away ||
        v.attempts != b->published.attempts || v.is_warning != b->published.is_warning) {
        b->published = v;
        b->seq++;
        if (b->n_listeners > 0) {
            b->queued++; /* never in the bench: no listener */
        }
    }
    if (out != NULL) {
        out->state = v.state;
        out->seq = b->seq;
        out->reason = v.reason;
        out->is_enabled = v.is_enabled;
        out->is_biometrics_enabled = v.is_bio_enabled;
        out->is_biometrics_available = v.is_bio_available;
        out->is_away = v.is_away;
        out->attempts_remaining = v.attempts;
        out->last_activity_ms = b->last_activity;
        out->ms_until_idle_lock = until_idle;
#if IDLELOCK_VERSION_NUMBER >= 10100
        out->is_warning = v.is_warning;
        out->reserved1 = 0;
        out->ms_until_warning = b_until_warning(b, until_idle);
        out->ms_until_retry = b_until_retry(b, now);
        out->ms_until_next_deadline = b_next_deadline(b, now, out->ms_until_retry);
#endif
    }
}

/* Listener delivery (never reached in the bench: no listener). */
__attribute__((noinline)) static void b_deliver(base_t *b)
{
    pthread_mutex_lock(&b->mu);
    b->queued = 0;
    pthread_mutex_unlock(&b->mu);
}

static int b_out_ok(const idlelock_snapshot *out)
{
    return out == NULL || (out->size >= sizeof *out && out->size <= 4096);
}

enum { OP_TOUCH, OP_CHECK, OP_BACKGROUND, OP_FOREGROUND };

/* An event: validate, lock, read the clock, apply the rule, settle. */
static inline int b_event(base_t *b, idlelock_snapshot *out, int op)
{
    int64_t now;
    int deliver;
    if (b == NULL || !b_out_ok(out)) {
        return IDLELOCK_ERR_INVALID_ARGUMENT;
    }
    pthread_mutex_lock(&b->mu);
    now = b->clock(b->clock_ctx);
    b_begin(b, now);
    switch (op) {
    case OP_TOUCH:
        if (b->state == IDLELOCK_STATE_UNLOCKED) {
            b->last_activity = now;
        }
        break;
    case OP_CHECK:
        break;
    case OP_BACKGROUND: {
        int recorded = 0;
        if (!b->away) {
            b->away = 1;
            b->departure = now;
            b->reached_bg = 0;
            recorded = 1;
        }
        b->reached_bg = 1;
        if (b->engaged && b->state == IDLELOCK_STATE_UNLOCKED) {
            if (recorded && b_idle_passed(b, now)) {
                b_lock(b, IDLELOCK_REASON_IDLE);
            } else {
                b_judge(b, now);
            }
        }
        break;
    }
    case OP_FOREGROUND: {
        int had = b->away, was_bg = b->reached_bg;
        int64_t departed = b->departure, away;
        b->away = 0;
        b->reached_bg = 0;
        if (!b->engaged || b->state != IDLELOCK_STATE_UNLOCKED) {
            break;
        }
        if (!had) {
            if (b_idle_passed(b, now)) {
                b_lock(b, IDLELOCK_REASON_IDLE);
            }
            break;
        }
        away = sat_sub(now, departed);
        if (away <= b->grace) {
            b->last_activity = now;
        } else if (has_passed(away, b_absence_timeout(b, was_bg))) {
            b_lock(b, IDLELOCK_REASON_BACKGROUNDED);
        } else if (b_idle_passed(b, now)) {
            b_lock(b, IDLELOCK_REASON_IDLE);
        }
        break;
    }
    default:
        break;
    }
    b_settle(b, now, out);
    deliver = b->queued > 0;
    pthread_mutex_unlock(&b->mu);
    if (deliver) {
        b_deliver(b);
    }
    return IDLELOCK_OK;
}

__attribute__((noinline)) static int base_touch(base_t *b, idlelock_snapshot *out)
{
    return b_event(b, out, OP_TOUCH);
}

__attribute__((noinline)) static int base_check(base_t *b, idlelock_snapshot *out)
{
    return b_event(b, out, OP_CHECK);
}

__attribute__((noinline)) static int base_snapshot_get(base_t *b, idlelock_snapshot *out)
{
    if (out == NULL) {
        return IDLELOCK_ERR_INVALID_ARGUMENT;
    }
    return b_event(b, out, OP_CHECK);
}

__attribute__((noinline)) static int base_background(base_t *b, idlelock_snapshot *out)
{
    return b_event(b, out, OP_BACKGROUND);
}

__attribute__((noinline)) static int base_foreground(base_t *b, idlelock_snapshot *out)
{
    return b_event(b, out, OP_FOREGROUND);
}

__attribute__((noinline)) static int base_require_unlocked(base_t *b)
{
    int64_t now;
    int status = IDLELOCK_OK, deliver;
    if (b == NULL) {
        return IDLELOCK_ERR_INVALID_ARGUMENT;
    }
    pthread_mutex_lock(&b->mu);
    now = b->clock(b->clock_ctx);
    b_begin(b, now);
    if (b->store != NULL) {
        b_store_step(b); /* look at the store's generation */
    }
    if (b->state != IDLELOCK_STATE_UNLOCKED) {
        status = IDLELOCK_ERR_SESSION_LOCKED;
    } else if (!b->key_loaded) {
        status = IDLELOCK_ERR_INTERNAL;
    }
    b_settle(b, now, NULL);
    deliver = b->queued > 0;
    pthread_mutex_unlock(&b->mu);
    if (deliver) {
        b_deliver(b);
    }
    return status;
}

/* Well-formed UTF-8 (no overlongs, surrogates, or values past U+10FFFF). */
static int utf8_valid(const unsigned char *s, size_t n)
{
    size_t i = 0, k, len;
    while (i < n) {
        unsigned char c = s[i], lo = 0x80, hi = 0xBF;
        if (c < 0x80) {
            i++;
            continue;
        }
        if (c >= 0xC2 && c <= 0xDF) {
            len = 2;
        } else if (c >= 0xE0 && c <= 0xEF) {
            len = 3;
            lo = c == 0xE0 ? 0xA0 : 0x80;
            hi = c == 0xED ? 0x9F : 0xBF;
        } else if (c >= 0xF0 && c <= 0xF4) {
            len = 4;
            lo = c == 0xF0 ? 0x90 : 0x80;
            hi = c == 0xF4 ? 0x8F : 0xBF;
        } else {
            return 0;
        }
        if (len > n - i || s[i + 1] < lo || s[i + 1] > hi) {
            return 0;
        }
        for (k = 2; k < len; k++) {
            if (s[i + k] < 0x80 || s[i + k] > 0xBF) {
                return 0;
            }
        }
        i += len;
    }
    return 1;
}

__attribute__((noinline)) static int base_secret_get(base_t *b, const char *name, uint8_t *buf,
                                                     size_t *len)
{
    unsigned char id[32];
    unsigned long long opened = 0;
    size_t n, cap, i;
    int64_t now;
    int status = IDLELOCK_OK, deliver;
    if (b == NULL || name == NULL || len == NULL) {
        return IDLELOCK_ERR_INVALID_ARGUMENT;
    }
    n = strnlen(name, 65);
    if (n == 0 || n > 64 || !utf8_valid((const unsigned char *)name, n)) {
        return IDLELOCK_ERR_INVALID_ARGUMENT;
    }
    if (buf == NULL && *len != 0) {
        return IDLELOCK_ERR_INVALID_ARGUMENT;
    }
    cap = *len > 65536 ? 65536 : *len;
    pthread_mutex_lock(&b->mu);
    now = b->clock(b->clock_ctx);
    b_begin(b, now);
    if (b->store != NULL) {
        b_store_step(b); /* look at the store's generation */
    }
    if (b->state != IDLELOCK_STATE_UNLOCKED) {
        status = IDLELOCK_ERR_SESSION_LOCKED;
    } else if (!b->key_loaded) {
        status = IDLELOCK_ERR_INTERNAL;
    } else {
        const base_record *r = NULL;
        crypto_generichash(id, sizeof id, (const unsigned char *)name, n, b->key + 32, 32);
        for (i = 0; i < b->n_records; i++) {
            if (sodium_memcmp(b->records[i].id, id, sizeof id) == 0) {
                r = &b->records[i];
                break;
            }
        }
        if (r == NULL) {
            status = IDLELOCK_ERR_NOT_FOUND;
        } else if (cap < r->sealed_len - crypto_aead_xchacha20poly1305_ietf_ABYTES) {
            *len = r->sealed_len - crypto_aead_xchacha20poly1305_ietf_ABYTES;
            status = IDLELOCK_ERR_BUFFER_TOO_SMALL;
        } else if (crypto_aead_xchacha20poly1305_ietf_decrypt(buf, &opened, NULL, r->sealed,
                                                              r->sealed_len, id, sizeof id,
                                                              r->nonce, b->key) != 0) {
            status = IDLELOCK_ERR_INTERNAL;
        } else {
            *len = (size_t)opened;
        }
    }
    b_settle(b, now, NULL);
    deliver = b->queued > 0;
    pthread_mutex_unlock(&b->mu);
    if (deliver) {
        b_deliver(b);
    }
    return status;
}

static void base_init(base_t *b, const uint8_t *secret)
{
    base_record *r = &b->records[0];
    unsigned long long sealed_len = 0;
    memset(b, 0, sizeof *b);
    pthread_mutex_init(&b->mu, NULL);
    b->clock = bench_clock;
    b->clock_ctx = NULL;
    b->idle = IDLE_MS;
    b->background = BACKGROUND_MS;
    b->inactive = INACTIVE_MS;
    b->grace = GRACE_MS;
    b->engaged = 1;
    b->state = IDLELOCK_STATE_UNLOCKED;
    b->reason = IDLELOCK_REASON_NONE;
    b->key_loaded = 1;
    b->max_attempts = MAX_ATTEMPTS;
    b->prompt_cap = 120000;
    b->last_activity = bench_clock(NULL);
    b_settle(b, b->last_activity, NULL);
    randombytes_buf(b->key, 32);
    crypto_kdf_derive_from_key(b->key + 32, 32, 1, "idlkname", b->key);
    crypto_generichash(r->id, sizeof r->id, (const unsigned char *)SECRET_NAME,
                       strlen(SECRET_NAME), b->key + 32, 32);
    randombytes_buf(r->nonce, sizeof r->nonce);
    crypto_aead_xchacha20poly1305_ietf_encrypt(r->sealed, &sealed_len, secret, SECRET_BYTES, r->id,
                                               sizeof r->id, NULL, r->nonce, b->key);
    r->sealed_len = (size_t)sealed_len;
    b->n_records = 1;
}

/* ---------------------------------------------------------------------- */
/* The handles                                                            */
/* ---------------------------------------------------------------------- */

static idlelock *H;     /* sections 1, 2, 4: engaged, unlocked, memory only */
static idlelock *H_prompted; /* the same after one prompt (1.1) opened and ended */
static base_t B;        /* its baseline */
static uint8_t SECRET[SECRET_BYTES];

static idlelock *make_handle(const char *path)
{
    idlelock_config cfg;
    idlelock *lock = NULL;
    expect(idlelock_config_init(&cfg, sizeof cfg), IDLELOCK_OK, "idlelock_config_init");
    cfg.idle_after_ms = IDLE_MS;
    cfg.background_after_ms = BACKGROUND_MS;
    cfg.inactive_after_ms = INACTIVE_MS;
    cfg.grace_ms = GRACE_MS;
    cfg.max_attempts = MAX_ATTEMPTS;
    cfg.kdf_opslimit = KDF_OPS;
    cfg.kdf_memlimit = KDF_MEM;
    cfg.lock_on_start = path == NULL ? 0 : 1; /* a store without a device key needs 1 */
    cfg.clock = bench_clock;
    cfg.store_path = path;
    expect(idlelock_create(&cfg, &lock), IDLELOCK_OK, "idlelock_create");
    expect(idlelock_set_passcode(lock, PASSCODE, strlen(PASSCODE)), IDLELOCK_OK,
           "idlelock_set_passcode");
    return lock;
}

/* ---------------------------------------------------------------------- */
/* The hot cases                                                          */
/* ---------------------------------------------------------------------- */

typedef struct {
    idlelock_snapshot snap;
    uint8_t buf[SECRET_BYTES];
} tctx;

typedef int (*op_fn)(tctx *);

static int lib_touch(tctx *t)
{
    (void)t;
    return idlelock_touch(H, NULL);
}
static int bas_touch(tctx *t)
{
    (void)t;
    return base_touch(&B, NULL);
}
#if IDLELOCK_VERSION_NUMBER >= 10100
static int lib_touch_prompted(tctx *t)
{
    (void)t;
    return idlelock_touch(H_prompted, NULL);
}
#endif
static int lib_touch_out(tctx *t)
{
    return idlelock_touch(H, &t->snap);
}
static int bas_touch_out(tctx *t)
{
    return base_touch(&B, &t->snap);
}
static int lib_check(tctx *t)
{
    return idlelock_check(H, &t->snap);
}
static int bas_check(tctx *t)
{
    return base_check(&B, &t->snap);
}
static int lib_snapshot_get(tctx *t)
{
    return idlelock_snapshot_get(H, &t->snap);
}
static int bas_snapshot_get(tctx *t)
{
    return base_snapshot_get(&B, &t->snap);
}
static int lib_background(tctx *t)
{
    return idlelock_background(H, &t->snap);
}
static int bas_background(tctx *t)
{
    return base_background(&B, &t->snap);
}
static int lib_foreground(tctx *t)
{
    return idlelock_foreground(H, &t->snap);
}
static int bas_foreground(tctx *t)
{
    return base_foreground(&B, &t->snap);
}
static int lib_bgfg(tctx *t)
{
    return lib_background(t) | lib_foreground(t);
}
static int bas_bgfg(tctx *t)
{
    return bas_background(t) | bas_foreground(t);
}
static int lib_require(tctx *t)
{
    (void)t;
    return idlelock_require_unlocked(H);
}
static int bas_require(tctx *t)
{
    (void)t;
    return base_require_unlocked(&B);
}
static int lib_secret(tctx *t)
{
    size_t len = sizeof t->buf;
    int status = idlelock_secret_get(H, SECRET_NAME, t->buf, &len);
    return status != IDLELOCK_OK ? status : len != SECRET_BYTES ? -1 : 0;
}
static int bas_secret(tctx *t)
{
    size_t len = sizeof t->buf;
    int status = base_secret_get(&B, SECRET_NAME, t->buf, &len);
    return status != IDLELOCK_OK ? status : len != SECRET_BYTES ? -1 : 0;
}

typedef struct {
    double lib_ns, base_ns; /* medians */
    double ratio;           /* median of the per-round ratios */
    double ratio_q1, ratio_q3;
    double ratio_of_minima; /* fastest lib round / fastest baseline round */
    long iters;
    int rounds;
} cmp_result;

static void summarize(cmp_result *c, const double *lib, const double *base, const double *ratio,
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

typedef struct {
    const char *key;
    const char *label;
    op_fn lib, base;
    cmp_result one, two;
    int mismatch; /* the baseline's snapshot differs from the library's */
} hot_case;

static hot_case HOT[] = {
    {.key = "touch", .label = "touch (out NULL)", .lib = lib_touch, .base = bas_touch},
#if IDLELOCK_VERSION_NUMBER >= 10100
    {.key = "touch_after_prompt", .label = "touch (after a prompt)", .lib = lib_touch_prompted,
     .base = bas_touch},
#endif
    {.key = "touch_out", .label = "touch (out)", .lib = lib_touch_out, .base = bas_touch_out},
    {.key = "check", .label = "check (out)", .lib = lib_check, .base = bas_check},
    {.key = "snapshot_get", .label = "snapshot_get", .lib = lib_snapshot_get, .base = bas_snapshot_get},
    {.key = "background_foreground", .label = "background+foreground pair", .lib = lib_bgfg, .base = bas_bgfg},
    {.key = "require_unlocked", .label = "require_unlocked", .lib = lib_require, .base = bas_require},
    {.key = "secret_get", .label = "secret_get (1 KiB)", .lib = lib_secret, .base = bas_secret},
};
#define N_HOT ((int)(sizeof HOT / sizeof HOT[0]))

/* Distinct loops for each side, so callgrind can tell them apart. */
__attribute__((noinline)) static double loop_lib(op_fn fn, tctx *t, long n)
{
    long i;
    int64_t t0 = cpu_ns();
    for (i = 0; i < n; i++) {
        fn(t);
    }
    return (double)(cpu_ns() - t0) / (double)n;
}

__attribute__((noinline)) static double loop_base(op_fn fn, tctx *t, long n)
{
    long i;
    int64_t t0 = cpu_ns();
    for (i = 0; i < n; i++) {
        fn(t);
    }
    return (double)(cpu_ns() - t0) / (double)n;
}

static void tctx_init(tctx *t)
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

/* The baseline must produce what the library produces: the same snapshot
 * (but seq, whose history differs, and times, which may differ by the ms
 * that passed between the two calls). A difference means the baseline is
 * wrong (or out of date with the header): reported, and the exit status
 * is 1. */
static int baseline_mismatches;

static void compare_snapshots(hot_case *c, tctx *t)
{
    idlelock_snapshot lib, base;
    int same;
    /* Align the last activity of both sides first. */
    lib_touch(t);
    bas_touch(t);
    if (c->lib(t) != 0) {
        return;
    }
    lib = t->snap;
    if (c->base(t) != 0) {
        return;
    }
    base = t->snap;
    same = lib.state == base.state && lib.reason == base.reason &&
           lib.is_enabled == base.is_enabled &&
           lib.is_biometrics_enabled == base.is_biometrics_enabled &&
           lib.is_biometrics_available == base.is_biometrics_available &&
           lib.is_away == base.is_away && lib.attempts_remaining == base.attempts_remaining &&
           abs_diff(lib.last_activity_ms, base.last_activity_ms) <= 5 &&
           abs_diff(lib.ms_until_idle_lock, base.ms_until_idle_lock) <= 5;
#if IDLELOCK_VERSION_NUMBER >= 10100
    same = same && lib.is_warning == base.is_warning &&
           abs_diff(lib.ms_until_warning, base.ms_until_warning) <= 5 &&
           abs_diff(lib.ms_until_next_deadline, base.ms_until_next_deadline) <= 5;
#endif
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

static void run_one_thread(hot_case *c)
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

static void run_two_threads(hot_case *c)
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

/* ---------------------------------------------------------------------- */
/* Section 3: unlock                                                      */
/* ---------------------------------------------------------------------- */

static idlelock *H_mem, *H_store;
static unsigned char SALT[crypto_pwhash_SALTBYTES];

static struct {
    cmp_result cmp; /* memory-only unlock against crypto_pwhash, CPU ms */
    double base_wall_ms, mem_wall_ms;
    double store_ms, store_extra_ms, store_extra_q1, store_extra_q3;
    long rss_before_kb, peak_kb, base_rss_before_kb, base_peak_kb;
    int rss_ok;
} U;

/* One crypto_pwhash: thread CPU ms, and wall ms in *wall. */
static double time_pwhash(double *wall)
{
    unsigned char key[32];
    int64_t w0 = now_ns(), c0 = cpu_ns();
    if (crypto_pwhash(key, sizeof key, PASSCODE, strlen(PASSCODE), SALT, KDF_OPS, (size_t)KDF_MEM,
                      crypto_pwhash_ALG_ARGON2ID13) != 0) {
        die("crypto_pwhash failed");
    }
    c0 = cpu_ns() - c0;
    *wall = (double)(now_ns() - w0) / 1e6;
    sodium_memzero(key, sizeof key);
    return (double)c0 / 1e6;
}

/* One unlock of a locked handle (locked first, untimed): CPU ms, wall ms. */
static double time_unlock(idlelock *lock, double *wall)
{
    int64_t w0, c0;
    int st;
    expect(idlelock_lock(lock, NULL), IDLELOCK_OK, "idlelock_lock");
    w0 = now_ns();
    c0 = cpu_ns();
    st = idlelock_unlock(lock, PASSCODE, strlen(PASSCODE), NULL);
    c0 = cpu_ns() - c0;
    *wall = (double)(now_ns() - w0) / 1e6;
    expect(st, IDLELOCK_OK, "idlelock_unlock");
    return (double)c0 / 1e6;
}

static long proc_status_kb(const char *field)
{
    char line[256];
    long kb = -1;
    size_t n = strlen(field);
    FILE *f = fopen("/proc/self/status", "r");
    if (f == NULL) {
        return -1;
    }
    while (fgets(line, sizeof line, f) != NULL) {
        if (strncmp(line, field, n) == 0 && line[n] == ':') {
            kb = strtol(line + n + 1, NULL, 10);
            break;
        }
    }
    fclose(f);
    return kb;
}

/* Resets VmHWM to the current RSS (Linux 4.0+). */
static int reset_peak(void)
{
    FILE *f = fopen("/proc/self/clear_refs", "w");
    if (f == NULL) {
        return 0;
    }
    if (fputs("5", f) < 0) {
        fclose(f);
        return 0;
    }
    return fclose(f) == 0;
}

static void run_unlock(void)
{
    double base[MAX_ROUNDS], mem[MAX_ROUNDS], ratio[MAX_ROUNDS];
    double base_wall[MAX_ROUNDS], mem_wall[MAX_ROUNDS], store_wall[MAX_ROUNDS], extra[MAX_ROUNDS];
    double w;
    int r, k, rounds = opt.unlock_rounds;
    randombytes_buf(SALT, sizeof SALT);
    /* Warm up each side once. */
    time_pwhash(&w);
    time_unlock(H_mem, &w);
    time_unlock(H_store, &w);
    /* Peak RSS: reset VmHWM, run one unlock, read VmHWM. */
    U.rss_ok = reset_peak();
    if (U.rss_ok) {
        U.rss_before_kb = proc_status_kb("VmRSS");
        time_unlock(H_mem, &w);
        U.peak_kb = proc_status_kb("VmHWM");
        reset_peak();
        U.base_rss_before_kb = proc_status_kb("VmRSS");
        time_pwhash(&w);
        U.base_peak_kb = proc_status_kb("VmHWM");
    }
    /* The three sides in a rotating order. */
    for (r = 0; r < rounds; r++) {
        for (k = 0; k < 3; k++) {
            switch ((r + k) % 3) {
            case 0:
                base[r] = time_pwhash(&base_wall[r]);
                break;
            case 1:
                mem[r] = time_unlock(H_mem, &mem_wall[r]);
                break;
            default:
                time_unlock(H_store, &store_wall[r]);
                break;
            }
        }
        ratio[r] = mem[r] / base[r];
        extra[r] = store_wall[r] - mem_wall[r];
    }
    summarize(&U.cmp, mem, base, ratio, rounds, 1);
    U.base_wall_ms = median(base_wall, rounds);
    U.mem_wall_ms = median(mem_wall, rounds);
    U.store_ms = median(store_wall, rounds);
    U.store_extra_ms = median(extra, rounds);
    U.store_extra_q1 = quantile(extra, rounds, 0.25);
    U.store_extra_q3 = quantile(extra, rounds, 0.75);
}

/* ---------------------------------------------------------------------- */
/* Section 4: heap allocations per call                                   */
/* ---------------------------------------------------------------------- */

typedef struct {
    const char *key;
    op_fn fn;
    int goal_zero;
    double allocs, bytes, frees;
} alloc_case;

static alloc_case ALLOC[] = {
    {"touch", lib_touch, 1, 0, 0, 0},
#if IDLELOCK_VERSION_NUMBER >= 10100
    {"touch_after_prompt", lib_touch_prompted, 1, 0, 0, 0},
#endif
    {"touch_out", lib_touch_out, 1, 0, 0, 0},
    {"check", lib_check, 1, 0, 0, 0},
    {"background", lib_background, 1, 0, 0, 0},
    {"foreground", lib_foreground, 1, 0, 0, 0},
    {"snapshot_get", lib_snapshot_get, 1, 0, 0, 0},
    {"require_unlocked", lib_require, 1, 0, 0, 0},
    {"secret_get", lib_secret, 0, 0, 0, 0},
};
#define N_ALLOC ((int)(sizeof ALLOC / sizeof ALLOC[0]))

static struct {
    int shim_ok;
    double create_destroy, unlock, unlock_bytes, pwhash, pwhash_bytes;
} A;

/* Counts the heap allocations of `fn` over n calls; `pre` and `post` run
 * around each call, uncounted (background and foreground alternate). */
static void count_calls(op_fn fn, op_fn pre, op_fn post, long n, double *allocs, double *bytes,
                        double *frees)
{
    uint64_t a0, b0, f0, a1, b1, f1;
    tctx t;
    long i;
    tctx_init(&t);
    malloc_count_read(&a0, &b0, &f0);
    for (i = 0; i < n; i++) {
        if (pre != NULL) {
            pre(&t);
        }
        malloc_count_start();
        fn(&t);
        malloc_count_stop();
        if (post != NULL) {
            post(&t);
        }
    }
    malloc_count_read(&a1, &b1, &f1);
    *allocs = (double)(a1 - a0) / (double)n;
    *bytes = (double)(b1 - b0) / (double)n;
    *frees = (double)(f1 - f0) / (double)n;
}

static void run_alloc(void)
{
    uint64_t a0, b0, f0, a1, b1, f1;
    idlelock *tmp;
    int i;
    long n = opt.alloc_calls;
    /* The shim must see the library's allocations: create+destroy makes
     * Swift objects, so a zero there means the counter is not wired in. */
    malloc_count_read(&a0, &b0, &f0);
    malloc_count_start();
    tmp = make_handle(NULL);
    idlelock_destroy(tmp);
    malloc_count_stop();
    malloc_count_read(&a1, &b1, &f1);
    A.create_destroy = (double)(a1 - a0);
    A.shim_ok = a1 > a0;
    for (i = 0; i < N_ALLOC; i++) {
        alloc_case *c = &ALLOC[i];
        op_fn pre = c->fn == lib_foreground ? lib_background : NULL;
        op_fn post = c->fn == lib_background ? lib_foreground : NULL;
        count_calls(c->fn, pre, post, n, &c->allocs, &c->bytes, &c->frees);
    }
    /* Unlock (informational): one attempt, memory-only handle. */
    expect(idlelock_lock(H_mem, NULL), IDLELOCK_OK, "idlelock_lock");
    malloc_count_read(&a0, &b0, &f0);
    malloc_count_start();
    expect(idlelock_unlock(H_mem, PASSCODE, strlen(PASSCODE), NULL), IDLELOCK_OK,
           "idlelock_unlock");
    malloc_count_stop();
    malloc_count_read(&a1, &b1, &f1);
    A.unlock = (double)(a1 - a0);
    A.unlock_bytes = (double)(b1 - b0);
    /* The same Argon2id, bare: libsodium's own allocations. */
    malloc_count_read(&a0, &b0, &f0);
    malloc_count_start();
    {
        double w;
        time_pwhash(&w);
    }
    malloc_count_stop();
    malloc_count_read(&a1, &b1, &f1);
    A.pwhash = (double)(a1 - a0);
    A.pwhash_bytes = (double)(b1 - b0);
}

/* ---------------------------------------------------------------------- */
/* Section 5: footprint                                                   */
/* ---------------------------------------------------------------------- */

static struct {
    long size, stripped_size;
    char needed[8][64];
    int n_needed;
    char sodium[64];
    int probe_ok, unloaded, rounds;
    double sodium_us, sodium_init_us, idlelock_us, first_sodium_us, first_idlelock_us;
} F;

static long file_size(const char *path)
{
    struct stat st;
    return path != NULL && stat(path, &st) == 0 ? (long)st.st_size : -1;
}

/* DT_NEEDED entries of an ELF64 file, through its section headers. */
static void read_needed(const char *path)
{
    FILE *f = fopen(path, "rb");
    Elf64_Ehdr eh;
    Elf64_Shdr *sh = NULL;
    char *strtab = NULL;
    int i;
    F.n_needed = 0;
    if (f == NULL || fread(&eh, sizeof eh, 1, f) != 1 || memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
        eh.e_ident[EI_CLASS] != ELFCLASS64) {
        goto out;
    }
    sh = calloc(eh.e_shnum, sizeof *sh);
    if (sh == NULL || fseek(f, (long)eh.e_shoff, SEEK_SET) != 0 ||
        fread(sh, sizeof *sh, eh.e_shnum, f) != eh.e_shnum) {
        goto out;
    }
    for (i = 0; i < eh.e_shnum; i++) {
        Elf64_Shdr *dyn = &sh[i], *str;
        size_t k, count;
        if (dyn->sh_type != SHT_DYNAMIC || dyn->sh_link >= eh.e_shnum) {
            continue;
        }
        str = &sh[dyn->sh_link];
        strtab = malloc(str->sh_size + 1);
        if (strtab == NULL || fseek(f, (long)str->sh_offset, SEEK_SET) != 0 ||
            fread(strtab, 1, str->sh_size, f) != str->sh_size) {
            goto out;
        }
        strtab[str->sh_size] = '\0';
        count = dyn->sh_size / sizeof(Elf64_Dyn);
        for (k = 0; k < count && F.n_needed < 8; k++) {
            Elf64_Dyn d;
            if (fseek(f, (long)(dyn->sh_offset + k * sizeof d), SEEK_SET) != 0 ||
                fread(&d, sizeof d, 1, f) != 1) {
                goto out;
            }
            if (d.d_tag == DT_NEEDED && d.d_un.d_val < str->sh_size) {
                snprintf(F.needed[F.n_needed++], sizeof F.needed[0], "%s", strtab + d.d_un.d_val);
            }
        }
        break;
    }
out:
    free(strtab);
    free(sh);
    if (f != NULL) {
        fclose(f);
    }
}

/* Children that failed: reported, the other figures are still printed,
 * and the exit status is 1. */
static int child_failures;

/* Runs `cmd` and calls `line` for each `key value` line of its output.
 * Returns the exit status (or -1). */
static int run_child(const char *cmd, void (*line)(const char *key, const char *value))
{
    char buf[512];
    FILE *p;
    fflush(stdout);
    p = popen(cmd, "r");
    if (p == NULL) {
        return -1;
    }
    while (fgets(buf, sizeof buf, p) != NULL) {
        char *sp = strchr(buf, ' '), *nl;
        if (sp == NULL) {
            continue;
        }
        *sp = '\0';
        if ((nl = strchr(sp + 1, '\n')) != NULL) {
            *nl = '\0';
        }
        line(buf, sp + 1);
    }
    return pclose(p);
}

static void probe_line(const char *key, const char *value)
{
    double v = atof(value);
    if (strcmp(key, "unloaded") == 0) {
        F.unloaded = (int)v;
    } else if (strcmp(key, "rounds") == 0) {
        F.rounds = (int)v;
    } else if (strcmp(key, "sodium_ns") == 0) {
        F.sodium_us = v / 1e3;
    } else if (strcmp(key, "sodium_init_ns") == 0) {
        F.sodium_init_us = v / 1e3;
    } else if (strcmp(key, "idlelock_ns") == 0) {
        F.idlelock_us = v / 1e3;
    } else if (strcmp(key, "first_sodium_ns") == 0) {
        F.first_sodium_us = v / 1e3;
    } else if (strcmp(key, "first_idlelock_ns") == 0) {
        F.first_idlelock_us = v / 1e3;
    }
}

static void run_footprint(void)
{
    int i;
    char cmd[2048];
    F.size = file_size(opt.lib);
    F.stripped_size = file_size(opt.stripped);
    if (opt.lib != NULL) {
        read_needed(opt.lib);
    }
    snprintf(F.sodium, sizeof F.sodium, "libsodium.so.23");
    for (i = 0; i < F.n_needed; i++) {
        if (strncmp(F.needed[i], "libsodium", 9) == 0) {
            snprintf(F.sodium, sizeof F.sodium, "%s", F.needed[i]);
        }
    }
    if (opt.probe != NULL && opt.lib != NULL) {
        int rc;
        snprintf(cmd, sizeof cmd, "'%s' '%s' '%s' %d", opt.probe, opt.lib, F.sodium, opt.dl_rounds);
        rc = run_child(cmd, probe_line);
        if (rc != 0) {
            fprintf(stderr, "idlelock-bench: %s failed (status %d)\n", cmd, rc);
            child_failures++;
        } else {
            F.probe_ok = 1;
        }
    }
}

/* ---------------------------------------------------------------------- */
/* Section 6: the Python binding (a child process)                        */
/* ---------------------------------------------------------------------- */

#define PY_MAX 16
static struct {
    int ok, failed, n;
    char key[PY_MAX][32];
    char value[PY_MAX][64];
} P;

static void py_line(const char *key, const char *value)
{
    if (P.n < PY_MAX) {
        snprintf(P.key[P.n], sizeof P.key[0], "%s", key);
        snprintf(P.value[P.n], sizeof P.value[0], "%s", value);
        P.n++;
    }
}

static double py_get(const char *key)
{
    int i;
    for (i = 0; i < P.n; i++) {
        if (strcmp(P.key[i], key) == 0) {
            return atof(P.value[i]);
        }
    }
    return -1;
}

static const char *py_str(const char *key)
{
    int i;
    for (i = 0; i < P.n; i++) {
        if (strcmp(P.key[i], key) == 0) {
            return P.value[i];
        }
    }
    return "";
}

static void run_python(void)
{
    char cmd[4096];
    int rc;
    if (opt.python == NULL) {
        return;
    }
    snprintf(cmd, sizeof cmd, "%s --kv --iters %ld --rounds %d", opt.python, opt.py_iters,
             opt.py_rounds);
    rc = run_child(cmd, py_line);
    if (rc != 0) {
        fprintf(stderr, "idlelock-bench: the Python benchmark failed (status %d): %s\n", rc, cmd);
        child_failures++;
        P.failed = 1;
        return;
    }
    P.ok = P.n > 0;
}

/* ---------------------------------------------------------------------- */
/* Output                                                                 */
/* ---------------------------------------------------------------------- */

#define HOT_GOAL 1.5
#define UNLOCK_GOAL 1.05
#define STRIPPED_GOAL 200000L
#define PYTHON_GOAL 2.0

static char CPU[128] = "unknown";
static char KERNEL[256] = "unknown";
static long NCPU;

static void machine(void)
{
    char line[256];
    struct utsname u;
    FILE *f = fopen("/proc/cpuinfo", "r");
    NCPU = sysconf(_SC_NPROCESSORS_ONLN);
    if (f != NULL) {
        while (fgets(line, sizeof line, f) != NULL) {
            if (strncmp(line, "model name", 10) == 0) {
                char *c = strchr(line, ':'), *nl;
                if (c != NULL) {
                    c += 2;
                    if ((nl = strchr(c, '\n')) != NULL) {
                        *nl = '\0';
                    }
                    snprintf(CPU, sizeof CPU, "%s", c);
                }
                break;
            }
        }
        fclose(f);
    }
    if (uname(&u) == 0) {
        snprintf(KERNEL, sizeof KERNEL, "%.60s %.60s %.60s", u.sysname, u.release, u.machine);
    }
}

static const char *verdict(int met)
{
    return met ? "met" : "MISSED";
}

static void print_cmp_header(void)
{
    printf("   %-28s %9s %9s %9s %7s %13s %7s %9s  %s\n", "call", "lib ns", "base ns", "lib-base",
           "ratio", "(q1..q3)", "min/min", "calls", "goal");
}

static void print_cmp_row(const hot_case *c, const cmp_result *r)
{
    printf("   %-28s %9.1f %9.1f %+9.1f %6.2fx %6.2f..%-6.2f %6.2fx %9ld  %s\n", c->label,
           r->lib_ns, r->base_ns, r->lib_ns - r->base_ns, r->ratio, r->ratio_q1, r->ratio_q3,
           r->ratio_of_minima, r->iters,
           c->mismatch ? "BASELINE MISMATCH" : verdict(r->ratio <= HOT_GOAL));
}

static void print_table(int sections_all)
{
    int i;
    printf("\nlibidlelock %s benchmarks: %ld CPUs (%s), %s, libsodium %s\n", idlelock_version(),
           NCPU, CPU, KERNEL, sodium_version_string());
    printf("The library and each baseline use the same clock callback (CLOCK_BOOTTIME in ms).\n"
           "Each round runs both sides, in random order; ratio = median of the per-round\n"
           "ratios lib/baseline, (q1..q3) their quartiles, min/min = fastest lib round /\n"
           "fastest baseline round.\n");
    printf("\n1. Hot calls, one thread: thread CPU ns per call (medians of %d rounds).\n"
           "   Goal: ratio <= %.2fx.\n",
           opt.rounds, HOT_GOAL);
    print_cmp_header();
    for (i = 0; i < N_HOT; i++) {
        if (HOT[i].one.rounds > 0) {
            print_cmp_row(&HOT[i], &HOT[i].one);
        }
    }
    if (!sections_all) {
        return;
    }
    printf("\n2. Two threads on one handle (the baseline: two threads on one baseline): ns of\n"
           "   wall time per call, both threads together (1/throughput). Goal: ratio <= %.2fx.\n",
           HOT_GOAL);
    print_cmp_header();
    for (i = 0; i < N_HOT; i++) {
        print_cmp_row(&HOT[i], &HOT[i].two);
    }
    printf("\n3. Unlock, right passcode, Argon2id opslimit %" PRIu64 ", memlimit %" PRIu64
           " bytes (the floor), %d rounds;\n   thread CPU ms (wall ms), medians\n",
           KDF_OPS, KDF_MEM, U.cmp.rounds);
    printf("   bare crypto_pwhash            %8.2f (%.2f)\n", U.cmp.base_ns, U.base_wall_ms);
    printf("   unlock, memory-only handle    %8.2f (%.2f)   ratio %.3fx (%.3f..%.3f), min/min %.3fx\n"
           "                                               goal <= %.2fx  %s\n",
           U.cmp.lib_ns, U.mem_wall_ms, U.cmp.ratio, U.cmp.ratio_q1, U.cmp.ratio_q3,
           U.cmp.ratio_of_minima, UNLOCK_GOAL, verdict(U.cmp.ratio <= UNLOCK_GOAL));
    printf("   unlock, with a store                   (%.2f)   the store's extra cost (two saved\n"
           "                                               replaces): %.2f wall ms (%.2f..%.2f)\n",
           U.store_ms, U.store_extra_ms, U.store_extra_q1, U.store_extra_q3);
    if (U.rss_ok) {
        printf("   peak RSS during unlock        %8ld KiB  (%ld before: +%ld KiB = the memlimit %+ld KiB)\n",
               U.peak_kb, U.rss_before_kb, U.peak_kb - U.rss_before_kb,
               U.peak_kb - U.rss_before_kb - (long)(KDF_MEM / 1024));
        printf("   peak RSS during crypto_pwhash %8ld KiB  (%ld before: +%ld KiB = the memlimit %+ld KiB)\n",
               U.base_peak_kb, U.base_rss_before_kb, U.base_peak_kb - U.base_rss_before_kb,
               U.base_peak_kb - U.base_rss_before_kb - (long)(KDF_MEM / 1024));
    } else {
        printf("   peak RSS: /proc/self/clear_refs is not writable here: not measured\n");
    }
    printf("\n4. Heap allocations per call (malloc-counting shim, %ld calls each)%s\n",
           opt.alloc_calls, A.shim_ok ? "" : "  SHIM INACTIVE: figures invalid");
    printf("   %-28s %9s %9s %9s  %s\n", "call", "allocs", "bytes", "frees", "goal");
    for (i = 0; i < N_ALLOC; i++) {
        alloc_case *c = &ALLOC[i];
        printf("   %-28s %9.2f %9.1f %9.2f  %s\n", c->key, c->allocs, c->bytes, c->frees,
               c->goal_zero ? verdict(A.shim_ok && c->allocs == 0) : "(no goal)");
    }
    printf("   %-28s %9.0f %9s %9s  (self-check of the shim: > 0)\n", "create+destroy",
           A.create_destroy, "", "");
    printf("   %-28s %9.0f %9.0f %9s  (no goal)\n", "unlock (memory-only)", A.unlock, A.unlock_bytes,
           "");
    printf("   %-28s %9.0f %9.0f %9s  (libsodium's own, for comparison)\n", "crypto_pwhash (bare)",
           A.pwhash, A.pwhash_bytes, "");
    printf("\n5. Footprint of %s\n", opt.lib != NULL ? opt.lib : "(--lib not given)");
    printf("   file %ld bytes, stripped %ld bytes (goal <= %ld)  %s\n", F.size, F.stripped_size,
           STRIPPED_GOAL, verdict(F.stripped_size > 0 && F.stripped_size <= STRIPPED_GOAL));
    printf("   NEEDED:");
    for (i = 0; i < F.n_needed; i++) {
        printf(" %s", F.needed[i]);
    }
    printf("\n");
    if (F.probe_ok) {
        printf("   dlopen+create+destroy+dlclose %8.1f us  vs dlopen+dlclose of %s %.1f us: %.2fx\n",
               F.idlelock_us, F.sodium, F.sodium_us, F.idlelock_us / F.sodium_us);
        printf("   (vs dlopen+sodium_init+dlclose %.1f us: %.2fx; medians of %d rounds; the first\n"
               "   round of the process: %.1f vs %.1f us; both unload at dlclose: %s)\n",
               F.sodium_init_us, F.idlelock_us / F.sodium_init_us, F.rounds, F.first_idlelock_us,
               F.first_sodium_us, F.unloaded ? "yes" : "NO");
    } else {
        printf("   dlopen: not measured (--probe not given or it failed)\n");
    }
    if (P.failed) {
        printf("\n6. Python binding: the child FAILED (see its error above)\n");
    }
    if (P.ok) {
        double ratio = py_get("ratio");
        printf("\n6. Python binding (Python %s): thread CPU ns per call, medians of %s rounds of %s calls\n",
               py_str("python"), py_str("rounds"), py_str("iters"));
        printf("   bare ctypes call of a C no-op       %8.0f\n", py_get("noop_ns"));
        printf("   bare ctypes call of idlelock_touch  %8.0f\n", py_get("raw_touch_ns"));
        printf("   IdleLock.touch() (the package)      %8.0f   %.2fx the no-op (%.2f..%.2f); goal <= %.1fx  %s\n",
               py_get("touch_ns"), ratio, py_get("ratio_q1"), py_get("ratio_q3"), PYTHON_GOAL,
               verdict(ratio <= PYTHON_GOAL));
        printf("   the package over a bare ctypes idlelock_touch: %.2fx (+%.0f ns)\n",
               py_get("ratio_vs_raw"), py_get("touch_ns") - py_get("raw_touch_ns"));
    }
    printf("\n");
}

static void json_cmp(FILE *f, const cmp_result *r, double goal, int mismatch)
{
    fprintf(f,
            "{\"lib\": %.3f, \"base\": %.3f, \"ratio\": %.4f, \"ratio_q1\": %.4f, "
            "\"ratio_q3\": %.4f, \"ratio_of_minima\": %.4f, \"calls_per_round\": %ld, "
            "\"rounds\": %d, \"goal\": %.2f, \"met\": %s%s}",
            r->lib_ns, r->base_ns, r->ratio, r->ratio_q1, r->ratio_q3, r->ratio_of_minima, r->iters,
            r->rounds, goal, r->ratio <= goal ? "true" : "false",
            mismatch ? ", \"baseline_mismatch\": true" : "");
}

static void write_json(const char *path, int sections_all)
{
    int i;
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        die("cannot write %s: %s", path, strerror(errno));
    }
    fprintf(f, "{\n  \"library_version\": \"%s\",\n", idlelock_version());
    fprintf(f, "  \"machine\": {\"cpus\": %ld, \"cpu\": \"%s\", \"kernel\": \"%s\", \"libsodium\": \"%s\"},\n",
            NCPU, CPU, KERNEL, sodium_version_string());
    fprintf(f, "  \"smoke\": %s,\n", opt.smoke ? "true" : "false");
    fprintf(f, "  \"units\": \"lib and base: one_thread thread-CPU ns per call; two_threads wall ns per call of both threads; unlock thread-CPU ms\",\n");
    fprintf(f, "  \"one_thread\": {");
    for (i = 0; i < N_HOT; i++) {
        if (HOT[i].one.rounds == 0) {
            continue;
        }
        fprintf(f, "%s\n    \"%s\": ", i ? "," : "", HOT[i].key);
        json_cmp(f, &HOT[i].one, HOT_GOAL, HOT[i].mismatch);
    }
    fprintf(f, "\n  }");
    if (sections_all) {
        fprintf(f, ",\n  \"two_threads\": {");
        for (i = 0; i < N_HOT; i++) {
            fprintf(f, "%s\n    \"%s\": ", i ? "," : "", HOT[i].key);
            json_cmp(f, &HOT[i].two, HOT_GOAL, HOT[i].mismatch);
        }
        fprintf(f, "\n  },\n");
        fprintf(f, "  \"unlock\": {\"opslimit\": %" PRIu64 ", \"memlimit\": %" PRIu64 ", \"vs_pwhash\": ",
                KDF_OPS, KDF_MEM);
        json_cmp(f, &U.cmp, UNLOCK_GOAL, 0);
        fprintf(f, ", \"pwhash_wall_ms\": %.3f, \"memory_only_wall_ms\": %.3f", U.base_wall_ms,
                U.mem_wall_ms);
        fprintf(f,
                ", \"store_wall_ms\": %.3f, \"store_extra_wall_ms\": %.3f, \"store_extra_wall_q1\": %.3f, "
                "\"store_extra_wall_q3\": %.3f, \"rss_before_kib\": %ld, \"rss_peak_kib\": %ld, "
                "\"pwhash_rss_before_kib\": %ld, \"pwhash_rss_peak_kib\": %ld},\n",
                U.store_ms, U.store_extra_ms, U.store_extra_q1, U.store_extra_q3,
                U.rss_ok ? U.rss_before_kb : -1, U.rss_ok ? U.peak_kb : -1,
                U.rss_ok ? U.base_rss_before_kb : -1, U.rss_ok ? U.base_peak_kb : -1);
        fprintf(f, "  \"allocations\": {\"shim_active\": %s, \"calls\": %ld, \"per_call\": {",
                A.shim_ok ? "true" : "false", opt.alloc_calls);
        for (i = 0; i < N_ALLOC; i++) {
            alloc_case *c = &ALLOC[i];
            fprintf(f, "%s\n    \"%s\": {\"allocs\": %.3f, \"bytes\": %.1f, \"frees\": %.3f, \"goal_zero\": %s, \"met\": %s}",
                    i ? "," : "", c->key, c->allocs, c->bytes, c->frees,
                    c->goal_zero ? "true" : "false",
                    !c->goal_zero || (A.shim_ok && c->allocs == 0) ? "true" : "false");
        }
        fprintf(f, "\n  }, \"create_destroy\": %.0f, \"unlock\": %.0f, \"unlock_bytes\": %.0f, "
                   "\"pwhash\": %.0f, \"pwhash_bytes\": %.0f},\n",
                A.create_destroy, A.unlock, A.unlock_bytes, A.pwhash, A.pwhash_bytes);
        fprintf(f, "  \"footprint\": {\"file_bytes\": %ld, \"stripped_bytes\": %ld, \"stripped_goal\": %ld, "
                   "\"met\": %s, \"needed\": [",
                F.size, F.stripped_size, STRIPPED_GOAL,
                F.stripped_size > 0 && F.stripped_size <= STRIPPED_GOAL ? "true" : "false");
        for (i = 0; i < F.n_needed; i++) {
            fprintf(f, "%s\"%s\"", i ? ", " : "", F.needed[i]);
        }
        fprintf(f, "]");
        if (F.probe_ok) {
            fprintf(f,
                    ", \"dlopen\": {\"rounds\": %d, \"unloaded_at_dlclose\": %s, "
                    "\"idlelock_open_create_destroy_close_us\": %.2f, \"sodium_open_close_us\": %.2f, "
                    "\"sodium_open_init_close_us\": %.2f, \"ratio\": %.3f, \"ratio_with_sodium_init\": %.3f, "
                    "\"first_idlelock_us\": %.2f, \"first_sodium_us\": %.2f}",
                    F.rounds, F.unloaded ? "true" : "false", F.idlelock_us, F.sodium_us,
                    F.sodium_init_us, F.idlelock_us / F.sodium_us, F.idlelock_us / F.sodium_init_us,
                    F.first_idlelock_us, F.first_sodium_us);
        }
        fprintf(f, "}");
        if (P.failed) {
            fprintf(f, ",\n  \"python\": {\"failed\": true}");
        }
        if (P.ok) {
            double ratio = py_get("ratio");
            fprintf(f,
                    ",\n  \"python\": {\"python\": \"%s\", \"iters\": %s, \"rounds\": %s, "
                    "\"noop_ns\": %.1f, \"raw_touch_ns\": %.1f, \"touch_ns\": %.1f, \"ratio\": %.3f, "
                    "\"ratio_q1\": %.3f, \"ratio_q3\": %.3f, \"ratio_vs_raw\": %.3f, \"goal\": %.1f, \"met\": %s}",
                    py_str("python"), py_str("iters"), py_str("rounds"), py_get("noop_ns"),
                    py_get("raw_touch_ns"), py_get("touch_ns"), ratio, py_get("ratio_q1"),
                    py_get("ratio_q3"), py_get("ratio_vs_raw"), PYTHON_GOAL,
                    ratio <= PYTHON_GOAL ? "true" : "false");
        }
    }
    fprintf(f, "\n}\n");
    if (fclose(f) != 0) {
        die("cannot write %s", path);
    }
}

/* ---------------------------------------------------------------------- */
/* main                                                                   */
/* ---------------------------------------------------------------------- */

/* The store of section 3 is removed however the program ends. */
static char store_path[PATH_MAX];

static void remove_store(void)
{
    char lock_path[PATH_MAX + 8];
    if (store_path[0] == '\0') {
        return;
    }
    snprintf(lock_path, sizeof lock_path, "%s.lock", store_path);
    unlink(store_path);
    unlink(lock_path);
}

static const char *arg_value(int argc, char **argv, int *i)
{
    if (*i + 1 >= argc) {
        die("%s needs a value", argv[*i]);
    }
    return argv[++*i];
}

int main(int argc, char **argv)
{
    int i;
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--smoke") == 0) {
            opt.smoke = 1;
            opt.iters = 200;
            opt.rounds = 1;
            opt.unlock_rounds = 1;
            opt.dl_rounds = 1;
            opt.alloc_calls = 20;
            opt.py_iters = 50;
            opt.py_rounds = 1;
        } else if (strcmp(a, "--iters") == 0) {
            opt.iters = atol(arg_value(argc, argv, &i));
        } else if (strcmp(a, "--rounds") == 0) {
            opt.rounds = atoi(arg_value(argc, argv, &i));
        } else if (strcmp(a, "--target-ms") == 0) {
            opt.target_ms = atof(arg_value(argc, argv, &i));
        } else if (strcmp(a, "--unlock-rounds") == 0) {
            opt.unlock_rounds = atoi(arg_value(argc, argv, &i));
        } else if (strcmp(a, "--dl-rounds") == 0) {
            opt.dl_rounds = atoi(arg_value(argc, argv, &i));
        } else if (strcmp(a, "--alloc-calls") == 0) {
            opt.alloc_calls = atol(arg_value(argc, argv, &i));
        } else if (strcmp(a, "--py-iters") == 0) {
            opt.py_iters = atol(arg_value(argc, argv, &i));
        } else if (strcmp(a, "--py-rounds") == 0) {
            opt.py_rounds = atoi(arg_value(argc, argv, &i));
        } else if (strcmp(a, "--lib") == 0) {
            opt.lib = arg_value(argc, argv, &i);
        } else if (strcmp(a, "--stripped") == 0) {
            opt.stripped = arg_value(argc, argv, &i);
        } else if (strcmp(a, "--probe") == 0) {
            opt.probe = arg_value(argc, argv, &i);
        } else if (strcmp(a, "--python") == 0) {
            opt.python = arg_value(argc, argv, &i);
        } else if (strcmp(a, "--tmpdir") == 0) {
            opt.tmpdir = arg_value(argc, argv, &i);
        } else if (strcmp(a, "--json") == 0) {
            opt.json = arg_value(argc, argv, &i);
        } else if (strcmp(a, "--only") == 0) {
            opt.only = arg_value(argc, argv, &i);
        } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage();
            return 0;
        } else {
            usage();
            die("unknown option %s", a);
        }
    }
    if (opt.rounds < 1 || opt.rounds > MAX_ROUNDS || opt.unlock_rounds < 1 ||
        opt.unlock_rounds > MAX_ROUNDS || opt.alloc_calls < 1) {
        die("--rounds and --unlock-rounds must be 1..%d, --alloc-calls >= 1", MAX_ROUNDS);
    }
    if (sodium_init() < 0) {
        die("sodium_init failed");
    }
    machine();
    randombytes_buf(SECRET, sizeof SECRET);
    H = make_handle(NULL);
    expect(idlelock_secret_put(H, SECRET_NAME, SECRET, sizeof SECRET), IDLELOCK_OK,
           "idlelock_secret_put");
    base_init(&B, SECRET);
    H_prompted = make_handle(NULL);
#if IDLELOCK_VERSION_NUMBER >= 10100
    {
        uint64_t token = 0;
        expect(idlelock_prompt_begin(H_prompted, &token), IDLELOCK_OK, "idlelock_prompt_begin");
        expect(idlelock_prompt_end(H_prompted, token), IDLELOCK_OK, "idlelock_prompt_end");
    }
#endif

    if (opt.only != NULL) {
        for (i = 0; i < N_HOT; i++) {
            if (strcmp(HOT[i].key, opt.only) == 0) {
                run_one_thread(&HOT[i]);
                break;
            }
        }
        if (i == N_HOT) {
            die("--only: no case %s", opt.only);
        }
        print_table(0);
        if (opt.json != NULL) {
            write_json(opt.json, 0);
        }
        idlelock_destroy(H_prompted);
        idlelock_destroy(H);
        return baseline_mismatches > 0;
    }

    fprintf(stderr, "idlelock-bench: 1. hot calls, one thread\n");
    for (i = 0; i < N_HOT; i++) {
        run_one_thread(&HOT[i]);
    }
    fprintf(stderr, "idlelock-bench: 2. two threads\n");
    for (i = 0; i < N_HOT; i++) {
        run_two_threads(&HOT[i]);
    }
    fprintf(stderr, "idlelock-bench: 3. unlock\n");
    H_mem = make_handle(NULL);
    snprintf(store_path, sizeof store_path, "%s/bench-store-%ld", opt.tmpdir, (long)getpid());
    remove_store();
    atexit(remove_store);
    H_store = make_handle(store_path);
    run_unlock();
    fprintf(stderr, "idlelock-bench: 4. allocations\n");
    run_alloc();
    fprintf(stderr, "idlelock-bench: 5. footprint\n");
    run_footprint();
    fprintf(stderr, "idlelock-bench: 6. Python binding\n");
    run_python();

    print_table(1);
    if (opt.json != NULL) {
        write_json(opt.json, 1);
        printf("figures written to %s\n", opt.json);
    }
    idlelock_destroy(H_store);
    idlelock_destroy(H_mem);
    idlelock_destroy(H_prompted);
    idlelock_destroy(H);
    pthread_mutex_destroy(&B.mu);
    if (child_failures > 0) {
        fprintf(stderr, "idlelock-bench: %d child benchmark(s) failed\n", child_failures);
    }
    if (baseline_mismatches > 0) {
        fprintf(stderr, "idlelock-bench: %d baseline(s) do not produce the library's snapshot: "
                "fix bench/bench.c\n", baseline_mismatches);
    }
    return child_failures > 0 || baseline_mismatches > 0;
}
