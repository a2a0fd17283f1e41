/* SPDX-License-Identifier: MIT */
/*
 * harness.h: what every area of test_abi shares: the checks and their
 * counters (harness.c), the fixtures, and the list of areas that main.c
 * runs in order.
 *
 * A check counts on the main thread only; a failed one prints
 * `FAIL <file>:<line>: ...`.
 */
#ifndef TEST_ABI_HARNESS_H
#define TEST_ABI_HARNESS_H

#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "idlelock.h"

/* ---------------------------------------------------------------------- */
/* Checks                                                                 */
/* ---------------------------------------------------------------------- */

extern unsigned passed, failed;

void check_true(int ok, const char *file, int line, const char *what);
void check_status(int got, int want, const char *file, int line, const char *call);
void check_i64(int64_t got, int64_t want, const char *file, int line, const char *what);
/* idlelock_status_name(st), or "(null)". */
const char *sname(int st);

#define CHECK(c) check_true((c) != 0, __FILE__, __LINE__, #c)
#define CHECK_ST(call, want) check_status((call), (want), __FILE__, __LINE__, #call)
#define CHECK_EQ(got, want) check_i64((int64_t)(got), (int64_t)(want), __FILE__, __LINE__, #got)

#define OK IDLELOCK_OK
#define INVAL IDLELOCK_ERR_INVALID_ARGUMENT
/* A literal and its length without the terminating NUL. */
#define LIT(s) s, (sizeof(s) - 1)

/* ---------------------------------------------------------------------- */
/* Fixtures                                                               */
/* ---------------------------------------------------------------------- */

/* What the test clock of fill_config() returns; the tests set it. */
extern int64_t now;

/* The defaults, idle 60 s, the KDF floor and the test clock. Counts no
 * check, so other threads may use it. */
int fill_config(idlelock_config *c);
/* fill_config(), checked (main thread only). */
void base_config(idlelock_config *c);
/* idlelock_create, checked: the lock, or NULL and a failure at file:line. */
idlelock *create_or_report(const idlelock_config *c, const char *file, int line);
/* A fresh, unengaged lock with base_config. */
idlelock *new_lock(void);
/* A fresh lock with passcode "1234" and max_attempts `attempts`. */
idlelock *engaged_lock(int32_t attempts);
/* A zeroed snapshot whose size is this header's. */
idlelock_snapshot blank_snap(void);
/* idlelock_snapshot_get, checked. */
idlelock_snapshot snap_of(idlelock *l);
/* Every field of the snapshots but size is the same. */
int same_snap(const idlelock_snapshot *a, const idlelock_snapshot *b);
/* A listener that does nothing. */
void noop_listener(void *ctx, const idlelock_snapshot *s);
/* Threads of this process (/proc/self/task), -1 when unreadable; the fewest
 * seen in about 100 ms (threads joined earlier may still be leaving); and
 * the count once it falls to `want` or below, or what it is after about
 * 10 s (a thread that outlived its stop never leaves). */
int thread_count(void);
int thread_count_low(void);
int thread_count_settled(int want);

/* Storage with the strictest alignment we use, for pointers the library
 * must reject without reading. */
union dummy_object {
    long double d;
    void *p;
    uint64_t u;
};
extern union dummy_object dummy_object;

/* ---------------------------------------------------------------------- */
/* The areas, in the order main.c runs them                               */
/* ---------------------------------------------------------------------- */

/* versions.c */
void test_versions(void);
void test_status_names(void);
/* null_pointers.c */
void test_null_handle(void);
void test_null_create(void);
void test_null_pointers(void);
/* config.c */
void test_config_init(void);
/* struct_sizes.c */
void test_config_sizes(void);
void test_snapshot_sizes(void);
/* config.c */
void test_config_bounds(void);
void test_config_timeouts(void);
void test_config_pointers(void);
/* passcodes.c */
void test_failed_call_changes_nothing(void);
void test_set_passcode_args(void);
void test_unlock_args_not_counted(void);
void test_lockout_order(void);
void test_failure_reports(void);
void test_snapshot_at_return(void);
/* config.c */
void test_config_copied(void);
/* biometrics.c */
void test_biometrics(void);
void test_biometric_pair(void);
void test_recent_auth(void);
/* secrets.c */
void test_secrets(void);
/* last_error.c */
void test_last_error_threads(void);
void test_lifecycle_messages(void);
/* listeners.c */
void test_listener_basics(void);
void test_listener_reentry(void);
void test_shared_out_buffer(void);
void test_listener_limit(void);
/* config.c */
void test_fresh_snapshot(void);
/* time_edges.c */
void test_saturation(void);
/* threads.c */
void test_threads(void);
/* watcher.c */
void test_watcher_toggling(void);
void test_watcher_far_deadline(void);
/* destroy.c */
void test_destroy_from_listeners(void);

#endif
