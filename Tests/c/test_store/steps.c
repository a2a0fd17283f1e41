/* SPDX-License-Identifier: MIT */
/*
 * Area 16 (clock_steps): clock steps, and the gate's "the state the
 * call leaves", across real processes that share one caller clock (a
 * reading kept in a file every process maps, so a step is seen by whichever
 * process reads next). The header forbids a clock that steps ("The clock":
 * never a wall clock), but real hosts have one; every rule checked here is
 * the header's own for a host clock that does step ("Events and the
 * decision rules", "Clock steps"; "Passcode policies"; idlelock_unlock;
 * idlelock_set_passcode; idlelock_delay_step).
 *
 *  a. A step seen by a handle that is not engaged (it signed out, or
 *     started before the sign-in) while another process signed in: a
 *     process started after the step must not get the biometric unlock
 *     that passcode_max_age_ms had closed, and neither may that handle.
 *  b. A step seen by a handle engaged in an earlier sign-in, after another
 *     process signed out and in anew: the same.
 *  c. A step back during the key derivation of a right passcode: the entry
 *     is not recorded on the clock's old timeline, so a process started
 *     once the clock passes that reading again gets no biometric unlock the
 *     age had closed.
 *  d. A step back during the key derivation of a wrong passcode: the delay
 *     it starts runs its period, not the period plus the step (a step never
 *     lengthens a delay).
 *  e. An unlock that answers IDLELOCK_OK leaves the session UNLOCKED (a
 *     request voided during the derivation re-judges the deadlines).
 *  f. idlelock_set_passcode is activity ("last activity = now"), and the
 *     state it leaves is the one a restarted process finds.
 *  g. idlelock_secret_put answers from the state it leaves: another handle
 *     on the store turns the shortcut off between this call's look at the
 *     store and its durable step (both wait for the store lock, held by
 *     the test, and the other one gets it first in about one round of
 *     four); the durable step's re-read voids this handle's ENABLE request,
 *     whose sheet deferred a due idle lock, and the session locks: the put
 *     must not answer IDLELOCK_OK then (on 1.2.2: OK, and the secret
 *     written, in 2 to 8 of 20 rounds, 7 runs).
 *  h. A step seen while the store cannot be written (the test holds the
 *     store lock past the 2-s wait) is told at a later call: a process
 *     started after it must not get the biometric unlock the age had
 *     closed (before: the step was dropped, and it did).
 *
 * Each reproduces on 1.2.2 as merged (a, b, c: the biometric unlock went
 * through; d: 3,660,000 ms without the passcode; e: OK with LOCKED (IDLE);
 * f: LOCKED, unsaved, the restart UNLOCKED; g: see there).
 */
#include <pthread.h>
#include <sys/file.h>
#include <sys/mman.h>

#include "harness.h"

#define HOUR ((int64_t)3600000)
#define MINUTE ((int64_t)60000)

/* The clock every process reads: one int64_t in a shared mapping. */
static volatile int64_t *st_clock;
/* The shortcut's secret, kept by "the keystore" for every process. */
static uint8_t *st_secret;
static char st_path[200];

static int64_t st_read(void *ctx)
{
    (void)ctx;
    return *st_clock;
}

static void st_config(idlelock_config *cfg, int32_t lock_on_start, int64_t max_age)
{
    make_config(cfg, st_path, 10, lock_on_start, 1);
    cfg->clock = st_read;
    cfg->passcode_max_age_ms = max_age;
}

static idlelock *st_open(int64_t max_age, const char *what)
{
    idlelock_config cfg;
    idlelock *h = NULL;
    st_config(&cfg, 1, max_age);
    CHECK_ST(idlelock_create(&cfg, &h), IDLELOCK_OK, what);
    if (h != NULL) CHECK_ST(idlelock_start(h, NULL), IDLELOCK_OK, "idlelock_start");
    return h;
}

/* The pair with the shared keystore. */
static int st_enable(idlelock *h)
{
    uint64_t token = 0;
    int st = idlelock_biometric_begin(h, IDLELOCK_BIOMETRIC_ENABLE, &token, st_secret, IDLELOCK_AUTH_SECRET_BYTES,
                                      NULL);
    if (st != IDLELOCK_OK) return st;
    return idlelock_biometric_finish(h, token, IDLELOCK_AUTH_OK, NULL, 0, NULL);
}

