/* SPDX-License-Identifier: MIT */
/*
 * passcodes.c: a failed call changes nothing; passcode UTF-8
 * validation, the attempt count, the lockout order and the reports of a
 * failed unlock.
 */
#include "harness.h"

void test_failed_call_changes_nothing(void)
{
    idlelock_snapshot before, after, bad = blank_snap();
    idlelock *l;
    now = 0;
    l = engaged_lock(5);
    if (l == NULL)
        return;
    bad.size = 0;
    now = 1000;
    before = snap_of(l);
    CHECK_ST(idlelock_touch(l, &bad), INVAL);      /* would set activity */
    CHECK_ST(idlelock_background(l, &bad), INVAL); /* would set away */
    CHECK_ST(idlelock_lock(l, &bad), INVAL);       /* would lock */
    CHECK_ST(idlelock_unlock(l, LIT("0000"), &bad), INVAL); /* would count */
    CHECK_ST(idlelock_set_passcode(l, LIT("123")), INVAL);
    CHECK_ST(idlelock_secret_put(l, "", (const uint8_t *)"v", 1), INVAL);
    /* Past the idle deadline: a failed call must not judge it. */
    now = 61000;
    CHECK_ST(idlelock_check(l, &bad), INVAL);
    CHECK_ST(idlelock_start(l, &bad), INVAL);
    CHECK_ST(idlelock_unlock(l, LIT("\xFF\xFF\xFF\xFF"), NULL), INVAL);
    now = 1000;
    after = snap_of(l);
    CHECK(same_snap(&before, &after));
    CHECK_EQ(after.state, IDLELOCK_STATE_UNLOCKED);
    CHECK_EQ(after.last_activity_ms, 0);
    CHECK_EQ(after.attempts_remaining, 5);
    CHECK_EQ(after.is_away, 0);
    idlelock_destroy(l);
}

/* ---------------------------------------------------------------------- */
/* Passcodes                                                              */
/* ---------------------------------------------------------------------- */

struct bytes {
    const char *s;
    size_t n;
};

/* Each has at least 4 scalars besides the bad sequence. */
static const struct bytes bad_utf8[] = {
    { LIT("1234\xC0\x80") },             /* overlong NUL */
    { LIT("1234\xC1\xBF") },             /* overlong 2-byte */
    { LIT("1234\xE0\x80\xAF") },         /* overlong 3-byte '/' */
    { LIT("1234\xE0\x9F\xBF") },         /* overlong 3-byte U+07FF */
    { LIT("1234\xF0\x80\x80\xAF") },     /* overlong 4-byte '/' */
    { LIT("1234\xF0\x8F\xBF\xBF") },     /* overlong 4-byte U+FFFF */
    { LIT("1234\xED\xA0\x80") },         /* surrogate U+D800 */
    { LIT("1234\xED\xBF\xBF") },         /* surrogate U+DFFF */
    { LIT("\xED\xA0\xBD\xED\xB8\x80" "1234") }, /* CESU-8 pair */
    { LIT("1234\xF4\x90\x80\x80") },     /* U+110000 */
    { LIT("1234\xF5\x80\x80\x80") },     /* lead byte F5 */
    { LIT("1234\xF8\x88\x80\x80\x80") }, /* 5-byte form */
    { LIT("1234\xC3") },                 /* truncated 2-byte */
    { LIT("1234\xE2\x82") },             /* truncated 3-byte at the end */
    { LIT("\xE2\x82" "1234") },          /* truncated 3-byte before ASCII */
    { LIT("1234\xF0\x9F\x98") },         /* truncated 4-byte */
    { LIT("1234\xFF") },
    { LIT("1234\xFE") },
    { LIT("1234\x80") },                 /* lone continuation byte */
    { LIT("12\xBF" "34") },              /* continuation in the middle */
};
#define N_BAD_UTF8 (sizeof bad_utf8 / sizeof bad_utf8[0])

#define EURO "\xE2\x82\xAC"     /* U+20AC, 3 bytes */
#define GRIN "\xF0\x9F\x98\x80" /* U+1F600, 4 bytes */

