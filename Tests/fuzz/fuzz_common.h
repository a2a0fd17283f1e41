/* SPDX-License-Identifier: MIT */
/*
 * fuzz_common.h: helpers shared by the libFuzzer harnesses of libidlelock
 * (fuzz_api.c, fuzz_store.c): an input reader, a UTF-8 validator with the
 * library's rules (an oracle), a scratch folder for store files, and FAIL.
 * Header-only (static functions); not part of the library.
 */
#ifndef IDLELOCK_FUZZ_COMMON_H
#define IDLELOCK_FUZZ_COMMON_H

#include <dirent.h>
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "idlelock.h"

/* An oracle failed: print why and abort (libFuzzer reports a crash and
 * saves the input). */
#define FAIL(...)                                                            \
    do {                                                                     \
        fprintf(stderr, "FUZZ ORACLE FAILED (%s:%d): ", __FILE__, __LINE__); \
        fprintf(stderr, __VA_ARGS__);                                        \
        fprintf(stderr, "\n  last_error: %s\n", idlelock_last_error());      \
        abort();                                                             \
    } while (0)

#define REQUIRE(cond, ...)        \
    do {                          \
        if (!(cond)) FAIL(__VA_ARGS__); \
    } while (0)

/* Reads the fuzz input front to back; past the end every read is 0. */
typedef struct reader {
    const uint8_t *p;
    size_t n;
} reader;

static inline uint8_t rd_u8(reader *r)
{
    uint8_t v;
    if (r->n == 0) return 0;
    v = r->p[0];
    r->p++;
    r->n--;
    return v;
}

static inline uint16_t rd_u16(reader *r)
{
    uint16_t v = rd_u8(r);
    return (uint16_t)(v | (uint16_t)rd_u8(r) << 8);
}

static inline uint32_t rd_u32(reader *r)
{
    uint32_t v = rd_u16(r);
    return v | (uint32_t)rd_u16(r) << 16;
}

static inline uint64_t rd_u64(reader *r)
{
    uint64_t v = rd_u32(r);
    return v | (uint64_t)rd_u32(r) << 32;
}

/* Up to `want` bytes of the input (fewer at its end); returns how many. */
static inline size_t rd_take(reader *r, size_t want, const uint8_t **out)
{
    size_t k = want < r->n ? want : r->n;
    *out = r->p;
    r->p += k;
    r->n -= k;
    return k;
}

/* A heap copy of exactly `n` bytes (at least one byte is allocated, so the
 * pointer is never NULL), so that AddressSanitizer sees any read past the
 * length the library was given. */
static inline uint8_t *exact_copy(const uint8_t *src, size_t n)
{
    uint8_t *p = malloc(n == 0 ? 1 : n);
    if (p == NULL) abort();
    if (n > 0) memcpy(p, src, n);
    return p;
}

/* The number of Unicode scalar values in well-formed UTF-8, or -1: the
 * library's rules (Unicode §3.9 Table 3-7: no overlong forms, no
 * surrogates, nothing above U+10FFFF, no truncated sequence). */
static inline long utf8_scalars(const uint8_t *s, size_t n)
{
    size_t i = 0;
    long scalars = 0;
    while (i < n) {
        uint8_t b0 = s[i];
        size_t len;
        uint8_t lo = 0x80, hi = 0xBF;
        if (b0 <= 0x7F) len = 1;
        else if (b0 >= 0xC2 && b0 <= 0xDF) len = 2;
        else if (b0 == 0xE0) { len = 3; lo = 0xA0; }
        else if ((b0 >= 0xE1 && b0 <= 0xEC) || b0 == 0xEE || b0 == 0xEF) len = 3;
        else if (b0 == 0xED) { len = 3; hi = 0x9F; }
        else if (b0 == 0xF0) { len = 4; lo = 0x90; }
        else if (b0 >= 0xF1 && b0 <= 0xF3) len = 4;
        else if (b0 == 0xF4) { len = 4; hi = 0x8F; }
        else return -1;
        if (len > n - i) return -1;
        if (len > 1) {
            size_t k;
            if (s[i + 1] < lo || s[i + 1] > hi) return -1;
            for (k = 2; k < len; k++) {
                if (s[i + k] < 0x80 || s[i + k] > 0xBF) return -1;
            }
        }
        i += len;
        scalars++;
    }
    return scalars;
}

/* A private folder for store files, made once per process inside
 * $IDLELOCK_FUZZ_DIR (mk/verify.mk makes one per run under /dev/shm and
 * removes it afterwards: libFuzzer ends a run with _Exit, which skips
 * atexit), else inside /dev/shm when it exists (fsync is then cheap), else
 * /tmp. */
static char fuzz_dir[128];

static inline void fuzz_dir_clear(void)
{
    DIR *d = opendir(fuzz_dir);
    struct dirent *e;
    char path[512];
    if (d == NULL) return;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        snprintf(path, sizeof path, "%s/%s", fuzz_dir, e->d_name);
        if (unlink(path) != 0) { /* a folder made as a store path: empty */
            chmod(path, 0700);
            rmdir(path);
        }
    }
    closedir(d);
}

static inline void fuzz_dir_remove(void)
{
    fuzz_dir_clear();
    rmdir(fuzz_dir);
}

