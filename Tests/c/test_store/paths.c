/* SPDX-License-Identifier: MIT */
/*
 * paths.c: store_path names one file for the life of the handle (header, "The store"):
 * a relative path is resolved once, at create, against the folder of that
 * moment, and the folder is held open, so neither a later chdir of the
 * host nor a rename of a parent folder changes which store the handle
 * uses. (A symbolic link at the store path is damage: damage.c.)
 *
 * Regression (issue 11, finding 4): after the host's chdir, a LOCKED
 * session found "no store", disengaged, opened the gate and dropped its
 * secrets; a later set_passcode made a second store in the new folder,
 * with no lock file beside it.
 */
#include "harness.h"

static void remove_in(const char *folder, const char *name)
{
    char path[300];
    snprintf(path, sizeof path, "%s/%s", folder, name);
    unlink(path);
}

/* A LOCKED session with a relative store_path, then the host's chdir. */
static void relative_path_then_chdir(void *arg, int64_t values[4])
{
    char here[200], elsewhere[200], path[300], buf[64];
    idlelock_config cfg;
    idlelock *h = NULL;
    idlelock_snapshot s;
    (void)arg;
    (void)values;
    snprintf(here, sizeof here, "%s/here", tmpdir);
    snprintf(elsewhere, sizeof elsewhere, "%s/elsewhere", tmpdir);
    CHECK(mkdir(here, 0700) == 0 && mkdir(elsewhere, 0700) == 0, "mkdir (errno %d)", errno);
    CHECK(chdir(here) == 0, "chdir (errno %d)", errno);
    make_config(&cfg, "session.idlelock", 5, 1, 0);
    CHECK_ST(idlelock_create(&cfg, &h), IDLELOCK_OK, "paths: create with a relative path");
    if (h == NULL) return;
    CHECK_ST(idlelock_set_passcode(h, RIGHT, strlen(RIGHT)), IDLELOCK_OK, "paths: set_passcode");
    CHECK_ST(put_text(h, "token", "kept"), IDLELOCK_OK, "paths: secret_put");
    CHECK_ST(idlelock_lock(h, NULL), IDLELOCK_OK, "paths: lock");

    CHECK(chdir(elsewhere) == 0, "chdir (errno %d)", errno);
    CHECK_ST(idlelock_require_unlocked(h), IDLELOCK_ERR_SESSION_LOCKED, "paths: the gate after chdir");
    s = snap(h);
    CHECK_EQ(s.state, IDLELOCK_STATE_LOCKED, "paths: state after chdir");
    CHECK_EQ(s.is_enabled, 1, "paths: is_enabled after chdir");
    CHECK_ST(unlock_with(h, RIGHT, &s), IDLELOCK_OK, "paths: unlock after chdir");
    CHECK_ST(get_text(h, "token", buf, sizeof buf), IDLELOCK_OK, "paths: secret_get after chdir");
    CHECK(strcmp(buf, "kept") == 0, "paths: the secret after chdir is '%s'", buf);
    CHECK_ST(idlelock_set_passcode(h, "1357", 4), IDLELOCK_OK, "paths: a new passcode after chdir");
    CHECK(access("session.idlelock", F_OK) != 0, "paths: a second store was made in the new folder");
    snprintf(path, sizeof path, "%s/session.idlelock", here);
    CHECK(file_exists(path), "paths: the store is gone from the folder of create");
    idlelock_destroy(h);

    CHECK(chdir("/") == 0, "chdir (errno %d)", errno);
    remove_in(here, "session.idlelock");
    remove_in(here, "session.idlelock.lock");
    remove_in(elsewhere, "session.idlelock");
    remove_in(elsewhere, "session.idlelock.lock");
    rmdir(here);
    rmdir(elsewhere);
}

/* A LOCKED session whose store's folder is renamed. */
static void parent_folder_renamed(void *arg, int64_t values[4])
{
    char before[200], after[200], path[300], moved[300], buf[64];
    idlelock_config cfg;
    idlelock *h = NULL, *other = NULL;
    idlelock_snapshot s;
    (void)arg;
    (void)values;
    snprintf(before, sizeof before, "%s/before", tmpdir);
    snprintf(after, sizeof after, "%s/after", tmpdir);
    snprintf(path, sizeof path, "%s/session.idlelock", before);
    snprintf(moved, sizeof moved, "%s/session.idlelock", after);
    CHECK(mkdir(before, 0700) == 0, "mkdir (errno %d)", errno);
    make_config(&cfg, path, 5, 1, 0);
    CHECK_ST(idlelock_create(&cfg, &h), IDLELOCK_OK, "paths: create");
    if (h == NULL) return;
    CHECK_ST(idlelock_set_passcode(h, RIGHT, strlen(RIGHT)), IDLELOCK_OK, "paths: set_passcode");
    CHECK_ST(idlelock_lock(h, NULL), IDLELOCK_OK, "paths: lock");

    CHECK(rename(before, after) == 0, "rename (errno %d)", errno);
    CHECK_ST(idlelock_require_unlocked(h), IDLELOCK_ERR_SESSION_LOCKED, "paths: the gate after the rename");
    CHECK_EQ(snap(h).is_enabled, 1, "paths: is_enabled after the rename");
    CHECK_ST(unlock_with(h, RIGHT, &s), IDLELOCK_OK, "paths: unlock after the rename");
    CHECK_ST(put_text(h, "token", "moved"), IDLELOCK_OK, "paths: secret_put after the rename");
    CHECK(!file_exists(path), "paths: a store was made at the old path");
    idlelock_destroy(h);

    /* The store in the renamed folder holds the secret. */
    make_config(&cfg, moved, 5, 1, 0);
    CHECK_ST(idlelock_create(&cfg, &other), IDLELOCK_OK, "paths: create on the renamed folder");
    if (other != NULL) {
        CHECK_ST(idlelock_start(other, NULL), IDLELOCK_OK, "paths: start on the moved store");
        CHECK_ST(unlock_with(other, RIGHT, &s), IDLELOCK_OK, "paths: unlock of the moved store");
        CHECK_ST(get_text(other, "token", buf, sizeof buf), IDLELOCK_OK, "paths: secret_get of the moved store");
        CHECK(strcmp(buf, "moved") == 0, "paths: the moved store holds '%s'", buf);
        idlelock_destroy(other);
    }
    remove_in(after, "session.idlelock");
    remove_in(after, "session.idlelock.lock");
    rmdir(after);
}

void test_paths(void)
{
    join(spawn("paths: chdir", relative_path_then_chdir, NULL), NULL);
    join(spawn("paths: a renamed folder", parent_folder_renamed, NULL), NULL);
}
