/* SPDX-License-Identifier: MIT */
/*
 * damage.c: only an absent store is a sign-out (header, "The store"). A store that is
 * present but cut short, failing its checksum, foreign, of a newer format,
 * or not a regular file (a FIFO, a folder, a symbolic link) is damage:
 * IDLELOCK_ERR_STORAGE, and the session locks (or stays locked), at
 * create and at every call that re-checks the store; never a disengaged
 * session. Opening never blocks: a FIFO at the store path or at
 * `<store>.lock` is refused at once. Each case runs in a child, whose
 * alarm turns a hang into a failure. A repaired store works again; a
 * sign-out (idlelock_disable) removes a damaged one.
 *
 * Regression (issue 11, findings 6 and 7): a LOCKED_OUT process whose store
 * was cut below its header size became UNLOCKED, disengaged, gate open; a
 * FIFO at the store path hung create and every refresh.
 */
#include "harness.h"

enum damage {
    CUT_SHORT,    /* the first 100 bytes: shorter than the look reads */
    CUT_LONGER,   /* the first 300 bytes: the look's bytes intact */
    EMPTY,        /* 0 bytes */
    BAD_CHECKSUM, /* the generation's top bit flipped: the MAC fails */
    NEWER,        /* format version 3 (the library writes 2) */
    FOREIGN,      /* another magic */
    FIFO,         /* a named pipe at the path */
    FOLDER,       /* a folder at the path */
    SYMLINK,      /* a symbolic link to a sound copy */
    DAMAGE_KINDS
};

static const char *const damage_names[DAMAGE_KINDS] = {
    "cut short", "cut after the first 300 bytes", "empty", "bad checksum", "newer format", "foreign", "FIFO", "folder",
    "symbolic link",
};

static char d_path[200];
static unsigned char sound[1 << 16];
static size_t sound_len;
/* `<store>.lock` with the sound store: its rollback mark (rollback.c). */
static unsigned char sound_lock[512];
static size_t sound_lock_len;

/* Keeps the store's sound bytes for repair(), and the lock file's for
 * reset(). */
static int keep_sound(void)
{
    char lock[220];
    int fd = open(d_path, O_RDONLY);
    if (fd < 0) {
        CHECK(0, "cannot open %s (errno %d)", d_path, errno);
        return 0;
    }
    sound_len = read_full(fd, sound, sizeof sound);
    close(fd);
    snprintf(lock, sizeof lock, "%s.lock", d_path);
    fd = open(lock, O_RDONLY);
    sound_lock_len = fd >= 0 ? read_full(fd, sound_lock, sizeof sound_lock) : 0;
    if (fd >= 0) close(fd);
    CHECK(sound_len > 200 && sound_len < sizeof sound, "store of %zu bytes", sound_len);
    return sound_len > 200 && sound_len < sizeof sound;
}

static void write_file(const char *path, const unsigned char *bytes, size_t len)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    CHECK(fd >= 0, "cannot write %s (errno %d)", path, errno);
    if (fd < 0) return;
    CHECK(write_all(fd, bytes, len) == 0, "write to %s failed", path);
    close(fd);
}

/* Removes whatever is at the store path (a file, a FIFO, a link, a folder). */
static void clear_path(void)
{
    char real[260];
    if (unlink(d_path) != 0 && errno == EISDIR) rmdir(d_path);
    if (rmdir(d_path) != 0 && errno != ENOENT && errno != ENOTDIR) {
        CHECK(0, "cannot clear %s (errno %d)", d_path, errno);
    }
    snprintf(real, sizeof real, "%s.real", d_path);
    unlink(real);
}

/* Damages the store (another process, or the disk, did it). */
static void damage(enum damage kind)
{
    unsigned char bytes[1 << 16];
    char real[260];
    memcpy(bytes, sound, sound_len);
    clear_path();
    switch (kind) {
    case CUT_SHORT: write_file(d_path, bytes, 100); break;
    case CUT_LONGER: write_file(d_path, bytes, 300); break;
    case EMPTY: write_file(d_path, bytes, 0); break;
    case BAD_CHECKSUM: bytes[23] ^= 0x80; write_file(d_path, bytes, sound_len); break;
    case NEWER: bytes[8] = 3; write_file(d_path, bytes, sound_len); break;
    case FOREIGN: memcpy(bytes, "NOTASTOR", 8); write_file(d_path, bytes, sound_len); break;
    case FIFO: CHECK(mkfifo(d_path, 0600) == 0, "mkfifo (errno %d)", errno); break;
    case FOLDER: CHECK(mkdir(d_path, 0700) == 0, "mkdir (errno %d)", errno); break;
    case SYMLINK:
        snprintf(real, sizeof real, "%s.real", d_path);
        write_file(real, bytes, sound_len);
        CHECK(symlink(real, d_path) == 0, "symlink (errno %d)", errno);
        break;
    case DAMAGE_KINDS: break;
    }
}

