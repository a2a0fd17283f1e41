/* SPDX-License-Identifier: MIT */
/*
 * idlelock-replay: replay lifecycle traces through libidlelock.
 *
 *   idlelock-replay [--quiet] FILE...
 *
 * Each FILE is a trace: a list of lifecycle events with the times at which
 * they happen. The tool feeds them to the library, using the trace's own
 * times as the clock (config.clock returns a variable the tool sets before
 * each call), prints one line per event (time, event, status, state,
 * reason, attempts remaining, away flag, ms until the idle lock, and with
 * config biometrics=1 the shortcut's enabled and available flags), and
 * checks the `expect` lines. --quiet prints only mismatches and errors.
 *
 * Exit status: 0 when every expect held, 1 when at least one did not (the
 * rest of the trace is still replayed), 2 on a malformed trace, a file that
 * cannot be read, or a configuration the library refuses (stops at once).
 *
 * Trace format (also in traces/README.md)
 * ---------------------------------------
 * Text, one item per line. `#` starts a comment (whole line or trailing);
 * blank lines are ignored. Items are separated by spaces or tabs, so no
 * argument can contain a space or a `#`.
 *
 *   config key=value ...
 *       At most once, before the first event. Keys: idle, background,
 *       inactive, grace (ms, or the word `never`; background also takes
 *       `same` = IDLELOCK_SAME_AS_IDLE), attempts, lock_on_start (integers),
 *       warn (warn_before_ms, ms), prompt_cap (prompt_cap_ms, ms),
 *       max_age (passcode_max_age_ms, ms), after_reboot
 *       (passcode_after_reboot, 0/1), max_uses (biometric_max_uses), store
 *       (1: keep the session in a store file in a fresh temporary
 *       folder, removed at the end of the trace), device_key (1: a fixed
 *       32-byte test device key) and biometrics (1: the fake keystore of
 *       fake_keystore.h as config.authenticator, with an unlock_reason;
 *       it starts available, with no item). The keystore is the host's:
 *       it lives for the whole trace, across `restart`. Missing keys keep
 *       the idlelock_config_init() defaults. Traces
 *       always run with the Argon2id floor (IDLELOCK_KDF_OPSLIMIT_MIN,
 *       IDLELOCK_KDF_MEMLIMIT_MIN) so they run fast.
 *
 *   <ms> <event> [argument...]
 *       <ms> is a signed 64-bit decimal: the clock reading for this call.
 *       Times may go backwards (that is a test case). The handle is created
 *       at the first event, with the clock reading that event's time.
 *       Events:
 *         start touch inactive background foreground check lock
 *         passcode <code>      idlelock_set_passcode
 *         unlock <code>        idlelock_unlock
 *         disable              idlelock_disable
 *         put <name> <value>   idlelock_secret_put
 *         get <name>           idlelock_secret_get (prints the value)
 *         remove <name>        idlelock_secret_remove
 *         gate                 idlelock_require_unlocked
 *         snapshot             idlelock_snapshot_get
 *         restart              idlelock_destroy, then idlelock_create again
 *                              on the same store (a process that ended and
 *                              came back; needs config store=1)
 *         enable-biometrics    idlelock_enable_biometrics
 *         disable-biometrics   idlelock_disable_biometrics
 *         unlock-biometrics [ok|fail|cancel|unavailable]
 *                              sets what the fake keystore's next check
 *                              answers (IDLELOCK_AUTH_OK, _FAILED,
 *                              _CANCELLED, _UNAVAILABLE; default ok), then
 *                              idlelock_unlock_with_biometrics
 *         enrolment-change     fake_keystore_change_enrolment: the item's
 *                              bytes change, as after a new biometric
 *                              enrolment (no library call; status OK;
 *                              needs config biometrics=1)
 *         bio-available 0|1    sets the fake keystore's is_available answer
 *                              (no library call; status OK; needs config
 *                              biometrics=1). The library caches it: it
 *                              sees the change at its next create,
 *                              enable_biometrics or foreground.
 *         bio-begin unlock|enable [NAME]
 *                              idlelock_biometric_begin (1.2, the
 *                              two-phase pair); the token is kept under
 *                              NAME (default `req`); for enable, with the
 *                              secret handed out. Works with or without
 *                              config biometrics=1 (the fake keystore is
 *                              the host's either way).
 *         bio-finish NAME ok|fail|cancel|unavailable|wrong
 *                              idlelock_biometric_finish of NAME's token:
 *                              for an unlock, ok releases the keystore's
 *                              item (it must hold one) and wrong releases
 *                              it with a flipped bit (a secret that does
 *                              not open the wrap); for an enable, ok first
 *                              keeps the secret in the fake keystore
 *                              (store_secret's rules; when that fails the
 *                              host finishes with fail instead), and a
 *                              finish that is not OK makes the host delete
 *                              the item it kept. Without config
 *                              biometrics=1 the host also deletes its item
 *                              whenever is_biometrics_enabled goes from 1
 *                              to 0 (the library cannot).
 *         recent-auth <ms>     idlelock_require_recent_auth(lock, ms)
 *         reboot               as restart, after the device restarted: the
 *                              store's boot ids (its saved activity's and
 *                              its last passcode entry's) are rewritten
 *                              with another boot's, as a restart of the
 *                              device changes /proc/sys/kernel/random/
 *                              boot_id (the tool recomputes the store's
 *                              integrity check; needs config store=1)
 *       Calls that take no snapshot argument (and the host-only events) are
 *       followed by idlelock_snapshot_get() at the same clock reading.
 *
 *   expect key=value ...
 *       Checks the result of the previous event. Keys: status (a status
 *       name without IDLELOCK_ / IDLELOCK_ERR_: OK, INVALID_PASSCODE, ...),
 *       state (UNLOCKED, LOCKED, LOCKED_OUT), reason (NONE, IDLE,
 *       BACKGROUNDED, STARTUP, MANUAL, CLOCK), attempts, away (0/1),
 *       enabled (0/1), until_idle (ms or `never`), and extensions:
 *       activity (last_activity_ms), value (what the previous `get`
 *       returned), bio (is_biometrics_enabled, 0/1), bio_available
 *       (is_biometrics_available, 0/1), bio_item (0/1: the fake keystore
 *       holds an item, so the library has not had it deleted), and (1.2)
 *       passcode_required (is_passcode_required, 0/1) and last_auth
 *       (last_auth_ms, ms or `never`). A mismatch
 *       prints `FILE:LINE: expected X=..., got ...`.
 *
 * A malformed line prints `FILE:LINE: <what is wrong>` on stderr and the
 * tool exits 2. Lines of any length are read (getline); a line holding a
 * NUL byte or more than MAX_TOKENS items is rejected.
 *
 * Build (from the repository root; libsodium only for `reboot`, which
 * recomputes the store's BLAKE2b integrity check):
 *   cc -std=c99 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -pedantic -Werror \
 *      -Iinclude tools/replay/idlelock-replay.c -Lbuild -lidlelock \
 *      -Wl,-rpath,$PWD/build -lsodium -o build/idlelock-replay
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include <sodium.h>

#include "idlelock.h"
#include "fake_keystore.h"

#define EXIT_MISMATCH 1
#define EXIT_MALFORMED 2
#define MAX_TOKENS 32
/* Named requests of the two-phase pair a trace keeps at once. */
#define MAX_REQUESTS 16
#define REQUEST_NAME_MAX 15

