/*
 * test_abi.c: edge cases of the libidlelock C ABI (include/idlelock.h).
 *
 * Every check is derived from the header and SPEC.md, not from what the
 * library happens to do. Prints one line per failed check, then exactly
 * `N passed, N failed` on its own line; exits 1 when any check failed.
 *
 * Covered: NULL handles and pointers for every function; destroy(NULL);
 * config and snapshot sizes; every config bound at and just past its edge
 * (with the field named in idlelock_last_error()); a failed call changes
 * nothing; passcode UTF-8 validation and the attempt count; secret name and
 * value limits, BUFFER_TOO_SMALL; status names; per-thread last_error;
 * versions and struct sizes; listeners (seq order, unsubscribe from inside,
 * re-entry, the limit); the biometric stubs; saturating time arithmetic;
 * several threads on one handle (allowed statuses only, secrets never mixed
 * up, listeners in seq order and silent once unsubscribe has returned).
 *
 * Every config uses the Argon2id floor and a clock callback that returns
 * the variable `now`, which the tests set.
 *
 * Build (from the repository root):
 *   cc -std=c99 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -pedantic -Werror \
 *      -Iinclude Tests/c/test_abi.c -Lbuild -lidlelock \
 *      -Wl,-rpath,$PWD/build -o build/test_abi
 */
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "idlelock.h"

/* ---------------------------------------------------------------------- */
/* Checks                                                                 */
/* ---------------------------------------------------------------------- */

static unsigned passed, failed;

/* Counted on the main thread only. */
static void check_true(int ok, int line, const char *what)
{
    if (ok) {
        passed++;
        return;
    }
    failed++;
    printf("FAIL test_abi.c:%d: %s\n", line, what);
}

static const char *sname(int st)
{
    const char *s = idlelock_status_name(st);
    return s != NULL ? s : "(null)";
}

static void check_status(int got, int want, int line, const char *call)
{
    if (got == want) {
        passed++;
        return;
    }
    failed++;
    printf("FAIL test_abi.c:%d: %s returned %s, expected %s (last_error: %s)\n",
           line, call, sname(got), sname(want), idlelock_last_error());
}

static void check_i64(int64_t got, int64_t want, int line, const char *what)
{
    if (got == want) {
        passed++;
        return;
    }
    failed++;
    printf("FAIL test_abi.c:%d: %s is %" PRId64 ", expected %" PRId64 "\n", line,
           what, got, want);
}

#define CHECK(c) check_true((c) != 0, __LINE__, #c)
#define CHECK_ST(call, want) check_status((call), (want), __LINE__, #call)
#define CHECK_EQ(got, want) check_i64((int64_t)(got), (int64_t)(want), __LINE__, #got)

#define OK IDLELOCK_OK
#define INVAL IDLELOCK_ERR_INVALID_ARGUMENT
/* A literal and its length without the terminating NUL. */
#define LIT(s) s, (sizeof(s) - 1)

/* ---------------------------------------------------------------------- */
/* Fixtures                                                               */
/* ---------------------------------------------------------------------- */

static int64_t now;

static int64_t test_clock(void *ctx)
{
    return *(const int64_t *)ctx;
}

/* The defaults, idle 60 s, the KDF floor and the test clock. Counts no
 * check, so other threads may use it. */
static int fill_config(idlelock_config *c)
{
    int st = idlelock_config_init(c, sizeof *c);
    c->idle_after_ms = 60000;
    c->kdf_opslimit = IDLELOCK_KDF_OPSLIMIT_MIN;
    c->kdf_memlimit = IDLELOCK_KDF_MEMLIMIT_MIN;
    c->clock = test_clock;
    c->clock_ctx = &now;
    return st;
}

/* fill_config(), checked (main thread only). */
static void base_config(idlelock_config *c)
{
    CHECK_ST(fill_config(c), OK);
}

static idlelock *create_or_report(const idlelock_config *c, int line)
{
    idlelock *l = NULL;
    int st = idlelock_create(c, &l);
    check_status(st, OK, line, "idlelock_create");
    return st == OK ? l : NULL;
}

/* A fresh, unengaged lock with base_config. */
static idlelock *new_lock(void)
{
    idlelock_config c;
    base_config(&c);
    return create_or_report(&c, __LINE__);
}

/* A fresh lock with passcode "1234" and max_attempts `attempts`. */
static idlelock *engaged_lock(int32_t attempts)
{
    idlelock_config c;
    idlelock *l;
    base_config(&c);
    c.max_attempts = attempts;
    l = create_or_report(&c, __LINE__);
    if (l != NULL)
        CHECK_ST(idlelock_set_passcode(l, LIT("1234")), OK);
    return l;
}

static idlelock_snapshot blank_snap(void)
{
    idlelock_snapshot s;
    memset(&s, 0, sizeof s);
    s.size = (uint32_t)sizeof s;
    return s;
}

static idlelock_snapshot snap_of(idlelock *l)
{
    idlelock_snapshot s = blank_snap();
    CHECK_ST(idlelock_snapshot_get(l, &s), OK);
    return s;
}

static int same_snap(const idlelock_snapshot *a, const idlelock_snapshot *b)
{
    return a->state == b->state && a->seq == b->seq && a->reason == b->reason &&
           a->is_enabled == b->is_enabled &&
           a->is_biometrics_enabled == b->is_biometrics_enabled &&
           a->is_biometrics_available == b->is_biometrics_available &&
           a->is_away == b->is_away && a->attempts_remaining == b->attempts_remaining &&
           a->last_activity_ms == b->last_activity_ms &&
           a->ms_until_idle_lock == b->ms_until_idle_lock;
}

/* Storage with the strictest alignment we use, for pointers the library
 * must reject without reading. */
static union {
    long double d;
    void *p;
    uint64_t u;
} dummy_object;

/* ---------------------------------------------------------------------- */
/* Versions, sizes, status names                                          */
/* ---------------------------------------------------------------------- */

static void test_versions(void)
{
    int maj = -1, min = -1, pat = -1;
    const char *v = idlelock_version();
    CHECK(v != NULL);
    if (v == NULL)
        return;
    CHECK(strcmp(v, IDLELOCK_VERSION_STRING) == 0);
    CHECK_EQ(idlelock_version_number(), IDLELOCK_VERSION_NUMBER);
    CHECK_EQ(IDLELOCK_VERSION_NUMBER, IDLELOCK_VERSION_MAJOR * 10000 +
             IDLELOCK_VERSION_MINOR * 100 + IDLELOCK_VERSION_PATCH);
    CHECK(sscanf(v, "%d.%d.%d", &maj, &min, &pat) == 3);
    CHECK_EQ(maj * 10000 + min * 100 + pat, idlelock_version_number());
    CHECK_EQ(idlelock_config_size(), sizeof(idlelock_config));
    CHECK_EQ(idlelock_snapshot_size(), sizeof(idlelock_snapshot));
    CHECK_EQ(idlelock_authenticator_size(), sizeof(idlelock_authenticator));
    CHECK_EQ(idlelock_delay_step_size(), sizeof(idlelock_delay_step));
}

static void test_status_names(void)
{
    static const char *const want[] = {
        "IDLELOCK_OK", "IDLELOCK_ERR_INVALID_ARGUMENT", "IDLELOCK_ERR_SESSION_LOCKED",
        "IDLELOCK_ERR_INVALID_PASSCODE", "IDLELOCK_ERR_LOCKED_OUT",
        "IDLELOCK_ERR_LOCK_UNAVAILABLE", "IDLELOCK_ERR_NO_PASSCODE",
        "IDLELOCK_ERR_STORAGE", "IDLELOCK_ERR_NOT_FOUND",
        "IDLELOCK_ERR_BUFFER_TOO_SMALL", "IDLELOCK_ERR_NO_MEMORY",
        "IDLELOCK_ERR_INTERNAL", "IDLELOCK_ERR_RETRY_LATER",
    };
    static const int unknown[] = { -1, 13, INT_MAX, INT_MIN };
    size_t i;
    for (i = 0; i < sizeof want / sizeof want[0]; i++) {
        const char *s = idlelock_status_name((int)i);
        check_true(s != NULL && strcmp(s, want[i]) == 0, __LINE__, want[i]);
    }
    for (i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
        const char *s = idlelock_status_name(unknown[i]);
        CHECK(s != NULL);
        CHECK(s != NULL && strcmp(s, "IDLELOCK_ERR_UNKNOWN") == 0);
    }
}

/* ---------------------------------------------------------------------- */
/* NULL handles and pointers                                              */
/* ---------------------------------------------------------------------- */

static void noop_listener(void *ctx, const idlelock_snapshot *s)
{
    (void)ctx;
    (void)s;
}

