/* SPDX-License-Identifier: MIT */
/*
 * biometrics.c: the biometric calls on a lock without an authenticator,
 * the two-phase pair a host without one drives itself, and the step-up
 * check (1.2).
 */
#include "harness.h"

void test_biometrics(void)
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

/* The pair as a C host drives it: the host keeps the secret an ENABLE
 * hands out and gives it back at the finish of an UNLOCK. */
void test_biometric_pair(void)
{
    idlelock_snapshot s = blank_snap();
    idlelock *l = new_lock();
    uint8_t secret[IDLELOCK_AUTH_SECRET_BYTES], wrong[IDLELOCK_AUTH_SECRET_BYTES];
    uint64_t token = 0, enable = 0;
    int i, nonzero = 0;
    if (l == NULL)
        return;
    memset(secret, 0, sizeof secret);
    CHECK_ST(idlelock_biometric_begin(l, IDLELOCK_BIOMETRIC_ENABLE, &token, secret, sizeof secret, &s),
             IDLELOCK_ERR_NO_PASSCODE);
    CHECK_ST(idlelock_set_passcode(l, LIT("1234")), OK);
    CHECK_ST(idlelock_biometric_begin(l, IDLELOCK_BIOMETRIC_UNLOCK, &token, NULL, 0, &s),
             IDLELOCK_ERR_LOCK_UNAVAILABLE); /* the shortcut is off */
    CHECK_ST(idlelock_biometric_begin(l, IDLELOCK_BIOMETRIC_ENABLE, &enable, secret, sizeof secret, &s), OK);
    for (i = 0; i < (int)sizeof secret; i++)
        nonzero |= secret[i];
    CHECK(enable != 0 && nonzero != 0);
    CHECK_EQ(s.is_biometrics_enabled, 0);
    CHECK_ST(idlelock_biometric_finish(l, enable, IDLELOCK_AUTH_OK, secret, sizeof secret, &s), INVAL);
    CHECK_ST(idlelock_biometric_finish(l, enable, IDLELOCK_AUTH_OK, NULL, 0, &s), OK);
    CHECK_EQ(s.is_biometrics_enabled, 1);
    CHECK_ST(idlelock_biometric_finish(l, enable, IDLELOCK_AUTH_OK, NULL, 0, &s), INVAL); /* once */
    CHECK_ST(idlelock_lock(l, NULL), OK);
    now += 1000;
    CHECK_ST(idlelock_biometric_begin(l, IDLELOCK_BIOMETRIC_UNLOCK, &token, NULL, 0, &s), OK);
    CHECK_EQ(s.state, IDLELOCK_STATE_LOCKED);
    CHECK_ST(idlelock_biometric_finish(l, token, IDLELOCK_AUTH_CANCELLED, NULL, 0, &s), IDLELOCK_ERR_LOCK_UNAVAILABLE);
    CHECK_EQ(s.state, IDLELOCK_STATE_LOCKED);
    CHECK_ST(idlelock_biometric_begin(l, IDLELOCK_BIOMETRIC_UNLOCK, &token, NULL, 0, &s), OK);
    CHECK_ST(idlelock_biometric_finish(l, token, 7, secret, sizeof secret, &s), INVAL);
    CHECK_EQ(s.state, IDLELOCK_STATE_LOCKED);
    now += 2000;
    CHECK_ST(idlelock_biometric_finish(l, token, IDLELOCK_AUTH_OK, secret, sizeof secret, &s), OK);
    CHECK_EQ(s.state, IDLELOCK_STATE_UNLOCKED);
    CHECK_EQ(s.last_auth_ms, now);
    CHECK_EQ(s.attempts_remaining, 5);
    /* A secret that does not open the wrap turns the shortcut off. */
    memcpy(wrong, secret, sizeof wrong);
    wrong[0] ^= 1;
    CHECK_ST(idlelock_lock(l, NULL), OK);
    CHECK_ST(idlelock_biometric_begin(l, IDLELOCK_BIOMETRIC_UNLOCK, &token, NULL, 0, &s), OK);
    CHECK_ST(idlelock_biometric_finish(l, token, IDLELOCK_AUTH_OK, wrong, sizeof wrong, &s),
             IDLELOCK_ERR_LOCK_UNAVAILABLE);
    CHECK_EQ(s.state, IDLELOCK_STATE_LOCKED);
    CHECK_EQ(s.is_biometrics_enabled, 0);
    idlelock_destroy(l);
}

/* idlelock_require_recent_auth: bounds, and the last authentication. */
void test_recent_auth(void)
{
    idlelock_snapshot s = blank_snap();
    idlelock *l = new_lock();
    if (l == NULL)
        return;
    CHECK_ST(idlelock_require_recent_auth(l, 1000), IDLELOCK_ERR_NO_PASSCODE);
    CHECK_ST(idlelock_set_passcode(l, LIT("1234")), OK);
    CHECK_ST(idlelock_require_recent_auth(l, 0), INVAL);
    CHECK_ST(idlelock_require_recent_auth(l, -1), INVAL);
    CHECK_ST(idlelock_require_recent_auth(l, IDLELOCK_RECENT_AUTH_MAX_MS + 1), INVAL);
    CHECK(strstr(idlelock_last_error(), "max_age_ms") != NULL);
    CHECK_ST(idlelock_require_recent_auth(l, 1000), IDLELOCK_ERR_REAUTH_REQUIRED);
    CHECK_ST(idlelock_snapshot_get(l, &s), OK);
    CHECK_EQ(s.last_auth_ms, IDLELOCK_NEVER);
    CHECK_EQ(s.is_passcode_required, 0);
    CHECK_ST(idlelock_unlock(l, LIT("1234"), &s), OK);
    CHECK_EQ(s.last_auth_ms, now);
    now += 1000;
    CHECK_ST(idlelock_require_recent_auth(l, 1000), OK);
    CHECK_ST(idlelock_require_recent_auth(l, IDLELOCK_RECENT_AUTH_MAX_MS), OK);
    now += 1;
    CHECK_ST(idlelock_require_recent_auth(l, 1000), IDLELOCK_ERR_REAUTH_REQUIRED);
    CHECK_ST(idlelock_lock(l, NULL), OK);
    CHECK_ST(idlelock_require_recent_auth(l, 1000), IDLELOCK_ERR_SESSION_LOCKED);
    idlelock_destroy(l);
}
