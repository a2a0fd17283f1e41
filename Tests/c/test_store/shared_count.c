/*
 * shared_count.c: wrong passcodes in one process count in the next one;
 * the lockout is in force from create in a fresh process.
 */
#include "harness.h"

static char t1_path[200];

static void t1_first(void *arg, int64_t values[4])
{
    idlelock *h = open_store(t1_path, 5, 0, __FILE__, __LINE__);
    idlelock_snapshot s;
    int i;
    (void)arg;
    (void)values;
    if (h == NULL) return;
    /* No device key: a stored session is LOCKED (STARTUP) from create. */
    s = snap(h);
    CHECK_EQ(s.state, IDLELOCK_STATE_LOCKED, "t1 first: state after create");
    CHECK_EQ(s.reason, IDLELOCK_REASON_STARTUP, "t1 first: reason after create");
    CHECK_EQ(s.is_enabled, 1, "t1 first: is_enabled after create");
    CHECK_EQ(s.attempts_remaining, 5, "t1 first: attempts_remaining after create");
    s = snap_init();
    CHECK_ST(idlelock_start(h, &s), IDLELOCK_OK, "t1 first: idlelock_start");
    CHECK_EQ(s.state, IDLELOCK_STATE_LOCKED, "t1 first: state after start");
    for (i = 1; i <= 4; i++) {
        char what[64];
        snprintf(what, sizeof what, "t1 first: wrong unlock %d", i);
        CHECK_ST(unlock_with(h, WRONG, &s), IDLELOCK_ERR_INVALID_PASSCODE, what);
        snprintf(what, sizeof what, "t1 first: attempts_remaining after wrong %d", i);
        CHECK_EQ(s.attempts_remaining, 5 - i, what);
        snprintf(what, sizeof what, "t1 first: state after wrong %d", i);
        CHECK_EQ(s.state, IDLELOCK_STATE_LOCKED, what);
    }
    idlelock_destroy(h);
}

static void t1_second(void *arg, int64_t values[4])
{
    idlelock *h = open_store(t1_path, 5, 0, __FILE__, __LINE__);
    idlelock_snapshot s;
    char buf[64];
    (void)arg;
    (void)values;
    if (h == NULL) return;
    s = snap(h);
    CHECK_EQ(s.state, IDLELOCK_STATE_LOCKED, "t1 second: state after create");
    CHECK_EQ(s.attempts_remaining, 1, "t1 second: attempts_remaining after create (count shared)");
    CHECK_ST(idlelock_start(h, NULL), IDLELOCK_OK, "t1 second: idlelock_start");
    CHECK_ST(unlock_with(h, WRONG, &s), IDLELOCK_ERR_LOCKED_OUT, "t1 second: 5th wrong unlock");
    CHECK_EQ(s.state, IDLELOCK_STATE_LOCKED_OUT, "t1 second: state after 5th wrong");
    CHECK_EQ(s.attempts_remaining, 0, "t1 second: attempts_remaining after 5th wrong");
    CHECK_ST(unlock_with(h, RIGHT, &s), IDLELOCK_ERR_LOCKED_OUT,
             "t1 second: right unlock after lockout");
    CHECK_EQ(s.state, IDLELOCK_STATE_LOCKED_OUT, "t1 second: state after right unlock");
    CHECK_ST(get_text(h, "token", buf, sizeof buf), IDLELOCK_ERR_SESSION_LOCKED,
             "t1 second: secret_get while locked out");
    idlelock_destroy(h);
}

static void t1_fresh(void *arg, int64_t values[4])
{
    idlelock *h = open_store(t1_path, 5, 0, __FILE__, __LINE__);
    idlelock_snapshot s;
    char buf[64];
    (void)arg;
    (void)values;
    if (h == NULL) return;
    /* Right after create, before start: the lockout is in force. */
    s = snap(h);
    CHECK_EQ(s.state, IDLELOCK_STATE_LOCKED_OUT, "t1 fresh: state right after create");
    CHECK_EQ(s.attempts_remaining, 0, "t1 fresh: attempts_remaining right after create");
    CHECK_EQ(s.is_enabled, 1, "t1 fresh: is_enabled right after create");
    CHECK_ST(idlelock_require_unlocked(h), IDLELOCK_ERR_SESSION_LOCKED,
             "t1 fresh: require_unlocked before start");
    s = snap_init();
    CHECK_ST(idlelock_start(h, &s), IDLELOCK_OK, "t1 fresh: idlelock_start");
    CHECK_EQ(s.state, IDLELOCK_STATE_LOCKED_OUT, "t1 fresh: state after start");
    CHECK_ST(unlock_with(h, RIGHT, &s), IDLELOCK_ERR_LOCKED_OUT, "t1 fresh: right unlock");
    CHECK_EQ(s.state, IDLELOCK_STATE_LOCKED_OUT, "t1 fresh: state after right unlock");
    CHECK_ST(get_text(h, "token", buf, sizeof buf), IDLELOCK_ERR_SESSION_LOCKED,
             "t1 fresh: secret_get");
    idlelock_destroy(h);
}

void test_shared_count(void)
{
    store_path(t1_path, sizeof t1_path, "t1.store");
    make_store(t1_path, 5, 0, "t1-secret");
    join(spawn("t1 first child", t1_first, NULL), NULL);
    join(spawn("t1 second child", t1_second, NULL), NULL);
    /* The fresh handle in the parent (created after the children ended). */
    t1_fresh(NULL, NULL);
    /* And once more in a fresh process. */
    join(spawn("t1 fresh child", t1_fresh, NULL), NULL);
}
