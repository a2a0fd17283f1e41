/* SPDX-License-Identifier: MIT */
/*
 * rollback.c: a store put back to an older copy (docs/STORE.md,
 * "Rollback"), with real processes. A running handle never adopts a
 * generation of its sign-in lower than one it has seen, and the mark in
 * `<store>.lock` makes a process started after the copy was put back
 * refuse it too: IDLELOCK_ERR_STORAGE, the session locked, the file left
 * as it is. A sign-out is final (its latest copy does not sign it in
 * again); a new sign-in starts afresh; an empty `<store>.lock` (as 1.2.0
 * left it) is no mark, and the first process to open the store writes one.
 *
 * Regression (issue 19, finding 5): restoring an older copy of the store
 * file was adopted by running handles and new processes alike: attempts,
 * a lockout and biometric uses came back.
 */
#include "harness.h"

static char r_path[200];

/* Parent -> child commands and child -> parent acknowledgements. */
static int r_cmd[2], r_ack[2];

/* The store's bytes now; *len receives the size (0 when absent). */
static unsigned char *slurp(const char *path, size_t *len)
{
    static unsigned char bufs[4][1 << 16];
    static int next;
    unsigned char *buf = bufs[next++ % 4];
    int fd = open(path, O_RDONLY);
    *len = 0;
    if (fd < 0) return buf;
    *len = read_full(fd, buf, sizeof bufs[0]);
    close(fd);
    return buf;
}

/* Puts `bytes` back at `path` as a restore tool would: a new file renamed
 * over the store. */
static void put_back(const char *path, const unsigned char *bytes, size_t len)
{
    char temp[260];
    int fd;
    snprintf(temp, sizeof temp, "%s.restore", path);
    fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    CHECK(fd >= 0, "cannot write %s (errno %d)", temp, errno);
    if (fd < 0) return;
    CHECK(write_all(fd, bytes, len) == 0, "write to %s failed", temp);
    close(fd);
    CHECK(rename(temp, path) == 0, "rename over %s failed (errno %d)", path, errno);
}

static off_t lock_file_size(const char *path)
{
    char lock[220];
    struct stat st;
    snprintf(lock, sizeof lock, "%s.lock", path);
    return stat(lock, &st) == 0 ? st.st_size : -1;
}

/* ---------------------------------------------------------------------- */
/* A running handle and a new process                                     */
/* ---------------------------------------------------------------------- */

/* Unlocked (device key, lock_on_start 0); writes twice while the parent
 * keeps a copy between; then meets the copy put back. */
static void running_holder(void *arg, int64_t values[4])
{
    idlelock_config cfg;
    idlelock *h = NULL;
    idlelock_snapshot s;
    char buf[64];
    (void)arg;
    (void)values;
    close(r_cmd[1]);
    close(r_ack[0]);
    make_config(&cfg, r_path, 5, 0, 1);
    CHECK_ST(idlelock_create(&cfg, &h), IDLELOCK_OK, "rollback: create");
    if (h == NULL) {
        send_byte(r_ack[1], 'x');
        return;
    }
    CHECK_ST(idlelock_start(h, NULL), IDLELOCK_OK, "rollback: start");
    CHECK_ST(put_text(h, "token", "t1"), IDLELOCK_OK, "rollback: put t1");
    send_byte(r_ack[1], 'a'); /* the parent copies the store */
    CHECK(recv_byte(r_cmd[0]) == 'c', "rollback: no 'copied' from the parent");
    CHECK_ST(put_text(h, "token", "t2"), IDLELOCK_OK, "rollback: put t2");
    CHECK_ST(unlock_with(h, WRONG, &s), IDLELOCK_ERR_INVALID_PASSCODE, "rollback: a wrong re-authentication");
    CHECK_EQ(s.attempts_remaining, 4, "rollback: one attempt counted");
    send_byte(r_ack[1], 'b'); /* the parent puts the copy back */
    CHECK(recv_byte(r_cmd[0]) == 'R', "rollback: no 'restored' from the parent");
    CHECK_ST(idlelock_require_unlocked(h), IDLELOCK_ERR_STORAGE, "rollback: the gate on an older copy");
    CHECK(strstr(idlelock_last_error(), "older copy") != NULL, "rollback: the message: %s", idlelock_last_error());
    s = snap(h);
    CHECK_EQ(s.state, IDLELOCK_STATE_LOCKED, "rollback: the session locks");
    CHECK_EQ(s.reason, IDLELOCK_REASON_STARTUP, "rollback: reason");
    CHECK_EQ(s.is_enabled, 1, "rollback: still engaged");
    CHECK_ST(get_text(h, "token", buf, sizeof buf), IDLELOCK_ERR_STORAGE, "rollback: secret_get");
    CHECK_ST(unlock_with(h, RIGHT, &s), IDLELOCK_ERR_STORAGE, "rollback: unlock on an older copy");
    CHECK_EQ(s.attempts_remaining, 4, "rollback: the count of the older copy was adopted");
    send_byte(r_ack[1], 'r');
    CHECK(recv_byte(r_cmd[0]) == 'F', "rollback: no 'fixed' from the parent");
    CHECK_ST(unlock_with(h, RIGHT, &s), IDLELOCK_OK, "rollback: unlock once the latest copy is back");
    CHECK_ST(get_text(h, "token", buf, sizeof buf), IDLELOCK_OK, "rollback: secret_get after the repair");
    CHECK(strcmp(buf, "t2") == 0, "rollback: the secret after the repair is '%s'", buf);
    idlelock_destroy(h);
    send_byte(r_ack[1], 'd');
}

