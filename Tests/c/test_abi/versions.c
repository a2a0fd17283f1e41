/* SPDX-License-Identifier: MIT */
/*
 * versions.c: the version macros and functions agree, the struct size
 * functions, and the status names.
 */
#include "harness.h"

void test_versions(void)
{
    int maj = -1, min = -1, pat = -1;
    const char *v = idlelock_version();
    CHECK(v != NULL);
    if (v == NULL)
        return;
    CHECK(strcmp(v, IDLELOCK_VERSION_STRING) == 0);
    CHECK_EQ(idlelock_version_number(), IDLELOCK_VERSION_NUMBER);
    CHECK_EQ(IDLELOCK_VERSION_NUMBER, IDLELOCK_VERSION_MAJOR * 10000 +
             IDLELOCK_VERSION_MINOR * 100 + IDLELOCK_VERSION_PATCH);
    CHECK(sscanf(v, "%d.%d.%d", &maj, &min, &pat) == 3);
    CHECK_EQ(maj * 10000 + min * 100 + pat, idlelock_version_number());
    CHECK_EQ(idlelock_config_size(), sizeof(idlelock_config));
    CHECK_EQ(idlelock_snapshot_size(), sizeof(idlelock_snapshot));
    CHECK_EQ(idlelock_authenticator_size(), sizeof(idlelock_authenticator));
    CHECK_EQ(idlelock_delay_step_size(), sizeof(idlelock_delay_step));
}

void test_status_names(void)
{
    static const char *const want[] = {
        "IDLELOCK_OK", "IDLELOCK_ERR_INVALID_ARGUMENT", "IDLELOCK_ERR_SESSION_LOCKED",
        "IDLELOCK_ERR_INVALID_PASSCODE", "IDLELOCK_ERR_LOCKED_OUT",
        "IDLELOCK_ERR_LOCK_UNAVAILABLE", "IDLELOCK_ERR_NO_PASSCODE",
        "IDLELOCK_ERR_STORAGE", "IDLELOCK_ERR_NOT_FOUND",
        "IDLELOCK_ERR_BUFFER_TOO_SMALL", "IDLELOCK_ERR_NO_MEMORY",
        "IDLELOCK_ERR_INTERNAL", "IDLELOCK_ERR_RETRY_LATER", "IDLELOCK_ERR_REAUTH_REQUIRED",
    };
    static const int unknown[] = { -1, 14, INT_MAX, INT_MIN };
    size_t i;
    for (i = 0; i < sizeof want / sizeof want[0]; i++) {
        const char *s = idlelock_status_name((int)i);
        check_true(s != NULL && strcmp(s, want[i]) == 0, __FILE__, __LINE__, want[i]);
    }
    for (i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
        const char *s = idlelock_status_name(unknown[i]);
        CHECK(s != NULL);
        CHECK(s != NULL && strcmp(s, "IDLELOCK_ERR_UNKNOWN") == 0);
    }
}
