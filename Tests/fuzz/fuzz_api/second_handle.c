/* SPDX-License-Identifier: MIT */
/*
 * second_handle.c: a second handle made from a fuzzed config: 1.0
 * struct sizes, non-zero tails, out-of-range values, escalating-delay
 * schedules, a watcher thread on the default clock; on the main handle's
 * store, another process that may enter the passcode.
 */
#include "fuzz_api.h"

/* Creates a handle from a fuzzed config; the oracle knows some values are
 * out of range and some configs are fully valid. */
void second_handle(reader *r)
{
    static const int64_t times[] = {0, 1, -1, -2, 1000, 60000, 60001, IDLELOCK_NEVER, INT64_MIN,
                                    IDLELOCK_SAME_AS_IDLE, INT64_MAX - 1};
    idlelock_config *cfg;
    idlelock_authenticator auth;
    idlelock *h2 = (idlelock *)(uintptr_t)1; /* must be overwritten */
    uint8_t sel = rd_u8(r);
    size_t size = sizeof(idlelock_config);
    int known_bad = 0, fully_valid = 1, st;
    char *long_path = NULL, *long_reason = NULL;
    uint8_t *short_key = NULL;

    size_t alloc;
    switch (rd_u8(r) % 8) {
    case 0: size = sizeof(idlelock_config) + 8 * (1 + rd_u8(r) % 4); break;
    case 1: size = rd_u8(r) % CONFIG_V1_SIZE; known_bad = 1; break;
    case 2: size = CONFIG_V1_SIZE; break; /* a 1.0 host: exactly that much memory */
    default: break;
    }
    /* A config of a good size gets exactly that memory (ASan sees any read
     * past it); a bad size gets the 1.0 struct. */
    alloc = size < CONFIG_V1_SIZE ? CONFIG_V1_SIZE : size;
    cfg = malloc(alloc);
    if (cfg == NULL) abort();
    memset(cfg, 0, alloc);
    st = idlelock_config_init(cfg, size);
    if (size < CONFIG_V1_SIZE) {
        REQUIRE(st == IDLELOCK_ERR_INVALID_ARGUMENT, "config_init with size %zu returned %d", size, st);
        cfg->size = (uint32_t)size;
    } else {
        REQUIRE(st == IDLELOCK_OK && cfg->size == size, "config_init(%zu) returned %d", size, st);
        for (size_t i = sizeof(idlelock_config); i < size; i++) {
            REQUIRE(((uint8_t *)cfg)[i] == 0, "config_init left byte %zu non-zero", i);
        }
        if (size > sizeof(idlelock_config) && rd_u8(r) % 4 == 0) {
            ((uint8_t *)cfg)[size - 1 - rd_u8(r) % 8] = 1;
            known_bad = 1;
        }
    }
    cfg->idle_after_ms = 60000;
    cfg->kdf_opslimit = IDLELOCK_KDF_OPSLIMIT_MIN;
    cfg->kdf_memlimit = IDLELOCK_KDF_MEMLIMIT_MIN;
    cfg->clock = fuzz_clock;
    cfg->clock_ctx = &clk_other; /* the same time, not counted as the handle under test's readings */
    /* Each bit of `sel` fuzzes one group of fields. */
    if (sel & 1) {
        cfg->idle_after_ms = times[rd_u8(r) % 11];
        cfg->background_after_ms = times[rd_u8(r) % 11];
        cfg->inactive_after_ms = times[rd_u8(r) % 11];
        cfg->grace_ms = times[rd_u8(r) % 11];
        if ((cfg->idle_after_ms <= 0 && cfg->idle_after_ms != IDLELOCK_NEVER) ||
            (cfg->background_after_ms < 0 && cfg->background_after_ms != IDLELOCK_SAME_AS_IDLE) ||
            cfg->inactive_after_ms < 0 || cfg->grace_ms < 0 || cfg->grace_ms > IDLELOCK_GRACE_MAX_MS)
            known_bad = 1;
        fully_valid = 0; /* both timeouts NEVER is also refused */
    }
    if (sel & 2) {
        cfg->max_attempts = (int32_t)rd_u32(r);
        cfg->lock_on_start = (int32_t)(rd_u8(r) % 4) - 1;
        cfg->reserved0 = rd_u8(r) % 4 == 0 ? 1 : 0;
        if (cfg->max_attempts < 1 || cfg->max_attempts > IDLELOCK_MAX_ATTEMPTS_MAX ||
            cfg->lock_on_start < 0 || cfg->lock_on_start > 1 || cfg->reserved0 != 0)
            known_bad = 1;
    }
    if (sel & 4) {
        cfg->kdf_opslimit = rd_u64(r) % 16;
        cfg->kdf_memlimit = rd_u8(r) % 2 ? IDLELOCK_KDF_MEMLIMIT_MAX + rd_u8(r) % 2
                                         : IDLELOCK_KDF_MEMLIMIT_MIN - rd_u8(r) % 2;
        if (cfg->kdf_opslimit < IDLELOCK_KDF_OPSLIMIT_MIN || cfg->kdf_opslimit > IDLELOCK_KDF_OPSLIMIT_MAX ||
            cfg->kdf_memlimit < IDLELOCK_KDF_MEMLIMIT_MIN || cfg->kdf_memlimit > IDLELOCK_KDF_MEMLIMIT_MAX)
            known_bad = 1;
    }
    if (sel & 8) {
        switch (rd_u8(r) % 7) {
        case 0: cfg->store_path = store2_path; break;
        case 1: /* the main handle's store */
            cfg->store_path = store_path;
            fully_valid = 0;
            store_shared = 1;
            break;
        case 2: cfg->store_path = "/nonexistent-idlelock-dir/store"; fully_valid = 0; break;
        case 3: cfg->store_path = "\xff\xfe-not-utf8"; known_bad = 1; break;
        case 4:
            long_path = malloc(4100);
            if (long_path == NULL) abort();
            memset(long_path, 'p', 4099);
            long_path[4099] = '\0';
            cfg->store_path = long_path;
            known_bad = 1;
            break;
        case 5: cfg->store_path = ""; fully_valid = 0; break;
        default: /* a folder (its `.lock` stays inside fuzz_dir) */
            mkdir(folder_path, 0700);
            cfg->store_path = folder_path;
            fully_valid = 0;
            break;
        }
    }
    if (sel & 16) {
        switch (rd_u8(r) % 6) {
        case 0: cfg->clock = NULL; cfg->clock_ctx = NULL; break;
        case 1: cfg->clock = NULL; known_bad = 1; break; /* ctx without a clock */
        case 2: cfg->device_key = device_key; cfg->device_key_len = 32; break;
        case 3: cfg->device_key = device_key; cfg->device_key_len = 16; known_bad = 1; break;
        case 4: cfg->device_key = NULL; cfg->device_key_len = 32; known_bad = 1; break;
        default:
            short_key = exact_copy(device_key, 8);
            cfg->device_key = short_key;
            cfg->device_key_len = SIZE_MAX;
            known_bad = 1;
            break;
        }
    }
    if (sel & 32) {
        fake_authenticator(&auth);
        switch (rd_u8(r) % 5) {
        case 0: auth.size = rd_u8(r) % sizeof auth; known_bad = 1; break;
        case 1: auth.load_secret = NULL; known_bad = 1; break;
        case 2: auth.reserved0 = 7; known_bad = 1; break;
        default: break;
        }
        cfg->authenticator = &auth;
        cfg->unlock_reason = unlock_reason_text;
    }
    if (sel & 64) {
        switch (rd_u8(r) % 3) {
        case 0: cfg->unlock_reason = "\xc0\x80 overlong"; known_bad = 1; break;
        case 1:
            long_reason = malloc(IDLELOCK_UNLOCK_REASON_MAX_BYTES + 2);
            if (long_reason == NULL) abort();
            memset(long_reason, 'r', IDLELOCK_UNLOCK_REASON_MAX_BYTES + 1);
            long_reason[IDLELOCK_UNLOCK_REASON_MAX_BYTES + 1] = '\0';
            cfg->unlock_reason = long_reason;
            known_bad = 1;
            break;
        default: cfg->unlock_reason = "\xe2\x9c\x93 ok"; break;
        }
    }
    if ((sel & 128) && alloc >= sizeof(idlelock_config)) { /* the 1.1 fields */
        static const int64_t caps[] = {0, 120000, 600000, 600001, -1, INT64_MAX};
        static const int64_t warns[] = {0, 1, 59999, 60000, -1, INT64_MIN};
        cfg->prompt_cap_ms = caps[rd_u8(r) % 6];
        cfg->warn_before_ms = warns[rd_u8(r) % 6];
        if (cfg->prompt_cap_ms < 0 || cfg->prompt_cap_ms > 600000 || cfg->warn_before_ms < 0) known_bad = 1;
        if (cfg->warn_before_ms >= 60000) fully_valid = 0; /* valid only below idle_after_ms */
        {
            static idlelock_delay_step steps[40];
            uint8_t k = rd_u8(r) % 9;
            int max = (sel & 2) ? 0 : 5; /* the default max_attempts, unless fuzzed */
            memset(steps, 0, sizeof steps);
            steps[0] = (idlelock_delay_step){1, 0, 50};
            steps[1] = (idlelock_delay_step){2, 0, 1000};
            cfg->delay_schedule = steps;
            cfg->delay_schedule_len = 2;
            switch (k) {
            case 0: cfg->delay_schedule = NULL; cfg->delay_schedule_len = 0; break;
            case 1: cfg->delay_schedule = NULL; cfg->delay_schedule_len = 3; known_bad = 1; break;
            case 2: steps[1].failed_attempts = 1; known_bad = 1; break;      /* not increasing */
            case 3: steps[1].delay_ms = 10; known_bad = 1; break;            /* decreasing delay */
            case 4: steps[0].delay_ms = 0; known_bad = 1; break;
            case 5: steps[1].delay_ms = 86400001; known_bad = 1; break;
            case 6: steps[0].reserved0 = 1; known_bad = 1; break;
            case 7: cfg->delay_schedule_len = 33; known_bad = 1; break;
            default: /* a step at or past max_attempts */
                steps[1].failed_attempts = 5;
                if (max == 5) known_bad = 1; else fully_valid = 0;
                break;
            }
            if (k >= 2 && k != 8 && max == 0) fully_valid = 0;
        }
        { /* the 1.2 fields: the passcode policies, at and past their bounds */
            static const int64_t ages[] = {0, 3600000, 2592000000, 3599999, 2592000001, -1, INT64_MAX};
            static const int32_t uses[] = {0, 1, 1000, 1001, -1, INT32_MIN};
            static const int32_t reboots[] = {0, 1, 2, -1};
            uint8_t p = rd_u8(r);
            cfg->passcode_max_age_ms = ages[p % 7];
            cfg->biometric_max_uses = uses[(p >> 3) % 6];
            cfg->passcode_after_reboot = reboots[(p >> 6) % 4];
            if (p % 7 >= 3 || (p >> 3) % 6 >= 3 || (p >> 6) % 4 >= 2) known_bad = 1;
        }
    }
    if (cfg->store_path != NULL && cfg->lock_on_start == 0 && cfg->device_key == NULL) known_bad = 1;

    st = idlelock_create(cfg, &h2);
    check_status(st, "create (second handle)");
    if (known_bad) {
        REQUIRE(st == IDLELOCK_ERR_INVALID_ARGUMENT, "create with a bad config (sel %u) returned %d", sel, st);
    } else if (fully_valid) {
        REQUIRE(st == IDLELOCK_OK, "create with a valid config (sel %u) returned %d", sel, st);
    }
    if (st != IDLELOCK_OK) {
        REQUIRE(h2 == NULL, "create failed but *out is %p", (void *)h2);
    } else {
        idlelock_snapshot s;
        uint8_t buf[8];
        size_t len = sizeof buf;
        memset(&s, 0, sizeof s);
        s.size = sizeof s;
        REQUIRE(h2 != NULL, "create OK with a NULL handle");
        check_status(idlelock_start(h2, &s), "start (second handle)");
        check_snapshot(&s, IDLELOCK_MAX_ATTEMPTS_MAX);
        check_status(idlelock_require_unlocked(h2), "require_unlocked (second handle)");
        check_status(idlelock_secret_get(h2, "token", buf, &len), "secret_get (second handle)");
        if (cfg->store_path == store_path && last_passcode_len > 0 && kdf_left > 0 && rd_u8(r) % 2) {
            /* Another process enters the passcode on the main handle's
             * store: the sign-in's passcode entry is renewed there, which a
             * clock step the main handle sees later must mark unknown,
             * whatever the main handle remembers (issue 26, finding 1). */
            kdf_left--;
            st = idlelock_unlock(h2, (const char *)last_passcode, last_passcode_len, NULL);
            check_status(st, "unlock (second handle)");
            REQUIRE(st != IDLELOCK_ERR_INVALID_ARGUMENT, "unlock (second handle) with the set passcode returned %d", st);
        }
        if (cfg->clock == NULL) { /* the default clock: a watcher thread can run */
            st = idlelock_watch_start(h2);
            check_status(st, "watch_start (second handle)");
            REQUIRE(st == IDLELOCK_OK, "watch_start with the default clock returned %d", st);
            REQUIRE(idlelock_watch_start(h2) == IDLELOCK_OK, "watch_start twice");
            if (rd_u8(r) % 2) REQUIRE(idlelock_watch_stop(h2) == IDLELOCK_OK, "watch_stop");
        }
        idlelock_destroy(h2);
    }
    if (cfg->store_path == store2_path) {
        char p[300];
        unlink(store2_path);
        snprintf(p, sizeof p, "%s.lock", store2_path);
        unlink(p);
    }
    free(long_path);
    free(long_reason);
    free(short_key);
    free(cfg);
}
