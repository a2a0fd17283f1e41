/* SPDX-License-Identifier: MIT */
/*
 * idlelock-bench: the benchmarks of libidlelock (see BENCHMARKS.md).
 *
 * Links the shipped build/libidlelock.so.1 and measures, in one process,
 * each figure as a ratio against a baseline measured next to it (rounds
 * alternate the two sides in random order), so that a noisy machine
 * cancels out:
 *
 *   1. thread CPU ns per hot call (touch, check, snapshot_get, a
 *      background+foreground pair within grace, require_unlocked, secret_get
 *      of 1 KiB) against a plain-C baseline (baseline.c) that does the
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
 *
 * The files: bench.h lists them and what they share (harness.c); each
 * section is a file; this one reads the options and runs the sections in
 * order.
 */
#include "bench.h"

static void usage(void)
{
    puts("usage: idlelock-bench [--smoke] [--iters N] [--rounds N] [--target-ms MS]\n"
         "         [--unlock-rounds N] [--dl-rounds N] [--alloc-calls N]\n"
         "         [--py-iters N] [--py-rounds N] [--lib PATH] [--stripped PATH]\n"
         "         [--probe PATH] [--python CMD] [--tmpdir DIR] [--json PATH]\n"
         "         [--only CASE] [--list]\n"
         "--smoke: every section once with tiny counts (make bench-smoke).\n"
         "--only CASE: only section 1 for CASE (touch, touch_after_prompt, touch_out,\n"
         "  check, snapshot_get, background_foreground, require_unlocked, secret_get),\n"
         "  for valgrind --tool=callgrind; see BENCHMARKS.md.\n"
         "--list: print each case of section 1 as `key library-function baseline-function label`\n"
         "  (scripts/callgrind-hot.sh counts their instructions) and exit.");
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

/* The options that take a value, and where it goes. */
enum value_kind { AS_INT, AS_LONG, AS_DOUBLE, AS_TEXT };
static const struct {
    const char *name;
    enum value_kind kind;
    void *dest;
} VALUE_OPTIONS[] = {
    {"--iters", AS_LONG, &opt.iters},
    {"--rounds", AS_INT, &opt.rounds},
    {"--target-ms", AS_DOUBLE, &opt.target_ms},
    {"--unlock-rounds", AS_INT, &opt.unlock_rounds},
    {"--dl-rounds", AS_INT, &opt.dl_rounds},
    {"--alloc-calls", AS_LONG, &opt.alloc_calls},
    {"--py-iters", AS_LONG, &opt.py_iters},
    {"--py-rounds", AS_INT, &opt.py_rounds},
    {"--lib", AS_TEXT, &opt.lib},
    {"--stripped", AS_TEXT, &opt.stripped},
    {"--probe", AS_TEXT, &opt.probe},
    {"--python", AS_TEXT, &opt.python},
    {"--tmpdir", AS_TEXT, &opt.tmpdir},
    {"--json", AS_TEXT, &opt.json},
    {"--only", AS_TEXT, &opt.only},
};

/* argv[*i] is an option that takes a value: store it (moving *i past it)
 * and return 1; else return 0. */
static int value_option(int argc, char **argv, int *i)
{
    size_t k;
    for (k = 0; k < sizeof VALUE_OPTIONS / sizeof VALUE_OPTIONS[0]; k++) {
        const char *v;
        if (strcmp(argv[*i], VALUE_OPTIONS[k].name) != 0) {
            continue;
        }
        v = arg_value(argc, argv, i);
        switch (VALUE_OPTIONS[k].kind) {
        case AS_INT:
            *(int *)VALUE_OPTIONS[k].dest = atoi(v);
            break;
        case AS_LONG:
            *(long *)VALUE_OPTIONS[k].dest = atol(v);
            break;
        case AS_DOUBLE:
            *(double *)VALUE_OPTIONS[k].dest = atof(v);
            break;
        case AS_TEXT:
            *(const char **)VALUE_OPTIONS[k].dest = v;
            break;
        }
        return 1;
    }
    return 0;
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
        } else if (strcmp(a, "--list") == 0) {
            opt.list = 1;
        } else if (value_option(argc, argv, &i)) {
            continue;
        } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage();
            return 0;
        } else {
            usage();
            die("unknown option %s", a);
        }
    }
    if (opt.list) {
        for (i = 0; i < N_HOT; i++) {
            printf("%s %s %s %s\n", HOT[i].key, HOT[i].lib_fn, HOT[i].base_fn, HOT[i].label);
        }
        return 0;
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
                "fix bench/baseline.c\n", baseline_mismatches);
    }
    return child_failures > 0 || baseline_mismatches > 0;
}