static int st_bio_unlock(idlelock *h)
{
    uint64_t token = 0;
    int st = idlelock_biometric_begin(h, IDLELOCK_BIOMETRIC_UNLOCK, &token, NULL, 0, NULL);
    if (st != IDLELOCK_OK) return st;
    return idlelock_biometric_finish(h, token, IDLELOCK_AUTH_OK, st_secret, IDLELOCK_AUTH_SECRET_BYTES, NULL);
}

/* A process that signs in (signing out whatever sign-in it finds) and
 * turns the shortcut on: its passcode entry is the clock's reading now. */
static void st_sign_in(void *arg, int64_t values[4])
{
    idlelock *h = st_open(HOUR, "idlelock_create (signing in)");
    (void)arg;
    (void)values;
    if (h == NULL) return;
    if (snap(h).is_enabled) CHECK_ST(idlelock_disable(h), IDLELOCK_OK, "sign-out before the new sign-in");
    CHECK_ST(idlelock_set_passcode(h, RIGHT, strlen(RIGHT)), IDLELOCK_OK, "set_passcode (the sign-in)");
    CHECK_ST(st_enable(h), IDLELOCK_OK, "enable the shortcut");
    idlelock_destroy(h);
}

/* A process started later: the biometric unlock, which the age refuses. */
static void st_later(void *arg, int64_t values[4])
{
    const char *what = arg;
    idlelock *h = st_open(HOUR, "idlelock_create (a process started after the step)");
    idlelock_snapshot s;
    (void)values;
    if (h == NULL) return;
    s = snap(h);
    CHECK(s.is_passcode_required == 1, "%s: a process started after the step takes the passcode entry as "
                                       "known (is_passcode_required 0)", what);
    CHECK_ST(st_bio_unlock(h), IDLELOCK_ERR_LOCK_UNAVAILABLE,
             "a biometric unlock after the age had closed (the entry is 1 h 10 min old)");
    CHECK(snap(h).state != IDLELOCK_STATE_UNLOCKED, "%s: the later process was unlocked", what);
    idlelock_destroy(h);
}

static void st_fresh(const char *name)
{
    store_path(st_path, sizeof st_path, name);
}

/* a. */
static void st_unengaged_handle(void)
{
    idlelock *a;
    st_fresh("steps-a.store");
    *st_clock = 9 * HOUR;
    a = st_open(HOUR, "idlelock_create (a, before any sign-in)");
    if (a == NULL) return;
    *st_clock = 10 * HOUR;
    (void)join(spawn("steps a: signing in", st_sign_in, NULL), NULL);
    *st_clock = 11 * HOUR + 10 * MINUTE; /* the age closed 10 minutes ago */
    (void)snap(a);
    *st_clock = 10 * HOUR + 20 * MINUTE; /* a step back, seen by a only */
    (void)snap(a);
    (void)join(spawn("steps a: later", st_later, "steps a (a step seen before this handle was engaged)"), NULL);
    CHECK_ST(st_bio_unlock(a), IDLELOCK_ERR_LOCK_UNAVAILABLE,
             "steps a: the handle that saw the step, once it adopts the sign-in: a biometric unlock");
    idlelock_destroy(a);
}

/* b. */
static void st_earlier_sign_in(void)
{
    idlelock *a;
    st_fresh("steps-b.store");
    *st_clock = 9 * HOUR;
    (void)join(spawn("steps b: first sign-in", st_sign_in, NULL), NULL);
    a = st_open(HOUR, "idlelock_create (a, in the first sign-in)");
    if (a == NULL) return;
    CHECK(snap(a).is_enabled == 1, "steps b: a is engaged");
    *st_clock = 10 * HOUR;
    (void)join(spawn("steps b: sign-out and a new sign-in", st_sign_in, NULL), NULL);
    *st_clock = 11 * HOUR + 10 * MINUTE;
    (void)snap(a);
    *st_clock = 10 * HOUR + 20 * MINUTE; /* a step back, seen by a only */
    (void)snap(a);
    (void)join(spawn("steps b: later", st_later, "steps b (a step seen by a handle of the earlier sign-in)"),
               NULL);
    idlelock_destroy(a);
}

