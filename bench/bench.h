/* SPDX-License-Identifier: MIT */
/*
 * bench.h: the harness the sections of the benchmark share (main.c says
 * what the benchmark measures): the options, the timers and statistics,
 * the clock, the handles and their baseline, the hot cases, and each
 * section's figures, which report.c prints.
 *
 *   harness.c      options, timers, statistics, clock, handles, children
 *   baseline.c     the plain-C baseline of sections 1 and 2
 *   hot_calls.c    1. hot calls, one thread; 2. two threads
 *   unlock.c       3. unlock against crypto_pwhash
 *   allocations.c  4. heap allocations per call
 *   footprint.c    5. file sizes, NEEDED, dlopen
 *   python.c       6. the Python binding
 *   report.c       the table and the JSON
 *   main.c         the options and the order of the sections
 */
#ifndef IDLELOCK_BENCH_H
#define IDLELOCK_BENCH_H

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
/* Options (harness.c holds the defaults, main.c reads the command line)  */
/* ---------------------------------------------------------------------- */

struct bench_options {
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
    int list; /* --list: print the hot cases and exit */
};
extern struct bench_options opt;

/* ---------------------------------------------------------------------- */
/* Small helpers (harness.c)                                              */
/* ---------------------------------------------------------------------- */

#define MAX_ROUNDS 501

/* Prints `idlelock-bench: ...` on stderr and exits 1. */
void die(const char *fmt, ...);
int64_t now_ns(void);
/* CPU time of the calling thread: time the thread spent descheduled (the
 * machine is shared) does not count. Used for one-thread figures. */
int64_t cpu_ns(void);
/* Which side runs first in a round: random (xorshift, fixed seed). */
int lib_first(void);
/* The q-quantile (0..1) of n values, interpolated (sorts a copy). */
double quantile(const double *v, int n, double q);
double median(const double *v, int n);
double vmin(const double *v, int n);
/* Dies unless a call returned `want`. */
void expect(int got, int want, const char *what);

/* CLOCK_BOOTTIME in ms, computed as the library's default clock does: the
 * clock callback of the library and of the baselines. */
int64_t bench_clock(void *ctx);

/* Baselines whose snapshot differs from the library's, and children that
 * failed: each is reported, and the exit status is 1. */
extern int baseline_mismatches;
extern int child_failures;

/* Runs `cmd` and calls `line` for each `key value` line of its output.
 * Returns the exit status (or -1). */
int run_child(const char *cmd, void (*line)(const char *key, const char *value));

/* ---------------------------------------------------------------------- */
/* The baseline (baseline.c): the essential work of each call, in plain C */
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
    int32_t is_passcode_required; /* 1.2 */
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
    int64_t latest_reading; /* the latest reading a call judged at: an earlier one is a clock step */
    uint32_t clock_steps;   /* steps back seen (a biometric request begun before one expires) */
    int32_t live_prompts; /* prompts the app opened (1.1): the idle rule waits */
    int64_t earliest_prompt, prompt_cap; /* with live_prompts: the cap deadline */
    int32_t has_prompt_end;
    int64_t prompt_end; /* the last live prompt's end: covers an absence + grace */
    int32_t absence_covered; /* the absence began under a live prompt (1.1) */
    int32_t awaiting_start;  /* a stored session before its first start hands out nothing */
    int64_t warn_before; /* 1.1: 0 (off, the default) or the warning window */
    int32_t retry_running; /* 1.1: an escalating delay after wrong passcodes */
    int64_t retry_started, retry_period;
    int64_t passcode_required_from; /* 1.2: a passcode policy asks from then (INT64_MAX: never) */
    int64_t last_auth; /* 1.2: the last successful authentication (IDLELOCK_NEVER: none) */
    int32_t n_listeners, queued; /* listeners hear changes after the call */
    void *store; /* NULL: memory only (a store is re-read and saved to) */
    void *watcher;       /* NULL: no watcher thread (one would be shown each snapshot) */
    void *authenticator; /* NULL: none (foreground would ask it is_available first) */
    unsigned char key[64]; /* the AEAD key, then the name-id subkey */
    base_record records[1];
    size_t n_records;
} base_t;


void base_init(base_t *b, const uint8_t *secret);
int base_touch(base_t *b, idlelock_snapshot *out);
int base_check(base_t *b, idlelock_snapshot *out);
int base_snapshot_get(base_t *b, idlelock_snapshot *out);
int base_background(base_t *b, idlelock_snapshot *out);
int base_foreground(base_t *b, idlelock_snapshot *out);
int base_require_unlocked(base_t *b);
int base_secret_get(base_t *b, const char *name, uint8_t *buf, size_t *len);

/* ---------------------------------------------------------------------- */
/* The handles (harness.c)                                                */
/* ---------------------------------------------------------------------- */

extern idlelock *H;          /* sections 1, 2, 4: engaged, unlocked, memory only */
extern idlelock *H_prompted; /* the same after one prompt (1.1) opened and ended */
extern base_t B;             /* its baseline */
extern uint8_t SECRET[SECRET_BYTES];

