/* SPDX-License-Identifier: MIT */
/*
 * test_store: the on-disk store of libidlelock shared by real processes
 * (fork/waitpid), checked against include/idlelock.h ("Life cycle", "The
 * store", "Passcode", "Sealed secrets and the gate", "Biometrics for
 * asynchronous hosts") and docs/STORE.md.
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
 *  6. Faults: a read-only folder, a full disk, no memory for Argon2id, a
 *     store path that is a folder.
 *  7. A kill during a passcode check skips neither the count nor the delay
 *     it starts (kill.c).
 *  8. Damage: a store cut short, failing its checksum, foreign, newer, or
 *     not a regular file (a FIFO, a folder, a link) is STORAGE and locks
 *     the session, never a sign-out; nothing waits on a FIFO (damage.c).
 *  9. store_path is resolved once: a chdir of the host or a rename of the
 *     folder changes nothing (paths.c).
 * 10. A stored session opened by another process hands out nothing until
 *     that handle's first start (processes.c).
 * 11. The passcode policies kept in the store hold for every handle of the
 *     sign-in at once (policies.c).
 * 12. Rollback: a copy of the store put back is STORAGE for a running
 *     handle and for a process started after it; a sign-out is final; a
 *     new sign-in starts afresh; an empty <store>.lock (1.2.0) is no mark
 *     (rollback.c).
 * 13. Another process turning the biometric shortcut off, replacing it,
 *     setting a new passcode or signing out voids this process's open
 *     requests once it looks at the store (requests.c).
 * 14. `<store>.lock` deleted under a running process: it takes the new
 *     one and counts the attempt; a new sign-in made after the deletion is
 *     never refused as an older copy; another user holding the folder's
 *     flock stops no step; a storm of signals does not cut the store
 *     lock's wait short (lockfile.c).
 * 15. The same under races: no attempt is lost when three processes make
 *     wrong attempts on a deleted lock file, or while a cleanup tool
 *     deletes or replaces it every millisecond (lockfile.c).
 * 16. Clock steps across processes that share one caller clock: a step is
 *     recorded whoever saw it, a step during a key derivation neither
 *     re-dates the entry nor lengthens a delay, and an unlock or a new
 *     passcode answers from the state it leaves (steps.c).
 *
 * Every handle is created in the process that uses it (after fork() in a
 * child; a child never uses a handle it inherited), and
 * every config uses the Argon2id floor and the default clock
 * (CLOCK_BOOTTIME, shared by the processes of one boot) with 10-minute
 * timeouts that never fire during the test.
 *
 * The random kill delays use a fixed seed (printed), which the environment
 * variable IDLELOCK_TEST_SEED may override. `-v` prints what the kill test
 * covered. `build/test_store NAME...` runs only the areas named (`--list`
 * lists them), e.g. `build/test_store rollback lock_file_replaced`.
 *
 * The files: harness.h and harness.c hold the checks, the counters, the
 * helpers and the child processes; processes.c holds areas 1 to 3 and 10
 * (several processes on one store), kill.c areas 4 and 7, modes.c 5,
 * faults.c 6, damage.c 8, paths.c 9, policies.c 11, rollback.c 12,
 * requests.c 13, lockfile.c 14 and 15, and steps.c 16; this one makes the
 * temporary folder, runs the areas in order and prints the count.
 *
 * Build and run (from the repository root): `make build/test_store`, or
 *   cc -std=c99 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -pedantic -Werror \
 *      -Iinclude Tests/c/test_store/[a-z]*.c -Lbuild -l:libidlelock.so.1 \
 *      -Wl,-rpath,$PWD/build -lpthread -o build/test_store
 *   build/test_store
 */
#include "harness.h"
#include "../areas.h"

static void remove_tmpdir(void)
{
    remove_files(tmpdir);
    if (rmdir(tmpdir) != 0) printf("warning: could not remove %s (errno %d)\n", tmpdir, errno);
}

static void on_timeout(int sig)
{
    static const char msg[] = "FAIL test_store: timed out (a call or a child hung)\n";
    (void)sig;
    if (write(STDOUT_FILENO, msg, sizeof msg - 1) < 0) _exit(3);
    _exit(2);
}

static unsigned run_seed;

