/* SPDX-License-Identifier: MIT */
/*
 * processes.c: several processes on one store.
 *
 *  1. Shared count: wrong passcodes in one process count in the next one;
 *     the lockout is in force from create in a fresh process.
 *  2. Concurrent hammering by two processes: one count, never past
 *     max_attempts, both end LOCKED_OUT.
 *  3. A lockout made by one process reaches other processes' running
 *     handles (a locked one and an unlocked one); a sign-out
 *     (idlelock_disable) in one process signs the others out.
 */
#include "harness.h"

/* ---------------------------------------------------------------------- */
/* 1. Shared count                                                        */
/* ---------------------------------------------------------------------- */

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

/* ---------------------------------------------------------------------- */
/* 2. Concurrent hammering                                                */
/* ---------------------------------------------------------------------- */

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

/* ---------------------------------------------------------------------- */
/* 3. A lockout or a sign-out in one process reaches running handles      */
/* ---------------------------------------------------------------------- */

static char t3_path[200];

struct t3_pipes {
    int cmd[2]; /* parent -> child */
    int ack[2]; /* child -> parent */
};

static struct t3_pipes t3_a, t3_c;

static void t3_close_parent_ends(struct t3_pipes *p)
{
    close(p->cmd[1]);
    close(p->ack[0]);
}

/* A: started and LOCKED (no device key: LOCKED from create). */
static void t3_locked_holder(void *arg, int64_t values[4])
{
    idlelock *h;
    idlelock_snapshot s;
    char buf[64];
    (void)arg;
    (void)values;
    t3_close_parent_ends(&t3_a);
    t3_close_parent_ends(&t3_c);
    h = open_store(t3_path, 5, 0, __FILE__, __LINE__);
    if (h == NULL) {
        send_byte(t3_a.ack[1], 'x');
        return;
    }
    s = snap_init();
    CHECK_ST(idlelock_start(h, &s), IDLELOCK_OK, "t3 A: idlelock_start");
    CHECK_EQ(s.state, IDLELOCK_STATE_LOCKED, "t3 A: state after start");
    send_byte(t3_a.ack[1], 'r');

    /* Another process has locked the store out meanwhile. */
    CHECK(recv_byte(t3_a.cmd[0]) == 'L', "t3 A: no lockout signal");
    CHECK_ST(unlock_with(h, RIGHT, &s), IDLELOCK_ERR_LOCKED_OUT,
             "t3 A: RIGHT passcode after another process locked the store out");
    CHECK_EQ(s.state, IDLELOCK_STATE_LOCKED_OUT, "t3 A: snapshot state after that unlock");
    CHECK_EQ(s.attempts_remaining, 0, "t3 A: attempts_remaining after that unlock");
    CHECK_EQ(s.reason, IDLELOCK_REASON_STARTUP, "t3 A: reason (kept from LOCKED)");
    s = snap(h);
    CHECK_EQ(s.state, IDLELOCK_STATE_LOCKED_OUT, "t3 A: snapshot_get state");
    CHECK_ST(get_text(h, "token", buf, sizeof buf), IDLELOCK_ERR_SESSION_LOCKED,
             "t3 A: secret_get while locked out");
    send_byte(t3_a.ack[1], 'l');

    /* Another process has signed out (idlelock_disable). */
    CHECK(recv_byte(t3_a.cmd[0]) == 'S', "t3 A: no sign-out signal");
    CHECK_ST(get_text(h, "token", buf, sizeof buf), IDLELOCK_ERR_NOT_FOUND,
             "t3 A: secret_get after a sign-out in another process");
    s = snap(h);
    CHECK_EQ(s.is_enabled, 0, "t3 A: is_enabled after the sign-out");
    CHECK_EQ(s.state, IDLELOCK_STATE_UNLOCKED, "t3 A: state after the sign-out");
    CHECK_EQ(s.reason, IDLELOCK_REASON_NONE, "t3 A: reason after the sign-out");
    CHECK_EQ(s.attempts_remaining, 5, "t3 A: attempts_remaining after the sign-out");
    CHECK_ST(unlock_with(h, RIGHT, &s), IDLELOCK_ERR_NO_PASSCODE,
             "t3 A: unlock after the sign-out");
    idlelock_destroy(h);
}