/* A request of the two-phase pair (bio-begin), by its trace name. */
typedef struct named_request {
    char name[REQUEST_NAME_MAX + 1];
    int32_t purpose;  /* IDLELOCK_BIOMETRIC_UNLOCK or _ENABLE */
    uint64_t token;   /* what begin wrote; 0 when begin failed */
    uint8_t secret[IDLELOCK_AUTH_SECRET_BYTES]; /* an enable's, until finish */
    int has_secret;   /* begin(ENABLE) handed one out and no finish used it */
} named_request;

/* One trace being replayed. */
typedef struct replay {
    const char *file;
    unsigned long line;
    int quiet;
    idlelock_config cfg;
    int config_seen;
    int event_seen;
    int header_printed;
    int64_t now;                 /* what the clock callback returns */
    idlelock *lock;
    int last_status;
    idlelock_snapshot snap;      /* state after the previous event */
    int have_value;              /* the previous event was a successful get */
    size_t value_len;
    unsigned long events;
    unsigned long expects;
    unsigned long mismatches;
    int use_store;               /* config store=1 */
    int use_device_key;          /* config device_key=1 */
    int use_biometrics;          /* config biometrics=1 */
    fake_keystore keystore;      /* the host's keystore: outlives restarts */
    idlelock_authenticator auth; /* its callbacks, copied at each create */
    char store_dir[64];          /* mkdtemp folder, "" until created */
    char store_path[96];
    int wide;                    /* config uses a 1.2 key: wider event column */
    named_request requests[MAX_REQUESTS]; /* bio-begin's tokens by name */
    int n_requests;
    unsigned reboots;            /* `reboot` events so far (each a new boot id) */
} replay;

/* The fixed device key of config device_key=1 (a test key, not a secret). */
static const uint8_t test_device_key[IDLELOCK_DEVICE_KEY_BYTES] = {
    0x69, 0x64, 0x6c, 0x65, 0x6c, 0x6f, 0x63, 0x6b, 0x2d, 0x72, 0x65,
    0x70, 0x6c, 0x61, 0x79, 0x2d, 0x74, 0x65, 0x73, 0x74, 0x2d, 0x64,
    0x65, 0x76, 0x69, 0x63, 0x65, 0x2d, 0x6b, 0x65, 0x79, 0x21,
};

/* The prompt text of config biometrics=1 (config.unlock_reason). */
static const char replay_unlock_reason[] = "Unlock the replayed session";

/* Totals over every file, for the closing line. */
static unsigned long total_files, total_events, total_expects, total_mismatches;

/* Buffer for idlelock_secret_get: the largest value the library keeps. */
static uint8_t value_buf[IDLELOCK_SECRET_VALUE_MAX_BYTES];

/* ---------------------------------------------------------------------- */
/* Names                                                                  */
/* ---------------------------------------------------------------------- */

static const char *const status_names[] = {
    "OK", "INVALID_ARGUMENT", "SESSION_LOCKED", "INVALID_PASSCODE",
    "LOCKED_OUT", "LOCK_UNAVAILABLE", "NO_PASSCODE", "STORAGE",
    "NOT_FOUND", "BUFFER_TOO_SMALL", "NO_MEMORY", "INTERNAL", "RETRY_LATER",
    "REAUTH_REQUIRED",
};
static const char *const state_names[] = { "UNLOCKED", "LOCKED", "LOCKED_OUT" };
static const char *const reason_names[] = {
    "NONE", "IDLE", "BACKGROUNDED", "STARTUP", "MANUAL", "CLOCK",
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* Index of `s` in `names`, or -1. */
static int name_index(const char *const *names, size_t n, const char *s)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (strcmp(names[i], s) == 0)
            return (int)i;
    return -1;
}

/* names[v], or the number in `buf` when v is out of the table. */
static const char *name_of(const char *const *names, size_t n, int64_t v,
                           char *buf, size_t buflen)
{
    if (v >= 0 && (uint64_t)v < n)
        return names[v];
    snprintf(buf, buflen, "%" PRId64, v);
    return buf;
}

/* The library's own name for a status, without its IDLELOCK_ prefix. */
static const char *library_status_name(int status)
{
    const char *s = idlelock_status_name(status);
    if (s == NULL)
        return "(null)";
    if (strncmp(s, "IDLELOCK_ERR_", 13) == 0)
        return s + 13;
    if (strncmp(s, "IDLELOCK_", 9) == 0)
        return s + 9;
    return s;
}

/* ---------------------------------------------------------------------- */
/* Messages                                                               */
/* ---------------------------------------------------------------------- */

/* Print `FILE:LINE: ...` on stderr; returns EXIT_MALFORMED. */
static int malformed(const replay *r, const char *fmt, ...)
{
    va_list ap;
    fflush(stdout);
    fprintf(stderr, "%s:%lu: ", r->file, r->line);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return EXIT_MALFORMED;
}

/* Longest argument or value shown on an event line. */
#define SHOW_MAX 64

/* Print a byte string with C-style escapes for anything not printable,
 * cut to SHOW_MAX bytes with "..." when longer. */
static void print_escaped(const uint8_t *p, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++) {
        if (i == SHOW_MAX) {
            fputs("...", stdout);
            break;
        }
        if (p[i] == '"' || p[i] == '\\')
            printf("\\%c", p[i]);
        else if (p[i] >= 0x20 && p[i] < 0x7f)
            putchar(p[i]);
        else
            printf("\\x%02x", p[i]);
    }
}

/* A trace token made safe for a message: printable ASCII kept, other
 * bytes as \xHH, cut to SHOW_MAX bytes with "...". Returns one of four
 * rotating static buffers, so up to four may appear in one printf. */
