/* SPDX-License-Identifier: MIT */
/*
 * policies.c: the 1.2 passcode policies kept in the store hold for every
 * handle of the sign-in at once, not only for each handle on its own.
 *
 * Regression (issue 13, found by the review of the two-phase pair): with
 * biometric_max_uses 1 and two handles on one store, two biometric
 * finishes started together both unlocked in 40 of 40 rounds. Each handle
 * judged the policy against the count it had read without the store lock;
 * the count was then raised under the lock without asking again. The
 * policy is now judged again when the success is applied, under the store
 * lock, with the count of every handle and process.
 */
#include "harness.h"

#include <pthread.h>

#define RACE_ROUNDS 40

struct finisher {
    idlelock *lock;
    uint64_t token;
    const uint8_t *secret;
    pthread_barrier_t *start;
    int status;
};

static void *finish_together(void *arg)
{
    struct finisher *f = arg;
    pthread_barrier_wait(f->start);
    f->status = idlelock_biometric_finish(f->lock, f->token, IDLELOCK_AUTH_OK, f->secret,
                                          IDLELOCK_AUTH_SECRET_BYTES, NULL);
    return NULL;
}

static idlelock *open_with_max_uses(const char *path, int32_t max_uses)
{
    idlelock_config cfg;
    idlelock *h = NULL;
    make_config(&cfg, path, 10, 0, 1);
    cfg.biometric_max_uses = max_uses;
    CHECK_ST(idlelock_create(&cfg, &h), IDLELOCK_OK, "idlelock_create (biometric_max_uses 1)");
    if (h != NULL) CHECK_ST(idlelock_start(h, NULL), IDLELOCK_OK, "idlelock_start");
    return h;
}

/* biometric_max_uses 1: of two biometric finishes from two handles started
 * at the same moment after a passcode entry, exactly one unlocks; the
 * other is refused (LOCK_UNAVAILABLE) and the passcode is then required. */
static void test_biometric_uses_shared(void)
{
    char path[256];
    uint8_t secret[IDLELOCK_AUTH_SECRET_BYTES];
    idlelock *a, *b;
    uint64_t token;
    int round, both = 0, neither = 0;

    store_path(path, sizeof path, "policies-max-uses");
    a = open_with_max_uses(path, 1);
    if (a == NULL) return;
    CHECK_ST(idlelock_set_passcode(a, RIGHT, strlen(RIGHT)), IDLELOCK_OK, "idlelock_set_passcode");
    CHECK_ST(idlelock_biometric_begin(a, IDLELOCK_BIOMETRIC_ENABLE, &token, secret, sizeof secret, NULL),
             IDLELOCK_OK, "idlelock_biometric_begin (ENABLE)");
    CHECK_ST(idlelock_biometric_finish(a, token, IDLELOCK_AUTH_OK, NULL, 0, NULL), IDLELOCK_OK,
             "idlelock_biometric_finish (ENABLE)");
    b = open_with_max_uses(path, 1);
    if (b == NULL) {
        idlelock_destroy(a);
        return;
    }
    for (round = 0; round < RACE_ROUNDS; round++) {
        pthread_barrier_t start;
        pthread_t ta, tb;
        struct finisher fa = {a, 0, secret, &start, -1}, fb = {b, 0, secret, &start, -1};
        CHECK_ST(idlelock_unlock(a, RIGHT, strlen(RIGHT), NULL), IDLELOCK_OK, "passcode unlock (the count starts again)");
        CHECK_ST(idlelock_lock(a, NULL), IDLELOCK_OK, "idlelock_lock a");
        CHECK_ST(idlelock_lock(b, NULL), IDLELOCK_OK, "idlelock_lock b");
        if (idlelock_biometric_begin(a, IDLELOCK_BIOMETRIC_UNLOCK, &fa.token, NULL, 0, NULL) != IDLELOCK_OK ||
            idlelock_biometric_begin(b, IDLELOCK_BIOMETRIC_UNLOCK, &fb.token, NULL, 0, NULL) != IDLELOCK_OK) {
            CHECK(0, "round %d: biometric begin refused: %s", round, idlelock_last_error());
            break;
        }
        pthread_barrier_init(&start, NULL, 2);
        pthread_create(&ta, NULL, finish_together, &fa);
        pthread_create(&tb, NULL, finish_together, &fb);
        pthread_join(ta, NULL);
        pthread_join(tb, NULL);
        pthread_barrier_destroy(&start);
        if (fa.status == IDLELOCK_OK && fb.status == IDLELOCK_OK) both++;
        if (fa.status != IDLELOCK_OK && fb.status != IDLELOCK_OK) neither++;
        if (fa.status != IDLELOCK_OK)
            CHECK_ST(fa.status, IDLELOCK_ERR_LOCK_UNAVAILABLE, "the refused finish (handle a)");
        if (fb.status != IDLELOCK_OK)
            CHECK_ST(fb.status, IDLELOCK_ERR_LOCK_UNAVAILABLE, "the refused finish (handle b)");
        CHECK(snap(a).is_passcode_required == 1 && snap(b).is_passcode_required == 1,
              "round %d: after biometric_max_uses (1) biometric unlock both handles require the passcode", round);
    }
    CHECK(both == 0, "biometric_max_uses 1: both handles' biometric finishes unlocked in %d of %d rounds", both,
          RACE_ROUNDS);
    CHECK(neither == 0, "neither finish unlocked in %d of %d rounds (one must)", neither, RACE_ROUNDS);
    memset(secret, 0, sizeof secret); /* a test's secret: no need for sodium_memzero */
    idlelock_destroy(b);
    idlelock_destroy(a);
}

void test_policies(void)
{
    test_biometric_uses_shared();
}
