/*
 * concurrent.c: two processes hammering one store: one count, never
 * past max_attempts, both end LOCKED_OUT.
 */
#include "harness.h"

static char t2_path[200];
static int t2_ready[2], t2_go[2];

static void t2_hammer(void *arg, int64_t values[4])
{
    idlelock *h;
    idlelock_snapshot s;
    int invalid = 0, unexpected = 0, last = -1, i;
    int32_t previous = 11;
    (void)arg;
    close(t2_ready[0]);
    close(t2_go[1]);
    h = open_store(t2_path, 10, 0, __FILE__, __LINE__);
    if (h == NULL) return;
    CHECK_ST(idlelock_start(h, NULL), IDLELOCK_OK, "t2: idlelock_start");
    send_byte(t2_ready[1], 'r');
    CHECK(recv_byte(t2_go[0]) == 'g', "t2: no go signal from the parent");
    for (i = 0; i < 40; i++) {
        last = unlock_with(h, WRONG, &s);
        if (last == IDLELOCK_ERR_INVALID_PASSCODE) {
            invalid++;
            CHECK(s.attempts_remaining >= 1 && s.attempts_remaining < previous,
                  "t2: attempts_remaining %d after an INVALID_PASSCODE (previous %d): must be "
                  "1..9 and strictly decreasing within one process",
                  (int)s.attempts_remaining, (int)previous);
            previous = s.attempts_remaining;
            continue;
        }
        if (last == IDLELOCK_ERR_LOCKED_OUT) break;
        unexpected++;
        CHECK(0, "t2: wrong unlock returned %s (%s)", sname(last), idlelock_last_error());
    }
    CHECK_ST(last, IDLELOCK_ERR_LOCKED_OUT, "t2: the last wrong unlock");
    CHECK_EQ(s.state, IDLELOCK_STATE_LOCKED_OUT, "t2: state at the end");
    CHECK_EQ(s.attempts_remaining, 0, "t2: attempts_remaining at the end");
    values[0] = invalid;
    values[1] = last;
    values[2] = unexpected;
    idlelock_destroy(h);
}

void test_concurrent(void)
{
    struct child a, b;
    int64_t va[4] = {0, 0, 0, 0}, vb[4] = {0, 0, 0, 0};
    int ra, rb;
    idlelock *h;
    store_path(t2_path, sizeof t2_path, "t2.store");
    make_store(t2_path, 10, 0, NULL);
    if (pipe(t2_ready) != 0 || pipe(t2_go) != 0) {
        CHECK(0, "pipe failed (errno %d)", errno);
        return;
    }
    a = spawn("t2 child A", t2_hammer, NULL);
    b = spawn("t2 child B", t2_hammer, NULL);
    close(t2_ready[1]);
    close(t2_go[0]);
    /* Both have opened the store and started; release them together. */
    CHECK(recv_byte(t2_ready[0]) == 'r' && recv_byte(t2_ready[0]) == 'r',
          "t2: a child never became ready");
    send_byte(t2_go[1], 'g');
    send_byte(t2_go[1], 'g');
    close(t2_go[1]);
    close(t2_ready[0]);
    ra = join(a, va);
    rb = join(b, vb);
    if (ra && rb) {
        CHECK(va[0] + vb[0] <= 9,
              "t2: %" PRId64 " + %" PRId64 " INVALID_PASSCODE results with max_attempts 10: "
              "more than 9 wrong attempts were checked (the count is not one count)",
              va[0], vb[0]);
        CHECK(va[1] == IDLELOCK_ERR_LOCKED_OUT && vb[1] == IDLELOCK_ERR_LOCKED_OUT,
              "t2: both children must end LOCKED_OUT (got %s and %s)", sname((int)va[1]),
              sname((int)vb[1]));
        if (verbose) {
            printf("info: t2 INVALID_PASSCODE counts %" PRId64 " + %" PRId64 "\n", va[0], vb[0]);
        }
    }
    h = open_store(t2_path, 10, 0, __FILE__, __LINE__);
    if (h != NULL) {
        idlelock_snapshot s = snap(h);
        CHECK_EQ(s.state, IDLELOCK_STATE_LOCKED_OUT, "t2 fresh: state after create");
        CHECK_EQ(s.attempts_remaining, 0, "t2 fresh: attempts_remaining after create");
        idlelock_destroy(h);
    }
}