static const char *show(const char *s)
{
    static char bufs[4][SHOW_MAX * 4 + 4];
    static unsigned next;
    char *b = bufs[next++ % 4];
    size_t i, o = 0;
    for (i = 0; s[i] != '\0'; i++) {
        unsigned char c = (unsigned char)s[i];
        if (i == SHOW_MAX) {
            memcpy(b + o, "...", 3);
            o += 3;
            break;
        }
        if (c >= 0x20 && c < 0x7f)
            b[o++] = (char)c;
        else
            o += (size_t)snprintf(b + o, sizeof bufs[0] - o, "\\x%02x", c);
    }
    b[o] = '\0';
    return b;
}

/* ---------------------------------------------------------------------- */
/* Numbers                                                                */
/* ---------------------------------------------------------------------- */

/* Strict signed 64-bit decimal: optional sign, digits only, no overflow. */
static int parse_i64(const char *s, int64_t *out)
{
    int neg = 0;
    int64_t v = 0;
    if (*s == '-' || *s == '+')
        neg = (*s++ == '-');
    if (*s == '\0')
        return 0;
    for (; *s != '\0'; s++) {
        int d;
        if (*s < '0' || *s > '9')
            return 0;
        d = *s - '0';
        /* Accumulate negatively so INT64_MIN is reachable. */
        if (v < (INT64_MIN + d) / 10)
            return 0;
        v = v * 10 - d;
    }
    if (!neg) {
        if (v == INT64_MIN)
            return 0;
        v = -v;
    }
    *out = v;
    return 1;
}

/* Milliseconds or `never`. */
static int parse_ms(const char *s, int64_t *out)
{
    if (strcmp(s, "never") == 0) {
        *out = IDLELOCK_NEVER;
        return 1;
    }
    return parse_i64(s, out);
}

/* An integer that fits int32_t. */
static int parse_i32(const char *s, int32_t *out)
{
    int64_t v;
    if (!parse_i64(s, &v) || v < INT32_MIN || v > INT32_MAX)
        return 0;
    *out = (int32_t)v;
    return 1;
}

/* ---------------------------------------------------------------------- */
/* Header line                                                            */
/* ---------------------------------------------------------------------- */

static void print_ms(int64_t v)
{
    if (v == IDLELOCK_NEVER)
        fputs("never", stdout);
    else
        printf("%" PRId64, v);
}

/* Width of the event column: wide enough for the biometric events when
 * the trace uses them (config biometrics=1), else the original width. */
static int event_width(const replay *r)
{
    return r->use_biometrics || r->wide ? 18 : 10;
}

static void print_header(replay *r)
{
    const idlelock_config *c = &r->cfg;
    if (r->header_printed || r->quiet)
        return;
    r->header_printed = 1;
    printf("== %s: idle=", r->file);
    print_ms(c->idle_after_ms);
    fputs(" background=", stdout);
    if (c->background_after_ms == IDLELOCK_SAME_AS_IDLE)
        fputs("same", stdout);
    else
        print_ms(c->background_after_ms);
    fputs(" inactive=", stdout);
    print_ms(c->inactive_after_ms);
    fputs(" grace=", stdout);
    print_ms(c->grace_ms);
    printf(" attempts=%" PRId32 " lock_on_start=%" PRId32 "%s",
           c->max_attempts, c->lock_on_start, r->use_biometrics ? " biometrics=1" : "");
    if (c->warn_before_ms > 0)
        printf(" warn=%" PRId64, c->warn_before_ms);
    if (c->prompt_cap_ms != 120000)
        printf(" prompt_cap=%" PRId64, c->prompt_cap_ms);
    if (c->passcode_max_age_ms > 0)
        printf(" max_age=%" PRId64, c->passcode_max_age_ms);
    if (c->passcode_after_reboot)
        fputs(" after_reboot=1", stdout);
    if (c->biometric_max_uses > 0)
        printf(" max_uses=%" PRId32, c->biometric_max_uses);
    putchar('\n');
    printf("%8s  %-*s  %-16s  %-10s  %-12s  %4s  %4s  ", "time", event_width(r),
           "event", "status", "state", "reason", "left", "away");
    if (r->use_biometrics)
        printf("%4s  %5s  ", "bio", "avail");
    puts("until_idle");
}

/* ---------------------------------------------------------------------- */
/* config                                                                 */
/* ---------------------------------------------------------------------- */

/* "0" or "1" into *out. Returns 1 on success. */
static int parse_flag(const char *s, int *out)
{
    if (strcmp(s, "0") != 0 && strcmp(s, "1") != 0)
        return 0;
    *out = s[0] == '1';
    return 1;
}

/* The 1.2 keys: prompt_cap, max_age, after_reboot, max_uses. Returns 1
 * when `key` is one of them (with *ok whether its value parsed). */
static int config_key_1_2(replay *r, const char *key, const char *val, int *ok)
{
    idlelock_config *c = &r->cfg;
    if (strcmp(key, "prompt_cap") == 0)
        *ok = parse_ms(val, &c->prompt_cap_ms);
    else if (strcmp(key, "max_age") == 0)
        *ok = parse_ms(val, &c->passcode_max_age_ms);
    else if (strcmp(key, "after_reboot") == 0)
        *ok = parse_i32(val, &c->passcode_after_reboot);
    else if (strcmp(key, "max_uses") == 0)
        *ok = parse_i32(val, &c->biometric_max_uses);
    else
        return 0;
    return 1;
}

/* Apply one `key=value` of a config line. Returns 0 or EXIT_MALFORMED. */
static int config_key(replay *r, const char *key, const char *val)
{
    idlelock_config *c = &r->cfg;
    int ok;
    if (strcmp(key, "idle") == 0)
        ok = parse_ms(val, &c->idle_after_ms);
    else if (strcmp(key, "background") == 0) {
        ok = 1;
        if (strcmp(val, "same") == 0)
            c->background_after_ms = IDLELOCK_SAME_AS_IDLE;
        else
            ok = parse_ms(val, &c->background_after_ms);
    } else if (strcmp(key, "inactive") == 0)
        ok = parse_ms(val, &c->inactive_after_ms);
    else if (strcmp(key, "warn") == 0)
        ok = parse_ms(val, &c->warn_before_ms);
    else if (strcmp(key, "grace") == 0)
        ok = parse_ms(val, &c->grace_ms);
    else if (strcmp(key, "attempts") == 0)
        ok = parse_i32(val, &c->max_attempts);
    else if (strcmp(key, "lock_on_start") == 0)
        ok = parse_i32(val, &c->lock_on_start);
    else if (strcmp(key, "store") == 0)
        ok = parse_flag(val, &r->use_store);
    else if (strcmp(key, "device_key") == 0)
        ok = parse_flag(val, &r->use_device_key);
    else if (strcmp(key, "biometrics") == 0)
        ok = parse_flag(val, &r->use_biometrics);
    else if (config_key_1_2(r, key, val, &ok))
        r->wide = 1;
    else
        return malformed(r, "unknown config key '%s'", show(key));
    if (!ok)
        return malformed(r, "bad value '%s' for config key '%s'", show(val), show(key));
    return 0;
}

