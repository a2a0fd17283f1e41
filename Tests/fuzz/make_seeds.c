/* SPDX-License-Identifier: MIT */
/*
 * make_seeds.c: writes the fuzzers' seed corpus.
 *
 *   make_seeds API_DIR STORE_DIR
 *
 * STORE_DIR receives store files made by the library itself (through the
 * public API, at the Argon2id floor), each behind the control byte that
 * fuzz_store.c reads: a locked store without a device key, a locked-out one,
 * one with a device key and the biometric shortcut on, one with a device
 * key saved unlocked, one with an escalating delay running; each also as
 * `mark-*` (its `<store>.lock`, the rollback mark, in front: fuzz_store.c)
 * and `mark-older-*` (that mark in front of the store as it was before its
 * last writes: an older copy put back). API_DIR receives call sequences in
 * fuzz_api's input format (a few typical sessions and a tour of bad
 * arguments).
 *
 * The committed corpus (Tests/fuzz/corpus/) was made with this program
 * (`make fuzz-seeds` remakes it): store files carry random salts, nonces and
 * ids, so each run writes different bytes of the same shape.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "idlelock.h"

#include "fuzz_store_seed.h"

static int64_t now_ms = 5000;
static uint8_t kept_secret[32];

static int64_t seed_clock(void *ctx)
{
    (void)ctx;
    return now_ms;
}

static int32_t a_available(void *ctx)
{
    (void)ctx;
    return 1;
}

static int32_t a_store(void *ctx, const uint8_t *secret, size_t len)
{
    (void)ctx;
    if (len != sizeof kept_secret) return -1;
    memcpy(kept_secret, secret, len);
    return 0;
}

static int32_t a_load(void *ctx, const char *reason, uint8_t *out, size_t cap, size_t *out_len)
{
    (void)ctx;
    (void)reason;
    if (cap < sizeof kept_secret) return IDLELOCK_AUTH_FAILED;
    memcpy(out, kept_secret, sizeof kept_secret);
    *out_len = sizeof kept_secret;
    return IDLELOCK_AUTH_OK;
}

static int32_t a_delete(void *ctx)
{
    (void)ctx;
    return 0;
}

static void die(const char *what, int st)
{
    fprintf(stderr, "make_seeds: %s: %d %s (%s)\n", what, st, idlelock_status_name(st), idlelock_last_error());
    exit(1);
}

#define OK(call, what)                      \
    do {                                    \
        int st_ = (call);                   \
        if (st_ != IDLELOCK_OK) die(what, st_); \
    } while (0)

static void write_seed(const char *dir, const char *name, const uint8_t *prefix, size_t np, const uint8_t *body,
                       size_t nb)
{
    char path[512];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    f = fopen(path, "wb");
    if (f == NULL || fwrite(prefix, 1, np, f) != np || (nb > 0 && fwrite(body, 1, nb, f) != nb) || fclose(f) != 0) {
        fprintf(stderr, "make_seeds: cannot write %s (errno %d)\n", path, errno);
        exit(1);
    }
}

static uint8_t *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    uint8_t *buf = malloc(1 << 20);
    if (f == NULL || buf == NULL) {
        fprintf(stderr, "make_seeds: cannot read %s\n", path);
        exit(1);
    }
    *n = fread(buf, 1, 1 << 20, f);
    fclose(f);
    return buf;
}

/* Makes one store with the library and writes it behind control byte(s). */
static void store_seed(const char *tmp, const char *out_dir, const char *name, int keyed, int bio, int lockout,
                       int unlocked, int delayed, const uint8_t *ctls, size_t nctl)
{
    char path[512], lockp[600];
    idlelock_config cfg;
    idlelock_authenticator auth;
    idlelock *h = NULL;
    idlelock_snapshot s;
    uint8_t *bytes, *older, *lock;
    uint8_t mark[160];
    size_t n, i, older_n, lock_n;
    snprintf(path, sizeof path, "%s/%s", tmp, name);
    snprintf(lockp, sizeof lockp, "%s.lock", path);
    idlelock_config_init(&cfg, sizeof cfg);
    cfg.idle_after_ms = 60000;
    cfg.kdf_opslimit = IDLELOCK_KDF_OPSLIMIT_MIN;
    cfg.kdf_memlimit = IDLELOCK_KDF_MEMLIMIT_MIN;
    cfg.store_path = path;
    cfg.clock = seed_clock;
    cfg.max_attempts = lockout ? 2 : 5;
    if (delayed) { /* one wrong passcode starts a minute's delay, saved with the store */
        static const idlelock_delay_step steps[] = {{1, 0, 60000}, {3, 0, 3600000}};
        cfg.delay_schedule = steps;
        cfg.delay_schedule_len = 2;
    }
    if (keyed) {
        cfg.device_key = fuzz_seed_device_key;
        cfg.device_key_len = 32;
        cfg.lock_on_start = 0;
    }
    if (bio) {
        memset(&auth, 0, sizeof auth);
        auth.size = sizeof auth;
        auth.is_available = a_available;
        auth.store_secret = a_store;
        auth.load_secret = a_load;
        auth.delete_secret = a_delete;
        cfg.authenticator = &auth;
        cfg.unlock_reason = "seed";
    }
    OK(idlelock_create(&cfg, &h), "create");
    OK(idlelock_secret_put(h, fuzz_seed_secret_name, (const uint8_t *)"seed-token-value", 16), "put token");
    OK(idlelock_secret_put(h, "profile", (const uint8_t *)"{\"name\":\"seed\"}", 15), "put profile");
    OK(idlelock_set_passcode(h, fuzz_seed_passcode, strlen(fuzz_seed_passcode)), "set_passcode");
    older = slurp(path, &older_n); /* before the writes below */
    OK(idlelock_secret_put(h, "empty", NULL, 0), "put empty");
    if (bio) OK(idlelock_enable_biometrics(h), "enable_biometrics");
    memset(&s, 0, sizeof s);
    s.size = sizeof s;
    if (!unlocked) OK(idlelock_lock(h, &s), "lock");
    if (delayed) (void)idlelock_unlock(h, "wrong-one", 9, &s);
    if (lockout) {
        (void)idlelock_unlock(h, "wrong-one", 9, &s);
        (void)idlelock_unlock(h, "wrong-two", 9, &s);
        if (s.state != IDLELOCK_STATE_LOCKED_OUT) die("lockout", s.state);
    }
    idlelock_destroy(h);
    bytes = slurp(path, &n);
    /* The mark, padded to the two slots fuzz_store.c takes from the front. */
    lock = slurp(lockp, &lock_n);
    memset(mark, 0, sizeof mark);
    memcpy(mark, lock, lock_n < sizeof mark ? lock_n : sizeof mark);
    free(lock);
    for (i = 0; i < nctl; i++) {
        uint8_t prefix[33 + sizeof mark];
        char fname[160];
        size_t np = 1;
        prefix[0] = ctls[i];
        if (ctls[i] & 8) {
            memcpy(prefix + 1, kept_secret, 32);
            np = 33;
        }
        snprintf(fname, sizeof fname, "%s-%02x", name, ctls[i]);
        write_seed(out_dir, fname, prefix, np, bytes, n);
        memcpy(prefix + np, mark, sizeof mark);
        snprintf(fname, sizeof fname, "mark-%s-%02x", name, ctls[i]);
        write_seed(out_dir, fname, prefix, np + sizeof mark, bytes, n);
        snprintf(fname, sizeof fname, "mark-older-%s-%02x", name, ctls[i]);
        write_seed(out_dir, fname, prefix, np + sizeof mark, older, older_n);
    }
    free(bytes);
    free(older);
    unlink(path);
    unlink(lockp);
}