static void test_null_handle(void)
{
    idlelock_snapshot s = blank_snap();
    uint64_t token = 0;
    uint8_t buf[8];
    size_t len = sizeof buf;
    CHECK_ST(idlelock_start(NULL, &s), INVAL);
    CHECK_ST(idlelock_touch(NULL, &s), INVAL);
    CHECK_ST(idlelock_inactive(NULL, &s), INVAL);
    CHECK_ST(idlelock_background(NULL, &s), INVAL);
    CHECK_ST(idlelock_foreground(NULL, &s), INVAL);
    CHECK_ST(idlelock_check(NULL, &s), INVAL);
    CHECK_ST(idlelock_lock(NULL, &s), INVAL);
    CHECK_ST(idlelock_start(NULL, NULL), INVAL);
    CHECK_ST(idlelock_touch(NULL, NULL), INVAL);
    CHECK_ST(idlelock_snapshot_get(NULL, &s), INVAL);
    CHECK_ST(idlelock_set_passcode(NULL, LIT("1234")), INVAL);
    CHECK_ST(idlelock_unlock(NULL, LIT("1234"), &s), INVAL);
    CHECK_ST(idlelock_enable_biometrics(NULL), INVAL);
    CHECK_ST(idlelock_disable_biometrics(NULL), INVAL);
    CHECK_ST(idlelock_unlock_with_biometrics(NULL, &s), INVAL);
    CHECK_ST(idlelock_disable(NULL), INVAL);
    CHECK_ST(idlelock_subscribe(NULL, noop_listener, NULL, &token), INVAL);
    CHECK_ST(idlelock_unsubscribe(NULL, 1), INVAL);
    CHECK_ST(idlelock_secret_put(NULL, "n", (const uint8_t *)"v", 1), INVAL);
    CHECK_ST(idlelock_secret_get(NULL, "n", buf, &len), INVAL);
    CHECK_ST(idlelock_secret_remove(NULL, "n"), INVAL);
    CHECK_ST(idlelock_require_unlocked(NULL), INVAL);
    idlelock_destroy(NULL);
    passed++; /* destroy(NULL) returned */
}

static void test_null_create(void)
{
    idlelock_config c;
    idlelock *l = (idlelock *)(void *)&dummy_object;
    CHECK_ST(idlelock_config_init(NULL, sizeof c), INVAL);
    CHECK_ST(idlelock_create(NULL, &l), INVAL);
    CHECK(l == NULL); /* *out is set to NULL on failure */
    base_config(&c);
    CHECK_ST(idlelock_create(&c, NULL), INVAL);
}

static void test_null_pointers(void)
{
    idlelock *l = new_lock();
    uint64_t token = 0;
    uint8_t buf[8];
    size_t len = sizeof buf;
    idlelock_snapshot s = blank_snap();
    if (l == NULL)
        return;
    CHECK_ST(idlelock_snapshot_get(l, NULL), INVAL); /* out is required here */
    CHECK_ST(idlelock_set_passcode(l, NULL, 4), INVAL);
    CHECK_ST(idlelock_set_passcode(l, NULL, 0), INVAL);
    CHECK_ST(idlelock_unlock(l, NULL, 4, &s), INVAL);
    CHECK_ST(idlelock_subscribe(l, NULL, NULL, &token), INVAL);
    CHECK_ST(idlelock_subscribe(l, noop_listener, NULL, NULL), INVAL);
    CHECK_ST(idlelock_secret_put(l, NULL, (const uint8_t *)"v", 1), INVAL);
    CHECK_ST(idlelock_secret_put(l, "n", NULL, 1), INVAL);
    CHECK_ST(idlelock_secret_get(l, NULL, buf, &len), INVAL);
    CHECK_ST(idlelock_secret_get(l, "n", buf, NULL), INVAL);
    CHECK_ST(idlelock_secret_remove(l, NULL), INVAL);
    /* out may be NULL in the event calls. */
    CHECK_ST(idlelock_start(l, NULL), OK);
    CHECK_ST(idlelock_touch(l, NULL), OK);
    CHECK_ST(idlelock_inactive(l, NULL), OK);
    CHECK_ST(idlelock_background(l, NULL), OK);
    CHECK_ST(idlelock_foreground(l, NULL), OK);
    CHECK_ST(idlelock_check(l, NULL), OK);
    CHECK_ST(idlelock_lock(l, NULL), OK);
    CHECK_ST(idlelock_unlock(l, LIT("1234"), NULL), IDLELOCK_ERR_NO_PASSCODE);
    CHECK_ST(idlelock_unlock_with_biometrics(l, NULL), IDLELOCK_ERR_NO_PASSCODE);
    idlelock_destroy(l);
}

/* ---------------------------------------------------------------------- */
/* Config and snapshot sizes                                              */
/* ---------------------------------------------------------------------- */

static void test_config_init(void)
{
    idlelock_config c;
    memset(&c, 0xA5, sizeof c);
    CHECK_ST(idlelock_config_init(&c, sizeof c), OK);
    CHECK_EQ(c.size, sizeof c);
    CHECK_EQ(c.idle_after_ms, IDLELOCK_NEVER);
    CHECK_EQ(c.background_after_ms, IDLELOCK_SAME_AS_IDLE);
    CHECK_EQ(c.inactive_after_ms, 30000);
    CHECK_EQ(c.grace_ms, 1500);
    CHECK_EQ(c.max_attempts, 5);
    CHECK_EQ(c.lock_on_start, 1);
    CHECK_EQ(c.reserved0, 0);
    CHECK_EQ(c.kdf_opslimit, 2);
    CHECK_EQ(c.kdf_memlimit, 64 * 1024 * 1024);
    CHECK(c.store_path == NULL && c.clock == NULL && c.clock_ctx == NULL);
    CHECK(c.authenticator == NULL && c.unlock_reason == NULL);
    CHECK(c.device_key == NULL && c.device_key_len == 0);
}

/* A config followed by room for fields of a newer header. */
typedef union {
    idlelock_config c;
    unsigned char bytes[4104];
} big_config;

static int all_zero(const unsigned char *p, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (p[i] != 0)
            return 0;
    return 1;
}

static void test_config_sizes(void)
{
    static big_config big;
    idlelock_config c;
    idlelock *l = NULL;
    size_t n = sizeof(idlelock_config);
    /* The 1.0 struct ended at device_key_len: a host built against that
     * header passes this size and gets the defaults of later fields. */
    size_t v1 = offsetof(idlelock_config, device_key_len) + sizeof(size_t);
    CHECK_ST(idlelock_config_init(&c, 0), INVAL);
    CHECK_ST(idlelock_config_init(&c, 4), INVAL);
    CHECK_ST(idlelock_config_init(&c, v1 - 1), INVAL);
    memset(&c, 0xA5, sizeof c);
    CHECK_ST(idlelock_config_init(&c, v1), OK);
    CHECK(((const uint8_t *)&c)[v1] == 0xA5); /* nothing past the caller's size */
    c.idle_after_ms = 60000;
    c.kdf_opslimit = IDLELOCK_KDF_OPSLIMIT_MIN;
    c.kdf_memlimit = IDLELOCK_KDF_MEMLIMIT_MIN;
    CHECK_ST(idlelock_create(&c, &l), OK); /* a 1.0 host: prompt_cap_ms unread */
    idlelock_destroy(l);
    l = NULL;
    CHECK_ST(idlelock_config_init(&big.c, 4097), INVAL);
    memset(big.bytes, 0xA5, sizeof big.bytes);
    CHECK_ST(idlelock_config_init(&big.c, 4096), OK);
    CHECK_EQ(big.c.size, 4096);
    CHECK(all_zero(big.bytes + n, 4096 - n)); /* unknown bytes are zeroed */
    CHECK(big.bytes[4096] == 0xA5);           /* nothing past size */
    memset(big.bytes, 0xA5, sizeof big.bytes);
    CHECK_ST(idlelock_config_init(&big.c, n + 64), OK);
    CHECK(all_zero(big.bytes + n, 64));
    CHECK(big.bytes[n + 64] == 0xA5);
    base_config(&c);
    big.c = c;
    big.c.size = (uint32_t)(n + 64);
    CHECK_ST(idlelock_create(&big.c, &l), OK); /* larger, zero tail */
    idlelock_destroy(l);
    l = NULL;
    big.bytes[n + 63] = 1;
    CHECK_ST(idlelock_create(&big.c, &l), INVAL); /* non-zero tail */
    CHECK(l == NULL);
    big.bytes[n + 63] = 0;
    big.bytes[n] = 0x80;
    CHECK_ST(idlelock_create(&big.c, &l), INVAL);
    c.size = 0;
    CHECK_ST(idlelock_create(&c, &l), INVAL);
    c.size = (uint32_t)(v1 - 8);
    CHECK_ST(idlelock_create(&c, &l), INVAL);
    c.size = 4;
    CHECK_ST(idlelock_create(&c, &l), INVAL);
}

/* A snapshot followed by room for fields of a newer header. */
typedef union {
    idlelock_snapshot s;
    unsigned char bytes[sizeof(idlelock_snapshot) + 16];
} big_snapshot;