/* Split `tok` at '=' into key and value. Returns 0 when there is none. */
static int split_pair(char *tok, char **key, char **val)
{
    char *eq = strchr(tok, '=');
    if (eq == NULL || eq == tok)
        return 0;
    *eq = '\0';
    *key = tok;
    *val = eq + 1;
    return 1;
}

static int do_config(replay *r, char **tok, int n)
{
    static const char *const keys[] = {
        "idle", "background", "inactive", "grace", "attempts", "lock_on_start",
        "store", "device_key", "warn", "biometrics", "prompt_cap", "max_age",
        "after_reboot", "max_uses",
    };
    int seen[COUNT(keys)] = { 0 };
    int i;
    if (r->event_seen)
        return malformed(r, "config after the first event");
    if (r->config_seen)
        return malformed(r, "config given twice");
    r->config_seen = 1;
    for (i = 1; i < n; i++) {
        char *key, *val;
        int k, rc;
        if (!split_pair(tok[i], &key, &val))
            return malformed(r, "config item '%s' is not key=value", show(tok[i]));
        k = name_index(keys, COUNT(keys), key);
        if (k >= 0 && seen[k]++)
            return malformed(r, "config key '%s' given twice", show(key));
        rc = config_key(r, key, val);
        if (rc != 0)
            return rc;
    }
    return 0;
}

/* ---------------------------------------------------------------------- */
/* expect                                                                 */
/* ---------------------------------------------------------------------- */

/* Count one expectation; print a mismatch when `ok` is false. */
static void expect_result(replay *r, int ok, const char *key, const char *want,
                          const char *got)
{
    r->expects++;
    if (ok)
        return;
    r->mismatches++;
    printf("%s:%lu: expected %s=%s, got %s\n", r->file, r->line, key, want, got);
    fflush(stdout);
}

/* A key whose value is a name from `names`. */
static int expect_named(replay *r, const char *key, const char *val,
                        const char *const *names, size_t n, int64_t got)
{
    char buf[32];
    int want = name_index(names, n, val);
    if (want < 0)
        return malformed(r, "unknown %s '%s'", show(key), show(val));
    expect_result(r, want == got, key, val, name_of(names, n, got, buf, sizeof buf));
    return 0;
}

/* A key whose value is a number (or `never` when allow_never). */
static int expect_number(replay *r, const char *key, const char *val,
                         int allow_never, int64_t got)
{
    char buf[32];
    int64_t want;
    if (!(allow_never ? parse_ms(val, &want) : parse_i64(val, &want)))
        return malformed(r, "bad value '%s' for expect key '%s'", show(val), show(key));
    if (allow_never && got == IDLELOCK_NEVER)
        snprintf(buf, sizeof buf, "never");
    else
        snprintf(buf, sizeof buf, "%" PRId64, got);
    expect_result(r, want == got, key, val, buf);
    return 0;
}

/* A 0/1 flag. */
static int expect_flag(replay *r, const char *key, const char *val, int64_t got)
{
    if (strcmp(val, "0") != 0 && strcmp(val, "1") != 0)
        return malformed(r, "expect key '%s' takes 0 or 1, not '%s'", show(key), show(val));
    return expect_number(r, key, val, 0, got);
}

/* value=: what the previous get returned. */
static void expect_value(replay *r, const char *val)
{
    size_t n = strlen(val);
    int ok = r->have_value && r->value_len == n && memcmp(value_buf, val, n) == 0;
    r->expects++;
    if (ok)
        return;
    r->mismatches++;
    printf("%s:%lu: expected value=%s, got ", r->file, r->line, show(val));
    if (r->have_value) {
        putchar('"');
        print_escaped(value_buf, r->value_len);
        puts("\"");
    } else {
        char buf[32];
        printf("no value (status %s)\n", name_of(status_names, COUNT(status_names),
               r->last_status, buf, sizeof buf));
    }
    fflush(stdout);
}

/* Check one key=value against the previous event's result. */
static int expect_key(replay *r, const char *key, const char *val)
{
    const idlelock_snapshot *s = &r->snap;
    if (strcmp(key, "status") == 0)
        return expect_named(r, key, val, status_names, COUNT(status_names), r->last_status);
    if (strcmp(key, "state") == 0)
        return expect_named(r, key, val, state_names, COUNT(state_names), s->state);
    if (strcmp(key, "reason") == 0)
        return expect_named(r, key, val, reason_names, COUNT(reason_names), s->reason);
    if (strcmp(key, "attempts") == 0)
        return expect_number(r, key, val, 0, s->attempts_remaining);
    if (strcmp(key, "away") == 0)
        return expect_flag(r, key, val, s->is_away);
    if (strcmp(key, "enabled") == 0)
        return expect_flag(r, key, val, s->is_enabled);
    if (strcmp(key, "until_idle") == 0)
        return expect_number(r, key, val, 1, s->ms_until_idle_lock);
    if (strcmp(key, "warning") == 0)
        return expect_flag(r, key, val, s->is_warning);
    if (strcmp(key, "until_warning") == 0)
        return expect_number(r, key, val, 1, s->ms_until_warning);
    if (strcmp(key, "next") == 0)
        return expect_number(r, key, val, 1, s->ms_until_next_deadline);
    if (strcmp(key, "activity") == 0)
        return expect_number(r, key, val, 0, s->last_activity_ms);
    if (strcmp(key, "value") == 0) {
        expect_value(r, val);
        return 0;
    }
    if (strcmp(key, "bio") == 0)
        return expect_flag(r, key, val, s->is_biometrics_enabled);
    if (strcmp(key, "bio_available") == 0)
        return expect_flag(r, key, val, s->is_biometrics_available);
    if (strcmp(key, "bio_item") == 0)
        return expect_flag(r, key, val, r->keystore.has_secret);
    if (strcmp(key, "passcode_required") == 0)
        return expect_flag(r, key, val, s->is_passcode_required);
    if (strcmp(key, "last_auth") == 0)
        return expect_number(r, key, val, 1, s->last_auth_ms);
    return malformed(r, "unknown expect key '%s'", show(key));
}

