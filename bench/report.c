/* SPDX-License-Identifier: MIT */
/*
 * report.c: the output: the table on stdout and the figures in JSON
 * (--json), with each goal of BENCHMARKS.md.
 */
#include "bench.h"

static char CPU[128] = "unknown";
static char KERNEL[256] = "unknown";
static long NCPU;

void machine(void)
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

/* A goal's verdict: none in a smoke run, whose tiny counts measure nothing. */
static const char *verdict(int met)
{
    if (opt.smoke) {
        return "-";
    }
    return met ? "met" : "MISSED";
}

/* The same in the JSON: null in a smoke run. */
static const char *json_met(int met)
{
    if (opt.smoke) {
        return "null";
    }
    return met ? "true" : "false";
}

static void print_cmp_header(void)
{
    printf("   %-28s %9s %9s %9s %7s %13s %7s %9s  %s\n", "call", "lib ns", "base ns", "lib-base",
           "ratio", "(q1..q3)", "min/min", "calls", "goal");
}

static void print_cmp_row(const hot_case *c, const cmp_result *r, double goal)
{
    printf("   %-28s %9.1f %9.1f %+9.1f %6.2fx %6.2f..%-6.2f %6.2fx %9ld  %s\n", c->label,
           r->lib_ns, r->base_ns, r->lib_ns - r->base_ns, r->ratio, r->ratio_q1, r->ratio_q3,
           r->ratio_of_minima, r->iters,
           c->mismatch ? "BASELINE MISMATCH" : verdict(r->ratio <= goal));
}

void print_table(int sections_all)
{
    int i;
    printf("\nlibidlelock %s benchmarks: %ld CPUs (%s), %s, libsodium %s\n", idlelock_version(),
           NCPU, CPU, KERNEL, sodium_version_string());
    if (opt.smoke) {
        printf("Smoke run (--smoke): every section once with tiny counts, to show that the\n"
               "benchmark builds and runs. The figures measure nothing and no goal is judged.\n");
    }
    printf("The library and each baseline use the same clock callback (CLOCK_BOOTTIME in ms).\n"
           "Each round runs both sides, in random order; ratio = median of the per-round\n"
           "ratios lib/baseline, (q1..q3) their quartiles, min/min = fastest lib round /\n"
           "fastest baseline round.\n");
    printf("\n1. Hot calls, one thread: thread CPU ns per call (medians of %d rounds).\n"
           "   Goal: ratio <= %.2fx.\n",
           opt.rounds, HOT_GOAL_ONE);
    print_cmp_header();
    for (i = 0; i < N_HOT; i++) {
        if (HOT[i].one.rounds > 0) {
            print_cmp_row(&HOT[i], &HOT[i].one, HOT_GOAL_ONE);
        }
    }
    if (!sections_all) {
        return;
    }
    printf("\n2. Two threads on one handle (the baseline: two threads on one baseline): ns of\n"
           "   wall time per call, both threads together (1/throughput). Goal: ratio <= %.2fx.\n",
           HOT_GOAL_TWO);
    print_cmp_header();
    for (i = 0; i < N_HOT; i++) {
        print_cmp_row(&HOT[i], &HOT[i].two, HOT_GOAL_TWO);
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
            r->rounds, goal, json_met(r->ratio <= goal),
            mismatch ? ", \"baseline_mismatch\": true" : "");
}

void write_json(const char *path, int sections_all)
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
        json_cmp(f, &HOT[i].one, HOT_GOAL_ONE, HOT[i].mismatch);
    }
    fprintf(f, "\n  }");
    if (sections_all) {
        fprintf(f, ",\n  \"two_threads\": {");
        for (i = 0; i < N_HOT; i++) {
            fprintf(f, "%s\n    \"%s\": ", i ? "," : "", HOT[i].key);
            json_cmp(f, &HOT[i].two, HOT_GOAL_TWO, HOT[i].mismatch);
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
                    json_met(!c->goal_zero || (A.shim_ok && c->allocs == 0)));
        }
        fprintf(f, "\n  }, \"create_destroy\": %.0f, \"unlock\": %.0f, \"unlock_bytes\": %.0f, "
                   "\"pwhash\": %.0f, \"pwhash_bytes\": %.0f},\n",
                A.create_destroy, A.unlock, A.unlock_bytes, A.pwhash, A.pwhash_bytes);
        fprintf(f, "  \"footprint\": {\"file_bytes\": %ld, \"stripped_bytes\": %ld, \"stripped_goal\": %ld, "
                   "\"met\": %s, \"needed\": [",
                F.size, F.stripped_size, STRIPPED_GOAL,
                json_met(F.stripped_size > 0 && F.stripped_size <= STRIPPED_GOAL));
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
                    json_met(ratio <= PYTHON_GOAL));
        }
    }
    fprintf(f, "\n}\n");
    if (fclose(f) != 0) {
        die("cannot write %s", path);
    }
}
