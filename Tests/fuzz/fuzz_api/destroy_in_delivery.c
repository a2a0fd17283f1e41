/* SPDX-License-Identifier: MIT */
/*
 * destroy_in_delivery.c: idlelock_destroy from inside a listener. A fresh
 * handle on the input's clock gets up to 8 listeners, one of which (at a
 * position the input picks) destroys the handle when it first hears a
 * change; then one call the input picks, which may deliver. Oracles: once
 * destroy has returned, no callback of that handle runs (no listener, the
 * rest of that delivery included; no clock read; no authenticator call),
 * the listeners before the destroyer heard the change, and the call's
 * status is one its header block allows (the events' own status, or
 * INVALID_ARGUMENT for a call whose work after its delivery was skipped).
 * The handle under test (H) is not touched.
 */
#include "fuzz_api.h"

#define DD_LISTENERS 8

static struct {
    idlelock *h;
    int destroyer;             /* the destroying listener's slot */
    int destroyed;             /* idlelock_destroy has returned */
    int heard[DD_LISTENERS];
    int after;                 /* callbacks after destroy returned */
} dd;

static void dd_listener(void *ctx, const idlelock_snapshot *s)
{
    int slot = (int)(intptr_t)ctx;
    REQUIRE(slot >= 0 && slot < DD_LISTENERS && s != NULL, "destroy_in_delivery listener ctx %d", slot);
    if (dd.destroyed) dd.after++;
    dd.heard[slot]++;
    if (slot == dd.destroyer && !dd.destroyed) {
        idlelock_destroy(dd.h);
        dd.destroyed = 1;
    }
}

static int64_t dd_clock(void *ctx)
{
    (void)ctx;
    if (dd.destroyed) dd.after++;
    return clk.now;
}

void destroy_in_delivery(reader *r)
{
    idlelock_config cfg;
    uint8_t sel = rd_u8(r);
    int listeners = 1 + rd_u8(r) % DD_LISTENERS, engaged = (sel & 1) && kdf_left > 0;
    int call = rd_u8(r) % 7, st = IDLELOCK_OK, i;
    uint64_t token;
    idlelock_snapshot s;

    memset(&dd, 0, sizeof dd);
    dd.destroyer = rd_u8(r) % listeners;
    REQUIRE(idlelock_config_init(&cfg, sizeof cfg) == IDLELOCK_OK, "config_init");
    cfg.idle_after_ms = 1000;
    cfg.kdf_opslimit = IDLELOCK_KDF_OPSLIMIT_MIN;
    cfg.kdf_memlimit = IDLELOCK_KDF_MEMLIMIT_MIN;
    cfg.clock = dd_clock;
    cfg.clock_ctx = NULL;
    REQUIRE(idlelock_create(&cfg, &dd.h) == IDLELOCK_OK, "destroy_in_delivery: create");
    if (engaged) {
        kdf_left--;
        REQUIRE(idlelock_set_passcode(dd.h, "1234", 4) == IDLELOCK_OK, "destroy_in_delivery: set_passcode");
    }
    /* An unlock of a locked session: its first half delivers the counted
     * attempt, and its check must then not run. Locked before the
     * listeners subscribe, so that the lock is not what they hear. */
    if (call == 5 && engaged && kdf_left > 0) (void)idlelock_lock(dd.h, NULL);
    else if (call == 5) call = 0;
    for (i = 0; i < listeners; i++)
        REQUIRE(idlelock_subscribe(dd.h, dd_listener, (void *)(intptr_t)i, &token) == IDLELOCK_OK,
                "destroy_in_delivery: subscribe");
    if (sel & 2) clk.now = (int64_t)((uint64_t)clk.now + 1000u + rd_u8(r)); /* past the idle timeout */
    memset(&s, 0, sizeof s);
    s.size = sizeof s;
    switch (call) {
    case 0: st = idlelock_touch(dd.h, &s); break;
    case 1: st = idlelock_check(dd.h, NULL); break;
    case 2: st = idlelock_lock(dd.h, &s); break;
    case 3: st = idlelock_background(dd.h, &s); break;
    case 4: st = idlelock_disable(dd.h); break;
    case 5:
        kdf_left--;
        st = idlelock_unlock(dd.h, "1234", 4, &s);
        REQUIRE(dd.destroyed ? st == IDLELOCK_ERR_INVALID_ARGUMENT : st == IDLELOCK_OK,
                "destroy_in_delivery: unlock returned %d (destroyed %d)", st, dd.destroyed);
        break;
    default: st = idlelock_lifecycle(dd.h, IDLELOCK_PLATFORM_ANDROID_LIFECYCLE_EVENT, "ON_STOP", &s); break;
    }
    check_status(st, "destroy_in_delivery call");
    if (call != 5)
        REQUIRE(st == IDLELOCK_OK, "destroy_in_delivery: call %d returned %d (destroyed %d)", call, st,
                dd.destroyed);
    REQUIRE(dd.after == 0, "%d callbacks ran after idlelock_destroy returned (call %d)", dd.after, call);
    if (dd.destroyed) {
        for (i = 0; i < listeners; i++)
            REQUIRE(dd.heard[i] == (i <= dd.destroyer), "listener %d of %d heard %d deliveries (destroyer %d)", i,
                    listeners, dd.heard[i], dd.destroyer);
    } else {
        idlelock_destroy(dd.h);
    }
    dd.h = NULL;
}
