/* SPDX-License-Identifier: MIT */
/*
 * baseline.c: the baseline of sections 1 and 2: the essential work of
 * each hot call in plain C (the same clock callback, one pthread mutex,
 * the decision rules' compares and stores, the snapshot, and for
 * secret_get the same libsodium calls). hot_calls.c checks that each
 * baseline produces the library's snapshot before timing it.
 */
#include "bench.h"

/* The small steps of every call, inlined as a careful C implementation
 * would have them (GCC at -O2 otherwise keeps some of them as calls). */
#define INLINE inline __attribute__((always_inline))

/* The floor is the faster of two codings: GCC 12 at -O2 packs the visible
 * state into vector registers to copy it (SLP vectorization), 17
 * instructions a call more than its scalar code (callgrind,
 * BENCHMARKS.md "What each baseline contains"). */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("no-tree-slp-vectorize")
#endif

static INLINE int64_t sat_sub(int64_t later, int64_t earlier)
{
    int64_t d;
    if (__builtin_sub_overflow(later, earlier, &d)) {
        return later > earlier ? INT64_MAX : INT64_MIN;
    }
    return d;
}

#if IDLELOCK_VERSION_NUMBER >= 10100
static INLINE int64_t sat_add(int64_t a, int64_t b)
{
    int64_t r;
    if (__builtin_add_overflow(a, b, &r)) {
        return b > 0 ? INT64_MAX : INT64_MIN;
    }
    return r;
}
#endif

static INLINE int has_passed(int64_t elapsed, int64_t timeout)
{
    return timeout != IDLELOCK_NEVER && elapsed >= timeout;
}

static void b_lock(base_t *b, int32_t why)
{
    b->state = IDLELOCK_STATE_LOCKED;
    b->reason = why;
    b->lock_epoch++;
    b->live_prompts = 0; /* open prompts defer nothing any more */
    b->has_prompt_end = 0;
    b->absence_covered = 0;
}

static INLINE int64_t b_absence_timeout(const base_t *b, int reached_bg)
{
    return reached_bg ? b->background : (b->background > b->inactive ? b->background : b->inactive);
}

/* A live prompt the app opened is open, within its cap (1.1). */
static INLINE int b_shielded(const base_t *b, int64_t now)
{
    return b->live_prompts > 0 && sat_sub(now, b->earliest_prompt) < b->prompt_cap;
}

/* An absence that began under a live prompt is presence while the prompt
 * shields, and for grace ms after the last one ended (1.1). */
static INLINE int b_covers_absence(const base_t *b, int64_t now)
{
    if (b_shielded(b, now)) {
        return 1;
    }
    return b->live_prompts == 0 && b->has_prompt_end && sat_sub(now, b->prompt_end) <= b->grace;
}

static INLINE int b_idle_passed(const base_t *b, int64_t now)
{
    return has_passed(sat_sub(now, b->last_activity), b->idle) && !b_shielded(b, now);
}

static INLINE void b_judge(base_t *b, int64_t now)
{
    if (!b->engaged || b->state != IDLELOCK_STATE_UNLOCKED) {
        return;
    }
    if (b->away) {
        int64_t away;
        if (b->absence_covered && b_covers_absence(b, now)) {
            return;
        }
        away = sat_sub(now, b->departure);
        if (away <= b->grace) {
            return;
        }
        if (has_passed(away, b_absence_timeout(b, b->reached_bg))) {
            b_lock(b, IDLELOCK_REASON_BACKGROUNDED);
            return;
        }
    }
    if (b_idle_passed(b, now)) {
        b_lock(b, IDLELOCK_REASON_IDLE);
    }
}

/* What a clock step does (never in the bench): a new step back is
 * counted, a delay that was running restarts in full, the last
 * authentication is forgotten, and an engaged, unlocked session locks;
 * before a passcode the bookkeeping restarts at now. (A passcode policy's
 * age would become unknown too: the bench runs none.) */
__attribute__((noinline)) static void b_clock_stepped(base_t *b, int64_t now, int64_t previous)
{
    if (now < previous) {
        b->clock_steps++;
    }
#if IDLELOCK_VERSION_NUMBER >= 10100
    if (b->retry_running &&
        (sat_sub(sat_add(b->retry_started, b->retry_period), previous) > 0 || now < b->retry_started)) {
        b->retry_started = now;
    }
#endif
    b->last_auth = IDLELOCK_NEVER;
    if (b->engaged) {
        if (b->state == IDLELOCK_STATE_UNLOCKED) {
            b_lock(b, IDLELOCK_REASON_CLOCK);
        }
    } else {
        b->last_activity = now;
        if (b->away) {
            b->departure = now;
        }
    }
}