static int do_expect(replay *r, char **tok, int n)
{
    int i;
    if (!r->event_seen)
        return malformed(r, "expect before any event");
    if (n < 2)
        return malformed(r, "expect with nothing to check");
    for (i = 1; i < n; i++) {
        char *key, *val;
        int rc;
        if (!split_pair(tok[i], &key, &val))
            return malformed(r, "expect item '%s' is not key=value", show(tok[i]));
        rc = expect_key(r, key, val);
        if (rc != 0)
            return rc;
    }
    return 0;
}

/* ---------------------------------------------------------------------- */
/* Events                                                                 */
/* ---------------------------------------------------------------------- */

static int64_t replay_clock(void *ctx)
{
    return *(const int64_t *)ctx;
}

/* Create the handle at the first event. Returns 0 or EXIT_MALFORMED. */
static int ensure_handle(replay *r)
{
    int st;
    if (r->lock != NULL)
        return 0;
    r->cfg.clock = replay_clock;
    r->cfg.clock_ctx = &r->now;
    if (r->use_device_key) {
        r->cfg.device_key = test_device_key;
        r->cfg.device_key_len = sizeof test_device_key;
    }
    if (r->use_biometrics) {
        /* The same keystore struct on every create: it is the host's. */
        fake_keystore_authenticator(&r->keystore, &r->auth);
        r->cfg.authenticator = &r->auth;
        r->cfg.unlock_reason = replay_unlock_reason;
    }
    if (r->use_store && r->store_dir[0] == '\0') {
        snprintf(r->store_dir, sizeof r->store_dir, "/tmp/idlelock-replay-XXXXXX");
        if (mkdtemp(r->store_dir) == NULL) {
            r->store_dir[0] = '\0';
            return malformed(r, "cannot create a temporary folder for the store: %s",
                             strerror(errno));
        }
        snprintf(r->store_path, sizeof r->store_path, "%s/session.idlelock", r->store_dir);
        r->cfg.store_path = r->store_path;
    }
    print_header(r);
    st = idlelock_create(&r->cfg, &r->lock);
    if (st != IDLELOCK_OK) {
        r->lock = NULL;
        return malformed(r, "idlelock_create refused the config: %s: %s",
                         library_status_name(st), idlelock_last_error());
    }
    return 0;
}

typedef int (*snap_call)(idlelock *, idlelock_snapshot *);

/* The events that take only an optional snapshot. */
static const struct {
    const char *name;
    snap_call fn;
} snap_events[] = {
    { "start", idlelock_start },       { "touch", idlelock_touch },
    { "inactive", idlelock_inactive }, { "background", idlelock_background },
    { "foreground", idlelock_foreground }, { "check", idlelock_check },
    { "lock", idlelock_lock },         { "snapshot", idlelock_snapshot_get },
};

/* The events with arguments or without a snapshot, with the least and the
 * most arguments they take. */
static const struct {
    const char *name;
    int min_args, max_args;
} other_events[] = {
    { "passcode", 1, 1 },          { "unlock", 1, 1 },
    { "disable", 0, 0 },           { "put", 2, 2 },
    { "get", 1, 1 },               { "remove", 1, 1 },
    { "gate", 0, 0 },              { "restart", 0, 0 },
    { "enable-biometrics", 0, 0 }, { "disable-biometrics", 0, 0 },
    { "unlock-biometrics", 0, 1 }, { "enrolment-change", 0, 0 },
    { "bio-available", 1, 1 },     { "bio-begin", 1, 2 },
    { "bio-finish", 2, 2 },        { "recent-auth", 1, 1 },
    { "reboot", 0, 0 },
};

/* The answers of `unlock-biometrics [answer]`, as IDLELOCK_AUTH_* codes. */
static const char *const answer_names[] = { "ok", "fail", "cancel", "unavailable" };
static const int32_t answer_codes[] = {
    IDLELOCK_AUTH_OK, IDLELOCK_AUTH_FAILED, IDLELOCK_AUTH_CANCELLED,
    IDLELOCK_AUTH_UNAVAILABLE,
};

/* ---------------------------------------------------------------------- */
/* The two-phase pair, the step-up check and reboots (1.2)                */
/* ---------------------------------------------------------------------- */

/* The results of `bio-finish NAME result`: IDLELOCK_AUTH_* codes, and
 * `wrong` (OK with a secret that does not open the wrap). */
static const char *const finish_names[] = { "ok", "fail", "cancel", "unavailable", "wrong" };
static const int32_t finish_codes[] = {
    IDLELOCK_AUTH_OK, IDLELOCK_AUTH_FAILED, IDLELOCK_AUTH_CANCELLED,
    IDLELOCK_AUTH_UNAVAILABLE, IDLELOCK_AUTH_OK,
};
#define FINISH_WRONG 4

/* The index of the request named `name`, or -1. */
static int find_request(const replay *r, const char *name)
{
    int i;
    for (i = 0; i < r->n_requests; i++)
        if (strcmp(r->requests[i].name, name) == 0)
            return i;
    return -1;
}

static int check_pair_args(const replay *r, const char *ev, char **arg, int nargs)
{
    int64_t ms;
    if (strcmp(ev, "bio-begin") == 0) {
        if (strcmp(arg[0], "unlock") != 0 && strcmp(arg[0], "enable") != 0)
            return malformed(r, "bio-begin takes unlock or enable, not '%s'", show(arg[0]));
        if (nargs == 2 && strlen(arg[1]) > REQUEST_NAME_MAX)
            return malformed(r, "a request name has at most %d characters", REQUEST_NAME_MAX);
        if (find_request(r, nargs == 2 ? arg[1] : "req") < 0 && r->n_requests == MAX_REQUESTS)
            return malformed(r, "more than %d request names in one trace", MAX_REQUESTS);
    }
    if (strcmp(ev, "bio-finish") == 0) {
        int i = find_request(r, arg[0]);
        int k = name_index(finish_names, COUNT(finish_names), arg[1]);
        const named_request *q = i < 0 ? NULL : &r->requests[i];
        if (q == NULL)
            return malformed(r, "bio-finish of '%s', which no bio-begin named", show(arg[0]));
        if (k < 0)
            return malformed(r, "unknown result '%s' for bio-finish "
                             "(ok, fail, cancel, unavailable or wrong)", show(arg[1]));
        if (q->purpose == IDLELOCK_BIOMETRIC_ENABLE && k == FINISH_WRONG)
            return malformed(r, "bio-finish ... wrong is for an unlock request");
        if (q->purpose == IDLELOCK_BIOMETRIC_UNLOCK && finish_codes[k] == IDLELOCK_AUTH_OK &&
            !r->keystore.has_secret)
            return malformed(r, "bio-finish %s: the fake keystore holds no item to release",
                             show(arg[1]));
    }
    if (strcmp(ev, "recent-auth") == 0 && !parse_i64(arg[0], &ms))
        return malformed(r, "recent-auth takes ms, not '%s'", show(arg[0]));
    if (strcmp(ev, "reboot") == 0 && !r->use_store)
        return malformed(r, "reboot needs config store=1");
    return 0;
}