/* C: started, then UNLOCKED with the right passcode and reading a secret. */
static void t3_unlocked_holder(void *arg, int64_t values[4])
{
    idlelock *h;
    idlelock_snapshot s;
    char buf[64];
    (void)arg;
    (void)values;
    t3_close_parent_ends(&t3_a);
    t3_close_parent_ends(&t3_c);
    h = open_store(t3_path, 5, 0, __FILE__, __LINE__);
    if (h == NULL) {
        send_byte(t3_c.ack[1], 'x');
        return;
    }
    CHECK_ST(idlelock_start(h, NULL), IDLELOCK_OK, "t3 C: idlelock_start");
    CHECK_ST(unlock_with(h, RIGHT, &s), IDLELOCK_OK, "t3 C: right unlock");
    CHECK_EQ(s.state, IDLELOCK_STATE_UNLOCKED, "t3 C: state after right unlock");
    CHECK_ST(get_text(h, "token", buf, sizeof buf), IDLELOCK_OK, "t3 C: secret_get");
    CHECK(strcmp(buf, "t3-secret") == 0, "t3 C: token is \"%s\", expected \"t3-secret\"", buf);
    send_byte(t3_c.ack[1], 'r');

    CHECK(recv_byte(t3_c.cmd[0]) == 'L', "t3 C: no lockout signal");
    CHECK_ST(get_text(h, "token", buf, sizeof buf), IDLELOCK_ERR_SESSION_LOCKED,
             "t3 C (was unlocked): secret_get after another process locked the store out");
    s = snap(h);
    CHECK_EQ(s.state, IDLELOCK_STATE_LOCKED_OUT, "t3 C: state after seeing the lockout");
    CHECK_EQ(s.attempts_remaining, 0, "t3 C: attempts_remaining after seeing the lockout");
    CHECK_EQ(s.reason, IDLELOCK_REASON_NONE, "t3 C: reason (LOCKED_OUT from UNLOCKED keeps NONE)");
    CHECK_ST(idlelock_require_unlocked(h), IDLELOCK_ERR_SESSION_LOCKED,
             "t3 C: require_unlocked after the lockout");
    CHECK_ST(unlock_with(h, RIGHT, &s), IDLELOCK_ERR_LOCKED_OUT, "t3 C: right unlock after the lockout");
    send_byte(t3_c.ack[1], 'l');

    CHECK(recv_byte(t3_c.cmd[0]) == 'S', "t3 C: no sign-out signal");
    CHECK_ST(get_text(h, "token", buf, sizeof buf), IDLELOCK_ERR_NOT_FOUND,
             "t3 C: secret_get after a sign-out in another process");
    s = snap(h);
    CHECK_EQ(s.is_enabled, 0, "t3 C: is_enabled after the sign-out");
    CHECK_EQ(s.state, IDLELOCK_STATE_UNLOCKED, "t3 C: state after the sign-out");
    idlelock_destroy(h);
}

/* B: locks the store out with 5 wrong passcodes. */
static void t3_locker(void *arg, int64_t values[4])
{
    idlelock *h;
    idlelock_snapshot s;
    int i;
    (void)arg;
    (void)values;
    h = open_store(t3_path, 5, 0, __FILE__, __LINE__);
    if (h == NULL) return;
    CHECK_ST(idlelock_start(h, NULL), IDLELOCK_OK, "t3 B: idlelock_start");
    for (i = 1; i <= 4; i++) {
        CHECK_ST(unlock_with(h, WRONG, &s), IDLELOCK_ERR_INVALID_PASSCODE, "t3 B: wrong unlock 1-4");
        CHECK_EQ(s.attempts_remaining, 5 - i, "t3 B: attempts_remaining after a wrong unlock");
    }
    CHECK_ST(unlock_with(h, WRONG, &s), IDLELOCK_ERR_LOCKED_OUT, "t3 B: 5th wrong unlock");
    idlelock_destroy(h);
}

/* B2: signs out (a fresh process, LOCKED_OUT from create). */
static void t3_signer_out(void *arg, int64_t values[4])
{
    idlelock *h;
    idlelock_snapshot s;
    (void)arg;
    (void)values;
    h = open_store(t3_path, 5, 0, __FILE__, __LINE__);
    if (h == NULL) return;
    s = snap(h);
    CHECK_EQ(s.state, IDLELOCK_STATE_LOCKED_OUT, "t3 B2: state after create");
    CHECK_ST(idlelock_disable(h), IDLELOCK_OK, "t3 B2: idlelock_disable");
    s = snap(h);
    CHECK_EQ(s.is_enabled, 0, "t3 B2: is_enabled after disable");
    CHECK_EQ(s.state, IDLELOCK_STATE_UNLOCKED, "t3 B2: state after disable");
    idlelock_destroy(h);
}

