/* SPDX-License-Identifier: MIT */
/*
 * allocations.c: section 4: heap allocations per hot call, counted by
 * the malloc-counting shim (malloc_count.c), and for unlock and a bare
 * crypto_pwhash for comparison.
 */
#include "bench.h"

alloc_figures A;

alloc_case ALLOC[] = {
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
const int N_ALLOC = (int)(sizeof ALLOC / sizeof ALLOC[0]);

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

void run_alloc(void)
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
