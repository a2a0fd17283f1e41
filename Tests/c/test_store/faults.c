/* SPDX-License-Identifier: MIT */
/*
 * faults.c: a read-only folder, a full disk, no memory for Argon2id,
 * a path that is a folder.
 */
#include "harness.h"

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

void test_faults(void)
{
    char path[240];
    idlelock_config cfg;
    idlelock *h = NULL;

    /* A store path that names a folder (a host that gave its data folder
     * for the file), a FIFO or a link: refused, and nothing is made
     * beside it (create used to leave `<path>.lock` there). */
    {
        static const char *const kinds[] = { "a-folder", "a-fifo", "a-link" };
        char lock[260];
        size_t i;
        for (i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
            store_path(path, sizeof path, kinds[i]);
            snprintf(lock, sizeof lock, "%s.lock", path);
            CHECK((i == 0 ? mkdir(path, 0700) : i == 1 ? mkfifo(path, 0600) : symlink("a-folder", path)) == 0,
                  "t6: making %s failed (errno %d)", kinds[i], errno);
            make_config(&cfg, path, 5, 1, 0);
            h = NULL;
            CHECK_ST(idlelock_create(&cfg, &h), IDLELOCK_ERR_STORAGE, "t6: a store path that is no file");
            CHECK(strstr(idlelock_last_error(), i == 2 ? "symbolic link" : "not a regular file") != NULL,
                  "t6: %s: the message does not say what is there: %s", kinds[i], idlelock_last_error());
            CHECK(!file_exists(lock), "t6: a create refused for %s left %s.lock", kinds[i], kinds[i]);
            idlelock_destroy(h);
            unlink(lock);
        }
        for (i = 3; i-- > 0;) {
            store_path(path, sizeof path, kinds[i]);
            if (i == 0) rmdir(path); else unlink(path);
        }
    }

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
    remove_files(t6_dir);
    chmod(t6_dir, 0755);
    rmdir(t6_dir);
}