static void test_snapshot_sizes(void)
{
    idlelock *l = new_lock();
    idlelock_snapshot s = blank_snap();
    big_snapshot big;
    if (l == NULL)
        return;
    s.size = 0;
    CHECK_ST(idlelock_snapshot_get(l, &s), INVAL);
    CHECK_ST(idlelock_touch(l, &s), INVAL);
    CHECK_ST(idlelock_unlock(l, LIT("1234"), &s), INVAL);
    s.size = 4;
    CHECK_ST(idlelock_snapshot_get(l, &s), INVAL);
    /* The 1.0 snapshot ended at ms_until_idle_lock: smaller is refused,
     * that size is accepted and only its fields are written. */
    {
        size_t v1 = offsetof(idlelock_snapshot, ms_until_idle_lock) + sizeof(int64_t);
        s.size = (uint32_t)(v1 - 8);
        CHECK_ST(idlelock_snapshot_get(l, &s), INVAL);
        CHECK_ST(idlelock_check(l, &s), INVAL);
        CHECK_ST(idlelock_unlock_with_biometrics(l, &s), INVAL);
        memset(&big, 0xA5, sizeof big);
        big.s.size = (uint32_t)v1;
        CHECK_ST(idlelock_snapshot_get(l, &big.s), OK);
        CHECK_EQ(big.s.attempts_remaining, 5);
        CHECK(big.bytes[v1] == 0xA5); /* nothing past the caller's size */
    }
    /* Header: "a host built against an older or newer header keeps
     * working": a larger snapshot is accepted, its known fields filled. */
    memset(&big, 0, sizeof big);
    big.s.size = (uint32_t)sizeof big.bytes;
    CHECK_ST(idlelock_snapshot_get(l, &big.s), OK);
    CHECK_EQ(big.s.attempts_remaining, 5);
    CHECK_EQ(big.s.ms_until_idle_lock, IDLELOCK_NEVER);
    idlelock_destroy(l);
}

/* ---------------------------------------------------------------------- */
/* Config bounds                                                          */
/* ---------------------------------------------------------------------- */

enum field {
    F_IDLE, F_BACKGROUND, F_INACTIVE, F_GRACE, F_ATTEMPTS, F_LOCK_ON_START,
    F_OPSLIMIT, F_MEMLIMIT, F_RESERVED0
};

static void set_field(idlelock_config *c, enum field f, int64_t v)
{
    switch (f) {
    case F_IDLE: c->idle_after_ms = v; break;
    case F_BACKGROUND: c->background_after_ms = v; break;
    case F_INACTIVE: c->inactive_after_ms = v; break;
    case F_GRACE: c->grace_ms = v; break;
    case F_ATTEMPTS: c->max_attempts = (int32_t)v; break;
    case F_LOCK_ON_START: c->lock_on_start = (int32_t)v; break;
    case F_OPSLIMIT: c->kdf_opslimit = (uint64_t)v; break;
    case F_MEMLIMIT: c->kdf_memlimit = (uint64_t)v; break;
    case F_RESERVED0: c->reserved0 = (uint32_t)v; break;
    }
}

struct bound_case {
    enum field f;
    int64_t value;
    int want;
    const char *field; /* named in last_error on failure */
    const char *text;  /* the value, as the message should show it */
};

#define MEM_MIN ((int64_t)IDLELOCK_KDF_MEMLIMIT_MIN)
#define MEM_MAX ((int64_t)IDLELOCK_KDF_MEMLIMIT_MAX)

static const struct bound_case bound_cases[] = {
    { F_IDLE, 0, INVAL, "idle_after_ms", "0" },
    { F_IDLE, -5, INVAL, "idle_after_ms", "-5" },
    { F_IDLE, 1, OK, NULL, NULL },
    { F_IDLE, IDLELOCK_NEVER - 1, OK, NULL, NULL },
    { F_BACKGROUND, -2, INVAL, "background_after_ms", "-2" },
    { F_BACKGROUND, INT64_MIN, INVAL, "background_after_ms", NULL },
    { F_BACKGROUND, -1, OK, NULL, NULL },
    { F_BACKGROUND, 0, OK, NULL, NULL },
    { F_BACKGROUND, IDLELOCK_NEVER, OK, NULL, NULL },
    { F_INACTIVE, -1, INVAL, "inactive_after_ms", "-1" },
    { F_INACTIVE, 0, OK, NULL, NULL },
    { F_INACTIVE, IDLELOCK_NEVER, OK, NULL, NULL },
    { F_GRACE, -1, INVAL, "grace_ms", "-1" },
    { F_GRACE, 0, OK, NULL, NULL },
    { F_GRACE, 60000, OK, NULL, NULL },
    { F_GRACE, 60001, INVAL, "grace_ms", "60001" },
    { F_ATTEMPTS, 0, INVAL, "max_attempts", "0" },
    { F_ATTEMPTS, -1, INVAL, "max_attempts", "-1" },
    { F_ATTEMPTS, 1, OK, NULL, NULL },
    { F_ATTEMPTS, 100, OK, NULL, NULL },
    { F_ATTEMPTS, 101, INVAL, "max_attempts", "101" },
    { F_LOCK_ON_START, 2, INVAL, "lock_on_start", "2" },
    { F_LOCK_ON_START, -1, INVAL, "lock_on_start", "-1" },
    { F_LOCK_ON_START, 0, OK, NULL, NULL },
    { F_OPSLIMIT, 1, INVAL, "kdf_opslimit", "1" },
    { F_OPSLIMIT, 2, OK, NULL, NULL },
    { F_OPSLIMIT, 10, OK, NULL, NULL },
    { F_OPSLIMIT, 11, INVAL, "kdf_opslimit", "11" },
    { F_MEMLIMIT, MEM_MIN - 1, INVAL, "kdf_memlimit", "19922943" },
    { F_MEMLIMIT, MEM_MIN, OK, NULL, NULL },
    { F_MEMLIMIT, MEM_MAX, OK, NULL, NULL },
    { F_MEMLIMIT, MEM_MAX + 1, INVAL, "kdf_memlimit", "1073741825" },
    { F_RESERVED0, 1, INVAL, "reserved0", NULL },
};

/* Create with `c`; expect `want`, and on failure a message naming
 * `field` (and `text` when given). */
static void expect_create(const idlelock_config *c, int want, const char *field,
                          const char *text, int line, const char *what)
{
    idlelock *l = (idlelock *)(void *)&dummy_object;
    int st = idlelock_create(c, &l);
    char buf[256];
    snprintf(buf, sizeof buf, "create with %s", what);
    check_status(st, want, line, buf);
    if (st == OK) {
        idlelock_destroy(l);
        return;
    }
    check_true(l == NULL, line, "*out is NULL after a failed create");
    if (field != NULL) {
        snprintf(buf, sizeof buf, "last_error \"%s\" names %s", idlelock_last_error(), field);
        check_true(strstr(idlelock_last_error(), field) != NULL, line, buf);
    }
    if (text != NULL) {
        snprintf(buf, sizeof buf, "last_error \"%s\" shows the value %s",
                 idlelock_last_error(), text);
        check_true(strstr(idlelock_last_error(), text) != NULL, line, buf);
    }
}

static void test_config_bounds(void)
{
    size_t i;
    for (i = 0; i < sizeof bound_cases / sizeof bound_cases[0]; i++) {
        const struct bound_case *b = &bound_cases[i];
        idlelock_config c;
        char what[96];
        base_config(&c);
        set_field(&c, b->f, b->value);
        snprintf(what, sizeof what, "field %d = %" PRId64, (int)b->f, b->value);
        expect_create(&c, b->want, b->field, b->text, __LINE__, what);
    }
}

static void test_config_timeouts(void)
{
    idlelock_config c;
    base_config(&c);
    c.idle_after_ms = IDLELOCK_NEVER; /* background SAME_AS_IDLE: never */
    expect_create(&c, INVAL, "idle_after_ms", NULL, __LINE__, "both timeouts NEVER");
    c.background_after_ms = IDLELOCK_NEVER;
    expect_create(&c, INVAL, "idle_after_ms", NULL, __LINE__, "both NEVER (explicit)");
    c.background_after_ms = 0;
    expect_create(&c, OK, NULL, NULL, __LINE__, "idle NEVER, background 0");
    c.background_after_ms = 60000;
    expect_create(&c, OK, NULL, NULL, __LINE__, "idle NEVER, background 60000");
}

static int32_t fake_available(void *ctx) { (void)ctx; return 1; }
static int32_t fake_store(void *ctx, const uint8_t *secret, size_t len)
{
    (void)ctx; (void)secret; (void)len;
    return 0;
}
static int32_t fake_load(void *ctx, const char *reason, uint8_t *out, size_t cap, size_t *out_len)
{
    (void)ctx; (void)reason; (void)out; (void)cap; (void)out_len;
    return IDLELOCK_AUTH_FAILED;
}
static int32_t fake_delete(void *ctx) { (void)ctx; return 0; }

static void good_authenticator(idlelock_authenticator *a)
{
    memset(a, 0, sizeof *a);
    a->size = sizeof *a;
    a->is_available = fake_available;
    a->store_secret = fake_store;
    a->load_secret = fake_load;
    a->delete_secret = fake_delete;
}

