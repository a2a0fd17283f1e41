/* SPDX-License-Identifier: MIT */
/*
 * fuzz_api: libFuzzer harness for libidlelock's C API.
 *
 * The input is read as a configuration followed by a sequence of API calls
 * with their arguments, all on one handle, with the handle's clock driven by
 * the input (small steps, large jumps, backwards steps, INT64_MIN/MAX).
 * Arguments include bad ones: NULL handles and pointers, wrong struct sizes
 * (a larger snapshot whose tail must come back zeroed, sizes past 4096),
 * huge lengths with small buffers, invalid UTF-8 passcodes and names,
 * unknown tokens, a second handle made from a fuzzed config (1.0 struct
 * sizes, non-zero tails, out-of-range values, escalating-delay schedules,
 * a watcher thread on the default clock). The 1.1 calls are in the mix
 * (lifecycle names per platform, prompt_begin/end, watch_start/stop, unlock
 * refused with RETRY_LATER during a delay), destroy from inside a listener
 * (on a handle of its own: destroy_in_delivery.c), and the 1.2 ones (the
 * two-phase biometric pair, require_recent_auth, the passcode policies in
 * the config; biometric_pair.c). With a store,
 * the file can be deleted, truncated, flipped or rolled back between calls.
 * The biometric authenticator and the listeners are fakes steered by the
 * input; some of them call back into the library.
 *
 * Oracles (besides AddressSanitizer, UBSan and LeakSanitizer):
 *  - every status is a known code; a failure leaves a non-empty message;
 *  - arguments the header calls bad return IDLELOCK_ERR_INVALID_ARGUMENT and
 *    change nothing (the snapshot before and after, at the same clock
 *    reading, is identical); valid UTF-8 of an allowed size is never
 *    refused as INVALID_ARGUMENT (a differential check of UTF-8 validation);
 *  - snapshot fields are in range, seq never goes backwards, the tail of a
 *    larger snapshot is zeroed, listeners hear strictly increasing seq;
 *  - the secrets read back are the ones put (a model of name -> value), as
 *    long as the store was not tampered with;
 *  - a secret read or an open gate means the session is unlocked;
 *  - while present, unlocked and with no prompt deferring the idle rule
 *    (the harness's own, the library's load_secret, or a biometric request
 *    still live: biometric_pair.c knows which), the next deadline is not
 *    later than the idle lock.
 *
 * Argon2id runs at the floor (19 MiB, 2 passes) and at most KDF_BUDGET
 * calls per input may reach it, so one input stays in the tens of ms.
 *
 * The files: fuzz_api.h (the limits, the state, each file's functions),
 * state.c, callbacks.c (clock, fake authenticator, listeners), arguments.c
 * (out snapshots and passcodes from the input), oracles.c, ops.c (the
 * sequence of calls), biometric_pair.c, second_handle.c, null_handle.c,
 * tamper_store.c, destroy_in_delivery.c; this
 * file resets the state and creates the handle for each input.
 */
