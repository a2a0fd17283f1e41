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
 * idlelock_lifecycle's message listing the valid names and platforms;
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
 * areas in order and prints the count. `build/test_abi NAME...` runs only
 * the areas named (`--list` lists them), e.g. `build/test_abi secrets`.
 *
 * Build (from the repository root): `make build/test_abi`, or
 *   cc -std=c99 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -pedantic -Werror \
 *      -Iinclude Tests/c/test_abi/[a-z]*.c -Lbuild -l:libidlelock.so.1 \
 *      -Wl,-rpath,$PWD/build -lpthread -o build/test_abi
 */
#include "harness.h"
#include "../areas.h"

/* The areas in the order they run (`build/test_abi NAME...`, `--list`:
 * Tests/c/areas.h). */
static const struct test_area areas[] = {
    {"versions", test_versions},
    {"status_names", test_status_names},
    {"null_handle", test_null_handle},
    {"null_create", test_null_create},
    {"null_pointers", test_null_pointers},
    {"config_init", test_config_init},
    {"config_sizes", test_config_sizes},
    {"snapshot_sizes", test_snapshot_sizes},
    {"config_bounds", test_config_bounds},
    {"config_timeouts", test_config_timeouts},
    {"config_pointers", test_config_pointers},
    {"failed_call_changes_nothing", test_failed_call_changes_nothing},
    {"set_passcode_args", test_set_passcode_args},
    {"unlock_args_not_counted", test_unlock_args_not_counted},
    {"lockout_order", test_lockout_order},
    {"failure_reports", test_failure_reports},
    {"snapshot_at_return", test_snapshot_at_return},
    {"config_copied", test_config_copied},
    {"biometrics", test_biometrics},
    {"biometric_pair", test_biometric_pair},
    {"recent_auth", test_recent_auth},
    {"secrets", test_secrets},
    {"last_error_threads", test_last_error_threads},
    {"lifecycle_messages", test_lifecycle_messages},
    {"listener_basics", test_listener_basics},
    {"listener_reentry", test_listener_reentry},
    {"shared_out_buffer", test_shared_out_buffer},
    {"listener_limit", test_listener_limit},
    {"fresh_snapshot", test_fresh_snapshot},
    {"saturation", test_saturation},
    {"threads", test_threads},
    {"watcher_toggling", test_watcher_toggling},
    {"destroy_from_listeners", test_destroy_from_listeners},
    {"watcher_far_deadline", test_watcher_far_deadline},
};
#define AREA_COUNT (sizeof areas / sizeof areas[0])

int main(int argc, char **argv)
{
    int chosen[AREA_COUNT];
    int status = test_areas_choose("test_abi", areas, AREA_COUNT, argc, argv, chosen, NULL);
    if (status >= 0) return status;
    test_areas_run(areas, AREA_COUNT, chosen);
    printf("%u passed, %u failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