/* The clock-step check, then judging: the start of every call. A reading
 * earlier than the latest one judged at, the last activity or the
 * departure is a step. */
static INLINE void b_begin(base_t *b, int64_t now)
{
    int64_t previous = b->latest_reading;
    int stepped = now < previous || now < b->last_activity || (b->away && now < b->departure);
    b->latest_reading = now;
    if (stepped) {
        b_clock_stepped(b, now, previous);
    }
    b_judge(b, now);
}

static INLINE int64_t b_until_idle(const base_t *b, int64_t now)
{
    int64_t idle_for;
    if (!b->engaged || b->state != IDLELOCK_STATE_UNLOCKED || b->idle == IDLELOCK_NEVER) {
        return IDLELOCK_NEVER;
    }
    idle_for = sat_sub(now, b->last_activity);
    if (idle_for >= b->idle) {
        return 0;
    }
    if (idle_for <= 0) {
        return b->idle;
    }
    return b->idle - idle_for;
}

/* 1.1: the warning before the idle lock (off unless warn_before > 0). */
static INLINE int b_is_warning(const base_t *b, int64_t now, int64_t until_idle)
{
    return b->warn_before > 0 && !b_shielded(b, now) && until_idle != IDLELOCK_NEVER &&
           until_idle <= b->warn_before;
}

#if IDLELOCK_VERSION_NUMBER >= 10100
static INLINE int64_t b_until_warning(const base_t *b, int64_t until_idle)
{
    if (b->warn_before == 0 || until_idle == IDLELOCK_NEVER) {
        return IDLELOCK_NEVER;
    }
    return until_idle <= b->warn_before ? 0 : until_idle - b->warn_before;
}

/* 1.1: the time left of an escalating delay (none runs in the bench, but
 * every snapshot reports it): never more than its period. */
static INLINE int64_t b_until_retry(const base_t *b, int64_t now)
{
    int64_t left;
    if (!b->retry_running) {
        return 0;
    }
    left = sat_sub(sat_add(b->retry_started, b->retry_period), now);
    return left <= 0 ? 0 : (left > b->retry_period ? b->retry_period : left);
}

/* 1.1: the earliest moment anything can change: the idle deadline, the
 * warning, a prompt's cap, the end of a delay, and while away the end of
 * the grace window, the absence's timeout and the end of a prompt's cover.
 * The call has just judged at `now`, so nothing is due now. */
static INLINE int64_t b_next_deadline(const base_t *b, int64_t now, int64_t until_retry)
{
    int64_t next = INT64_MAX, m;
#define CONSIDER(moment) do { m = (moment); if (m > now && m < next) next = m; } while (0)
    if (!b->engaged || b->state != IDLELOCK_STATE_UNLOCKED) {
        if (until_retry > 0) {
            CONSIDER(sat_add(now, until_retry));
        }
        if (b->engaged) {
            CONSIDER(b->passcode_required_from); /* 1.2 */
        }
        return next == INT64_MAX ? IDLELOCK_NEVER : next - now;
    }
    if (until_retry > 0) {
        CONSIDER(sat_add(now, until_retry));
    }
    CONSIDER(b->passcode_required_from); /* 1.2: INT64_MAX changes nothing */
    if (b->idle != IDLELOCK_NEVER) {
        int64_t idle_deadline = sat_add(b->last_activity, b->idle);
        CONSIDER(idle_deadline);
        if (b->warn_before > 0) {
            CONSIDER(sat_add(idle_deadline, -b->warn_before));
        }
    }
    if (b->live_prompts > 0) {
        CONSIDER(sat_add(b->earliest_prompt, b->prompt_cap));
    }
    if (b->away) {
        CONSIDER(sat_add(b->departure, sat_add(b->grace, 1)));
        CONSIDER(sat_add(b->departure, b_absence_timeout(b, b->reached_bg)));
        if (b->absence_covered && b->has_prompt_end) {
            CONSIDER(sat_add(b->prompt_end, sat_add(b->grace, 1)));
        }
    }
#undef CONSIDER
    return next == INT64_MAX ? IDLELOCK_NEVER : next - now;
}
#endif

/* A durable step of a store (never reached in the bench: memory only). */
__attribute__((noinline)) static void b_store_step(base_t *b)
{
    b->store = NULL;
}

