// SPDX-License-Identifier: MIT
// Generated from include/idlelock.h by scripts/gen-bindings.py; do not edit.
package org.idlelock;

/** The header's tables as the binding and its glue (jni/idlelock_jni_generated.h) use them. */
final class GeneratedTables {
    private GeneratedTables() {}

    /** Slots of a snapshot's {@code long[]}, as the glue fills it: idlelock_snapshot's fields in order. */
    static final int SNAP_STATE = 0;
    static final int SNAP_SEQ = 1;
    static final int SNAP_REASON = 2;
    static final int SNAP_IS_ENABLED = 3;
    static final int SNAP_IS_BIOMETRICS_ENABLED = 4;
    static final int SNAP_IS_BIOMETRICS_AVAILABLE = 5;
    static final int SNAP_IS_AWAY = 6;
    static final int SNAP_ATTEMPTS_REMAINING = 7;
    static final int SNAP_LAST_ACTIVITY_MS = 8;
    static final int SNAP_MS_UNTIL_IDLE_LOCK = 9;
    static final int SNAP_IS_WARNING = 10;
    static final int SNAP_MS_UNTIL_WARNING = 11;
    static final int SNAP_MS_UNTIL_RETRY = 12;
    static final int SNAP_MS_UNTIL_NEXT_DEADLINE = 13;
    static final int SNAP_IS_PASSCODE_REQUIRED = 14;
    static final int SNAP_LAST_AUTH_MS = 15;
    static final int SNAP_FIELDS = 16;

    /** Slots of the config's numbers, as the glue reads them: idlelock_config's integer fields in order. */
    static final int CFG_LOCK_ON_START = 0;
    static final int CFG_IDLE_AFTER_MS = 1;
    static final int CFG_BACKGROUND_AFTER_MS = 2;
    static final int CFG_INACTIVE_AFTER_MS = 3;
    static final int CFG_GRACE_MS = 4;
    static final int CFG_MAX_ATTEMPTS = 5;
    static final int CFG_KDF_OPSLIMIT = 6;
    static final int CFG_KDF_MEMLIMIT = 7;
    static final int CFG_PROMPT_CAP_MS = 8;
    static final int CFG_WARN_BEFORE_MS = 9;
    static final int CFG_PASSCODE_MAX_AGE_MS = 10;
    static final int CFG_PASSCODE_AFTER_REBOOT = 11;
    static final int CFG_BIOMETRIC_MAX_USES = 12;
    static final int CFG_FIELDS = 13;

