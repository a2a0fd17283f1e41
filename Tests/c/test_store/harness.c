/* SPDX-License-Identifier: MIT */
/*
 * harness.c: the checks and counters of test_store, the helpers its areas
 * share, and the child processes (see harness.h).
 */
#include "harness.h"

#if defined(__linux__)
#include <sys/prctl.h>
#endif

/* ---------------------------------------------------------------------- */
/* Checks                                                                 */
/* ---------------------------------------------------------------------- */

unsigned passed, failed;
const char *role = "parent";
int verbose;

void check(int ok, const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    if (ok) {
        passed++;
        return;
    }
    failed++;
    printf("FAIL %s:%d [%s, pid %ld]: ", file, line, role, (long)getpid());
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    fflush(stdout);
}

const char *sname(int st)
{
    const char *s = idlelock_status_name(st);
    return s != NULL ? s : "(null)";
}

void check_status(int got, int want, const char *file, int line, const char *what)
{
    if (got == want) {
        passed++;
        return;
    }
    check(0, file, line, "%s returned %s, expected %s (last_error: %s)", what, sname(got),
          sname(want), idlelock_last_error());
}

void check_i64(int64_t got, int64_t want, const char *file, int line, const char *what)
{
    check(got == want, file, line, "%s is %" PRId64 ", expected %" PRId64, what, got, want);
}

/* ---------------------------------------------------------------------- */
/* Helpers                                                                */
/* ---------------------------------------------------------------------- */

char tmpdir[64];
unsigned child_timeout = 60;
const uint8_t device_key[IDLELOCK_DEVICE_KEY_BYTES] = {
    0x3a, 0x91, 0x5c, 0x07, 0xe2, 0x44, 0x18, 0xbd, 0x6f, 0x20, 0x9e, 0xc3, 0x71, 0x0a, 0x55, 0xd8,
    0x12, 0xfe, 0x87, 0x39, 0x4b, 0xa6, 0x63, 0x2d, 0x90, 0x1c, 0xe7, 0x58, 0x0b, 0xb4, 0x7e, 0xc1,
};

void store_path(char *out, size_t size, const char *name)
{
    snprintf(out, size, "%s/%s", tmpdir, name);
}

void make_config(idlelock_config *cfg, const char *path, int32_t max_attempts,
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

idlelock_snapshot snap_init(void)
{
    idlelock_snapshot s;
    memset(&s, 0, sizeof s);
    s.size = sizeof s;
    return s;
}

idlelock_snapshot snap(idlelock *h)
{
    idlelock_snapshot s = snap_init();
    int rc = idlelock_snapshot_get(h, &s);
    CHECK(rc == IDLELOCK_OK, "idlelock_snapshot_get returned %s (%s)", sname(rc),
          idlelock_last_error());
    return s;
}

int unlock_with(idlelock *h, const char *code, idlelock_snapshot *out)
{
    *out = snap_init();
    return idlelock_unlock(h, code, strlen(code), out);
}

/* Reads the secret `name` into buf (NUL-terminated); returns the status. */
int get_text(idlelock *h, const char *name, char *buf, size_t size)
{
    size_t len = size - 1;
    int rc = idlelock_secret_get(h, name, (uint8_t *)buf, &len);
    buf[rc == IDLELOCK_OK && len < size ? len : 0] = '\0';
    return rc;
}

int put_text(idlelock *h, const char *name, const char *value)
{
    return idlelock_secret_put(h, name, (const uint8_t *)value, strlen(value));
}

int write_all(int fd, const void *buf, size_t len)
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
size_t read_full(int fd, void *buf, size_t len)
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

void send_byte(int fd, char c)
{
    CHECK(write_all(fd, &c, 1) == 0, "writing '%c' to a pipe failed (errno %d)", c, errno);
}

/* Waits for one byte; returns it, or 0 at EOF. */
char recv_byte(int fd)
{
    char c = 0;
    if (read_full(fd, &c, 1) != 1) return 0;
    return c;
}

int file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* Removes what `dir` holds: its files, and its folders with what they
 * hold (`dir` itself stays). */
void remove_files(const char *dir)
{
    char path[600];
    int pass, removed = 1;
    /* Passes until one removes nothing: whether readdir still returns the
     * entries after one that was unlinked during the walk is unspecified
     * (POSIX), and under qemu-arm (a 32-bit guest's getdents, translated)
     * a single walk left files behind, and so the folder in /tmp. */
    for (pass = 0; removed && pass < 16; pass++) {
        DIR *d = opendir(dir);
        struct dirent *e;
        if (d == NULL) return;
        removed = 0;
        while ((e = readdir(d)) != NULL) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            /* A folder a case made (read-only, lf-e) goes too, with what it
             * holds: test_store leaves nothing in /tmp. */
            if (unlink(path) == 0) {
                removed = 1;
            } else if (errno == EISDIR) {
                remove_files(path);
                if (rmdir(path) == 0) removed = 1;
            }
        }
        closedir(d);
    }
}

void die_with_parent(pid_t parent)
{
#if defined(__linux__)
    (void)prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
    if (getppid() != parent) _exit(3);
}

pid_t fork_child(void)
{
    pid_t parent = getpid(), pid;
    fflush(stdout);
    pid = fork();
    if (pid == 0) die_with_parent(parent);
    return pid;
}

/* Number of `<name>.tmp.*` files in the temp folder. */
int count_temporaries(const char *name)
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

void sleep_ms(long ms)
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

struct child spawn(const char *child_role, child_body body, void *arg)
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
    c.pid = fork_child();
    if (c.pid == 0) {
        struct report r;
        close(p[0]);
        role = child_role;
        passed = 0;
        failed = 0;
        alarm(child_timeout); /* a child never outlives a hung test */
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
int join(struct child c, int64_t values[4])
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
void make_store(const char *path, int32_t max_attempts, int with_device_key,
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
idlelock *open_store(const char *path, int32_t max_attempts, int with_device_key,
                     const char *file, int line)
{
    idlelock_config cfg;
    idlelock *h = NULL;
    int rc;
    make_config(&cfg, path, max_attempts, 1, with_device_key);
    rc = idlelock_create(&cfg, &h);
    check_status(rc, IDLELOCK_OK, file, line, "idlelock_create (existing store)");
    return rc == IDLELOCK_OK ? h : NULL;
}