/* An authenticator with a NULL callback or a wrong size is refused at
 * create, naming the field. */
static void test_bad_authenticators(void)
{
    struct { idlelock_authenticator a; uint8_t tail[8]; } big;
    idlelock_authenticator a;
    idlelock_config c;
    base_config(&c);
    good_authenticator(&a);
    c.authenticator = &a;
    expect_create(&c, OK, NULL, NULL, __LINE__, "a complete authenticator");
    a.is_available = NULL;
    expect_create(&c, INVAL, "is_available", NULL, __LINE__, "NULL is_available");
    good_authenticator(&a);
    a.store_secret = NULL;
    expect_create(&c, INVAL, "store_secret", NULL, __LINE__, "NULL store_secret");
    good_authenticator(&a);
    a.load_secret = NULL;
    expect_create(&c, INVAL, "load_secret", NULL, __LINE__, "NULL load_secret");
    good_authenticator(&a);
    a.delete_secret = NULL;
    expect_create(&c, INVAL, "delete_secret", NULL, __LINE__, "NULL delete_secret");
    good_authenticator(&a);
    a.size = sizeof a - 1;
    expect_create(&c, INVAL, "authenticator->size", NULL, __LINE__, "authenticator size too small");
    good_authenticator(&a);
    a.reserved0 = 1;
    expect_create(&c, INVAL, "reserved0", NULL, __LINE__, "authenticator reserved0");
    memset(&big, 0, sizeof big);
    good_authenticator(&big.a);
    big.a.size = sizeof big;
    c.authenticator = &big.a;
    expect_create(&c, OK, NULL, NULL, __LINE__, "a larger authenticator with a zero tail");
    big.tail[3] = 1;
    expect_create(&c, INVAL, "authenticator", NULL, __LINE__, "a larger authenticator, non-zero tail");
}

static void test_config_pointers(void)
{
    static const uint8_t key[IDLELOCK_DEVICE_KEY_BYTES + 1] = { 1, 2, 3 };
    static char reason[IDLELOCK_UNLOCK_REASON_MAX_BYTES + 2];
    idlelock_config c;
    base_config(&c);
    c.clock = NULL;
    expect_create(&c, INVAL, "clock_ctx", NULL, __LINE__, "clock_ctx without clock");
    base_config(&c);
    c.store_path = "";
    expect_create(&c, INVAL, "store_path", NULL, __LINE__, "empty store_path");
    c.store_path = "/tmp/";
    expect_create(&c, INVAL, "store_path", NULL, __LINE__, "store_path naming a folder");
    c.store_path = "/tmp/idlelock-test-\xff-store";
    expect_create(&c, INVAL, "store_path", NULL, __LINE__, "store_path not UTF-8");
    c.store_path = "/tmp/idlelock-test-store";
    c.lock_on_start = 0;
    expect_create(&c, INVAL, "lock_on_start", NULL, __LINE__,
                  "store_path with lock_on_start 0 and no device_key");
    base_config(&c);
    c.authenticator = (const idlelock_authenticator *)(const void *)&dummy_object;
    expect_create(&c, INVAL, "authenticator", NULL, __LINE__, "authenticator with size 0");
    test_bad_authenticators();
    base_config(&c);
    c.device_key = key;
    c.device_key_len = 31;
    expect_create(&c, INVAL, "device_key", NULL, __LINE__, "device_key_len 31");
    c.device_key_len = 33;
    expect_create(&c, INVAL, "device_key", NULL, __LINE__, "device_key_len 33");
    c.device_key_len = 0;
    expect_create(&c, INVAL, "device_key", NULL, __LINE__, "device_key with len 0");
    c.device_key = NULL;
    c.device_key_len = 32;
    expect_create(&c, INVAL, "device_key", NULL, __LINE__, "NULL device_key with len 32");
    c.device_key = key;
    expect_create(&c, OK, NULL, NULL, __LINE__, "a 32-byte device_key");
    base_config(&c);
    memset(reason, 'r', IDLELOCK_UNLOCK_REASON_MAX_BYTES);
    c.unlock_reason = reason;
    expect_create(&c, OK, NULL, NULL, __LINE__, "unlock_reason of 512 bytes");
    reason[IDLELOCK_UNLOCK_REASON_MAX_BYTES] = 'r';
    expect_create(&c, INVAL, "unlock_reason", NULL, __LINE__, "unlock_reason of 513 bytes");
    c.unlock_reason = "Unlock \xFF";
    expect_create(&c, INVAL, "unlock_reason", NULL, __LINE__, "unlock_reason not UTF-8");
}

/* ---------------------------------------------------------------------- */
/* A failed call changes nothing                                          */
/* ---------------------------------------------------------------------- */

static void test_failed_call_changes_nothing(void)
{
    idlelock_snapshot before, after, bad = blank_snap();
    idlelock *l;
    now = 0;
    l = engaged_lock(5);
    if (l == NULL)
        return;
    bad.size = 0;
    now = 1000;
    before = snap_of(l);
    CHECK_ST(idlelock_touch(l, &bad), INVAL);      /* would set activity */
    CHECK_ST(idlelock_background(l, &bad), INVAL); /* would set away */
    CHECK_ST(idlelock_lock(l, &bad), INVAL);       /* would lock */
    CHECK_ST(idlelock_unlock(l, LIT("0000"), &bad), INVAL); /* would count */
    CHECK_ST(idlelock_set_passcode(l, LIT("123")), INVAL);
    CHECK_ST(idlelock_secret_put(l, "", (const uint8_t *)"v", 1), INVAL);
    /* Past the idle deadline: a failed call must not judge it. */
    now = 61000;
    CHECK_ST(idlelock_check(l, &bad), INVAL);
    CHECK_ST(idlelock_start(l, &bad), INVAL);
    CHECK_ST(idlelock_unlock(l, LIT("\xFF\xFF\xFF\xFF"), NULL), INVAL);
    now = 1000;
    after = snap_of(l);
    CHECK(same_snap(&before, &after));
    CHECK_EQ(after.state, IDLELOCK_STATE_UNLOCKED);
    CHECK_EQ(after.last_activity_ms, 0);
    CHECK_EQ(after.attempts_remaining, 5);
    CHECK_EQ(after.is_away, 0);
    idlelock_destroy(l);
}

/* ---------------------------------------------------------------------- */
/* Passcodes                                                              */
/* ---------------------------------------------------------------------- */

struct bytes {
    const char *s;
    size_t n;
};

/* Each has at least 4 scalars besides the bad sequence. */
static const struct bytes bad_utf8[] = {
    { LIT("1234\xC0\x80") },             /* overlong NUL */
    { LIT("1234\xC1\xBF") },             /* overlong 2-byte */
    { LIT("1234\xE0\x80\xAF") },         /* overlong 3-byte '/' */
    { LIT("1234\xE0\x9F\xBF") },         /* overlong 3-byte U+07FF */
    { LIT("1234\xF0\x80\x80\xAF") },     /* overlong 4-byte '/' */
    { LIT("1234\xF0\x8F\xBF\xBF") },     /* overlong 4-byte U+FFFF */
    { LIT("1234\xED\xA0\x80") },         /* surrogate U+D800 */
    { LIT("1234\xED\xBF\xBF") },         /* surrogate U+DFFF */
    { LIT("\xED\xA0\xBD\xED\xB8\x80" "1234") }, /* CESU-8 pair */
    { LIT("1234\xF4\x90\x80\x80") },     /* U+110000 */
    { LIT("1234\xF5\x80\x80\x80") },     /* lead byte F5 */
    { LIT("1234\xF8\x88\x80\x80\x80") }, /* 5-byte form */
    { LIT("1234\xC3") },                 /* truncated 2-byte */
    { LIT("1234\xE2\x82") },             /* truncated 3-byte at the end */
    { LIT("\xE2\x82" "1234") },          /* truncated 3-byte before ASCII */
    { LIT("1234\xF0\x9F\x98") },         /* truncated 4-byte */
    { LIT("1234\xFF") },
    { LIT("1234\xFE") },
    { LIT("1234\x80") },                 /* lone continuation byte */
    { LIT("12\xBF" "34") },              /* continuation in the middle */
};
#define N_BAD_UTF8 (sizeof bad_utf8 / sizeof bad_utf8[0])

#define EURO "\xE2\x82\xAC"     /* U+20AC, 3 bytes */
#define GRIN "\xF0\x9F\x98\x80" /* U+1F600, 4 bytes */

/* A passcode of `n` bytes of 'a' (n <= 1025). */
static const char *long_code(size_t n)
{
    static char buf[IDLELOCK_PASSCODE_MAX_BYTES + 1];
    memset(buf, 'a', n <= sizeof buf ? n : sizeof buf);
    return buf;
}

