// SPDX-License-Identifier: MIT
// Generated from include/idlelock.h by scripts/gen-bindings.py; do not edit.
package org.idlelock;

/**
 * The header's constants ({@code include/idlelock.h}), as {@link IdleLock}
 * has them: {@code IdleLock.NEVER}, {@code IdleLock.GRACE_MAX_MS}, ...
 */
interface GeneratedConstants {
    /** {@code IDLELOCK_NEVER}: "No deadline": a timeout of IDLELOCK_NEVER never passes. */
    long NEVER = 9223372036854775807L;
    /** {@code IDLELOCK_SAME_AS_IDLE}: background_after_ms only: use the value of idle_after_ms. */
    long SAME_AS_IDLE = -1L;
    /** {@code IDLELOCK_GRACE_MAX_MS}: Limits, checked with IDLELOCK_ERR_INVALID_ARGUMENT. */
    long GRACE_MAX_MS = 60000L;
    /** {@code IDLELOCK_MAX_ATTEMPTS_MAX}: Limits, checked with IDLELOCK_ERR_INVALID_ARGUMENT. */
    int MAX_ATTEMPTS_MAX = 100;
    /** {@code IDLELOCK_PASSCODE_MIN_SCALARS}: Unicode scalar values, set_passcode only. Limits, checked with IDLELOCK_ERR_INVALID_ARGUMENT. */
    int PASSCODE_MIN_SCALARS = 4;
    /** {@code IDLELOCK_PASSCODE_MAX_BYTES}: Limits, checked with IDLELOCK_ERR_INVALID_ARGUMENT. */
    int PASSCODE_MAX_BYTES = 1024;
    /** {@code IDLELOCK_SECRET_NAME_MAX_BYTES}: Limits, checked with IDLELOCK_ERR_INVALID_ARGUMENT. */
    int SECRET_NAME_MAX_BYTES = 64;
    /** {@code IDLELOCK_SECRET_VALUE_MAX_BYTES}: Limits, checked with IDLELOCK_ERR_INVALID_ARGUMENT. */
    int SECRET_VALUE_MAX_BYTES = 65536;
    /** {@code IDLELOCK_SECRETS_MAX}: secrets held by one session. Limits, checked with IDLELOCK_ERR_INVALID_ARGUMENT. */
    int SECRETS_MAX = 256;
    /** {@code IDLELOCK_LISTENERS_MAX}: listeners on one handle. Limits, checked with IDLELOCK_ERR_INVALID_ARGUMENT. */
    int LISTENERS_MAX = 64;
    /** {@code IDLELOCK_UNLOCK_REASON_MAX_BYTES}: Limits, checked with IDLELOCK_ERR_INVALID_ARGUMENT. */
    int UNLOCK_REASON_MAX_BYTES = 512;
    /** {@code IDLELOCK_DEVICE_KEY_BYTES}: Limits, checked with IDLELOCK_ERR_INVALID_ARGUMENT. */
    int DEVICE_KEY_BYTES = 32;
    /** {@code IDLELOCK_KDF_OPSLIMIT_MIN}: Argon2id cost bounds. The floor is OWASP's Password Storage Cheat Sheet minimum for Argon2id (19 MiB, 2 passes); the defaults are libsodium's crypto_pwhash_OPSLIMIT_INTERACTIVE / MEMLIMIT_INTERACTIVE (2, 64 MiB). */
    long KDF_OPSLIMIT_MIN = 2L;
    /** {@code IDLELOCK_KDF_OPSLIMIT_MAX}: Argon2id cost bounds. The floor is OWASP's Password Storage Cheat Sheet minimum for Argon2id (19 MiB, 2 passes); the defaults are libsodium's crypto_pwhash_OPSLIMIT_INTERACTIVE / MEMLIMIT_INTERACTIVE (2, 64 MiB). */
    long KDF_OPSLIMIT_MAX = 10L;
    /** {@code IDLELOCK_KDF_MEMLIMIT_MIN}: Argon2id cost bounds. The floor is OWASP's Password Storage Cheat Sheet minimum for Argon2id (19 MiB, 2 passes); the defaults are libsodium's crypto_pwhash_OPSLIMIT_INTERACTIVE / MEMLIMIT_INTERACTIVE (2, 64 MiB). */
    long KDF_MEMLIMIT_MIN = 19922944L;
    /** {@code IDLELOCK_KDF_MEMLIMIT_MAX}: Argon2id cost bounds. The floor is OWASP's Password Storage Cheat Sheet minimum for Argon2id (19 MiB, 2 passes); the defaults are libsodium's crypto_pwhash_OPSLIMIT_INTERACTIVE / MEMLIMIT_INTERACTIVE (2, 64 MiB). */
    long KDF_MEMLIMIT_MAX = 1073741824L;
    /** {@code IDLELOCK_PASSCODE_MAX_AGE_MIN_MS}: (1.2) The passcode policies' bounds (config.passcode_max_age_ms: 0 or 1 hour .. 30 days; config.biometric_max_uses: 0 or 1..1000) and idlelock_require_recent_auth's max_age_ms (1 .. 30 days). */
    long PASSCODE_MAX_AGE_MIN_MS = 3600000L;
    /** {@code IDLELOCK_PASSCODE_MAX_AGE_MAX_MS}: (1.2) The passcode policies' bounds (config.passcode_max_age_ms: 0 or 1 hour .. 30 days; config.biometric_max_uses: 0 or 1..1000) and idlelock_require_recent_auth's max_age_ms (1 .. 30 days). */
    long PASSCODE_MAX_AGE_MAX_MS = 2592000000L;
    /** {@code IDLELOCK_BIOMETRIC_MAX_USES_MAX}: (1.2) The passcode policies' bounds (config.passcode_max_age_ms: 0 or 1 hour .. 30 days; config.biometric_max_uses: 0 or 1..1000) and idlelock_require_recent_auth's max_age_ms (1 .. 30 days). */
    int BIOMETRIC_MAX_USES_MAX = 1000;
    /** {@code IDLELOCK_RECENT_AUTH_MAX_MS}: (1.2) The passcode policies' bounds (config.passcode_max_age_ms: 0 or 1 hour .. 30 days; config.biometric_max_uses: 0 or 1..1000) and idlelock_require_recent_auth's max_age_ms (1 .. 30 days). */
    long RECENT_AUTH_MAX_MS = 2592000000L;
    /** {@code IDLELOCK_AUTH_SECRET_BYTES}: The biometric shortcut's bytes: the secret the host keeps in its keystore. */
    int AUTH_SECRET_BYTES = 32;
    /** {@code IDLELOCK_BIOMETRIC_REQUESTS_MAX}: Requests open at once on one handle. */
    int BIOMETRIC_REQUESTS_MAX = 8;
    /** A bound the header states in its prose. */
    long PROMPT_CAP_MAX_MS = 600000L;
    /** A bound the header states in its prose. */
    long DELAY_MAX_MS = 86400000L;
    /** A bound the header states in its prose. */
    int DELAY_SCHEDULE_MAX_STEPS = 32;
    /** The header version this package was generated from. */
    String HEADER_VERSION = "1.2.2";
    /** {@code IDLELOCK_VERSION_NUMBER} of that header. */
    int HEADER_VERSION_NUMBER = 10202;
}
