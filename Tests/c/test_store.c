/*
 * test_store.c: the on-disk store of libidlelock shared by real processes
 * (fork/waitpid), checked against include/idlelock.h ("The store") and
 * SPEC.md §3 (creation and start), §4, §6 and §7.
 *
 * Prints one line per failed check (children print their own, and report
 * their counts to the parent through a pipe), then exactly
 * `N passed, N failed` on its own line; exits 1 when any check failed.
 *
 *  1. Shared count: wrong passcodes in one process count in the next one;
 *     the lockout is in force from create in a fresh process.
 *  2. Concurrent hammering by two processes: one count, never past
 *     max_attempts, both end LOCKED_OUT.
 *  3. A lockout made by one process is seen by other processes' running
 *     handles (a locked one and an unlocked one); a sign-out
 *     (idlelock_disable) in one process signs the others out.
 *  4. Kill at any instant: a child unlocks, puts a secret, locks and makes
 *     a wrong attempt in a loop and is killed with SIGKILL after a random
 *     delay; the store must open, hold no stray temporary file, be LOCKED
 *     after start, never refund a wrong attempt, and hold the last secret
 *     reported (or the one in flight), never an older one.
 *  5. The store file is mode 0600 (even with umask 0); `<store>.lock` is
 *     never deleted or replaced, also not by idlelock_disable.
 *
 * Every handle is created after fork() in the process that uses it, and
 * every config uses the Argon2id floor and the default clock
 * (CLOCK_BOOTTIME, shared by the processes of one boot) with 10-minute
 * timeouts that never fire during the test.
 *
 * The random kill delays use a fixed seed (printed), which the environment
 * variable IDLELOCK_TEST_SEED may override. `-v` prints what the kill test
 * covered.
 *
 * Build and run (from the repository root):
 *   cc -std=c99 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -pedantic -Werror \
 *      -Iinclude Tests/c/test_store.c -Lbuild -l:libidlelock.so.1 \
 *      -Wl,-rpath,$PWD/build -lpthread -o build/test_store
 *   build/test_store
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "idlelock.h"

/* ---------------------------------------------------------------------- */
/* Checks                                                                 */
/* ---------------------------------------------------------------------- */

static unsigned passed, failed;
static const char *role = "parent";
static int verbose;

static void check(int ok, int line, const char *fmt, ...)
{
    va_list ap;
    if (ok) {
        passed++;
        return;
    }
    failed++;
    printf("FAIL test_store.c:%d [%s, pid %ld]: ", line, role, (long)getpid());
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    fflush(stdout);
}

#define CHECK(ok, ...) check((ok), __LINE__, __VA_ARGS__)

static const char *sname(int st)
{
    const char *s = idlelock_status_name(st);
    return s != NULL ? s : "(null)";
}

static void check_status(int got, int want, int line, const char *what)
{
    if (got == want) {
        passed++;
        return;
    }
    check(0, line, "%s returned %s, expected %s (last_error: %s)", what, sname(got),
          sname(want), idlelock_last_error());
}

#define CHECK_ST(got, want, what) check_status((got), (want), __LINE__, (what))

static void check_i64(int64_t got, int64_t want, int line, const char *what)
{
    check(got == want, line, "%s is %" PRId64 ", expected %" PRId64, what, got, want);
}

#define CHECK_EQ(got, want, what) check_i64((int64_t)(got), (int64_t)(want), __LINE__, (what))

/* ---------------------------------------------------------------------- */
/* Helpers                                                                */
/* ---------------------------------------------------------------------- */

static char tmpdir[64];
static const uint8_t device_key[IDLELOCK_DEVICE_KEY_BYTES] = {
    0x3a, 0x91, 0x5c, 0x07, 0xe2, 0x44, 0x18, 0xbd, 0x6f, 0x20, 0x9e, 0xc3, 0x71, 0x0a, 0x55, 0xd8,
    0x12, 0xfe, 0x87, 0x39, 0x4b, 0xa6, 0x63, 0x2d, 0x90, 0x1c, 0xe7, 0x58, 0x0b, 0xb4, 0x7e, 0xc1,
};

#define RIGHT "2468"
#define WRONG "0000"
#define TEN_MINUTES ((int64_t)600000)

static void store_path(char *out, size_t size, const char *name)
{
    snprintf(out, size, "%s/%s", tmpdir, name);
}

static void make_config(idlelock_config *cfg, const char *path, int32_t max_attempts,
                        int32_t lock_on_start, int with_device_key)
{
    memset(cfg, 0, sizeof *cfg);
    if (idlelock_config_init(cfg, sizeof *cfg) != IDLELOCK_OK) {
        CHECK(0, "idlelock_config_init failed: %s", idlelock_last_error());
    }
    cfg->idle_after_ms = TEN_MINUTES;
    cfg->background_after_ms = TEN_MINUTES;
    cfg->max_attempts = max_attempts;
    cfg->lock_on_start = lock_on_start;
    cfg->kdf_opslimit = IDLELOCK_KDF_OPSLIMIT_MIN;
    cfg->kdf_memlimit = IDLELOCK_KDF_MEMLIMIT_MIN;
    cfg->store_path = path;
    cfg->clock = NULL;
    cfg->clock_ctx = NULL;
    cfg->device_key = with_device_key ? device_key : NULL;
    cfg->device_key_len = with_device_key ? sizeof device_key : 0;
}

