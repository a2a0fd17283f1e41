/* SPDX-License-Identifier: MIT */
/*
 * callbacks.c: the callbacks the library calls: the clock the input
 * drives, the fake biometric authenticator and the listeners (both steered
 * by the input; some call back into the library).
 */
#include "fuzz_api.h"

int64_t fuzz_clock(void *ctx)
{
    REQUIRE(ctx == &clk || ctx == &clk_other, "clock called with ctx %p", ctx);
    if (ctx == &clk) {
        /* Every reading of the handle under test is checked for a step
         * against the one before it (header, "Events and the decision
         * rules"): a reading earlier than it is a step back it sees. */
        if (clk.reads > 0 && clk.now < clk.last_read) clk.steps++;
        clk.last_read = clk.now;
        clk.reads++;
    }
    return clk.now;
}

int32_t auth_is_available(void *ctx)
{
    REQUIRE(ctx == &fauth, "is_available ctx");
    return fauth.available;
}

int32_t auth_store_secret(void *ctx, const uint8_t *secret, size_t len)
{
    REQUIRE(ctx == &fauth, "store_secret ctx");
    REQUIRE(secret != NULL && len == IDLELOCK_AUTH_SECRET_BYTES, "store_secret len %zu", len);
    if (fauth.fail_store || !fauth.available) return -1;
    memcpy(fauth.secret, secret, len);
    fauth.has_secret = 1;
    return 0;
}

int32_t auth_load_secret(void *ctx, const char *reason, uint8_t *out, size_t cap, size_t *out_len)
{
    idlelock_snapshot s;
    REQUIRE(ctx == &fauth, "load_secret ctx");
    REQUIRE(out != NULL && out_len != NULL && cap == IDLELOCK_AUTH_SECRET_BYTES, "load_secret cap %zu", cap);
    REQUIRE(reason != NULL && strcmp(reason, unlock_reason_text) == 0, "load_secret reason");
    memset(&s, 0, sizeof s);
    s.size = sizeof s;
    in_load_secret = 1;
    switch (fauth.reenter) {
    case 1: REQUIRE(idlelock_snapshot_get(H, &s) == IDLELOCK_OK, "snapshot_get from load_secret"); break;
    case 2: (void)idlelock_lock(H, &s); break;
    case 3: (void)idlelock_touch(H, NULL); break;
    default: break;
    }
    in_load_secret = 0;
    if (fauth.answer != IDLELOCK_AUTH_OK) return fauth.answer;
    if (!fauth.has_secret || !fauth.available) return IDLELOCK_AUTH_UNAVAILABLE;
    memcpy(out, fauth.secret, IDLELOCK_AUTH_SECRET_BYTES);
    if (fauth.corrupt) out[7] ^= 0x40;
    *out_len = fauth.bad_len ? 31 : IDLELOCK_AUTH_SECRET_BYTES;
    return IDLELOCK_AUTH_OK;
}

int32_t auth_delete_secret(void *ctx)
{
    REQUIRE(ctx == &fauth, "delete_secret ctx");
    memset(fauth.secret, 0, sizeof fauth.secret);
    fauth.has_secret = 0;
    return 0;
}

/* The fake authenticator: the four callbacks above, steered by `fauth`. */
void fake_authenticator(idlelock_authenticator *auth)
{
    memset(auth, 0, sizeof *auth);
    auth->size = sizeof *auth;
    auth->ctx = &fauth;
    auth->is_available = auth_is_available;
    auth->store_secret = auth_store_secret;
    auth->load_secret = auth_load_secret;
    auth->delete_secret = auth_delete_secret;
}

void listener(void *ctx, const idlelock_snapshot *s)
{
    int slot = (int)(intptr_t)ctx;
    idlelock_snapshot t;
    REQUIRE(slot >= 0 && slot < MAX_TOKENS, "listener ctx %d", slot);
    REQUIRE(s != NULL && s->size >= sizeof *s, "listener snapshot size %u", s == NULL ? 0u : (unsigned)s->size);
    check_snapshot(s, IDLELOCK_MAX_ATTEMPTS_MAX);
    check_deadlines(s, s->size);
    REQUIRE(!listener_heard[slot] || s->seq > listener_last_seq[slot], "listener %d: seq %llu after %llu", slot,
            (unsigned long long)s->seq, (unsigned long long)listener_last_seq[slot]);
    listener_last_seq[slot] = s->seq;
    listener_heard[slot] = 1;
    memset(&t, 0, sizeof t);
    t.size = sizeof t;
    switch (listener_kind[slot]) {
    case 1: REQUIRE(idlelock_snapshot_get(H, &t) == IDLELOCK_OK, "snapshot_get from a listener"); break;
    case 2: (void)idlelock_lock(H, NULL); break;
    case 3:
        REQUIRE(idlelock_unsubscribe(H, tokens[slot]) == IDLELOCK_OK, "unsubscribe itself");
        tokens[slot] = 0;
        break;
    case 4: (void)idlelock_touch(H, NULL); break;
    default: break;
    }
}

void listener_other(void *ctx, const idlelock_snapshot *s)
{
    (void)ctx;
    (void)s;
}