/* An engaged handle with the bench's config (a store at `path`, or none). */
idlelock *make_handle(const char *path);

/* ---------------------------------------------------------------------- */
/* Sections 1 and 2: the hot cases (hot_calls.c)                          */
/* ---------------------------------------------------------------------- */

typedef struct {
    idlelock_snapshot snap;
    uint8_t buf[SECRET_BYTES];
} tctx;

typedef int (*op_fn)(tctx *);


/* One call of each side, on H or B (sections 1, 2 and 4). */
int lib_touch(tctx *t);
int bas_touch(tctx *t);
#if IDLELOCK_VERSION_NUMBER >= 10100
int lib_touch_prompted(tctx *t);
#endif
int lib_touch_out(tctx *t);
int bas_touch_out(tctx *t);
int lib_check(tctx *t);
int bas_check(tctx *t);
int lib_snapshot_get(tctx *t);
int bas_snapshot_get(tctx *t);
int lib_background(tctx *t);
int bas_background(tctx *t);
int lib_foreground(tctx *t);
int bas_foreground(tctx *t);
int lib_bgfg(tctx *t);
int bas_bgfg(tctx *t);
int lib_require(tctx *t);
int bas_require(tctx *t);
int lib_secret(tctx *t);
int bas_secret(tctx *t);

typedef struct {
    double lib_ns, base_ns; /* medians */
    double ratio;           /* median of the per-round ratios */
    double ratio_q1, ratio_q3;
    double ratio_of_minima; /* fastest lib round / fastest baseline round */
    long iters;
    int rounds;
} cmp_result;

typedef struct {
    const char *key;
    const char *label;
    op_fn lib, base;
    const char *lib_fn, *base_fn; /* their names (--list) */
    cmp_result one, two;
    int mismatch; /* the baseline's snapshot differs from the library's */
} hot_case;

extern hot_case HOT[];
extern const int N_HOT;

void tctx_init(tctx *t);
/* The medians and quartiles of `rounds` rounds of both sides. */
void summarize(cmp_result *c, const double *lib, const double *base, const double *ratio,
               int rounds, long iters);
void run_one_thread(hot_case *c);
void run_two_threads(hot_case *c);

/* ---------------------------------------------------------------------- */
/* Section 3: unlock (unlock.c)                                           */
/* ---------------------------------------------------------------------- */

extern idlelock *H_mem, *H_store;

typedef struct {
    cmp_result cmp; /* memory-only unlock against crypto_pwhash, CPU ms */
    double base_wall_ms, mem_wall_ms;
    double store_ms, store_extra_ms, store_extra_q1, store_extra_q3;
    long rss_before_kb, peak_kb, base_rss_before_kb, base_peak_kb;
    int rss_ok;
} unlock_figures;
extern unlock_figures U;

/* One crypto_pwhash: thread CPU ms, and wall ms in *wall. */
double time_pwhash(double *wall);
void run_unlock(void);

/* ---------------------------------------------------------------------- */
/* Section 4: heap allocations per call (allocations.c)                   */
/* ---------------------------------------------------------------------- */

typedef struct {
    const char *key;
    op_fn fn;
    int goal_zero;
    double allocs, bytes, frees;
} alloc_case;
extern alloc_case ALLOC[];
extern const int N_ALLOC;

typedef struct {
    int shim_ok;
    double create_destroy, unlock, unlock_bytes, pwhash, pwhash_bytes;
} alloc_figures;
extern alloc_figures A;

void run_alloc(void);

/* ---------------------------------------------------------------------- */
/* Section 5: footprint (footprint.c)                                     */
/* ---------------------------------------------------------------------- */

typedef struct {
    long size, stripped_size;
    char needed[8][64];
    int n_needed;
    char sodium[64];
    int probe_ok, unloaded, rounds;
    double sodium_us, sodium_init_us, idlelock_us, first_sodium_us, first_idlelock_us;
} footprint_figures;
extern footprint_figures F;

void run_footprint(void);

/* ---------------------------------------------------------------------- */
/* Section 6: the Python binding, a child process (python.c)              */
/* ---------------------------------------------------------------------- */

#define PY_MAX 16
typedef struct {
    int ok, failed, n;
    char key[PY_MAX][32];
    char value[PY_MAX][64];
} python_figures;
extern python_figures P;

/* The figure `key` the child printed (-1, or "", when it did not). */
double py_get(const char *key);
const char *py_str(const char *key);
void run_python(void);

/* ---------------------------------------------------------------------- */
/* Output (report.c)                                                      */
/* ---------------------------------------------------------------------- */

/* Hot calls over their baseline: one thread (section 1, also in
 * instructions: scripts/callgrind-hot.sh), two threads (section 2). */
#define HOT_GOAL_ONE 1.2
#define HOT_GOAL_TWO 1.5
#define UNLOCK_GOAL 1.05
#define STRIPPED_GOAL 200000L
#define PYTHON_GOAL 2.0

/* Reads the CPU model, the kernel and the number of CPUs. */
void machine(void);
/* sections_all: 0 when only section 1 ran (--only). */
void print_table(int sections_all);
void write_json(const char *path, int sections_all);

#endif