static idlelock_snapshot snap_init(void)
{
    idlelock_snapshot s;
    memset(&s, 0, sizeof s);
    s.size = sizeof s;
    return s;
}

static idlelock_snapshot snap(idlelock *h)
{
    idlelock_snapshot s = snap_init();
    int rc = idlelock_snapshot_get(h, &s);
    CHECK(rc == IDLELOCK_OK, "idlelock_snapshot_get returned %s (%s)", sname(rc),
          idlelock_last_error());
    return s;
}

static int unlock_with(idlelock *h, const char *code, idlelock_snapshot *out)
{
    *out = snap_init();
    return idlelock_unlock(h, code, strlen(code), out);
}

/* Reads the secret `name` into buf (NUL-terminated); returns the status. */
static int get_text(idlelock *h, const char *name, char *buf, size_t size)
{
    size_t len = size - 1;
    int rc = idlelock_secret_get(h, name, (uint8_t *)buf, &len);
    buf[rc == IDLELOCK_OK && len < size ? len : 0] = '\0';
    return rc;
}

static int put_text(idlelock *h, const char *name, const char *value)
{
    return idlelock_secret_put(h, name, (const uint8_t *)value, strlen(value));
}

static int write_all(int fd, const void *buf, size_t len)
{
    const char *p = buf;
    while (len > 0) {
        ssize_t n = write(fd, p, len);
        if (n < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

/* Reads exactly len bytes; returns the number read (less at EOF/error). */
static size_t read_full(int fd, void *buf, size_t len)
{
    char *p = buf;
    size_t done = 0;
    while (done < len) {
        ssize_t n = read(fd, p + done, len - done);
        if (n < 0) {
            if (errno == EINTR) continue;
            break;
        }
        if (n == 0) break;
        done += (size_t)n;
    }
    return done;
}

static void send_byte(int fd, char c)
{
    CHECK(write_all(fd, &c, 1) == 0, "writing '%c' to a pipe failed (errno %d)", c, errno);
}

/* Waits for one byte; returns it, or 0 at EOF. */
static char recv_byte(int fd)
{
    char c = 0;
    if (read_full(fd, &c, 1) != 1) return 0;
    return c;
}

static int file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* Number of `<name>.tmp.*` files in the temp folder. */
static int count_temporaries(const char *name)
{
    char prefix[128];
    int count = 0;
    DIR *dir = opendir(tmpdir);
    struct dirent *e;
    if (dir == NULL) return -1;
    snprintf(prefix, sizeof prefix, "%s.tmp.", name);
    while ((e = readdir(dir)) != NULL) {
        if (strncmp(e->d_name, prefix, strlen(prefix)) == 0) count++;
    }
    closedir(dir);
    return count;
}

static void sleep_ms(long ms)
{
    struct timespec ts;
    ts.tv_sec = ms / 1000;
    ts.tv_nsec = (ms % 1000) * 1000000L;
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

/* ---------------------------------------------------------------------- */
/* Child processes                                                        */
/*                                                                        */
/* A child runs `body` with fresh counters, then writes a report (its     */
/* counts and up to 4 values) to a pipe and _exits; join() adds the       */
/* counts to the parent's. A child that dies or does not report is one    */
/* failure.                                                               */
/* ---------------------------------------------------------------------- */

#define REPORT_MAGIC 0x1d1e10c4u

struct report {
    uint32_t magic;
    uint32_t passed;
    uint32_t failed;
    uint32_t pad;
    int64_t values[4];
};

struct child {
    pid_t pid;
    int fd;
    const char *role;
};

typedef void (*child_body)(void *arg, int64_t values[4]);

static struct child spawn(const char *child_role, child_body body, void *arg)
{
    struct child c;
    int p[2];
    c.pid = -1;
    c.fd = -1;
    c.role = child_role;
    if (pipe(p) != 0) {
        CHECK(0, "pipe failed (errno %d)", errno);
        return c;
    }
    fflush(stdout);
    c.pid = fork();
    if (c.pid == 0) {
        struct report r;
        close(p[0]);
        role = child_role;
        passed = 0;
        failed = 0;
        alarm(60); /* a child never outlives a hung test */
        memset(&r, 0, sizeof r);
        body(arg, r.values);
        r.magic = REPORT_MAGIC;
        r.passed = passed;
        r.failed = failed;
        fflush(stdout);
        _exit(write_all(p[1], &r, sizeof r) == 0 ? 0 : 3);
    }
    close(p[1]);
    if (c.pid < 0) {
        CHECK(0, "fork failed (errno %d)", errno);
        close(p[0]);
        return c;
    }
    c.fd = p[0];
    return c;
}

/* Waits for the child; adds its counts. Returns 1 when it reported. */
static int join(struct child c, int64_t values[4])
{
    struct report r;
    int status = 0;
    size_t got;
    int ok;
    if (c.pid < 0) return 0;
    memset(&r, 0, sizeof r);
    got = read_full(c.fd, &r, sizeof r);
    close(c.fd);
    while (waitpid(c.pid, &status, 0) < 0 && errno == EINTR) {
    }
    ok = got == sizeof r && r.magic == REPORT_MAGIC && WIFEXITED(status) &&
         WEXITSTATUS(status) == 0;
    if (!ok) {
        CHECK(0, "child '%s' did not finish normally (%s %d, report %s)", c.role,
              WIFSIGNALED(status) ? "signal" : "exit status",
              WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status),
              got == sizeof r ? "received" : "missing");
        return 0;
    }
    passed += r.passed;
    failed += r.failed;
    if (values != NULL) memcpy(values, r.values, sizeof r.values);
    return 1;
}

/* Creates the passcode (and optionally a secret) on a new store from this
 * process; the handle is destroyed before returning. */
static void make_store(const char *path, int32_t max_attempts, int with_device_key,
                       const char *secret_value)
{
    idlelock_config cfg;
    idlelock *h = NULL;
    int rc;
    make_config(&cfg, path, max_attempts, 1, with_device_key);
    rc = idlelock_create(&cfg, &h);
    CHECK_ST(rc, IDLELOCK_OK, "idlelock_create (new store)");
    if (rc != IDLELOCK_OK) return;
    CHECK_ST(idlelock_set_passcode(h, RIGHT, strlen(RIGHT)), IDLELOCK_OK, "idlelock_set_passcode");
    if (secret_value != NULL) {
        CHECK_ST(put_text(h, "token", secret_value), IDLELOCK_OK, "idlelock_secret_put token");
    }
    idlelock_destroy(h);
}

/* Opens the store in this process; NULL (and a failure) when create fails. */
static idlelock *open_store(const char *path, int32_t max_attempts, int with_device_key, int line)
{
    idlelock_config cfg;
    idlelock *h = NULL;
    int rc;
    make_config(&cfg, path, max_attempts, 1, with_device_key);
    rc = idlelock_create(&cfg, &h);
    check_status(rc, IDLELOCK_OK, line, "idlelock_create (existing store)");
    return rc == IDLELOCK_OK ? h : NULL;
}

/* ---------------------------------------------------------------------- */
/* 1. Shared count                                                        */
/* ---------------------------------------------------------------------- */

static char t1_path[200];

static void t1_first(void *arg, int64_t values[4])
{
    idlelock *h = open_store(t1_path, 5, 0, __LINE__);
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
    idlelock *h = open_store(t1_path, 5, 0, __LINE__);
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
    idlelock *h = open_store(t1_path, 5, 0, __LINE__);
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

static void test_shared_count(void)
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
    h = open_store(t2_path, 10, 0, __LINE__);
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

static void test_concurrent(void)
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
    h = open_store(t2_path, 10, 0, __LINE__);
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
    h = open_store(t3_path, 5, 0, __LINE__);
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
    h = open_store(t3_path, 5, 0, __LINE__);
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
    h = open_store(t3_path, 5, 0, __LINE__);
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
    h = open_store(t3_path, 5, 0, __LINE__);
    if (h == NULL) return;
    s = snap(h);
    CHECK_EQ(s.state, IDLELOCK_STATE_LOCKED_OUT, "t3 B2: state after create");
    CHECK_ST(idlelock_disable(h), IDLELOCK_OK, "t3 B2: idlelock_disable");
    s = snap(h);
    CHECK_EQ(s.is_enabled, 0, "t3 B2: is_enabled after disable");
    CHECK_EQ(s.state, IDLELOCK_STATE_UNLOCKED, "t3 B2: state after disable");
    idlelock_destroy(h);
}

static void test_cross_process(void)
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
/* 4. Kill at any instant                                                 */
/* ---------------------------------------------------------------------- */

/* Kills per run: IDLELOCK_TEST_KILLS overrides (a long run is
 * `IDLELOCK_TEST_KILLS=5000 build/test_store`). */
#define T4_ITERATIONS 200
#define T4_MAX_ATTEMPTS 5
#define T4_MAX_DELAY_MS 120

static char t4_path[200];

static void t4_record(int fd, const char *text)
{
    if (write_all(fd, text, strlen(text)) != 0) _exit(4); /* the parent is gone */
}

/* Reports an unexpected status and waits to be killed. */
static void t4_error(int fd, int line, int status)
{
    char text[64];
    snprintf(text, sizeof text, "E %d %d\n", line, status);
    t4_record(fd, text);
    for (;;) pause();
}

/* Records: "U" before a right unlock; "P k" after put token=v<k> returned
 * OK; "S" after idlelock_set_passcode (the same passcode, re-wrapped)
 * returned OK; "w" before the wrong unlock (after idlelock_lock returned
 * OK); "W" after the wrong unlock returned INVALID_PASSCODE. */
static void t4_child_loop(int fd, long k)
{
    idlelock_config cfg;
    idlelock *h = NULL;
    idlelock_snapshot s;
    int rc;
    char text[64];
    make_config(&cfg, t4_path, T4_MAX_ATTEMPTS, 1, 1);
    rc = idlelock_create(&cfg, &h);
    if (rc != IDLELOCK_OK) t4_error(fd, __LINE__, rc);
    rc = idlelock_start(h, NULL);
    if (rc != IDLELOCK_OK) t4_error(fd, __LINE__, rc);
    for (;; k++) {
        t4_record(fd, "U\n");
        rc = unlock_with(h, RIGHT, &s);
        if (rc != IDLELOCK_OK) t4_error(fd, __LINE__, rc);
        snprintf(text, sizeof text, "v%ld", k);
        rc = put_text(h, "token", text);
        if (rc != IDLELOCK_OK) t4_error(fd, __LINE__, rc);
        snprintf(text, sizeof text, "P %ld\n", k);
        t4_record(fd, text);
        rc = idlelock_set_passcode(h, RIGHT, strlen(RIGHT));
        if (rc != IDLELOCK_OK) t4_error(fd, __LINE__, rc);
        t4_record(fd, "S\n");
        rc = idlelock_lock(h, NULL);
        if (rc != IDLELOCK_OK) t4_error(fd, __LINE__, rc);
        t4_record(fd, "w\n");
        rc = unlock_with(h, WRONG, &s);
        if (rc != IDLELOCK_ERR_INVALID_PASSCODE) t4_error(fd, __LINE__, rc);
        t4_record(fd, "W\n");
    }
}

static void t4_setup(void *arg, int64_t values[4])
{
    (void)arg;
    (void)values;
    make_store(t4_path, T4_MAX_ATTEMPTS, 1, "v0");
}

static void test_kill(unsigned seed, int iterations)
{
    char name[] = "t4.store";
    long last_value = 0; /* the token's value as last verified: v<last_value> */
    int it;
    int ends[4] = {0, 0, 0, 0}; /* last record: none, U, P, w/W */
    long records_total = 0;
    store_path(t4_path, sizeof t4_path, name);
    join(spawn("t4 setup child", t4_setup, NULL), NULL);
    srand(seed);
    for (it = 0; it < iterations; it++) {
        int p[2];
        pid_t pid;
        long delay = rand() % (T4_MAX_DELAY_MS + 1);
        char buf[4096];
        size_t used = 0;
        int status = 0;
        char last = 0;       /* type of the last complete record */
        long last_p = last_value;
        char *line, *next;
        idlelock_config cfg;
        idlelock *h = NULL;
        idlelock_snapshot s;
        int rc, temporaries;
        char value[64];

        if (pipe(p) != 0) {
            CHECK(0, "pipe failed (errno %d)", errno);
            return;
        }
        fflush(stdout);
        pid = fork();
        if (pid == 0) {
            close(p[0]);
            role = "t4 killed child";
            alarm(30);
            t4_child_loop(p[1], last_value + 1);
            _exit(0);
        }
        close(p[1]);
        if (pid < 0) {
            CHECK(0, "fork failed (errno %d)", errno);
            close(p[0]);
            return;
        }
        sleep_ms(delay);
        kill(pid, SIGKILL);
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
        CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
              "t4 iteration %d: the child ended by itself (status 0x%x)", it, status);
        /* Drain: the child is gone, so the pipe ends with EOF. */
        for (;;) {
            ssize_t n = read(p[0], buf + used, sizeof buf - 1 - used);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) break;
            used += (size_t)n;
            if (used == sizeof buf - 1) break;
        }
        close(p[0]);
        buf[used] = '\0';
        for (line = buf; (next = strchr(line, '\n')) != NULL; line = next + 1) {
            *next = '\0';
            records_total++;
            if (line[0] == 'P') {
                long k = strtol(line + 2, NULL, 10);
                CHECK(k == last_p + 1, "t4 iteration %d: record \"%s\" after P %ld", it, line, last_p);
                last_p = k;
            } else if (line[0] == 'E') {
                int eline = 0, estatus = 0;
                sscanf(line + 2, "%d %d", &eline, &estatus);
                CHECK(0, "t4 iteration %d: the child got %s at test_store.c:%d", it,
                      sname(estatus), eline);
            }
            last = line[0];
        }
        ends[last == 0 ? 0 : last == 'U' ? 1 : (last == 'P' || last == 'S') ? 2 : 3]++;

        /* The store must open: a torn or damaged file is STORAGE. */
        make_config(&cfg, t4_path, T4_MAX_ATTEMPTS, 1, 1);
        rc = idlelock_create(&cfg, &h);
        check(rc == IDLELOCK_OK, __LINE__,
              "t4 iteration %d (kill after %ld ms, last record '%c'): idlelock_create returned %s "
              "(%s)", it, delay, last ? last : '-', sname(rc), idlelock_last_error());
        if (rc != IDLELOCK_OK) break; /* every later iteration would fail the same way */
        temporaries = count_temporaries(name);
        CHECK(temporaries == 0,
              "t4 iteration %d: %d stray %s.tmp.* file(s) remain after idlelock_create", it,
              temporaries, name);

        s = snap(h);
        CHECK(s.is_enabled == 1, "t4 iteration %d: is_enabled %d after create", it,
              (int)s.is_enabled);
        if (last == 'w' || last == 'W') {
            /* idlelock_lock returned OK (saved) and no right unlock began
             * since: the saved lock is in force from create. */
            CHECK(s.state == IDLELOCK_STATE_LOCKED && s.reason == IDLELOCK_REASON_MANUAL,
                  "t4 iteration %d (last record '%c'): state %d reason %d right after create, "
                  "expected the saved LOCKED(MANUAL)",
                  it, last, (int)s.state, (int)s.reason);
        }
        s = snap_init();
        CHECK_ST(idlelock_start(h, &s), IDLELOCK_OK, "t4: idlelock_start");
        CHECK(s.state == IDLELOCK_STATE_LOCKED,
              "t4 iteration %d (last record '%c'): state %d after start, expected LOCKED", it,
              last ? last : '-', (int)s.state);
        /* The count is 0, 1 (a wrong attempt) or 2 (and a right one in
         * flight): never more, never garbage. */
        CHECK(s.attempts_remaining >= T4_MAX_ATTEMPTS - 2 && s.attempts_remaining <= T4_MAX_ATTEMPTS,
              "t4 iteration %d: attempts_remaining %d after start, expected %d..%d", it,
              (int)s.attempts_remaining, T4_MAX_ATTEMPTS - 2, T4_MAX_ATTEMPTS);
        if (last == 'W') {
            /* A wrong attempt returned and no right unlock began: no refund. */
            CHECK(s.attempts_remaining <= T4_MAX_ATTEMPTS - 1,
                  "t4 iteration %d: the last wrong attempt returned, yet attempts_remaining is "
                  "%d (refunded; expected <= %d)",
                  it, (int)s.attempts_remaining, T4_MAX_ATTEMPTS - 1);
        }
        rc = unlock_with(h, RIGHT, &s);
        check(rc == IDLELOCK_OK, __LINE__,
              "t4 iteration %d: right unlock returned %s (%s), state %d, attempts_remaining %d",
              it, sname(rc), idlelock_last_error(), (int)s.state, (int)s.attempts_remaining);
        if (rc == IDLELOCK_OK) {
            char want_old[32], want_new[32];
            rc = get_text(h, "token", value, sizeof value);
            CHECK_ST(rc, IDLELOCK_OK, "t4: secret_get token");
            snprintf(want_old, sizeof want_old, "v%ld", last_p);
            snprintf(want_new, sizeof want_new, "v%ld", last_p + 1);
            if (strcmp(value, want_old) == 0) {
                passed++;
                last_value = last_p;
            } else if (strcmp(value, want_new) == 0) {
                passed++;
                last_value = last_p + 1;
            } else {
                CHECK(0, "t4 iteration %d: token is \"%s\" (status %s), expected \"%s\" or \"%s\"",
                      it, value, sname(rc), want_old, want_new);
                if (value[0] == 'v') last_value = strtol(value + 1, NULL, 10);
                if (last_value < last_p + 1) last_value = last_p + 1;
            }
        }
        idlelock_destroy(h);
    }
    if (verbose) {
        printf("info: t4 %d iterations, %ld records; last record: none %d, U %d, P %d, w/W %d; "
               "final token v%ld\n",
               it, records_total, ends[0], ends[1], ends[2], ends[3], last_value);
    }
}

/* ---------------------------------------------------------------------- */
/* 5. Modes and the lock file                                             */
/* ---------------------------------------------------------------------- */

static void test_modes(void)
{
    char path[200], lock_path[220];
    char name[] = "t5.store";
    struct stat st, lock_before, lock_after;
    mode_t old_mask;
    idlelock *h;
    int i, rc;
    store_path(path, sizeof path, name);
    snprintf(lock_path, sizeof lock_path, "%s.lock", path);

    old_mask = umask(0); /* the library must not rely on the umask */
    make_store(path, 5, 1, "t5-secret");
    CHECK(stat(path, &st) == 0, "t5: stat of the store failed (errno %d)", errno);
    CHECK(S_ISREG(st.st_mode), "t5: the store is not a regular file");
    CHECK((st.st_mode & 07777) == 0600, "t5: the store's mode is %04o, expected 0600",
          (unsigned)(st.st_mode & 07777));
    CHECK(stat(lock_path, &lock_before) == 0, "t5: <store>.lock does not exist (errno %d)", errno);

    h = open_store(path, 5, 1, __LINE__);
    if (h != NULL) {
        idlelock_snapshot s;
        CHECK_ST(idlelock_start(h, NULL), IDLELOCK_OK, "t5: idlelock_start");
        CHECK_ST(unlock_with(h, RIGHT, &s), IDLELOCK_OK, "t5: right unlock");
        for (i = 0; i < 3; i++) {
            char v[16];
            snprintf(v, sizeof v, "t5-%d", i);
            CHECK_ST(put_text(h, "token", v), IDLELOCK_OK, "t5: secret_put");
        }
        CHECK_ST(idlelock_lock(h, NULL), IDLELOCK_OK, "t5: idlelock_lock");
        CHECK(stat(path, &st) == 0 && (st.st_mode & 07777) == 0600,
              "t5: after rewrites the store's mode is %04o, expected 0600",
              (unsigned)(st.st_mode & 07777));
        CHECK(count_temporaries(name) == 0, "t5: a %s.tmp.* file remains after normal writes", name);
        CHECK(stat(lock_path, &lock_after) == 0 && lock_after.st_ino == lock_before.st_ino,
              "t5: <store>.lock was replaced or removed by ordinary writes");

        rc = idlelock_disable(h);
        CHECK_ST(rc, IDLELOCK_OK, "t5: idlelock_disable");
        CHECK(!file_exists(path), "t5: the store still exists after idlelock_disable");
        CHECK(stat(lock_path, &lock_after) == 0,
              "t5: <store>.lock was deleted by idlelock_disable (errno %d)", errno);
        CHECK(lock_after.st_ino == lock_before.st_ino,
              "t5: <store>.lock was replaced (inode changed) by idlelock_disable");
        CHECK(idlelock_disable(h) == IDLELOCK_OK && file_exists(lock_path),
              "t5: a second idlelock_disable failed or deleted <store>.lock");
        idlelock_destroy(h);
    }

    /* A new sign-in on the same path reuses the same lock file. */
    make_store(path, 5, 1, NULL);
    CHECK(stat(path, &st) == 0 && (st.st_mode & 07777) == 0600,
          "t5: the new sign-in's store mode is %04o, expected 0600", (unsigned)(st.st_mode & 07777));
    CHECK(stat(lock_path, &lock_after) == 0 && lock_after.st_ino == lock_before.st_ino,
          "t5: <store>.lock was replaced by a new sign-in");
    umask(old_mask);
}

/* ---------------------------------------------------------------------- */
/* 6. Faults: a read-only folder, a full disk, a path that is a folder     */
/* ---------------------------------------------------------------------- */

#define NOBODY 65534

static char t6_dir[200];

/* Runs as an unprivileged user (root's permissions would not bind): a
 * store in a folder that becomes read-only. Every durable step fails with
 * STORAGE; a lock still locks. */
static void t6_read_only(void *arg, int64_t values[4])
{
    char path[240];
    idlelock_config cfg;
    idlelock *h = NULL;
    idlelock_snapshot s;
    (void)arg;
    (void)values;
    if (geteuid() == 0 && (setgid(NOBODY) != 0 || setuid(NOBODY) != 0)) {
        CHECK(0, "t6: cannot drop to uid %d (errno %d)", NOBODY, errno);
        return;
    }
    snprintf(path, sizeof path, "%s/session.store", t6_dir);
    make_config(&cfg, path, 5, 1, 1);
    CHECK_ST(idlelock_create(&cfg, &h), IDLELOCK_OK, "t6: create in a writable folder");
    if (h == NULL) return;
    CHECK_ST(idlelock_set_passcode(h, RIGHT, strlen(RIGHT)), IDLELOCK_OK, "t6: set_passcode");
    CHECK_ST(put_text(h, "token", "kept"), IDLELOCK_OK, "t6: put");
    CHECK(chmod(t6_dir, 0555) == 0, "t6: chmod 0555 of the folder failed (errno %d)", errno);
    CHECK_ST(put_text(h, "token", "lost"), IDLELOCK_ERR_STORAGE, "t6: put in a read-only folder");
    s = snap_init();
    CHECK_ST(idlelock_lock(h, &s), IDLELOCK_ERR_STORAGE, "t6: lock in a read-only folder");
    CHECK(s.state == IDLELOCK_STATE_LOCKED, "t6: a lock whose save failed left state %d", (int)s.state);
    CHECK_ST(unlock_with(h, RIGHT, &s), IDLELOCK_ERR_STORAGE,
             "t6: an attempt whose raise cannot be saved is refused");
    CHECK(s.state == IDLELOCK_STATE_LOCKED && s.attempts_remaining == 5,
          "t6: refused attempt left state %d, attempts %d", (int)s.state, (int)s.attempts_remaining);
    CHECK(chmod(t6_dir, 0755) == 0, "t6: chmod 0755 failed (errno %d)", errno);
    CHECK_ST(unlock_with(h, RIGHT, &s), IDLELOCK_OK, "t6: unlock once the folder is writable");
    {
        char value[32];
        CHECK_ST(get_text(h, "token", value, sizeof value), IDLELOCK_OK, "t6: get");
        CHECK(strcmp(value, "kept") == 0, "t6: token is \"%s\", expected \"kept\"", value);
    }
    idlelock_destroy(h);
    /* A folder that is read-only from the start: not even the lock file. */
    CHECK(chmod(t6_dir, 0555) == 0, "t6: chmod failed (errno %d)", errno);
    snprintf(path, sizeof path, "%s/other.store", t6_dir);
    make_config(&cfg, path, 5, 1, 0);
    h = NULL;
    CHECK_ST(idlelock_create(&cfg, &h), IDLELOCK_ERR_STORAGE, "t6: create in a read-only folder");
    CHECK(strstr(idlelock_last_error(), "writable") != NULL, "t6: message \"%s\" does not say what to do",
          idlelock_last_error());
    idlelock_destroy(h);
    CHECK(chmod(t6_dir, 0755) == 0, "t6: chmod failed (errno %d)", errno);
}

/* A full disk, as RLIMIT_FSIZE makes it: writes fail with EFBIG. */
static void t6_full_disk(void *arg, int64_t values[4])
{
    char path[240], value[32];
    static uint8_t big[3000];
    struct rlimit limit;
    idlelock_config cfg;
    idlelock *h = NULL;
    idlelock_snapshot s;
    (void)arg;
    (void)values;
    signal(SIGXFSZ, SIG_IGN);
    store_path(path, sizeof path, "t6-full.store");
    make_config(&cfg, path, 5, 1, 1);
    CHECK_ST(idlelock_create(&cfg, &h), IDLELOCK_OK, "t6 full: create");
    if (h == NULL) return;
    CHECK_ST(idlelock_set_passcode(h, RIGHT, strlen(RIGHT)), IDLELOCK_OK, "t6 full: set_passcode");
    CHECK_ST(idlelock_secret_put(h, "big", big, sizeof big), IDLELOCK_OK, "t6 full: put 3000 bytes");
    CHECK_ST(put_text(h, "token", "kept"), IDLELOCK_OK, "t6 full: put");
    limit.rlim_cur = 1024;
    limit.rlim_max = RLIM_INFINITY;
    CHECK(setrlimit(RLIMIT_FSIZE, &limit) == 0, "t6 full: setrlimit failed (errno %d)", errno);
    CHECK_ST(put_text(h, "token", "lost"), IDLELOCK_ERR_STORAGE, "t6 full: put on a full disk");
    s = snap_init();
    CHECK_ST(idlelock_lock(h, &s), IDLELOCK_ERR_STORAGE, "t6 full: lock on a full disk");
    CHECK(s.state == IDLELOCK_STATE_LOCKED, "t6 full: state %d after a failed save", (int)s.state);
    CHECK_ST(unlock_with(h, RIGHT, &s), IDLELOCK_ERR_STORAGE, "t6 full: unlock on a full disk");
    CHECK(s.state == IDLELOCK_STATE_LOCKED, "t6 full: state %d after a refused attempt", (int)s.state);
    CHECK(count_temporaries("t6-full.store") == 0, "t6 full: a temporary file was left behind");
    limit.rlim_cur = RLIM_INFINITY;
    CHECK(setrlimit(RLIMIT_FSIZE, &limit) == 0, "t6 full: setrlimit failed (errno %d)", errno);
    CHECK_ST(unlock_with(h, RIGHT, &s), IDLELOCK_OK, "t6 full: unlock once there is room");
    CHECK_ST(get_text(h, "token", value, sizeof value), IDLELOCK_OK, "t6 full: get");
    CHECK(strcmp(value, "kept") == 0, "t6 full: token is \"%s\", expected \"kept\"", value);
    idlelock_destroy(h);
}

/* Attempts whose check cannot run (Argon2id cannot get its memory under
 * RLIMIT_AS) stay counted, and the one that reaches the limit locks out. */
static void t6_no_memory(void *arg, int64_t values[4])
{
    idlelock_config cfg;
    idlelock *h = NULL;
    idlelock_snapshot s;
    struct rlimit limit, saved;
    long pages = 0;
    void *probe;
    FILE *statm = fopen("/proc/self/statm", "r");
    (void)arg;
    (void)values;
    if (statm == NULL || fscanf(statm, "%ld", &pages) != 1) {
        CHECK(0, "t6 no-memory: cannot read /proc/self/statm");
        if (statm != NULL) fclose(statm);
        return;
    }
    fclose(statm);
    make_config(&cfg, NULL, 2, 1, 0);
    cfg.kdf_memlimit = (uint64_t)256 * 1024 * 1024;
    CHECK_ST(idlelock_create(&cfg, &h), IDLELOCK_OK, "t6 no-memory: create");
    if (h == NULL) return;
    CHECK_ST(idlelock_set_passcode(h, RIGHT, strlen(RIGHT)), IDLELOCK_OK, "t6 no-memory: set_passcode");
    CHECK_ST(idlelock_lock(h, NULL), IDLELOCK_OK, "t6 no-memory: lock");
    CHECK(getrlimit(RLIMIT_AS, &saved) == 0, "t6 no-memory: getrlimit (errno %d)", errno);
    limit = saved;
    limit.rlim_cur = (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE) + (rlim_t)96 * 1024 * 1024;
    CHECK(setrlimit(RLIMIT_AS, &limit) == 0, "t6 no-memory: setrlimit (errno %d)", errno);
    probe = malloc((size_t)128 * 1024 * 1024);
    if (probe != NULL) {
        /* An emulator (qemu-user) accepts the limit without enforcing it:
         * the case cannot run here. Said, not passed. */
        free(probe);
        CHECK(setrlimit(RLIMIT_AS, &saved) == 0, "t6 no-memory: setrlimit back (errno %d)", errno);
        printf("skip t6 no-memory: RLIMIT_AS is not enforced here (128 MiB were allocated under a limit "
               "96 MiB above this process's size; qemu-user accepts the limit without enforcing it)\n");
        fflush(stdout);
        idlelock_destroy(h);
        return;
    }
    s = snap_init();
    CHECK_ST(unlock_with(h, RIGHT, &s), IDLELOCK_ERR_NO_MEMORY, "t6 no-memory: first attempt");
    CHECK(s.attempts_remaining == 1 && s.state == IDLELOCK_STATE_LOCKED,
          "t6 no-memory: after one unchecked attempt: state %d, %d left", (int)s.state,
          (int)s.attempts_remaining);
    CHECK_ST(unlock_with(h, RIGHT, &s), IDLELOCK_ERR_LOCKED_OUT, "t6 no-memory: the attempt at the limit");
    CHECK(s.state == IDLELOCK_STATE_LOCKED_OUT && s.attempts_remaining == 0,
          "t6 no-memory: state %d with %d left, expected LOCKED_OUT with 0", (int)s.state,
          (int)s.attempts_remaining);
    CHECK(setrlimit(RLIMIT_AS, &saved) == 0, "t6 no-memory: setrlimit back (errno %d)", errno);
    CHECK_ST(unlock_with(h, RIGHT, &s), IDLELOCK_ERR_LOCKED_OUT, "t6 no-memory: right passcode after lockout");
    idlelock_destroy(h);
}

static void test_faults(void)
{
    char path[240];
    idlelock_config cfg;
    idlelock *h = NULL;

    /* A store path that names a folder. */
    store_path(path, sizeof path, "a-folder");
    CHECK(mkdir(path, 0700) == 0, "t6: mkdir failed (errno %d)", errno);
    make_config(&cfg, path, 5, 1, 0);
    CHECK_ST(idlelock_create(&cfg, &h), IDLELOCK_ERR_STORAGE, "t6: a store path that is a folder");
    idlelock_destroy(h);
    rmdir(path);
    snprintf(path, sizeof path, "%s/a-folder.lock", tmpdir);
    unlink(path);

    /* The read-only folder belongs to the unprivileged user. */
    store_path(t6_dir, sizeof t6_dir, "read-only");
    CHECK(mkdir(t6_dir, 0755) == 0, "t6: mkdir failed (errno %d)", errno);
    if (geteuid() == 0) {
        CHECK(chmod(tmpdir, 0711) == 0 && chown(t6_dir, NOBODY, NOBODY) == 0,
              "t6: cannot hand the folder to uid %d (errno %d)", NOBODY, errno);
    }
    join(spawn("t6 read-only child", t6_read_only, NULL), NULL);
    join(spawn("t6 full-disk child", t6_full_disk, NULL), NULL);
    join(spawn("t6 no-memory child", t6_no_memory, NULL), NULL);
    {
        DIR *dir = opendir(t6_dir);
        struct dirent *e;
        char file[600];
        if (dir != NULL) {
            while ((e = readdir(dir)) != NULL) {
                if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
                snprintf(file, sizeof file, "%s/%s", t6_dir, e->d_name);
                unlink(file);
            }
            closedir(dir);
        }
        chmod(t6_dir, 0755);
        rmdir(t6_dir);
    }
}

/* ---------------------------------------------------------------------- */
/* Main                                                                   */
/* ---------------------------------------------------------------------- */

static void remove_tmpdir(void)
{
    DIR *dir = opendir(tmpdir);
    struct dirent *e;
    char path[600];
    if (dir != NULL) {
        while ((e = readdir(dir)) != NULL) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
            snprintf(path, sizeof path, "%s/%s", tmpdir, e->d_name);
            unlink(path);
        }
        closedir(dir);
    }
    if (rmdir(tmpdir) != 0) printf("warning: could not remove %s (errno %d)\n", tmpdir, errno);
}

