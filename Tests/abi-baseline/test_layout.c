/* SPDX-License-Identifier: MIT */
/*
 * test_layout.c: the public structs' layout against the committed ABI
 * baseline of libidlelock.so.1.
 *
 * Every field of idlelock_config, idlelock_snapshot, idlelock_authenticator
 * and idlelock_delay_step has its offset and size recorded below, for LP64
 * (x86-64, aarch64), for i386 (int64_t aligned to 4 inside structs) and for
 * the other ILP32 ABIs (armhf, mips: int64_t aligned to 8). The column for
 * the target is chosen by the preprocessor; the i386 and ILP32 columns are
 * also checked at compile time by Tests/abi-baseline/check-abi.sh (clang -target
 * ... -DLAYOUT_STATIC -fsyntax-only), when a clang is on PATH.
 *
 * The rule this enforces: an incompatible change (a field moved, resized,
 * removed or retyped, a struct made smaller, a symbol removed) fails here
 * unless the baseline (LAYOUT_BASELINE_MAJOR below, the tables, and
 * Tests/abi-baseline/exported-symbols.txt) and the soname (IDLELOCK_VERSION_MAJOR,
 * libidlelock.so.N) are bumped together. A compatible addition (a field
 * appended after the last one, a new function) also fails until the
 * baseline records it, without a major bump: add its row and the new
 * sizeof, keep the v1 rows, and bump IDLELOCK_VERSION_MINOR.
 *
 * Also checked: idlelock_config_size(), idlelock_snapshot_size() and (1.2)
 * idlelock_authenticator_size() and idlelock_delay_step_size() agree with
 * sizeof, the header's major agrees with the library's and with the
 * baseline, and a host built against the 1.0 or the 1.1 header (struct
 * sizes ending at that version's last field, or at the padding after it)
 * still works.
 *
 * Prints one line per check and "N passed, N failed".
 */
#include <stddef.h>
#include <stdint.h>

#include "idlelock.h"

/* The ABI major the tables below describe. Bump it together with
 * IDLELOCK_VERSION_MAJOR, the soname and exported-symbols.txt. */
#define LAYOUT_BASELINE_MAJOR 1

#if UINTPTR_MAX == 0xffffffffffffffffu
#define COL(lp64, i386, ilp32) (lp64)
#define LAYOUT_ABI "LP64"
#elif defined(__i386__)
#define COL(lp64, i386, ilp32) (i386)
#define LAYOUT_ABI "i386"
#elif UINTPTR_MAX == 0xffffffffu
#define COL(lp64, i386, ilp32) (ilp32)
#define LAYOUT_ABI "ILP32"
#else
#error "no recorded layout for this data model"
#endif

#define FIELD_SIZE(type, field) sizeof(((type *)0)->field)

