/* SPDX-License-Identifier: MIT */
/*
 * unlock.c: section 3: unlock with the right passcode (memory-only
 * handle) against a bare crypto_pwhash with the same parameters; the
 * store's extra cost; the peak RSS during an unlock.
 */
#include "bench.h"

unlock_figures U;
idlelock *H_mem, *H_store;
static unsigned char SALT[crypto_pwhash_SALTBYTES];

/* One crypto_pwhash: thread CPU ms, and wall ms in *wall. */
double time_pwhash(double *wall)
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

void run_unlock(void)
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
