/* SPDX-License-Identifier: MIT */
/*
 * modes.c: the store file is mode 0600 (even with umask 0);
 * `<store>.lock` is never deleted or replaced, also not by
 * idlelock_disable; a temporary file a crashed writer left
 * (`<store>.tmp.` and six characters) is gone after idlelock_create, and a
 * file that only looks like one stays. The last is the library listing a
 * folder: on 32-bit ARM under qemu-user its 32-bit readdir found nothing
 * (EOVERFLOW) until it was built with 64-bit file offsets (mk/cross.mk).
 * A stray of that name that is no regular file: a FIFO goes (and nothing
 * opens it: the create does not block), a symbolic link goes and the file
 * it points to stays, a folder stays with what it holds.
 */
#include "harness.h"

/* An empty file at PATH, which must not exist yet. */
static void create_empty(const char *path)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    CHECK(fd >= 0, "t5: create %s (errno %d)", path, errno);
    if (fd >= 0) close(fd);
}

void test_modes(void)
{
    char path[200], lock_path[220];
    char name[] = "t5.store";
    char stray[230], other[230], fifo[230], link_stray[230], outside[230], folder[230], inner[240];
    /* Names that only look like a temporary file: five and seven
     * characters after `.tmp.`, and one that is no random suffix. */
    static const char *const kept[] = {".tmp.notes", ".tmp.3f9a0", ".tmp.3f9a0c7"};
    size_t k;
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

    snprintf(stray, sizeof stray, "%s.tmp.3f9a0c", path);
    create_empty(stray);
    for (k = 0; k < sizeof kept / sizeof kept[0]; k++) {
        snprintf(other, sizeof other, "%s%s", path, kept[k]);
        create_empty(other);
    }
    snprintf(fifo, sizeof fifo, "%s.tmp.f1f0c0", path);
    CHECK(mkfifo(fifo, 0600) == 0, "t5: mkfifo %s (errno %d)", fifo, errno);
    snprintf(outside, sizeof outside, "%s/t5.outside", tmpdir);
    create_empty(outside);
    snprintf(link_stray, sizeof link_stray, "%s.tmp.11a4c0", path);
    CHECK(symlink(outside, link_stray) == 0, "t5: symlink %s (errno %d)", link_stray, errno);
    snprintf(folder, sizeof folder, "%s.tmp.d1d0c0", path);
    snprintf(inner, sizeof inner, "%s/inner", folder);
    CHECK(mkdir(folder, 0700) == 0, "t5: mkdir %s (errno %d)", folder, errno);
    create_empty(inner);

    h = open_store(path, 5, 1, __FILE__, __LINE__);
    CHECK(!file_exists(stray), "t5: a stray temporary file (%s) is still there after idlelock_create", stray);
    for (k = 0; k < sizeof kept / sizeof kept[0]; k++) {
        snprintf(other, sizeof other, "%s%s", path, kept[k]);
        CHECK(file_exists(other), "t5: idlelock_create removed %s, which is no temporary file of its", other);
        (void)unlink(other);
    }
    CHECK(lstat(fifo, &st) != 0 && errno == ENOENT, "t5: a stray FIFO (%s) is still there after idlelock_create", fifo);
    CHECK(lstat(link_stray, &st) != 0 && errno == ENOENT,
          "t5: a stray symbolic link (%s) is still there after idlelock_create", link_stray);
    CHECK(file_exists(outside), "t5: idlelock_create removed %s, the file a stray symbolic link pointed to", outside);
    CHECK(file_exists(inner), "t5: idlelock_create removed %s, inside a folder named as a stray", inner);
    (void)unlink(fifo);
    (void)unlink(link_stray);
    (void)unlink(outside);
    (void)unlink(inner);
    (void)rmdir(folder);
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
