/* SPDX-License-Identifier: MIT */
/*
 * listeners.c: subscribe and unsubscribe: seq order, unsubscribe from
 * inside a listener, re-entry, a shared out buffer, the limit.
 */
#include "harness.h"

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

void test_listener_basics(void)
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

void test_shared_out_buffer(void)
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

void test_listener_reentry(void)
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

void test_listener_limit(void)
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
