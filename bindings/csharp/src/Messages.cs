// SPDX-License-Identifier: MIT
// The library's messages in the binding's words, and the binding's own checks
// of its arguments (the .NET exceptions a C# caller expects).
using System;
using System.Collections.Generic;
using System.Text;
using System.Text.RegularExpressions;

namespace LibIdleLock
{
    internal static class Messages
    {
        // The C names the library's messages use (include/idlelock.h), as this
        // binding spells them. A name not listed (a libsodium function, a file
        // name) is left as it is.
        static readonly Dictionary<string, string> names = new Dictionary<string, string>
        {
            // idlelock_config's fields: IdleLockOptions' properties
            { "lock_on_start", "LockOnStart" }, { "idle_after_ms", "IdleAfterMs" },
            { "background_after_ms", "BackgroundAfterMs" }, { "inactive_after_ms", "InactiveAfterMs" },
            { "grace_ms", "GraceMs" }, { "max_attempts", "MaxAttempts" },
            { "kdf_opslimit", "KdfOpslimit" }, { "kdf_memlimit", "KdfMemlimit" },
            { "store_path", "StorePath" }, { "clock", "Clock" }, { "clock_ctx", "Clock" },
            { "authenticator", "Authenticator" }, { "unlock_reason", "UnlockReason" },
            { "device_key", "DeviceKey" }, { "device_key_len", "DeviceKey.Length" },
            { "prompt_cap_ms", "PromptCapMs" }, { "warn_before_ms", "WarnBeforeMs" },
            { "delay_schedule", "DelaySchedule" }, { "delay_schedule_len", "DelaySchedule.Count" },
            { "passcode_max_age_ms", "PasscodeMaxAgeMs" }, { "passcode_after_reboot", "PasscodeAfterReboot" },
            { "biometric_max_uses", "BiometricMaxUses" },
            { "failed_attempts", "FailedAttempts" }, { "delay_ms", "DelayMs" },
            // idlelock_authenticator's callbacks: IAuthenticator's methods
            { "is_available", "IAuthenticator.IsAvailable" }, { "store_secret", "IAuthenticator.StoreSecret" },
            { "load_secret", "IAuthenticator.LoadSecret" }, { "delete_secret", "IAuthenticator.DeleteSecret" },
            // parameters and snapshot fields
            { "max_age_ms", "maxAgeMs" }, { "state_name", "stateName" }, { "secret_len", "the secret's length" },
            { "ms_until_next_deadline", "Snapshot.MsUntilNextDeadline" },
            { "is_passcode_required", "Snapshot.IsPasscodeRequired" },
            // functions: IdleLock's members
            { "idlelock_set_passcode", "SetPasscode" }, { "idlelock_unlock", "Unlock" },
            { "idlelock_disable", "Disable" }, { "idlelock_check", "Check" }, { "idlelock_start", "Start" },
            { "idlelock_lock", "Lock" }, { "idlelock_touch", "Touch" },
            { "idlelock_enable_biometrics", "EnableBiometrics" }, { "idlelock_disable_biometrics", "DisableBiometrics" },
            { "idlelock_unlock_with_biometrics", "UnlockWithBiometrics" },
            { "idlelock_biometric_begin", "BeginBiometricUnlock" }, { "idlelock_biometric_finish", "BiometricRequest.Finish" },
            { "idlelock_require_recent_auth", "RequireRecentAuth" }, { "idlelock_require_unlocked", "RequireUnlocked" },
            { "idlelock_secret_put", "PutSecret" }, { "idlelock_secret_get", "GetSecret" },
            { "idlelock_secret_remove", "RemoveSecret" }, { "idlelock_snapshot_get", "Snapshot" },
            { "idlelock_watch_start", "WatchStart" }, { "idlelock_watch_stop", "WatchStop" },
            { "idlelock_prompt_begin", "PromptBegin" }, { "idlelock_prompt_end", "PromptEnd" },
            // constants
            { "IDLELOCK_NEVER", "IdleLock.Never" }, { "IDLELOCK_SAME_AS_IDLE", "IdleLock.SameAsIdle" },
            { "IDLELOCK_AUTH_OK", "AuthResult.Ok" }, { "IDLELOCK_AUTH_FAILED", "AuthResult.Failed" },
            { "IDLELOCK_AUTH_CANCELLED", "AuthResult.Cancelled" }, { "IDLELOCK_AUTH_UNAVAILABLE", "AuthResult.Unavailable" },
            { "IDLELOCK_BIOMETRIC_UNLOCK", "BiometricPurpose.Unlock" }, { "IDLELOCK_BIOMETRIC_ENABLE", "BiometricPurpose.Enable" },
            { "IDLELOCK_AUTH_SECRET_BYTES", "IdleLock.AuthSecretBytes" },
            { "IDLELOCK_BIOMETRIC_REQUESTS_MAX", "IdleLock.BiometricRequestsMax" },
        };