    /** C name and the binding's, for the library's messages (bindings/names.txt). */
    static final String[][] NAMES = {
        {"IDLELOCK_PLATFORM_FLUTTER_APP_LIFECYCLE_STATE", "Platform.FLUTTER_APP_LIFECYCLE_STATE"},
        {"IDLELOCK_PLATFORM_ANDROID_LIFECYCLE_EVENT", "Platform.ANDROID_LIFECYCLE_EVENT"},
        {"IDLELOCK_PLATFORM_REACT_NATIVE_APP_STATE", "Platform.REACT_NATIVE_APP_STATE"},
        {"IDLELOCK_PLATFORM_IOS_APPLICATION_STATE", "Platform.IOS_APPLICATION_STATE"},
        {"IDLELOCK_PLATFORM_IOS_SCENE_PHASE", "Platform.IOS_SCENE_PHASE"},
        {"IDLELOCK_PASSCODE_MAX_AGE_MAX_MS", "IdleLock.PASSCODE_MAX_AGE_MAX_MS"},
        {"IDLELOCK_PASSCODE_MAX_AGE_MIN_MS", "IdleLock.PASSCODE_MAX_AGE_MIN_MS"},
        {"IDLELOCK_UNLOCK_REASON_MAX_BYTES", "IdleLock.UNLOCK_REASON_MAX_BYTES"},
        {"IDLELOCK_BIOMETRIC_MAX_USES_MAX", "IdleLock.BIOMETRIC_MAX_USES_MAX"},
        {"IDLELOCK_BIOMETRIC_REQUESTS_MAX", "IdleLock.BIOMETRIC_REQUESTS_MAX"},
        {"IDLELOCK_SECRET_VALUE_MAX_BYTES", "IdleLock.SECRET_VALUE_MAX_BYTES"},
        {"idlelock_unlock_with_biometrics", "IdleLock.unlockWithBiometrics"},
        {"IDLELOCK_SECRET_NAME_MAX_BYTES", "IdleLock.SECRET_NAME_MAX_BYTES"},
        {"IDLELOCK_PASSCODE_MIN_SCALARS", "IdleLock.PASSCODE_MIN_SCALARS"},
        {"IDLELOCK_REASON_BACKGROUNDED", "Reason.BACKGROUNDED"},
        {"idlelock_require_recent_auth", "IdleLock.requireRecentAuth"},
        {"IDLELOCK_PASSCODE_MAX_BYTES", "IdleLock.PASSCODE_MAX_BYTES"},
        {"IDLELOCK_RECENT_AUTH_MAX_MS", "IdleLock.RECENT_AUTH_MAX_MS"},
        {"idlelock_disable_biometrics", "IdleLock.disableBiometrics"},
        {"IDLELOCK_AUTH_SECRET_BYTES", "IdleLock.AUTH_SECRET_BYTES"},
        {"idlelock_enable_biometrics", "IdleLock.enableBiometrics"},
        {"IDLELOCK_AUTH_UNAVAILABLE", "AuthResult.UNAVAILABLE"},
        {"IDLELOCK_BIOMETRIC_ENABLE", "BiometricRequest.Purpose.ENABLE"},
        {"IDLELOCK_BIOMETRIC_UNLOCK", "BiometricRequest.Purpose.UNLOCK"},
        {"IDLELOCK_DEVICE_KEY_BYTES", "IdleLock.DEVICE_KEY_BYTES"},
        {"IDLELOCK_KDF_MEMLIMIT_MAX", "IdleLock.KDF_MEMLIMIT_MAX"},
        {"IDLELOCK_KDF_MEMLIMIT_MIN", "IdleLock.KDF_MEMLIMIT_MIN"},
        {"IDLELOCK_KDF_OPSLIMIT_MAX", "IdleLock.KDF_OPSLIMIT_MAX"},
        {"IDLELOCK_KDF_OPSLIMIT_MIN", "IdleLock.KDF_OPSLIMIT_MIN"},
        {"IDLELOCK_MAX_ATTEMPTS_MAX", "IdleLock.MAX_ATTEMPTS_MAX"},
        {"IDLELOCK_STATE_LOCKED_OUT", "State.LOCKED_OUT"},
        {"idlelock_biometric_finish", "BiometricRequest.finish"},
        {"idlelock_require_unlocked", "IdleLock.requireUnlocked"},
        {"idlelock_biometric_begin", "IdleLock.beginBiometricUnlock/Enable"},
        {"IDLELOCK_AUTH_CANCELLED", "AuthResult.CANCELLED"},
        {"IDLELOCK_REASON_STARTUP", "Reason.STARTUP"},
        {"IDLELOCK_STATE_UNLOCKED", "State.UNLOCKED"},
        {"is_biometrics_available", "isBiometricsAvailable"},
        {"IDLELOCK_LISTENERS_MAX", "IdleLock.LISTENERS_MAX"},
        {"IDLELOCK_REASON_MANUAL", "Reason.MANUAL"},
        {"idlelock_secret_remove", "IdleLock.removeSecret"},
        {"ms_until_next_deadline", "msUntilNextDeadline"},
        {"IDLELOCK_GRACE_MAX_MS", "IdleLock.GRACE_MAX_MS"},
        {"IDLELOCK_REASON_CLOCK", "Reason.CLOCK"},
        {"IDLELOCK_SAME_AS_IDLE", "IdleLock.SAME_AS_IDLE"},
        {"IDLELOCK_STATE_LOCKED", "State.LOCKED"},
        {"idlelock_prompt_begin", "IdleLock.promptBegin"},
        {"idlelock_set_passcode", "IdleLock.setPasscode"},
        {"idlelock_snapshot_get", "IdleLock.snapshot"},
        {"is_biometrics_enabled", "isBiometricsEnabled"},
        {"passcode_after_reboot", "passcodeAfterReboot"},
        {"IDLELOCK_AUTH_FAILED", "AuthResult.FAILED"},
        {"IDLELOCK_BIOMETRIC_*", "BiometricRequest.Purpose"},
        {"IDLELOCK_REASON_IDLE", "Reason.IDLE"},
        {"IDLELOCK_REASON_NONE", "Reason.NONE"},
        {"IDLELOCK_SECRETS_MAX", "IdleLock.SECRETS_MAX"},
        {"idlelock_unsubscribe", "IdleLock.unsubscribe"},
        {"idlelock_watch_start", "IdleLock.watchStart"},
        {"is_passcode_required", "isPasscodeRequired"},
        {"IDLELOCK_PLATFORM_*", "Platform"},
        {"background_after_ms", "backgroundAfterMs"},
        {"idlelock_background", "IdleLock.background"},
        {"idlelock_foreground", "IdleLock.foreground"},
        {"idlelock_prompt_end", "IdleLock.promptEnd"},
        {"idlelock_secret_get", "IdleLock.getSecret"},
        {"idlelock_secret_put", "IdleLock.putSecret"},
        {"idlelock_watch_stop", "IdleLock.watchStop"},
        {"passcode_max_age_ms", "passcodeMaxAgeMs"},
        {"attempts_remaining", "attemptsRemaining"},
        {"biometric_max_uses", "biometricMaxUses"},
        {"delay_schedule_len", "delaySchedule's size"},
        {"idlelock_lifecycle", "IdleLock.lifecycle"},
        {"idlelock_subscribe", "IdleLock.subscribe"},
        {"ms_until_idle_lock", "msUntilIdleLock"},
        {"IDLELOCK_REASON_*", "Reason"},
        {"idlelock_inactive", "IdleLock.inactive"},
        {"inactive_after_ms", "inactiveAfterMs"},
        {"IDLELOCK_AUTH_OK", "AuthResult.OK"},
        {"IDLELOCK_STATE_*", "State"},
        {"idlelock_destroy", "IdleLock.close"},
        {"idlelock_disable", "IdleLock.disable"},
        {"last_activity_ms", "lastActivityMs"},
        {"ms_until_warning", "msUntilWarning"},
        {"IDLELOCK_AUTH_*", "AuthResult"},
        {"failed_attempts", "failedAttempts"},
        {"idlelock_create", "IdleLock.Builder.build"},
        {"idlelock_unlock", "IdleLock.unlock"},
        {"IDLELOCK_NEVER", "IdleLock.NEVER"},
        {"delay_schedule", "delaySchedule"},
        {"device_key_len", "deviceKey's length"},
        {"idlelock_check", "IdleLock.check"},
        {"idlelock_start", "IdleLock.start"},
        {"idlelock_touch", "IdleLock.touch"},
        {"ms_until_retry", "msUntilRetry"},
        {"warn_before_ms", "warnBeforeMs"},
        {"idle_after_ms", "idleAfterMs"},
        {"idlelock_lock", "IdleLock.lock"},
        {"lock_on_start", "lockOnStart"},
        {"prompt_cap_ms", "promptCapMs"},
        {"unlock_reason", "unlockReason"},
        {"kdf_memlimit", "kdfMemlimit"},
        {"kdf_opslimit", "kdfOpslimit"},
        {"last_auth_ms", "lastAuthMs"},
        {"max_attempts", "maxAttempts"},
        {"device_key", "deviceKey"},
        {"is_enabled", "isEnabled"},
        {"is_warning", "isWarning"},
        {"max_age_ms", "maxAgeMs"},
        {"secret_len", "the secret's length"},
        {"state_name", "stateName"},
        {"store_path", "storePath"},
        {"clock_ctx", "clock"},
        {"delay_ms", "delayMs"},
        {"grace_ms", "graceMs"},
        {"is_away", "isAway"},
    };

