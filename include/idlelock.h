/* SPDX-License-Identifier: MIT */
/*
 * idlelock.h: the C interface of libidlelock, an idle lock for signed-in
 * sessions.
 *
 * This header is the specification of the library and its behaviour
 * contract: everything a host needs to use it, and every rule the library
 * decides by, is written here. The pages of docs/ explain the same rules at
 * more length and add none (docs/STORE_FORMAT.md adds the store file's byte
 * layout, which no host needs); where a rule has an outside source (OWASP,
 * a platform's behaviour), its block names it.
 *
 * Conventions that hold for every function below unless its block says
 * otherwise:
 *
 *  - Times and durations are int64_t milliseconds. IDLELOCK_NEVER
 *    (INT64_MAX) means "no deadline"; arithmetic on times saturates and never
 *    wraps (so a deadline that would fall past INT64_MAX never comes, and
 *    ms_until_next_deadline lists no moment at or past INT64_MAX, the value
 *    of IDLELOCK_NEVER, though a clock that reads exactly INT64_MAX is still
 *    judged: use a clock whose readings stay far from the int64_t limits).
 *  - Functions return an int status: IDLELOCK_OK (0) or one of the
 *    IDLELOCK_ERR_* codes. On failure idlelock_last_error() describes what
 *    was wrong for the calling thread.
 *  - A NULL handle or a NULL required pointer is IDLELOCK_ERR_INVALID_ARGUMENT,
 *    never a crash. Bad arguments are checked before any effect: a call that
 *    returns IDLELOCK_ERR_INVALID_ARGUMENT changed nothing.
 *  - Threads: every function may be called from any thread, also several at
 *    once on the same handle, except idlelock_destroy(), which must be the
 *    last call on a handle.
 *  - The library copies what it keeps. Pointers passed in are only read
 *    during the call unless a block says otherwise; memory the library
 *    returns is owned by the library.
 *  - Structs that cross the boundary begin with a uint32_t `size` that the
 *    caller sets to sizeof the struct as its header knows it. The library
 *    reads and writes only the bytes that `size` covers, so a host built
 *    against an older or newer header keeps working: fields added in a
 *    later minor version are marked so, and a host passing an earlier
 *    version's size gets their defaults (config) or only the fields it
 *    knows (snapshot). A size smaller than the 1.0 struct's, a config size
 *    that ends inside a field (it matches no header: each version's config
 *    ends after its last field, or at the padding after it), or a size
 *    larger than 4096 is IDLELOCK_ERR_INVALID_ARGUMENT. In a larger
 *    config the bytes past the fields this library knows must be zero (a
 *    newer host's setting is never silently ignored); in a larger snapshot
 *    they are written as zero.
 *  - Only the idlelock_* names below are exported. The soname carries the
 *    ABI major: libidlelock.so.1.
 *  - Memory: IDLELOCK_ERR_NO_MEMORY reports the large allocations (Argon2id's
 *    kdf_memlimit bytes, libsodium's guarded sodium_malloc memory). Like the
 *    Swift runtime it is built on, the library aborts the process when the
 *    system cannot satisfy a small heap allocation (a few KiB), as most C
 *    libraries' callers would after malloc failed there.
 */
#ifndef IDLELOCK_H
#define IDLELOCK_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Versions                                                                 */
/* ------------------------------------------------------------------------ */

/** The header's version. idlelock_version() returns the library's version as
 * the string "MAJOR.MINOR.PATCH", and idlelock_version_number() returns
 * MAJOR * 10000 + MINOR * 100 + PATCH. The ABI major is also the soname's
 * number (libidlelock.so.1). A host may compare IDLELOCK_VERSION_NUMBER with
 * idlelock_version_number() at run time: the same major is ABI-compatible;
 * a library minor at least the header's has every function the header
 * declares. */
#define IDLELOCK_VERSION_MAJOR 1
#define IDLELOCK_VERSION_MINOR 2
#define IDLELOCK_VERSION_PATCH 2
#define IDLELOCK_VERSION_STRING "1.2.2"
#define IDLELOCK_VERSION_NUMBER 10202

/* ------------------------------------------------------------------------ */
/* Status codes (append-only: a value is never reused or renumbered)        */
/* ------------------------------------------------------------------------ */

/** Success. */
#define IDLELOCK_OK 0
/** A NULL or malformed argument, a wrong struct size, invalid UTF-8, or a
 * configuration value out of range. Nothing was changed. */
#define IDLELOCK_ERR_INVALID_ARGUMENT 1
/** The session is locked (LOCKED or LOCKED_OUT): secrets and the gate are
 * closed, and a locked session cannot replace its own passcode. Also
 * returned by an unlock whose result was overtaken by a lock that happened
 * while it ran. */
#define IDLELOCK_ERR_SESSION_LOCKED 2
/** The passcode did not open the lock. The attempt was counted; the snapshot
 * and the message say how many attempts remain. */
#define IDLELOCK_ERR_INVALID_PASSCODE 3
/** Too many wrong passcodes: the session is LOCKED_OUT and only
 * idlelock_disable() (signing out) leaves that state. */
#define IDLELOCK_ERR_LOCKED_OUT 4
/** The biometric shortcut is not enabled, not available, failed or was
 * cancelled. The passcode still works. */
#define IDLELOCK_ERR_LOCK_UNAVAILABLE 5
/** No passcode is set: the lock is not engaged. */
#define IDLELOCK_ERR_NO_PASSCODE 6
/** The store could not be read or written, or it is damaged (present but cut
 * short, failing its integrity check, foreign, of a newer format, or not a
 * regular file: the session then locks). */
#define IDLELOCK_ERR_STORAGE 7
/** No secret has that name. */
#define IDLELOCK_ERR_NOT_FOUND 8
/** The caller's buffer is too small; the needed size was written back. */
#define IDLELOCK_ERR_BUFFER_TOO_SMALL 9
/** Memory (or secure memory, sodium_malloc) could not be allocated. */
#define IDLELOCK_ERR_NO_MEMORY 10
/** A failure inside the library or libsodium that is not the caller's; the
 * message says which step. */
#define IDLELOCK_ERR_INTERNAL 11
/** (1.1) An escalating delay is running after wrong passcodes: try again in
 * out->ms_until_retry ms. The attempt was not counted and no key derivation
 * ran. */
#define IDLELOCK_ERR_RETRY_LATER 12
/** (1.2) idlelock_require_recent_auth: the session is unlocked, but its last
 * successful authentication is older than the caller allows. Ask the user
 * again (idlelock_unlock, or the biometric shortcut on the unlocked
 * session), then repeat the check. */
#define IDLELOCK_ERR_REAUTH_REQUIRED 13

/* ------------------------------------------------------------------------ */
/* Constants                                                                */
/* ------------------------------------------------------------------------ */

/** "No deadline": a timeout of IDLELOCK_NEVER never passes. */
#define IDLELOCK_NEVER INT64_MAX
/** background_after_ms only: use the value of idle_after_ms. */
#define IDLELOCK_SAME_AS_IDLE ((int64_t)-1)

/** Lock states (idlelock_snapshot.state). */
#define IDLELOCK_STATE_UNLOCKED 0
#define IDLELOCK_STATE_LOCKED 1
#define IDLELOCK_STATE_LOCKED_OUT 2