static void repair(void)
{
    clear_path();
    write_file(d_path, sound, sound_len);
}

/* Each case starts from the same sound store: both files put back as they
 * were (the lock file in place: it is never replaced). The store alone
 * would be an older copy once a case has written it (rollback.c). */
static void reset(void)
{
    char lock[220];
    int fd;
    repair();
    snprintf(lock, sizeof lock, "%s.lock", d_path);
    fd = open(lock, O_WRONLY | O_TRUNC);
    CHECK(fd >= 0, "cannot write %s (errno %d)", lock, errno);
    if (fd < 0) return;
    CHECK(write_all(fd, sound_lock, sound_lock_len) == 0, "write to %s failed", lock);
    close(fd);
}

/* The finding: a LOCKED_OUT process whose store is cut short (or damaged
 * any other way) stays LOCKED_OUT and engaged; every call that re-checks
 * the store answers STORAGE. */
static void locked_out_holder(void *arg, int64_t values[4])
{
    enum damage kind = (enum damage)(intptr_t)arg;
    idlelock *h = open_store(d_path, 1, 1, __FILE__, __LINE__);
    idlelock_snapshot s;
    char buf[64];
    (void)values;
    if (h == NULL) return;
    CHECK_ST(idlelock_start(h, NULL), IDLELOCK_OK, "damage: start");
    CHECK_ST(unlock_with(h, WRONG, &s), IDLELOCK_ERR_LOCKED_OUT, "damage: the wrong passcode");
    damage(kind);
    CHECK_ST(idlelock_require_unlocked(h), IDLELOCK_ERR_STORAGE, damage_names[kind]);
    CHECK_ST(get_text(h, "token", buf, sizeof buf), IDLELOCK_ERR_STORAGE, damage_names[kind]);
    CHECK_ST(unlock_with(h, RIGHT, &s), IDLELOCK_ERR_STORAGE, damage_names[kind]);
    CHECK_EQ(s.state, IDLELOCK_STATE_LOCKED_OUT, damage_names[kind]);
    CHECK_EQ(s.is_enabled, 1, damage_names[kind]);
    CHECK_ST(idlelock_set_passcode(h, "1357", 4), IDLELOCK_ERR_STORAGE, damage_names[kind]);
    s = snap(h);
    CHECK_EQ(s.state, IDLELOCK_STATE_LOCKED_OUT, damage_names[kind]);
    CHECK_EQ(s.is_enabled, 1, damage_names[kind]);
    CHECK_EQ(s.attempts_remaining, 0, damage_names[kind]);
    idlelock_destroy(h);
}

/* An UNLOCKED session (device key, lock_on_start 0) whose store is
 * damaged locks (STARTUP) at the next call that re-checks the store, and
 * opens again only with the passcode once the store is repaired. */
static void unlocked_holder(void *arg, int64_t values[4])
{
    enum damage kind = (enum damage)(intptr_t)arg;
    const char *what = damage_names[kind];
    idlelock_config cfg;
    idlelock *h = NULL;
    idlelock_snapshot s;
    char buf[64];
    (void)values;
    make_config(&cfg, d_path, 5, 0, 1);
    CHECK_ST(idlelock_create(&cfg, &h), IDLELOCK_OK, "damage: create");
    if (h == NULL) return;
    CHECK_ST(idlelock_start(h, NULL), IDLELOCK_OK, "damage: start");
    CHECK_ST(idlelock_require_unlocked(h), IDLELOCK_OK, "damage: the gate before the damage");
    damage(kind);
    CHECK_ST(idlelock_touch(h, NULL), IDLELOCK_OK, "damage: touch (no I/O)");
    CHECK_ST(idlelock_require_unlocked(h), IDLELOCK_ERR_STORAGE, what);
    s = snap(h);
    CHECK_EQ(s.state, IDLELOCK_STATE_LOCKED, what);
    CHECK_EQ(s.reason, IDLELOCK_REASON_STARTUP, what);
    CHECK_EQ(s.is_enabled, 1, what);
    CHECK_ST(get_text(h, "token", buf, sizeof buf), IDLELOCK_ERR_STORAGE, what);
    /* create refuses it too, without waiting */
    {
        idlelock *other = NULL;
        CHECK_ST(idlelock_create(&cfg, &other), IDLELOCK_ERR_STORAGE, what);
        CHECK(other == NULL, "damage: create wrote a handle");
    }
    repair();
    CHECK_ST(idlelock_require_unlocked(h), IDLELOCK_ERR_SESSION_LOCKED, what);
    CHECK_ST(unlock_with(h, RIGHT, &s), IDLELOCK_OK, what);
    CHECK_ST(get_text(h, "token", buf, sizeof buf), IDLELOCK_OK, what);
    CHECK(strcmp(buf, "t-damage") == 0, "damage: the secret after the repair");
    idlelock_destroy(h);
}