/* `bio-begin unlock|enable [NAME]`. */
static int run_bio_begin(replay *r, char **arg, int nargs)
{
    const char *name = nargs == 2 ? arg[1] : "req";
    int i = find_request(r, name);
    named_request *q;
    int enable = strcmp(arg[0], "enable") == 0, st;
    if (i < 0) { /* room checked by check_pair_args */
        i = r->n_requests++;
        snprintf(r->requests[i].name, sizeof r->requests[i].name, "%s", name);
    }
    q = &r->requests[i];
    q->purpose = enable ? IDLELOCK_BIOMETRIC_ENABLE : IDLELOCK_BIOMETRIC_UNLOCK;
    q->token = 0;
    sodium_memzero(q->secret, sizeof q->secret);
    st = idlelock_biometric_begin(r->lock, q->purpose, &q->token, enable ? q->secret : NULL,
                                  enable ? sizeof q->secret : 0, &r->snap);
    q->has_secret = enable && st == IDLELOCK_OK;
    return st;
}

/* `bio-finish NAME result` (checked by check_pair_args). */
static int run_bio_finish(replay *r, char **arg)
{
    int i = find_request(r, arg[0]);
    named_request *q = i < 0 ? NULL : &r->requests[i];
    int k = name_index(finish_names, COUNT(finish_names), arg[1]), st, kept = 0;
    int32_t result;
    uint8_t secret[IDLELOCK_AUTH_SECRET_BYTES];
    const uint8_t *release = NULL;
    size_t len = 0;
    if (q == NULL || k < 0)
        return -1;
    result = finish_codes[k];
    memset(secret, 0, sizeof secret);
    if (q->purpose == IDLELOCK_BIOMETRIC_UNLOCK && result == IDLELOCK_AUTH_OK) {
        memcpy(secret, r->keystore.secret, sizeof secret);
        if (k == FINISH_WRONG)
            secret[0] ^= 1;
        release = secret;
        len = sizeof secret;
    }
    if (q->purpose == IDLELOCK_BIOMETRIC_ENABLE && result == IDLELOCK_AUTH_OK && q->has_secret) {
        /* The check passed: the host keeps the secret behind it (or fails
         * to, and says so), then wipes its copy. */
        kept = fake_keystore_store_secret(&r->keystore, q->secret, sizeof q->secret) == 0;
        if (!kept)
            result = IDLELOCK_AUTH_FAILED;
    }
    sodium_memzero(q->secret, sizeof q->secret);
    q->has_secret = 0;
    st = idlelock_biometric_finish(r->lock, q->token, result, release, len, &r->snap);
    sodium_memzero(secret, sizeof secret);
    /* An enable the library did not take: the host deletes what it kept. */
    if (kept && st != IDLELOCK_OK)
        fake_keystore_wipe(&r->keystore);
    return st;
}

/* Rewrite the store file's two boot ids (its saved activity's at offset
 * 64, its last passcode entry's at 416) with another boot's, and recompute
 * its integrity check: BLAKE2b-256 of every byte before it, keyed with
 * device subkey 1 under config device_key=1 (docs/STORE_FORMAT.md).
 * Returns 0, or -1 when the file is no version-2 store or cannot be read
 * or written. */
static int stamp_other_boot(replay *r)
{
    static const size_t boot_offsets[] = { 64, 416 };
    static uint8_t buf[1 << 20];
    uint8_t subkey[32];
    char boot[37];
    FILE *f = fopen(r->store_path, "r+b");
    size_t n, i;
    int rc = -1;
    if (f == NULL)
        return -1;
    n = fread(buf, 1, sizeof buf, f);
    memset(subkey, 0, sizeof subkey);
    if (n >= 460 + 32 && n < sizeof buf && buf[8] == 2) {
        snprintf(boot, sizeof boot, "replay-reboot-%04u-0000-000000000000", r->reboots % 10000);
        for (i = 0; i < COUNT(boot_offsets); i++)
            memcpy(buf + boot_offsets[i], boot, 36);
        if (r->use_device_key) {
            crypto_kdf_derive_from_key(subkey, sizeof subkey, 1, "idlkstor", test_device_key);
            crypto_generichash(buf + n - 32, 32, buf, n - 32, subkey, sizeof subkey);
        } else {
            crypto_generichash(buf + n - 32, 32, buf, n - 32, NULL, 0);
        }
        if (fseek(f, 0, SEEK_SET) == 0 && fwrite(buf, 1, n, f) == n && fflush(f) == 0)
            rc = 0;
    }
    sodium_memzero(subkey, sizeof subkey);
    fclose(f);
    return rc;
}

/* `reboot`: the process ends, the device restarts, a new process creates
 * the lock on the same store. Returns 0 or EXIT_MALFORMED. */
static int run_reboot(replay *r)
{
    idlelock_destroy(r->lock);
    r->lock = NULL;
    r->reboots++;
    if (access(r->store_path, F_OK) == 0 && stamp_other_boot(r) != 0)
        return malformed(r, "reboot: the store is no version-2 store, or cannot be rewritten");
    return ensure_handle(r);
}

/* Check the arguments of the events whose arguments are words, before
 * anything runs. Returns 0 or EXIT_MALFORMED. */
static int check_args(const replay *r, const char *ev, char **arg, int nargs)
{
    int flag;
    if (strcmp(ev, "unlock-biometrics") == 0 && nargs == 1 &&
        name_index(answer_names, COUNT(answer_names), arg[0]) < 0)
        return malformed(r, "unknown answer '%s' for unlock-biometrics "
                         "(ok, fail, cancel or unavailable)", show(arg[0]));
    if (strcmp(ev, "bio-available") == 0 && !parse_flag(arg[0], &flag))
        return malformed(r, "bio-available takes 0 or 1, not '%s'", show(arg[0]));
    if ((strcmp(ev, "enrolment-change") == 0 || strcmp(ev, "bio-available") == 0) &&
        !r->use_biometrics)
        return malformed(r, "%s needs config biometrics=1", ev);
    return check_pair_args(r, ev, arg, nargs);
}

/* `restart`: the process ends and a new one creates the lock on the same
 * store. Returns 0 or EXIT_MALFORMED. */
static int run_restart(replay *r)
{
    if (!r->use_store)
        return malformed(r, "restart needs config store=1");
    idlelock_destroy(r->lock);
    r->lock = NULL;
    return ensure_handle(r);
}