/* ------------------------------------------------- fuzz_api sequences */

typedef struct seq {
    uint8_t b[4096];
    size_t n;
} seq;

static void put8(seq *q, unsigned v) { q->b[q->n++] = (uint8_t)v; }
static void put16(seq *q, unsigned v) { put8(q, v & 0xff); put8(q, (v >> 8) & 0xff); }
static void put32(seq *q, uint32_t v) { put16(q, v & 0xffff); put16(q, v >> 16); }
static void putstr(seq *q, const char *s) { size_t k = strlen(s); memcpy(q->b + q->n, s, k); q->n += k; }

/* The op numbers and argument bytes of fuzz_api (fuzz_api/ops.c). */
enum { OP_TOUCH, OP_INACTIVE, OP_BACKGROUND, OP_FOREGROUND, OP_CHECK, OP_LOCK, OP_START, OP_SNAPSHOT,
       OP_CLOCK, OP_SET, OP_UNLOCK, OP_AUTH, OP_BIO_ON, OP_BIO_OFF, OP_BIO_UNLOCK, OP_DISABLE, OP_SUB, OP_UNSUB,
       OP_PUT, OP_GET, OP_REMOVE, OP_GATE, OP_NULLS, OP_SECOND, OP_TAMPER, OP_BADOUT,
       OP_PAIR = 30, OP_RECENT = 32 };
