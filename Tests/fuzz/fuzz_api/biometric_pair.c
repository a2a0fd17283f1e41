/* SPDX-License-Identifier: MIT */
/*
 * biometric_pair.c: the two-phase biometric pair and the step-up check
 * (1.2): begin and finish with good and bad arguments and every result,
 * the secret an enable handed out or a corrupted one, tokens never issued,
 * finished, voided (a sign-out, a new passcode, disable_biometrics) or
 * expired (prompt_cap_ms, a clock step back); require_recent_auth with
 * every kind of max_age_ms.
 *
 * Oracles: bad arguments are INVALID_ARGUMENT and change nothing (a bad
 * finish leaves the request open); a token is never 0 and never given
 * twice while open; a voided or finished token is INVALID_ARGUMENT; an
 * expired request, a result other than IDLELOCK_AUTH_OK and a corrupted
 * secret never unlock a locked session and never return OK; a finish
 * that returns OK for an unlock leaves the session unlocked; a step-up
 * check that passes means an unlocked session whose last authentication
 * is at most max_age_ms old.
 *
 * Which requests defer the idle rule (for oracles.c's deadline check,
 * issue 19): a request's prompt is live when it was begun on an unlocked
 * session and no lock came since; it defers while it is neither voided
 * (a sign-out, a new passcode, disable_biometrics, the shortcut turned off
 * by any path, or replaced for an UNLOCK request) nor expired
 * (prompt_cap_ms since its begin, or a clock step back the handle saw
 * since: callbacks.c counts them). Locks and the shortcut turning off are
 * heard by an observer, a listener the harness subscribes while a request
 * may defer: every lock changes the snapshot's state (no call locks and
 * unlocks in one step), and its snapshot reaches every listener before
 * the call returns. What the observer hears is kept with its `seq`: a
 * listener may lock (or turn the shortcut off) while the call that woke it
 * delivers, after that call's own snapshot was made, and that snapshot
 * (whose `seq` is lower) still describes a request that deferred (issue 26,
 * finding 11: the oracle judged a foreground's own snapshot by a lock its
 * listener made afterwards).
 */
#include "fuzz_api.h"

typedef struct pair_req {
    uint64_t token;      /* 0: the slot is free */
    int32_t purpose;
    int64_t begun;       /* the clock reading of the begin */
    unsigned long steps; /* clk.steps at the begin */
    int voided;          /* the shortcut turned off (or replaced: UNLOCK), a sign-out or a new passcode since */
    int live;            /* its prompt can defer: begun unlocked */
    uint64_t dead_from;  /* the seq from which it defers nothing (a lock or a void); UINT64_MAX: none yet */
    uint8_t secret[IDLELOCK_AUTH_SECRET_BYTES]; /* an enable's, as handed out */
} pair_req;

static pair_req reqs[MAX_TOKENS];
static uint8_t kept[IDLELOCK_AUTH_SECRET_BYTES]; /* the host's item from the pair */
static int has_kept;
static uint64_t last_finished;
int64_t pair_cap = 120000; /* the handle's prompt_cap_ms (main.c sets it) */
/* The observer's subscription (0: none), and the last state it heard. */
static uint64_t observer_token;
static int observer_bio;

void pair_reset(void)
{
    memset(reqs, 0, sizeof reqs);
    memset(kept, 0, sizeof kept);
    has_kept = 0;
    last_finished = 0;
    observer_token = 0; /* the handle it listened to is gone */
}

/* Every open request defers nothing from snapshot `seq` on. */
static void dead_from(uint64_t seq, int void_them)
{
    for (int i = 0; i < MAX_TOKENS; i++) {
        if (reqs[i].token == 0) continue;
        if (void_them) reqs[i].voided = 1;
        if (reqs[i].dead_from > seq) reqs[i].dead_from = seq;
    }
}

/* Voided by a call the harness made (a sign-out, a new passcode,
 * disable_biometrics): from that call on. */
void pair_void_all(void)
{
    dead_from(0, 1);
}

void pair_shortcut_replaced(void)
{
    for (int i = 0; i < MAX_TOKENS; i++)
        if (reqs[i].token != 0 && reqs[i].purpose == IDLELOCK_BIOMETRIC_UNLOCK) {
            reqs[i].voided = 1;
            reqs[i].dead_from = 0;
        }
}

/* The request expired at `now`: prompt_cap_ms passed since its begin, or
 * the clock reads earlier than it, or stepped back since (a step the
 * handle saw: header, "Requests"). */
static int expired(const pair_req *q)
{
    if (clk.now < q->begun || clk.steps != q->steps) return 1;
    if ((uint64_t)clk.now - (uint64_t)q->begun >= (uint64_t)INT64_MAX) return 1;
    return clk.now - q->begun >= pair_cap;
}