/* X(type, field, offset LP64, i386, ILP32, size LP64, i386, ILP32) */
#define LAYOUT_FIELDS(X)                                                         \
    X(idlelock_authenticator, size, 0, 0, 0, 4, 4, 4)                            \
    X(idlelock_authenticator, reserved0, 4, 4, 4, 4, 4, 4)                       \
    X(idlelock_authenticator, ctx, 8, 8, 8, 8, 4, 4)                             \
    X(idlelock_authenticator, is_available, 16, 12, 12, 8, 4, 4)                 \
    X(idlelock_authenticator, store_secret, 24, 16, 16, 8, 4, 4)                 \
    X(idlelock_authenticator, load_secret, 32, 20, 20, 8, 4, 4)                  \
    X(idlelock_authenticator, delete_secret, 40, 24, 24, 8, 4, 4)                \
    X(idlelock_config, size, 0, 0, 0, 4, 4, 4)                                   \
    X(idlelock_config, lock_on_start, 4, 4, 4, 4, 4, 4)                          \
    X(idlelock_config, idle_after_ms, 8, 8, 8, 8, 8, 8)                          \
    X(idlelock_config, background_after_ms, 16, 16, 16, 8, 8, 8)                 \
    X(idlelock_config, inactive_after_ms, 24, 24, 24, 8, 8, 8)                   \
    X(idlelock_config, grace_ms, 32, 32, 32, 8, 8, 8)                            \
    X(idlelock_config, max_attempts, 40, 40, 40, 4, 4, 4)                        \
    X(idlelock_config, reserved0, 44, 44, 44, 4, 4, 4)                           \
    X(idlelock_config, kdf_opslimit, 48, 48, 48, 8, 8, 8)                        \
    X(idlelock_config, kdf_memlimit, 56, 56, 56, 8, 8, 8)                        \
    X(idlelock_config, store_path, 64, 64, 64, 8, 4, 4)                          \
    X(idlelock_config, clock, 72, 68, 68, 8, 4, 4)                               \
    X(idlelock_config, clock_ctx, 80, 72, 72, 8, 4, 4)                           \
    X(idlelock_config, authenticator, 88, 76, 76, 8, 4, 4)                       \
    X(idlelock_config, unlock_reason, 96, 80, 80, 8, 4, 4)                       \
    X(idlelock_config, device_key, 104, 84, 84, 8, 4, 4)                         \
    X(idlelock_config, device_key_len, 112, 88, 88, 8, 4, 4)                     \
    /* 1.1: appended after the 1.0 fields */                                     \
    X(idlelock_config, prompt_cap_ms, 120, 92, 96, 8, 8, 8)                      \
    X(idlelock_config, warn_before_ms, 128, 100, 104, 8, 8, 8)                   \
    X(idlelock_config, delay_schedule, 136, 108, 112, 8, 4, 4)                   \
    X(idlelock_config, delay_schedule_len, 144, 112, 116, 8, 4, 4)               \
    /* 1.2: appended after the 1.1 fields */                                     \
    X(idlelock_config, passcode_max_age_ms, 152, 116, 120, 8, 8, 8)              \
    X(idlelock_config, passcode_after_reboot, 160, 124, 128, 4, 4, 4)            \
    X(idlelock_config, biometric_max_uses, 164, 128, 132, 4, 4, 4)               \
    X(idlelock_snapshot, size, 0, 0, 0, 4, 4, 4)                                 \
    X(idlelock_snapshot, state, 4, 4, 4, 4, 4, 4)                                \
    X(idlelock_snapshot, seq, 8, 8, 8, 8, 8, 8)                                  \
    X(idlelock_snapshot, reason, 16, 16, 16, 4, 4, 4)                            \
    X(idlelock_snapshot, is_enabled, 20, 20, 20, 4, 4, 4)                        \
    X(idlelock_snapshot, is_biometrics_enabled, 24, 24, 24, 4, 4, 4)             \
    X(idlelock_snapshot, is_biometrics_available, 28, 28, 28, 4, 4, 4)           \
    X(idlelock_snapshot, is_away, 32, 32, 32, 4, 4, 4)                           \
    X(idlelock_snapshot, attempts_remaining, 36, 36, 36, 4, 4, 4)                \
    X(idlelock_snapshot, last_activity_ms, 40, 40, 40, 8, 8, 8)                  \
    X(idlelock_snapshot, ms_until_idle_lock, 48, 48, 48, 8, 8, 8)                \
    /* 1.1: appended after the 1.0 fields */                                     \
    X(idlelock_snapshot, is_warning, 56, 56, 56, 4, 4, 4)                        \
    X(idlelock_snapshot, reserved1, 60, 60, 60, 4, 4, 4)                         \
    X(idlelock_snapshot, ms_until_warning, 64, 64, 64, 8, 8, 8)                  \
    X(idlelock_snapshot, ms_until_retry, 72, 72, 72, 8, 8, 8)                    \
    X(idlelock_snapshot, ms_until_next_deadline, 80, 80, 80, 8, 8, 8)            \
    /* 1.2 */                                                                    \
    X(idlelock_snapshot, is_passcode_required, 88, 88, 88, 4, 4, 4)              \
    X(idlelock_snapshot, reserved2, 92, 92, 92, 4, 4, 4)                         \
    X(idlelock_snapshot, last_auth_ms, 96, 96, 96, 8, 8, 8)                      \
    /* 1.1 */                                                                    \
    X(idlelock_delay_step, failed_attempts, 0, 0, 0, 4, 4, 4)                    \
    X(idlelock_delay_step, reserved0, 4, 4, 4, 4, 4, 4)                          \
    X(idlelock_delay_step, delay_ms, 8, 8, 8, 8, 8, 8)

/* X(type, sizeof LP64, i386, ILP32, end of the 1.0 fields LP64, i386, ILP32:
 * the smallest size a host may pass) */
#define LAYOUT_SIZES(X)                                      \
    X(idlelock_authenticator, 48, 28, 28, 48, 28, 28)        \
    X(idlelock_config, 168, 132, 136, 120, 92, 92)           \
    X(idlelock_snapshot, 104, 104, 104, 56, 56, 56)          \
    X(idlelock_delay_step, 16, 16, 16, 16, 16, 16)