    /** The exception for a status: its subclass, or IdleLockException for one this binding does not know. */
    static RuntimeException exception(int status, String message, Snapshot snapshot) {
        switch (status) {
            case 1: return new InvalidArgumentException(message);
            case 2: return new SessionLockedException(message, snapshot);
            case 3: return new InvalidPasscodeException(message, snapshot);
            case 4: return new LockedOutException(message, snapshot);
            case 5: return new LockUnavailableException(message, snapshot);
            case 6: return new NoPasscodeException(message, snapshot);
            case 7: return new StorageException(message, snapshot);
            case 8: return new NotFoundException(message);
            case 9: return new BufferTooSmallException(message);
            case 10: return new NoMemoryException(message, snapshot);
            case 11: return new InternalException(message, snapshot);
            case 12: return new RetryLaterException(message, snapshot);
            case 13: return new ReauthRequiredException(message, snapshot);
            default: return new IdleLockException(status, message, snapshot);
        }
    }

    /** The state names of a platform ({@code IDLELOCK_PLATFORM_*}), as the library's table has them; null for another. */
    static String[] lifecycleNames(int platform) {
        switch (platform) {
            case 1: return new String[] {"active", "inactive", "background"};
            case 2: return new String[] {"active", "inactive", "background"};
            case 3: return new String[] {"ON_CREATE", "ON_START", "ON_RESUME", "ON_PAUSE", "ON_STOP", "ON_DESTROY"};
            case 4: return new String[] {"resumed", "inactive", "hidden", "paused", "detached"};
            case 5: return new String[] {"active", "inactive", "background", "unknown", "extension"};
            default: return null;
        }
    }
}
