/* SPDX-License-Identifier: MIT */
/*
 * test_abi: edge cases of the libidlelock C ABI (include/idlelock.h).
 *
 * Every check is derived from the header (include/idlelock.h), not from what the
 * library happens to do. Prints one line per failed check, then exactly
 * `N passed, N failed` on its own line; exits 1 when any check failed.
 *
 * Covered: NULL handles and pointers for every function; destroy(NULL);
 * config and snapshot sizes; every config bound at and just past its edge
 * (with the field named in idlelock_last_error()); a failed call changes
 * nothing; passcode UTF-8 validation and the attempt count; secret name and
 * value limits, BUFFER_TOO_SMALL; status names; per-thread last_error;
 * versions and struct sizes; listeners (seq order, unsubscribe from inside,
 * re-entry, the limit); the biometric stubs; the two-phase biometric pair
 * and the step-up check (1.2); saturating time arithmetic;
 * several threads on one handle (allowed statuses only, secrets never mixed
 * up, listeners in seq order and silent once unsubscribe has returned);
 * what a call with two halves reports is the state when it returns; the
 * watcher thread started and stopped by several threads at once (no hang,
 * no thread left); idlelock_destroy from inside a listener, on a host
 * thread and on the watcher's (no callback after it returns).
 *
 * Every config uses the Argon2id floor and a clock callback that returns
 * the variable `now`, which the tests set.
 *
 * The files: harness.h and harness.c hold the checks, the counters and the
 * shared fixtures; each other file is one API area; this one runs the
 * areas in order and prints the count.
 *
 * Build (from the repository root): `make build/test_abi`, or
 *   cc -std=c99 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -pedantic -Werror \
 *      -Iinclude Tests/c/test_abi/[a-z]*.c -Lbuild -l:libidlelock.so.1 \
 *      -Wl,-rpath,$PWD/build -lpthread -o build/test_abi
 */
#include "harness.h"

int main(void)
{
    test_versions();
    test_status_names();
    test_null_handle();
    test_null_create();
    test_null_pointers();
    test_config_init();
    test_config_sizes();
    test_snapshot_sizes();
    test_config_bounds();
    test_config_timeouts();
    test_config_pointers();
    test_failed_call_changes_nothing();
    test_set_passcode_args();
    test_unlock_args_not_counted();
    test_lockout_order();
    test_failure_reports();
    test_snapshot_at_return();
    test_config_copied();
    test_biometrics();
    test_biometric_pair();
    test_recent_auth();
    test_secrets();
    test_last_error_threads();
    test_listener_basics();
    test_listener_reentry();
    test_shared_out_buffer();
    test_listener_limit();
    test_fresh_snapshot();
    test_saturation();
    test_threads();
    test_watcher_toggling();
    test_destroy_from_listeners();
    test_watcher_far_deadline();
    printf("%u passed, %u failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
