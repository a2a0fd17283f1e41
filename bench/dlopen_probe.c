/* SPDX-License-Identifier: MIT */
/*
 * dlopen_probe.c: the load-time figures of bench/footprint.c (section 5).
 *
 * The benchmark itself links libidlelock and libsodium, so a dlopen there
 * would only raise a reference count. This program links neither; the
 * benchmark runs it and reads its output. Each round, in alternating order:
 *
 *   sodium       dlopen(libsodium) + dlclose
 *   sodium_init  dlopen(libsodium) + sodium_init() + dlclose
 *   idlelock     dlopen(libidlelock) + idlelock_config_init + idlelock_create
 *                + idlelock_destroy + dlclose (libsodium comes with it)
 *
 * Both libraries really unload at dlclose (checked with RTLD_NOLOAD and
 * reported as `unloaded`), so every round maps, relocates and initialises
 * them again; the files stay in the page cache.
 *
 * Usage: dlopen-probe LIBIDLELOCK LIBSODIUM_SONAME ROUNDS
 * Output: `key value` lines (medians and first rounds in ns).
 */
#define _GNU_SOURCE 1
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "idlelock.h"

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void die(const char *what, const char *detail)
{
    fprintf(stderr, "dlopen-probe: %s: %s\n", what, detail != NULL ? detail : "");
    exit(1);
}

/* dlsym into a function pointer without an object-to-function cast. */
static void sym(void *handle, const char *name, void *fp, size_t size)
{
    void *p = dlsym(handle, name);
    if (p == NULL) {
        die("dlsym", name);
    }
    memcpy(fp, &p, size);
}

static const char *lib_path;
static const char *sodium_name;

static int64_t run_sodium(int with_init)
{
    int64_t t0 = now_ns();
    void *h = dlopen(sodium_name, RTLD_NOW | RTLD_LOCAL);
    if (h == NULL) {
        die("dlopen libsodium", dlerror());
    }
    if (with_init) {
        int (*init)(void);
        sym(h, "sodium_init", &init, sizeof init);
        if (init() < 0) {
            die("sodium_init", "failed");
        }
    }
    dlclose(h);
    return now_ns() - t0;
}

static int64_t run_idlelock(void)
{
    int (*config_init)(idlelock_config *, size_t);
    int (*create)(const idlelock_config *, idlelock **);
    void (*destroy)(idlelock *);
    idlelock_config cfg;
    idlelock *lock = NULL;
    int64_t t0 = now_ns();
    void *h = dlopen(lib_path, RTLD_NOW | RTLD_LOCAL);
    if (h == NULL) {
        die("dlopen libidlelock", dlerror());
    }
    sym(h, "idlelock_config_init", &config_init, sizeof config_init);
    sym(h, "idlelock_create", &create, sizeof create);
    sym(h, "idlelock_destroy", &destroy, sizeof destroy);
    if (config_init(&cfg, sizeof cfg) != IDLELOCK_OK) {
        die("idlelock_config_init", "failed");
    }
    cfg.idle_after_ms = 300000;
    cfg.kdf_memlimit = IDLELOCK_KDF_MEMLIMIT_MIN;
    if (create(&cfg, &lock) != IDLELOCK_OK) {
        die("idlelock_create", "failed");
    }
    destroy(lock);
    dlclose(h);
    return now_ns() - t0;
}

static int cmp64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static int64_t median(int64_t *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp64);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static int still_loaded(const char *name)
{
    void *h = dlopen(name, RTLD_NOW | RTLD_NOLOAD);
    if (h == NULL) {
        return 0;
    }
    dlclose(h);
    return 1;
}

int main(int argc, char **argv)
{
    int rounds, i;
    int64_t *a, *b, *c, first_a = 0, first_b = 0, first_c = 0;
    if (argc != 4) {
        fprintf(stderr, "usage: dlopen-probe LIBIDLELOCK LIBSODIUM_SONAME ROUNDS\n");
        return 2;
    }
    lib_path = argv[1];
    sodium_name = argv[2];
    rounds = atoi(argv[3]);
    if (rounds < 1) {
        rounds = 1;
    }
    a = calloc((size_t)rounds, sizeof *a);
    b = calloc((size_t)rounds, sizeof *b);
    c = calloc((size_t)rounds, sizeof *c);
    if (a == NULL || b == NULL || c == NULL) {
        die("calloc", "failed");
    }
    for (i = 0; i < rounds; i++) {
        switch (i % 3) {
        case 0:
            a[i] = run_sodium(0);
            b[i] = run_sodium(1);
            c[i] = run_idlelock();
            break;
        case 1:
            c[i] = run_idlelock();
            a[i] = run_sodium(0);
            b[i] = run_sodium(1);
            break;
        default:
            b[i] = run_sodium(1);
            c[i] = run_idlelock();
            a[i] = run_sodium(0);
            break;
        }
        if (i == 0) {
            first_a = a[0];
            first_b = b[0];
            first_c = c[0];
        }
    }
    printf("unloaded %d\n", !still_loaded(lib_path) && !still_loaded(sodium_name));
    printf("rounds %d\n", rounds);
    printf("sodium_ns %lld\n", (long long)median(a, rounds));
    printf("sodium_init_ns %lld\n", (long long)median(b, rounds));
    printf("idlelock_ns %lld\n", (long long)median(c, rounds));
    printf("first_sodium_ns %lld\n", (long long)first_a);
    printf("first_sodium_init_ns %lld\n", (long long)first_b);
    printf("first_idlelock_ns %lld\n", (long long)first_c);
    free(a);
    free(b);
    free(c);
    return 0;
}