/* The pair's own selector (fuzz_api/biometric_pair.c). */
enum { PAIR_BEGIN_UNLOCK = 0, PAIR_BEGIN_ENABLE = 2, PAIR_BAD_BEGIN = 3, PAIR_FINISH = 4, PAIR_FINISH_CORRUPT = 6,
       PAIR_FINISH_FAILURE = 7, PAIR_BAD_FINISH = 8 };

static unsigned delay;

static void header(seq *q, int store, int key, int auth, int idle_idx, int bg_idx, int attempts)
{
    q->n = 0;
    put8(q, (unsigned)(store | key << 1 | auth << 2 | idle_idx << 3 | bg_idx << 5));
    put32(q, 1000 + 5000);       /* clock starts at 5000 */
    put8(q, (unsigned)(attempts - 1)); /* max_attempts = 1 + b % 5 */
    put8(q, 1);                  /* lock_on_start */
    put8(q, delay);              /* escalating delay: 0 none, 1..3 steps */
}

static void ev(seq *q, int op) { put8(q, (unsigned)op); put8(q, 1); /* a valid out */ }
static void tick(seq *q, unsigned ms) { put8(q, OP_CLOCK); put8(q, 3); put16(q, ms); }
static void set_pass(seq *q, const char *p) { put8(q, OP_SET); put8(q, 6); put8(q, (unsigned)strlen(p)); putstr(q, p); }
static void unlock_last(seq *q) { put8(q, OP_UNLOCK); put8(q, 4); put8(q, 1); }
static void unlock_with(seq *q, const char *p) { put8(q, OP_UNLOCK); put8(q, 6); put8(q, (unsigned)strlen(p)); putstr(q, p); put8(q, 1); }
static void put_secret(seq *q, int name, const char *v) { put8(q, OP_PUT); put8(q, (unsigned)name); put8(q, 5); put8(q, (unsigned)strlen(v)); putstr(q, v); }
static void get_secret(seq *q, int name) { put8(q, OP_GET); put8(q, (unsigned)name); put8(q, 4); }