/* A passcode of `n` bytes of 'a' (n <= 1025). */
static const char *long_code(size_t n)
{
    static char buf[IDLELOCK_PASSCODE_MAX_BYTES + 1];
    memset(buf, 'a', n <= sizeof buf ? n : sizeof buf);
    return buf;
}

void test_set_passcode_args(void)
{
    idlelock *l = new_lock();
    size_t i;
    if (l == NULL)
        return;
    for (i = 0; i < N_BAD_UTF8; i++) {
        int st = idlelock_set_passcode(l, bad_utf8[i].s, bad_utf8[i].n);
        char what[64];
        snprintf(what, sizeof what, "set_passcode(bad_utf8[%u])", (unsigned)i);
        check_status(st, INVAL, __FILE__, __LINE__, what);
    }
    CHECK_ST(idlelock_set_passcode(l, "", 0), INVAL);
    CHECK_ST(idlelock_set_passcode(l, long_code(1025), 1025), INVAL);
    CHECK_ST(idlelock_set_passcode(l, LIT("123")), INVAL);
    /* 9 bytes but 3 scalars: too short. */
    CHECK_ST(idlelock_set_passcode(l, LIT(EURO EURO EURO)), INVAL);
    CHECK_EQ(snap_of(l).is_enabled, 0);
    /* 4 multi-byte scalars: accepted, and unlock with the same bytes. */
    CHECK_ST(idlelock_set_passcode(l, LIT(EURO EURO EURO EURO)), OK);
    CHECK_EQ(snap_of(l).is_enabled, 1);
    CHECK_ST(idlelock_unlock(l, LIT(EURO EURO EURO EURO), NULL), OK);
    CHECK_ST(idlelock_set_passcode(l, LIT(GRIN GRIN GRIN GRIN)), OK);
    /* Edge scalars: U+10FFFF, U+FFFF, U+E000, U+0000. */
    CHECK_ST(idlelock_set_passcode(l, LIT("\xF4\x8F\xBF\xBF\xEF\xBF\xBF\xEE\x80\x80\x00")), OK);
    CHECK_ST(idlelock_unlock(l, LIT("\xF4\x8F\xBF\xBF\xEF\xBF\xBF\xEE\x80\x80\x00"), NULL), OK);
    /* Embedded NULs are bytes; the length counts, not strlen. */
    CHECK_ST(idlelock_set_passcode(l, LIT("ab\0cd")), OK);
    CHECK_ST(idlelock_unlock(l, LIT("ab"), NULL), IDLELOCK_ERR_INVALID_PASSCODE);
    CHECK_ST(idlelock_unlock(l, LIT("ab\0cd"), NULL), OK);
    /* 1024 bytes is the limit, inclusive. */
    CHECK_ST(idlelock_set_passcode(l, long_code(1024), 1024), OK);
    CHECK_ST(idlelock_unlock(l, long_code(1024), 1024, NULL), OK);
    idlelock_destroy(l);
}

/* Every bad unlock argument on `l`: INVALID_ARGUMENT, nothing counted. */
static void bad_unlocks(idlelock *l, int line)
{
    idlelock_snapshot s = blank_snap();
    size_t i;
    for (i = 0; i < N_BAD_UTF8; i++)
        check_status(idlelock_unlock(l, bad_utf8[i].s, bad_utf8[i].n, &s), INVAL,
                     __FILE__, line, "unlock(bad_utf8[i])");
    check_status(idlelock_unlock(l, "", 0, &s), INVAL, __FILE__, line, "unlock(\"\", 0)");
    check_status(idlelock_unlock(l, long_code(1025), 1025, &s), INVAL, __FILE__,
                 line, "unlock(1025 bytes)");
    check_status(idlelock_unlock(l, NULL, 0, &s), INVAL, __FILE__, line, "unlock(NULL, 0)");
}