/** Why the session is locked (idlelock_snapshot.reason). */
#define IDLELOCK_REASON_NONE 0         /**< unlocked, or locked out from unlocked */
#define IDLELOCK_REASON_IDLE 1         /**< idle timeout passed in the foreground */
#define IDLELOCK_REASON_BACKGROUNDED 2 /**< away for the background timeout */
#define IDLELOCK_REASON_STARTUP 3      /**< lock_on_start, a restart check, or the
                                          store (another sign-in's, or damaged) */
#define IDLELOCK_REASON_MANUAL 4       /**< idlelock_lock() ("Lock now") */
#define IDLELOCK_REASON_CLOCK 5        /**< the clock read earlier than before */

/** Limits, checked with IDLELOCK_ERR_INVALID_ARGUMENT. */
#define IDLELOCK_GRACE_MAX_MS 60000
#define IDLELOCK_MAX_ATTEMPTS_MAX 100
#define IDLELOCK_PASSCODE_MIN_SCALARS 4     /**< Unicode scalar values, set_passcode only */
#define IDLELOCK_PASSCODE_MAX_BYTES 1024
#define IDLELOCK_SECRET_NAME_MAX_BYTES 64
#define IDLELOCK_SECRET_VALUE_MAX_BYTES 65536
#define IDLELOCK_SECRETS_MAX 256            /**< secrets held by one session */
#define IDLELOCK_LISTENERS_MAX 64           /**< listeners on one handle */
#define IDLELOCK_UNLOCK_REASON_MAX_BYTES 512
#define IDLELOCK_DEVICE_KEY_BYTES 32
/** Argon2id cost bounds. The floor is OWASP's Password Storage Cheat Sheet
 * minimum for Argon2id (19 MiB, 2 passes); the defaults are libsodium's
 * crypto_pwhash_OPSLIMIT_INTERACTIVE / MEMLIMIT_INTERACTIVE (2, 64 MiB). */
#define IDLELOCK_KDF_OPSLIMIT_MIN 2
#define IDLELOCK_KDF_OPSLIMIT_MAX 10
#define IDLELOCK_KDF_MEMLIMIT_MIN ((uint64_t)19 * 1024 * 1024)
#define IDLELOCK_KDF_MEMLIMIT_MAX ((uint64_t)1024 * 1024 * 1024)
/** (1.2) The passcode policies' bounds (config.passcode_max_age_ms: 0 or
 * 1 hour .. 30 days; config.biometric_max_uses: 0 or 1..1000) and
 * idlelock_require_recent_auth's max_age_ms (1 .. 30 days). */
#define IDLELOCK_PASSCODE_MAX_AGE_MIN_MS ((int64_t)3600000)
#define IDLELOCK_PASSCODE_MAX_AGE_MAX_MS ((int64_t)2592000000)
#define IDLELOCK_BIOMETRIC_MAX_USES_MAX 1000
#define IDLELOCK_RECENT_AUTH_MAX_MS ((int64_t)2592000000)

/* ------------------------------------------------------------------------ */
/* Types                                                                    */
/* ------------------------------------------------------------------------ */

/** An idle lock. Opaque; made by idlelock_create(), freed by
 * idlelock_destroy(). */
typedef struct idlelock idlelock;

/** The clock: milliseconds from any fixed origin. It must be monotonic and
 * must count time the device spends asleep (Linux CLOCK_BOOTTIME and
 * Darwin's mach_continuous_time do; Linux CLOCK_MONOTONIC does not, and a
 * lock built on it never fires after a night in a drawer). Never a wall
 * clock (time(), CLOCK_REALTIME, System.currentTimeMillis()): the device's
 * owner can set it, and a step forward is time passing for the library
 * (see "Events and the decision rules": it ends a running escalating delay
 * early). It is read once per call, and it is the one host callback called
 * with the library's internal lock held: it must return quickly and must
 * not call into the library. It is called on the thread that made the
 * call. */
typedef int64_t (*idlelock_clock_fn)(void *ctx);

/** What idlelock_authenticator.load_secret reports. */
#define IDLELOCK_AUTH_OK 0          /**< the check passed; the secret was written */
#define IDLELOCK_AUTH_FAILED 1      /**< the check failed (wrong face/finger, locked sensor) */
#define IDLELOCK_AUTH_CANCELLED 2   /**< the user or the system cancelled the prompt */
#define IDLELOCK_AUTH_UNAVAILABLE 3 /**< no item, no enrolment, no hardware */

/** The biometric shortcut's bytes: the secret the host keeps in its keystore. */
#define IDLELOCK_AUTH_SECRET_BYTES 32

/** The host authenticator: the host's platform keystore behind a biometric
 * check (Android Keystore with setUserAuthenticationRequired, an iOS
 * Keychain item with kSecAccessControlBiometryCurrentSet). The library has
 * no biometric code: it hands the host a random secret to keep, and the
 * secret the host gives back is key material that must open a wrap of the
 * session key; a biometric result is never a yes/no.
 *
 * Set `size` to sizeof(idlelock_authenticator); every callback is required.
 * idlelock_create copies the struct; `ctx` and the callbacks must stay
 * valid until idlelock_destroy returns. Callbacks run on the thread of the
 * call that needs them (create and foreground: is_available;
 * enable_biometrics: is_available, store_secret; unlock_with_biometrics:
 * load_secret; disable_biometrics, set_passcode and disable, when the
 * shortcut was on: delete_secret), never with the
 * library's internal lock held: they may take seconds (a person looking at a
 * prompt) while other threads keep calling, and they may call into the
 * library. Buffers passed to them belong to the library and are valid only
 * during the call; the host must not keep pointers to them. */
typedef struct idlelock_authenticator {
    uint32_t size;              /**< sizeof(idlelock_authenticator) */
    uint32_t reserved0;         /**< must be 0 */
    void *ctx;                  /**< passed to every callback */
    /** 1 when a biometric check can run now (hardware present, enrolled),
     * else 0. Cached by the library (refreshed at create, at
     * enable_biometrics and at every foreground): keep it quick. */
    int32_t (*is_available)(void *ctx);
    /** Keep these `len` (32) bytes in an item released only after a
     * biometric check, replacing any earlier one. Return 0 on success,
     * non-zero on failure (the shortcut then stays off). */
    int32_t (*store_secret)(void *ctx, const uint8_t *secret, size_t len);
    /** Run the biometric check, showing `reason` (the config's
     * unlock_reason: NUL-terminated UTF-8, or NULL), and on success copy the
     * stored secret into `out` (capacity `cap`, 32) and set *out_len.
     * Return an IDLELOCK_AUTH_* code. IDLELOCK_AUTH_OK with *out_len other
     * than 32, or any unknown code, is treated as a failed check; the
     * library wipes `out` afterwards. */
    int32_t (*load_secret)(void *ctx, const char *reason, uint8_t *out, size_t cap,
                           size_t *out_len);
    /** Delete the item (the shortcut was turned off). Return 0 on success;
     * a failure is ignored (the library has forgotten the wrap anyway). */
    int32_t (*delete_secret)(void *ctx);
} idlelock_authenticator;

/** One step of an escalating-delay schedule: once `failed_attempts` wrong
 * passcodes are counted, passcode attempts are refused with
 * IDLELOCK_ERR_RETRY_LATER for `delay_ms` (1..86400000, one day at most).
 * Steps are strictly increasing in failed_attempts (1..max_attempts-1) and
 * non-decreasing in delay_ms. With a store, the delay an attempt would
 * start is saved together with its raised count, before the passcode is
 * checked (a process killed during the check skips neither), as the
 * period's length and its start on the clock of the process that counted
 * it; that start only tells one period from another: a process that does
 * not follow a period yet (every create; a running process that meets
 * another process's period at an attempt) runs the whole period from its
 * own clock reading, so a delay holds whatever the origins of the
 * processes' clocks, and may end up to one delay_ms later there than in
 * the process that started it. A clock step (see "Events and the decision
 * rules") carries a period over (1.2.2): from the new reading it runs for
 * what it had left at the handle's previous reading, never longer (so a
 * clock that jitters cannot keep the passcode out) and never shorter (a
 * step forgives none of it); one that had run out before the step stays
 * over. No period ever exceeds its configured delay_ms. (1.2.0 and 1.2.1
 * restarted a running period in full at every step: one step back before
 * the last activity then kept the passcode out for as long as the step.)
 * max_attempts still ends in a lockout; a right
 * passcode, a biometric unlock or a new passcode (idlelock_set_passcode)
 * resets the count, and with it any delay. */
typedef struct idlelock_delay_step {
    int32_t failed_attempts;     /**< wrong passcodes counted, 1..max_attempts-1 */
    int32_t reserved0;           /**< must be 0 */
    int64_t delay_ms;            /**< attempts refused this long, 1..86400000 ms */
} idlelock_delay_step;

/** The iOS-like preset, after Apple's Platform Security guide ("Escalating
 * time delays for passcode attempts"): 5 wrong passcodes: 1 minute; 6: 5
 * minutes; 7: 15 minutes; 9: 1 hour. Use it with max_attempts 10 (every
 * step must be below max_attempts). Writes a pointer to a static table
 * owned by the library and its length. Returns IDLELOCK_OK or
 * IDLELOCK_ERR_INVALID_ARGUMENT (NULL pointer). Thread: any. */
int idlelock_delay_schedule_ios(const idlelock_delay_step **steps, size_t *len);

/** Creation options. Fill with idlelock_config_init() (which sets `size` and
 * every default), then change the fields you need. Every field below is
 * copied by idlelock_create(): the caller may free what the pointers point
 * to afterwards. A value out of range makes idlelock_create() fail with
 * IDLELOCK_ERR_INVALID_ARGUMENT and a message naming the field and the
 * value: a lock that silently never closes is worse than one that fails to
 * start. */
typedef struct idlelock_config {
    uint32_t size;               /**< sizeof(idlelock_config), set by config_init */
    int32_t lock_on_start;       /**< 0 or 1; default 1: idlelock_start() locks an
                                    engaged session with REASON_STARTUP. 0
                                    with a store_path needs a device_key */
    int64_t idle_after_ms;       /**< > 0 or IDLELOCK_NEVER (default): lock after
                                    this long without idlelock_touch() */
    int64_t background_after_ms; /**< >= 0, IDLELOCK_NEVER, or IDLELOCK_SAME_AS_IDLE
                                    (default): lock when away (backgrounded)
                                    this long; 0 locks every absence that
                                    outlasts the grace window */
    int64_t inactive_after_ms;   /**< >= 0 or IDLELOCK_NEVER; default 30000: an
                                    absence that never reached the background
                                    (inactive only) locks after the longer of
                                    this and background_after_ms */
    int64_t grace_ms;            /**< 0..60000, default 1500: an absence this short
                                    or shorter is presence (a Face ID sheet,
                                    the notification shade) */
    int32_t max_attempts;        /**< 1..100, default 5: wrong passcodes before
                                    LOCKED_OUT */
    uint32_t reserved0;          /**< must be 0 */
    uint64_t kdf_opslimit;       /**< Argon2id passes, 2..10, default 2 */
    uint64_t kdf_memlimit;       /**< Argon2id memory in bytes, 19 MiB..1 GiB,
                                    default 64 MiB */
    const char *store_path;      /**< NULL (default): memory only. Otherwise
                                    the path of a store file the library owns
                                    (plus `<path>.lock` beside it, and
                                    `<path>.tmp.XXXXXX` while it writes,
                                    removed at create when a killed process
                                    left one: two stores in one folder need
                                    names that are not each other's with
                                    these endings): UTF-8, at
                                    most 4000 bytes, its file name (after the
                                    last slash) at most 244 bytes, in an
                                    existing folder.
                                    Resolved once, at create (a relative path
                                    against the current folder then); see
                                    "The store" below. */
    idlelock_clock_fn clock;     /**< NULL (default): Linux CLOCK_BOOTTIME,
                                    Darwin mach_continuous_time */
    void *clock_ctx;             /**< passed to clock; must be NULL when clock is */
    const idlelock_authenticator *authenticator; /**< NULL (default): no biometric
                                    shortcut; else copied at create */
    const char *unlock_reason;   /**< NULL or NUL-terminated UTF-8 of at most
                                    512 bytes, for the authenticator's prompt */
    const uint8_t *device_key;   /**< NULL, or 32 bytes from a hardware keystore:
                                    mixed into the passcode key (BLAKE2b keyed
                                    hash of the Argon2id output), and with a
                                    store it keys the store's integrity check
                                    and opens the session key at create */
    size_t device_key_len;       /**< 0 with NULL, 32 otherwise */
    /* ---- added in 1.1 (a host passing the 1.0 size gets the defaults) ---- */
    int64_t prompt_cap_ms;       /**< 0..600000, default 120000: how long prompts
                                    the app opened itself (idlelock_prompt_begin)
                                    can defer the rules, from the earliest one
                                    still open; since 1.2 also how long a
                                    biometric check may take (a longer one
                                    unlocks nothing), so 0 refuses the
                                    biometric calls */
    int64_t warn_before_ms;      /**< 0 (default, off) or 1..idle_after_ms-1: the
                                    snapshot's is_warning opens this long before
                                    the idle lock, so the host can save a draft
                                    or ask "still there?" */
    const idlelock_delay_step *delay_schedule; /**< NULL (default): no
                                    delays; else escalating delays after wrong
                                    passcodes, copied at create (see
                                    idlelock_delay_schedule_ios) */
    size_t delay_schedule_len;   /**< steps in delay_schedule, at most 32 */
    /* ---- added in 1.2 (a host passing the 1.1 size gets the defaults:
     *      every policy off); see "Passcode policies" below ---- */
    int64_t passcode_max_age_ms; /**< 0 (default, off) or 3600000..2592000000
                                    (1 hour .. 30 days): biometric unlocks are
                                    refused once the last passcode entry is
                                    this old */
    int32_t passcode_after_reboot; /**< 0 (default) or 1: with a store, the first
                                    unlock after the device restarted must be
                                    by passcode */
    int32_t biometric_max_uses;  /**< 0 (default, off) or 1..1000: after this
                                    many biometric unlocks in a row, the next
                                    unlock needs the passcode */
} idlelock_config;


/** What the lock looks like after a call. Set `size` to
 * sizeof(idlelock_snapshot) before passing one to the library. */
typedef struct idlelock_snapshot {
    uint32_t size;               /**< set by the caller */
    int32_t state;               /**< IDLELOCK_STATE_* */
    uint64_t seq;                /**< number of the latest change of state, reason,
                                    a flag below or attempts_remaining;
                                    starts at 0 at create */
    int32_t reason;              /**< IDLELOCK_REASON_* */
    int32_t is_enabled;          /**< 1 when a passcode is set (lock engaged) */
    int32_t is_biometrics_enabled; /**< 1 when the biometric shortcut is on */
    int32_t is_biometrics_available; /**< 1 when the authenticator's is_available
                                    said so (cached); 0 without one */
    int32_t is_away;             /**< 1 while an absence is recorded: show a privacy
                                    cover (the app-switcher image is taken now),
                                    whatever the state */
    int32_t attempts_remaining;  /**< wrong passcodes left before LOCKED_OUT;
                                    max_attempts when not engaged, 0 when
                                    locked out */
    int64_t last_activity_ms;    /**< clock reading of the last activity */
    int64_t ms_until_idle_lock;  /**< ms until the idle deadline, 0 when due,
                                    IDLELOCK_NEVER when the idle timeout is
                                    NEVER, the session is locked, or the lock
                                    is not engaged. While a prompt defers the
                                    idle rule it stays 0 past the deadline:
                                    time a timer with ms_until_next_deadline
                                    (1.1), not with this */
    /* ---- added in 1.1 (a host passing the 1.0 size gets only the above) ---- */
    int32_t is_warning;          /**< 1 within warn_before_ms of the idle lock
                                    (not while a prompt defers the idle rule);
                                    a change is heard by listeners; activity
                                    ends it */
    int32_t reserved1;           /**< 0 */
    int64_t ms_until_warning;    /**< ms until is_warning opens, 0 when open,
                                    IDLELOCK_NEVER without a warning. While a
                                    prompt defers the idle rule: at least the
                                    time to the prompt's cap (the warning
                                    cannot open before it; if the idle
                                    deadline has passed by then, the session
                                    locks IDLE without a warning) */
    int64_t ms_until_retry;      /**< ms until a passcode attempt is accepted
                                    again (an escalating delay), 0 when it is */
    int64_t ms_until_next_deadline; /**< ms until the earliest moment anything
                                    can change (the idle deadline, the warning,
                                    the end of the grace window while away, the
                                    absence's timeout, a prompt's cap, the end
                                    of an escalating delay, the moment a
                                    passcode policy starts to require the
                                    passcode (1.2)): wake a
                                    timer then and call idlelock_check. 0 when
                                    due now, IDLELOCK_NEVER when nothing is due.
                                    It may wake a host early, never late. */
    /* ---- added in 1.2 (a host passing the 1.1 size gets only the above) ---- */
    int32_t is_passcode_required; /**< 1 while a passcode policy refuses the
                                    biometric shortcut (engaged sessions
                                    only): show the passcode field only. A
                                    change is heard by listeners */
    int32_t reserved2;           /**< 0 */
    int64_t last_auth_ms;        /**< clock reading of the last successful
                                    authentication on this handle (an unlock
                                    or a re-authentication, by passcode or
                                    biometrics; not idlelock_set_passcode),
                                    IDLELOCK_NEVER when there was none (or
                                    it was forgotten: sign-out, or any
                                    clock step the handle detects, wherever
                                    the reading lands; see "Events and the
                                    decision rules"). See
                                    idlelock_require_recent_auth */
} idlelock_snapshot;

/** A listener: called with a snapshot after each change of state, reason, a
 * snapshot flag or attempts_remaining (an unlock of a locked session is
 * heard twice: the attempt counted while still LOCKED, then UNLOCKED), in
 * `seq` order, one call at a time per handle. Changes within one call are
 * heard once, as the state after it. A listener hears only changes made
 * after it subscribed. When listeners fall more than 1024 changes behind
 * (a listener slower than the events), pending changes are merged: `seq`
 * then skips, the order holds, and the latest state is always heard; the
 * call that is delivering keeps delivering while others add changes. The
 * snapshot is owned by the library and valid only during the call. It runs
 * on the thread of some call on the handle (often the one that caused the
 * change, never with an internal lock held), and it may call any function
 * on the handle, including idlelock_unsubscribe() of itself and
 * idlelock_destroy() (see there: the delivery then stops after this
 * listener); changes it causes are delivered after the current one. It
 * must not block waiting for another thread that is calling into the same
 * handle. */
typedef void (*idlelock_listener_fn)(void *ctx, const idlelock_snapshot *snapshot);

/* ------------------------------------------------------------------------ */
/* The store (config.store_path)                                            */
/*                                                                          */
/* With a store, the session outlives its process and is shared by every    */
/* process that opens the same path (an app and its extensions): the        */
/* passcode wrap, the secrets, the attempt count and lockout, a sign-out,   */
/* and the latest lock saved by any process. Each process keeps its own     */
/* lock state. The file is versioned and integrity-checked (BLAKE2b, keyed  */
/* with a subkey of the device key when one is given), written only by      */
/* replace (mkstemp in the same folder, fsync (on Darwin F_FULLFSYNC),      */
/* rename, fsync of the folder, mode 0600), so a crash at any instant       */
/* leaves the old or the new state (a folder fsync that fails after the     */
/* rename does not fail the step, whose file every process reads: only its  */
/* survival across a power cut is then not ensured; docs/STORE.md). Every   */
/* durable step takes an exclusive flock on `<path>.lock` (never renamed or */
/* deleted by the library; it also holds the rollback mark, below), waiting */
/* at most 2000 ms for another process; other calls on the same handle      */
/* wait for a durable step to finish. Since 1.2.2 a step then also takes    */
/* an flock on the store's folder (where the file system can lock one,      */
/* and no other open file holds it past the same 2000 ms: anyone who may    */
/* read the folder can flock it, and that never stops a step), which a      */
/* cleanup tool that deletes `*.lock` files cannot take away, and           */
/* a process checks that the file it locked is still the one at             */
/* `<path>.lock` (same device and inode, still linked); when a tool         */
/* deleted or replaced it, the process takes the new file. So no two        */
/* durable steps run at once and no attempt is lost; the mark the deleted   */
/* file held is lost with it.                                               */
/* Format: docs/STORE_FORMAT.md.                                            */
/*                                                                          */
/*  - store_path names one file for the life of the handle: its folder is   */
/*    opened at create (a relative path against the current folder then)    */
/*    and held open, and every file is reached relative to it, so a later   */
/*    chdir of the host, or a rename of a parent folder, changes nothing.   */
/*    The store and `<path>.lock` are opened without blocking and without   */
/*    following a symbolic link, and must be regular files: a FIFO, a       */
/*    device, a folder or a link there is IDLELOCK_ERR_STORAGE at once.     */
/*                                                                          */
/*  - Before a passcode is set nothing is written: secrets are in memory.   */
/*    idlelock_set_passcode creates the store with them in one replace.     */
/*  - idlelock_create reads it: a lockout or a saved lock is in force from  */
/*    create. Without a device key the session key can only be opened by an */
/*    unlock, so a stored session is LOCKED (REASON_STARTUP) from create.   */
/*    With one, it opens at create and idlelock_start applies lock_on_start,*/
/*    or, with lock_on_start 0, judges the time since the last saved        */
/*    activity (saved by unlock, set_passcode and each lock) as an absence  */
/*    that reached the background; a saved activity from another boot or   */
/*    later than the clock locks with REASON_STARTUP. This needs a clock    */
/*    whose origin is shared by the processes of one boot (the default is). */
/*  - Until its first idlelock_start, a handle that found a stored, engaged */
/*    session at create has judged nothing of the restart, so it hands out  */
/*    nothing: the secret calls and idlelock_require_unlocked answer        */
/*    IDLELOCK_ERR_SESSION_LOCKED, and idlelock_set_passcode and            */
/*    idlelock_enable_biometrics refuse too (an app extension that never    */
/*    calls start gets no secret), also after an unlock. Call               */
/*    idlelock_start first.                                                 */
/*  - The count is raised and saved before a passcode is checked, together  */
/*    with the escalating delay that count would start (a kill during the   */
/*    check never refunds an attempt nor skips its delay; an attempt whose  */
/*    raise cannot be saved is refused, IDLELOCK_ERR_STORAGE, unchecked);   */
/*    the reset is saved before an unlock takes effect (else STORAGE, still */
/*    locked). Every lock is saved, best effort: a lock always takes effect */
/*    in memory first, and a failed save makes the call that locked return  */
/*    IDLELOCK_ERR_STORAGE with the state LOCKED (a lock that could not be  */
/*    saved does not outlive the process).                                  */
/*  - Calls that authenticate or touch secrets (unlock, the biometric calls,*/
/*    the secret calls, require_unlocked, set_passcode) first look at the   */
/*    store (its first 120 bytes and its size): a lockout there is a        */
/*    lockout here; a store that is absent (signed out elsewhere) signs     */
/*    this process out; a store made by another sign-in replaces this       */
/*    session, LOCKED (REASON_STARTUP). Only absence is a sign-out: a store */
/*    that is present but cut short, failing its integrity check, foreign,  */
/*    of a newer format, or not a regular file is damage, answered with     */
/*    IDLELOCK_ERR_STORAGE while the session locks (REASON_STARTUP) or stays*/
/*    locked. Damage that keeps the first bytes and the size is found by the*/
/*    next durable step. Nothing is written over a damaged store;           */
/*    idlelock_disable deletes it (the way out, besides repairing it).      */
/*  - A damaged, edited, foreign or future-version file makes create fail   */
/*    with IDLELOCK_ERR_STORAGE and is left untouched; so does a device key */
/*    other than the one the store was made with ("device key does not     */
/*    match"), before any attempt is counted.                               */
/*  - Rollback: a handle never adopts a generation of its sign-in lower     */
/*    than one it has seen, and `<path>.lock` keeps a mark of the highest   */
/*    one written, raised after every write (docs/STORE_FORMAT.md), so a    */
/*    process started later catches an older copy of the store put back     */
/*    too: IDLELOCK_ERR_STORAGE, the session locks (REASON_STARTUP) or      */
/*    create fails, and the file is left untouched; put the latest copy     */
/*    back, or sign out. Generations never restart (1.2.2): a sign-out      */
/*    moves the mark past the sign-in's last generation, and a new sign-in  */
/*    continues above the mark, so a copy of any earlier sign-in is older   */
/*    than the mark too, and none signs in again. An empty `<path>.lock`    */
/*    (as 1.2.0 and earlier left it) holds no mark yet: the first process   */
/*    that opens the store writes one. What the mark cannot catch (both     */
/*    files put back, `<path>.lock` emptied or deleted), and what that      */
/*    restores, is in docs/STORE.md.                                        */
/*  - Without a device key, anyone who can copy the file can search a short */
/*    passcode offline (10^4 Argon2id runs for 4 digits), and anyone who    */
/*    can write it can edit it (the check is then unkeyed): set the count,  */
/*    the lockout, the biometric uses. With one, edits are refused, but a   */
/*    copy put back together with `<path>.lock` restores the count, the     */
/*    lockout and the biometric uses of its time; only a counter outside    */
/*    the app's folder (a host monotonic counter) could tell.               */
/* ------------------------------------------------------------------------ */

/* ------------------------------------------------------------------------ */
/* Life cycle                                                               */
/* ------------------------------------------------------------------------ */

/** Fill `cfg` with the defaults and set cfg->size = size. Pass
 * sizeof(idlelock_config) as `size` (a host built against the 1.0 header
 * passes that header's smaller size, which is accepted). Only the first
 * `size` bytes are written; bytes this library does not know are zeroed.
 * Defaults: idle_after_ms and background_after_ms left unset on purpose
 * (IDLELOCK_NEVER and IDLELOCK_SAME_AS_IDLE: idlelock_create() refuses a
 * lock that never times out until one of them is finite), inactive_after_ms
 * 30000, grace_ms 1500, max_attempts 5, lock_on_start 1, the Argon2id
 * limits above, prompt_cap_ms 120000, every 1.1 and 1.2 option off, and
 * NULL pointers.
 * Returns IDLELOCK_OK, or IDLELOCK_ERR_INVALID_ARGUMENT when cfg is NULL or
 * size matches no version of the struct (see the size rules at the top) or
 * is larger than 4096.
 * Thread: any. */
int idlelock_config_init(idlelock_config *cfg, size_t size);

/** Create an idle lock from `cfg` and store it in *out. The lock starts
 * UNLOCKED and not engaged (no passcode), last activity = now, with a fresh
 * random session key in secure memory. Call idlelock_start() once the host
 * is ready to show a lock screen.
 * `cfg` is only read; its pointers are copied. *out is written only on
 * success (set to NULL on failure when out is not NULL); the caller owns
 * the handle and frees it with idlelock_destroy().
 * With a store_path, its folder is opened and the store is read here (see
 * "The store"); a stored, engaged session hands out nothing until
 * idlelock_start.
 * Returns IDLELOCK_OK; IDLELOCK_ERR_INVALID_ARGUMENT (NULL pointers, a
 * wrong size, non-zero bytes past the fields this library knows, a value
 * out of range: the message names the field); IDLELOCK_ERR_STORAGE (the
 * folder or the lock file cannot be opened, the lock file is not a regular
 * file, or the store is damaged, foreign, of a newer format, not a regular
 * file, or made with another device key; it is left untouched);
 * IDLELOCK_ERR_NO_MEMORY; IDLELOCK_ERR_INTERNAL (libsodium failed to
 * initialise).
 * Thread: any. */
int idlelock_create(const idlelock_config *cfg, idlelock **out);

/** Destroy a lock: wipe its session key, passcode wrap and secrets, and free
 * it. destroy(NULL) does nothing. Must be the last call on the handle: no
 * other thread may be inside a call on it, except the watcher thread
 * (idlelock_watch_start), which destroy stops and waits for.
 * Once destroy returns, no callback of the handle runs on any thread: no
 * listener (not even the rest of a delivery in progress), no
 * authenticator callback, no clock call, and the watcher thread has ended
 * or, when destroy is called on it, ends when its listener returns. So a
 * binding may free its callback contexts as soon as destroy returns.
 * destroy may be called from inside a listener, on any thread (the
 * watcher's included): the delivery stops after that listener, whose
 * snapshot stays valid until it returns, and the handle's memory is
 * released only then. The call that was delivering returns its own status
 * when its work was done before it delivered (an event, idlelock_lock,
 * idlelock_disable with the shortcut off); a call with work left after its
 * delivery (the check of idlelock_unlock, the host's check of
 * idlelock_unlock_with_biometrics, the delete_secret that a sign-out, a new
 * passcode, idlelock_disable_biometrics or any other call that turned the
 * shortcut off would make) skips it and returns
 * IDLELOCK_ERR_INVALID_ARGUMENT, and a delete_secret skipped so leaves a
 * keystore item whose secret opens nothing any more: delete it yourself.
 * A listener that destroyed the handle must not use it again. Listeners
 * are the only callbacks destroy may be called from: never from an
 * authenticator callback or the clock (the call that runs them still uses
 * the handle when they return; a binding whose host may close the lock
 * there defers the destroy until that call has returned, as the Java, C#,
 * Python and LuaJIT bindings do). */
void idlelock_destroy(idlelock *lock);

/** Start a watcher thread for hosts with no event loop (a C kiosk program, a
 * game server): it sleeps until out->ms_until_next_deadline and calls
 * idlelock_check, so the session locks on time with no host call; listeners
 * then run on the watcher thread. It sleeps on the default clock (Linux: a
 * timerfd on CLOCK_BOOTTIME, woken early through an eventfd when a call
 * moves the deadline earlier; Darwin: a kqueue timer on mach continuous
 * time and a user event), so it needs the default clock: with
 * config.clock set it is refused.
 * Starting a running watcher does nothing; starts and stops may race from
 * any number of threads. Returns IDLELOCK_OK,
 * IDLELOCK_ERR_INVALID_ARGUMENT (NULL lock, a caller-supplied clock) or
 * IDLELOCK_ERR_INTERNAL (the thread or its file descriptors could not be
 * made). Thread: any. */
int idlelock_watch_start(idlelock *lock);

/** Stop the watcher and wait for the thread it stopped to end (no watcher
 * thread outlives the stop that stopped it; a stop that finds none
 * running returns at once). Called from a listener running on the watcher
 * thread it does not wait for itself: the thread ends when that listener
 * returns. idlelock_destroy stops it too (and may then also
 * be called from such a listener). Stopping a stopped watcher does
 * nothing. Returns IDLELOCK_OK or IDLELOCK_ERR_INVALID_ARGUMENT (NULL
 * lock). Thread: any. */
int idlelock_watch_stop(idlelock *lock);

/* ------------------------------------------------------------------------ */
/* Events and the decision rules                                            */
/*                                                                          */
/* Every call below that reads the clock first checks for a clock step,     */
/* then judges the deadlines that are due, as idlelock_check() does, then   */
/* does its own work. Judging happens only while engaged and UNLOCKED. "A   */
/* timeout T has passed" means elapsed >= T; "within the grace window"      */
/* means away <= grace_ms. Locks never overwrite each other: a locked       */
/* session keeps its reason until it is unlocked.                           */
/*                                                                          */
/* Clock steps. A step is a reading earlier than the most recent reading of */
/* any call of this handle, or than its recorded activity or departure.     */
/* Every call that reads the clock checks for one, idlelock_disable         */
/* included: a step seen there counts like any other (the handle's clock    */
/* bookkeeping moves to the landing reading, which the unengaged session    */
/* keeps; the sign-out then deletes the store, and the entry with it). A    */
/* step is seen once (1.2.2): the recorded activity and                     */
/* departure move to the reading where the clock landed, in every state     */
/* (LOCKED and LOCKED_OUT too: snapshot.last_activity_ms shows it), so a    */
/* later reading is judged from there, and a reading that is earlier than   */
/* the old activity but not than the landing is no new step. An engaged,    */
/* UNLOCKED session locks with REASON_CLOCK; an unengaged one resets its    */
/* bookkeeping to now. In every state a step makes every age the handle     */
/* measures on its clock unknown, wherever the reading lands, and the       */
/* strict answer follows; a step never re-opens what an age had closed: the */
/* last passcode entry counts as too old (passcode_max_age_ms) until the    */
/* passcode is entered again; last_auth_ms is forgotten                     */
/* (idlelock_require_recent_auth asks again); an escalating delay still     */
/* running is carried over (idlelock_delay_step: it keeps what it had left, */
/* no more); open biometric requests expire. With a store, every step a    */
/* handle sees is recorded there, whether the handle is engaged or not and  */
/* whichever sign-in the store now holds (in the durable step that saves    */
/* the call's lock, or in one of its own: best effort, no status of its     */
/* own): the passcode entry the store holds in this boot                    */
/* is marked unknown, whatever this handle remembers of it (another process */
/* may have entered the passcode since this handle last looked), so that    */
/* every process of the sign-in, and the next one to start, takes it as     */
/* unknown too; and this handle never trusts that entry again, even when    */
/* the record could not be written.                                         */
/*                                                                          */
/* What is not seen as a step: a step back by less than the time since the  */
/* handle's previous reading (the clock still reads later than before:      */
/* deadlines and ages look younger by at most that step), and any step      */
/* forward. No reading of a clock tells a step forward from time passing (a */
/* device asleep for a week reads the same), and the library does not       */
/* compare a caller's clock with CLOCK_BOOTTIME (a test's fake clock or a   */
/* replayed trace runs at another rate by design). A step forward brings    */
/* every deadline and age closer (the idle and background locks, the moment */
/* passcode_max_age_ms requires the passcode, the end of the step-up        */
/* window, a request's life): the strict side, except that it ends a        */
/* running escalating delay early by the step (max_attempts still locks     */
/* out). The default clock (CLOCK_BOOTTIME) does not step; a caller's clock */
/* must not either: never a wall clock. What a process in its own time      */
/* namespace can do with the default clock is in docs/STORE.md ("What a     */
/* process of the same user can fake").                                     */
/*                                                                          */
/* An unlock that succeeds while the app is away (out->is_away), by the     */
/* passcode or the biometric shortcut, also as a re-authentication of an    */
/* unlocked session, sets the departure to the moment it takes as last      */
/* activity (idlelock_unlock: the call's entry; a biometric check: its      */
/* end): the absence is measured from the unlock, and whether it reached    */
/* the background is kept. A failed one moves nothing. So a biometric       */
/* re-check answered while its system sheet keeps the app inactive is       */
/* judged from the answer when it passes (the request's prompt, ending at   */
/* the answer, covers the absence for grace_ms more), and from the real     */
/* departure when it fails, once that prompt's end plus grace_ms has        */
/* passed.                                                                  */
/*                                                                          */
/* `out` may be NULL; when given, out->size must be set, it is validated    */
/* before any effect, and it receives the state when the call returns       */
/* (also when the call failed for a reason other than a bad argument). A    */
/* call that waits for a key derivation or a host check (unlock, the        */
/* biometric calls, set_passcode, enable_biometrics) reads the clock again  */
/* when that ends, checks for a step and judges at that reading too; when   */
/* the clock stepped in between, an unlock takes its attempt at that second */
/* reading (its entry, activity and any delay it starts), never at one on   */
/* the clock's old timeline (1.2.2).                                        */
/* Each returns IDLELOCK_OK, IDLELOCK_ERR_INVALID_ARGUMENT (NULL lock, bad  */
/* out->size), or, with a store, IDLELOCK_ERR_STORAGE when the call locked  */
/* the session and saving the lock failed (the session is LOCKED anyway).   */
/* Events do file I/O only when they lock or see a clock step on an engaged */
/* session with a store (the step is told to the store). Thread: any.       */
/* ------------------------------------------------------------------------ */

/** Apply lock_on_start. Only the first call of idlelock_start on a handle
 * applies it: if the session is then engaged and unlocked and lock_on_start
 * is 1, it locks with REASON_STARTUP. A start before idlelock_set_passcode
 * uses it up (start, set_passcode, start stays UNLOCKED). Later starts only
 * judge. With a store, the first start also judges the restart (see "The
 * store"), and until it a handle that found a stored, engaged session at
 * create hands out nothing (secrets and the gate answer
 * IDLELOCK_ERR_SESSION_LOCKED): call it before anything else. */
int idlelock_start(idlelock *lock, idlelock_snapshot *out);

/** User activity (a tap, a key, a scroll). While locked it does nothing (a
 * tap on the lock screen is not activity); otherwise judge, and if still
 * unlocked, last activity = now. Call it on every input event: it does no
 * I/O and no allocation. */
int idlelock_touch(idlelock *lock, idlelock_snapshot *out);

/** The app is still visible but not interactive: iOS resign-active, Android
 * onPause, Flutter and React Native `inactive` (a Face ID sheet, the
 * notification shade, the app-switcher gesture). Records the departure if
 * none is recorded (the first departure wins). If this call recorded it and
 * the idle timeout has already passed, the session locks with REASON_IDLE
 * on the way out. */
int idlelock_inactive(idlelock *lock, idlelock_snapshot *out);

/** The app is no longer visible: iOS did-enter-background, Android onStop,
 * Flutter `hidden` / `paused`. As idlelock_inactive(), and marks the absence
 * as having reached the background (also after an inactive, whose earlier
 * departure stands). A host that cannot tell inactive from background calls
 * this for both. */
int idlelock_background(idlelock *lock, idlelock_snapshot *out);

/** The app is back in the foreground. Takes and clears the departure; then,
 * if engaged and unlocked: no departure recorded (a stray or first
 * "active" event): judge the idle timeout only; away <= grace_ms: presence
 * (last activity = now); away >= the absence's timeout (background_after_ms
 * if it reached the background, else the longer of background_after_ms and
 * inactive_after_ms): lock with REASON_BACKGROUNDED; idle timeout passed
 * since the last activity: lock with REASON_IDLE; otherwise stay unlocked
 * with last activity unchanged. */
int idlelock_foreground(idlelock *lock, idlelock_snapshot *out);

/** Judge the deadlines that are due now, without an event: while away past
 * the grace window the background rule, then the idle rule (a host that
 * keeps running in the background seals the session without waiting for
 * the return); not away, the idle rule. Call it from a timer.
 * out->ms_until_idle_lock times the idle deadline only, and only while the
 * app is present: while away (out->is_away), nothing locks within grace_ms
 * of the departure, and the background deadline (background_after_ms from
 * the departure) applies too, so a host that runs in the background should
 * also call check then. */
int idlelock_check(idlelock *lock, idlelock_snapshot *out);

/** "Lock now": an engaged, unlocked session locks with REASON_MANUAL.
 * Otherwise (already locked, or no passcode) nothing, status OK. */
int idlelock_lock(idlelock *lock, idlelock_snapshot *out);

/** Lifecycle adapters: a platform's own state names, mapped by the library
 * so no host maps them the wrong way round (the table and its sources are
 * in docs/LIFECYCLE.md). `platform` is one of: */
#define IDLELOCK_PLATFORM_IOS_SCENE_PHASE 1          /**< SwiftUI ScenePhase */
#define IDLELOCK_PLATFORM_IOS_APPLICATION_STATE 2    /**< UIApplication.State */
#define IDLELOCK_PLATFORM_ANDROID_LIFECYCLE_EVENT 3  /**< androidx Lifecycle.Event */
#define IDLELOCK_PLATFORM_FLUTTER_APP_LIFECYCLE_STATE 4 /**< Flutter AppLifecycleState */
#define IDLELOCK_PLATFORM_REACT_NATIVE_APP_STATE 5   /**< React Native AppState */

/** Report the platform state `state_name` (NUL-terminated, the platform's
 * own case-sensitive spelling: "inactive", "ON_STOP", "hidden", ...) as
 * idlelock_foreground, idlelock_inactive or idlelock_background would.
 * Names that carry no presence change (Android ON_CREATE, ON_START,
 * ON_DESTROY; Flutter detached; React Native unknown, extension) only judge
 * the deadlines, as idlelock_check. Returns what that call returns, or
 * IDLELOCK_ERR_INVALID_ARGUMENT (NULL lock or name, an unknown platform, a
 * name the platform does not have: nothing changed; idlelock_last_error()
 * then lists the platform's names, or the platforms). Thread: any. */
int idlelock_lifecycle(idlelock *lock, int32_t platform, const char *state_name,
                       idlelock_snapshot *out);

/** Prompts the app opens itself: a biometric sheet, a file picker, the
 * camera, a share sheet can take the app out of the foreground for longer
 * than any grace window. Call idlelock_prompt_begin just before showing one
 * and idlelock_prompt_end once it is gone. While a prompt is open, the idle
 * rule waits, and an absence that began while it was open is presence
 * (last activity = now at the return) if the app is back before the
 * prompt's end plus grace_ms; but never past prompt_cap_ms from the
 * earliest prompt still open: after that the rules apply as if no prompt
 * had been opened, measured from the real departure. A lock, or a sign-out
 * (idlelock_disable), makes every open prompt inert (it defers nothing any
 * more: a new sign-in does not inherit it), and a prompt opened on a
 * locked session is inert: a prompt can never unlock or keep unlocked a
 * session that is locked. The library's own load_secret call (and
 * store_secret while the shortcut is enabled) counts as a prompt, and ends
 * as one whatever the host answers (passed, failed, cancelled, unavailable,
 * a secret that does not open the wrap): the clock is read again, a step is
 * checked and the deadlines are judged (past prompt_cap_ms an idle deadline
 * locks REASON_IDLE), and only then is its end activity; but a check that
 * outlived its life (1.2: prompt_cap_ms since it began, or a clock step
 * back since; see "Requests" under the two-phase pair) counts for
 * nothing, and its end is no activity. An informational dialog is not a
 * prompt.
 *
 * idlelock_prompt_begin judges the deadlines, opens a prompt and writes
 * its token (non-zero, never reused on the handle) to *token. Returns
 * IDLELOCK_OK, IDLELOCK_ERR_INVALID_ARGUMENT (NULL lock or token), or, with
 * a store, IDLELOCK_ERR_STORAGE when judging locked the session and the
 * lock could not be saved (no token is written; nothing to end).
 * Thread: any. */
int idlelock_prompt_begin(idlelock *lock, uint64_t *token);

/** End a prompt: judges the deadlines, then the end is activity. Every token
 * can be ended once, inert or not. Returns IDLELOCK_OK,
 * IDLELOCK_ERR_INVALID_ARGUMENT (NULL lock, a token never issued on this
 * handle or already ended: nothing changed), or, with a store,
 * IDLELOCK_ERR_STORAGE when judging locked the session and the lock could
 * not be saved (the prompt is ended all the same). Thread: any. */
int idlelock_prompt_end(idlelock *lock, uint64_t token);

/** Fill `out` (required here) with the state now, after judging the
 * deadlines that are due. Every change a listener hears can also be seen by
 * polling this. Returns IDLELOCK_OK, IDLELOCK_ERR_INVALID_ARGUMENT, or,
 * with a store, IDLELOCK_ERR_STORAGE when judging locked the session and
 * the lock could not be saved (out is filled: LOCKED). */
int idlelock_snapshot_get(idlelock *lock, idlelock_snapshot *out);

/* ------------------------------------------------------------------------ */
/* Passcode                                                                 */
/*                                                                          */
/* A passcode is `len` bytes of valid UTF-8 (1..1024 bytes; no NUL needed,  */
/* embedded NULs are bytes like any other). Bytes are compared exactly: no  */
/* Unicode normalization, so "é" typed as one code point and as "e" plus a  */
/* combining accent are different passcodes. The library never stores or   */
/* copies the passcode: Argon2id (libsodium crypto_pwhash, a fresh random   */
/* salt) derives a key that wraps the session key with XChaCha20-Poly1305.  */
/* ------------------------------------------------------------------------ */

/** Set or replace the passcode, engaging the lock. Needs at least 4 Unicode
 * scalar values. The same session key is re-wrapped (secrets stay
 * readable), the biometric shortcut is turned off, the attempt count is
 * reset, and the call is activity (last activity = now). Runs Argon2id
 * (tens of milliseconds at the floor) without holding the handle's
 * internal lock: other threads may keep calling.
 * Returns IDLELOCK_OK; IDLELOCK_ERR_INVALID_ARGUMENT (NULL, invalid UTF-8,
 * empty, over 1024 bytes, fewer than 4 scalars: checked before anything
 * else); IDLELOCK_ERR_SESSION_LOCKED (the session is LOCKED or LOCKED_OUT,
 * or it was locked while the key was derived (judged again when the
 * derivation ends), or it is a stored session not started yet: nothing
 * changed);
 * IDLELOCK_ERR_NO_MEMORY (Argon2id could not get its memory);
 * IDLELOCK_ERR_STORAGE (with a store: it could not be written, it is
 * damaged (an engaged session then locks), or another process signed in
 * meanwhile: nothing changed; or another process signed out: this session
 * is signed out too, and a new call signs in anew);
 * IDLELOCK_ERR_INTERNAL. Thread: any, also from a listener. Of two
 * concurrent set_passcode calls the first to finish wins; the other
 * returns IDLELOCK_ERR_SESSION_LOCKED and changes nothing. */
int idlelock_set_passcode(idlelock *lock, const char *utf8, size_t len);

/** Unlock with the passcode. The order is: bad arguments
 * (IDLELOCK_ERR_INVALID_ARGUMENT, never counted); no passcode
 * (IDLELOCK_ERR_NO_PASSCODE); locked out (IDLELOCK_ERR_LOCKED_OUT); an
 * escalating delay running (1.1, delay_schedule: IDLELOCK_ERR_RETRY_LATER,
 * out->ms_until_retry says how long; not counted, no key derivation, also
 * for the right passcode and on an unlocked session). Then the
 * attempt is counted before the passcode is checked. Wrong with attempts
 * left: IDLELOCK_ERR_INVALID_PASSCODE (out->attempts_remaining and the
 * message say how many remain). The wrong one that reaches max_attempts:
 * IDLELOCK_ERR_LOCKED_OUT, state LOCKED_OUT. Right: the count resets, and
 * the session unlocks (REASON_NONE, last activity = the clock reading at
 * the call's entry, secrets readable again; while away, the departure
 * moves there too: see "Events and the decision rules") unless something
 * locked it while the check ran (idlelock_lock, idlelock_disable, a
 * lockout, or, on an unlocked session, a deadline judged when the
 * derivation ends): then IDLELOCK_ERR_SESSION_LOCKED. `out` describes the state when the call
 * returns, after the derivation. A wrong passcode's escalating delay
 * starts at the call's entry. If the passcode was replaced or removed
 * while the check ran, the attempt is void: IDLELOCK_ERR_SESSION_LOCKED
 * (or IDLELOCK_ERR_NO_PASSCODE after idlelock_disable) and it is not
 * counted against the new passcode.
 * On an unlocked session it still verifies and counts: use it to
 * re-authenticate before a sensitive action.
 * Runs Argon2id without holding the handle's internal lock; an attempt
 * whose check cannot run (IDLELOCK_ERR_NO_MEMORY: Argon2id could not get
 * kdf_memlimit bytes) stays counted, so a failure can never be used to
 * probe for free; one that brings the count to max_attempts locks out
 * (IDLELOCK_ERR_LOCKED_OUT) as a wrong passcode would. With a store,
 * IDLELOCK_ERR_STORAGE when the raised count could not be saved (refused
 * unchecked), the reset after a right passcode could not be saved (still
 * locked), or the store is damaged (refused unchecked; the session locks
 * or stays locked). Also IDLELOCK_ERR_RETRY_LATER (above) and
 * IDLELOCK_ERR_INTERNAL.
 * Thread: any, also from a
 * listener. Concurrent attempts on one handle are checked one at a time
 * (a call waits for the attempt being checked), so a delay a wrong one
 * starts refuses the next; each counts, and a right one resets the count
 * for all. (An unlock from a listener inside an unlock does not wait for
 * its own thread. Separate processes sharing a store check in parallel:
 * an attempt already being checked elsewhere is not refused by a delay
 * that starts meanwhile, though it counts toward max_attempts; one that
 * begins while another process checks an attempt meets the delay that
 * attempt would start, saved with its count.) */
int idlelock_unlock(idlelock *lock, const char *utf8, size_t len, idlelock_snapshot *out);

/* ------------------------------------------------------------------------ */
/* Biometric shortcut                                                       */
/*                                                                          */
/* With config.authenticator set, a session with a passcode can also be     */
/* unlocked by the host's biometric check. The library makes a random       */
/* 32-byte secret, wraps the session key with it (XChaCha20-Poly1305 under  */
/* a BLAKE2b hash of the secret, keyed with the device key when there is    */
/* one) and has the host keep the secret behind the check. The wrap lives   */
/* with the passcode wrap (in the store, when there is one). A new passcode */
/* turns the shortcut off (and the host's item is deleted). A secret that  */
/* no longer opens the wrap (the enrolment changed, the item was replaced)  */
/* turns it off too; the passcode always remains.                           */
/* ------------------------------------------------------------------------ */

/** Turn the shortcut on: needs a passcode (IDLELOCK_ERR_NO_PASSCODE), an
 * unlocked session, started if it was found in the store
 * (IDLELOCK_ERR_SESSION_LOCKED) and an available authenticator
 * (IDLELOCK_ERR_LOCK_UNAVAILABLE: none configured, or prompt_cap_ms 0
 * (1.2: the check would have no time), nothing changed; is_available said
 * 0, or store_secret failed). store_secret may show the host's own sheet:
 * it runs as a prompt (see "Prompts"), and its end is judged before the
 * shortcut goes on. When store_secret outlived prompt_cap_ms (1.2:
 * IDLELOCK_ERR_LOCK_UNAVAILABLE, "expired"; its end is then no activity,
 * see "Requests" below) or the session locked while the host stored the
 * secret (IDLELOCK_ERR_SESSION_LOCKED), the host's item is deleted again,
 * and a shortcut enabled before is turned off (its item was replaced),
 * which voids the open requests of the two-phase pair as
 * idlelock_disable_biometrics does. A shortcut that goes on replaces the
 * one before: the pair's UNLOCK requests begun under it are void.
 * Refreshes is_biometrics_available. Also IDLELOCK_ERR_STORAGE (with a
 * store: the wrap could not be saved; the host's item is deleted again),
 * IDLELOCK_ERR_NO_MEMORY, IDLELOCK_ERR_INVALID_ARGUMENT (NULL lock). Calls
 * is_available and store_secret with no internal lock held. Thread: any. */
int idlelock_enable_biometrics(idlelock *lock);

/** Turn the shortcut off: forget the wrap (saved to the store) and call
 * delete_secret. Every open request of the two-phase pair (below) is void,
 * also when the shortcut was off already (an ENABLE request in flight
 * cannot turn it back on): its token is no longer open and its prompt
 * defers nothing any more. Nothing else to do when the shortcut is off.
 * Returns IDLELOCK_OK, IDLELOCK_ERR_INVALID_ARGUMENT (NULL lock) or
 * IDLELOCK_ERR_STORAGE (the change could not be saved: the shortcut stays
 * on; the requests are void all the same). Thread: any. */
int idlelock_disable_biometrics(idlelock *lock);

/** Unlock with the host's biometric check. The order is: NULL lock
 * (IDLELOCK_ERR_INVALID_ARGUMENT), no passcode (IDLELOCK_ERR_NO_PASSCODE),
 * locked out (IDLELOCK_ERR_LOCKED_OUT), then IDLELOCK_ERR_LOCK_UNAVAILABLE
 * when the shortcut is off or unavailable (the cached is_available), when
 * a passcode policy requires the passcode (1.2: out->is_passcode_required;
 * the message names the policy), or when prompt_cap_ms is 0 (a check would
 * expire at once), all before load_secret is called; then, once it
 * returned, when the check outlived prompt_cap_ms (1.2: it expired, see
 * "Requests" below; whatever it answered, the answer counts for nothing),
 * when load_secret reports a failed or cancelled check (the message says
 * which), or when the secret it returns does not open the wrap (the
 * shortcut is then turned off, which voids the open requests of the
 * two-phase pair). Never counts an attempt. load_secret runs as a prompt
 * (see "Prompts"): whatever it answers, when it returns the clock is read
 * again, a clock step locks REASON_CLOCK and the deadlines are judged (an
 * idle deadline past prompt_cap_ms locks REASON_IDLE), and only then is
 * the check's end activity (not for a check that expired). Success resets
 * the attempt count and unlocks (REASON_NONE, last activity = the end of
 * the check; while away, the departure moves there too: see "Events and
 * the decision rules") unless something locked the session while the check
 * ran, that judging at its end included (IDLELOCK_ERR_SESSION_LOCKED, the
 * count reset all the same; a lockout by wrong passcodes meanwhile:
 * IDLELOCK_ERR_LOCKED_OUT, a sign-out by another process:
 * IDLELOCK_ERR_NO_PASSCODE), as idlelock_unlock. With a store,
 * IDLELOCK_ERR_STORAGE when the reset could not be saved (still locked) or
 * the store is damaged (the session locks or stays locked). On an unlocked
 * session it runs the check as a re-authentication. `out` describes the
 * state when the call returns. load_secret runs with no internal lock
 * held; other threads keep calling. It is the two-phase pair below run by
 * the library: begin, load_secret, finish with its answer; both paths obey
 * the same rules. Thread: any. */
int idlelock_unlock_with_biometrics(idlelock *lock, idlelock_snapshot *out);

/* ------------------------------------------------------------------------ */
/* Biometrics for asynchronous hosts: the two-phase pair (1.2)              */
/*                                                                          */
/* Every mobile host runs its biometric check asynchronously: Android's     */
/* BiometricPrompt answers through a callback on the main thread, iOS's     */
/* LAContext and a Keychain read with biometryCurrentSet complete later,    */
/* Flutter's local_auth is a Future, a game cannot block its frame. Such a  */
/* host drives the shortcut itself with two calls instead of the            */
/* authenticator's synchronous load_secret / store_secret:                  */
/*                                                                          */
/*   idlelock_biometric_begin(lock, purpose, &token, secret, len, out)      */
/*       checks what idlelock_unlock_with_biometrics (UNLOCK) or            */
/*       idlelock_enable_biometrics (ENABLE) checks first, opens a prompt   */
/*       (see idlelock_prompt_begin: it defers the rules within             */
/*       prompt_cap_ms, a lock makes it inert) and returns a one-time       */
/*       request token; for ENABLE it also writes the new 32-byte secret    */
/*       for the host to keep behind its biometric check.                   */
/*   ... the host runs its check, as long as it likes, on any thread ...    */
/*   idlelock_biometric_finish(lock, token, result, secret, len, out)       */
/*       ends the request with the host's outcome (IDLELOCK_AUTH_*; for an  */
/*       UNLOCK that passed, with the secret the check released).           */
/*                                                                          */
/* config.authenticator is optional here: the pair needs no callback. When  */
/* one is configured, its cached is_available is checked by an UNLOCK begin */
/* and its delete_secret is called when the library turns the shortcut     */
/* off; without one is_biometrics_available stays 0 and the host checks     */
/* availability itself (BiometricManager.canAuthenticate,                   */
/* LAContext.canEvaluatePolicy) and deletes its own item when the shortcut  */
/* goes off (idlelock_disable_biometrics, a new passcode, a sign-out, or a  */
/* finish that reports the shortcut turned off).                            */
/*                                                                          */
/* Requests. A token is 64 random bits, never 0, bound to its handle, and   */
/* finishes once. A request lives prompt_cap_ms from its begin, on the      */
/* handle's clock. One definition of "expired" serves the finish and the    */
/* table of open requests alike: a request has expired at a reading once    */
/* prompt_cap_ms has passed since its begin (elapsed >= prompt_cap_ms), or  */
/* once the clock reads earlier than its begin or has stepped back since (a */
/* step any call of the handle saw, that reading included). A step forward  */
/* cannot be told from time passing: it ages the request by the step. An    */
/* expired request defers nothing, and its finish unlocks and enables       */
/* nothing (IDLELOCK_ERR_LOCK_UNAVAILABLE, "expired", whatever the result)  */
/* and changes nothing but the judging every call does: its end is no       */
/* activity (a late answer to a stale sheet does not extend the session)    */
/* and starts no grace window. With prompt_cap_ms 0 a begin is refused      */
/* (IDLELOCK_ERR_LOCK_UNAVAILABLE): the check would have no time.           */
/*                                                                          */
/* At most IDLELOCK_BIOMETRIC_REQUESTS_MAX are open on a handle at once. A  */
/* begin that finds that many open first frees those that have expired at   */
/* its own reading (their tokens are then no longer open, as a voided       */
/* one's), so a host that lost its tokens is never locked out of the        */
/* shortcut; a begin that still finds them all open is                      */
/* IDLELOCK_ERR_INVALID_ARGUMENT (finish the ones you no longer need, with  */
/* IDLELOCK_AUTH_CANCELLED).                                                */
/*                                                                          */
/* A request whose answer can no longer count is void: its token is no      */
/* longer open (finishing it is IDLELOCK_ERR_INVALID_ARGUMENT, as is one    */
/* never issued on this handle or already finished) and its prompt goes     */
/* without an end (no activity, no grace window), so it defers nothing any  */
/* more. Every open request is void when the shortcut turns off, whatever   */
/* turns it off: idlelock_disable_biometrics (also when it was off          */
/* already), a secret that does not open the wrap at a finish or from       */
/* load_secret (an enrolment change), an idlelock_enable_biometrics that    */
/* fails after store_secret replaced the item, or another process; and on a */
/* new passcode (idlelock_set_passcode, or another process's), a sign-out   */
/* (idlelock_disable, or another process's) and idlelock_destroy. When the  */
/* shortcut is replaced (an enable finished, here or in another process),   */
/* the UNLOCK requests begun under the old one are void; the ENABLE         */
/* requests stay open. What another process did is seen at this handle's    */
/* next call that looks at the store (a call that authenticates or touches  */
/* secrets, the gate): a finish that sees it answers as listed under        */
/* idlelock_biometric_finish (IDLELOCK_ERR_NO_PASSCODE,                     */
/* IDLELOCK_ERR_SESSION_LOCKED or IDLELOCK_ERR_LOCK_UNAVAILABLE) and ends   */
/* the request; never OK. A void request's prompt stops deferring at once:  */
/* the call that voids it judges the deadlines again at its reading, so an  */
/* idle lock the prompt deferred locks in that call (1.2.2).                */
/*                                                                          */
/* Nothing in the pair unlocks a locked session without the released        */
/* secret opening the shortcut's wrap: an ENABLE request never unlocks, an  */
/* UNLOCK finish with any result but IDLELOCK_AUTH_OK changes nothing but   */
/* the prompt's end, and a wrong secret turns the shortcut off (voiding     */
/* every other open request).                                               */
/*                                                                          */
/* Sequence on Android (BiometricPrompt with a CryptoObject; an AES-GCM     */
/* Keystore key made with setUserAuthenticationRequired(true) and           */
/* setInvalidatedByBiometricEnrollment(true)):                              */
/*  - enable: idlelock_biometric_begin(ENABLE) writes the secret into your  */
/*    buffer; Cipher.init(ENCRYPT_MODE, key); authenticate(promptInfo,      */
/*    CryptoObject(cipher)); in onAuthenticationSucceeded encrypt the       */
/*    secret with result.cryptoObject.cipher, save ciphertext and IV        */
/*    beside the ones you keep (SharedPreferences, a new name), wipe the    */
/*    secret (Arrays.fill), then idlelock_biometric_finish(token,           */
/*    IDLELOCK_AUTH_OK, NULL, 0). On IDLELOCK_OK replace the old ones with  */
/*    them; on any other status delete them (the library kept its old       */
/*    shortcut, which your old item still opens).                           */
/*  - unlock: idlelock_biometric_begin(UNLOCK); Cipher.init(DECRYPT_MODE,   */
/*    key, GCMParameterSpec(128, iv)) (a KeyPermanentlyInvalidatedException */
/*    means the enrolment changed: finish with IDLELOCK_AUTH_UNAVAILABLE    */
/*    and call idlelock_disable_biometrics); authenticate(promptInfo,       */
/*    CryptoObject(cipher)); in onAuthenticationSucceeded decrypt the       */
/*    ciphertext into a byte[32], idlelock_biometric_finish(token,          */
/*    IDLELOCK_AUTH_OK, secret, 32), wipe it.                               */
/*  - either: onAuthenticationError with ERROR_USER_CANCELED,               */
/*    ERROR_NEGATIVE_BUTTON or ERROR_CANCELED: finish with                  */
/*    IDLELOCK_AUTH_CANCELLED; ERROR_LOCKOUT(_PERMANENT): FAILED;           */
/*    ERROR_HW_UNAVAILABLE, ERROR_NO_BIOMETRICS: UNAVAILABLE. Do not finish */
/*    in onAuthenticationFailed (a finger not recognised; the prompt stays).*/
/*    Keep the token in a ViewModel across a configuration change; finish  */
/*    it with CANCELLED if the prompt will never answer.                    */
/*                                                                          */
/* Sequence on iOS (a Keychain item with SecAccessControlCreateWithFlags(   */
/* kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, .biometryCurrentSet)):  */
/*  - enable: idlelock_biometric_begin(ENABLE); SecItemAdd the secret under */
/*    a new kSecAttrAccount (no prompt needed to add), wipe it; finish with */
/*    IDLELOCK_AUTH_OK, or FAILED when SecItemAdd failed. On IDLELOCK_OK    */
/*    delete the old item; on any other status delete the new one.         */
/*  - unlock: idlelock_biometric_begin(UNLOCK); on a background queue       */
/*    SecItemCopyMatching with an LAContext (localizedReason) shows Face    */
/*    ID; errSecSuccess: finish(token, IDLELOCK_AUTH_OK, bytes, 32), then   */
/*    wipe the Data; errSecUserCanceled: CANCELLED; errSecAuthFailed:       */
/*    FAILED; errSecItemNotFound (biometryCurrentSet dropped the item when  */
/*    the enrolment changed): UNAVAILABLE, then                             */
/*    idlelock_disable_biometrics. The scene goes inactive while Face ID is */
/*    up: report it (idlelock_inactive); the open request's prompt keeps    */
/*    the round trip from counting as an absence.                           */
/*                                                                          */
/* Sequence on an event-loop host (a game engine, a Flutter isolate, a      */
/* Node or asyncio program): call begin from the loop, start the            */
/* asynchronous check with the token, keep calling idlelock_touch /         */
/* idlelock_check every frame or on your timer meanwhile (nothing blocks),  */
/* and call finish from the loop when the check's completion arrives. When  */
/* the screen that showed the check goes away without an answer, finish     */
/* with IDLELOCK_AUTH_CANCELLED.                                            */
/* ------------------------------------------------------------------------ */

/** Purposes of a biometric request. */
#define IDLELOCK_BIOMETRIC_UNLOCK 1 /**< unlock (or re-authenticate) with the shortcut */
#define IDLELOCK_BIOMETRIC_ENABLE 2 /**< turn the shortcut on */
/** Requests open at once on one handle. */
#define IDLELOCK_BIOMETRIC_REQUESTS_MAX 8

/** Begin a biometric request. `purpose` is IDLELOCK_BIOMETRIC_UNLOCK or
 * IDLELOCK_BIOMETRIC_ENABLE; *token receives the request's token (written
 * only on success). For ENABLE, `secret` must be a buffer of `secret_len`
 * = IDLELOCK_AUTH_SECRET_BYTES (32) bytes, owned by the caller, which
 * receives the new random secret on success (wipe it once it is stored
 * behind the biometric check); for UNLOCK, `secret` must be NULL and
 * `secret_len` 0. `out` may be NULL; when given it receives the state
 * after the call. IDLELOCK_ERR_INVALID_ARGUMENT, with nothing changed, for
 * a NULL lock or token, an unknown purpose, a secret buffer that does not
 * fit the purpose or a bad out->size (the message names the argument).
 * Then it judges the deadlines (as every call does first), and with
 * IDLELOCK_BIOMETRIC_REQUESTS_MAX requests open frees those that have
 * expired at this reading (see "Requests" above); when none has,
 * IDLELOCK_ERR_INVALID_ARGUMENT (nothing else changed; `out` receives the
 * state). Then it checks, in order: for UNLOCK, no passcode
 * (IDLELOCK_ERR_NO_PASSCODE), locked out (IDLELOCK_ERR_LOCKED_OUT), the
 * shortcut off, an authenticator whose is_available said 0, a passcode
 * policy requiring the passcode, prompt_cap_ms 0 (each
 * IDLELOCK_ERR_LOCK_UNAVAILABLE, the message says which); for ENABLE, no
 * passcode (IDLELOCK_ERR_NO_PASSCODE), a locked session
 * (IDLELOCK_ERR_SESSION_LOCKED), prompt_cap_ms 0
 * (IDLELOCK_ERR_LOCK_UNAVAILABLE). Also IDLELOCK_ERR_NO_MEMORY,
 * IDLELOCK_ERR_INTERNAL, and with a store IDLELOCK_ERR_STORAGE (as for the
 * calls it stands for). On success a prompt is open until the request is
 * finished or voided; on any failure no request is left open (also when
 * judging locked the session and the lock could not be saved:
 * IDLELOCK_ERR_STORAGE, no token). Thread: any. */
int idlelock_biometric_begin(idlelock *lock, int32_t purpose, uint64_t *token, uint8_t *secret,
                             size_t secret_len, idlelock_snapshot *out);

/** Finish the request `token` with the host's outcome `result`, an
 * IDLELOCK_AUTH_* code: for UNLOCK, IDLELOCK_AUTH_OK with `secret`
 * pointing to the `secret_len` = 32 bytes the check released (only read
 * during the call; wipe your copy afterwards); for ENABLE,
 * IDLELOCK_AUTH_OK to confirm the secret is stored behind the check. Every
 * other case passes `secret_len` 0 (`secret` is then not read and may be
 * NULL).
 * The request's prompt ends as every prompt ends: the clock is read, a
 * clock step is checked, the deadlines are judged (the request's prompt
 * deferred the idle rule at most prompt_cap_ms), the outcome is applied,
 * and then the end is activity while the session is unlocked, unless the
 * request has expired. With a store, what other processes did meanwhile is
 * seen first: a damaged store is IDLELOCK_ERR_STORAGE (the session locks
 * before the end, which is then no activity). The outcome, in this order:
 *  - a request that has expired at this call's reading (see "Requests"
 *    above): IDLELOCK_ERR_LOCK_UNAVAILABLE ("expired"), whatever the
 *    result; nothing else changes: its end is no activity and starts no
 *    grace window (for ENABLE the shortcut stays as it was);
 *  - IDLELOCK_AUTH_FAILED, _CANCELLED, _UNAVAILABLE:
 *    IDLELOCK_ERR_LOCK_UNAVAILABLE (the message says which), nothing else
 *    changes but the prompt's end;
 *  - a sign-out by another process, seen now: IDLELOCK_ERR_NO_PASSCODE;
 *  - UNLOCK, IDLELOCK_AUTH_OK: as idlelock_unlock_with_biometrics after a
 *    release: a passcode policy requiring the passcode by now (judged
 *    again as the unlock is applied, with a store under its lock, so the
 *    biometric unlocks of every handle and process of the sign-in count
 *    toward biometric_max_uses), a shortcut changed or turned off since
 *    begin (IDLELOCK_ERR_LOCK_UNAVAILABLE); a secret that does not open
 *    the shortcut's wrap turns the shortcut off
 *    (IDLELOCK_ERR_LOCK_UNAVAILABLE; delete your item), which voids every
 *    other open request; otherwise the attempt count resets (never raised)
 *    and the session unlocks (REASON_NONE, last activity = now; while
 *    away, the departure moves to now too) unless it was locked out after
 *    begin (IDLELOCK_ERR_LOCKED_OUT, the count stays), locked after begin
 *    (IDLELOCK_ERR_SESSION_LOCKED, the count reset all the same), or a
 *    store write failed (IDLELOCK_ERR_STORAGE, still locked);
 *  - ENABLE, IDLELOCK_AUTH_OK: the shortcut is on (its wrap saved with the
 *    store; the UNLOCK requests begun under a shortcut before it are void)
 *    unless the session was locked or given another passcode after begin
 *    (IDLELOCK_ERR_SESSION_LOCKED: delete your item).
 * IDLELOCK_ERR_INVALID_ARGUMENT, with nothing changed (the request stays
 * open): a NULL lock, a result that is not an IDLELOCK_AUTH_* code, a
 * secret that does not fit the purpose and result (NULL with a length, a
 * length other than 32 with UNLOCK and IDLELOCK_AUTH_OK, a length other
 * than 0 otherwise), a bad out->size, or a token that is not open on this
 * handle (never issued here, already finished, voided, or expired and freed
 * by a later begin: see "Requests"). Otherwise the request is finished,
 * whatever the status. `out` may be NULL; when given it receives the state
 * when the call returns. Thread: any, also from a listener; any thread may
 * finish a request another thread began. */
int idlelock_biometric_finish(idlelock *lock, uint64_t token, int32_t result, const uint8_t *secret,
                              size_t secret_len, idlelock_snapshot *out);

/* ------------------------------------------------------------------------ */
/* Passcode policies and step-up checks (1.2)                               */
/*                                                                          */
/* Three config options refuse the biometric shortcut (both the callback    */
/* path and the pair, IDLELOCK_ERR_LOCK_UNAVAILABLE naming the policy, and  */
/* snapshot.is_passcode_required = 1) until the passcode is entered again:  */
/*  - passcode_after_reboot: with a store, after the device restarted (the  */
/*    store records the boot of the last passcode entry: Linux              */
/*    /proc/sys/kernel/random/boot_id, Darwin kern.bootsessionuuid), as iOS */
/*    and Android require after a restart. A memory-only session never      */
/*    outlives its boot. A process that cannot read the boot id (an app on  */
/*    Android 8.x, whose SELinux policy denies the file) counts only its    */
/*    own passcode entries as this boot's: every other process is another   */
/*    boot (fail closed; docs/PLATFORMS.md, "Android"). On a Linux desktop  */
/*    a process of the same user can show the library another boot id       */
/*    (docs/STORE.md, "What a process of the same user can fake").          */
/*  - passcode_max_age_ms: once the last passcode entry is that old (iOS    */
/*    asks for the passcode when it was not used for 156 hours: elapsed >=  */
/*    passcode_max_age_ms), measured on the handle's clock. An entry from   */
/*    another boot, one a clock step made unknown (any step the handle      */
/*    detects, wherever the reading lands, and with a store any step        */
/*    another process of the sign-in detected: see "Events and the decision */
/*    rules"), one the clock reads earlier than (at create, or when another */
/*    process's entry is read), or none known (a store written by an        */
/*    earlier version) counts as too old until the next entry: fail closed. */
/*    Another process's entry is read from the store as a time on this      */
/*    handle's clock: as for the restart rule, this needs a clock whose     */
/*    origin is shared by the processes of one boot (the default clock is). */
/*    An entry whose age would pass only after INT64_MAX never expires (the */
/*    clock stops there).                                                   */
/*  - biometric_max_uses: after that many biometric unlocks in a row        */
/*    (re-authentications included), as KeePassXC's and Keepass2Android's  */
/*    quick unlock do.                                                      */
/* A passcode entry is a successful passcode unlock or re-authentication,   */
/* or idlelock_set_passcode (the person typed it); it resets the count.     */
/* With a store, the entry's time and boot and the count are kept in the    */
/* store and shared by every process of the sign-in; each handle applies    */
/* the policies of its own config to them. The policies never refuse the    */
/* passcode and never lock a session: they only close the shortcut.         */
/* ------------------------------------------------------------------------ */

/** The step-up check before a sensitive action (a payment confirmation,
 * "show recovery phrase"), as Android Keystore's authentication validity
 * duration, LAContext's touchIDAuthenticationAllowableReuseDuration and
 * OWASP MASVS-AUTH's step-up authentication describe it: IDLELOCK_OK when
 * the session is unlocked and its last successful authentication on this
 * handle (idlelock_snapshot.last_auth_ms: a passcode or biometric unlock,
 * including a re-authentication of the unlocked session; not
 * idlelock_set_passcode, which is no authentication of the person) is at
 * most `max_age_ms`
 * (1..IDLELOCK_RECENT_AUTH_MAX_MS) old; IDLELOCK_ERR_REAUTH_REQUIRED when
 * it is older or there was none on this handle (ask the user: idlelock_unlock,
 * or the biometric shortcut, on the unlocked session; then check again);
 * IDLELOCK_ERR_SESSION_LOCKED when the session is locked (or, with a
 * store, awaits its first start); IDLELOCK_ERR_NO_PASSCODE when no passcode is set (there is
 * nothing to authenticate with). A clock step the handle detects (see
 * "Events and the decision rules"), wherever the reading lands, forgets
 * the authentication: REAUTH_REQUIRED until the next one. Judges
 * the deadlines first and, with a store, looks at it as the gate does.
 * IDLELOCK_ERR_INVALID_ARGUMENT (nothing changed) for a NULL lock or a
 * max_age_ms out of range. No allocation. Thread: any. */
int idlelock_require_recent_auth(idlelock *lock, int64_t max_age_ms);

/* ------------------------------------------------------------------------ */
/* Sign-out                                                                 */
/* ------------------------------------------------------------------------ */

/** Sign out: forget the passcode, the shortcut, every secret, the attempt
 * count and the lockout, and leave the session UNLOCKED, REASON_NONE, not
 * engaged, with a fresh session key. Works in every state (it is the only
 * way out of LOCKED_OUT); on a session that is not engaged it still forgets
 * the secrets held in memory (a sign-out never leaves session data
 * behind). The host must drop its own session data too. A passcode check
 * running on another thread is voided. It reads the clock first, as every
 * call of "Events and the decision rules" does, so a clock step it sees
 * counts (see "Clock steps" there).
 * The new session key goes into the secure buffer the handle already
 * holds, so sign-out cannot fail for lack of memory. With a store, the
 * store file is deleted (every process using it is signed out at its next
 * authenticating or secret call); `<path>.lock` stays.
 * Returns IDLELOCK_OK, IDLELOCK_ERR_INVALID_ARGUMENT (NULL lock), or
 * IDLELOCK_ERR_STORAGE (signed out in this process, but the store file
 * could not be deleted: call again).
 * Thread: any. */
int idlelock_disable(idlelock *lock);

/* ------------------------------------------------------------------------ */
/* Listeners                                                                */
/* ------------------------------------------------------------------------ */

/** Register `fn` (with `ctx`, passed back untouched) to hear every change;
 * *token receives a non-zero number for idlelock_unsubscribe(). No snapshot
 * is delivered for the state at subscription: call idlelock_snapshot_get().
 * Returns IDLELOCK_OK; IDLELOCK_ERR_INVALID_ARGUMENT (NULL lock, fn or
 * token, or already IDLELOCK_LISTENERS_MAX listeners); IDLELOCK_ERR_NO_MEMORY.
 * On failure fn is never called. Thread: any, also from a listener. */
int idlelock_subscribe(idlelock *lock, idlelock_listener_fn fn, void *ctx, uint64_t *token);

/** Remove a listener. Returns only when no call of it is running on another
 * thread; after it returns the listener is never called again (called from
 * inside that listener, the current call finishes normally). Returns
 * IDLELOCK_OK or IDLELOCK_ERR_INVALID_ARGUMENT (NULL lock, or a token that
 * is not subscribed). Thread: any, also from a listener. */
int idlelock_unsubscribe(idlelock *lock, uint64_t token);

/* ------------------------------------------------------------------------ */
/* Sealed secrets and the gate                                              */
/*                                                                          */
/* Named byte strings (an access token, a profile) kept encrypted under the */
/* session key (XChaCha20-Poly1305 IETF, names included). When the session  */
/* locks, the session key is wiped (sodium_memzero) and the secrets cannot  */
/* be read until an unlock restores it. Names are NUL-terminated UTF-8 of   */
/* 1..64 bytes; values are 0..65536 bytes; at most 256 secrets. While the   */
/* session is locked (LOCKED or LOCKED_OUT), and on a stored session not    */
/* started yet (see "The store"), these calls return                        */
/* IDLELOCK_ERR_SESSION_LOCKED. Before a passcode is set they work, in      */
/* memory only. With a store, put and remove on an engaged session are one  */
/* durable step each: IDLELOCK_ERR_STORAGE when it fails, nothing changed;  */
/* each call answers IDLELOCK_ERR_STORAGE for a damaged store (the session  */
/* locks). Each judges the deadlines first. Thread: any.                    */
/*                                                                          */
/* A gate answers from the state the call leaves (1.2.2): secret_get,       */
/* require_unlocked and require_recent_auth hand out or pass only when the  */
/* session is still unlocked after every judgement the call makes, the look */
/* at the store included (another process that turned the shortcut off     */
/* voids this handle's open biometric requests; an idle lock one of them    */
/* deferred is then judged at the same reading, before the gate answers).   */
/* ------------------------------------------------------------------------ */

/** Store `len` bytes from `data` (NULL allowed only when len is 0) under
 * `name`, replacing any earlier value. The library keeps only ciphertext.
 * Returns IDLELOCK_OK, IDLELOCK_ERR_INVALID_ARGUMENT (bad name, len over
 * 65536, data NULL with len > 0), IDLELOCK_ERR_SESSION_LOCKED,
 * IDLELOCK_ERR_NO_MEMORY (a 257th name: remove one first),
 * IDLELOCK_ERR_INTERNAL. */
int idlelock_secret_put(idlelock *lock, const char *name, const uint8_t *data, size_t len);

/** Copy the secret `name` into `buf`, which holds *len bytes (buf may be
 * NULL only when *len is 0); on success *len is set to the secret's size.
 * When *len is too small: IDLELOCK_ERR_BUFFER_TOO_SMALL and *len is set to
 * the size needed (nothing else written). The caller owns buf and should
 * wipe it when done. Returns IDLELOCK_OK, IDLELOCK_ERR_INVALID_ARGUMENT,
 * IDLELOCK_ERR_SESSION_LOCKED, IDLELOCK_ERR_NOT_FOUND,
 * IDLELOCK_ERR_BUFFER_TOO_SMALL, IDLELOCK_ERR_INTERNAL (a record failed
 * authentication: memory corruption). */
int idlelock_secret_get(idlelock *lock, const char *name, uint8_t *buf, size_t *len);

/** Forget the secret `name` (its ciphertext is wiped). Returns IDLELOCK_OK,
 * IDLELOCK_ERR_INVALID_ARGUMENT, IDLELOCK_ERR_SESSION_LOCKED,
 * IDLELOCK_ERR_NOT_FOUND. */
int idlelock_secret_remove(idlelock *lock, const char *name);

/** The gate for the host's own protected work (an API call, a token
 * refresh): IDLELOCK_OK when the session is unlocked after judging the
 * deadlines (or not engaged), IDLELOCK_ERR_SESSION_LOCKED otherwise (also
 * for a stored session before idlelock_start), IDLELOCK_ERR_STORAGE when
 * the store is damaged (the session locks) or cannot be read, or
 * IDLELOCK_ERR_INVALID_ARGUMENT for a NULL lock. Without a store: no I/O,
 * no allocation; with one, it first looks at the store (see "The store"). */
int idlelock_require_unlocked(idlelock *lock);

/* ------------------------------------------------------------------------ */
/* Errors and versions                                                      */
/* ------------------------------------------------------------------------ */

/** A fixed name for a status code ("IDLELOCK_OK",
 * "IDLELOCK_ERR_INVALID_ARGUMENT", ...), or "IDLELOCK_ERR_UNKNOWN" for a
 * code this version does not know. Never NULL; static storage. Thread: any. */
const char *idlelock_status_name(int status);

/** The calling thread's message for its last failed call (what was wrong
 * and, where useful, what to do), or "" when this thread has had no
 * failure. Never NULL. Owned by the library; valid until this thread's
 * next failed call or its exit. Never contains a passcode or a secret.
 * Thread: any (each thread has its own). */
const char *idlelock_last_error(void);

/** The library's version, "MAJOR.MINOR.PATCH", static storage. Thread: any. */
const char *idlelock_version(void);

/** The library's version as MAJOR * 10000 + MINOR * 100 + PATCH, for
 * bindings that cannot read macros. Thread: any. */
int idlelock_version_number(void);

/** sizeof(idlelock_config) and sizeof(idlelock_snapshot) as this library
 * knows them, for bindings that mirror the structs and cannot read C types.
 * Thread: any. */
size_t idlelock_config_size(void);
/** sizeof(idlelock_snapshot): see idlelock_config_size(). Thread: any. */
size_t idlelock_snapshot_size(void);

/** (1.2) sizeof(idlelock_authenticator) and sizeof(idlelock_delay_step) as
 * this library knows them, the same for the two structs a binding builds
 * and hands to idlelock_create (through config.authenticator and
 * config.delay_schedule). A binding compares them with its own mirrors at
 * load and refuses to run on a mismatch, instead of passing a struct whose
 * fields the library would read at other offsets. Thread: any. */
size_t idlelock_authenticator_size(void);
/** (1.2) sizeof(idlelock_delay_step): see idlelock_authenticator_size().
 * Thread: any. */
size_t idlelock_delay_step_size(void);

#ifdef __cplusplus
}
#endif

#endif /* IDLELOCK_H */
