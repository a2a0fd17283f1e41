/* SPDX-License-Identifier: MIT */
/*
 * secrets.c: secret names and values, their limits, BUFFER_TOO_SMALL,
 * the count.
 */
#include "harness.h"

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

void test_secrets(void)
{
    idlelock *l = new_lock();
    if (l == NULL)
        return;
    test_secret_names_values(l);
    test_secret_get_buffers(l);
    idlelock_destroy(l);
    test_secret_count();
}
