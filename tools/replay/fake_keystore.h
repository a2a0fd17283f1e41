/* SPDX-License-Identifier: MIT */
/*
 * fake_keystore.h: a fake host keystore for libidlelock's biometric
 * shortcut, for tests and the replay tool.
 *
 * It implements the four callbacks of idlelock_authenticator (see
 * "Biometric shortcut" in include/idlelock.h) over a plain struct, with no
 * platform code and no prompt: the test sets what the next biometric check
 * answers and reads back what the library asked for.
 *
 *   fake_keystore ks;
 *   idlelock_authenticator auth;
 *   fake_keystore_init(&ks);                  available, no item, next OK
 *   fake_keystore_authenticator(&ks, &auth);
 *   cfg.authenticator = &auth;                copied by idlelock_create
 *   ...
 *   ks.next_answer = IDLELOCK_AUTH_CANCELLED; the next check is cancelled
 *
 * The keystore belongs to the host, not to the library: keep one struct
 * alive across idlelock_destroy and idlelock_create to model a process that
 * ended and came back (the item is still in the keystore). `ks` must stay
 * valid (and not move) until the last handle using it is destroyed.
 *
 * Behaviour of the callbacks:
 *   is_available   returns `available` (0 or 1).
 *   store_secret   keeps the 32 bytes as the item, replacing any earlier one.
 *                  Fails (returns -1, item unchanged) when `available` is 0
 *                  (a real keystore cannot make a biometry-bound item with
 *                  nothing enrolled), when `fail_store` is set, or when the
 *                  length is not IDLELOCK_AUTH_SECRET_BYTES.
 *   load_secret    "runs the check": answers `next_answer` once, then
 *                  `next_answer` goes back to IDLELOCK_AUTH_OK. An OK answer
 *                  releases the item when there is one and `available` is 1,
 *                  and reports IDLELOCK_AUTH_UNAVAILABLE otherwise (no item,
 *                  no enrolment). Any other answer (FAILED, CANCELLED,
 *                  UNAVAILABLE, or a code the library does not know) is
 *                  returned as is, with *out_len = 0 and `out` untouched.
 *   delete_secret  forgets the item (wiped); returns 0, also when there is
 *                  none.
 * Every callback counts its calls. None of them calls into the library, so
 * the fake is safe on any thread that owns it; it takes no lock, so give
 * each concurrently used handle its own fake, or serialise the calls.
 *
 * fake_keystore_change_enrolment() models a new biometric enrolment that
 * invalidates the old item: the stored bytes are replaced by different ones,
 * so the next release hands the library a secret that does not open its
 * wrap.
 *
 * Header-only: every function is `static inline`, so a file that includes
 * this and uses only some of them compiles cleanly under
 * -std=c99 -Wall -Wextra -pedantic -Werror. No build rule is needed.
 */
#ifndef FAKE_KEYSTORE_H
#define FAKE_KEYSTORE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "idlelock.h"

/* The fake keystore. Set the first three fields freely between calls; the
 * item and the counters are kept by the callbacks. */
typedef struct fake_keystore {
    int32_t available;      /* 1: a biometric check can run (is_available) */
    int32_t next_answer;    /* IDLELOCK_AUTH_* the next load_secret answers */
    int32_t fail_store;     /* 1: store_secret fails */
    int32_t has_secret;     /* 1 while an item is stored */
    uint8_t secret[IDLELOCK_AUTH_SECRET_BYTES]; /* the item's bytes */
    unsigned long available_calls; /* is_available calls */
    unsigned long store_calls;     /* store_secret calls, failed ones too */
    unsigned long load_calls;      /* load_secret calls (prompts shown) */
    unsigned long delete_calls;    /* delete_secret calls */
    unsigned long enrolment_changes; /* fake_keystore_change_enrolment calls */
} fake_keystore;

/* Available, no item, next answer IDLELOCK_AUTH_OK, counters at 0. */
static inline void fake_keystore_init(fake_keystore *ks)
{
    memset(ks, 0, sizeof *ks);
    ks->available = 1;
    ks->next_answer = IDLELOCK_AUTH_OK;
}

/* Overwrite the item's bytes (a fake, but keep the habit). */
static inline void fake_keystore_wipe(fake_keystore *ks)
{
    volatile uint8_t *p = ks->secret;
    size_t i;
    for (i = 0; i < sizeof ks->secret; i++)
        p[i] = 0;
    ks->has_secret = 0;
}

static inline int32_t fake_keystore_is_available(void *ctx)
{
    fake_keystore *ks = (fake_keystore *)ctx;
    ks->available_calls++;
    return ks->available ? 1 : 0;
}

static inline int32_t fake_keystore_store_secret(void *ctx, const uint8_t *secret,
                                                 size_t len)
{
    fake_keystore *ks = (fake_keystore *)ctx;
    ks->store_calls++;
    if (!ks->available || ks->fail_store || secret == NULL ||
        len != IDLELOCK_AUTH_SECRET_BYTES)
        return -1;
    memcpy(ks->secret, secret, IDLELOCK_AUTH_SECRET_BYTES);
    ks->has_secret = 1;
    return 0;
}

static inline int32_t fake_keystore_load_secret(void *ctx, const char *reason,
                                                uint8_t *out, size_t cap,
                                                size_t *out_len)
{
    fake_keystore *ks = (fake_keystore *)ctx;
    int32_t answer = ks->next_answer;
    (void)reason;
    ks->load_calls++;
    ks->next_answer = IDLELOCK_AUTH_OK;
    if (out_len != NULL)
        *out_len = 0;
    if (answer != IDLELOCK_AUTH_OK)
        return answer;
    if (!ks->available || !ks->has_secret)
        return IDLELOCK_AUTH_UNAVAILABLE;
    if (out == NULL || out_len == NULL || cap < IDLELOCK_AUTH_SECRET_BYTES)
        return IDLELOCK_AUTH_FAILED;
    memcpy(out, ks->secret, IDLELOCK_AUTH_SECRET_BYTES);
    *out_len = IDLELOCK_AUTH_SECRET_BYTES;
    return IDLELOCK_AUTH_OK;
}

static inline int32_t fake_keystore_delete_secret(void *ctx)
{
    fake_keystore *ks = (fake_keystore *)ctx;
    ks->delete_calls++;
    fake_keystore_wipe(ks);
    return 0;
}

/* Fill `out` (size set, reserved0 0) with the four callbacks over `ks`. */
static inline void fake_keystore_authenticator(fake_keystore *ks,
                                               idlelock_authenticator *out)
{
    memset(out, 0, sizeof *out);
    out->size = (uint32_t)sizeof *out;
    out->ctx = ks;
    out->is_available = fake_keystore_is_available;
    out->store_secret = fake_keystore_store_secret;
    out->load_secret = fake_keystore_load_secret;
    out->delete_secret = fake_keystore_delete_secret;
}

/* A new biometric enrolment: the item's bytes become different ones (each
 * byte complemented, so no byte stays the same), as when the platform
 * invalidates the old item and another secret sits under the same name.
 * Without an item it only counts. */
static inline void fake_keystore_change_enrolment(fake_keystore *ks)
{
    size_t i;
    ks->enrolment_changes++;
    if (!ks->has_secret)
        return;
    for (i = 0; i < sizeof ks->secret; i++)
        ks->secret[i] = (uint8_t)~ks->secret[i];
}

#endif /* FAKE_KEYSTORE_H */