/* Remove the store files and the temporary folder of config store=1. */
static void remove_store(replay *r)
{
    char path[128];
    if (r->store_dir[0] == '\0')
        return;
    unlink(r->store_path);
    snprintf(path, sizeof path, "%s.lock", r->store_path);
    unlink(path);
    rmdir(r->store_dir);
    r->store_dir[0] = '\0';
}

static int run_get(replay *r, const char *name)
{
    size_t len = sizeof value_buf;
    int st = idlelock_secret_get(r->lock, name, value_buf, &len);
    if (st == IDLELOCK_OK) {
        r->have_value = 1;
        r->value_len = len <= sizeof value_buf ? len : sizeof value_buf;
    }
    return st;
}

/* `unlock-biometrics [answer]`: set the keystore's next answer, then ask
 * the library. The answer is reset to ok afterwards, also when the library
 * did not run the check (so it never leaks into a later event). */
static int run_unlock_biometrics(replay *r, char **arg, int nargs)
{
    int st, k = nargs == 1 ? name_index(answer_names, COUNT(answer_names), arg[0]) : 0;
    r->keystore.next_answer = answer_codes[k < 0 ? 0 : k];
    st = idlelock_unlock_with_biometrics(r->lock, &r->snap);
    r->keystore.next_answer = IDLELOCK_AUTH_OK;
    return st;
}

/* Run an event that has no snapshot argument. */
static int run_other(replay *r, const char *ev, char **arg)
{
    if (strcmp(ev, "passcode") == 0)
        return idlelock_set_passcode(r->lock, arg[0], strlen(arg[0]));
    if (strcmp(ev, "unlock") == 0)
        return idlelock_unlock(r->lock, arg[0], strlen(arg[0]), &r->snap);
    if (strcmp(ev, "disable") == 0)
        return idlelock_disable(r->lock);
    if (strcmp(ev, "put") == 0)
        return idlelock_secret_put(r->lock, arg[0], (const uint8_t *)arg[1],
                                   strlen(arg[1]));
    if (strcmp(ev, "get") == 0)
        return run_get(r, arg[0]);
    if (strcmp(ev, "remove") == 0)
        return idlelock_secret_remove(r->lock, arg[0]);
    if (strcmp(ev, "enable-biometrics") == 0)
        return idlelock_enable_biometrics(r->lock);
    if (strcmp(ev, "disable-biometrics") == 0)
        return idlelock_disable_biometrics(r->lock);
    if (strcmp(ev, "enrolment-change") == 0) {
        fake_keystore_change_enrolment(&r->keystore);
        return IDLELOCK_OK;
    }
    if (strcmp(ev, "bio-available") == 0) {
        r->keystore.available = arg[0][0] == '1';
        return IDLELOCK_OK;
    }
    if (strcmp(ev, "recent-auth") == 0) {
        int64_t ms = 0;
        parse_i64(arg[0], &ms);
        return idlelock_require_recent_auth(r->lock, ms);
    }
    return idlelock_require_unlocked(r->lock); /* gate */
}

/* Print the result line of an event. */
static void print_event(const replay *r, const char *ev, char **arg, int nargs)
{
    const idlelock_snapshot *s = &r->snap;
    char b1[32], b2[32], until[32];
    if (r->quiet)
        return;
    if (s->ms_until_idle_lock == IDLELOCK_NEVER)
        snprintf(until, sizeof until, "never");
    else
        snprintf(until, sizeof until, "%" PRId64, s->ms_until_idle_lock);
    printf("%8" PRId64 "  %-*s  %-16s  %-10s  %-12s  %4" PRId32 "  %4" PRId32 "  ",
           r->now, event_width(r), ev, library_status_name(r->last_status),
           name_of(state_names, COUNT(state_names), s->state, b1, sizeof b1),
           name_of(reason_names, COUNT(reason_names), s->reason, b2, sizeof b2),
           s->attempts_remaining, s->is_away);
    if (r->use_biometrics)
        printf("%4" PRId32 "  %5" PRId32 "  ", s->is_biometrics_enabled,
               s->is_biometrics_available);
    fputs(until, stdout);
    if (r->cfg.warn_before_ms > 0)
        printf("%s", s->is_warning ? "  WARNING" : "");
    if (s->is_passcode_required)
        fputs("  PASSCODE-ONLY", stdout);
    if (nargs > 0 && strcmp(ev, "passcode") != 0 && strcmp(ev, "unlock") != 0) {
        fputs("  ", stdout);
        print_escaped((const uint8_t *)arg[0], strlen(arg[0]));
    }
    if (r->have_value) {
        fputs(" = \"", stdout);
        print_escaped(value_buf, r->value_len);
        putchar('"');
    }
    putchar('\n');
}

/* Run `ev` at time t and record its status and the state after it. */
static int run_event(replay *r, int64_t t, const char *ev, char **arg, int nargs)
{
    size_t i;
    int st, rc, has_snap = 0, bio_before = r->snap.is_biometrics_enabled;
    r->now = t;
    r->event_seen = 1;
    rc = ensure_handle(r);
    if (rc != 0)
        return rc;
    r->events++;
    r->have_value = 0;
    memset(&r->snap, 0, sizeof r->snap);
    r->snap.size = (uint32_t)sizeof r->snap;
    st = -1;
    for (i = 0; i < COUNT(snap_events); i++)
        if (strcmp(ev, snap_events[i].name) == 0) {
            st = snap_events[i].fn(r->lock, &r->snap);
            has_snap = 1;
            break;
        }
    if (!has_snap && (strcmp(ev, "restart") == 0 || strcmp(ev, "reboot") == 0)) {
        rc = strcmp(ev, "restart") == 0 ? run_restart(r) : run_reboot(r);
        if (rc != 0)
            return rc;
        st = IDLELOCK_OK;
    } else if (!has_snap && strcmp(ev, "bio-begin") == 0) {
        st = run_bio_begin(r, arg, nargs);
        has_snap = 1;
    } else if (!has_snap && strcmp(ev, "bio-finish") == 0) {
        st = run_bio_finish(r, arg);
        has_snap = 1;
    } else if (!has_snap && strcmp(ev, "unlock-biometrics") == 0) {
        st = run_unlock_biometrics(r, arg, nargs);
        has_snap = 1;
    } else if (!has_snap) {
        st = run_other(r, ev, arg);
        has_snap = strcmp(ev, "unlock") == 0;
    }
    r->last_status = st;
    if (!has_snap || st == IDLELOCK_ERR_INVALID_ARGUMENT) {
        int sst = idlelock_snapshot_get(r->lock, &r->snap);
        if (sst != IDLELOCK_OK) {
            r->mismatches++;
            printf("%s:%lu: idlelock_snapshot_get failed: %s\n", r->file, r->line,
                   library_status_name(sst));
        }
    }
    /* Without an authenticator the library cannot delete the host's item:
     * the host does, once the shortcut went off (header, the two-phase
     * pair). */
    if (!r->use_biometrics && bio_before && !r->snap.is_biometrics_enabled)
        fake_keystore_wipe(&r->keystore);
    print_event(r, ev, arg, nargs);
    return 0;
}