/* c, d and e step or move the clock while the key is derived: the first
 * half of idlelock_unlock delivers the raised count to listeners before
 * the derivation runs, so a listener that hears it moves the clock (and
 * may act on another handle) exactly then. */
static int64_t st_move_to;
static idlelock *st_other;
static int st_moved;

static void st_mover(void *ctx, const idlelock_snapshot *s)
{
    (void)ctx;
    if (st_moved || s->state == IDLELOCK_STATE_UNLOCKED) return;
    st_moved = 1;
    if (st_other != NULL)
        CHECK_ST(idlelock_disable_biometrics(st_other), IDLELOCK_OK,
                 "another handle turns the shortcut off during the derivation");
    *st_clock = st_move_to;
}

static int st_unlock_moving(idlelock *h, const char *code, int64_t to, idlelock *other, idlelock_snapshot *out)
{
    uint64_t token = 0;
    int st;
    st_moved = 0;
    st_move_to = to;
    st_other = other;
    CHECK_ST(idlelock_subscribe(h, st_mover, NULL, &token), IDLELOCK_OK, "subscribe");
    *out = snap_init();
    st = unlock_with(h, code, out);
    CHECK(st_moved, "the listener heard the counted attempt before the derivation");
    CHECK_ST(idlelock_unsubscribe(h, token), IDLELOCK_OK, "unsubscribe");
    return st;
}

/* c: the process that unlocks exits right after its unlock. */
static void st_unlocks_across_a_step(void *arg, int64_t values[4])
{
    idlelock *h = st_open(HOUR, "idlelock_create (unlocking)");
    idlelock_snapshot s;
    (void)arg;
    (void)values;
    if (h == NULL) return;
    (void)st_unlock_moving(h, RIGHT, 9 * HOUR + 30 * MINUTE, NULL, &s);
    idlelock_destroy(h);
}

static void st_step_during_right_passcode(void)
{
    st_fresh("steps-c.store");
    *st_clock = 9 * HOUR;
    (void)join(spawn("steps c: sign-in", st_sign_in, NULL), NULL);
    *st_clock = 10 * HOUR; /* the right passcode's entry reading */
    (void)join(spawn("steps c: an unlock across a step back to 9:30", st_unlocks_across_a_step, NULL), NULL);
    /* 10:50 on the clock: 1 h 20 min after the passcode was typed. */
    *st_clock = 10 * HOUR + 50 * MINUTE;
    (void)join(spawn("steps c: later", st_later, "steps c (a step during a right passcode's derivation)"), NULL);
}

/* d. */
static void st_step_during_wrong_passcode(void)
{
    idlelock_config cfg;
    idlelock *h = NULL;
    idlelock_snapshot s;
    const idlelock_delay_step *steps = NULL;
    size_t count = 0;
    int64_t begun;
    int i, st = IDLELOCK_ERR_RETRY_LATER;
    st_fresh("steps-d.store");
    *st_clock = 10 * HOUR;
    CHECK_ST(idlelock_delay_schedule_ios(&steps, &count), IDLELOCK_OK, "idlelock_delay_schedule_ios");
    st_config(&cfg, 1, 0);
    cfg.delay_schedule = steps;
    cfg.delay_schedule_len = count;
    CHECK_ST(idlelock_create(&cfg, &h), IDLELOCK_OK, "steps d: create");
    if (h == NULL) return;
    CHECK_ST(idlelock_set_passcode(h, RIGHT, strlen(RIGHT)), IDLELOCK_OK, "steps d: set_passcode");
    CHECK_ST(idlelock_lock(h, NULL), IDLELOCK_OK, "steps d: lock");
    for (i = 0; i < 4; i++) {
        *st_clock += 1000;
        CHECK_ST(unlock_with(h, WRONG, &s), IDLELOCK_ERR_INVALID_PASSCODE, "steps d: a wrong passcode");
    }
    *st_clock += 1000;
    /* The fifth starts the 1-minute delay; the clock steps back an hour
     * while its key is derived. */
    CHECK_ST(st_unlock_moving(h, WRONG, *st_clock - HOUR, NULL, &s), IDLELOCK_ERR_INVALID_PASSCODE,
             "steps d: the fifth wrong passcode");
    begun = *st_clock;
    /* A lock screen that polls every second, as the user waits. */
    for (i = 0; i < 2 * 3600 && st == IDLELOCK_ERR_RETRY_LATER; i++) {
        *st_clock += 1000;
        st = unlock_with(h, RIGHT, &s);
    }
    CHECK_ST(st, IDLELOCK_OK, "steps d: the right passcode once the delay is over");
    CHECK(*st_clock - begun <= 61000,
          "steps d: the right passcode was kept out %" PRId64 " ms after a 60000 ms delay (a step back during "
          "the wrong passcode's derivation lengthened the delay by the step)", *st_clock - begun);
    idlelock_destroy(h);
}

