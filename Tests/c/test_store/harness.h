/* SPDX-License-Identifier: MIT */
/*
 * harness.h: what every area of test_store shares: the checks and their
 * counters, the helpers, the child processes (harness.c), and the list
 * of areas that main.c runs in order.
 *
 * A failed check prints `FAIL <file>:<line> [<role>, pid <pid>]: ...`.
 */
#ifndef TEST_STORE_HARNESS_H
#define TEST_STORE_HARNESS_H

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

/* The counts of this process (a child's are added by join()). */
extern unsigned passed, failed;
/* "parent", or the name of the child process running. */
extern const char *role;
/* -v: print what the kill test covered. */
extern int verbose;

void check(int ok, const char *file, int line, const char *fmt, ...);
void check_status(int got, int want, const char *file, int line, const char *what);
void check_i64(int64_t got, int64_t want, const char *file, int line, const char *what);
/* idlelock_status_name(st), or "(null)". */
const char *sname(int st);

#define CHECK(ok, ...) check((ok), __FILE__, __LINE__, __VA_ARGS__)
#define CHECK_ST(got, want, what) check_status((got), (want), __FILE__, __LINE__, (what))
#define CHECK_EQ(got, want, what) check_i64((int64_t)(got), (int64_t)(want), __FILE__, __LINE__, (what))

/* ---------------------------------------------------------------------- */
/* Helpers                                                                */
/* ---------------------------------------------------------------------- */

/* The test's own temporary folder (main.c makes and removes it). */
extern char tmpdir[64];
/* Seconds a child of spawn() may run before its alarm ends it: a fifth of
 * the run's own limit (IDLELOCK_TEST_TIMEOUT, 300 s: 60 s), more under an
 * emulator's longer limit. */
extern unsigned child_timeout;
extern const uint8_t device_key[IDLELOCK_DEVICE_KEY_BYTES];

#define RIGHT "2468"
#define WRONG "0000"
#define TEN_MINUTES ((int64_t)600000)

/* `<tmpdir>/<name>` into out. */
void store_path(char *out, size_t size, const char *name);
/* The Argon2id floor, the default clock, 10-minute timeouts. */
void make_config(idlelock_config *cfg, const char *path, int32_t max_attempts,
                 int32_t lock_on_start, int with_device_key);
/* A zeroed snapshot whose size is this header's. */
idlelock_snapshot snap_init(void);
/* idlelock_snapshot_get, checked. */
idlelock_snapshot snap(idlelock *h);
int unlock_with(idlelock *h, const char *code, idlelock_snapshot *out);
/* Reads the secret `name` into buf (NUL-terminated); returns the status. */
int get_text(idlelock *h, const char *name, char *buf, size_t size);
int put_text(idlelock *h, const char *name, const char *value);
/* 0, or -1 when a write failed (EINTR retried). */
int write_all(int fd, const void *buf, size_t len);
/* Reads exactly len bytes; returns the number read (less at EOF/error). */
size_t read_full(int fd, void *buf, size_t len);
void send_byte(int fd, char c);
/* Waits for one byte; returns it, or 0 at EOF. */
char recv_byte(int fd);
int file_exists(const char *path);
/* Unlinks every file in `dir` (the folder stays). */
void remove_files(const char *dir);
/* In a child right after fork(): it gets SIGKILL when PARENT dies (Linux's
 * PR_SET_PDEATHSIG), so an interrupted or timed-out run leaves no child
 * behind; exits at once when PARENT is already gone. A setuid clears it:
 * call it again after one. */
void die_with_parent(pid_t parent);
/* fork() (stdout flushed first) whose child dies with this process
 * (die_with_parent): every child of test_store comes from here. */
pid_t fork_child(void);
/* Number of `<name>.tmp.*` files in the temp folder. */
int count_temporaries(const char *name);
void sleep_ms(long ms);

/* ---------------------------------------------------------------------- */
/* Child processes                                                        */
/* ---------------------------------------------------------------------- */

struct child {
    pid_t pid;
    int fd;
    const char *role;
};

/* A child's work; it may leave up to 4 values for the parent. */
typedef void (*child_body)(void *arg, int64_t values[4]);

/* Forks a child named child_role that runs body(arg) with fresh counters
 * and reports them through a pipe. */
struct child spawn(const char *child_role, child_body body, void *arg);
/* Waits for the child; adds its counts. Returns 1 when it reported. */
int join(struct child c, int64_t values[4]);
/* Creates the passcode (and optionally a secret) on a new store from this
 * process; the handle is destroyed before returning. */
void make_store(const char *path, int32_t max_attempts, int with_device_key,
                const char *secret_value);
/* Opens the store in this process; NULL (and a failure at file:line) when
 * create fails. */
idlelock *open_store(const char *path, int32_t max_attempts, int with_device_key,
                     const char *file, int line);

/* ---------------------------------------------------------------------- */
/* The areas, in the order main.c runs them                               */
/* ---------------------------------------------------------------------- */

void test_shared_count(void);                   /* processes.c */
void test_concurrent(void);                     /* processes.c */
void test_cross_process(void);                  /* processes.c */
void test_kill(unsigned seed, int iterations);  /* kill.c */
/* Kills per run: IDLELOCK_TEST_KILLS overrides (a long run is
 * `IDLELOCK_TEST_KILLS=5000 build/test_store`). */
#define T4_ITERATIONS 200
/* A kill during the check skips no delay (issue 11, finding 3). */
void test_kill_during_check(void);              /* kill.c */
void test_modes(void);                          /* modes.c */
void test_faults(void);                         /* faults.c */
/* Issue 11: only absence is a sign-out; damage locks (findings 6, 7). */
void test_damage(void);                         /* damage.c */
/* Issue 11: store_path resolved once, at create (finding 4). */
void test_paths(void);                          /* paths.c */
/* Issue 11: a stored session hands out nothing before start (finding 5). */
void test_before_start(void);                   /* processes.c */
void test_policies(void);                       /* policies.c */
/* Issue 19: an older copy of the store is damage (finding 5). */
void test_rollback(void);                       /* rollback.c */
/* Issue 19: another process turning the shortcut off voids the requests. */
void test_requests_across_processes(void);     /* requests.c */
/* Issue 26: a lock file deleted under a running process (finding 7). */
void test_lock_file_replaced(void);             /* lockfile.c */
void test_lock_file_races(void);                /* lockfile.c */
/* Issue 26's red team: clock steps and the gates across processes sharing
 * one caller clock. */
void test_clock_steps_across_processes(void);   /* steps.c */

#endif