/* Damage further in that keeps the first bytes and the size (the last
 * byte of the MAC) is found by the next call that reads the whole store:
 * every durable step. */
static void tail_damage_holder(void *arg, int64_t values[4])
{
    idlelock_config cfg;
    idlelock *h = NULL;
    idlelock_snapshot s;
    unsigned char bytes[1 << 16];
    (void)arg;
    (void)values;
    make_config(&cfg, d_path, 5, 0, 1);
    CHECK_ST(idlelock_create(&cfg, &h), IDLELOCK_OK, "tail damage: create");
    if (h == NULL) return;
    CHECK_ST(idlelock_start(h, NULL), IDLELOCK_OK, "tail damage: start");
    memcpy(bytes, sound, sound_len);
    bytes[sound_len - 1] ^= 0x80;
    write_file(d_path, bytes, sound_len);
    CHECK_ST(put_text(h, "token", "changed"), IDLELOCK_ERR_STORAGE, "tail damage: secret_put");
    s = snap(h);
    CHECK_EQ(s.state, IDLELOCK_STATE_LOCKED, "tail damage: state");
    CHECK_EQ(s.is_enabled, 1, "tail damage: is_enabled");
    repair();
    idlelock_destroy(h);
}

/* A FIFO at `<store>.lock` is refused at create; an unengaged handle never
 * writes over a damaged store (set_passcode is STORAGE, the file is left
 * as it is); a sign-out removes a damaged store. */
static void lock_file_and_sign_out(void *arg, int64_t values[4])
{
    idlelock_config cfg;
    idlelock *h = NULL;
    char path[200], lock[220];
    struct stat st;
    (void)arg;
    (void)values;
    store_path(path, sizeof path, "fifo-lock.idlelock");
    snprintf(lock, sizeof lock, "%s.lock", path);
    CHECK(mkfifo(lock, 0600) == 0, "mkfifo (errno %d)", errno);
    make_config(&cfg, path, 5, 1, 0);
    CHECK_ST(idlelock_create(&cfg, &h), IDLELOCK_ERR_STORAGE, "create with a FIFO at <store>.lock");
    CHECK(strstr(idlelock_last_error(), "lock") != NULL, "the message names the lock file: %s",
          idlelock_last_error());
    unlink(lock);

    /* No store yet: an unengaged handle; then an empty file appears. */
    store_path(path, sizeof path, "appears.idlelock");
    make_config(&cfg, path, 5, 1, 0);
    CHECK_ST(idlelock_create(&cfg, &h), IDLELOCK_OK, "create with no store");
    if (h == NULL) return;
    write_file(path, (const unsigned char *)"", 0);
    CHECK_ST(idlelock_set_passcode(h, RIGHT, strlen(RIGHT)), IDLELOCK_ERR_STORAGE,
             "set_passcode over a damaged store");
    CHECK(stat(path, &st) == 0 && st.st_size == 0, "the damaged store was written over");
    CHECK_EQ(snap(h).is_enabled, 0, "set_passcode over a damaged store: is_enabled");
    CHECK_ST(idlelock_disable(h), IDLELOCK_OK, "disable removes a damaged store");
    CHECK(!file_exists(path), "the damaged store is still there after disable");
    CHECK_ST(idlelock_set_passcode(h, RIGHT, strlen(RIGHT)), IDLELOCK_OK, "set_passcode after disable");
    idlelock_destroy(h);
}

void test_damage(void)
{
    int kind;
    store_path(d_path, sizeof d_path, "damaged.idlelock");
    make_store(d_path, 1, 1, "t-damage");
    if (!keep_sound()) return;
    for (kind = 0; kind < DAMAGE_KINDS; kind++) {
        reset();
        join(spawn("damage: locked out", locked_out_holder, (void *)(intptr_t)kind), NULL);
    }
    unlink(d_path);
    make_store(d_path, 5, 1, "t-damage");
    if (!keep_sound()) return;
    for (kind = 0; kind < DAMAGE_KINDS; kind++) {
        reset();
        join(spawn("damage: unlocked", unlocked_holder, (void *)(intptr_t)kind), NULL);
    }
    reset();
    join(spawn("damage: the tail", tail_damage_holder, NULL), NULL);
    join(spawn("damage: the lock file, a sign-out", lock_file_and_sign_out, NULL), NULL);
    clear_path();
}
