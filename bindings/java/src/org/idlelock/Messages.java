// SPDX-License-Identifier: MIT
package org.idlelock;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The library's messages ({@code idlelock_last_error()}) in the binding's
 * own words: they name C functions, {@code config} fields and {@code
 * IDLELOCK_*} constants ("idlelock_create: config.idle_after_ms must be > 0
 * or IDLELOCK_NEVER, got 0"); a Java caller sees the method, builder
 * option and constant it used ("IdleLock.Builder.build: idleAfterMs must
 * be > 0 or IdleLock.NEVER, got 0"). Names this table does not know are
 * left as they are.
 */
final class Messages {
    private Messages() {}

    /** C name → the binding's name: functions, then fields, then constants. */
    private static final String[][] NAMES = {
        // functions (the message's prefix, and mentions)
        {"idlelock_create", "IdleLock.Builder.build"},
        {"idlelock_destroy", "IdleLock.close"},
        {"idlelock_watch_start", "IdleLock.watchStart"},
        {"idlelock_watch_stop", "IdleLock.watchStop"},
        {"idlelock_snapshot_get", "IdleLock.snapshot"},
        {"idlelock_lifecycle", "IdleLock.lifecycle"},
        {"idlelock_prompt_begin", "IdleLock.promptBegin"},
        {"idlelock_prompt_end", "IdleLock.promptEnd"},
        {"idlelock_set_passcode", "IdleLock.setPasscode"},
        {"idlelock_unlock_with_biometrics", "IdleLock.unlockWithBiometrics"},
        {"idlelock_unlock", "IdleLock.unlock"},
        {"idlelock_enable_biometrics", "IdleLock.enableBiometrics"},
        {"idlelock_disable_biometrics", "IdleLock.disableBiometrics"},
        {"idlelock_disable", "IdleLock.disable"},
        {"idlelock_biometric_begin", "IdleLock.beginBiometricUnlock/Enable"},
        {"idlelock_biometric_finish", "BiometricRequest.finish"},
        {"idlelock_require_recent_auth", "IdleLock.requireRecentAuth"},
        {"idlelock_require_unlocked", "IdleLock.requireUnlocked"},
        {"idlelock_subscribe", "IdleLock.subscribe"},
        {"idlelock_unsubscribe", "IdleLock.unsubscribe"},
        {"idlelock_secret_put", "IdleLock.putSecret"},
        {"idlelock_secret_get", "IdleLock.getSecret"},
        {"idlelock_secret_remove", "IdleLock.removeSecret"},
        {"idlelock_start", "IdleLock.start"},
        {"idlelock_touch", "IdleLock.touch"},
        {"idlelock_inactive", "IdleLock.inactive"},
        {"idlelock_background", "IdleLock.background"},
        {"idlelock_foreground", "IdleLock.foreground"},
        {"idlelock_check", "IdleLock.check"},
        {"idlelock_lock", "IdleLock.lock"},
        // config fields (with or without "config.") and call parameters
        {"delay_schedule_len", "delaySchedule's size"},
        {"device_key_len", "deviceKey's length"},
        {"idle_after_ms", "idleAfterMs"},
        {"background_after_ms", "backgroundAfterMs"},
        {"inactive_after_ms", "inactiveAfterMs"},
        {"grace_ms", "graceMs"},
        {"max_attempts", "maxAttempts"},
        {"lock_on_start", "lockOnStart"},
        {"kdf_opslimit", "kdfOpslimit"},
        {"kdf_memlimit", "kdfMemlimit"},
        {"prompt_cap_ms", "promptCapMs"},
        {"warn_before_ms", "warnBeforeMs"},
        {"passcode_max_age_ms", "passcodeMaxAgeMs"},
        {"passcode_after_reboot", "passcodeAfterReboot"},
        {"biometric_max_uses", "biometricMaxUses"},
        {"store_path", "storePath"},
        {"unlock_reason", "unlockReason"},
        {"device_key", "deviceKey"},
        {"delay_schedule", "delaySchedule"},
        {"failed_attempts", "failedAttempts"},
        {"delay_ms", "delayMs"},
        {"max_age_ms", "maxAgeMs"},
        {"state_name", "stateName"},
        {"secret_len", "the secret's length"},
        // snapshot fields
        {"ms_until_next_deadline", "msUntilNextDeadline"},
        {"ms_until_idle_lock", "msUntilIdleLock"},
        {"ms_until_retry", "msUntilRetry"},
        {"is_passcode_required", "isPasscodeRequired"},
        {"is_biometrics_enabled", "isBiometricsEnabled"},
        {"is_biometrics_available", "isBiometricsAvailable"},
        {"attempts_remaining", "attemptsRemaining"},
        {"last_auth_ms", "lastAuthMs"},
        // constants
        {"IDLELOCK_NEVER", "IdleLock.NEVER"},
        {"IDLELOCK_SAME_AS_IDLE", "IdleLock.SAME_AS_IDLE"},
        {"IDLELOCK_BIOMETRIC_REQUESTS_MAX", "IdleLock.BIOMETRIC_REQUESTS_MAX"},
        {"IDLELOCK_AUTH_SECRET_BYTES", "IdleLock.AUTH_SECRET_BYTES"},
        {"IDLELOCK_PASSCODE_MAX_BYTES", "IdleLock.PASSCODE_MAX_BYTES"},
        {"IDLELOCK_AUTH_OK", "AuthResult.OK"},
        {"IDLELOCK_AUTH_FAILED", "AuthResult.FAILED"},
        {"IDLELOCK_AUTH_CANCELLED", "AuthResult.CANCELLED"},
        {"IDLELOCK_AUTH_UNAVAILABLE", "AuthResult.UNAVAILABLE"},
        {"IDLELOCK_AUTH_\\*", "AuthResult"},
        {"IDLELOCK_BIOMETRIC_UNLOCK", "BiometricRequest.Purpose.UNLOCK"},
        {"IDLELOCK_BIOMETRIC_ENABLE", "BiometricRequest.Purpose.ENABLE"},
    };

    private static final Pattern[] PATTERNS = new Pattern[NAMES.length];

    static {
        for (int i = 0; i < NAMES.length; i++) {
            // "config." goes with a field; a name is matched whole (not inside a longer one).
            PATTERNS[i] = Pattern.compile("(?:config\\.)?(?<![A-Za-z0-9_])" + NAMES[i][0] + "(?![A-Za-z0-9_])");
        }
    }

    /** {@code message} with the C names replaced by the binding's. */
    static String of(String message) {
        if (message == null || message.isEmpty()) return message;
        String out = message;
        for (int i = 0; i < NAMES.length; i++) {
            if (out.indexOf(NAMES[i][0].replace("\\*", "*")) < 0) continue;
            out = PATTERNS[i].matcher(out).replaceAll(Matcher.quoteReplacement(NAMES[i][1]));
        }
        return out;
    }
}
