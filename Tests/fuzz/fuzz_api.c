/*
 * fuzz_api.c: libFuzzer harness for libidlelock's C API.
 *
 * The input is read as a configuration followed by a sequence of API calls
 * with their arguments, all on one handle, with the handle's clock driven by
 * the input (small steps, large jumps, backwards steps, INT64_MIN/MAX).
 * Arguments include bad ones: NULL handles and pointers, wrong struct sizes
 * (a larger snapshot whose tail must come back zeroed, sizes past 4096),
 * huge lengths with small buffers, invalid UTF-8 passcodes and names,
 * unknown tokens, a second handle made from a fuzzed config (1.0 struct
 * sizes, non-zero tails, out-of-range values, escalating-delay schedules,
 * a watcher thread on the default clock). The 1.1 calls are in the mix
 * (lifecycle names per platform, prompt_begin/end, watch_start/stop, unlock
 * refused with RETRY_LATER during a delay). With a store,
 * the file can be deleted, truncated, flipped or rolled back between calls.
 * The biometric authenticator and the listeners are fakes steered by the
 * input; some of them call back into the library.
 *
 * Oracles (besides AddressSanitizer, UBSan and LeakSanitizer):
 *  - every status is a known code; a failure leaves a non-empty message;
 *  - arguments the header calls bad return IDLELOCK_ERR_INVALID_ARGUMENT and
 *    change nothing (the snapshot before and after, at the same clock
 *    reading, is identical); valid UTF-8 of an allowed size is never
 *    refused as INVALID_ARGUMENT (a differential check of UTF-8 validation);
 *  - snapshot fields are in range, seq never goes backwards, the tail of a
 *    larger snapshot is zeroed, listeners hear strictly increasing seq;
 *  - the secrets read back are the ones put (a model of name -> value), as
 *    long as the store was not tampered with;
 *  - a secret read or an open gate means the session is unlocked;
 *  - while present, unlocked and with no prompt open, the next deadline is
 *    not later than the idle lock.
 *
 * Argon2id runs at the floor (19 MiB, 2 passes) and at most KDF_BUDGET
 * calls per input may reach it, so one input stays in the tens of ms.
 */
#include <fcntl.h>
#include <limits.h>

#include "fuzz_common.h"

#define KDF_BUDGET 3
#define MAX_OPS 256
#define MAX_TOKENS 8
#define NAME_COUNT 6

/* ---------------------------------------------------------------- state */

