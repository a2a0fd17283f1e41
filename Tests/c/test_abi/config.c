/* SPDX-License-Identifier: MIT */
/*
 * config.c: what create takes and what it gives: config_init's
 * defaults, every config bound at and just past its edge (with the field
 * named in idlelock_last_error()), the timeouts, the authenticator, the
 * config's pointers, that create copies what they point to, and the
 * snapshot of a fresh handle.
 */
#include "harness.h"

void test_config_init(void)
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
    check_status(st, want, __FILE__, line, buf);
    if (st == OK) {
        idlelock_destroy(l);
        return;
    }
    check_true(l == NULL, __FILE__, line, "*out is NULL after a failed create");
    if (field != NULL) {
        snprintf(buf, sizeof buf, "last_error \"%s\" names %s", idlelock_last_error(), field);
        check_true(strstr(idlelock_last_error(), field) != NULL, __FILE__, line, buf);
    }
    if (text != NULL) {
        snprintf(buf, sizeof buf, "last_error \"%s\" shows the value %s",
                 idlelock_last_error(), text);
        check_true(strstr(idlelock_last_error(), text) != NULL, __FILE__, line, buf);
    }
}

void test_config_bounds(void)
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

void test_config_timeouts(void)
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

void test_config_pointers(void)
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
    /* A file name too long for <name>.tmp.XXXXXX beside it: create used to
     * succeed and every write fail (245..250 bytes), or create fail with
     * STORAGE (251..255). 244 bytes pass the check (the folder is absent:
     * STORAGE, and no file is made). */
    {
        static char long_name[64 + 256];
        size_t at = (size_t)snprintf(long_name, 64, "/nonexistent-idlelock-folder/");
        memset(long_name + at, 'n', 245);
        long_name[at + 245] = '\0';
        c.store_path = long_name;
        expect_create(&c, INVAL, "store_path", "245", __LINE__, "a store_path file name of 245 bytes");
        long_name[at + 244] = '\0';
        expect_create(&c, IDLELOCK_ERR_STORAGE, "folder", NULL, __LINE__, "a store_path file name of 244 bytes");
    }
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

/* Config pointers are copied at create: the caller may change or free
 * them afterwards. The device key is mixed into the passcode key, so a
 * library that kept the caller's pointer would no longer open its wrap. */
void test_config_copied(void)
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
    l = create_or_report(&c, __FILE__, __LINE__);
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

void test_fresh_snapshot(void)
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
