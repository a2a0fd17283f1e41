/*
 * biometrics.c: the biometric calls on a lock without an authenticator.
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