static void test_set_passcode_args(void)
{
    idlelock *l = new_lock();
    size_t i;
    if (l == NULL)
        return;
    for (i = 0; i < N_BAD_UTF8; i++) {
        int st = idlelock_set_passcode(l, bad_utf8[i].s, bad_utf8[i].n);
        char what[64];
        snprintf(what, sizeof what, "set_passcode(bad_utf8[%u])", (unsigned)i);
        check_status(st, INVAL, __LINE__, what);
    }
    CHECK_ST(idlelock_set_passcode(l, "", 0), INVAL);
    CHECK_ST(idlelock_set_passcode(l, long_code(1025), 1025), INVAL);
    CHECK_ST(idlelock_set_passcode(l, LIT("123")), INVAL);
    /* 9 bytes but 3 scalars: too short. */
    CHECK_ST(idlelock_set_passcode(l, LIT(EURO EURO EURO)), INVAL);
    CHECK_EQ(snap_of(l).is_enabled, 0);
    /* 4 multi-byte scalars: accepted, and unlock with the same bytes. */
    CHECK_ST(idlelock_set_passcode(l, LIT(EURO EURO EURO EURO)), OK);
    CHECK_EQ(snap_of(l).is_enabled, 1);
    CHECK_ST(idlelock_unlock(l, LIT(EURO EURO EURO EURO), NULL), OK);
    CHECK_ST(idlelock_set_passcode(l, LIT(GRIN GRIN GRIN GRIN)), OK);
    /* Edge scalars: U+10FFFF, U+FFFF, U+E000, U+0000. */
    CHECK_ST(idlelock_set_passcode(l, LIT("\xF4\x8F\xBF\xBF\xEF\xBF\xBF\xEE\x80\x80\x00")), OK);
    CHECK_ST(idlelock_unlock(l, LIT("\xF4\x8F\xBF\xBF\xEF\xBF\xBF\xEE\x80\x80\x00"), NULL), OK);
    /* Embedded NULs are bytes; the length counts, not strlen. */
    CHECK_ST(idlelock_set_passcode(l, LIT("ab\0cd")), OK);
    CHECK_ST(idlelock_unlock(l, LIT("ab"), NULL), IDLELOCK_ERR_INVALID_PASSCODE);
    CHECK_ST(idlelock_unlock(l, LIT("ab\0cd"), NULL), OK);
    /* 1024 bytes is the limit, inclusive. */
    CHECK_ST(idlelock_set_passcode(l, long_code(1024), 1024), OK);
    CHECK_ST(idlelock_unlock(l, long_code(1024), 1024, NULL), OK);
    idlelock_destroy(l);
}

/* Every bad unlock argument on `l`: INVALID_ARGUMENT, nothing counted. */
static void bad_unlocks(idlelock *l, int line)
{
    idlelock_snapshot s = blank_snap();
    size_t i;
    for (i = 0; i < N_BAD_UTF8; i++)
        check_status(idlelock_unlock(l, bad_utf8[i].s, bad_utf8[i].n, &s), INVAL,
                     line, "unlock(bad_utf8[i])");
    check_status(idlelock_unlock(l, "", 0, &s), INVAL, line, "unlock(\"\", 0)");
    check_status(idlelock_unlock(l, long_code(1025), 1025, &s), INVAL, line,
                 "unlock(1025 bytes)");
    check_status(idlelock_unlock(l, NULL, 0, &s), INVAL, line, "unlock(NULL, 0)");
}

static void test_unlock_args_not_counted(void)
{
    idlelock_snapshot s;
    idlelock *l = new_lock();
    if (l == NULL)
        return;
    bad_unlocks(l, __LINE__); /* not engaged: INVALID before NO_PASSCODE */
    CHECK_ST(idlelock_set_passcode(l, LIT("1234")), OK);
    CHECK_ST(idlelock_lock(l, NULL), OK);
    bad_unlocks(l, __LINE__);
    s = snap_of(l);
    CHECK_EQ(s.attempts_remaining, 5);
    CHECK_EQ(s.state, IDLELOCK_STATE_LOCKED);
    /* Set_passcode: bad arguments come before SESSION_LOCKED. */
    CHECK_ST(idlelock_set_passcode(l, LIT("12")), INVAL);
    CHECK_ST(idlelock_set_passcode(l, LIT("5678")), IDLELOCK_ERR_SESSION_LOCKED);
    /* 3 scalars is a valid unlock argument: checked and counted. */
    s = blank_snap();
    CHECK_ST(idlelock_unlock(l, LIT("123"), &s), IDLELOCK_ERR_INVALID_PASSCODE);
    CHECK_EQ(s.attempts_remaining, 4);
    CHECK_ST(idlelock_unlock(l, LIT("1234"), &s), OK);
    CHECK_EQ(s.attempts_remaining, 5);
    CHECK_EQ(s.state, IDLELOCK_STATE_UNLOCKED);
    idlelock_destroy(l);
}

static void test_lockout_order(void)
{
    idlelock_snapshot s = blank_snap();
    idlelock *l = engaged_lock(1);
    if (l == NULL)
        return;
    CHECK_ST(idlelock_unlock(l, LIT("0000"), &s), IDLELOCK_ERR_LOCKED_OUT);
    CHECK_EQ(s.state, IDLELOCK_STATE_LOCKED_OUT);
    CHECK_EQ(s.reason, IDLELOCK_REASON_NONE);
    CHECK_EQ(s.attempts_remaining, 0);
    bad_unlocks(l, __LINE__); /* INVALID before LOCKED_OUT */
    CHECK_ST(idlelock_unlock(l, LIT("1234"), NULL), IDLELOCK_ERR_LOCKED_OUT);
    CHECK_ST(idlelock_set_passcode(l, LIT("")), INVAL);
    CHECK_ST(idlelock_set_passcode(l, LIT("5678")), IDLELOCK_ERR_SESSION_LOCKED);
    CHECK_ST(idlelock_unlock_with_biometrics(l, NULL), IDLELOCK_ERR_LOCKED_OUT);
    CHECK_ST(idlelock_enable_biometrics(l), IDLELOCK_ERR_SESSION_LOCKED);
    CHECK_ST(idlelock_disable_biometrics(l), OK);
    CHECK_ST(idlelock_require_unlocked(l), IDLELOCK_ERR_SESSION_LOCKED);
    CHECK_ST(idlelock_disable(l), OK);
    s = snap_of(l);
    CHECK_EQ(s.state, IDLELOCK_STATE_UNLOCKED);
    CHECK_EQ(s.is_enabled, 0);
    CHECK_EQ(s.attempts_remaining, 1);
    idlelock_destroy(l);
}

/* A failure other than a bad argument still fills `out`; the message of a
 * wrong passcode says how many remain and never holds the passcode. */
static void test_failure_reports(void)
{
    idlelock_snapshot s = blank_snap();
    idlelock *l;
    now = 7000;
    l = new_lock();
    if (l == NULL)
        return;
    s.attempts_remaining = -1;
    CHECK_ST(idlelock_unlock(l, LIT("1234"), &s), IDLELOCK_ERR_NO_PASSCODE);
    CHECK_EQ(s.attempts_remaining, 5);
    CHECK_EQ(s.last_activity_ms, 7000);
    CHECK_ST(idlelock_set_passcode(l, LIT("1234")), OK);
    s = blank_snap();
    CHECK_ST(idlelock_unlock(l, LIT("zq9x!wrong"), &s), IDLELOCK_ERR_INVALID_PASSCODE);
    CHECK_EQ(s.attempts_remaining, 4);
    CHECK(strstr(idlelock_last_error(), "4") != NULL);
    CHECK(strstr(idlelock_last_error(), "zq9x") == NULL);
    CHECK_ST(idlelock_set_passcode(l, LIT("zq9\xFF")), INVAL);
    CHECK(strstr(idlelock_last_error(), "zq9") == NULL);
    idlelock_destroy(l);
}

/* Config pointers are copied at create: the caller may change or free
 * them afterwards. The device key is mixed into the passcode key, so a
 * library that kept the caller's pointer would no longer open its wrap. */
static void test_config_copied(void)
{
    uint8_t key[IDLELOCK_DEVICE_KEY_BYTES];
    char reason[32];
    idlelock_config c;
    idlelock *l;
    memset(key, 0x42, sizeof key);
    snprintf(reason, sizeof reason, "Unlock the app");
    base_config(&c);
    c.device_key = key;
    c.device_key_len = sizeof key;
    c.unlock_reason = reason;
    l = create_or_report(&c, __LINE__);
    if (l == NULL)
        return;
    memset(key, 0x17, sizeof key);
    memset(reason, 0, sizeof reason);
    CHECK_ST(idlelock_set_passcode(l, LIT("1234")), OK);
    memset(key, 0x99, sizeof key);
    CHECK_ST(idlelock_lock(l, NULL), OK);
    CHECK_ST(idlelock_unlock(l, LIT("1234"), NULL), OK);
    idlelock_destroy(l);
}

/* ---------------------------------------------------------------------- */
/* Biometric stubs (no authenticator in this version)                     */
/* ---------------------------------------------------------------------- */