/* A watcher thread would be shown the snapshot (never in the bench). */
__attribute__((noinline)) static void b_watcher_step(base_t *b)
{
    b->watcher = NULL;
}

/* The authenticator's is_available, asked before the lock by foreground
 * (never in the bench: no authenticator). */
__attribute__((noinline)) static void b_ask_available(base_t *b)
{
    b->authenticator = NULL;
}

/* The end of every call, mutex held: seal a locked session, publish a
 * change of the visible state (new seq, queued for listeners), and fill the
 * caller's snapshot if one was given (out->size already checked). */
static void b_settle(base_t *b, int64_t now, idlelock_snapshot *out)
{
    visible_t v;
    int64_t until_idle;
    if (b->store != NULL && b->state != IDLELOCK_STATE_UNLOCKED) {
        b_store_step(b); /* save the lock: never in the bench */
    }
    if (b->state != IDLELOCK_STATE_UNLOCKED && b->key_loaded) {
        sodium_memzero(b->key, sizeof b->key);
        b->key_loaded = 0;
    }
    v.state = b->state;
    v.reason = b->reason;
    v.is_enabled = b->engaged;
    v.is_bio_enabled = b->bio_enabled;
    v.is_bio_available = b->bio_available;
    v.is_away = b->away;
    v.attempts = b->engaged ? b->max_attempts - b->failed : b->max_attempts;
    until_idle = b_until_idle(b, now);
    v.is_warning = b_is_warning(b, now, until_idle);
    v.is_passcode_required = b->engaged && now >= b->passcode_required_from;
    if (v.state != b->published.state || v.reason != b->published.reason ||
        v.is_enabled != b->published.is_enabled || v.is_bio_enabled != b->published.is_bio_enabled ||
        v.is_bio_available != b->published.is_bio_available || v.is_away != b->published.is_away ||
        v.attempts != b->published.attempts || v.is_warning != b->published.is_warning ||
        v.is_passcode_required != b->published.is_passcode_required) {
        b->published = v;
        b->seq++;
        if (b->n_listeners > 0) {
            b->queued++; /* never in the bench: no listener */
        }
    }
    if (b->watcher != NULL) {
        b_watcher_step(b);
    }
    if (out != NULL) {
        out->state = v.state;
        out->seq = b->seq;
        out->reason = v.reason;
        out->is_enabled = v.is_enabled;
        out->is_biometrics_enabled = v.is_bio_enabled;
        out->is_biometrics_available = v.is_bio_available;
        out->is_away = v.is_away;
        out->attempts_remaining = v.attempts;
        out->last_activity_ms = b->last_activity;
        out->ms_until_idle_lock = until_idle;
#if IDLELOCK_VERSION_NUMBER >= 10100
        out->is_warning = v.is_warning;
        out->reserved1 = 0;
        out->ms_until_warning = b_until_warning(b, until_idle);
        out->ms_until_retry = b_until_retry(b, now);
        out->ms_until_next_deadline = b_next_deadline(b, now, out->ms_until_retry);
#endif
#if IDLELOCK_VERSION_NUMBER >= 10200
        out->is_passcode_required = v.is_passcode_required;
        out->reserved2 = 0;
        out->last_auth_ms = b->last_auth;
#endif
    }
}

/* Listener delivery (never reached in the bench: no listener). */
__attribute__((noinline)) static void b_deliver(base_t *b)
{
    pthread_mutex_lock(&b->mu);
    b->queued = 0;
    pthread_mutex_unlock(&b->mu);
}

/* The start of every call, once its arguments are checked: lock, read the
 * clock, judge. Returns the clock reading. */
static inline int64_t b_enter(base_t *b)
{
    int64_t now;
    pthread_mutex_lock(&b->mu);
    now = b->clock(b->clock_ctx);
    b_begin(b, now);
    return now;
}

/* The end of every call: settle (filling `out` if given), unlock, deliver. */
static inline void b_leave(base_t *b, int64_t now, idlelock_snapshot *out)
{
    int deliver;
    b_settle(b, now, out);
    deliver = b->queued > 0;
    pthread_mutex_unlock(&b->mu);
    if (deliver) {
        b_deliver(b);
    }
}

/* The gate of the calls that need the session unlocked, after b_enter:
 * look at the store, then SESSION_LOCKED, INTERNAL (no key) or OK. */