static inline const char *fuzz_dir_get(void)
{
    if (fuzz_dir[0] == '\0') {
        struct stat st;
        const char *base = getenv("IDLELOCK_FUZZ_DIR");
        if (base == NULL || base[0] == '\0')
            base = stat("/dev/shm", &st) == 0 && S_ISDIR(st.st_mode) ? "/dev/shm" : "/tmp";
        snprintf(fuzz_dir, sizeof fuzz_dir, "%s/idlelock-fuzz-XXXXXX", base);
        if (mkdtemp(fuzz_dir) == NULL) {
            perror("mkdtemp");
            abort();
        }
        atexit(fuzz_dir_remove);
    }
    return fuzz_dir;
}

/* A status the library knows: codes are append-only, so "known" is what
 * idlelock_status_name names. */
static inline int valid_status(int st)
{
    return st >= IDLELOCK_OK && strcmp(idlelock_status_name(st), "IDLELOCK_ERR_UNKNOWN") != 0;
}

#define END_OF(type, field) (offsetof(type, field) + sizeof(((type *)0)->field))
/* The 1.0 struct sizes: the smallest a host may pass. */
#define SNAPSHOT_V1_SIZE END_OF(idlelock_snapshot, ms_until_idle_lock)
#define CONFIG_V1_SIZE END_OF(idlelock_config, device_key_len)

/* Checks the fields of a snapshot the library filled; `size` is what the
 * caller passed (fields past it were not written). */
static inline void check_snapshot_sized(const idlelock_snapshot *s, size_t size, int max_attempts_bound)
{
    REQUIRE(s->state >= IDLELOCK_STATE_UNLOCKED && s->state <= IDLELOCK_STATE_LOCKED_OUT,
            "snapshot state %d", (int)s->state);
    REQUIRE(s->reason >= IDLELOCK_REASON_NONE && s->reason <= IDLELOCK_REASON_CLOCK,
            "snapshot reason %d", (int)s->reason);
    REQUIRE((s->is_enabled | s->is_biometrics_enabled | s->is_biometrics_available | s->is_away) >= 0 &&
                s->is_enabled <= 1 && s->is_biometrics_enabled <= 1 && s->is_biometrics_available <= 1 &&
                s->is_away <= 1,
            "snapshot flags %d %d %d %d", (int)s->is_enabled, (int)s->is_biometrics_enabled,
            (int)s->is_biometrics_available, (int)s->is_away);
    REQUIRE(s->attempts_remaining >= 0 && s->attempts_remaining <= max_attempts_bound,
            "attempts_remaining %d (bound %d)", (int)s->attempts_remaining, max_attempts_bound);
    REQUIRE(s->state != IDLELOCK_STATE_LOCKED_OUT || s->attempts_remaining == 0,
            "LOCKED_OUT with %d attempts remaining", (int)s->attempts_remaining);
    REQUIRE(s->is_enabled || (s->state == IDLELOCK_STATE_UNLOCKED && s->reason == IDLELOCK_REASON_NONE),
            "not engaged but state %d reason %d", (int)s->state, (int)s->reason);
    REQUIRE(s->state == IDLELOCK_STATE_UNLOCKED || s->ms_until_idle_lock == IDLELOCK_NEVER,
            "locked but ms_until_idle_lock %lld", (long long)s->ms_until_idle_lock);
    REQUIRE(s->ms_until_idle_lock >= 0, "ms_until_idle_lock %lld", (long long)s->ms_until_idle_lock);
    REQUIRE(s->is_biometrics_enabled == 0 || s->is_enabled, "biometrics enabled without a passcode");
    if (size >= END_OF(idlelock_snapshot, ms_until_next_deadline)) {
        REQUIRE(s->is_warning == 0 || s->is_warning == 1, "is_warning %d", (int)s->is_warning);
        REQUIRE(s->reserved1 == 0, "reserved1 %d", (int)s->reserved1);
        REQUIRE(s->ms_until_warning >= 0, "ms_until_warning %lld", (long long)s->ms_until_warning);
        REQUIRE(s->ms_until_next_deadline >= 0, "ms_until_next_deadline %lld", (long long)s->ms_until_next_deadline);
        REQUIRE(s->ms_until_retry >= 0, "ms_until_retry %lld", (long long)s->ms_until_retry);
        REQUIRE(!s->is_warning || s->state == IDLELOCK_STATE_UNLOCKED, "is_warning while locked");
        REQUIRE(!s->is_warning || s->ms_until_warning == 0, "is_warning but ms_until_warning %lld",
                (long long)s->ms_until_warning);
    }
    if (size >= END_OF(idlelock_snapshot, last_auth_ms)) { /* 1.2 */
        REQUIRE(s->is_passcode_required == 0 || s->is_passcode_required == 1, "is_passcode_required %d",
                (int)s->is_passcode_required);
        REQUIRE(s->reserved2 == 0, "reserved2 %d", (int)s->reserved2);
        REQUIRE(!s->is_passcode_required || s->is_enabled, "passcode required without a passcode");
        REQUIRE(s->is_enabled || s->last_auth_ms == IDLELOCK_NEVER, "an authentication without a passcode");
    }
}

static inline void check_snapshot(const idlelock_snapshot *s, int max_attempts_bound)
{
    check_snapshot_sized(s, s->size, max_attempts_bound);
}

#endif
