/* SPDX-License-Identifier: MIT */
/*
 * time_edges.c: time at the ends of int64 (saturating arithmetic).
 */
#include "harness.h"

void test_saturation(void)
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
    l = create_or_report(&c, __FILE__, __LINE__);
    if (l == NULL)
        return;
    CHECK_ST(idlelock_set_passcode(l, LIT("1234")), OK);
    now = INT64_MAX;
    s = snap_of(l);
    CHECK_EQ(s.state, IDLELOCK_STATE_UNLOCKED);
    CHECK(s.ms_until_idle_lock > 0);
    idlelock_destroy(l);
}