int pair_defers(uint64_t seq)
{
    for (int i = 0; i < MAX_TOKENS; i++) {
        const pair_req *q = &reqs[i];
        if (q->token != 0 && q->live && seq < q->dead_from && !expired(q)) return 1;
    }
    return 0;
}

/* The observer: a lock makes every open prompt inert; the shortcut going
 * off (or a sign-out) voids every request; each from the snapshot that
 * says so. */
static void observer(void *ctx, const idlelock_snapshot *s)
{
    (void)ctx;
    REQUIRE(s != NULL && s->size >= sizeof *s, "observer snapshot");
    if (s->state != IDLELOCK_STATE_UNLOCKED || !s->is_enabled) dead_from(s->seq, 0);
    if (!s->is_enabled || (observer_bio && !s->is_biometrics_enabled)) dead_from(s->seq, 1);
    observer_bio = s->is_biometrics_enabled != 0;
}

/* Subscribes the observer before a begin, so that it hears every change
 * after it (also one a listener makes during the begin itself). */
static void observer_start(void)
{
    idlelock_snapshot s;
    if (observer_token != 0) return;
    s = snap_now();
    observer_bio = s.is_biometrics_enabled != 0;
    REQUIRE(idlelock_subscribe(H, observer, NULL, &observer_token) == IDLELOCK_OK && observer_token != 0,
            "subscribe (observer)");
}

void pair_observer_tidy(void)
{
    if (observer_token == 0) return;
    for (int i = 0; i < MAX_TOKENS; i++)
        if (reqs[i].token != 0 && reqs[i].live && reqs[i].dead_from == UINT64_MAX && !expired(&reqs[i])) return;
    REQUIRE(idlelock_unsubscribe(H, observer_token) == IDLELOCK_OK, "unsubscribe (observer)");
    observer_token = 0;
}

/* The secret the host would release: the pair's item, or the fake
 * authenticator's (whichever exists); `corrupt` flips one bit. */
static void released(uint8_t out[IDLELOCK_AUTH_SECRET_BYTES], int corrupt, reader *r)
{
    if (has_kept) memcpy(out, kept, IDLELOCK_AUTH_SECRET_BYTES);
    else memcpy(out, fauth.secret, IDLELOCK_AUTH_SECRET_BYTES);
    if (corrupt) out[rd_u8(r) % IDLELOCK_AUTH_SECRET_BYTES] ^= (uint8_t)(1u << (rd_u8(r) % 8));
}

static void begin(reader *r, int32_t purpose)
{
    int slot = rd_u8(r) % MAX_TOKENS;
    uint64_t token = 0;
    uint8_t secret[IDLELOCK_AUTH_SECRET_BYTES];
    idlelock_snapshot s;
    int st;
    memset(&s, 0, sizeof s);
    s.size = sizeof s;
    memset(secret, 0, sizeof secret);
    if (reqs[slot].token != 0) return; /* keep it: it may be finished later */
    observer_start();
    st = idlelock_biometric_begin(H, purpose, &token, purpose == IDLELOCK_BIOMETRIC_ENABLE ? secret : NULL,
                                  purpose == IDLELOCK_BIOMETRIC_ENABLE ? sizeof secret : 0, &s);
    check_status(st, "biometric_begin");
    if (st != IDLELOCK_OK) {
        REQUIRE(st != IDLELOCK_ERR_INVALID_ARGUMENT || token == 0, "a refused begin wrote a token");
        return;
    }
    check_snapshot(&s, IDLELOCK_MAX_ATTEMPTS_MAX);
    REQUIRE(token != 0, "biometric_begin gave token 0");
    for (int i = 0; i < MAX_TOKENS; i++)
        REQUIRE(reqs[i].token != token, "biometric token %llu given twice", (unsigned long long)token);
    REQUIRE(token != last_finished, "a finished biometric token came back");
    reqs[slot].token = token;
    reqs[slot].purpose = purpose;
    reqs[slot].begun = clk.now;
    reqs[slot].steps = clk.steps;
    reqs[slot].voided = 0;
    reqs[slot].dead_from = UINT64_MAX;
    /* The state its prompt opened in (`out` is the call's own state); a
     * listener that locked after it is heard by the observer, whose
     * snapshot is delivered before the call returns, so after this. */
    reqs[slot].live = s.state == IDLELOCK_STATE_UNLOCKED;
    if (reqs[slot].live && snap_now().state != IDLELOCK_STATE_UNLOCKED) reqs[slot].live = 0;
    memcpy(reqs[slot].secret, secret, sizeof secret);
}