/* A process started after the copy was put back. */
static void new_process(void *arg, int64_t values[4])
{
    idlelock_config cfg;
    idlelock *h = (idlelock *)&h;
    int with_key = (int)(intptr_t)arg;
    (void)values;
    make_config(&cfg, r_path, 5, 1, with_key);
    CHECK_ST(idlelock_create(&cfg, &h), IDLELOCK_ERR_STORAGE, "rollback: a new process on an older copy");
    CHECK(h == NULL, "rollback: create wrote a handle");
    CHECK(strstr(idlelock_last_error(), "older copy") != NULL, "rollback: the message: %s", idlelock_last_error());
}

/* A process that must open the store (and start, unlock, read). */
static void opens(void *arg, int64_t values[4])
{
    const char *want = arg;
    idlelock *h = open_store(r_path, 5, 1, __FILE__, __LINE__);
    idlelock_snapshot s;
    char buf[64];
    (void)values;
    if (h == NULL) return;
    CHECK_ST(idlelock_start(h, NULL), IDLELOCK_OK, "rollback: start");
    CHECK_ST(unlock_with(h, RIGHT, &s), IDLELOCK_OK, "rollback: unlock");
    if (want != NULL) {
        CHECK_ST(get_text(h, "token", buf, sizeof buf), IDLELOCK_OK, "rollback: secret_get");
        CHECK(strcmp(buf, want) == 0, "rollback: the secret is '%s', expected '%s'", buf, want);
    }
    idlelock_destroy(h);
}

static void test_running_and_new(void)
{
    struct child c;
    unsigned char copy[1 << 16], latest[1 << 16];
    size_t copy_len = 0, latest_len = 0, now_len = 0;
    unsigned char *now;
    store_path(r_path, sizeof r_path, "rollback.idlelock");
    make_store(r_path, 5, 1, "t0");
    if (pipe(r_cmd) != 0 || pipe(r_ack) != 0) {
        CHECK(0, "pipe failed (errno %d)", errno);
        return;
    }
    c = spawn("rollback: running handle", running_holder, NULL);
    close(r_cmd[0]);
    close(r_ack[1]);
    if (recv_byte(r_ack[0]) == 'a') {
        now = slurp(r_path, &copy_len);
        memcpy(copy, now, copy_len);
        send_byte(r_cmd[1], 'c');
        CHECK(recv_byte(r_ack[0]) == 'b', "rollback: no second write from the child");
        now = slurp(r_path, &latest_len);
        memcpy(latest, now, latest_len);
        put_back(r_path, copy, copy_len);
        send_byte(r_cmd[1], 'R');
        CHECK(recv_byte(r_ack[0]) == 'r', "rollback: the running handle did not report");
        join(spawn("rollback: new process", new_process, (void *)(intptr_t)1), NULL);
        now = slurp(r_path, &now_len);
        CHECK(now_len == copy_len && memcmp(now, copy, copy_len) == 0, "rollback: the older copy was written over");
        put_back(r_path, latest, latest_len);
        send_byte(r_cmd[1], 'F');
        CHECK(recv_byte(r_ack[0]) == 'd', "rollback: the running handle did not finish");
    } else {
        CHECK(0, "rollback: the running handle did not start");
    }
    close(r_cmd[1]);
    close(r_ack[0]);
    join(c, NULL);
    join(spawn("rollback: a new process on the latest copy", opens, "t2"), NULL);
}

/* ---------------------------------------------------------------------- */
/* A copy from before a lockout                                           */
/* ---------------------------------------------------------------------- */

static void lock_out(void *arg, int64_t values[4])
{
    idlelock *h = open_store(r_path, 2, 0, __FILE__, __LINE__);
    idlelock_snapshot s;
    (void)arg;
    (void)values;
    if (h == NULL) return;
    CHECK_ST(idlelock_start(h, NULL), IDLELOCK_OK, "lockout: start");
    CHECK_ST(unlock_with(h, WRONG, &s), IDLELOCK_ERR_INVALID_PASSCODE, "lockout: wrong 1");
    CHECK_ST(unlock_with(h, WRONG, &s), IDLELOCK_ERR_LOCKED_OUT, "lockout: wrong 2");
    idlelock_destroy(h);
}