static inline int b_gate(base_t *b)
{
    if (b->store != NULL) {
        b_store_step(b); /* look at the store's generation */
    }
    if (b->state != IDLELOCK_STATE_UNLOCKED || b->awaiting_start) {
        return IDLELOCK_ERR_SESSION_LOCKED;
    }
    return b->key_loaded ? IDLELOCK_OK : IDLELOCK_ERR_INTERNAL;
}

static int b_out_ok(const idlelock_snapshot *out)
{
    return out == NULL || (out->size >= sizeof *out && out->size <= 4096);
}

enum { OP_TOUCH, OP_CHECK, OP_BACKGROUND, OP_FOREGROUND };

/* An event: validate, lock, read the clock, apply the rule, settle. */
static inline int b_event(base_t *b, idlelock_snapshot *out, int op)
{
    int64_t now;
    if (b == NULL || !b_out_ok(out)) {
        return IDLELOCK_ERR_INVALID_ARGUMENT;
    }
    now = b_enter(b);
    switch (op) {
    case OP_TOUCH:
        if (b->state == IDLELOCK_STATE_UNLOCKED) {
            b->last_activity = now;
        }
        break;
    case OP_CHECK:
        break;
    case OP_BACKGROUND: {
        int recorded = 0;
        if (!b->away) {
            b->away = 1;
            b->departure = now;
            b->reached_bg = 0;
            b->absence_covered = b_shielded(b, now);
            recorded = 1;
        }
        b->reached_bg = 1;
        if (b->engaged && b->state == IDLELOCK_STATE_UNLOCKED) {
            if (recorded && b_idle_passed(b, now)) {
                b_lock(b, IDLELOCK_REASON_IDLE);
            } else {
                b_judge(b, now);
            }
        }
        break;
    }
    case OP_FOREGROUND: {
        int had = b->away, was_bg = b->reached_bg, covered = b->absence_covered;
        int64_t departed = b->departure, away;
        b->away = 0;
        b->reached_bg = 0;
        b->absence_covered = 0;
        if (!b->engaged || b->state != IDLELOCK_STATE_UNLOCKED) {
            break;
        }
        if (!had) {
            if (b_idle_passed(b, now)) {
                b_lock(b, IDLELOCK_REASON_IDLE);
            }
            break;
        }
        if (covered && b_covers_absence(b, now)) {
            b->last_activity = now; /* back from a prompt the app opened */
            break;
        }
        away = sat_sub(now, departed);
        if (away <= b->grace) {
            b->last_activity = now;
        } else if (has_passed(away, b_absence_timeout(b, was_bg))) {
            b_lock(b, IDLELOCK_REASON_BACKGROUNDED);
        } else if (b_idle_passed(b, now)) {
            b_lock(b, IDLELOCK_REASON_IDLE);
        }
        break;
    }
    default:
        break;
    }
    b_leave(b, now, out);
    return IDLELOCK_OK;
}

__attribute__((noinline)) int base_touch(base_t *b, idlelock_snapshot *out)
{
    return b_event(b, out, OP_TOUCH);
}

__attribute__((noinline)) int base_check(base_t *b, idlelock_snapshot *out)
{
    return b_event(b, out, OP_CHECK);
}

__attribute__((noinline)) int base_snapshot_get(base_t *b, idlelock_snapshot *out)
{
    if (out == NULL) {
        return IDLELOCK_ERR_INVALID_ARGUMENT;
    }
    return b_event(b, out, OP_CHECK);
}

__attribute__((noinline)) int base_background(base_t *b, idlelock_snapshot *out)
{
    return b_event(b, out, OP_BACKGROUND);
}

__attribute__((noinline)) int base_foreground(base_t *b, idlelock_snapshot *out)
{
    if (b != NULL && b->authenticator != NULL) {
        b_ask_available(b);
    }
    return b_event(b, out, OP_FOREGROUND);
}

__attribute__((noinline)) int base_require_unlocked(base_t *b)
{
    int64_t now;
    int status;
    if (b == NULL) {
        return IDLELOCK_ERR_INVALID_ARGUMENT;
    }
    now = b_enter(b);
    status = b_gate(b);
    b_leave(b, now, NULL);
    return status;
}