void test_unlock_args_not_counted(void)
{
    idlelock_snapshot s;
    idlelock *l = new_lock();
    if (l == NULL)
        return;
    bad_unlocks(l, __LINE__); /* not engaged: INVALID before NO_PASSCODE */
    CHECK_ST(idlelock_set_passcode(l, LIT("1234")), OK);
    CHECK_ST(idlelock_lock(l, NULL), OK);
    bad_unlocks(l, __LINE__);
    s = snap_of(l);
    CHECK_EQ(s.attempts_remaining, 5);
    CHECK_EQ(s.state, IDLELOCK_STATE_LOCKED);
    /* Set_passcode: bad arguments come before SESSION_LOCKED. */
    CHECK_ST(idlelock_set_passcode(l, LIT("12")), INVAL);
    CHECK_ST(idlelock_set_passcode(l, LIT("5678")), IDLELOCK_ERR_SESSION_LOCKED);
    /* 3 scalars is a valid unlock argument: checked and counted. */
    s = blank_snap();
    CHECK_ST(idlelock_unlock(l, LIT("123"), &s), IDLELOCK_ERR_INVALID_PASSCODE);
    CHECK_EQ(s.attempts_remaining, 4);
    CHECK_ST(idlelock_unlock(l, LIT("1234"), &s), OK);
    CHECK_EQ(s.attempts_remaining, 5);
    CHECK_EQ(s.state, IDLELOCK_STATE_UNLOCKED);
    idlelock_destroy(l);
}

void test_lockout_order(void)
{
    idlelock_snapshot s = blank_snap();
    idlelock *l = engaged_lock(1);
    if (l == NULL)
        return;
    CHECK_ST(idlelock_unlock(l, LIT("0000"), &s), IDLELOCK_ERR_LOCKED_OUT);
    CHECK_EQ(s.state, IDLELOCK_STATE_LOCKED_OUT);
    CHECK_EQ(s.reason, IDLELOCK_REASON_NONE);
    CHECK_EQ(s.attempts_remaining, 0);
    bad_unlocks(l, __LINE__); /* INVALID before LOCKED_OUT */
    CHECK_ST(idlelock_unlock(l, LIT("1234"), NULL), IDLELOCK_ERR_LOCKED_OUT);
    CHECK_ST(idlelock_set_passcode(l, LIT("")), INVAL);
    CHECK_ST(idlelock_set_passcode(l, LIT("5678")), IDLELOCK_ERR_SESSION_LOCKED);
    CHECK_ST(idlelock_unlock_with_biometrics(l, NULL), IDLELOCK_ERR_LOCKED_OUT);
    CHECK_ST(idlelock_enable_biometrics(l), IDLELOCK_ERR_SESSION_LOCKED);
    CHECK_ST(idlelock_disable_biometrics(l), OK);
    CHECK_ST(idlelock_require_unlocked(l), IDLELOCK_ERR_SESSION_LOCKED);
    CHECK_ST(idlelock_disable(l), OK);
    s = snap_of(l);
    CHECK_EQ(s.state, IDLELOCK_STATE_UNLOCKED);
    CHECK_EQ(s.is_enabled, 0);
    CHECK_EQ(s.attempts_remaining, 1);
    idlelock_destroy(l);
}

/* A failure other than a bad argument still fills `out`; the message of a
 * wrong passcode says how many remain and never holds the passcode. */
void test_failure_reports(void)
{
    idlelock_snapshot s = blank_snap();
    idlelock *l;
    now = 7000;
    l = new_lock();
    if (l == NULL)
        return;
    s.attempts_remaining = -1;
    CHECK_ST(idlelock_unlock(l, LIT("1234"), &s), IDLELOCK_ERR_NO_PASSCODE);
    CHECK_EQ(s.attempts_remaining, 5);
    CHECK_EQ(s.last_activity_ms, 7000);
    CHECK_ST(idlelock_set_passcode(l, LIT("1234")), OK);
    s = blank_snap();
    CHECK_ST(idlelock_unlock(l, LIT("zq9x!wrong"), &s), IDLELOCK_ERR_INVALID_PASSCODE);
    CHECK_EQ(s.attempts_remaining, 4);
    CHECK(strstr(idlelock_last_error(), "4") != NULL);
    CHECK(strstr(idlelock_last_error(), "zq9x") == NULL);
    CHECK_ST(idlelock_set_passcode(l, LIT("zq9\xFF")), INVAL);
    CHECK(strstr(idlelock_last_error(), "zq9") == NULL);
    idlelock_destroy(l);
}

/* ---------------------------------------------------------------------- */
/* What a two-half call reports is the state when it returns               */
/* ---------------------------------------------------------------------- */