/* e. */
static void st_unlock_answers_from_the_state_it_leaves(void)
{
    idlelock_config cfg;
    idlelock *a = NULL, *b = NULL;
    idlelock_snapshot s;
    uint64_t token = 0;
    int st;
    st_fresh("steps-e.store");
    *st_clock = 10 * HOUR;
    st_config(&cfg, 1, 0);
    cfg.idle_after_ms = 5 * MINUTE;
    CHECK_ST(idlelock_create(&cfg, &a), IDLELOCK_OK, "steps e: create a");
    if (a == NULL) return;
    CHECK_ST(idlelock_set_passcode(a, RIGHT, strlen(RIGHT)), IDLELOCK_OK, "steps e: set_passcode");
    CHECK_ST(st_enable(a), IDLELOCK_OK, "steps e: enable");
    CHECK_ST(idlelock_create(&cfg, &b), IDLELOCK_OK, "steps e: create b (another window of the app)");
    if (b == NULL) {
        idlelock_destroy(a);
        return;
    }
    CHECK_ST(idlelock_start(b, NULL), IDLELOCK_OK, "steps e: start b");
    CHECK_ST(idlelock_lock(a, NULL), IDLELOCK_OK, "steps e: lock a");
    CHECK_ST(idlelock_biometric_begin(a, IDLELOCK_BIOMETRIC_UNLOCK, &token, NULL, 0, NULL), IDLELOCK_OK,
             "steps e: a's lock screen begins a biometric unlock");
    /* The user types the passcode instead; the device sleeps 6 minutes
     * during the derivation (no step: time passing), and the other window
     * turns the shortcut off meanwhile. */
    st = st_unlock_moving(a, RIGHT, *st_clock + 6 * MINUTE, b, &s);
    CHECK(st != IDLELOCK_OK || s.state == IDLELOCK_STATE_UNLOCKED,
          "steps e: idlelock_unlock returned IDLELOCK_OK while the call left the session %s (reason %d)",
          s.state == IDLELOCK_STATE_UNLOCKED ? "UNLOCKED" : "LOCKED", (int)s.reason);
    CHECK((st == IDLELOCK_OK) == (idlelock_require_unlocked(a) == IDLELOCK_OK),
          "steps e: the gate right after the unlock disagrees with the unlock's status %s", sname(st));
    idlelock_destroy(b);
    idlelock_destroy(a);
}

/* f. */
static void st_set_passcode_is_activity(void)
{
    idlelock_config cfg;
    idlelock *a = NULL;
    idlelock_snapshot s;
    uint64_t token = 0;
    int st, locked;
    st_fresh("steps-f.store");
    *st_clock = 10 * HOUR;
    st_config(&cfg, 0, 0);
    cfg.idle_after_ms = 5 * MINUTE;
    CHECK_ST(idlelock_create(&cfg, &a), IDLELOCK_OK, "steps f: create");
    if (a == NULL) return;
    CHECK_ST(idlelock_start(a, NULL), IDLELOCK_OK, "steps f: start");
    CHECK_ST(idlelock_set_passcode(a, RIGHT, strlen(RIGHT)), IDLELOCK_OK, "steps f: set_passcode");
    *st_clock += 4 * MINUTE;
    CHECK_ST(idlelock_biometric_begin(a, IDLELOCK_BIOMETRIC_ENABLE, &token, st_secret, IDLELOCK_AUTH_SECRET_BYTES,
                                      NULL),
             IDLELOCK_OK, "steps f: begin ENABLE (its sheet defers the idle lock)");
    *st_clock += 90000; /* the idle deadline passed under the sheet */
    CHECK(snap(a).state == IDLELOCK_STATE_UNLOCKED, "steps f: the sheet defers the idle lock");
    st = idlelock_set_passcode(a, "1357", 4);
    s = snap(a);
    if (st == IDLELOCK_OK)
        CHECK_EQ(s.last_activity_ms, *st_clock, "steps f: last activity after idlelock_set_passcode (activity)");
    locked = s.state != IDLELOCK_STATE_UNLOCKED;
    idlelock_destroy(a);
    /* The app restarts (lock_on_start 0, a device key): it finds the state
     * the handle was left in. */
    *st_clock += 1000;
    a = NULL;
    CHECK_ST(idlelock_create(&cfg, &a), IDLELOCK_OK, "steps f: create after the restart");
    if (a == NULL) return;
    CHECK_ST(idlelock_start(a, NULL), IDLELOCK_OK, "steps f: start after the restart");
    CHECK(!locked || snap(a).state != IDLELOCK_STATE_UNLOCKED,
          "steps f: set_passcode (%s) left the session LOCKED, but the lock was not saved: the restarted "
          "process is UNLOCKED", sname(st));
    idlelock_destroy(a);
}