/* Bad arguments to begin: INVALID_ARGUMENT, nothing changed. */
static void bad_begin(reader *r)
{
    uint64_t token = 0;
    uint8_t secret[40];
    memset(secret, 0, sizeof secret);
    switch (rd_u8(r) % 7) {
    case 0: EXPECT_INVALID(idlelock_biometric_begin(H, IDLELOCK_BIOMETRIC_UNLOCK, NULL, NULL, 0, NULL), "begin(NULL token)"); break;
    case 1: EXPECT_INVALID(idlelock_biometric_begin(H, (int32_t)rd_u32(r) | 4, &token, NULL, 0, NULL), "begin(purpose)"); break;
    case 2: EXPECT_INVALID(idlelock_biometric_begin(H, 0, &token, NULL, 0, NULL), "begin(purpose 0)"); break;
    case 3: EXPECT_INVALID(idlelock_biometric_begin(H, IDLELOCK_BIOMETRIC_UNLOCK, &token, secret, 32, NULL), "begin(unlock, secret)"); break;
    case 4: EXPECT_INVALID(idlelock_biometric_begin(H, IDLELOCK_BIOMETRIC_ENABLE, &token, NULL, 32, NULL), "begin(enable, NULL)"); break;
    case 5: EXPECT_INVALID(idlelock_biometric_begin(H, IDLELOCK_BIOMETRIC_ENABLE, &token, secret, 1 + rd_u8(r) % 31, NULL), "begin(enable, short)"); break;
    default: EXPECT_INVALID(idlelock_biometric_begin(H, IDLELOCK_BIOMETRIC_ENABLE, &token, secret, SIZE_MAX - rd_u8(r), NULL), "begin(enable, huge)"); break;
    }
    REQUIRE(token == 0, "a refused begin wrote a token");
}

/* Finish the request in `slot`; `how`: 0 the right release (or the
 * enable's confirmation), 1 a corrupted secret, 2 a failure result. */
static void finish(reader *r, int slot, int how)
{
    pair_req *q = &reqs[slot];
    uint8_t secret[IDLELOCK_AUTH_SECRET_BYTES];
    static const int32_t failures[] = {IDLELOCK_AUTH_FAILED, IDLELOCK_AUTH_CANCELLED, IDLELOCK_AUTH_UNAVAILABLE};
    int32_t result = how == 2 ? failures[rd_u8(r) % 3] : IDLELOCK_AUTH_OK;
    const uint8_t *release = NULL;
    size_t len = 0;
    idlelock_snapshot before, after;
    int st, was_locked, was_expired;
    if (q->token == 0) return;
    if (q->purpose == IDLELOCK_BIOMETRIC_UNLOCK && result == IDLELOCK_AUTH_OK) {
        released(secret, how == 1, r);
        release = secret;
        len = sizeof secret;
    }
    if (q->purpose == IDLELOCK_BIOMETRIC_ENABLE && how == 1) result = IDLELOCK_AUTH_FAILED;
    if (q->voided) {
        EXPECT_INVALID(idlelock_biometric_finish(H, q->token, result, release, len, NULL), "finish(voided)");
        last_finished = q->token;
        q->token = 0;
        return;
    }
    before = snap_now();
    was_locked = before.state != IDLELOCK_STATE_UNLOCKED;
    was_expired = expired(q);
    st = idlelock_biometric_finish(H, q->token, result, release, len, NULL);
    check_status(st, "biometric_finish");
    after = snap_now();
    if (was_expired || result != IDLELOCK_AUTH_OK || how == 1) {
        REQUIRE(st != IDLELOCK_OK, "finish (expired %d, result %d, corrupt %d) returned OK", was_expired,
                (int)result, how == 1);
        /* (Unless it was signed out meanwhile: the store deleted behind
         * its back, seen by the finish, leaves the handle unlocked and not
         * engaged, as in tamper_store.c.) */
        REQUIRE(!was_locked || after.state != IDLELOCK_STATE_UNLOCKED || !after.is_enabled,
                "a locked session unlocked without the right secret (expired %d, result %d, corrupt %d)",
                was_expired, (int)result, how == 1);
    }
    /* A listener that locks may run inside the finish, after
     * the unlock it reports: then the state after it is the listener's. */
    if (st == IDLELOCK_OK && q->purpose == IDLELOCK_BIOMETRIC_UNLOCK && !reentrant_listener)
        REQUIRE(after.state == IDLELOCK_STATE_UNLOCKED, "an unlock finished OK but the state is %d", (int)after.state);
    if (st == IDLELOCK_OK && q->purpose == IDLELOCK_BIOMETRIC_ENABLE) {
        REQUIRE(after.is_biometrics_enabled, "an enable finished OK but the shortcut is off");
        memcpy(kept, q->secret, sizeof kept);
        has_kept = 1;
        pair_shortcut_replaced(); /* the UNLOCK requests begun under the old one */
    }
    if (st != IDLELOCK_ERR_INVALID_ARGUMENT) {
        /* Finished: a second finish is refused and changes nothing. */
        EXPECT_INVALID(idlelock_biometric_finish(H, q->token, result, release, len, NULL), "finish twice");
    }
    last_finished = q->token;
    q->token = 0;
}