static void test_biometrics(void)
{
    idlelock_snapshot s = blank_snap();
    idlelock *l = new_lock();
    if (l == NULL)
        return;
    CHECK_ST(idlelock_enable_biometrics(l), IDLELOCK_ERR_NO_PASSCODE);
    CHECK_ST(idlelock_unlock_with_biometrics(l, &s), IDLELOCK_ERR_NO_PASSCODE);
    CHECK_ST(idlelock_disable_biometrics(l), OK);
    CHECK_ST(idlelock_set_passcode(l, LIT("1234")), OK);
    CHECK_ST(idlelock_enable_biometrics(l), IDLELOCK_ERR_LOCK_UNAVAILABLE);
    CHECK_ST(idlelock_unlock_with_biometrics(l, &s), IDLELOCK_ERR_LOCK_UNAVAILABLE);
    CHECK_ST(idlelock_lock(l, NULL), OK);
    CHECK_ST(idlelock_enable_biometrics(l), IDLELOCK_ERR_SESSION_LOCKED);
    CHECK_ST(idlelock_unlock_with_biometrics(l, &s), IDLELOCK_ERR_LOCK_UNAVAILABLE);
    CHECK_EQ(s.attempts_remaining, 5); /* never counts */
    CHECK_EQ(s.state, IDLELOCK_STATE_LOCKED);
    CHECK_EQ(s.is_biometrics_enabled, 0);
    CHECK_EQ(s.is_biometrics_available, 0);
    idlelock_destroy(l);
}

/* ---------------------------------------------------------------------- */
/* Secrets                                                                */
/* ---------------------------------------------------------------------- */

static void test_secret_names_values(idlelock *l)
{
    static uint8_t big[IDLELOCK_SECRET_VALUE_MAX_BYTES + 1];
    char name[IDLELOCK_SECRET_NAME_MAX_BYTES + 2];
    size_t len = 0;
    memset(name, 'n', sizeof name);
    name[IDLELOCK_SECRET_NAME_MAX_BYTES] = '\0';
    CHECK_ST(idlelock_secret_put(l, name, (const uint8_t *)"v", 1), OK); /* 64 */
    name[IDLELOCK_SECRET_NAME_MAX_BYTES] = 'n';
    name[IDLELOCK_SECRET_NAME_MAX_BYTES + 1] = '\0';
    CHECK_ST(idlelock_secret_put(l, name, (const uint8_t *)"v", 1), INVAL); /* 65 */
    CHECK_ST(idlelock_secret_get(l, name, NULL, &len), INVAL);
    CHECK_ST(idlelock_secret_remove(l, name), INVAL);
    CHECK_ST(idlelock_secret_put(l, "", (const uint8_t *)"v", 1), INVAL);
    CHECK_ST(idlelock_secret_put(l, "tok\xFF", (const uint8_t *)"v", 1), INVAL);
    CHECK_ST(idlelock_secret_put(l, "\xC0\xAF", (const uint8_t *)"v", 1), INVAL);
    CHECK_ST(idlelock_secret_put(l, "\xED\xA0\x80", (const uint8_t *)"v", 1), INVAL);
    CHECK_ST(idlelock_secret_get(l, "tok\xFF", NULL, &len), INVAL);
    memset(big, 0x5A, sizeof big);
    CHECK_ST(idlelock_secret_put(l, "big", big, sizeof big), INVAL); /* 65537 */
    CHECK_ST(idlelock_secret_put(l, "big", big, sizeof big - 1), OK); /* 65536 */
    big[0] = 0;
    len = sizeof big;
    CHECK_ST(idlelock_secret_get(l, "big", big, &len), OK);
    CHECK_EQ(len, IDLELOCK_SECRET_VALUE_MAX_BYTES);
    CHECK(big[0] == 0x5A && big[len - 1] == 0x5A);
}

static void test_secret_get_buffers(idlelock *l)
{
    uint8_t buf[16];
    size_t len;
    CHECK_ST(idlelock_secret_put(l, "tok", (const uint8_t *)"hello", 5), OK);
    memset(buf, 'X', sizeof buf);
    len = 3;
    CHECK_ST(idlelock_secret_get(l, "tok", buf, &len), IDLELOCK_ERR_BUFFER_TOO_SMALL);
    CHECK_EQ(len, 5);
    CHECK(memcmp(buf, "XXXXXXXX", 8) == 0); /* nothing else written */
    len = 0;
    CHECK_ST(idlelock_secret_get(l, "tok", NULL, &len), IDLELOCK_ERR_BUFFER_TOO_SMALL);
    CHECK_EQ(len, 5);
    len = 5;
    CHECK_ST(idlelock_secret_get(l, "tok", NULL, &len), INVAL);
    len = 5;
    CHECK_ST(idlelock_secret_get(l, "tok", buf, &len), OK);
    CHECK(len == 5 && memcmp(buf, "hello", 5) == 0);
    len = sizeof buf;
    CHECK_ST(idlelock_secret_get(l, "tok", buf, &len), OK);
    CHECK_EQ(len, 5);
    /* An empty value: NULL data with len 0, read back with NULL, 0. */
    CHECK_ST(idlelock_secret_put(l, "empty", NULL, 0), OK);
    len = 0;
    CHECK_ST(idlelock_secret_get(l, "empty", NULL, &len), OK);
    CHECK_EQ(len, 0);
    len = sizeof buf;
    CHECK_ST(idlelock_secret_get(l, "missing", buf, &len), IDLELOCK_ERR_NOT_FOUND);
    CHECK_ST(idlelock_secret_remove(l, "missing"), IDLELOCK_ERR_NOT_FOUND);
    CHECK_ST(idlelock_secret_remove(l, "tok"), OK);
    CHECK_ST(idlelock_secret_get(l, "tok", buf, &len), IDLELOCK_ERR_NOT_FOUND);
}

/* At most IDLELOCK_SECRETS_MAX names; replacing one is still fine. */
static void test_secret_count(void)
{
    idlelock *l = new_lock();
    char name[16];
    int i, bad = 0;
    if (l == NULL)
        return;
    for (i = 0; i < IDLELOCK_SECRETS_MAX; i++) {
        snprintf(name, sizeof name, "s%d", i);
        if (idlelock_secret_put(l, name, (const uint8_t *)"v", 1) != OK)
            bad++;
    }
    CHECK_EQ(bad, 0);
    /* A capacity limit (NO_MEMORY), not a bad argument. */
    CHECK_ST(idlelock_secret_put(l, "one-too-many", (const uint8_t *)"v", 1),
             IDLELOCK_ERR_NO_MEMORY);
    CHECK_ST(idlelock_secret_put(l, "s0", (const uint8_t *)"w", 1), OK);
    CHECK_ST(idlelock_secret_remove(l, "s1"), OK);
    CHECK_ST(idlelock_secret_put(l, "one-too-many", (const uint8_t *)"v", 1), OK);
    idlelock_destroy(l);
}

static void test_secrets(void)
{
    idlelock *l = new_lock();
    if (l == NULL)
        return;
    test_secret_names_values(l);
    test_secret_get_buffers(l);
    idlelock_destroy(l);
    test_secret_count();
}

/* ---------------------------------------------------------------------- */
/* last_error is per thread                                               */
/* ---------------------------------------------------------------------- */

struct thread_result {
    int initial_empty;    /* "" before this thread failed */
    int status;
    int names_attempts;   /* its message names max_attempts */
};

static void *failing_thread(void *arg)
{
    struct thread_result *r = arg;
    idlelock_config c;
    idlelock *l = NULL;
    const char *e = idlelock_last_error();
    r->initial_empty = e != NULL && e[0] == '\0';
    fill_config(&c);
    c.max_attempts = 0;
    r->status = idlelock_create(&c, &l);
    e = idlelock_last_error();
    r->names_attempts = e != NULL && strstr(e, "max_attempts") != NULL;
    return NULL;
}

static void test_last_error_threads(void)
{
    struct thread_result r = { 0, -1, 0 };
    pthread_t t;
    idlelock_config c;
    idlelock *l = NULL;
    char mine[512];
    CHECK(idlelock_last_error() != NULL);
    base_config(&c);
    c.grace_ms = 60001;
    CHECK_ST(idlelock_create(&c, &l), INVAL);
    snprintf(mine, sizeof mine, "%s", idlelock_last_error());
    CHECK(strstr(mine, "grace_ms") != NULL);
    CHECK(pthread_create(&t, NULL, failing_thread, &r) == 0);
    CHECK(pthread_join(t, NULL) == 0);
    CHECK(r.initial_empty);
    CHECK_ST(r.status, INVAL);
    CHECK(r.names_attempts);
    CHECK(strcmp(idlelock_last_error(), mine) == 0);
    /* A successful call does not replace the last failure's message. */
    CHECK(idlelock_version() != NULL);
    l = new_lock();
    CHECK(strcmp(idlelock_last_error(), mine) == 0);
    idlelock_destroy(l);
}

/* ---------------------------------------------------------------------- */
/* Listeners                                                              */
/* ---------------------------------------------------------------------- */

#define REC_MAX 64