        static readonly Regex token = new Regex(@"\b(config\.)?([a-z][a-z0-9]*(?:_[a-z0-9]+)+|clock|authenticator|IDLELOCK_[A-Z0-9_]+)\b",
                                               RegexOptions.CultureInvariant);

        /// <summary>A message of the library with its C names replaced by the binding's
        /// (config.idle_after_ms -> IdleLockOptions.IdleAfterMs, IDLELOCK_NEVER -> IdleLock.Never).</summary>
        internal static string Translate(string message)
        {
            if (string.IsNullOrEmpty(message)) return message;
            string translated = token.Replace(message, m =>
            {
                string mine;
                bool prefixed = m.Groups[1].Success;
                string name = m.Groups[2].Value;
                if (names.TryGetValue(name, out mine))
                    return prefixed ? "IdleLockOptions." + mine : mine;
                if (prefixed) return "IdleLockOptions." + Pascal(name);
                if (name == "clock" || name == "authenticator") return m.Value; // plain words
                if (name.StartsWith("IDLELOCK_", StringComparison.Ordinal) && !name.StartsWith("IDLELOCK_ERR_", StringComparison.Ordinal))
                    return "IdleLock." + Pascal(name.Substring(9).ToLowerInvariant());
                return m.Value;
            });
            // LockOnStart is a bool here
            return translated.Replace("LockOnStart is 0", "LockOnStart is false").Replace("LockOnStart to 1", "LockOnStart to true");
        }

        /// <summary>The C name of a config field, for the ParamName of the
        /// InvalidArgumentException the constructor throws: the first option a message names.</summary>
        internal static string OptionNamed(string message)
        {
            if (message == null) return null;
            var m = Regex.Match(message, @"\bconfig\.([a-z_]+)");
            if (!m.Success) return null;
            string mine;
            return names.TryGetValue(m.Groups[1].Value, out mine) ? mine.Split('.')[0] : Pascal(m.Groups[1].Value);
        }

        static string Pascal(string snake)
        {
            var b = new StringBuilder(snake.Length);
            foreach (var part in snake.Split('_'))
            {
                if (part.Length == 0) continue;
                b.Append(char.ToUpperInvariant(part[0])).Append(part, 1, part.Length - 1);
            }
            return b.ToString();
        }

        // -- lifecycle names -----------------------------------------------------------

        // Each platform's own state names, as the library maps them (docs/LIFECYCLE.md;
        // a test holds this table to that page and to the library).
        static readonly Dictionary<Platform, string[]> stateNames = new Dictionary<Platform, string[]>
        {
            { Platform.IosScenePhase, new[] { "active", "inactive", "background" } },
            { Platform.IosApplicationState, new[] { "active", "inactive", "background" } },
            { Platform.AndroidLifecycleEvent, new[] { "ON_CREATE", "ON_START", "ON_RESUME", "ON_PAUSE", "ON_STOP", "ON_DESTROY" } },
            { Platform.FlutterAppLifecycleState, new[] { "resumed", "inactive", "hidden", "paused", "detached" } },
            { Platform.ReactNativeAppState, new[] { "active", "inactive", "background", "unknown", "extension" } },
        };

        /// <summary>Whether platform is one the library knows (no copy of its names).</summary>
        internal static bool KnowsPlatform(Platform platform) { return stateNames.ContainsKey(platform); }

        internal static string[] StateNames(Platform platform)
        {
            string[] list;
            return stateNames.TryGetValue(platform, out list) ? (string[])list.Clone() : null;
        }

        internal static string Platforms()
        {
            return string.Join(", ", Enum.GetNames(typeof(Platform)));
        }

        internal static string UnknownState(Platform platform, string stateName)
        {
            return "stateName \"" + stateName + "\" is not a state of Platform." + platform +
                "; its states are " + string.Join(", ", stateNames[platform]) + " (the platform's own spelling, case-sensitive)";
        }
    }

    /// <summary>The binding's checks of its arguments, before the library is called.</summary>
    internal static class Arguments
    {
        internal static void NotNull(object value, string paramName)
        {
            if (value == null) throw new ArgumentNullException(paramName, paramName + " is null");
        }

        /// <summary>offset and count describe a range inside an array of length: the
        /// checks of Stream.Write, with the library's exception for a range outside.</summary>
        internal static void Range(int length, int offset, int count)
        {
            if (offset < 0) throw new ArgumentOutOfRangeException("offset", offset, "offset is negative");
            if (count < 0) throw new ArgumentOutOfRangeException("count", count, "count is negative");
            if (count > length - offset)
                throw new InvalidArgumentException("offset " + offset + " and count " + count +
                    " describe a range past the end of the array (length " + length + ")", "count");
        }
    }
}