static void test_pre_lockout_copy(void)
{
    unsigned char copy[1 << 16];
    size_t len = 0;
    unsigned char *now;
    store_path(r_path, sizeof r_path, "rollback-lockout.idlelock");
    make_store(r_path, 2, 0, "t0");
    now = slurp(r_path, &len);
    memcpy(copy, now, len);
    join(spawn("lockout: locks out", lock_out, NULL), NULL);
    put_back(r_path, copy, len);
    join(spawn("lockout: a new process on the pre-lockout copy", new_process, (void *)(intptr_t)0), NULL);
}

/* ---------------------------------------------------------------------- */
/* A sign-out is final; a new sign-in starts afresh                       */
/* ---------------------------------------------------------------------- */

static void sign_out(void *arg, int64_t values[4])
{
    idlelock *h = open_store(r_path, 5, 1, __FILE__, __LINE__);
    (void)arg;
    (void)values;
    if (h == NULL) return;
    CHECK_ST(idlelock_disable(h), IDLELOCK_OK, "sign-out: disable");
    idlelock_destroy(h);
}

static void sign_in(void *arg, int64_t values[4])
{
    (void)arg;
    (void)values;
    make_store(r_path, 5, 1, "second sign-in");
}

static void test_sign_out_and_in(void)
{
    unsigned char last[1 << 16];
    size_t len = 0;
    unsigned char *now;
    store_path(r_path, sizeof r_path, "rollback-signin.idlelock");
    make_store(r_path, 5, 1, "first sign-in");
    now = slurp(r_path, &len);
    memcpy(last, now, len);
    join(spawn("sign-in: signs out", sign_out, NULL), NULL);
    CHECK(!file_exists(r_path), "sign-in: the store is still there after disable");
    put_back(r_path, last, len);
    join(spawn("sign-in: the latest copy of a signed-out store", new_process, (void *)(intptr_t)1), NULL);
    unlink(r_path);
    join(spawn("sign-in: a new sign-in", sign_in, NULL), NULL);
    join(spawn("sign-in: a new process on the new sign-in", opens, "second sign-in"), NULL);
    /* Issue 26, finding 4: generations continue across sign-ins, so a copy
     * of the earlier sign-in put back after the new one is an older copy
     * (before, the mark named only the new sign-in, and the earlier one's
     * copy was taken with a full attempt count), and so is a copy of the
     * new sign-in taken before its latest write. */
    {
        unsigned char second[1 << 16];
        size_t second_len = 0;
        now = slurp(r_path, &second_len);
        memcpy(second, now, second_len);
        join(spawn("sign-in: a write on the new sign-in", opens, "second sign-in"), NULL);
        put_back(r_path, last, len);
        join(spawn("sign-in: a copy of the earlier sign-in", new_process, (void *)(intptr_t)1), NULL);
        put_back(r_path, second, second_len);
        join(spawn("sign-in: an older copy of the new sign-in", new_process, (void *)(intptr_t)1), NULL);
    }
}

/* ---------------------------------------------------------------------- */
/* The upgrade from 1.2.0: an empty <store>.lock                          */
/* ---------------------------------------------------------------------- */

static void write_more(void *arg, int64_t values[4])
{
    idlelock *h = open_store(r_path, 5, 0, __FILE__, __LINE__);
    idlelock_snapshot s;
    (void)arg;
    (void)values;
    if (h == NULL) return;
    CHECK_ST(idlelock_start(h, NULL), IDLELOCK_OK, "upgrade: start");
    CHECK_ST(unlock_with(h, WRONG, &s), IDLELOCK_ERR_INVALID_PASSCODE, "upgrade: a write");
    idlelock_destroy(h);
}

static void opens_without_key(void *arg, int64_t values[4])
{
    idlelock *h = open_store(r_path, 5, 0, __FILE__, __LINE__);
    (void)arg;
    (void)values;
    if (h != NULL) idlelock_destroy(h);
}

static void test_upgrade(void)
{
    unsigned char copy[1 << 16];
    size_t len = 0;
    unsigned char *now;
    char lock[220];
    store_path(r_path, sizeof r_path, "rollback-upgrade.idlelock");
    make_store(r_path, 5, 0, "t0");
    now = slurp(r_path, &len);
    memcpy(copy, now, len);
    snprintf(lock, sizeof lock, "%s.lock", r_path);
    CHECK(truncate(lock, 0) == 0, "upgrade: truncate <store>.lock (errno %d)", errno);
    join(spawn("upgrade: opens with an empty lock file", opens_without_key, NULL), NULL);
    CHECK(lock_file_size(r_path) > 0, "upgrade: no mark was written at create");
    join(spawn("upgrade: writes", write_more, NULL), NULL);
    put_back(r_path, copy, len);
    join(spawn("upgrade: a new process on an older copy", new_process, (void *)(intptr_t)0), NULL);
}

void test_rollback(void)
{
    test_running_and_new();
    test_pre_lockout_copy();
    test_sign_out_and_in();
    test_upgrade();
}
