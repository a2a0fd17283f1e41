/* SPDX-License-Identifier: MIT */
/*
 * fuzz_api.h: what the files of the fuzz_api harness share (see main.c for
 * what the harness does and its oracles): the limits of one input, the
 * state kept between its calls (state.c), and each file's functions.
 */
#ifndef IDLELOCK_FUZZ_API_H
#define IDLELOCK_FUZZ_API_H

#include <limits.h>
#include <sys/types.h>

#include "fuzz_common.h"

#define KDF_BUDGET 3
#define MAX_OPS 256
#define MAX_TOKENS 8
#define NAME_COUNT 6

/* ---------------------------------------------------------------- state */

typedef struct clock_state {
    int64_t now;
    unsigned long reads;
    /* The handle under test's readings (a second handle reads the same
     * time through clk_other): the last one, and how many were earlier
     * than the one before (a clock step back the handle saw; it expires
     * the biometric requests begun before it). */
    int64_t last_read;
    unsigned long steps;
} clock_state;

typedef struct fake_auth {
    int32_t available;
    int32_t fail_store;
    int32_t answer;        /* IDLELOCK_AUTH_* or an unknown code */
    int32_t bad_len;       /* report an *out_len other than 32 */
    int32_t corrupt;       /* hand back a secret that does not open the wrap */
    int32_t reenter;       /* 0 none, 1 snapshot_get, 2 lock, 3 touch during load_secret */
    int32_t has_secret;
    uint8_t secret[IDLELOCK_AUTH_SECRET_BYTES];
} fake_auth;

typedef struct model_entry {
    int present;
    size_t len;
    uint8_t *value;
} model_entry;

extern clock_state clk;
extern clock_state clk_other;        /* the second handles' clock context: clk's time */
extern fake_auth fauth;
extern idlelock *H;                  /* the handle under test */
extern int max_attempts_cfg;
extern int kdf_left;
extern int reentrant_listener;       /* a listener that can change state */
extern int model_valid;
extern model_entry model[NAME_COUNT];
extern uint64_t tokens[MAX_TOKENS];
extern uint64_t prompts[MAX_TOKENS];
extern int prompts_left_open;        /* prompts opened that no slot keeps (never ended) */
extern uint64_t last_prompt_ended;
extern int in_load_secret;
extern int listener_kind[MAX_TOKENS];
extern uint64_t last_seq;
extern uint64_t listener_last_seq[MAX_TOKENS];
extern int listener_heard[MAX_TOKENS];
extern char store_path[256];
extern char store2_path[256];
extern char folder_path[300];        /* a folder where a store path is expected */
extern uint8_t last_passcode[IDLELOCK_PASSCODE_MAX_BYTES];
extern size_t last_passcode_len;
extern uint8_t saved_store[1 << 17];
extern ssize_t saved_store_len;
extern const char *const unlock_reason_text;
extern const uint8_t device_key[IDLELOCK_DEVICE_KEY_BYTES];
extern int trace;
extern int use_store_now;
extern int use_key_now;
extern int store_shared;

/* Fixed secret names: index 0..3 valid, 4 is 64 bytes (valid), 5 is 65
 * bytes (invalid). */
const char *name_of(int i);

/* ------------------------------------------------------ callbacks.c */

int64_t fuzz_clock(void *ctx);
int32_t auth_is_available(void *ctx);
int32_t auth_store_secret(void *ctx, const uint8_t *secret, size_t len);
int32_t auth_load_secret(void *ctx, const char *reason, uint8_t *out, size_t cap, size_t *out_len);
int32_t auth_delete_secret(void *ctx);
/* An authenticator of the four auth_* callbacks, steered by `fauth`. */
void fake_authenticator(idlelock_authenticator *auth);
void listener(void *ctx, const idlelock_snapshot *s);
void listener_other(void *ctx, const idlelock_snapshot *s);

/* ---------------------------------------------------- arguments.c */

/* An `out` argument chosen by the input. *bad is set when its size is one
 * the header calls invalid. The caller frees the result. */
typedef struct out_arg {
    idlelock_snapshot *p;
    size_t alloc;
    uint32_t size;
    int bad;
} out_arg;

typedef struct pass_arg {
    const char *p;
    size_t len;
    uint8_t *owned;
    int bad;   /* the header calls these arguments invalid */
    int kdf;   /* would reach Argon2id (valid arguments) */
} pass_arg;

out_arg make_out(reader *r);
pass_arg make_pass(reader *r, int for_set);

/* ------------------------------------------------------ oracles.c */

void check_deadlines(const idlelock_snapshot *s, size_t size);
/* Checks a call's `out` against its status and frees it. */
void finish_out(out_arg *o, int st, const char *what);
/* snapshot_get of the handle under test, checked. */
idlelock_snapshot snap_now(void);
void check_status(int st, const char *what);

/* A call with bad arguments: must be INVALID_ARGUMENT and change nothing. */
#define EXPECT_INVALID(call, what)                                                                 \
    do {                                                                                           \
        idlelock_snapshot before_ = snap_now(), after_;                                            \
        before_ = snap_now(); /* after any listener a judgment woke */                             \
        int st_ = (call);                                                                          \
        REQUIRE(st_ == IDLELOCK_ERR_INVALID_ARGUMENT, "%s returned %d, expected INVALID_ARGUMENT", \
                what, st_);                                                                        \
        check_status(st_, what);                                                                   \
        after_ = snap_now();                                                                       \
        REQUIRE(memcmp(&before_, &after_, sizeof before_) == 0, "%s changed the snapshot", what);  \
    } while (0)

/* ------------------------------------- the other areas of the API */

/* ---------------------------------------------- biometric_pair.c (1.2) */

extern int64_t pair_cap;             /* the handle's prompt_cap_ms */
void pair_reset(void);
/* A sign-out, a new passcode or disable_biometrics voided every request. */
void pair_void_all(void);
/* A new shortcut went on: the UNLOCK requests begun under another are void. */
void pair_shortcut_replaced(void);
/* Some open request defers the idle rule in the snapshot numbered `seq`
 * (its prompt is live: begun on an unlocked session, with no lock and no
 * void heard before that snapshot; not expired). */
int pair_defers(uint64_t seq);
/* Unsubscribes the harness's observer once no request can defer. */
void pair_observer_tidy(void);
void biometric_pair_ops(reader *r);
void recent_auth_op(reader *r);

void tamper_store(reader *r);       /* tamper_store.c */
void destroy_in_delivery(reader *r); /* destroy_in_delivery.c */
void second_handle(reader *r);      /* second_handle.c */
void null_handle_calls(reader *r);  /* null_handle.c */
void run_ops(reader *r, int use_store); /* ops.c: one input's calls */

#endif