#ifdef LAYOUT_STATIC
/* Compile-time only (cross targets, -fsyntax-only): a mismatch is an array
 * of negative size. */
#define STATIC_FIELD(type, field, o1, o2, o3, s1, s2, s3)                                   \
    typedef char layout_off_##type##_##field[offsetof(type, field) == COL(o1, o2, o3) ? 1 : -1]; \
    typedef char layout_size_##type##_##field[FIELD_SIZE(type, field) == COL(s1, s2, s3) ? 1 : -1];
#define STATIC_SIZE(type, s1, s2, s3, e1, e2, e3) \
    typedef char layout_sizeof_##type[sizeof(type) == COL(s1, s2, s3) ? 1 : -1];
LAYOUT_FIELDS(STATIC_FIELD)
LAYOUT_SIZES(STATIC_SIZE)
typedef char layout_major[IDLELOCK_VERSION_MAJOR == LAYOUT_BASELINE_MAJOR ? 1 : -1];
#else

#include <stdio.h>
#include <string.h>

static unsigned passed, failed;

static void check(int ok, const char *fmt, const char *a, const char *b, unsigned long got, unsigned long want)
{
    if (ok) passed++;
    else failed++;
    printf(ok ? "ok   " : "FAIL ");
    printf(fmt, a, b, got, want);
    printf("\n");
}

static int64_t fixed_clock(void *ctx)
{
    (void)ctx;
    return 1000;
}

static int32_t a_available(void *ctx) { (void)ctx; return 0; }
static int32_t a_store(void *ctx, const uint8_t *s, size_t n) { (void)ctx; (void)s; (void)n; return -1; }
static int32_t a_load(void *ctx, const char *r, uint8_t *o, size_t c, size_t *n)
{
    (void)ctx; (void)r; (void)o; (void)c; (void)n;
    return IDLELOCK_AUTH_UNAVAILABLE;
}
static int32_t a_delete(void *ctx) { (void)ctx; return 0; }

/* A host built against an earlier header: it passes that header's sizes
 * (`who` names it in the output). */
static void old_host(const char *who, size_t cfg_v1, size_t snap_v1, size_t auth_v1)
{
    union {
        idlelock_config cfg;
        unsigned char bytes[512];
    } c;
    idlelock_authenticator auth;
    union {
        idlelock_snapshot s;
        unsigned char bytes[512];
    } s;
    idlelock *h = NULL;
    int st, tail_ok = 1;
    size_t i;

    memset(&c, 0xAB, sizeof c);
    st = idlelock_config_init(&c.cfg, cfg_v1);
    check(st == IDLELOCK_OK && c.cfg.size == cfg_v1, "%s%s: config_init(%lu) (want size %lu)", who, "",
          (unsigned long)cfg_v1, (unsigned long)cfg_v1);
    for (i = cfg_v1; i < sizeof c.bytes; i++) {
        if (c.bytes[i] != 0xAB) tail_ok = 0;
    }
    check(tail_ok, "%s%s: config_init wrote nothing past the %lu bytes it was given (%lu)", who, "",
          (unsigned long)cfg_v1, (unsigned long)cfg_v1);
    c.cfg.idle_after_ms = 60000;
    c.cfg.clock = fixed_clock;
    memset(&auth, 0, sizeof auth);
    auth.size = (uint32_t)auth_v1;
    auth.is_available = a_available;
    auth.store_secret = a_store;
    auth.load_secret = a_load;
    auth.delete_secret = a_delete;
    c.cfg.authenticator = &auth;
    /* The bytes past an older config are garbage in an older host: never read. */
    st = idlelock_create(&c.cfg, &h);
    check(st == IDLELOCK_OK, "%s%s: create with a %lu-byte config (status %lu)", who, "", (unsigned long)cfg_v1,
          (unsigned long)st);
    if (h == NULL) return;
    memset(&s, 0xCD, sizeof s);
    s.s.size = (uint32_t)snap_v1;
    st = idlelock_snapshot_get(h, &s.s);
    tail_ok = 1;
    for (i = snap_v1; i < sizeof s.bytes; i++) {
        if (s.bytes[i] != 0xCD) tail_ok = 0;
    }
    check(st == IDLELOCK_OK && s.s.size == snap_v1 && s.s.state == IDLELOCK_STATE_UNLOCKED && tail_ok,
          "%s%s: snapshot_get into a %lu-byte snapshot writes only those bytes (status %lu)", who, "",
          (unsigned long)snap_v1, (unsigned long)st);
    idlelock_destroy(h);
}