/* A clock that runs 1000 times faster than CLOCK_MONOTONIC (a real
 * microsecond is a millisecond), so a key derivation of tens of real
 * milliseconds lasts tens of seconds on it. It counts its readings and
 * keeps the last one. */
struct fast_clock {
    struct timespec origin;
    int64_t reads;
    int64_t last;
};

static int64_t fast_read(void *ctx)
{
    struct fast_clock *c = ctx;
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    c->last = 1000000 + (int64_t)(t.tv_sec - c->origin.tv_sec) * 1000000 +
              (int64_t)(t.tv_nsec - c->origin.tv_nsec) / 1000;
    c->reads++;
    return c->last;
}

struct heard {
    struct fast_clock *clock;
    idlelock_snapshot snapshot;
    int64_t reading; /* the clock's latest reading when it was heard */
    int calls;
};

static void heard_listener(void *ctx, const idlelock_snapshot *s)
{
    struct heard *h = ctx;
    h->snapshot = *s;
    h->reading = h->clock->last;
    h->calls++;
}

/*
 * An unlock runs Argon2id between two halves; what it writes to `out` (and
 * what listeners hear of a set_passcode) must describe the state when it
 * returns, after the derivation, so that a host timer set from
 * ms_until_next_deadline never fires late. The clock runs fast: a
 * snapshot taken when the call began is seconds stale at its return.
 *
 * Regression (issue 11, finding 8): after a 1.37 s derivation,
 * ms_until_next_deadline said 3000 when the truth was 1631.
 */
void test_snapshot_at_return(void)
{
    const int64_t idle = 3600000; /* an hour of the fast clock: 3.6 real s */
    struct fast_clock clock;
    struct heard heard;
    idlelock_snapshot s = blank_snap();
    idlelock_config c;
    idlelock *l;
    uint64_t token = 0;
    int64_t first;
    memset(&clock, 0, sizeof clock);
    clock_gettime(CLOCK_MONOTONIC, &clock.origin);
    base_config(&c);
    c.idle_after_ms = idle;
    c.clock = fast_read;
    c.clock_ctx = &clock;
    l = create_or_report(&c, __FILE__, __LINE__);
    if (l == NULL)
        return;
    memset(&heard, 0, sizeof heard);
    heard.clock = &clock;
    CHECK_ST(idlelock_subscribe(l, heard_listener, &heard, &token), OK);

    /* set_passcode: the listener hears the engaged session. */
    first = clock.last + 1;
    CHECK_ST(idlelock_set_passcode(l, LIT("1234")), OK);
    CHECK_EQ(heard.calls, 1);
    CHECK_EQ(heard.snapshot.is_enabled, 1);
    CHECK(heard.reading - first >= 1000); /* taken after the derivation */
    CHECK_EQ(heard.snapshot.ms_until_next_deadline,
             heard.snapshot.last_activity_ms + idle - heard.reading);

    /* unlock: `out` after the derivation. */
    CHECK_ST(idlelock_lock(l, NULL), OK);
    first = clock.last + 1;
    CHECK_ST(idlelock_unlock(l, LIT("1234"), &s), OK);
    CHECK_EQ(s.state, IDLELOCK_STATE_UNLOCKED);
    CHECK(s.last_activity_ms >= first);           /* the call's entry reading */
    CHECK(clock.last - s.last_activity_ms >= 1000); /* the derivation ran between */
    CHECK_EQ(s.ms_until_idle_lock, s.last_activity_ms + idle - clock.last);
    CHECK_EQ(s.ms_until_next_deadline, s.last_activity_ms + idle - clock.last);

    /* A wrong passcode too (the snapshot still says LOCKED, at its end). */
    CHECK_ST(idlelock_lock(l, NULL), OK);
    first = clock.last + 1;
    s = blank_snap();
    CHECK_ST(idlelock_unlock(l, LIT("0000"), &s), IDLELOCK_ERR_INVALID_PASSCODE);
    CHECK_EQ(s.state, IDLELOCK_STATE_LOCKED);
    CHECK(clock.last - first >= 1000);
    CHECK_EQ(s.attempts_remaining, 4);
    idlelock_destroy(l);
}