static void api_seeds(const char *dir)
{
    seq q;
    const uint8_t none = 0;
    (void)none;

    /* A day in the foreground: idle lock, unlock, absence, lock now. */
    header(&q, 0, 0, 0, 1, 0, 5);
    put_secret(&q, 0, "access-token");
    set_pass(&q, "1234abcd");
    ev(&q, OP_START);
    ev(&q, OP_TOUCH);
    tick(&q, 500);
    ev(&q, OP_CHECK);
    tick(&q, 2000);
    ev(&q, OP_CHECK);
    get_secret(&q, 0);
    unlock_with(&q, "0000x");
    unlock_last(&q);
    get_secret(&q, 0);
    ev(&q, OP_INACTIVE);
    tick(&q, 1000);
    ev(&q, OP_FOREGROUND);
    ev(&q, OP_BACKGROUND);
    tick(&q, 3000);
    ev(&q, OP_FOREGROUND);
    ev(&q, OP_LOCK);
    put8(&q, OP_GATE);
    put8(&q, OP_DISABLE);
    write_seed(dir, "day-in-foreground", q.b, q.n, NULL, 0);

    /* A store with a device key and the biometric shortcut. */
    header(&q, 1, 1, 1, 2, 2, 5);
    put_secret(&q, 0, "token-in-store");
    put_secret(&q, 1, "profile");
    set_pass(&q, "store-pass");
    put8(&q, OP_AUTH); put8(&q, 0);
    put8(&q, OP_BIO_ON);
    ev(&q, OP_LOCK);
    put8(&q, OP_BIO_UNLOCK); put8(&q, 1);
    get_secret(&q, 1);
    put8(&q, OP_TAMPER); put8(&q, 3);      /* remember the file */
    put_secret(&q, 2, "later");
    ev(&q, OP_BACKGROUND);
    tick(&q, 2500);
    ev(&q, OP_FOREGROUND);
    unlock_last(&q);
    put8(&q, OP_SECOND); put8(&q, 8); put8(&q, 2); put8(&q, 1); /* a second handle on the same store */
    put8(&q, OP_TAMPER); put8(&q, 4);      /* roll the file back */
    put8(&q, OP_GATE);
    get_secret(&q, 2);
    put8(&q, OP_BIO_OFF);
    put8(&q, OP_DISABLE);
    write_seed(dir, "store-device-key-biometrics", q.b, q.n, NULL, 0);

    /* A store that goes back a generation (issue 19): the file remembered,
     * written twice by the handle, then put back; with and without a
     * device key. */
    for (int key = 0; key <= 1; key++) {
        header(&q, 1, key, 0, 2, 2, 5);
        set_pass(&q, "roll-back");
        put_secret(&q, 0, "first");
        put8(&q, OP_TAMPER); put8(&q, 3);  /* remember the file */
        put_secret(&q, 0, "second");
        ev(&q, OP_LOCK);
        unlock_with(&q, "wrong-one");      /* a counted attempt, saved */
        put8(&q, OP_TAMPER); put8(&q, 4);  /* put the older copy back */
        put8(&q, OP_GATE);
        unlock_last(&q);
        get_secret(&q, 0);
        put8(&q, OP_DISABLE);
        put8(&q, OP_TAMPER); put8(&q, 4);  /* and after the sign-out */
        put8(&q, OP_GATE);
        write_seed(dir, key ? "store-rollback-device-key" : "store-rollback", q.b, q.n, NULL, 0);
    }

    /* A store without a device key, an escalating delay, locked out. */
    delay = 1;
    header(&q, 1, 0, 0, 1, 1, 2);
    delay = 0;
    put_secret(&q, 3, "v");
    set_pass(&q, "abcd");
    ev(&q, OP_LOCK);
    unlock_with(&q, "abce");
    unlock_with(&q, "abcf");     /* within the delay: RETRY_LATER */
    tick(&q, 100);
    unlock_with(&q, "abcg");
    get_secret(&q, 3);
    put8(&q, OP_TAMPER); put8(&q, 2); put32(&q, 60); put8(&q, 1);
    ev(&q, OP_SNAPSHOT);
    put8(&q, OP_DISABLE);
    write_seed(dir, "store-lockout", q.b, q.n, NULL, 0);

    /* Issue 26: a step back before the last activity while a delay runs,
     * read by a lock screen that polls (the step is seen once and carries
     * the delay over), then sign-ins following each other on one store
     * (generations continue), an older copy put back after the second. */
    delay = 1;
    header(&q, 1, 0, 0, 1, 1, 5);
    delay = 0;
    set_pass(&q, "first-in");
    ev(&q, OP_LOCK);
    unlock_with(&q, "wrong-a");
    tick(&q, 400);
    ev(&q, OP_CHECK);
    put8(&q, OP_CLOCK); put8(&q, 5); put16(&q, 3000); /* back 3 s, before the activity */
    for (int i = 0; i < 6; i++) {
        tick(&q, 100);
        ev(&q, OP_SNAPSHOT);
    }
    unlock_last(&q);
    put8(&q, OP_TAMPER); put8(&q, 3);  /* remember the first sign-in's file */
    put8(&q, OP_DISABLE);
    set_pass(&q, "second-in");          /* the next sign-in, above the mark */
    ev(&q, OP_LOCK);
    put8(&q, OP_TAMPER); put8(&q, 4);  /* the first sign-in's copy put back */
    put8(&q, OP_GATE);
    unlock_last(&q);
    write_seed(dir, "steps-and-sign-ins", q.b, q.n, NULL, 0);

    /* Listeners, clock steps and the biometric prompt calling back. */
    header(&q, 0, 0, 1, 1, 0, 5);
    put8(&q, OP_SUB); put8(&q, 0); put8(&q, 0);
    put8(&q, OP_SUB); put8(&q, 1); put8(&q, 1);
    put8(&q, OP_SUB); put8(&q, 2); put8(&q, 3);
    set_pass(&q, "pass1234");
    put8(&q, OP_AUTH); put8(&q, 0x80); put8(&q, 1); /* load_secret locks the session */
    put8(&q, OP_BIO_ON);
    put8(&q, OP_CLOCK); put8(&q, 5); put16(&q, 100);   /* backwards */
    ev(&q, OP_TOUCH);
    put8(&q, OP_BIO_UNLOCK); put8(&q, 1);
    put8(&q, OP_CLOCK); put8(&q, 6); put8(&q, 0);      /* INT64_MAX */
    ev(&q, OP_CHECK);
    put8(&q, OP_CLOCK); put8(&q, 6); put8(&q, 1);      /* INT64_MIN */
    ev(&q, OP_FOREGROUND);
    put8(&q, OP_UNSUB); put8(&q, 1);
    put8(&q, OP_UNSUB); put8(&q, 5); put8(&q, 0);
    put8(&q, OP_DISABLE);
    write_seed(dir, "listeners-clock-prompt", q.b, q.n, NULL, 0);

    /* The two-phase biometric pair (1.2) with no authenticator: an enable,
     * a corrupted release, a failure, a good unlock, the step-up check, an
     * expired request, bad arguments. */
    header(&q, 0, 0, 0, 1, 0, 5);
    set_pass(&q, "pair-pass");
    ev(&q, OP_START);
    put8(&q, OP_PAIR); put8(&q, PAIR_BEGIN_ENABLE); put8(&q, 0);
    put8(&q, OP_PAIR); put8(&q, PAIR_FINISH); put8(&q, 0);
    ev(&q, OP_LOCK);
    put8(&q, OP_PAIR); put8(&q, PAIR_BEGIN_UNLOCK); put8(&q, 1);
    put8(&q, OP_PAIR); put8(&q, PAIR_FINISH_CORRUPT); put8(&q, 1); put8(&q, 5); put8(&q, 3);
    put8(&q, OP_PAIR); put8(&q, PAIR_BEGIN_UNLOCK); put8(&q, 2);
    put8(&q, OP_PAIR); put8(&q, PAIR_FINISH_FAILURE); put8(&q, 2); put8(&q, 1);
    put8(&q, OP_PAIR); put8(&q, PAIR_BEGIN_UNLOCK); put8(&q, 3);
    put8(&q, OP_PAIR); put8(&q, PAIR_BAD_FINISH); put8(&q, 3); put8(&q, 2);
    tick(&q, 300);
    put8(&q, OP_PAIR); put8(&q, PAIR_FINISH); put8(&q, 3);
    put8(&q, OP_RECENT); put8(&q, 4);
    put8(&q, OP_PAIR); put8(&q, PAIR_BAD_BEGIN); put8(&q, 5); put8(&q, 7);
    put8(&q, OP_PAIR); put8(&q, PAIR_BEGIN_UNLOCK); put8(&q, 4);
    put8(&q, OP_CLOCK); put8(&q, 4); put32(&q, 200000); /* past prompt_cap_ms */
    put8(&q, OP_PAIR); put8(&q, PAIR_FINISH); put8(&q, 4);
    put8(&q, OP_BIO_OFF);
    put8(&q, OP_RECENT); put8(&q, 0);
    put8(&q, OP_DISABLE);
    write_seed(dir, "biometric-pair", q.b, q.n, NULL, 0);

    /* Issue 19, finding 8: several requests open on an unlocked session
     * (idle 5 s); one finish with a secret that does not open the wrap
     * turns the shortcut off, which voids the others: the idle deadline
     * then falls due with nothing deferring it (the library before the
     * fix kept them deferring it: "next deadline 114000 after the idle
     * lock 0"). Then requests expired by a clock step back and by a step
     * forward. */
    header(&q, 0, 0, 0, 2, 0, 5);
    set_pass(&q, "pair-pass");
    put8(&q, OP_PAIR); put8(&q, PAIR_BEGIN_ENABLE); put8(&q, 0);
    put8(&q, OP_PAIR); put8(&q, PAIR_FINISH); put8(&q, 0);
    put8(&q, OP_PAIR); put8(&q, PAIR_BEGIN_UNLOCK); put8(&q, 1);
    put8(&q, OP_PAIR); put8(&q, PAIR_BEGIN_UNLOCK); put8(&q, 2);
    put8(&q, OP_PAIR); put8(&q, PAIR_BEGIN_ENABLE); put8(&q, 3);
    tick(&q, 1000);
    put8(&q, OP_PAIR); put8(&q, PAIR_FINISH_CORRUPT); put8(&q, 1); put8(&q, 9); put8(&q, 2);
    tick(&q, 5000);
    ev(&q, OP_CHECK);
    put8(&q, OP_PAIR); put8(&q, PAIR_FINISH); put8(&q, 2);   /* voided */
    put8(&q, OP_PAIR); put8(&q, PAIR_FINISH); put8(&q, 3);   /* voided */
    unlock_last(&q);
    put8(&q, OP_PAIR); put8(&q, PAIR_BEGIN_ENABLE); put8(&q, 4);
    put8(&q, OP_PAIR); put8(&q, PAIR_FINISH); put8(&q, 4);
    put8(&q, OP_PAIR); put8(&q, PAIR_BEGIN_UNLOCK); put8(&q, 5);
    put8(&q, OP_CLOCK); put8(&q, 5); put16(&q, 10);          /* a step back of 10 ms */
    ev(&q, OP_SNAPSHOT);
    put8(&q, OP_PAIR); put8(&q, PAIR_FINISH); put8(&q, 5);   /* expired by the step */
    unlock_last(&q);
    put8(&q, OP_PAIR); put8(&q, PAIR_BEGIN_UNLOCK); put8(&q, 6);
    put8(&q, OP_CLOCK); put8(&q, 4); put32(&q, 200000);      /* a step forward past its life */
    ev(&q, OP_CHECK);
    put8(&q, OP_PAIR); put8(&q, PAIR_FINISH); put8(&q, 6);
    write_seed(dir, "pair-shortcut-off-voids-requests", q.b, q.n, NULL, 0);

    /* A tour of bad arguments. */
    header(&q, 0, 0, 0, 0, 0, 3);
    for (unsigned k = 0; k < 12; k++) { put8(&q, OP_NULLS); put8(&q, k); if (k == 7) put32(&q, 0x7fffffff); }
    put8(&q, OP_BADOUT); put8(&q, 0);
    put8(&q, OP_BADOUT); put8(&q, 1);
    put8(&q, OP_SET); put8(&q, 0); put8(&q, 1);         /* NULL, len 4 */
    put8(&q, OP_SET); put8(&q, 1); put8(&q, 0);         /* SIZE_MAX */
    put8(&q, OP_SET); put8(&q, 2); put16(&q, 7);        /* 1025 + 7 */
    put8(&q, OP_SET); put8(&q, 6); put8(&q, 5); putstr(&q, "ab\xc0\x80z"); /* overlong */
    put8(&q, OP_SET); put8(&q, 6); put8(&q, 3); putstr(&q, "abc"); /* 3 scalars */
    put8(&q, OP_UNLOCK); put8(&q, 6); put8(&q, 4); putstr(&q, "\xed\xa0\x80x"); put8(&q, 1); /* surrogate */
    put8(&q, OP_PUT); put8(&q, 5); put8(&q, 0);         /* 65-byte name */
    put8(&q, OP_PUT); put8(&q, 6); put8(&q, 0);         /* NULL name */
    put8(&q, OP_PUT); put8(&q, 0); put8(&q, 1); put8(&q, 9); /* NULL data, len > 0 */
    put8(&q, OP_PUT); put8(&q, 0); put8(&q, 2); put8(&q, 0); /* SIZE_MAX */
    put8(&q, OP_PUT); put8(&q, 0); put8(&q, 3);         /* 65537 */
    put8(&q, OP_PUT); put8(&q, 8); put8(&q, 3); putstr(&q, "\xff\xfe\xfd"); put8(&q, 0);
    put8(&q, OP_GET); put8(&q, 0); put8(&q, 1); put8(&q, 3);
    put8(&q, OP_GET); put8(&q, 0); put8(&q, 2);
    put8(&q, OP_GET); put8(&q, 7); put8(&q, 0);
    put8(&q, OP_REMOVE); put8(&q, 6);
    put8(&q, OP_SUB); put8(&q, 0); put8(&q, 7);
    put8(&q, OP_UNSUB); put8(&q, 3); put8(&q, 1);
    put8(&q, OP_SNAPSHOT); put8(&q, 5); put8(&q, 3);
    put8(&q, OP_TOUCH); put8(&q, 6);
    put8(&q, OP_LOCK); put8(&q, 7); put8(&q, 0);
    put8(&q, OP_CHECK); put8(&q, 3); put8(&q, 5);
    for (unsigned sel = 1; sel < 128; sel <<= 1) {
        put8(&q, OP_SECOND); put8(&q, sel); put8(&q, 2);
        for (int k = 0; k < 8; k++) put8(&q, (unsigned)k);
    }
    put8(&q, OP_SECOND); put8(&q, 0); put8(&q, 1); put8(&q, 9);   /* config size too small */
    put8(&q, OP_SECOND); put8(&q, 0); put8(&q, 0); put8(&q, 1); put8(&q, 0); put8(&q, 0); /* a non-zero tail */
    write_seed(dir, "bad-arguments", q.b, q.n, NULL, 0);
}