int main(void)
{
    const char *fmt_off = "%s.%s offset %lu (baseline %lu)";
    const char *fmt_size = "%s.%s size %lu (baseline %lu)";
    size_t cfg_v1 = 0, snap_v1 = 0, auth_v1 = 0;

    printf("test_layout: %s baseline for ABI major %d\n", LAYOUT_ABI, LAYOUT_BASELINE_MAJOR);
#define RUN_FIELD(type, field, o1, o2, o3, s1, s2, s3)                                                    \
    check(offsetof(type, field) == COL(o1, o2, o3), fmt_off, #type, #field,                               \
          (unsigned long)offsetof(type, field), (unsigned long)COL(o1, o2, o3));                          \
    check(FIELD_SIZE(type, field) == COL(s1, s2, s3), fmt_size, #type, #field,                            \
          (unsigned long)FIELD_SIZE(type, field), (unsigned long)COL(s1, s2, s3));
    LAYOUT_FIELDS(RUN_FIELD)
#define RUN_SIZE(type, s1, s2, s3, e1, e2, e3)                                                            \
    check(sizeof(type) == COL(s1, s2, s3), "%s%s: sizeof %lu (baseline %lu)", #type, "",                  \
          (unsigned long)sizeof(type), (unsigned long)COL(s1, s2, s3));                                  \
    if (strcmp(#type, "idlelock_config") == 0) cfg_v1 = COL(e1, e2, e3);                                  \
    if (strcmp(#type, "idlelock_snapshot") == 0) snap_v1 = COL(e1, e2, e3);                               \
    if (strcmp(#type, "idlelock_authenticator") == 0) auth_v1 = COL(e1, e2, e3);
    LAYOUT_SIZES(RUN_SIZE)

    check(idlelock_config_size() == sizeof(idlelock_config), "%s%s() %lu == sizeof %lu", "idlelock_config_size", "",
          (unsigned long)idlelock_config_size(), (unsigned long)sizeof(idlelock_config));
    check(idlelock_snapshot_size() == sizeof(idlelock_snapshot), "%s%s() %lu == sizeof %lu", "idlelock_snapshot_size",
          "", (unsigned long)idlelock_snapshot_size(), (unsigned long)sizeof(idlelock_snapshot));
    check(idlelock_authenticator_size() == sizeof(idlelock_authenticator), "%s%s() %lu == sizeof %lu",
          "idlelock_authenticator_size", "", (unsigned long)idlelock_authenticator_size(),
          (unsigned long)sizeof(idlelock_authenticator));
    check(idlelock_delay_step_size() == sizeof(idlelock_delay_step), "%s%s() %lu == sizeof %lu",
          "idlelock_delay_step_size", "", (unsigned long)idlelock_delay_step_size(),
          (unsigned long)sizeof(idlelock_delay_step));
    check(IDLELOCK_VERSION_MAJOR == LAYOUT_BASELINE_MAJOR,
          "%s%s: IDLELOCK_VERSION_MAJOR %lu == the baseline's major %lu (bump the soname and the baseline together)",
          "header", "", (unsigned long)IDLELOCK_VERSION_MAJOR, (unsigned long)LAYOUT_BASELINE_MAJOR);
    check(idlelock_version_number() / 10000 == LAYOUT_BASELINE_MAJOR, "%s%s: major %lu == baseline %lu", "library", "",
          (unsigned long)(idlelock_version_number() / 10000), (unsigned long)LAYOUT_BASELINE_MAJOR);
    check(idlelock_version_number() >= IDLELOCK_VERSION_NUMBER, "%s%s: version %lu >= header's %lu", "library", "",
          (unsigned long)idlelock_version_number(), (unsigned long)IDLELOCK_VERSION_NUMBER);
    old_host("1.0 host", cfg_v1, snap_v1, auth_v1);
    /* Its sizeof, with the padding that rounds it to the struct's alignment
     * (8 on armhf: 96, not the 92 its fields end at): where 1.1's first
     * field starts. */
    old_host("1.0 host (sizeof)", offsetof(idlelock_config, prompt_cap_ms), snap_v1, auth_v1);
    old_host("1.1 host", offsetof(idlelock_config, delay_schedule_len) + sizeof(size_t),
             offsetof(idlelock_snapshot, ms_until_next_deadline) + sizeof(int64_t), auth_v1);
    old_host("1.1 host (sizeof)", offsetof(idlelock_config, passcode_max_age_ms),
             offsetof(idlelock_snapshot, is_passcode_required), auth_v1);

    printf("%u passed, %u failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
#endif