static void on_timeout(int sig)
{
    static const char msg[] = "FAIL test_store.c: timed out (a call or a child hung)\n";
    (void)sig;
    if (write(STDOUT_FILENO, msg, sizeof msg - 1) < 0) _exit(3);
    _exit(2);
}

int main(int argc, char **argv)
{
    unsigned seed = 20261129u;
    const char *env = getenv("IDLELOCK_TEST_SEED");
    const char *timeout_env = getenv("IDLELOCK_TEST_TIMEOUT");
    struct sigaction sa;
    int i;

    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-v") == 0) verbose = 1;
    }
    if (env != NULL && *env != '\0') seed = (unsigned)strtoul(env, NULL, 10);

    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &sa, NULL); /* a dead child's pipe is an error, not a kill */
    sa.sa_handler = on_timeout;
    sigaction(SIGALRM, &sa, NULL);
    alarm(timeout_env != NULL ? (unsigned)strtoul(timeout_env, NULL, 10) : 300u);

    strcpy(tmpdir, "/tmp/idlelock-test-store-XXXXXX");
    if (mkdtemp(tmpdir) == NULL) {
        printf("FAIL test_store.c: mkdtemp failed (errno %d)\n", errno);
        printf("0 passed, 1 failed\n");
        return 1;
    }
    printf("test_store: seed %u\n", seed);
    fflush(stdout);

    test_shared_count();
    test_concurrent();
    test_cross_process();
    {
        const char *kills = getenv("IDLELOCK_TEST_KILLS");
        int iterations = kills != NULL && *kills != '\0' ? atoi(kills) : T4_ITERATIONS;
        test_kill(seed, iterations > 0 ? iterations : T4_ITERATIONS);
    }
    test_modes();
    test_faults();

    remove_tmpdir();
    printf("%u passed, %u failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