/* Bad arguments to finish an open request: INVALID_ARGUMENT, and the
 * request stays open. */
static void bad_finish(reader *r, int slot)
{
    pair_req *q = &reqs[slot];
    uint8_t secret[IDLELOCK_AUTH_SECRET_BYTES];
    memset(secret, 0, sizeof secret);
    if (q->token == 0 || q->voided) {
        uint64_t bogus = rd_u8(r) % 2 ? 0 : rd_u64(r) | 1;
        for (int i = 0; i < MAX_TOKENS; i++)
            if (reqs[i].token == bogus) return;
        EXPECT_INVALID(idlelock_biometric_finish(H, bogus, IDLELOCK_AUTH_OK, secret, sizeof secret, NULL),
                       "finish(unknown token)");
        return;
    }
    switch (rd_u8(r) % 5) {
    case 0: EXPECT_INVALID(idlelock_biometric_finish(H, q->token, 4 + rd_u8(r), NULL, 0, NULL), "finish(result)"); break;
    case 1: EXPECT_INVALID(idlelock_biometric_finish(H, q->token, -1 - (int32_t)rd_u8(r), NULL, 0, NULL), "finish(negative result)"); break;
    case 2: EXPECT_INVALID(idlelock_biometric_finish(H, q->token, IDLELOCK_AUTH_OK, NULL, 32, NULL), "finish(NULL secret)"); break;
    case 3:
        EXPECT_INVALID(idlelock_biometric_finish(H, q->token, q->purpose == IDLELOCK_BIOMETRIC_UNLOCK ? IDLELOCK_AUTH_OK
                                                                                                   : IDLELOCK_AUTH_CANCELLED,
                                                 secret, 1 + rd_u8(r) % 31, NULL),
                       "finish(secret length)");
        break;
    default:
        EXPECT_INVALID(idlelock_biometric_finish(H, q->token, q->purpose == IDLELOCK_BIOMETRIC_UNLOCK ? IDLELOCK_AUTH_OK
                                                                                                   : IDLELOCK_AUTH_FAILED,
                                                 secret, q->purpose == IDLELOCK_BIOMETRIC_UNLOCK ? 0 : 32, NULL),
                       "finish(secret for the purpose)");
        break;
    }
}

void biometric_pair_ops(reader *r)
{
    uint8_t sel = rd_u8(r) % 9;
    switch (sel) {
    case 0: case 1: begin(r, IDLELOCK_BIOMETRIC_UNLOCK); break;
    case 2: begin(r, IDLELOCK_BIOMETRIC_ENABLE); break;
    case 3: bad_begin(r); break;
    case 4: case 5: finish(r, rd_u8(r) % MAX_TOKENS, 0); break;
    case 6: finish(r, rd_u8(r) % MAX_TOKENS, 1); break;
    case 7: finish(r, rd_u8(r) % MAX_TOKENS, 2); break;
    default: bad_finish(r, rd_u8(r) % MAX_TOKENS); break;
    }
}

void recent_auth_op(reader *r)
{
    static const int64_t ages[] = {0, -1, 1, 1000, 60000, 2592000000, 2592000001, INT64_MAX, INT64_MIN};
    int64_t max_age = ages[rd_u8(r) % 9];
    int st;
    if (max_age < 1 || max_age > IDLELOCK_RECENT_AUTH_MAX_MS) {
        EXPECT_INVALID(idlelock_require_recent_auth(H, max_age), "require_recent_auth(max_age_ms)");
        return;
    }
    st = idlelock_require_recent_auth(H, max_age);
    check_status(st, "require_recent_auth");
    REQUIRE(st == IDLELOCK_OK || st == IDLELOCK_ERR_REAUTH_REQUIRED || st == IDLELOCK_ERR_SESSION_LOCKED ||
                st == IDLELOCK_ERR_NO_PASSCODE || (use_store_now && st == IDLELOCK_ERR_STORAGE),
            "require_recent_auth returned %d", st);
    if (st == IDLELOCK_OK) {
        idlelock_snapshot s = snap_now();
        REQUIRE(s.state == IDLELOCK_STATE_UNLOCKED && s.is_enabled, "step-up passed on state %d", (int)s.state);
        REQUIRE(s.last_auth_ms != IDLELOCK_NEVER && clk.now >= s.last_auth_ms &&
                    (uint64_t)clk.now - (uint64_t)s.last_auth_ms <= (uint64_t)max_age,
                "step-up passed with last_auth %lld at %lld (max %lld)", (long long)s.last_auth_ms,
                (long long)clk.now, (long long)max_age);
    }
}