/* The janitor: a child that removes the temporary folder once every
 * process of the run has gone, however the run ended (Ctrl-C, a kill, the
 * timeout, a crash). It reads a pipe whose write end the parent and every
 * child it forks hold, so it reads end of file when the last of them has
 * exited (each child dies with its parent: fork_child). It ignores
 * the terminal's signals, which reach the whole process group. After a
 * run that ended normally the folder is already gone. */
static void start_janitor(void)
{
    struct sigaction ignore;
    int p[2];
    pid_t pid;
    if (pipe(p) != 0) return; /* then only a run that ends normally removes it */
    fflush(stdout);
    pid = fork();
    if (pid == 0) {
        char byte;
        int null;
        memset(&ignore, 0, sizeof ignore);
        ignore.sa_handler = SIG_IGN;
        sigaction(SIGINT, &ignore, NULL);
        sigaction(SIGTERM, &ignore, NULL);
        sigaction(SIGHUP, &ignore, NULL);
        sigaction(SIGQUIT, &ignore, NULL);
        close(p[1]);
        /* Not the run's output: whoever reads it to its end (make, a pipe)
         * does not wait for the janitor. */
        null = open("/dev/null", O_RDWR | O_CLOEXEC);
        if (null >= 0) {
            dup2(null, STDIN_FILENO);
            dup2(null, STDOUT_FILENO);
            dup2(null, STDERR_FILENO);
            close(null);
        }
        while (read(p[0], &byte, 1) < 0 && errno == EINTR) {
        }
        remove_tmpdir();
        _exit(0);
    }
    close(p[0]);
    if (pid < 0) close(p[1]);
}

static void run_kill(void)
{
    const char *kills = getenv("IDLELOCK_TEST_KILLS");
    int iterations = kills != NULL && *kills != '\0' ? atoi(kills) : T4_ITERATIONS;
    test_kill(run_seed, iterations > 0 ? iterations : T4_ITERATIONS);
}

/* The areas in the order they run (`build/test_store [-v] NAME...`,
 * `--list`: Tests/c/areas.h). */
static const struct test_area areas[] = {
    {"shared_count", test_shared_count},
    {"concurrent", test_concurrent},
    {"cross_process", test_cross_process},
    {"kill", run_kill},
    {"kill_during_check", test_kill_during_check},
    {"modes", test_modes},
    {"faults", test_faults},
    {"damage", test_damage},
    {"paths", test_paths},
    {"before_start", test_before_start},
    {"policies", test_policies},
    {"rollback", test_rollback},
    {"requests", test_requests_across_processes},
    {"lock_file_replaced", test_lock_file_replaced},
    {"lock_file_races", test_lock_file_races},
    {"clock_steps", test_clock_steps_across_processes},
};
#define AREA_COUNT (sizeof areas / sizeof areas[0])

int main(int argc, char **argv)
{
    unsigned seed = 20261129u;
    const char *env = getenv("IDLELOCK_TEST_SEED");
    const char *timeout_env = getenv("IDLELOCK_TEST_TIMEOUT");
    unsigned limit;
    struct sigaction sa;
    int chosen[AREA_COUNT];
    int status = test_areas_choose("test_store", areas, AREA_COUNT, argc, argv, chosen, &verbose);

    if (status >= 0) return status;
    if (env != NULL && *env != '\0') seed = (unsigned)strtoul(env, NULL, 10);
    run_seed = seed;

    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &sa, NULL); /* a dead child's pipe is an error, not a kill */
    sa.sa_handler = on_timeout;
    sigaction(SIGALRM, &sa, NULL);
    limit = timeout_env != NULL ? (unsigned)strtoul(timeout_env, NULL, 10) : 300u;
    if (limit / 5 > child_timeout) child_timeout = limit / 5;
    alarm(limit);

    /* In /tmp, not $TMPDIR: the faults and lock-file areas hand the folder
     * to another user (nobody), who must be able to reach it, and make
     * test's TMPDIR is a folder only its owner may enter. The folder goes
     * at the end, also when the run is stopped (the janitor above). */
    strcpy(tmpdir, "/tmp/idlelock-test-store-XXXXXX");
    if (mkdtemp(tmpdir) == NULL) {
        printf("FAIL test_store: mkdtemp failed (errno %d)\n", errno);
        printf("0 passed, 1 failed\n");
        return 1;
    }
    start_janitor();
    printf("test_store: seed %u\n", seed);
    fflush(stdout);

    test_areas_run(areas, AREA_COUNT, chosen);

    remove_tmpdir();
    printf("%u passed, %u failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
