/* SPDX-License-Identifier: MIT */
/*
 * null_handle.c: every function with a NULL handle or NULL config, the
 * status names, the versions and struct sizes.
 */
#include "fuzz_api.h"

void null_handle_calls(reader *r)
{
    idlelock_snapshot s;
    uint64_t tok = 0;
    size_t len = 0;
    idlelock *out = (idlelock *)(uintptr_t)1;
    memset(&s, 0, sizeof s);
    s.size = sizeof s;
    switch (rd_u8(r) % 12) {
    case 0: REQUIRE(idlelock_touch(NULL, &s) == IDLELOCK_ERR_INVALID_ARGUMENT, "touch(NULL)");
        REQUIRE(idlelock_inactive(NULL, NULL) == IDLELOCK_ERR_INVALID_ARGUMENT, "inactive(NULL)");
        REQUIRE(idlelock_background(NULL, &s) == IDLELOCK_ERR_INVALID_ARGUMENT, "background(NULL)");
        REQUIRE(idlelock_foreground(NULL, NULL) == IDLELOCK_ERR_INVALID_ARGUMENT, "foreground(NULL)");
        break;
    case 1: REQUIRE(idlelock_check(NULL, &s) == IDLELOCK_ERR_INVALID_ARGUMENT, "check(NULL)");
        REQUIRE(idlelock_lock(NULL, NULL) == IDLELOCK_ERR_INVALID_ARGUMENT, "lock(NULL)");
        REQUIRE(idlelock_start(NULL, NULL) == IDLELOCK_ERR_INVALID_ARGUMENT, "start(NULL)");
        REQUIRE(idlelock_snapshot_get(NULL, &s) == IDLELOCK_ERR_INVALID_ARGUMENT, "snapshot_get(NULL)");
        break;
    case 2: REQUIRE(idlelock_set_passcode(NULL, "12345", 5) == IDLELOCK_ERR_INVALID_ARGUMENT, "set(NULL)");
        REQUIRE(idlelock_unlock(NULL, "12345", 5, &s) == IDLELOCK_ERR_INVALID_ARGUMENT, "unlock(NULL)");
        break;
    case 3: REQUIRE(idlelock_enable_biometrics(NULL) == IDLELOCK_ERR_INVALID_ARGUMENT, "enable_bio(NULL)");
        REQUIRE(idlelock_disable_biometrics(NULL) == IDLELOCK_ERR_INVALID_ARGUMENT, "disable_bio(NULL)");
        REQUIRE(idlelock_unlock_with_biometrics(NULL, &s) == IDLELOCK_ERR_INVALID_ARGUMENT, "unlock_bio(NULL)");
        break;
    case 4: REQUIRE(idlelock_disable(NULL) == IDLELOCK_ERR_INVALID_ARGUMENT, "disable(NULL)");
        idlelock_destroy(NULL);
        break;
    case 5: REQUIRE(idlelock_subscribe(NULL, listener_other, NULL, &tok) == IDLELOCK_ERR_INVALID_ARGUMENT,
                    "subscribe(NULL)");
        REQUIRE(idlelock_unsubscribe(NULL, 1) == IDLELOCK_ERR_INVALID_ARGUMENT, "unsubscribe(NULL)");
        break;
    case 6: REQUIRE(idlelock_secret_put(NULL, "a", NULL, 0) == IDLELOCK_ERR_INVALID_ARGUMENT, "put(NULL)");
        REQUIRE(idlelock_secret_get(NULL, "a", NULL, &len) == IDLELOCK_ERR_INVALID_ARGUMENT, "get(NULL)");
        REQUIRE(idlelock_secret_remove(NULL, "a") == IDLELOCK_ERR_INVALID_ARGUMENT, "remove(NULL)");
        REQUIRE(idlelock_require_unlocked(NULL) == IDLELOCK_ERR_INVALID_ARGUMENT, "require(NULL)");
        break;
    case 7: {
        int code = (int)rd_u32(r);
        const char *name = idlelock_status_name(code);
        REQUIRE(name != NULL && strncmp(name, "IDLELOCK_", 9) == 0, "status_name(%d)", code);
        if (!valid_status(code)) REQUIRE(strcmp(name, "IDLELOCK_ERR_UNKNOWN") == 0, "status_name(%d) = %s", code, name);
        break;
    }
    case 8:
        REQUIRE(idlelock_create(NULL, &out) == IDLELOCK_ERR_INVALID_ARGUMENT && out == NULL, "create(NULL, out)");
        break;
    case 9: {
        idlelock_config cfg;
        idlelock_config_init(&cfg, sizeof cfg);
        cfg.idle_after_ms = 1000;
        REQUIRE(idlelock_create(&cfg, NULL) == IDLELOCK_ERR_INVALID_ARGUMENT, "create(cfg, NULL)");
        REQUIRE(idlelock_config_init(NULL, sizeof cfg) == IDLELOCK_ERR_INVALID_ARGUMENT, "config_init(NULL)");
        break;
    }
    case 10:
        REQUIRE(strcmp(idlelock_version(), IDLELOCK_VERSION_STRING) == 0, "version");
        REQUIRE(idlelock_version_number() == IDLELOCK_VERSION_NUMBER, "version_number");
        REQUIRE(idlelock_config_size() == sizeof(idlelock_config), "config_size");
        REQUIRE(idlelock_snapshot_size() == sizeof(idlelock_snapshot), "snapshot_size");
        REQUIRE(idlelock_authenticator_size() == sizeof(idlelock_authenticator), "authenticator_size");
        REQUIRE(idlelock_delay_step_size() == sizeof(idlelock_delay_step), "delay_step_size");
        break;
    default: REQUIRE(idlelock_last_error() != NULL, "last_error NULL"); break;
    }
}
