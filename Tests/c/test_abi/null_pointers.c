/* SPDX-License-Identifier: MIT */
/*
 * null_pointers.c: NULL handles and pointers for every function;
 * destroy(NULL); a failed create sets *out to NULL.
 */
#include "harness.h"

void test_null_handle(void)
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
    CHECK_ST(idlelock_require_recent_auth(NULL, 1000), INVAL);
    CHECK_ST(idlelock_biometric_begin(NULL, IDLELOCK_BIOMETRIC_UNLOCK, &token, NULL, 0, &s), INVAL);
    CHECK_ST(idlelock_biometric_finish(NULL, 1, IDLELOCK_AUTH_CANCELLED, NULL, 0, &s), INVAL);
    idlelock_destroy(NULL);
    passed++; /* destroy(NULL) returned */
}

void test_null_create(void)
{
    idlelock_config c;
    idlelock *l = (idlelock *)(void *)&dummy_object;
    CHECK_ST(idlelock_config_init(NULL, sizeof c), INVAL);
    CHECK_ST(idlelock_create(NULL, &l), INVAL);
    CHECK(l == NULL); /* *out is set to NULL on failure */
    base_config(&c);
    CHECK_ST(idlelock_create(&c, NULL), INVAL);
}

void test_null_pointers(void)
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
    CHECK_ST(idlelock_biometric_begin(l, IDLELOCK_BIOMETRIC_UNLOCK, NULL, NULL, 0, &s), INVAL);
    CHECK_ST(idlelock_biometric_begin(l, IDLELOCK_BIOMETRIC_ENABLE, &token, NULL, 32, &s), INVAL);
    CHECK_ST(idlelock_biometric_finish(l, 1, IDLELOCK_AUTH_OK, NULL, 32, &s), INVAL);
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