struct recorder {
    idlelock *lock;
    uint64_t token;
    int calls;
    int out_of_order;
    int null_snapshot;
    uint64_t seq[REC_MAX];
    int32_t state[REC_MAX];
    int32_t away[REC_MAX];
    int unsubscribe_self;  /* unsubscribe from inside, at the first call */
    int unsub_status;
    int lock_from_inside;  /* call idlelock_lock + snapshot_get from inside */
    int inner_status;
};

static void record(void *ctx, const idlelock_snapshot *s)
{
    struct recorder *r = ctx;
    if (s == NULL) {
        r->null_snapshot++;
        return;
    }
    if (r->calls > 0 && r->calls <= REC_MAX && s->seq <= r->seq[r->calls - 1])
        r->out_of_order++;
    if (r->calls < REC_MAX) {
        r->seq[r->calls] = s->seq;
        r->state[r->calls] = s->state;
        r->away[r->calls] = s->is_away;
    }
    r->calls++;
    if (r->unsubscribe_self && r->calls == 1)
        r->unsub_status = idlelock_unsubscribe(r->lock, r->token);
    if (r->lock_from_inside && r->calls == 1) {
        idlelock_snapshot in = blank_snap();
        r->inner_status = idlelock_snapshot_get(r->lock, &in);
        if (r->inner_status == OK && in.is_enabled && in.state == IDLELOCK_STATE_UNLOCKED)
            r->inner_status = idlelock_lock(r->lock, NULL);
    }
}

static int saw_state(const struct recorder *r, int32_t state)
{
    int i;
    for (i = 0; i < r->calls && i < REC_MAX; i++)
        if (r->state[i] == state)
            return 1;
    return 0;
}

static void test_listener_basics(void)
{
    struct recorder a, b;
    idlelock_snapshot s;
    idlelock *l;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    now = 0;
    l = new_lock();
    if (l == NULL)
        return;
    a.lock = b.lock = l;
    b.unsubscribe_self = 1;
    CHECK_EQ(snap_of(l).seq, 0);
    CHECK_ST(idlelock_subscribe(l, record, &a, &a.token), OK);
    CHECK_ST(idlelock_subscribe(l, record, &b, &b.token), OK);
    CHECK(a.token != 0 && b.token != 0 && a.token != b.token);
    CHECK_EQ(a.calls, 0); /* nothing delivered at subscription */
    CHECK_ST(idlelock_set_passcode(l, LIT("1234")), OK);
    s = snap_of(l);
    CHECK_ST(idlelock_touch(l, NULL), OK); /* activity is not a change */
    CHECK_EQ(snap_of(l).seq, s.seq);
    CHECK_ST(idlelock_background(l, NULL), OK);
    CHECK_ST(idlelock_foreground(l, NULL), OK);
    CHECK_ST(idlelock_lock(l, NULL), OK);
    CHECK_ST(idlelock_unlock(l, LIT("1234"), NULL), OK);
    s = snap_of(l);
    CHECK(a.calls >= 5);
    CHECK_EQ(a.out_of_order, 0);
    CHECK_EQ(a.null_snapshot, 0);
    CHECK(a.calls > 0 && a.calls <= REC_MAX && a.seq[a.calls - 1] == s.seq);
    CHECK(saw_state(&a, IDLELOCK_STATE_LOCKED));
    CHECK(a.calls > 0 && a.calls <= REC_MAX && a.state[a.calls - 1] == IDLELOCK_STATE_UNLOCKED);
    CHECK(a.calls >= 2 && a.away[1] == 1); /* background is a flag change */
    CHECK_EQ(b.calls, 1);
    CHECK_ST(b.unsub_status, OK);
    CHECK_ST(idlelock_unsubscribe(l, b.token), INVAL); /* already gone */
    CHECK_ST(idlelock_unsubscribe(l, 0), INVAL);
    CHECK_ST(idlelock_unsubscribe(l, a.token ^ UINT64_C(0x8000000000000000)), INVAL);
    CHECK_ST(idlelock_unsubscribe(l, a.token), OK);
    b.calls = a.calls;
    CHECK_ST(idlelock_lock(l, NULL), OK);
    CHECK_EQ(a.calls, b.calls); /* never called after unsubscribe */
    idlelock_destroy(l);
}

/* Regression (found by trying to break 1.1): with two threads passing one
 * out buffer, listeners heard a snapshot read back from that buffer after
 * the other thread had rewritten it, and seq went backwards. Two host
 * threads writing one buffer is the host's own race; it must not change
 * what listeners hear (the library never reads the host's buffer back). */
static idlelock *shared_lock;
static idlelock_snapshot shared_out;
static uint64_t shared_last_seq;
static long shared_heard, shared_backwards;

static void shared_listener(void *ctx, const idlelock_snapshot *s)
{
    (void)ctx;
    shared_heard++;
    if (s->seq < shared_last_seq)
        shared_backwards++;
    shared_last_seq = s->seq;
}

static void *shared_worker(void *arg)
{
    int i;
    (void)arg;
    for (i = 0; i < 300000; i++) {
        shared_out.size = sizeof shared_out;
        (void)idlelock_inactive(shared_lock, &shared_out);
        shared_out.size = sizeof shared_out;
        (void)idlelock_foreground(shared_lock, &shared_out);
    }
    return NULL;
}

static void test_shared_out_buffer(void)
{
    uint64_t token = 0;
    pthread_t a, b;
    now = 0;
    shared_lock = new_lock();
    if (shared_lock == NULL)
        return;
    CHECK_ST(idlelock_set_passcode(shared_lock, LIT("1234")), OK);
    CHECK_ST(idlelock_subscribe(shared_lock, shared_listener, NULL, &token), OK);
    CHECK(pthread_create(&a, NULL, shared_worker, NULL) == 0);
    CHECK(pthread_create(&b, NULL, shared_worker, NULL) == 0);
    CHECK(pthread_join(a, NULL) == 0);
    CHECK(pthread_join(b, NULL) == 0);
    CHECK(shared_heard > 0);
    CHECK_EQ(shared_backwards, 0);
    idlelock_destroy(shared_lock);
}

static void test_listener_reentry(void)
{
    struct recorder r;
    idlelock_snapshot s;
    idlelock *l;
    memset(&r, 0, sizeof r);
    now = 0;
    l = new_lock();
    if (l == NULL)
        return;
    r.lock = l;
    r.lock_from_inside = 1;
    CHECK_ST(idlelock_subscribe(l, record, &r, &r.token), OK);
    CHECK_ST(idlelock_set_passcode(l, LIT("1234")), OK); /* engages: the listener locks */
    CHECK_ST(r.inner_status, OK);
    s = snap_of(l);
    CHECK_EQ(s.state, IDLELOCK_STATE_LOCKED);
    CHECK_EQ(s.reason, IDLELOCK_REASON_MANUAL);
    CHECK_EQ(r.calls, 2); /* the inner change, delivered after the first */
    CHECK_EQ(r.out_of_order, 0);
    CHECK(r.calls == 2 && r.state[1] == IDLELOCK_STATE_LOCKED && r.seq[1] == s.seq);
    CHECK_ST(idlelock_unsubscribe(l, r.token), OK);
    idlelock_destroy(l);
}

static void test_listener_limit(void)
{
    uint64_t tokens[IDLELOCK_LISTENERS_MAX + 1];
    idlelock *l = new_lock();
    int i, bad = 0;
    if (l == NULL)
        return;
    for (i = 0; i < IDLELOCK_LISTENERS_MAX; i++)
        if (idlelock_subscribe(l, noop_listener, NULL, &tokens[i]) != OK)
            bad++;
    CHECK_EQ(bad, 0);
    CHECK_ST(idlelock_subscribe(l, noop_listener, NULL, &tokens[i]), INVAL);
    for (i = 0, bad = 0; i < IDLELOCK_LISTENERS_MAX; i++)
        if (idlelock_unsubscribe(l, tokens[i]) != OK)
            bad++;
    CHECK_EQ(bad, 0);
    idlelock_destroy(l);
}

/* ---------------------------------------------------------------------- */
/* A fresh handle, and time at the ends of int64                           */
/* ---------------------------------------------------------------------- */

static void test_fresh_snapshot(void)
{
    idlelock_snapshot s;
    idlelock *l;
    now = 5000;
    l = new_lock();
    if (l == NULL)
        return;
    s = snap_of(l);
    CHECK_EQ(s.size, sizeof s);
    CHECK_EQ(s.state, IDLELOCK_STATE_UNLOCKED);
    CHECK_EQ(s.seq, 0);
    CHECK_EQ(s.reason, IDLELOCK_REASON_NONE);
    CHECK_EQ(s.is_enabled, 0);
    CHECK_EQ(s.is_biometrics_enabled, 0);
    CHECK_EQ(s.is_biometrics_available, 0);
    CHECK_EQ(s.is_away, 0);
    CHECK_EQ(s.attempts_remaining, 5);
    CHECK_EQ(s.last_activity_ms, 5000);
    CHECK_EQ(s.ms_until_idle_lock, IDLELOCK_NEVER);
    CHECK_ST(idlelock_require_unlocked(l), OK); /* not engaged: open */
    idlelock_destroy(l);
}