/* An event line: <ms> <event> [args]. */
static int do_event(replay *r, char **tok, int n)
{
    int64_t t;
    size_t i;
    int min_args = -1, max_args = -1, rc;
    if (!parse_i64(tok[0], &t))
        return malformed(r, "bad time '%s' (a signed 64-bit decimal)", show(tok[0]));
    if (n < 2)
        return malformed(r, "missing event after the time");
    for (i = 0; i < COUNT(snap_events); i++)
        if (strcmp(tok[1], snap_events[i].name) == 0)
            min_args = max_args = 0;
    for (i = 0; i < COUNT(other_events); i++)
        if (strcmp(tok[1], other_events[i].name) == 0) {
            min_args = other_events[i].min_args;
            max_args = other_events[i].max_args;
        }
    if (min_args < 0)
        return malformed(r, "unknown event '%s'", show(tok[1]));
    if (n - 2 < min_args)
        return malformed(r, "event '%s' needs %d argument%s", show(tok[1]), min_args,
                         min_args == 1 ? "" : "s");
    if (n - 2 > max_args)
        return malformed(r, "unexpected '%s' after event '%s'", show(tok[2 + max_args]),
                         show(tok[1]));
    rc = check_args(r, tok[1], tok + 2, n - 2);
    if (rc != 0)
        return rc;
    return run_event(r, t, tok[1], tok + 2, n - 2);
}

/* ---------------------------------------------------------------------- */
/* Lines and files                                                        */
/* ---------------------------------------------------------------------- */

/* Cut the comment and split on blanks. Returns the count, or -1 if more
 * than `max` items. */
static int tokenize(char *line, char **tok, int max)
{
    static const char blanks[] = " \t\r\n\v\f";
    int n = 0;
    char *hash = strchr(line, '#');
    if (hash != NULL)
        *hash = '\0';
    for (;;) {
        line += strspn(line, blanks);
        if (*line == '\0')
            return n;
        if (n == max)
            return -1;
        tok[n++] = line;
        line += strcspn(line, blanks);
        if (*line != '\0')
            *line++ = '\0';
    }
}

static int do_line(replay *r, char *line, size_t len)
{
    char *tok[MAX_TOKENS];
    int n;
    if (strlen(line) != len)
        return malformed(r, "NUL byte in line");
    n = tokenize(line, tok, MAX_TOKENS);
    if (n < 0)
        return malformed(r, "more than %d items on one line", MAX_TOKENS);
    if (n == 0)
        return 0;
    if (strcmp(tok[0], "config") == 0)
        return do_config(r, tok, n);
    if (strcmp(tok[0], "expect") == 0)
        return do_expect(r, tok, n);
    return do_event(r, tok, n);
}

/* Set up `r` for a new file. */
static int replay_init(replay *r, const char *file, int quiet)
{
    memset(r, 0, sizeof *r);
    r->file = file;
    r->quiet = quiet;
    if (idlelock_config_init(&r->cfg, sizeof r->cfg) != IDLELOCK_OK) {
        fprintf(stderr, "%s: idlelock_config_init failed: %s\n", file,
                idlelock_last_error());
        return EXIT_MALFORMED;
    }
    r->cfg.kdf_opslimit = IDLELOCK_KDF_OPSLIMIT_MIN;
    r->cfg.kdf_memlimit = IDLELOCK_KDF_MEMLIMIT_MIN;
    fake_keystore_init(&r->keystore);
    return 0;
}

/* Read and replay every line of `f`. */
static int replay_lines(replay *r, FILE *f)
{
    char *line = NULL;
    size_t cap = 0;
    int rc = 0;
    for (;;) {
        ssize_t got;
        errno = 0;
        got = getline(&line, &cap, f);
        if (got < 0) {
            if (ferror(f) || errno != 0) {
                fprintf(stderr, "%s:%lu: read error: %s\n", r->file, r->line + 1,
                        strerror(errno != 0 ? errno : EIO));
                rc = EXIT_MALFORMED;
            }
            break;
        }
        r->line++;
        rc = do_line(r, line, (size_t)got);
        if (rc != 0)
            break;
    }
    free(line);
    return rc;
}

/* Replay one file. Returns 0, EXIT_MISMATCH or EXIT_MALFORMED. */
static int replay_file(const char *path, int quiet)
{
    replay r;
    FILE *f;
    int rc = replay_init(&r, path, quiet);
    if (rc != 0)
        return rc;
    f = fopen(path, "r");
    if (f == NULL) {
        fprintf(stderr, "%s: cannot open: %s\n", path, strerror(errno));
        return EXIT_MALFORMED;
    }
    rc = replay_lines(&r, f);
    fclose(f);
    idlelock_destroy(r.lock);
    remove_store(&r);
    total_files++;
    total_events += r.events;
    total_expects += r.expects;
    total_mismatches += r.mismatches;
    if (rc != 0)
        return rc;
    print_header(&r);
    if (!quiet)
        printf("-- %s: %lu events, %lu expects, %lu failed\n\n", path, r.events,
               r.expects, r.mismatches);
    return r.mismatches > 0 ? EXIT_MISMATCH : 0;
}

static int usage(void)
{
    fputs("usage: idlelock-replay [--quiet] FILE...\n", stderr);
    return EXIT_MALFORMED;
}

int main(int argc, char **argv)
{
    int i = 1, quiet = 0, status = 0;
    for (; i < argc && argv[i][0] == '-' && argv[i][1] != '\0'; i++) {
        if (strcmp(argv[i], "--") == 0) {
            i++;
            break;
        }
        if (strcmp(argv[i], "--quiet") != 0 && strcmp(argv[i], "-q") != 0)
            return usage();
        quiet = 1;
    }
    if (i >= argc)
        return usage();
    for (; i < argc; i++) {
        int rc = replay_file(argv[i], quiet);
        if (rc == EXIT_MALFORMED)
            return rc;
        if (rc != 0)
            status = rc;
    }
    printf("idlelock-replay: %lu trace%s, %lu events, %lu expects, %lu failed\n",
           total_files, total_files == 1 ? "" : "s", total_events, total_expects,
           total_mismatches);
    return status;
}
