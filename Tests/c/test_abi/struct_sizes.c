/* SPDX-License-Identifier: MIT */
/*
 * struct_sizes.c: configs and snapshots of every size (older and newer
 * headers: read only what the size covers, zero-fill the rest, refuse a
 * size below the first version's).
 */
#include "harness.h"

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

void test_config_sizes(void)
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
    /* The 1.1 struct ended at delay_schedule_len (its sizeof: where the
     * 1.2 fields start): a 1.1 host gets every 1.2 policy off; a size
     * inside a 1.2 field matches no header. */
    {
        size_t v11 = offsetof(idlelock_config, passcode_max_age_ms);
        memset(&c, 0xA5, sizeof c);
        CHECK_ST(idlelock_config_init(&c, v11), OK);
        CHECK(((const uint8_t *)&c)[v11] == 0xA5);
        c.idle_after_ms = 60000;
        c.kdf_opslimit = IDLELOCK_KDF_OPSLIMIT_MIN;
        c.kdf_memlimit = IDLELOCK_KDF_MEMLIMIT_MIN;
        CHECK_ST(idlelock_create(&c, &l), OK); /* 0xA5 past v11: never read */
        idlelock_destroy(l);
        l = NULL;
        CHECK_ST(idlelock_config_init(&c, v11 + 4), INVAL);
        c.size = (uint32_t)(v11 + 4);
        CHECK_ST(idlelock_create(&c, &l), INVAL);
        CHECK(l == NULL);
    }
}

/* A snapshot followed by room for fields of a newer header. */
typedef union {
    idlelock_snapshot s;
    unsigned char bytes[sizeof(idlelock_snapshot) + 16];
} big_snapshot;

void test_snapshot_sizes(void)
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
