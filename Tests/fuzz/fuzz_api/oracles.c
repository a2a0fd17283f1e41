/* SPDX-License-Identifier: MIT */
/*
 * oracles.c: the checks every call goes through: known statuses
 * and messages, snapshots in range with seq never going back, the
 * deadline rule, a larger snapshot's tail zeroed.
 */
#include "fuzz_api.h"

/* The next deadline is never later than the idle deadline, unless the app
 * is away (the grace window defers judging), a prompt defers the idle rule
 * (one the harness opened, also one whose slot was taken and which it
 * can never end, the library's own load_secret, or a biometric
 * request that can still defer: biometric_pair.c knows which), or the idle
 * deadline lies at or past INT64_MAX (see the report on saturation). */
void check_deadlines(const idlelock_snapshot *s, size_t size)
{
    int open_prompt;
    if (size < END_OF(idlelock_snapshot, ms_until_next_deadline)) return;
    open_prompt = in_load_secret || pair_defers(s->seq) || prompts_left_open > 0;
    for (int i = 0; i < MAX_TOKENS; i++) open_prompt |= prompts[i] != 0;
    /* ms_until_idle_lock times the idle deadline only while present. */
    if (open_prompt || s->is_away || s->state != IDLELOCK_STATE_UNLOCKED || s->ms_until_idle_lock == IDLELOCK_NEVER)
        return;
    /* A moment at INT64_MAX is IDLELOCK_NEVER's value: the library lists no
     * deadline there (the header's preamble on saturation). */
    if (clk.now >= INT64_MAX - s->ms_until_idle_lock) return;
    REQUIRE(s->ms_until_next_deadline <= s->ms_until_idle_lock, "next deadline %lld after the idle lock %lld",
            (long long)s->ms_until_next_deadline, (long long)s->ms_until_idle_lock);
}

void finish_out(out_arg *o, int st, const char *what)
{
    if (o->p == NULL) return;
    if (o->bad) {
        REQUIRE(st == IDLELOCK_ERR_INVALID_ARGUMENT, "%s with out->size %u returned %d", what,
                (unsigned)o->size, st);
    } else if (st != IDLELOCK_ERR_INVALID_ARGUMENT) {
        size_t i;
        REQUIRE(o->p->size == o->size, "%s rewrote out->size %u to %u", what, (unsigned)o->size,
                (unsigned)o->p->size);
        check_snapshot_sized(o->p, o->size, IDLELOCK_MAX_ATTEMPTS_MAX);
        check_deadlines(o->p, o->size);
        REQUIRE(o->p->seq >= last_seq, "%s: seq %llu after %llu", what, (unsigned long long)o->p->seq,
                (unsigned long long)last_seq);
        last_seq = o->p->seq;
        for (i = sizeof(idlelock_snapshot); i < o->size; i++) {
            REQUIRE(((uint8_t *)o->p)[i] == 0, "%s: byte %zu of a %u-byte snapshot is %u, not 0", what, i,
                    (unsigned)o->size, (unsigned)((uint8_t *)o->p)[i]);
        }
    }
    free(o->p);
    o->p = NULL;
}

idlelock_snapshot snap_now(void)
{
    idlelock_snapshot s;
    int st;
    memset(&s, 0, sizeof s);
    s.size = sizeof s;
    st = idlelock_snapshot_get(H, &s);
    if (trace > 0) fprintf(stderr, "trace: now %lld snapshot_get -> %d state %d reason %d seq %llu\n",
                           (long long)clk.now, st, (int)s.state, (int)s.reason, (unsigned long long)s.seq);
    /* The header's snapshot_get block lists only OK and INVALID_ARGUMENT,
     * but like every call that judges it returns STORAGE when its judgment
     * locked the session and the lock could not be saved (the store was
     * tampered with); the snapshot is filled all the same. */
    REQUIRE(st == IDLELOCK_OK || (use_store_now && st == IDLELOCK_ERR_STORAGE), "snapshot_get returned %d", st);
    check_snapshot(&s, IDLELOCK_MAX_ATTEMPTS_MAX);
    check_deadlines(&s, sizeof s);
    REQUIRE(s.seq >= last_seq, "snapshot_get: seq %llu after %llu", (unsigned long long)s.seq,
            (unsigned long long)last_seq);
    last_seq = s.seq;
    return s;
}

/* FUZZ_TRACE=1 in the environment prints each checked call (to replay a
 * crash input by hand: build/fuzz/fuzz_api CRASH-FILE). */
void check_status(int st, const char *what)
{
    if (trace < 0) trace = getenv("FUZZ_TRACE") != NULL;
    if (trace) fprintf(stderr, "trace: now %lld %s -> %s%s%s\n", (long long)clk.now, what, idlelock_status_name(st),
                       st != IDLELOCK_OK ? ": " : "", st != IDLELOCK_OK ? idlelock_last_error() : "");
    REQUIRE(valid_status(st), "%s returned unknown status %d", what, st);
    if (st != IDLELOCK_OK) {
        const char *msg = idlelock_last_error();
        REQUIRE(msg != NULL && msg[0] != '\0', "%s failed (%d) with an empty message", what, st);
    }
    REQUIRE(idlelock_status_name(st) != NULL, "status_name NULL");
}