/* g. Each handle has its own clock here (no step involved). */
static int64_t st_clock_a, st_clock_b;
static idlelock *st_put_handle, *st_off_handle;
static int st_put_status, st_off_status;

static int64_t st_read_own(void *ctx)
{
    return *(const int64_t *)ctx;
}

static void *st_put_thread(void *arg)
{
    (void)arg;
    st_put_status = idlelock_secret_put(st_put_handle, "k", (const uint8_t *)"v", 1);
    return NULL;
}

static void *st_off_thread(void *arg)
{
    (void)arg;
    st_off_status = idlelock_disable_biometrics(st_off_handle);
    return NULL;
}

static void st_secret_put_answers_from_the_state_it_leaves(void)
{
    char lock_path[220];
    idlelock_config cfg;
    idlelock *a = NULL, *b = NULL;
    int round, both = 0;
    st_fresh("steps-g.store");
    snprintf(lock_path, sizeof lock_path, "%s.lock", st_path);
    make_config(&cfg, st_path, 10, 1, 1);
    cfg.idle_after_ms = 5 * MINUTE;
    cfg.clock = st_read_own;
    st_clock_a = st_clock_b = 10 * HOUR;
    cfg.clock_ctx = &st_clock_a;
    CHECK_ST(idlelock_create(&cfg, &a), IDLELOCK_OK, "steps g: create a");
    if (a == NULL) return;
    CHECK_ST(idlelock_set_passcode(a, RIGHT, strlen(RIGHT)), IDLELOCK_OK, "steps g: set_passcode");
    cfg.clock_ctx = &st_clock_b;
    CHECK_ST(idlelock_create(&cfg, &b), IDLELOCK_OK, "steps g: create b (another window)");
    if (b == NULL) {
        idlelock_destroy(a);
        return;
    }
    CHECK_ST(idlelock_start(b, NULL), IDLELOCK_OK, "steps g: start b");
    st_put_handle = a;
    st_off_handle = b;
    for (round = 0; round < 20; round++) {
        idlelock_snapshot s;
        uint64_t token = 0;
        pthread_t put, off;
        int fd;
        if (snap(a).state != IDLELOCK_STATE_UNLOCKED)
            CHECK_ST(unlock_with(a, RIGHT, &s), IDLELOCK_OK, "steps g: unlock a");
        if (snap(b).state != IDLELOCK_STATE_UNLOCKED) (void)unlock_with(b, RIGHT, &s);
        CHECK_ST(st_enable(b), IDLELOCK_OK, "steps g: b turns the shortcut on");
        CHECK_ST(idlelock_require_unlocked(a), IDLELOCK_OK, "steps g: a looks at the store");
        st_clock_a += 4 * MINUTE;
        CHECK_ST(idlelock_biometric_begin(a, IDLELOCK_BIOMETRIC_ENABLE, &token, st_secret, IDLELOCK_AUTH_SECRET_BYTES,
                                          NULL),
                 IDLELOCK_OK, "steps g: a's ENABLE sheet");
        st_clock_a += 90000; /* the idle deadline passed under the sheet */
        if (snap(a).state != IDLELOCK_STATE_UNLOCKED) {
            CHECK(0, "steps g: the sheet does not defer the idle lock");
            break;
        }
        /* Both calls wait for the store lock, which the test holds: b's
         * has looked at the store first, a's looks while b's waits. */
        fd = open(lock_path, O_RDWR | O_CLOEXEC);
        if (fd < 0 || flock(fd, LOCK_EX) != 0) {
            CHECK(0, "steps g: the test could not take the store lock (errno %d)", errno);
            if (fd >= 0) close(fd);
            break;
        }
        pthread_create(&off, NULL, st_off_thread, NULL);
        sleep_ms(30);
        pthread_create(&put, NULL, st_put_thread, NULL);
        sleep_ms(30);
        flock(fd, LOCK_UN);
        close(fd);
        pthread_join(put, NULL);
        pthread_join(off, NULL);
        CHECK_ST(st_off_status, IDLELOCK_OK, "steps g: b turns the shortcut off");
        s = snap(a);
        if (st_put_status == IDLELOCK_OK && s.state != IDLELOCK_STATE_UNLOCKED) both++;
        (void)idlelock_biometric_finish(a, token, IDLELOCK_AUTH_CANCELLED, NULL, 0, NULL);
    }
    CHECK_EQ(both, 0, "steps g: rounds in which idlelock_secret_put answered IDLELOCK_OK while the call left the "
                      "session LOCKED");
    idlelock_destroy(b);
    idlelock_destroy(a);
}