typedef struct clock_state {
    int64_t now;
    unsigned long reads;
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

static clock_state clk;
static fake_auth fauth;
static idlelock *H;                  /* the handle under test */
static int max_attempts_cfg;
static int kdf_left;
static int reentrant_listener;       /* a listener that can change state */
static int model_valid;
static model_entry model[NAME_COUNT];
static uint64_t tokens[MAX_TOKENS];
static uint64_t prompts[MAX_TOKENS];
static uint64_t last_prompt_ended;
static int in_load_secret;
static void check_deadlines(const idlelock_snapshot *s, size_t size);
static int listener_kind[MAX_TOKENS];
static uint64_t last_seq;
static uint64_t listener_last_seq[MAX_TOKENS];
static int listener_heard[MAX_TOKENS];
static char store_path[256];
static char store2_path[256];
static uint8_t last_passcode[IDLELOCK_PASSCODE_MAX_BYTES];
static size_t last_passcode_len;
static uint8_t saved_store[1 << 17];
static ssize_t saved_store_len = -1;
static const char *const unlock_reason_text = "Unlock the fuzzer";

static const uint8_t device_key[IDLELOCK_DEVICE_KEY_BYTES] = {
    0x5a, 0x11, 0xe7, 0x03, 0x9c, 0x42, 0x81, 0x6f, 0x20, 0xd4, 0xbb, 0x17, 0x08, 0x66, 0xf1, 0x3e,
    0x94, 0x2d, 0x70, 0xc5, 0x1a, 0x8e, 0x53, 0xfa, 0x39, 0x07, 0xcc, 0x61, 0xb2, 0x4f, 0xd8, 0x25};

/* Fixed secret names: index 0..3 valid, 4 is 64 bytes (valid), 5 is 65
 * bytes (invalid). */
static const char *name_of(int i)
{
    static char n64[65], n65[66];
    static const char *const small[] = {"token", "profile", "a", "\xc3\xa9t\xc3\xa9"};
    if (n64[0] == '\0') {
        memset(n64, 'n', 64);
        memset(n65, 'm', 65);
    }
    if (i < 4) return small[i];
    return i == 4 ? n64 : n65;
}

/* --------------------------------------------------------- callbacks */

static int64_t fuzz_clock(void *ctx)
{
    REQUIRE(ctx == &clk, "clock called with ctx %p", ctx);
    clk.reads++;
    return clk.now;
}

static int32_t auth_is_available(void *ctx)
{
    REQUIRE(ctx == &fauth, "is_available ctx");
    return fauth.available;
}

static int32_t auth_store_secret(void *ctx, const uint8_t *secret, size_t len)
{
    REQUIRE(ctx == &fauth, "store_secret ctx");
    REQUIRE(secret != NULL && len == IDLELOCK_AUTH_SECRET_BYTES, "store_secret len %zu", len);
    if (fauth.fail_store || !fauth.available) return -1;
    memcpy(fauth.secret, secret, len);
    fauth.has_secret = 1;
    return 0;
}

static int32_t auth_load_secret(void *ctx, const char *reason, uint8_t *out, size_t cap, size_t *out_len)
{
    idlelock_snapshot s;
    REQUIRE(ctx == &fauth, "load_secret ctx");
    REQUIRE(out != NULL && out_len != NULL && cap == IDLELOCK_AUTH_SECRET_BYTES, "load_secret cap %zu", cap);
    REQUIRE(reason != NULL && strcmp(reason, unlock_reason_text) == 0, "load_secret reason");
    memset(&s, 0, sizeof s);
    s.size = sizeof s;
    in_load_secret = 1;
    switch (fauth.reenter) {
    case 1: REQUIRE(idlelock_snapshot_get(H, &s) == IDLELOCK_OK, "snapshot_get from load_secret"); break;
    case 2: (void)idlelock_lock(H, &s); break;
    case 3: (void)idlelock_touch(H, NULL); break;
    default: break;
    }
    in_load_secret = 0;
    if (fauth.answer != IDLELOCK_AUTH_OK) return fauth.answer;
    if (!fauth.has_secret || !fauth.available) return IDLELOCK_AUTH_UNAVAILABLE;
    memcpy(out, fauth.secret, IDLELOCK_AUTH_SECRET_BYTES);
    if (fauth.corrupt) out[7] ^= 0x40;
    *out_len = fauth.bad_len ? 31 : IDLELOCK_AUTH_SECRET_BYTES;
    return IDLELOCK_AUTH_OK;
}

static int32_t auth_delete_secret(void *ctx)
{
    REQUIRE(ctx == &fauth, "delete_secret ctx");
    memset(fauth.secret, 0, sizeof fauth.secret);
    fauth.has_secret = 0;
    return 0;
}

static void listener(void *ctx, const idlelock_snapshot *s)
{
    int slot = (int)(intptr_t)ctx;
    idlelock_snapshot t;
    REQUIRE(slot >= 0 && slot < MAX_TOKENS, "listener ctx %d", slot);
    REQUIRE(s != NULL && s->size >= sizeof *s, "listener snapshot size %u", s == NULL ? 0u : (unsigned)s->size);
    check_snapshot(s, IDLELOCK_MAX_ATTEMPTS_MAX);
    check_deadlines(s, s->size);
    REQUIRE(!listener_heard[slot] || s->seq > listener_last_seq[slot], "listener %d: seq %llu after %llu", slot,
            (unsigned long long)s->seq, (unsigned long long)listener_last_seq[slot]);
    listener_last_seq[slot] = s->seq;
    listener_heard[slot] = 1;
    memset(&t, 0, sizeof t);
    t.size = sizeof t;
    switch (listener_kind[slot]) {
    case 1: REQUIRE(idlelock_snapshot_get(H, &t) == IDLELOCK_OK, "snapshot_get from a listener"); break;
    case 2: (void)idlelock_lock(H, NULL); break;
    case 3:
        REQUIRE(idlelock_unsubscribe(H, tokens[slot]) == IDLELOCK_OK, "unsubscribe itself");
        tokens[slot] = 0;
        break;
    case 4: (void)idlelock_touch(H, NULL); break;
    default: break;
    }
}

static void listener_other(void *ctx, const idlelock_snapshot *s)
{
    (void)ctx;
    (void)s;
}

/* ---------------------------------------------------- snapshot helpers */

/* The next deadline is never later than the idle deadline, unless the app
 * is away (the grace window defers judging), a prompt defers the idle rule (one the harness opened, or the library's own
 * load_secret), or the idle deadline lies past INT64_MAX (the clock can
 * never read it: see the report on saturation). */
static void check_deadlines(const idlelock_snapshot *s, size_t size)
{
    int open_prompt = in_load_secret;
    if (size < END_OF(idlelock_snapshot, ms_until_next_deadline)) return;
    for (int i = 0; i < MAX_TOKENS; i++) open_prompt |= prompts[i] != 0;
    /* ms_until_idle_lock times the idle deadline only while present. */
    if (open_prompt || s->is_away || s->state != IDLELOCK_STATE_UNLOCKED || s->ms_until_idle_lock == IDLELOCK_NEVER)
        return;
    if (clk.now > INT64_MAX - s->ms_until_idle_lock) return;
    REQUIRE(s->ms_until_next_deadline <= s->ms_until_idle_lock, "next deadline %lld after the idle lock %lld",
            (long long)s->ms_until_next_deadline, (long long)s->ms_until_idle_lock);
}

/* An `out` argument chosen by the input. *bad is set when its size is one
 * the header calls invalid. The caller frees the result. */
typedef struct out_arg {
    idlelock_snapshot *p;
    size_t alloc;
    uint32_t size;
    int bad;
} out_arg;

static out_arg make_out(reader *r)
{
    out_arg o;
    uint8_t sel = rd_u8(r) % 8;
    memset(&o, 0, sizeof o);
    switch (sel) {
    case 0: return o; /* NULL */
    case 1: o.size = sizeof(idlelock_snapshot); break;
    case 2: o.size = SNAPSHOT_V1_SIZE + 8 * (rd_u8(r) % 8); /* a 1.0 host, or between */
        if (o.size > sizeof(idlelock_snapshot)) o.size = sizeof(idlelock_snapshot);
        break;
    case 3: o.size = sizeof(idlelock_snapshot) + 8 * (1 + rd_u8(r) % 16); break;
    case 4: o.size = 4096; break;
    case 5: o.size = rd_u8(r) % SNAPSHOT_V1_SIZE; o.bad = 1; break;
    case 6: o.size = 4097; o.bad = 1; break;
    default: o.size = 0xFFFFFFFFu - rd_u8(r); o.bad = 1; break;
    }
    /* A bad size gets a buffer of the real struct only: the library must
     * not write past it. */
    o.alloc = o.bad ? SNAPSHOT_V1_SIZE : o.size;
    o.p = malloc(o.alloc);
    if (o.p == NULL) abort();
    memset(o.p, 0xA5, o.alloc);
    o.p->size = o.size;
    return o;
}

static void finish_out(out_arg *o, int st, const char *what)
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

static int trace = -1;
static int use_store_now;

static idlelock_snapshot snap_now(void)
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
static void check_status(int st, const char *what)
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

/* ------------------------------------------------------- passcode input */

typedef struct pass_arg {
    const char *p;
    size_t len;
    uint8_t *owned;
    int bad;   /* the header calls these arguments invalid */
    int kdf;   /* would reach Argon2id (valid arguments) */
} pass_arg;

static pass_arg make_pass(reader *r, int for_set)
{
    pass_arg a;
    uint8_t sel = rd_u8(r) % 10;
    const uint8_t *bytes;
    size_t n;
    long scalars;
    memset(&a, 0, sizeof a);
    switch (sel) {
    case 0: a.p = NULL; a.len = rd_u8(r) % 2 ? 4 : 0; a.bad = 1; return a;
    case 1: a.owned = exact_copy((const uint8_t *)"1234", 4); a.p = (const char *)a.owned;
        a.len = SIZE_MAX - rd_u8(r); a.bad = 1; return a;
    case 2: a.owned = exact_copy((const uint8_t *)"1234", 4); a.p = (const char *)a.owned;
        a.len = IDLELOCK_PASSCODE_MAX_BYTES + 1 + rd_u16(r); a.bad = 1; return a;
    case 3: a.owned = exact_copy((const uint8_t *)"1234", 4); a.p = (const char *)a.owned; a.len = 0;
        a.bad = 1; return a;
    case 4: case 5:
        if (last_passcode_len > 0 && !for_set) {
            a.owned = exact_copy(last_passcode, last_passcode_len);
            a.len = last_passcode_len;
            break;
        }
        /* fall through */
    default:
        n = rd_take(r, rd_u8(r) % 24, &bytes);
        if (sel == 9) { /* a long one */
            n = rd_take(r, rd_u16(r) % (IDLELOCK_PASSCODE_MAX_BYTES + 64), &bytes);
        }
        a.owned = exact_copy(bytes, n);
        a.len = n;
        break;
    }
    a.p = (const char *)a.owned;
    scalars = utf8_scalars(a.owned, a.len);
    if (a.len == 0 || a.len > IDLELOCK_PASSCODE_MAX_BYTES || scalars < 0) a.bad = 1;
    else if (for_set && scalars < IDLELOCK_PASSCODE_MIN_SCALARS) a.bad = 1;
    a.kdf = !a.bad;
    return a;
}

/* ------------------------------------------------------------ the store */

static void tamper_store(reader *r)
{
    uint8_t sel = rd_u8(r) % 6;
    int fd;
    struct stat st;
    model_valid = 0; /* the model no longer predicts the secrets */
    switch (sel) {
    case 0: unlink(store_path); break;
    case 1:
        if (stat(store_path, &st) == 0) (void)truncate(store_path, (off_t)(rd_u16(r) % (st.st_size + 1)));
        break;
    case 2:
        fd = open(store_path, O_RDWR);
        if (fd >= 0) {
            if (fstat(fd, &st) == 0 && st.st_size > 0) {
                off_t off = (off_t)(rd_u32(r) % (uint32_t)st.st_size);
                uint8_t b = 0;
                if (pread(fd, &b, 1, off) == 1) {
                    b ^= (uint8_t)(1u << (rd_u8(r) % 8));
                    (void)pwrite(fd, &b, 1, off);
                }
            }
            close(fd);
        }
        break;
    case 3: /* remember the file as it is now */
        fd = open(store_path, O_RDONLY);
        saved_store_len = -1;
        if (fd >= 0) {
            saved_store_len = read(fd, saved_store, sizeof saved_store);
            close(fd);
        }
        break;
    case 4: /* roll back to the remembered file */
        if (saved_store_len >= 0) {
            fd = open(store_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
            if (fd >= 0) {
                (void)write(fd, saved_store, (size_t)saved_store_len);
                close(fd);
            }
        }
        break;
    default: { /* a stray temporary file beside it */
        char tmp[300];
        snprintf(tmp, sizeof tmp, "%s.tmp.%06u", store_path, (unsigned)(rd_u16(r) % 1000000));
        fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fd >= 0) close(fd);
        break;
    }
    }
}

/* --------------------------------------------------- a second handle */

/* Creates a handle from a fuzzed config; the oracle knows some values are
 * out of range and some configs are fully valid. */
static void second_handle(reader *r)
{
    static const int64_t times[] = {0, 1, -1, -2, 1000, 60000, 60001, IDLELOCK_NEVER, INT64_MIN,
                                    IDLELOCK_SAME_AS_IDLE, INT64_MAX - 1};
    idlelock_config *cfg;
    idlelock_authenticator auth;
    idlelock *h2 = (idlelock *)(uintptr_t)1; /* must be overwritten */
    uint8_t sel = rd_u8(r);
    size_t size = sizeof(idlelock_config);
    int known_bad = 0, fully_valid = 1, st;
    char *long_path = NULL, *long_reason = NULL;
    static char folder_path[300];
    uint8_t *short_key = NULL;

    size_t alloc;
    switch (rd_u8(r) % 8) {
    case 0: size = sizeof(idlelock_config) + 8 * (1 + rd_u8(r) % 4); break;
    case 1: size = rd_u8(r) % CONFIG_V1_SIZE; known_bad = 1; break;
    case 2: size = CONFIG_V1_SIZE; break; /* a 1.0 host: exactly that much memory */
    default: break;
    }
    /* A config of a good size gets exactly that memory (ASan sees any read
     * past it); a bad size gets the 1.0 struct. */
    alloc = size < CONFIG_V1_SIZE ? CONFIG_V1_SIZE : size;
    cfg = malloc(alloc);
    if (cfg == NULL) abort();
    memset(cfg, 0, alloc);
    st = idlelock_config_init(cfg, size);
    if (size < CONFIG_V1_SIZE) {
        REQUIRE(st == IDLELOCK_ERR_INVALID_ARGUMENT, "config_init with size %zu returned %d", size, st);
        cfg->size = (uint32_t)size;
    } else {
        REQUIRE(st == IDLELOCK_OK && cfg->size == size, "config_init(%zu) returned %d", size, st);
        for (size_t i = sizeof(idlelock_config); i < size; i++) {
            REQUIRE(((uint8_t *)cfg)[i] == 0, "config_init left byte %zu non-zero", i);
        }
        if (size > sizeof(idlelock_config) && rd_u8(r) % 4 == 0) {
            ((uint8_t *)cfg)[size - 1 - rd_u8(r) % 8] = 1;
            known_bad = 1;
        }
    }
    cfg->idle_after_ms = 60000;
    cfg->kdf_opslimit = IDLELOCK_KDF_OPSLIMIT_MIN;
    cfg->kdf_memlimit = IDLELOCK_KDF_MEMLIMIT_MIN;
    cfg->clock = fuzz_clock;
    cfg->clock_ctx = &clk;
    /* Each bit of `sel` fuzzes one group of fields. */
    if (sel & 1) {
        cfg->idle_after_ms = times[rd_u8(r) % 11];
        cfg->background_after_ms = times[rd_u8(r) % 11];
        cfg->inactive_after_ms = times[rd_u8(r) % 11];
        cfg->grace_ms = times[rd_u8(r) % 11];
        if ((cfg->idle_after_ms <= 0 && cfg->idle_after_ms != IDLELOCK_NEVER) ||
            (cfg->background_after_ms < 0 && cfg->background_after_ms != IDLELOCK_SAME_AS_IDLE) ||
            cfg->inactive_after_ms < 0 || cfg->grace_ms < 0 || cfg->grace_ms > IDLELOCK_GRACE_MAX_MS)
            known_bad = 1;
        fully_valid = 0; /* both timeouts NEVER is also refused */
    }
    if (sel & 2) {
        cfg->max_attempts = (int32_t)rd_u32(r);
        cfg->lock_on_start = (int32_t)(rd_u8(r) % 4) - 1;
        cfg->reserved0 = rd_u8(r) % 4 == 0 ? 1 : 0;
        if (cfg->max_attempts < 1 || cfg->max_attempts > IDLELOCK_MAX_ATTEMPTS_MAX ||
            cfg->lock_on_start < 0 || cfg->lock_on_start > 1 || cfg->reserved0 != 0)
            known_bad = 1;
    }
    if (sel & 4) {
        cfg->kdf_opslimit = rd_u64(r) % 16;
        cfg->kdf_memlimit = rd_u8(r) % 2 ? IDLELOCK_KDF_MEMLIMIT_MAX + rd_u8(r) % 2
                                         : IDLELOCK_KDF_MEMLIMIT_MIN - rd_u8(r) % 2;
        if (cfg->kdf_opslimit < IDLELOCK_KDF_OPSLIMIT_MIN || cfg->kdf_opslimit > IDLELOCK_KDF_OPSLIMIT_MAX ||
            cfg->kdf_memlimit < IDLELOCK_KDF_MEMLIMIT_MIN || cfg->kdf_memlimit > IDLELOCK_KDF_MEMLIMIT_MAX)
            known_bad = 1;
    }
    if (sel & 8) {
        switch (rd_u8(r) % 7) {
        case 0: cfg->store_path = store2_path; break;
        case 1: cfg->store_path = store_path; fully_valid = 0; break; /* the main handle's store */
        case 2: cfg->store_path = "/nonexistent-idlelock-dir/store"; fully_valid = 0; break;
        case 3: cfg->store_path = "\xff\xfe-not-utf8"; known_bad = 1; break;
        case 4:
            long_path = malloc(4100);
            if (long_path == NULL) abort();
            memset(long_path, 'p', 4099);
            long_path[4099] = '\0';
            cfg->store_path = long_path;
            known_bad = 1;
            break;
        case 5: cfg->store_path = ""; fully_valid = 0; break;
        default: /* a folder (its `.lock` stays inside fuzz_dir) */
            snprintf(folder_path, sizeof folder_path, "%s/folder", fuzz_dir);
            mkdir(folder_path, 0700);
            cfg->store_path = folder_path;
            fully_valid = 0;
            break;
        }
    }
    if (sel & 16) {
        switch (rd_u8(r) % 6) {
        case 0: cfg->clock = NULL; cfg->clock_ctx = NULL; break;
        case 1: cfg->clock = NULL; known_bad = 1; break; /* ctx without a clock */
        case 2: cfg->device_key = device_key; cfg->device_key_len = 32; break;
        case 3: cfg->device_key = device_key; cfg->device_key_len = 16; known_bad = 1; break;
        case 4: cfg->device_key = NULL; cfg->device_key_len = 32; known_bad = 1; break;
        default:
            short_key = exact_copy(device_key, 8);
            cfg->device_key = short_key;
            cfg->device_key_len = SIZE_MAX;
            known_bad = 1;
            break;
        }
    }
    if (sel & 32) {
        memset(&auth, 0, sizeof auth);
        auth.size = sizeof auth;
        auth.ctx = &fauth;
        auth.is_available = auth_is_available;
        auth.store_secret = auth_store_secret;
        auth.load_secret = auth_load_secret;
        auth.delete_secret = auth_delete_secret;
        switch (rd_u8(r) % 5) {
        case 0: auth.size = rd_u8(r) % sizeof auth; known_bad = 1; break;
        case 1: auth.load_secret = NULL; known_bad = 1; break;
        case 2: auth.reserved0 = 7; known_bad = 1; break;
        default: break;
        }
        cfg->authenticator = &auth;
        cfg->unlock_reason = unlock_reason_text;
    }
    if (sel & 64) {
        switch (rd_u8(r) % 3) {
        case 0: cfg->unlock_reason = "\xc0\x80 overlong"; known_bad = 1; break;
        case 1:
            long_reason = malloc(IDLELOCK_UNLOCK_REASON_MAX_BYTES + 2);
            if (long_reason == NULL) abort();
            memset(long_reason, 'r', IDLELOCK_UNLOCK_REASON_MAX_BYTES + 1);
            long_reason[IDLELOCK_UNLOCK_REASON_MAX_BYTES + 1] = '\0';
            cfg->unlock_reason = long_reason;
            known_bad = 1;
            break;
        default: cfg->unlock_reason = "\xe2\x9c\x93 ok"; break;
        }
    }
    if ((sel & 128) && alloc >= sizeof(idlelock_config)) { /* the 1.1 fields */
        static const int64_t caps[] = {0, 120000, 600000, 600001, -1, INT64_MAX};
        static const int64_t warns[] = {0, 1, 59999, 60000, -1, INT64_MIN};
        cfg->prompt_cap_ms = caps[rd_u8(r) % 6];
        cfg->warn_before_ms = warns[rd_u8(r) % 6];
        if (cfg->prompt_cap_ms < 0 || cfg->prompt_cap_ms > 600000 || cfg->warn_before_ms < 0) known_bad = 1;
        if (cfg->warn_before_ms >= 60000) fully_valid = 0; /* valid only below idle_after_ms */
        {
            static idlelock_delay_step steps[40];
            uint8_t k = rd_u8(r) % 9;
            int max = (sel & 2) ? 0 : 5; /* the default max_attempts, unless fuzzed */
            memset(steps, 0, sizeof steps);
            steps[0] = (idlelock_delay_step){1, 0, 50};
            steps[1] = (idlelock_delay_step){2, 0, 1000};
            cfg->delay_schedule = steps;
            cfg->delay_schedule_len = 2;
            switch (k) {
            case 0: cfg->delay_schedule = NULL; cfg->delay_schedule_len = 0; break;
            case 1: cfg->delay_schedule = NULL; cfg->delay_schedule_len = 3; known_bad = 1; break;
            case 2: steps[1].failed_attempts = 1; known_bad = 1; break;      /* not increasing */
            case 3: steps[1].delay_ms = 10; known_bad = 1; break;            /* decreasing delay */
            case 4: steps[0].delay_ms = 0; known_bad = 1; break;
            case 5: steps[1].delay_ms = 86400001; known_bad = 1; break;
            case 6: steps[0].reserved0 = 1; known_bad = 1; break;
            case 7: cfg->delay_schedule_len = 33; known_bad = 1; break;
            default: /* a step at or past max_attempts */
                steps[1].failed_attempts = 5;
                if (max == 5) known_bad = 1; else fully_valid = 0;
                break;
            }
            if (k >= 2 && k != 8 && max == 0) fully_valid = 0;
        }
    }
    if (cfg->store_path != NULL && cfg->lock_on_start == 0 && cfg->device_key == NULL) known_bad = 1;

    st = idlelock_create(cfg, &h2);
    check_status(st, "create (second handle)");
    if (known_bad) {
        REQUIRE(st == IDLELOCK_ERR_INVALID_ARGUMENT, "create with a bad config (sel %u) returned %d", sel, st);
    } else if (fully_valid) {
        REQUIRE(st == IDLELOCK_OK, "create with a valid config (sel %u) returned %d", sel, st);
    }
    if (st != IDLELOCK_OK) {
        REQUIRE(h2 == NULL, "create failed but *out is %p", (void *)h2);
    } else {
        idlelock_snapshot s;
        uint8_t buf[8];
        size_t len = sizeof buf;
        memset(&s, 0, sizeof s);
        s.size = sizeof s;
        REQUIRE(h2 != NULL, "create OK with a NULL handle");
        check_status(idlelock_start(h2, &s), "start (second handle)");
        check_snapshot(&s, IDLELOCK_MAX_ATTEMPTS_MAX);
        check_status(idlelock_require_unlocked(h2), "require_unlocked (second handle)");
        check_status(idlelock_secret_get(h2, "token", buf, &len), "secret_get (second handle)");
        if (cfg->clock == NULL) { /* the default clock: a watcher thread can run */
            st = idlelock_watch_start(h2);
            check_status(st, "watch_start (second handle)");
            REQUIRE(st == IDLELOCK_OK, "watch_start with the default clock returned %d", st);
            REQUIRE(idlelock_watch_start(h2) == IDLELOCK_OK, "watch_start twice");
            if (rd_u8(r) % 2) REQUIRE(idlelock_watch_stop(h2) == IDLELOCK_OK, "watch_stop");
        }
        idlelock_destroy(h2);
    }
    if (cfg->store_path == store2_path) {
        char p[300];
        unlink(store2_path);
        snprintf(p, sizeof p, "%s.lock", store2_path);
        unlink(p);
    }
    free(long_path);
    free(long_reason);
    free(short_key);
    free(cfg);
}

/* ------------------------------------------------------- NULL handles */

static void null_handle_calls(reader *r)
{
    idlelock_snapshot s;
    uint64_t tok = 0;
    size_t len = 0;
    idlelock *out = (idlelock *)(uintptr_t)1;
    memset(&s, 0, sizeof s);
    s.size = sizeof s;
    switch (rd_u8(r) % 12) {
    case 0: REQUIRE(idlelock_touch(NULL, &s) == IDLELOCK_ERR_INVALID_ARGUMENT, "touch(NULL)");
        REQUIRE(idlelock_inactive(NULL, NULL) == IDLELOCK_ERR_INVALID_ARGUMENT, "inactive(NULL)");
        REQUIRE(idlelock_background(NULL, &s) == IDLELOCK_ERR_INVALID_ARGUMENT, "background(NULL)");
        REQUIRE(idlelock_foreground(NULL, NULL) == IDLELOCK_ERR_INVALID_ARGUMENT, "foreground(NULL)");
        break;
    case 1: REQUIRE(idlelock_check(NULL, &s) == IDLELOCK_ERR_INVALID_ARGUMENT, "check(NULL)");
        REQUIRE(idlelock_lock(NULL, NULL) == IDLELOCK_ERR_INVALID_ARGUMENT, "lock(NULL)");
        REQUIRE(idlelock_start(NULL, NULL) == IDLELOCK_ERR_INVALID_ARGUMENT, "start(NULL)");
        REQUIRE(idlelock_snapshot_get(NULL, &s) == IDLELOCK_ERR_INVALID_ARGUMENT, "snapshot_get(NULL)");
        break;
    case 2: REQUIRE(idlelock_set_passcode(NULL, "12345", 5) == IDLELOCK_ERR_INVALID_ARGUMENT, "set(NULL)");
        REQUIRE(idlelock_unlock(NULL, "12345", 5, &s) == IDLELOCK_ERR_INVALID_ARGUMENT, "unlock(NULL)");
        break;
    case 3: REQUIRE(idlelock_enable_biometrics(NULL) == IDLELOCK_ERR_INVALID_ARGUMENT, "enable_bio(NULL)");
        REQUIRE(idlelock_disable_biometrics(NULL) == IDLELOCK_ERR_INVALID_ARGUMENT, "disable_bio(NULL)");
        REQUIRE(idlelock_unlock_with_biometrics(NULL, &s) == IDLELOCK_ERR_INVALID_ARGUMENT, "unlock_bio(NULL)");
        break;
    case 4: REQUIRE(idlelock_disable(NULL) == IDLELOCK_ERR_INVALID_ARGUMENT, "disable(NULL)");
        idlelock_destroy(NULL);
        break;
    case 5: REQUIRE(idlelock_subscribe(NULL, listener_other, NULL, &tok) == IDLELOCK_ERR_INVALID_ARGUMENT,
                    "subscribe(NULL)");
        REQUIRE(idlelock_unsubscribe(NULL, 1) == IDLELOCK_ERR_INVALID_ARGUMENT, "unsubscribe(NULL)");
        break;
    case 6: REQUIRE(idlelock_secret_put(NULL, "a", NULL, 0) == IDLELOCK_ERR_INVALID_ARGUMENT, "put(NULL)");
        REQUIRE(idlelock_secret_get(NULL, "a", NULL, &len) == IDLELOCK_ERR_INVALID_ARGUMENT, "get(NULL)");
        REQUIRE(idlelock_secret_remove(NULL, "a") == IDLELOCK_ERR_INVALID_ARGUMENT, "remove(NULL)");
        REQUIRE(idlelock_require_unlocked(NULL) == IDLELOCK_ERR_INVALID_ARGUMENT, "require(NULL)");
        break;
    case 7: {
        int code = (int)rd_u32(r);
        const char *name = idlelock_status_name(code);
        REQUIRE(name != NULL && strncmp(name, "IDLELOCK_", 9) == 0, "status_name(%d)", code);
        if (!valid_status(code)) REQUIRE(strcmp(name, "IDLELOCK_ERR_UNKNOWN") == 0, "status_name(%d) = %s", code, name);
        break;
    }
    case 8:
        REQUIRE(idlelock_create(NULL, &out) == IDLELOCK_ERR_INVALID_ARGUMENT && out == NULL, "create(NULL, out)");
        break;
    case 9: {
        idlelock_config cfg;
        idlelock_config_init(&cfg, sizeof cfg);
        cfg.idle_after_ms = 1000;
        REQUIRE(idlelock_create(&cfg, NULL) == IDLELOCK_ERR_INVALID_ARGUMENT, "create(cfg, NULL)");
        REQUIRE(idlelock_config_init(NULL, sizeof cfg) == IDLELOCK_ERR_INVALID_ARGUMENT, "config_init(NULL)");
        break;
    }
    case 10:
        REQUIRE(strcmp(idlelock_version(), IDLELOCK_VERSION_STRING) == 0, "version");
        REQUIRE(idlelock_version_number() == IDLELOCK_VERSION_NUMBER, "version_number");
        REQUIRE(idlelock_config_size() == sizeof(idlelock_config), "config_size");
        REQUIRE(idlelock_snapshot_size() == sizeof(idlelock_snapshot), "snapshot_size");
        REQUIRE(idlelock_authenticator_size() == sizeof(idlelock_authenticator), "authenticator_size");
        REQUIRE(idlelock_delay_step_size() == sizeof(idlelock_delay_step), "delay_step_size");
        break;
    default: REQUIRE(idlelock_last_error() != NULL, "last_error NULL"); break;
    }
}

static int64_t step(int64_t now, int64_t delta)
{
    return (int64_t)((uint64_t)now + (uint64_t)delta);
}

/* ---------------------------------------------------------- one input */

static void run_ops(reader *r, int use_store)
{
    int ops = 0;
    while (r->n > 0 && ops++ < MAX_OPS) {
        uint8_t op = rd_u8(r) % 30;
        int st;
        if (trace > 0) fprintf(stderr, "trace: op %u\n", (unsigned)op);
        switch (op) {
        case 0: case 1: case 2: case 3: case 4: case 5: case 6: case 7: {
            static const char *const names[] = {"touch", "inactive", "background", "foreground",
                                                "check", "lock", "start", "snapshot_get"};
            out_arg o = make_out(r);
            switch (op) {
            case 0: st = idlelock_touch(H, o.p); break;
            case 1: st = idlelock_inactive(H, o.p); break;
            case 2: st = idlelock_background(H, o.p); break;
            case 3: st = idlelock_foreground(H, o.p); break;
            case 4: st = idlelock_check(H, o.p); break;
            case 5: st = idlelock_lock(H, o.p); break;
            case 6: st = idlelock_start(H, o.p); break;
            default:
                st = idlelock_snapshot_get(H, o.p);
                if (o.p == NULL) REQUIRE(st == IDLELOCK_ERR_INVALID_ARGUMENT, "snapshot_get(NULL out)");
                break;
            }
            check_status(st, names[op]);
            if (!o.bad && o.p != NULL)
                REQUIRE(st == IDLELOCK_OK || (use_store && st == IDLELOCK_ERR_STORAGE), "%s returned %d",
                        names[op], st);
            finish_out(&o, st, names[op]);
            break;
        }
        case 8: { /* the clock */
            uint8_t k = rd_u8(r) % 9;
            static const int64_t extremes[] = {INT64_MAX, INT64_MIN, 0, -1, INT64_MAX - 1, INT64_MIN + 1};
            switch (k) {
            /* Steps wrap (as unsigned): past INT64_MAX is a jump backwards. */
            case 0: case 1: case 2: clk.now = step(clk.now, (int64_t)rd_u8(r) * 10); break;
            case 3: clk.now = step(clk.now, rd_u16(r)); break;
            case 4: clk.now = step(clk.now, (int64_t)rd_u32(r)); break;
            case 5: clk.now = step(clk.now, -(int64_t)rd_u16(r)); break;
            case 6: clk.now = extremes[rd_u8(r) % 6]; break;
            case 7: clk.now = (int64_t)rd_u64(r); break;
            default: clk.now = step(clk.now, 1500 + rd_u8(r) % 3 - 1); break; /* the grace edge */
            }
            if (trace > 0) fprintf(stderr, "trace: clock now %lld\n", (long long)clk.now);
            break;
        }
        case 9: case 10: { /* set_passcode / unlock */
            int is_set = op == 9;
            pass_arg a = make_pass(r, is_set);
            out_arg o = is_set ? (out_arg){0} : make_out(r);
            if (a.kdf && kdf_left <= 0) {
                free(a.owned);
                finish_out(&o, IDLELOCK_ERR_INVALID_ARGUMENT, "unused");
                break;
            }
            if (a.bad || o.bad) {
                if (is_set) EXPECT_INVALID(idlelock_set_passcode(H, a.p, a.len), "set_passcode(bad)");
                else EXPECT_INVALID(idlelock_unlock(H, a.p, a.len, o.p), "unlock(bad)");
                o.bad = 1;
                finish_out(&o, IDLELOCK_ERR_INVALID_ARGUMENT, "unlock(bad)");
            } else {
                kdf_left--;
                if (is_set) {
                    st = idlelock_set_passcode(H, a.p, a.len);
                    check_status(st, "set_passcode");
                    REQUIRE(st != IDLELOCK_ERR_INVALID_ARGUMENT, "set_passcode refused %zu bytes of valid UTF-8",
                            a.len);
                    if (st == IDLELOCK_OK) {
                        memcpy(last_passcode, a.p, a.len);
                        last_passcode_len = a.len;
                    }
                } else {
                    st = idlelock_unlock(H, a.p, a.len, o.p);
                    check_status(st, "unlock");
                    REQUIRE(st != IDLELOCK_ERR_INVALID_ARGUMENT, "unlock refused %zu bytes of valid UTF-8", a.len);
                    if (st == IDLELOCK_ERR_RETRY_LATER) {
                        kdf_left++; /* refused before any key derivation */
                        if (o.p != NULL && o.size >= END_OF(idlelock_snapshot, ms_until_next_deadline))
                            REQUIRE(o.p->ms_until_retry > 0, "RETRY_LATER with ms_until_retry %lld",
                                    (long long)o.p->ms_until_retry);
                    }
                    finish_out(&o, st, "unlock");
                }
            }
            free(a.owned);
            break;
        }
        case 11: { /* the fake authenticator's next behaviour */
            uint8_t b = rd_u8(r);
            static const int32_t answers[] = {IDLELOCK_AUTH_OK, IDLELOCK_AUTH_OK, IDLELOCK_AUTH_FAILED,
                                              IDLELOCK_AUTH_CANCELLED, IDLELOCK_AUTH_UNAVAILABLE, 77, -1,
                                              IDLELOCK_AUTH_OK};
            fauth.available = (b & 1) == 0;
            fauth.fail_store = (b & 2) != 0 && (b & 4) != 0;
            fauth.answer = answers[(b >> 3) & 7];
            fauth.bad_len = (b & 0x40) != 0 && (b & 0x80) != 0;
            fauth.corrupt = (b & 0x40) != 0 && (b & 0x80) == 0 && (b & 4) == 0;
            fauth.reenter = (b >> 6) == 2 ? 1 + rd_u8(r) % 3 : 0;
            break;
        }
        case 12:
            st = idlelock_enable_biometrics(H);
            check_status(st, "enable_biometrics");
            break;
        case 13:
            st = idlelock_disable_biometrics(H);
            check_status(st, "disable_biometrics");
            break;
        case 14: {
            out_arg o = make_out(r);
            st = idlelock_unlock_with_biometrics(H, o.p);
            check_status(st, "unlock_with_biometrics");
            finish_out(&o, st, "unlock_with_biometrics");
            break;
        }
        case 15: {
            idlelock_snapshot s;
            st = idlelock_disable(H);
            check_status(st, "disable");
            REQUIRE(st == IDLELOCK_OK || (use_store && st == IDLELOCK_ERR_STORAGE), "disable returned %d", st);
            for (int i = 0; i < NAME_COUNT; i++) {
                free(model[i].value);
                memset(&model[i], 0, sizeof model[i]);
            }
            last_passcode_len = 0;
            s = snap_now();
            REQUIRE(!s.is_enabled && s.state == IDLELOCK_STATE_UNLOCKED && !s.is_biometrics_enabled &&
                        s.attempts_remaining == max_attempts_cfg,
                    "after disable: enabled %d state %d bio %d attempts %d", (int)s.is_enabled, (int)s.state,
                    (int)s.is_biometrics_enabled, (int)s.attempts_remaining);
            break;
        }
        case 16: { /* subscribe */
            int slot = rd_u8(r) % MAX_TOKENS;
            uint8_t k = rd_u8(r) % 8;
            uint64_t tok = 0;
            if (k == 7) {
                EXPECT_INVALID(idlelock_subscribe(H, NULL, NULL, &tok), "subscribe(NULL fn)");
                EXPECT_INVALID(idlelock_subscribe(H, listener_other, NULL, NULL), "subscribe(NULL token)");
                break;
            }
            if (tokens[slot] != 0) break;
            listener_kind[slot] = k % 5;
            listener_heard[slot] = 0;
            if (listener_kind[slot] == 2 || listener_kind[slot] == 4) reentrant_listener = 1;
            st = idlelock_subscribe(H, listener, (void *)(intptr_t)slot, &tok);
            check_status(st, "subscribe");
            REQUIRE(st == IDLELOCK_OK && tok != 0, "subscribe returned %d token %llu", st, (unsigned long long)tok);
            for (int i = 0; i < MAX_TOKENS; i++) REQUIRE(tokens[i] != tok, "token %llu given twice", (unsigned long long)tok);
            tokens[slot] = tok;
            break;
        }
        case 17: { /* unsubscribe */
            int slot = rd_u8(r) % MAX_TOKENS;
            if (tokens[slot] != 0) {
                st = idlelock_unsubscribe(H, tokens[slot]);
                REQUIRE(st == IDLELOCK_OK, "unsubscribe of a live token returned %d", st);
                tokens[slot] = 0;
            } else {
                uint64_t bogus = rd_u8(r) % 2 ? 0 : rd_u64(r) | (1ull << 62);
                EXPECT_INVALID(idlelock_unsubscribe(H, bogus), "unsubscribe(unknown token)");
            }
            break;
        }
        case 18: case 19: case 20: { /* secrets */
            uint8_t ns = rd_u8(r) % 10;
            const char *name;
            char *fuzz_name = NULL;
            int idx = -1, name_bad = 0;
            if (ns < NAME_COUNT) {
                idx = ns;
                name = name_of(idx);
                name_bad = idx == 5;
            } else if (ns == 6) {
                name = NULL;
                name_bad = 1;
            } else if (ns == 7) {
                name = "";
                name_bad = 1;
            } else {
                const uint8_t *b;
                size_t n = rd_take(r, rd_u8(r) % 72, &b);
                size_t m = 0;
                fuzz_name = malloc(n + 1);
                if (fuzz_name == NULL) abort();
                for (size_t i = 0; i < n; i++) if (b[i] != 0) fuzz_name[m++] = (char)b[i];
                fuzz_name[m] = '\0';
                name = fuzz_name;
                name_bad = m == 0 || m > IDLELOCK_SECRET_NAME_MAX_BYTES || utf8_scalars((const uint8_t *)name, m) < 0;
                for (int i = 0; i < NAME_COUNT && !name_bad; i++)
                    if (strcmp(name, name_of(i)) == 0) idx = i;
                if (idx < 0) model_valid = 0; /* names outside the model */
            }
            if (op == 18) { /* put */
                uint8_t ds = rd_u8(r) % 8;
                const uint8_t *b;
                uint8_t *data = NULL;
                size_t len = 0;
                int bad = name_bad;
                switch (ds) {
                case 0: data = NULL; len = 0; break;
                case 1: data = NULL; len = 1 + rd_u8(r); bad = 1; break;
                case 2: data = exact_copy((const uint8_t *)"x", 1); len = SIZE_MAX - rd_u8(r); bad = 1; break;
                case 3: data = exact_copy((const uint8_t *)"x", 1); len = IDLELOCK_SECRET_VALUE_MAX_BYTES + 1; bad = 1; break;
                case 4:
                    len = IDLELOCK_SECRET_VALUE_MAX_BYTES - rd_u8(r) % 2;
                    data = malloc(len);
                    if (data == NULL) abort();
                    memset(data, rd_u8(r), len);
                    break;
                default:
                    len = rd_take(r, rd_u8(r) % 48, &b);
                    data = exact_copy(b, len);
                    break;
                }
                if (bad) {
                    EXPECT_INVALID(idlelock_secret_put(H, name, data, len), "secret_put(bad)");
                } else {
                    st = idlelock_secret_put(H, name, data, len);
                    check_status(st, "secret_put");
                    REQUIRE(st != IDLELOCK_ERR_INVALID_ARGUMENT, "secret_put refused a valid name/value (%zu)", len);
                    if (st == IDLELOCK_OK && idx >= 0) {
                        free(model[idx].value);
                        model[idx].value = exact_copy(data == NULL ? (const uint8_t *)"" : data, len);
                        model[idx].len = len;
                        model[idx].present = 1;
                    }
                }
                free(data);
            } else if (op == 19) { /* get */
                uint8_t bs = rd_u8(r) % 6;
                uint8_t *buf = NULL;
                size_t cap = 0;
                size_t *lenp = &cap;
                int bad = name_bad;
                switch (bs) {
                case 0: buf = NULL; cap = 0; break;
                case 1: buf = NULL; cap = 1 + rd_u8(r); bad = 1; break;
                case 2: lenp = NULL; buf = malloc(8); bad = 1; break;
                case 3: cap = rd_u8(r) % 8; buf = malloc(cap == 0 ? 1 : cap); break;
                default: cap = IDLELOCK_SECRET_VALUE_MAX_BYTES; buf = malloc(cap); break;
                }
                if (bad) {
                    EXPECT_INVALID(idlelock_secret_get(H, name, buf, lenp), "secret_get(bad)");
                } else {
                    size_t asked = cap;
                    st = idlelock_secret_get(H, name, buf, lenp);
                    check_status(st, "secret_get");
                    REQUIRE(st != IDLELOCK_ERR_INVALID_ARGUMENT, "secret_get refused valid arguments");
                    if (st == IDLELOCK_OK) {
                        REQUIRE(cap <= asked, "secret_get: %zu bytes into %zu", cap, asked);
                        if (!reentrant_listener)
                            REQUIRE(snap_now().state == IDLELOCK_STATE_UNLOCKED, "secret_get OK while locked");
                    }
                    if (st == IDLELOCK_ERR_BUFFER_TOO_SMALL) REQUIRE(cap > asked, "BUFFER_TOO_SMALL but needs %zu <= %zu", cap, asked);
                    if (model_valid && idx >= 0) {
                        if (st == IDLELOCK_OK) {
                            REQUIRE(model[idx].present, "secret %d read back but never put", idx);
                            REQUIRE(cap == model[idx].len && (cap == 0 || memcmp(buf, model[idx].value, cap) == 0),
                                    "secret %d read back differs (%zu vs %zu bytes)", idx, cap, model[idx].len);
                        } else if (st == IDLELOCK_ERR_NOT_FOUND) {
                            REQUIRE(!model[idx].present, "secret %d put but NOT_FOUND", idx);
                        } else if (st == IDLELOCK_ERR_BUFFER_TOO_SMALL) {
                            REQUIRE(model[idx].present && cap == model[idx].len, "secret %d: needs %zu, model %zu", idx,
                                    cap, model[idx].len);
                        }
                    }
                }
                free(buf);
            } else { /* remove */
                if (name_bad) {
                    EXPECT_INVALID(idlelock_secret_remove(H, name), "secret_remove(bad)");
                } else {
                    st = idlelock_secret_remove(H, name);
                    check_status(st, "secret_remove");
                    REQUIRE(st != IDLELOCK_ERR_INVALID_ARGUMENT, "secret_remove refused a valid name");
                    if (model_valid && idx >= 0) {
                        if (st == IDLELOCK_ERR_NOT_FOUND) REQUIRE(!model[idx].present, "remove: %d NOT_FOUND", idx);
                        if (st == IDLELOCK_OK) REQUIRE(model[idx].present, "remove: %d never put", idx);
                    }
                    if (st == IDLELOCK_OK && idx >= 0) {
                        free(model[idx].value);
                        memset(&model[idx], 0, sizeof model[idx]);
                    }
                }
            }
            free(fuzz_name);
            break;
        }
        case 21:
            st = idlelock_require_unlocked(H);
            check_status(st, "require_unlocked");
            REQUIRE(st == IDLELOCK_OK || st == IDLELOCK_ERR_SESSION_LOCKED || (use_store && st == IDLELOCK_ERR_STORAGE),
                    "require_unlocked returned %d", st);
            if (!reentrant_listener && st == IDLELOCK_OK)
                REQUIRE(snap_now().state == IDLELOCK_STATE_UNLOCKED, "gate open while locked");
            if (st == IDLELOCK_ERR_SESSION_LOCKED)
                REQUIRE(snap_now().state != IDLELOCK_STATE_UNLOCKED || reentrant_listener, "gate shut while unlocked");
            break;
        case 22:
            null_handle_calls(r);
            break;
        case 23:
            second_handle(r);
            break;
        case 24:
            if (use_store) tamper_store(r);
            break;
        case 26: { /* lifecycle adapters */
            static const char *const names[] = {"active", "inactive", "background", "ON_CREATE", "ON_START",
                                                "ON_RESUME", "ON_PAUSE", "ON_STOP", "ON_DESTROY", "resumed",
                                                "hidden", "paused", "detached", "unknown", "extension",
                                                "Active", "ON_STOP ", "", "\xff"};
            int32_t platform = (int32_t)(rd_u8(r) % 8) - 1; /* -1..6: 1..5 exist */
            uint8_t ns = rd_u8(r) % 21;
            const char *name = ns < 19 ? names[ns] : NULL;
            char *fuzz_name = NULL;
            out_arg o = make_out(r);
            int known = 0;
            if (ns == 20) {
                const uint8_t *b;
                size_t n = rd_take(r, rd_u8(r) % 16, &b);
                fuzz_name = malloc(n + 1);
                if (fuzz_name == NULL) abort();
                memcpy(fuzz_name, b, n);
                fuzz_name[n] = '\0';
                name = fuzz_name;
            }
            if (name != NULL && platform >= 1 && platform <= 5) {
                /* The platforms' own spellings (include/idlelock.h, README). */
                static const char *const ios[] = {"active", "inactive", "background", NULL};
                static const char *const android[] = {"ON_CREATE", "ON_START", "ON_RESUME", "ON_PAUSE",
                                                      "ON_STOP", "ON_DESTROY", NULL};
                static const char *const flutter[] = {"resumed", "inactive", "hidden", "paused", "detached", NULL};
                static const char *const rn[] = {"active", "inactive", "background", "unknown", "extension", NULL};
                const char *const *table = platform <= 2 ? ios : platform == 3 ? android : platform == 4 ? flutter : rn;
                for (int i = 0; table[i] != NULL; i++) if (strcmp(table[i], name) == 0) known = 1;
            }
            if (!known || o.bad) {
                EXPECT_INVALID(idlelock_lifecycle(H, platform, name, o.p), "lifecycle(bad)");
                o.bad = 1;
                finish_out(&o, IDLELOCK_ERR_INVALID_ARGUMENT, "lifecycle(bad)");
            } else {
                st = idlelock_lifecycle(H, platform, name, o.p);
                check_status(st, "lifecycle");
                REQUIRE(st == IDLELOCK_OK || (use_store && st == IDLELOCK_ERR_STORAGE), "lifecycle(%d, %s) returned %d",
                        (int)platform, name, st);
                finish_out(&o, st, "lifecycle");
            }
            free(fuzz_name);
            break;
        }
        case 27: { /* prompt_begin */
            int slot = rd_u8(r) % MAX_TOKENS;
            uint64_t tok = 0;
            if (rd_u8(r) % 8 == 0) {
                EXPECT_INVALID(idlelock_prompt_begin(H, NULL), "prompt_begin(NULL token)");
                break;
            }
            st = idlelock_prompt_begin(H, &tok);
            check_status(st, "prompt_begin");
            /* Like snapshot_get, prompt_begin judges first, and returns
             * STORAGE (no token) when that locked the session and the lock
             * could not be saved: its header block lists only OK and
             * INVALID_ARGUMENT (see the report). */
            if (use_store && st == IDLELOCK_ERR_STORAGE) break;
            REQUIRE(st == IDLELOCK_OK && tok != 0, "prompt_begin returned %d token %llu", st, (unsigned long long)tok);
            for (int i = 0; i < MAX_TOKENS; i++)
                REQUIRE(prompts[i] != tok, "prompt token %llu given twice", (unsigned long long)tok);
            REQUIRE(tok != last_prompt_ended, "prompt token %llu reused", (unsigned long long)tok);
            if (prompts[slot] == 0) prompts[slot] = tok; /* else it stays open for good */
            break;
        }
        case 28: { /* prompt_end */
            int slot = rd_u8(r) % MAX_TOKENS;
            if (prompts[slot] != 0) {
                st = idlelock_prompt_end(H, prompts[slot]);
                check_status(st, "prompt_end");
                REQUIRE(st == IDLELOCK_OK || (use_store && st == IDLELOCK_ERR_STORAGE),
                        "prompt_end of an open prompt returned %d", st);
                last_prompt_ended = prompts[slot];
                prompts[slot] = 0;
                if (st == IDLELOCK_OK) EXPECT_INVALID(idlelock_prompt_end(H, last_prompt_ended), "prompt_end twice");
            } else {
                uint64_t bogus = rd_u8(r) % 2 ? 0 : rd_u64(r) | (1ull << 61);
                EXPECT_INVALID(idlelock_prompt_end(H, bogus), "prompt_end(unknown token)");
            }
            break;
        }
        case 29: /* the watcher needs the default clock: refused here */
            if (rd_u8(r) % 2) EXPECT_INVALID(idlelock_watch_start(H), "watch_start with a caller clock");
            else REQUIRE(idlelock_watch_stop(H) == IDLELOCK_OK, "watch_stop of a stopped watcher");
            REQUIRE(idlelock_watch_start(NULL) == IDLELOCK_ERR_INVALID_ARGUMENT, "watch_start(NULL)");
            REQUIRE(idlelock_watch_stop(NULL) == IDLELOCK_ERR_INVALID_ARGUMENT, "watch_stop(NULL)");
            break;
        default: { /* a bad snapshot size on every event at once */
            idlelock_snapshot s;
            memset(&s, 0, sizeof s);
            s.size = rd_u8(r) % 2 ? 0 : (uint32_t)SNAPSHOT_V1_SIZE - 4;
            EXPECT_INVALID(idlelock_touch(H, &s), "touch(bad out)");
            EXPECT_INVALID(idlelock_lock(H, &s), "lock(bad out)");
            EXPECT_INVALID(idlelock_foreground(H, &s), "foreground(bad out)");
            EXPECT_INVALID(idlelock_snapshot_get(H, &s), "snapshot_get(bad out)");
            break;
        }
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    reader r = {data, size};
    idlelock_config cfg;
    idlelock_authenticator auth;
    uint8_t flags = rd_u8(&r);
    int use_store = flags & 1, use_key = (flags >> 1) & 1, use_auth = (flags >> 2) & 1;
    static const int64_t idles[] = {100, 1000, 5000, IDLELOCK_NEVER};
    static const int64_t backgrounds[] = {IDLELOCK_SAME_AS_IDLE, 0, 2000, IDLELOCK_NEVER};
    int st;

    if (trace < 0) trace = getenv("FUZZ_TRACE") != NULL;
    use_store_now = use_store;
    fuzz_dir_get();
    snprintf(store_path, sizeof store_path, "%s/store", fuzz_dir);
    snprintf(store2_path, sizeof store2_path, "%s/store2", fuzz_dir);
    fuzz_dir_clear();

    memset(&clk, 0, sizeof clk);
    memset(&fauth, 0, sizeof fauth);
    fauth.available = 1;
    memset(tokens, 0, sizeof tokens);
    memset(prompts, 0, sizeof prompts);
    in_load_secret = 0;
    last_prompt_ended = 0;
    memset(listener_kind, 0, sizeof listener_kind);
    memset(model, 0, sizeof model);
    kdf_left = KDF_BUDGET;
    reentrant_listener = 0;
    model_valid = 1;
    last_seq = 0;
    memset(listener_heard, 0, sizeof listener_heard);
    memset(listener_last_seq, 0, sizeof listener_last_seq);
    last_passcode_len = 0;
    saved_store_len = -1;

    REQUIRE(idlelock_config_init(&cfg, sizeof cfg) == IDLELOCK_OK, "config_init");
    clk.now = (int64_t)rd_u32(&r) - 1000;
    cfg.idle_after_ms = idles[(flags >> 3) & 3];
    cfg.background_after_ms = backgrounds[(flags >> 5) & 3];
    if (cfg.idle_after_ms == IDLELOCK_NEVER && cfg.background_after_ms != 0 && cfg.background_after_ms != 2000)
        cfg.background_after_ms = 2000;
    if (flags & 0x80) {
        cfg.idle_after_ms = 1 + rd_u16(&r);
        cfg.inactive_after_ms = rd_u16(&r);
        cfg.grace_ms = rd_u16(&r) % (IDLELOCK_GRACE_MAX_MS + 1);
    }
    if ((flags & 0x80) && cfg.idle_after_ms > 2 && rd_u8(&r) % 2) {
        cfg.warn_before_ms = 1 + rd_u16(&r) % (cfg.idle_after_ms - 1);
        cfg.prompt_cap_ms = (int64_t)(rd_u16(&r) % 60001) * 10;
    }
    cfg.max_attempts = 1 + rd_u8(&r) % 5;
    cfg.lock_on_start = rd_u8(&r) & 1;
    {
        /* An escalating delay (1.1): none, or the first 1..3 steps below
         * (each below max_attempts). */
        uint8_t d = rd_u8(&r) % 4;
        static const idlelock_delay_step steps[] = {{1, 0, 50}, {2, 0, 2000}, {3, 0, 60000}, {4, 0, 86400000}};
        if (d > 0 && cfg.max_attempts > 1) {
            cfg.delay_schedule = steps;
            cfg.delay_schedule_len = (size_t)(d < cfg.max_attempts - 1 ? d : cfg.max_attempts - 1);
        }
    }
    cfg.kdf_opslimit = IDLELOCK_KDF_OPSLIMIT_MIN;
    cfg.kdf_memlimit = IDLELOCK_KDF_MEMLIMIT_MIN;
    cfg.clock = fuzz_clock;
    cfg.clock_ctx = &clk;
    if (use_store) {
        cfg.store_path = store_path;
        if (!use_key) cfg.lock_on_start = 1;
    }
    if (use_key) {
        cfg.device_key = device_key;
        cfg.device_key_len = sizeof device_key;
    }
    if (use_auth) {
        memset(&auth, 0, sizeof auth);
        auth.size = sizeof auth;
        auth.ctx = &fauth;
        auth.is_available = auth_is_available;
        auth.store_secret = auth_store_secret;
        auth.load_secret = auth_load_secret;
        auth.delete_secret = auth_delete_secret;
        cfg.authenticator = &auth;
        cfg.unlock_reason = unlock_reason_text;
    }
    max_attempts_cfg = cfg.max_attempts;
    H = NULL;
    st = idlelock_create(&cfg, &H);
    REQUIRE(st == IDLELOCK_OK && H != NULL, "create with a valid config returned %d", st);
    memset(&cfg, 0xEE, sizeof cfg); /* the library copied what it keeps */
    memset(&auth, 0xEE, sizeof auth);
    {
        idlelock_snapshot s = snap_now();
        REQUIRE(s.seq == 0 && s.state == IDLELOCK_STATE_UNLOCKED && !s.is_enabled &&
                    s.attempts_remaining == max_attempts_cfg,
                "fresh handle: seq %llu state %d enabled %d attempts %d", (unsigned long long)s.seq, (int)s.state,
                (int)s.is_enabled, (int)s.attempts_remaining);
    }

    run_ops(&r, use_store);

    idlelock_destroy(H);
    H = NULL;
    for (int i = 0; i < NAME_COUNT; i++) free(model[i].value);
    memset(model, 0, sizeof model);
    fuzz_dir_clear();
    return 0;
}