/* Well-formed UTF-8 (no overlongs, surrogates, or values past U+10FFFF). */
static int utf8_valid(const unsigned char *s, size_t n)
{
    size_t i = 0, k, len;
    while (i < n) {
        unsigned char c = s[i], lo = 0x80, hi = 0xBF;
        if (c < 0x80) {
            i++;
            continue;
        }
        if (c >= 0xC2 && c <= 0xDF) {
            len = 2;
        } else if (c >= 0xE0 && c <= 0xEF) {
            len = 3;
            lo = c == 0xE0 ? 0xA0 : 0x80;
            hi = c == 0xED ? 0x9F : 0xBF;
        } else if (c >= 0xF0 && c <= 0xF4) {
            len = 4;
            lo = c == 0xF0 ? 0x90 : 0x80;
            hi = c == 0xF4 ? 0x8F : 0xBF;
        } else {
            return 0;
        }
        if (len > n - i || s[i + 1] < lo || s[i + 1] > hi) {
            return 0;
        }
        for (k = 2; k < len; k++) {
            if (s[i + k] < 0x80 || s[i + k] > 0xBF) {
                return 0;
            }
        }
        i += len;
    }
    return 1;
}

__attribute__((noinline)) int base_secret_get(base_t *b, const char *name, uint8_t *buf,
                                                     size_t *len)
{
    unsigned char id[32];
    unsigned long long opened = 0;
    size_t n, cap, i;
    int64_t now;
    int status;
    if (b == NULL || name == NULL || len == NULL) {
        return IDLELOCK_ERR_INVALID_ARGUMENT;
    }
    n = strnlen(name, 65);
    if (n == 0 || n > 64 || !utf8_valid((const unsigned char *)name, n)) {
        return IDLELOCK_ERR_INVALID_ARGUMENT;
    }
    if (buf == NULL && *len != 0) {
        return IDLELOCK_ERR_INVALID_ARGUMENT;
    }
    cap = *len > 65536 ? 65536 : *len;
    now = b_enter(b);
    status = b_gate(b);
    if (status == IDLELOCK_OK) {
        const base_record *r = NULL;
        crypto_generichash(id, sizeof id, (const unsigned char *)name, n, b->key + 32, 32);
        for (i = 0; i < b->n_records; i++) {
            if (sodium_memcmp(b->records[i].id, id, sizeof id) == 0) {
                r = &b->records[i];
                break;
            }
        }
        if (r == NULL) {
            status = IDLELOCK_ERR_NOT_FOUND;
        } else if (cap < r->sealed_len - crypto_aead_xchacha20poly1305_ietf_ABYTES) {
            *len = r->sealed_len - crypto_aead_xchacha20poly1305_ietf_ABYTES;
            status = IDLELOCK_ERR_BUFFER_TOO_SMALL;
        } else if (crypto_aead_xchacha20poly1305_ietf_decrypt(buf, &opened, NULL, r->sealed,
                                                              r->sealed_len, id, sizeof id,
                                                              r->nonce, b->key) != 0) {
            status = IDLELOCK_ERR_INTERNAL;
        } else {
            *len = (size_t)opened;
        }
    }
    b_leave(b, now, NULL);
    return status;
}

void base_init(base_t *b, const uint8_t *secret)
{
    base_record *r = &b->records[0];
    unsigned long long sealed_len = 0;
    memset(b, 0, sizeof *b);
    pthread_mutex_init(&b->mu, NULL);
    b->clock = bench_clock;
    b->clock_ctx = NULL;
    b->idle = IDLE_MS;
    b->background = BACKGROUND_MS;
    b->inactive = INACTIVE_MS;
    b->grace = GRACE_MS;
    b->engaged = 1;
    b->state = IDLELOCK_STATE_UNLOCKED;
    b->reason = IDLELOCK_REASON_NONE;
    b->key_loaded = 1;
    b->max_attempts = MAX_ATTEMPTS;
    b->prompt_cap = 120000;
    b->passcode_required_from = INT64_MAX; /* every passcode policy off */
    b->last_auth = IDLELOCK_NEVER;         /* engaged by a new passcode: no authentication */
    b->last_activity = bench_clock(NULL);
    b->latest_reading = b->last_activity;
    b_settle(b, b->last_activity, NULL);
    randombytes_buf(b->key, 32);
    crypto_kdf_derive_from_key(b->key + 32, 32, 1, "idlkname", b->key);
    crypto_generichash(r->id, sizeof r->id, (const unsigned char *)SECRET_NAME,
                       strlen(SECRET_NAME), b->key + 32, 32);
    randombytes_buf(r->nonce, sizeof r->nonce);
    crypto_aead_xchacha20poly1305_ietf_encrypt(r->sealed, &sealed_len, secret, SECRET_BYTES, r->id,
                                               sizeof r->id, NULL, r->nonce, b->key);
    r->sealed_len = (size_t)sealed_len;
    b->n_records = 1;
}