/* h. A step seen while the store cannot be written (the store lock held
 * past the 2-s wait here; a full disk or a slow fsync does the same) is
 * told at a later call, not dropped: the step is in force for every
 * process of the sign-in as soon as the store can be written again. */
static void st_step_while_the_store_is_busy(void)
{
    idlelock *a;
    char lock_path[220];
    int fd;
    st_fresh("steps-h.store");
    snprintf(lock_path, sizeof lock_path, "%s.lock", st_path);
    *st_clock = 9 * HOUR;
    (void)join(spawn("steps h: sign-in", st_sign_in, NULL), NULL);
    a = st_open(HOUR, "idlelock_create (a, on the lock screen)");
    if (a == NULL) return;
    *st_clock = 10 * HOUR + 10 * MINUTE; /* the age closed 10 minutes ago */
    (void)snap(a);
    fd = open(lock_path, O_RDWR | O_CLOEXEC);
    if (fd < 0 || flock(fd, LOCK_EX) != 0) {
        CHECK(0, "steps h: the test could not take the store lock (errno %d)", errno);
        if (fd >= 0) close(fd);
        idlelock_destroy(a);
        return;
    }
    *st_clock = 9 * HOUR + 20 * MINUTE; /* a step back, seen by a only */
    (void)snap(a); /* waits 2 s for the store lock, then gives up */
    flock(fd, LOCK_UN);
    close(fd);
    *st_clock += 1000;
    (void)snap(a); /* the lock screen polls on */
    *st_clock = 9 * HOUR + 30 * MINUTE;
    (void)join(spawn("steps h: later", st_later, "steps h (a step seen while the store lock was held)"), NULL);
    idlelock_destroy(a);
}

void test_clock_steps_across_processes(void)
{
    char mapped[200];
    int fd;
    void *shared;
    store_path(mapped, sizeof mapped, "steps-clock");
    fd = open(mapped, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0 || ftruncate(fd, 4096) != 0) {
        CHECK(0, "steps: the shared clock's file (errno %d)", errno);
        if (fd >= 0) close(fd);
        return;
    }
    shared = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (shared == MAP_FAILED) {
        CHECK(0, "steps: mmap of the shared clock failed (errno %d)", errno);
        return;
    }
    st_clock = (volatile int64_t *)shared;
    st_secret = (uint8_t *)shared + 64;
    st_unengaged_handle();
    st_earlier_sign_in();
    st_step_during_right_passcode();
    st_step_during_wrong_passcode();
    st_unlock_answers_from_the_state_it_leaves();
    st_set_passcode_is_activity();
    st_secret_put_answers_from_the_state_it_leaves();
    st_step_while_the_store_is_busy();
    munmap(shared, 4096);
}