static void test_saturation(void)
{
    idlelock_config c;
    idlelock_snapshot s = blank_snap();
    idlelock *l;
    /* From INT64_MIN to INT64_MAX: away saturates, never wraps. */
    now = INT64_MIN;
    l = engaged_lock(5);
    if (l == NULL)
        return;
    CHECK_EQ(snap_of(l).ms_until_idle_lock, 60000);
    CHECK_ST(idlelock_background(l, NULL), OK);
    now = INT64_MAX;
    CHECK_ST(idlelock_foreground(l, &s), OK);
    CHECK_EQ(s.state, IDLELOCK_STATE_LOCKED);
    CHECK_EQ(s.reason, IDLELOCK_REASON_BACKGROUNDED);
    idlelock_destroy(l);
    /* A deadline past INT64_MAX saturates: no lock, no negative wait. */
    base_config(&c);
    c.idle_after_ms = IDLELOCK_NEVER - 1;
    now = INT64_MAX - 10;
    l = create_or_report(&c, __LINE__);
    if (l == NULL)
        return;
    CHECK_ST(idlelock_set_passcode(l, LIT("1234")), OK);
    now = INT64_MAX;
    s = snap_of(l);
    CHECK_EQ(s.state, IDLELOCK_STATE_UNLOCKED);
    CHECK(s.ms_until_idle_lock > 0);
    idlelock_destroy(l);
}

/* ---------------------------------------------------------------------- */
/* Several threads on one handle                                          */
/* ---------------------------------------------------------------------- */

/* A clock that moves 1 ms per reading, safe to call from any thread. */
static pthread_mutex_t tick_mutex = PTHREAD_MUTEX_INITIALIZER;
static int64_t tick_now;

static int64_t ticking_clock(void *ctx)
{
    int64_t v;
    (void)ctx;
    pthread_mutex_lock(&tick_mutex);
    v = ++tick_now;
    pthread_mutex_unlock(&tick_mutex);
    return v;
}

/* A listener's record, under its own mutex. */
struct guarded {
    pthread_mutex_t m;
    unsigned calls, out_of_order, after_gone;
    uint64_t last_seq;
    int gone; /* set once idlelock_unsubscribe() has returned */
};

static void guarded_listener(void *ctx, const idlelock_snapshot *s)
{
    struct guarded *g = ctx;
    pthread_mutex_lock(&g->m);
    if (g->calls > 0 && s->seq <= g->last_seq)
        g->out_of_order++;
    g->last_seq = s->seq;
    g->calls++;
    if (g->gone)
        g->after_gone++;
    pthread_mutex_unlock(&g->m);
}

#define WORKERS 4
#define WORKER_OPS 3000

struct worker {
    idlelock *l;
    int id;
    unsigned bad;
    int bad_status; /* the last unexpected status, and where */
    int bad_op;
};

/* get our own secret: OK with our value, or closed, or not there yet. */
static int worker_get(const struct worker *w, const char *name, const char *want)
{
    uint8_t buf[32];
    size_t len = sizeof buf;
    int st = idlelock_secret_get(w->l, name, buf, &len);
    if (st == OK && (len != strlen(want) || memcmp(buf, want, len) != 0))
        return -1; /* someone else's bytes: a bug */
    return st == OK || st == IDLELOCK_ERR_SESSION_LOCKED || st == IDLELOCK_ERR_NOT_FOUND
               ? OK : st;
}

/* One call; returns OK when its status is one the contract allows. */
static int worker_op(struct worker *w, int i)
{
    idlelock_snapshot s = blank_snap();
    char name[16], want[16];
    int st;
    snprintf(name, sizeof name, "t%d", w->id);
    snprintf(want, sizeof want, "value-%d", w->id);
    switch (i % 10) {
    case 0: return idlelock_touch(w->l, &s);
    case 1: return idlelock_check(w->l, NULL);
    case 2: return idlelock_background(w->l, &s);
    case 3: return idlelock_foreground(w->l, NULL);
    case 4: return idlelock_snapshot_get(w->l, &s);
    case 5:
        st = idlelock_secret_put(w->l, name, (const uint8_t *)want, strlen(want));
        return st == IDLELOCK_ERR_SESSION_LOCKED ? OK : st;
    case 6: return worker_get(w, name, want);
    case 7:
        st = idlelock_require_unlocked(w->l);
        return st == IDLELOCK_ERR_SESSION_LOCKED ? OK : st;
    case 8: return i % 100 == 8 ? idlelock_lock(w->l, NULL) : idlelock_touch(w->l, NULL);
    default:
        if (w->id == 0 && i % 150 == 9)
            st = idlelock_unlock(w->l, LIT("1234"), &s);
        else if (w->id == 1 && i % 1000 == 9)
            st = idlelock_set_passcode(w->l, LIT("1234"));
        else
            st = idlelock_check(w->l, &s);
        return st == IDLELOCK_ERR_SESSION_LOCKED ? OK : st;
    }
}

static void *worker_main(void *arg)
{
    struct worker *w = arg;
    int i;
    for (i = 0; i < WORKER_OPS; i++) {
        int st = worker_op(w, i);
        if (st != OK) {
            w->bad++;
            w->bad_status = st;
            w->bad_op = i % 10;
        }
    }
    return NULL;
}

/* Run WORKERS threads on `l`; if `g` is given, unsubscribe `token` while
 * they run. Returns the number of unexpected statuses. */
static unsigned run_workers(idlelock *l, struct guarded *g, uint64_t token)
{
    struct worker w[WORKERS];
    pthread_t t[WORKERS];
    unsigned bad = 0;
    int i, started = 0;
    for (i = 0; i < WORKERS; i++) {
        memset(&w[i], 0, sizeof w[i]);
        w[i].l = l;
        w[i].id = i;
        if (pthread_create(&t[i], NULL, worker_main, &w[i]) == 0)
            started++;
    }
    CHECK_EQ(started, WORKERS);
    if (g != NULL) {
        struct timespec pause = { 0, 20 * 1000 * 1000 };
        nanosleep(&pause, NULL);
        CHECK_ST(idlelock_unsubscribe(l, token), OK);
        pthread_mutex_lock(&g->m);
        g->gone = 1;
        pthread_mutex_unlock(&g->m);
    }
    for (i = 0; i < started; i++) {
        pthread_join(t[i], NULL);
        if (w[i].bad != 0)
            printf("FAIL worker %d: %u unexpected results, last %s in worker_op case %d\n",
                   i, w[i].bad, w[i].bad_status < 0 ? "a wrong secret value"
                   : sname(w[i].bad_status), w[i].bad_op);
        bad += w[i].bad;
    }
    return bad;
}

static void test_threads(void)
{
    static struct guarded g1 = { PTHREAD_MUTEX_INITIALIZER, 0, 0, 0, 0, 0 };
    static struct guarded g2 = { PTHREAD_MUTEX_INITIALIZER, 0, 0, 0, 0, 0 };
    uint64_t t1 = 0, t2 = 0;
    idlelock_config c;
    idlelock_snapshot s;
    idlelock *l;
    base_config(&c);
    c.idle_after_ms = 200;
    c.clock = ticking_clock;
    c.clock_ctx = NULL;
    l = create_or_report(&c, __LINE__);
    if (l == NULL)
        return;
    CHECK_ST(idlelock_set_passcode(l, LIT("1234")), OK);
    CHECK_ST(idlelock_subscribe(l, guarded_listener, &g1, &t1), OK);
    CHECK_EQ(run_workers(l, NULL, 0), 0);
    s = snap_of(l);
    CHECK(g1.calls > 0);
    CHECK_EQ(g1.out_of_order, 0);
    CHECK(g1.last_seq == s.seq); /* every change was delivered */
    CHECK_ST(idlelock_subscribe(l, guarded_listener, &g2, &t2), OK);
    CHECK_EQ(run_workers(l, &g2, t2), 0);
    CHECK_EQ(g2.after_gone, 0); /* never called after unsubscribe returned */
    CHECK_EQ(g2.out_of_order, 0);
    CHECK_EQ(g1.out_of_order, 0);
    idlelock_destroy(l);
}

int main(void)
{
    test_versions();
    test_status_names();
    test_null_handle();
    test_null_create();
    test_null_pointers();
    test_config_init();
    test_config_sizes();
    test_snapshot_sizes();
    test_config_bounds();
    test_config_timeouts();
    test_config_pointers();
    test_failed_call_changes_nothing();
    test_set_passcode_args();
    test_unlock_args_not_counted();
    test_lockout_order();
    test_failure_reports();
    test_config_copied();
    test_biometrics();
    test_secrets();
    test_last_error_threads();
    test_listener_basics();
    test_listener_reentry();
    test_shared_out_buffer();
    test_listener_limit();
    test_fresh_snapshot();
    test_saturation();
    test_threads();
    printf("%u passed, %u failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