#include "fuzz_api.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    reader r = {data, size};
    idlelock_config cfg;
    idlelock_authenticator auth;
    uint8_t flags = rd_u8(&r);
    int use_store = flags & 1, use_key = (flags >> 1) & 1, use_auth = (flags >> 2) & 1;
    static const int64_t idles[] = {100, 1000, 5000, IDLELOCK_NEVER};
    static const int64_t backgrounds[] = {IDLELOCK_SAME_AS_IDLE, 0, 2000, IDLELOCK_NEVER};
    int st;

    if (trace < 0) trace = getenv("FUZZ_TRACE") != NULL;
    use_store_now = use_store;
    use_key_now = use_key;
    store_shared = 0;
    fuzz_dir_get();
    snprintf(store_path, sizeof store_path, "%s/store", fuzz_dir);
    snprintf(store2_path, sizeof store2_path, "%s/store2", fuzz_dir);
    snprintf(folder_path, sizeof folder_path, "%s/folder", fuzz_dir);
    fuzz_dir_clear();

    memset(&clk, 0, sizeof clk);
    memset(&fauth, 0, sizeof fauth);
    fauth.available = 1;
    memset(tokens, 0, sizeof tokens);
    memset(prompts, 0, sizeof prompts);
    prompts_left_open = 0;
    in_load_secret = 0;
    last_prompt_ended = 0;
    memset(listener_kind, 0, sizeof listener_kind);
    memset(model, 0, sizeof model);
    kdf_left = KDF_BUDGET;
    reentrant_listener = 0;
    model_valid = 1;
    last_seq = 0;
    memset(listener_heard, 0, sizeof listener_heard);
    memset(listener_last_seq, 0, sizeof listener_last_seq);
    last_passcode_len = 0;
    saved_store_len = -1;
    pair_reset();

    REQUIRE(idlelock_config_init(&cfg, sizeof cfg) == IDLELOCK_OK, "config_init");
    clk.now = (int64_t)rd_u32(&r) - 1000;
    cfg.idle_after_ms = idles[(flags >> 3) & 3];
    cfg.background_after_ms = backgrounds[(flags >> 5) & 3];
    if (cfg.idle_after_ms == IDLELOCK_NEVER && cfg.background_after_ms != 0 && cfg.background_after_ms != 2000)
        cfg.background_after_ms = 2000;
    if (flags & 0x80) {
        cfg.idle_after_ms = 1 + rd_u16(&r);
        cfg.inactive_after_ms = rd_u16(&r);
        cfg.grace_ms = rd_u16(&r) % (IDLELOCK_GRACE_MAX_MS + 1);
    }
    if ((flags & 0x80) && cfg.idle_after_ms > 2 && rd_u8(&r) % 2) {
        cfg.warn_before_ms = 1 + rd_u16(&r) % (cfg.idle_after_ms - 1);
        cfg.prompt_cap_ms = (int64_t)(rd_u16(&r) % 60001) * 10;
    }
    cfg.max_attempts = 1 + rd_u8(&r) % 5;
    cfg.lock_on_start = rd_u8(&r) & 1;
    {
        /* An escalating delay (1.1): none, or the first 1..3 steps below
         * (each below max_attempts). */
        uint8_t d = rd_u8(&r) % 4;
        static const idlelock_delay_step steps[] = {{1, 0, 50}, {2, 0, 2000}, {3, 0, 60000}, {4, 0, 86400000}};
        if (d > 0 && cfg.max_attempts > 1) {
            cfg.delay_schedule = steps;
            cfg.delay_schedule_len = (size_t)(d < cfg.max_attempts - 1 ? d : cfg.max_attempts - 1);
        }
    }
    if (flags & 0x80) {
        /* The passcode policies (1.2): a small biometric_max_uses, the
         * shortest passcode_max_age_ms, passcode_after_reboot. */
        uint8_t p = rd_u8(&r);
        cfg.biometric_max_uses = p % 4;
        cfg.passcode_after_reboot = (p >> 2) & 1;
        cfg.passcode_max_age_ms = (p >> 3) & 1 ? IDLELOCK_PASSCODE_MAX_AGE_MIN_MS : 0;
    }
    pair_cap = cfg.prompt_cap_ms;
    cfg.kdf_opslimit = IDLELOCK_KDF_OPSLIMIT_MIN;
    cfg.kdf_memlimit = IDLELOCK_KDF_MEMLIMIT_MIN;
    cfg.clock = fuzz_clock;
    cfg.clock_ctx = &clk;
    if (use_store) {
        cfg.store_path = store_path;
        if (!use_key) cfg.lock_on_start = 1;
    }
    if (use_key) {
        cfg.device_key = device_key;
        cfg.device_key_len = sizeof device_key;
    }
    if (use_auth) {
        fake_authenticator(&auth);
        cfg.authenticator = &auth;
        cfg.unlock_reason = unlock_reason_text;
    }
    max_attempts_cfg = cfg.max_attempts;
    H = NULL;
    st = idlelock_create(&cfg, &H);
    REQUIRE(st == IDLELOCK_OK && H != NULL, "create with a valid config returned %d", st);
    memset(&cfg, 0xEE, sizeof cfg); /* the library copied what it keeps */
    memset(&auth, 0xEE, sizeof auth);
    {
        idlelock_snapshot s = snap_now();
        REQUIRE(s.seq == 0 && s.state == IDLELOCK_STATE_UNLOCKED && !s.is_enabled &&
                    s.attempts_remaining == max_attempts_cfg,
                "fresh handle: seq %llu state %d enabled %d attempts %d", (unsigned long long)s.seq, (int)s.state,
                (int)s.is_enabled, (int)s.attempts_remaining);
    }

    run_ops(&r, use_store);

    idlelock_destroy(H);
    H = NULL;
    for (int i = 0; i < NAME_COUNT; i++) free(model[i].value);
    memset(model, 0, sizeof model);
    fuzz_dir_clear();
    return 0;
}
