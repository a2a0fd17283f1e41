/* SPDX-License-Identifier: MIT */
/*
 * harness.c: what every section of the benchmark shares (see bench.h): the
 * options, the timers and statistics, the clock, the handles under test,
 * and the child processes of sections 5 and 6.
 */
#include "bench.h"

/* ---------------------------------------------------------------------- */
/* Options                                                                */
/* ---------------------------------------------------------------------- */

struct bench_options opt = {
    NULL, NULL, NULL, NULL, ".", NULL, NULL, 0, 0.5, 101, 21, 101, 2000, 5000, 21, 0, 0,
};

/* ---------------------------------------------------------------------- */
/* Small helpers                                                          */
/* ---------------------------------------------------------------------- */

void die(const char *fmt, ...)
{
    va_list ap;
    fputs("idlelock-bench: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(1);
}

int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* CPU time of the calling thread: time the thread spent descheduled (the
 * machine is shared) does not count. Used for one-thread figures. */
int64_t cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Which side runs first in a round: random, so that no periodic
 * disturbance lines up with the order (xorshift, fixed seed). */
int lib_first(void)
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

/* The q-quantile (0..1) of n values, interpolated (sorts a copy). */
double quantile(const double *v, int n, double q)
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

double median(const double *v, int n)
{
    return quantile(v, n, 0.5);
}

double vmin(const double *v, int n)
{
    double m = v[0];
    int i;
    for (i = 1; i < n; i++) {
        m = v[i] < m ? v[i] : m;
    }
    return m;
}

void expect(int got, int want, const char *what)
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
int64_t bench_clock(void *ctx)
{
    struct timespec ts;
    (void)ctx;
    clock_gettime(CLOCK_BOOTTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ---------------------------------------------------------------------- */
/* The handles                                                            */
/* ---------------------------------------------------------------------- */

idlelock *H;
idlelock *H_prompted;
base_t B;
uint8_t SECRET[SECRET_BYTES];

idlelock *make_handle(const char *path)
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
/* Failures                                                               */
/* ---------------------------------------------------------------------- */

/* The baseline must produce what the library produces: the same snapshot
 * (but seq, whose history differs, and times, which may differ by the ms
 * that passed between the two calls). A difference means the baseline is
 * wrong (or out of date with the header): reported, and the exit status
 * is 1. */
int baseline_mismatches;

/* Children that failed: reported, the other figures are still printed,
 * and the exit status is 1. */
int child_failures;

/* Runs `cmd` and calls `line` for each `key value` line of its output.
 * Returns the exit status (or -1). */
int run_child(const char *cmd, void (*line)(const char *key, const char *value))
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