int main(int argc, char **argv)
{
    char tmp[] = "/tmp/idlelock-seeds-XXXXXX";
    static const uint8_t plain[] = {0x00, 0x01, 0x21, 0xa1, 0x61};
    static const uint8_t keyed_bio[] = {0x2e, 0x2a, 0x0b, 0x6e};
    static const uint8_t lockedout[] = {0x01, 0x21};
    static const uint8_t keyed_open[] = {0x06, 0x03, 0x26, 0x42};
    if (argc != 3) {
        fprintf(stderr, "usage: make_seeds API_DIR STORE_DIR\n");
        return 2;
    }
    if (mkdtemp(tmp) == NULL) {
        perror("mkdtemp");
        return 1;
    }
    mkdir(argv[1], 0755);
    mkdir(argv[2], 0755);
    store_seed(tmp, argv[2], "locked", 0, 0, 0, 0, 0, plain, sizeof plain);
    store_seed(tmp, argv[2], "device-key-biometrics", 1, 1, 0, 0, 0, keyed_bio, sizeof keyed_bio);
    store_seed(tmp, argv[2], "locked-out", 0, 0, 1, 0, 0, lockedout, sizeof lockedout);
    store_seed(tmp, argv[2], "device-key-unlocked", 1, 0, 0, 1, 0, keyed_open, sizeof keyed_open);
    store_seed(tmp, argv[2], "delayed", 0, 0, 0, 0, 1, plain, sizeof plain);
    api_seeds(argv[1]);
    rmdir(tmp);
    printf("make_seeds: wrote %s and %s\n", argv[1], argv[2]);
    return 0;
}