void test_cross_process(void)
{
    struct child a, c;
    char lock_path[220];
    char ra, rc;
    store_path(t3_path, sizeof t3_path, "t3.store");
    snprintf(lock_path, sizeof lock_path, "%s.lock", t3_path);
    make_store(t3_path, 5, 0, "t3-secret");
    if (pipe(t3_a.cmd) != 0 || pipe(t3_a.ack) != 0 || pipe(t3_c.cmd) != 0 || pipe(t3_c.ack) != 0) {
        CHECK(0, "pipe failed (errno %d)", errno);
        return;
    }
    a = spawn("t3 child A (locked)", t3_locked_holder, NULL);
    c = spawn("t3 child C (unlocked)", t3_unlocked_holder, NULL);
    close(t3_a.cmd[0]);
    close(t3_a.ack[1]);
    close(t3_c.cmd[0]);
    close(t3_c.ack[1]);
    ra = recv_byte(t3_a.ack[0]);
    rc = recv_byte(t3_c.ack[0]);
    CHECK(ra == 'r' && rc == 'r', "t3: holders not ready ('%c', '%c')", ra ? ra : '0', rc ? rc : '0');

    join(spawn("t3 child B (locks out)", t3_locker, NULL), NULL);
    send_byte(t3_a.cmd[1], 'L');
    send_byte(t3_c.cmd[1], 'L');
    ra = recv_byte(t3_a.ack[0]);
    rc = recv_byte(t3_c.ack[0]);
    CHECK(ra == 'l' && rc == 'l', "t3: holders did not finish the lockout step");

    join(spawn("t3 child B2 (signs out)", t3_signer_out, NULL), NULL);
    CHECK(!file_exists(t3_path), "t3: the store file still exists after idlelock_disable");
    CHECK(file_exists(lock_path), "t3: <store>.lock was deleted by idlelock_disable");
    send_byte(t3_a.cmd[1], 'S');
    send_byte(t3_c.cmd[1], 'S');
    close(t3_a.cmd[1]);
    close(t3_c.cmd[1]);
    join(a, NULL);
    join(c, NULL);
    close(t3_a.ack[0]);
    close(t3_c.ack[0]);
}

/* ---------------------------------------------------------------------- */
/* A stored session hands out nothing before start                         */
/* ---------------------------------------------------------------------- */

/*
 * The header's "The store": until its first start, a handle that opened a stored, engaged
 * session has judged nothing of the restart, so it hands out nothing:
 * secrets and the gate answer SESSION_LOCKED; neither a new passcode nor
 * the shortcut can be set (an extension that never calls start gets no
 * secret). A second process opens the store of an app that keeps running
 * (device key, lock_on_start 0); after its start, with a recent saved
 * activity, the session is open.
 *
 * Regression (issue 11, finding 5): such a process got IDLELOCK_OK from
 * require_unlocked and read secrets until it called start.
 */
static char bs_path[200];

static void bs_extension(void *arg, int64_t values[4])
{
    idlelock_config cfg;
    idlelock *h = NULL;
    idlelock_snapshot s;
    char buf[64];
    (void)arg;
    (void)values;
    make_config(&cfg, bs_path, 5, 0, 1);
    CHECK_ST(idlelock_create(&cfg, &h), IDLELOCK_OK, "before start: create");
    if (h == NULL) return;
    s = snap(h);
    CHECK_EQ(s.is_enabled, 1, "before start: is_enabled");
    CHECK_ST(idlelock_require_unlocked(h), IDLELOCK_ERR_SESSION_LOCKED, "before start: the gate");
    CHECK(strstr(idlelock_last_error(), "idlelock_start") != NULL,
          "before start: the message names idlelock_start: %s", idlelock_last_error());
    CHECK_ST(get_text(h, "token", buf, sizeof buf), IDLELOCK_ERR_SESSION_LOCKED, "before start: secret_get");
    CHECK_ST(put_text(h, "token", "overwritten"), IDLELOCK_ERR_SESSION_LOCKED, "before start: secret_put");
    CHECK_ST(idlelock_secret_remove(h, "token"), IDLELOCK_ERR_SESSION_LOCKED, "before start: secret_remove");
    CHECK_ST(idlelock_set_passcode(h, "1357", 4), IDLELOCK_ERR_SESSION_LOCKED, "before start: set_passcode");

    CHECK_ST(idlelock_start(h, &s), IDLELOCK_OK, "before start: start");
    CHECK_EQ(s.state, IDLELOCK_STATE_UNLOCKED, "before start: state after start (recent activity)");
    CHECK_ST(idlelock_require_unlocked(h), IDLELOCK_OK, "before start: the gate after start");
    CHECK_ST(get_text(h, "token", buf, sizeof buf), IDLELOCK_OK, "before start: secret_get after start");
    CHECK(strcmp(buf, "bs-secret") == 0, "before start: the secret is '%s'", buf);
    idlelock_destroy(h);
}

void test_before_start(void)
{
    idlelock_config cfg;
    idlelock *app = NULL;
    store_path(bs_path, sizeof bs_path, "before-start.store");
    make_config(&cfg, bs_path, 5, 0, 1);
    CHECK_ST(idlelock_create(&cfg, &app), IDLELOCK_OK, "before start: the app's create");
    if (app == NULL) return;
    CHECK_ST(idlelock_start(app, NULL), IDLELOCK_OK, "before start: the app's start");
    CHECK_ST(idlelock_set_passcode(app, RIGHT, strlen(RIGHT)), IDLELOCK_OK, "before start: set_passcode");
    CHECK_ST(put_text(app, "token", "bs-secret"), IDLELOCK_OK, "before start: secret_put");
    join(spawn("before start: the extension", bs_extension, NULL), NULL);
    CHECK_ST(idlelock_require_unlocked(app), IDLELOCK_OK, "before start: the app's own gate");
    idlelock_destroy(app);
}
