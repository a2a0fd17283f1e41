// SPDX-License-Identifier: MIT
// Generated from include/idlelock.h by scripts/gen-bindings.py; do not edit.
// The C ABI as P/Invoke declarations, blittable struct mirrors and delegates
// (Native), IdleLock's constants, and the tables the idiomatic layer uses
// (HeaderTables).
using System;
using System.Collections.Generic;
using System.Runtime.InteropServices;

namespace LibIdleLock
{
    [StructLayout(LayoutKind.Sequential)]
    internal struct AuthenticatorNative
    {
        public uint size;
        public uint reserved0;
        public IntPtr ctx;
        public IntPtr is_available;
        public IntPtr store_secret;
        public IntPtr load_secret;
        public IntPtr delete_secret;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal struct DelayStepNative
    {
        public int failed_attempts;
        public int reserved0;
        public long delay_ms;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal struct ConfigNative
    {
        public uint size;
        public int lock_on_start;
        public long idle_after_ms;
        public long background_after_ms;
        public long inactive_after_ms;
        public long grace_ms;
        public int max_attempts;
        public uint reserved0;
        public ulong kdf_opslimit;
        public ulong kdf_memlimit;
        public IntPtr store_path;
        public IntPtr clock;
        public IntPtr clock_ctx;
        public IntPtr authenticator;
        public IntPtr unlock_reason;
        public IntPtr device_key;
        public UIntPtr device_key_len;
        public long prompt_cap_ms;
        public long warn_before_ms;
        public IntPtr delay_schedule;
        public UIntPtr delay_schedule_len;
        public long passcode_max_age_ms;
        public int passcode_after_reboot;
        public int biometric_max_uses;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal struct SnapshotNative
    {
        public uint size;
        public int state;
        public ulong seq;
        public int reason;
        public int is_enabled;
        public int is_biometrics_enabled;
        public int is_biometrics_available;
        public int is_away;
        public int attempts_remaining;
        public long last_activity_ms;
        public long ms_until_idle_lock;
        public int is_warning;
        public int reserved1;
        public long ms_until_warning;
        public long ms_until_retry;
        public long ms_until_next_deadline;
        public int is_passcode_required;
        public int reserved2;
        public long last_auth_ms;
    }

    // idlelock_clock_fn
    [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
    internal delegate long ClockFn(IntPtr ctx);
    // idlelock_listener_fn
    [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
    internal delegate void ListenerFn(IntPtr ctx, IntPtr snapshot);
    // idlelock_authenticator.is_available
    [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
    internal delegate int IsAvailableFn(IntPtr ctx);
    // idlelock_authenticator.store_secret
    [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
    internal delegate int StoreSecretFn(IntPtr ctx, IntPtr secret, UIntPtr len);
    // idlelock_authenticator.load_secret
    [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
    internal delegate int LoadSecretFn(IntPtr ctx, IntPtr reason, IntPtr @out, UIntPtr cap, IntPtr outLen);
    // idlelock_authenticator.delete_secret
    [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
    internal delegate int DeleteSecretFn(IntPtr ctx);

    internal static partial class Native
    {
        internal const int HeaderVersionNumber = 10202;
        internal const int HeaderVersionMajor = 1;
        internal const int HeaderVersionMinor = 2;

        internal static readonly int AuthenticatorSize = Marshal.SizeOf(typeof(AuthenticatorNative)), DelayStepSize = Marshal.SizeOf(typeof(DelayStepNative)), ConfigSize = Marshal.SizeOf(typeof(ConfigNative)), SnapshotSize = Marshal.SizeOf(typeof(SnapshotNative));

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] internal static extern int idlelock_delay_schedule_ios(out IntPtr steps, out UIntPtr len);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] internal static extern int idlelock_config_init(ref ConfigNative cfg, UIntPtr size);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] internal static extern int idlelock_create(ref ConfigNative cfg, out IntPtr @out);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] internal static extern void idlelock_destroy(IntPtr @lock);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] internal static extern int idlelock_watch_start(IntPtr @lock);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] internal static extern int idlelock_watch_stop(IntPtr @lock);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] internal static extern int idlelock_start(IntPtr @lock, ref SnapshotNative @out);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] internal static extern int idlelock_touch(IntPtr @lock, IntPtr @out);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] internal static extern int idlelock_inactive(IntPtr @lock, ref SnapshotNative @out);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] internal static extern int idlelock_background(IntPtr @lock, ref SnapshotNative @out);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] internal static extern int idlelock_foreground(IntPtr @lock, ref SnapshotNative @out);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] internal static extern int idlelock_check(IntPtr @lock, ref SnapshotNative @out);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] internal static extern int idlelock_lock(IntPtr @lock, ref SnapshotNative @out);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] internal static extern int idlelock_lifecycle(IntPtr @lock, int platform, byte[] stateName, ref SnapshotNative @out);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] internal static extern int idlelock_prompt_begin(IntPtr @lock, out ulong token);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] internal static extern int idlelock_prompt_end(IntPtr @lock, ulong token);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] internal static extern int idlelock_snapshot_get(IntPtr @lock, ref SnapshotNative @out);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] internal static extern int idlelock_set_passcode(IntPtr @lock, IntPtr utf8, UIntPtr len);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] internal static extern int idlelock_unlock(IntPtr @lock, IntPtr utf8, UIntPtr len, ref SnapshotNative @out);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] internal static extern int idlelock_enable_biometrics(IntPtr @lock);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] internal static extern int idlelock_disable_biometrics(IntPtr @lock);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] internal static extern int idlelock_unlock_with_biometrics(IntPtr @lock, ref SnapshotNative @out);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] internal static extern int idlelock_biometric_begin(IntPtr @lock, int purpose, out ulong token, [Out] byte[] secret, UIntPtr secretLen, ref SnapshotNative @out);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] internal static extern int idlelock_biometric_finish(IntPtr @lock, ulong token, int result, byte[] secret, UIntPtr secretLen, ref SnapshotNative @out);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] internal static extern int idlelock_require_recent_auth(IntPtr @lock, long maxAgeMs);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] internal static extern int idlelock_disable(IntPtr @lock);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] internal static extern int idlelock_subscribe(IntPtr @lock, IntPtr fn, IntPtr ctx, out ulong token);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] internal static extern int idlelock_unsubscribe(IntPtr @lock, ulong token);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] internal static extern int idlelock_secret_put(IntPtr @lock, byte[] name, IntPtr data, UIntPtr len);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] internal static extern int idlelock_secret_get(IntPtr @lock, byte[] name, [In, Out] byte[] buf, ref UIntPtr len);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] internal static extern int idlelock_secret_remove(IntPtr @lock, byte[] name);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] internal static extern int idlelock_require_unlocked(IntPtr @lock);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] internal static extern IntPtr idlelock_status_name(int status);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] internal static extern IntPtr idlelock_last_error();
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] internal static extern IntPtr idlelock_version();
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] internal static extern int idlelock_version_number();
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] internal static extern UIntPtr idlelock_config_size();
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] internal static extern UIntPtr idlelock_snapshot_size();
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] internal static extern UIntPtr idlelock_authenticator_size();
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] internal static extern UIntPtr idlelock_delay_step_size();
    }

    public sealed partial class IdleLock
    {
        /// <summary>IDLELOCK_NEVER: "No deadline": a timeout of IDLELOCK_NEVER never passes.</summary>
        public const long Never = 9223372036854775807;
        /// <summary>IDLELOCK_SAME_AS_IDLE: background_after_ms only: use the value of idle_after_ms.</summary>
        public const long SameAsIdle = -1;
        /// <summary>IDLELOCK_GRACE_MAX_MS: Limits, checked with IDLELOCK_ERR_INVALID_ARGUMENT.</summary>
        public const long GraceMaxMs = 60000;
        /// <summary>IDLELOCK_MAX_ATTEMPTS_MAX: Limits, checked with IDLELOCK_ERR_INVALID_ARGUMENT.</summary>
        public const int MaxAttemptsMax = 100;
        /// <summary>IDLELOCK_PASSCODE_MIN_SCALARS: Unicode scalar values, set_passcode only. Limits, checked with IDLELOCK_ERR_INVALID_ARGUMENT.</summary>
        public const int PasscodeMinScalars = 4;
        /// <summary>IDLELOCK_PASSCODE_MAX_BYTES: Limits, checked with IDLELOCK_ERR_INVALID_ARGUMENT.</summary>
        public const int PasscodeMaxBytes = 1024;
        /// <summary>IDLELOCK_SECRET_NAME_MAX_BYTES: Limits, checked with IDLELOCK_ERR_INVALID_ARGUMENT.</summary>
        public const int SecretNameMaxBytes = 64;
        /// <summary>IDLELOCK_SECRET_VALUE_MAX_BYTES: Limits, checked with IDLELOCK_ERR_INVALID_ARGUMENT.</summary>
        public const int SecretValueMaxBytes = 65536;
        /// <summary>IDLELOCK_SECRETS_MAX: secrets held by one session. Limits, checked with IDLELOCK_ERR_INVALID_ARGUMENT.</summary>
        public const int SecretsMax = 256;
        /// <summary>IDLELOCK_LISTENERS_MAX: listeners on one handle. Limits, checked with IDLELOCK_ERR_INVALID_ARGUMENT.</summary>
        public const int ListenersMax = 64;
        /// <summary>IDLELOCK_UNLOCK_REASON_MAX_BYTES: Limits, checked with IDLELOCK_ERR_INVALID_ARGUMENT.</summary>
        public const int UnlockReasonMaxBytes = 512;
        /// <summary>IDLELOCK_DEVICE_KEY_BYTES: Limits, checked with IDLELOCK_ERR_INVALID_ARGUMENT.</summary>
        public const int DeviceKeyBytes = 32;
        /// <summary>IDLELOCK_KDF_OPSLIMIT_MIN: Argon2id cost bounds. The floor is OWASP's Password Storage Cheat Sheet minimum for Argon2id (19 MiB, 2 passes); the defaults are libsodium's crypto_pwhash_OPSLIMIT_INTERACTIVE / MEMLIMIT_INTERACTIVE (2, 64 MiB).</summary>
        public const ulong KdfOpslimitMin = 2UL;
        /// <summary>IDLELOCK_KDF_OPSLIMIT_MAX: Argon2id cost bounds. The floor is OWASP's Password Storage Cheat Sheet minimum for Argon2id (19 MiB, 2 passes); the defaults are libsodium's crypto_pwhash_OPSLIMIT_INTERACTIVE / MEMLIMIT_INTERACTIVE (2, 64 MiB).</summary>
        public const ulong KdfOpslimitMax = 10UL;
        /// <summary>IDLELOCK_KDF_MEMLIMIT_MIN: Argon2id cost bounds. The floor is OWASP's Password Storage Cheat Sheet minimum for Argon2id (19 MiB, 2 passes); the defaults are libsodium's crypto_pwhash_OPSLIMIT_INTERACTIVE / MEMLIMIT_INTERACTIVE (2, 64 MiB).</summary>
        public const ulong KdfMemlimitMin = 19922944UL;
        /// <summary>IDLELOCK_KDF_MEMLIMIT_MAX: Argon2id cost bounds. The floor is OWASP's Password Storage Cheat Sheet minimum for Argon2id (19 MiB, 2 passes); the defaults are libsodium's crypto_pwhash_OPSLIMIT_INTERACTIVE / MEMLIMIT_INTERACTIVE (2, 64 MiB).</summary>
        public const ulong KdfMemlimitMax = 1073741824UL;
        /// <summary>IDLELOCK_PASSCODE_MAX_AGE_MIN_MS: (1.2) The passcode policies' bounds (config.passcode_max_age_ms: 0 or 1 hour .. 30 days; config.biometric_max_uses: 0 or 1..1000) and idlelock_require_recent_auth's max_age_ms (1 .. 30 days).</summary>
        public const long PasscodeMaxAgeMinMs = 3600000;
        /// <summary>IDLELOCK_PASSCODE_MAX_AGE_MAX_MS: (1.2) The passcode policies' bounds (config.passcode_max_age_ms: 0 or 1 hour .. 30 days; config.biometric_max_uses: 0 or 1..1000) and idlelock_require_recent_auth's max_age_ms (1 .. 30 days).</summary>
        public const long PasscodeMaxAgeMaxMs = 2592000000;
        /// <summary>IDLELOCK_BIOMETRIC_MAX_USES_MAX: (1.2) The passcode policies' bounds (config.passcode_max_age_ms: 0 or 1 hour .. 30 days; config.biometric_max_uses: 0 or 1..1000) and idlelock_require_recent_auth's max_age_ms (1 .. 30 days).</summary>
        public const int BiometricMaxUsesMax = 1000;
        /// <summary>IDLELOCK_RECENT_AUTH_MAX_MS: (1.2) The passcode policies' bounds (config.passcode_max_age_ms: 0 or 1 hour .. 30 days; config.biometric_max_uses: 0 or 1..1000) and idlelock_require_recent_auth's max_age_ms (1 .. 30 days).</summary>
        public const long RecentAuthMaxMs = 2592000000;
        /// <summary>IDLELOCK_AUTH_SECRET_BYTES: The biometric shortcut's bytes: the secret the host keeps in its keystore.</summary>
        public const int AuthSecretBytes = 32;
        /// <summary>IDLELOCK_BIOMETRIC_REQUESTS_MAX: Requests open at once on one handle.</summary>
        public const int BiometricRequestsMax = 8;
        /// <summary>A bound the header states in its prose.</summary>
        public const long PromptCapMaxMs = 600000;
        /// <summary>A bound the header states in its prose.</summary>
        public const long DelayMaxMs = 86400000;
        /// <summary>A bound the header states in its prose.</summary>
        public const int DelayScheduleMaxSteps = 32;
        /// <summary>The header version this assembly was generated from.</summary>
        public const string HeaderVersion = "1.2.2";
        /// <summary>IDLELOCK_VERSION_NUMBER of that header.</summary>
        public const int HeaderVersionNumber = 10202;
    }

    internal static class HeaderTables
    {
        /// <summary>C name -> the binding's, for the library's messages (bindings/names.txt).</summary>
        internal static readonly Dictionary<string, string> Names = new Dictionary<string, string>
        {
            { "IDLELOCK_PLATFORM_FLUTTER_APP_LIFECYCLE_STATE", "Platform.FlutterAppLifecycleState" },
            { "IDLELOCK_PLATFORM_ANDROID_LIFECYCLE_EVENT", "Platform.AndroidLifecycleEvent" },
            { "IDLELOCK_PLATFORM_REACT_NATIVE_APP_STATE", "Platform.ReactNativeAppState" },
            { "IDLELOCK_PLATFORM_IOS_APPLICATION_STATE", "Platform.IosApplicationState" },
            { "IDLELOCK_PLATFORM_IOS_SCENE_PHASE", "Platform.IosScenePhase" },
            { "IDLELOCK_PASSCODE_MAX_AGE_MAX_MS", "IdleLock.PasscodeMaxAgeMaxMs" },
            { "IDLELOCK_PASSCODE_MAX_AGE_MIN_MS", "IdleLock.PasscodeMaxAgeMinMs" },
            { "IDLELOCK_UNLOCK_REASON_MAX_BYTES", "IdleLock.UnlockReasonMaxBytes" },
            { "IDLELOCK_BIOMETRIC_MAX_USES_MAX", "IdleLock.BiometricMaxUsesMax" },
            { "IDLELOCK_BIOMETRIC_REQUESTS_MAX", "IdleLock.BiometricRequestsMax" },
            { "IDLELOCK_SECRET_VALUE_MAX_BYTES", "IdleLock.SecretValueMaxBytes" },
            { "idlelock_unlock_with_biometrics", "UnlockWithBiometrics" },
            { "IDLELOCK_SECRET_NAME_MAX_BYTES", "IdleLock.SecretNameMaxBytes" },
            { "IDLELOCK_PASSCODE_MIN_SCALARS", "IdleLock.PasscodeMinScalars" },
            { "IDLELOCK_REASON_BACKGROUNDED", "LockReason.Backgrounded" },
            { "idlelock_require_recent_auth", "RequireRecentAuth" },
            { "IDLELOCK_PASSCODE_MAX_BYTES", "IdleLock.PasscodeMaxBytes" },
            { "IDLELOCK_RECENT_AUTH_MAX_MS", "IdleLock.RecentAuthMaxMs" },
            { "idlelock_disable_biometrics", "DisableBiometrics" },
            { "IDLELOCK_AUTH_SECRET_BYTES", "IdleLock.AuthSecretBytes" },
            { "idlelock_enable_biometrics", "EnableBiometrics" },
            { "IDLELOCK_AUTH_UNAVAILABLE", "AuthResult.Unavailable" },
            { "IDLELOCK_BIOMETRIC_ENABLE", "BiometricPurpose.Enable" },
            { "IDLELOCK_BIOMETRIC_UNLOCK", "BiometricPurpose.Unlock" },
            { "IDLELOCK_DEVICE_KEY_BYTES", "IdleLock.DeviceKeyBytes" },
            { "IDLELOCK_KDF_MEMLIMIT_MAX", "IdleLock.KdfMemlimitMax" },
            { "IDLELOCK_KDF_MEMLIMIT_MIN", "IdleLock.KdfMemlimitMin" },
            { "IDLELOCK_KDF_OPSLIMIT_MAX", "IdleLock.KdfOpslimitMax" },
            { "IDLELOCK_KDF_OPSLIMIT_MIN", "IdleLock.KdfOpslimitMin" },
            { "IDLELOCK_MAX_ATTEMPTS_MAX", "IdleLock.MaxAttemptsMax" },
            { "IDLELOCK_STATE_LOCKED_OUT", "LockState.LockedOut" },
            { "idlelock_biometric_finish", "BiometricRequest.Finish" },
            { "idlelock_require_unlocked", "RequireUnlocked" },
            { "idlelock_biometric_begin", "BeginBiometricUnlock" },
            { "IDLELOCK_AUTH_CANCELLED", "AuthResult.Cancelled" },
            { "IDLELOCK_REASON_STARTUP", "LockReason.Startup" },
            { "IDLELOCK_STATE_UNLOCKED", "LockState.Unlocked" },
            { "is_biometrics_available", "Snapshot.IsBiometricsAvailable" },
            { "IDLELOCK_LISTENERS_MAX", "IdleLock.ListenersMax" },
            { "IDLELOCK_REASON_MANUAL", "LockReason.Manual" },
            { "idlelock_secret_remove", "RemoveSecret" },
            { "ms_until_next_deadline", "Snapshot.MsUntilNextDeadline" },
            { "IDLELOCK_GRACE_MAX_MS", "IdleLock.GraceMaxMs" },
            { "IDLELOCK_REASON_CLOCK", "LockReason.Clock" },
            { "IDLELOCK_SAME_AS_IDLE", "IdleLock.SameAsIdle" },
            { "IDLELOCK_STATE_LOCKED", "LockState.Locked" },
            { "idlelock_prompt_begin", "PromptBegin" },
            { "idlelock_set_passcode", "SetPasscode" },
            { "idlelock_snapshot_get", "Snapshot" },
            { "is_biometrics_enabled", "Snapshot.IsBiometricsEnabled" },
            { "passcode_after_reboot", "PasscodeAfterReboot" },
            { "IDLELOCK_AUTH_FAILED", "AuthResult.Failed" },
            { "IDLELOCK_BIOMETRIC_*", "BiometricPurpose" },
            { "IDLELOCK_REASON_IDLE", "LockReason.Idle" },
            { "IDLELOCK_REASON_NONE", "LockReason.None" },
            { "IDLELOCK_SECRETS_MAX", "IdleLock.SecretsMax" },
            { "idlelock_watch_start", "WatchStart" },
            { "is_passcode_required", "Snapshot.IsPasscodeRequired" },
            { "IDLELOCK_PLATFORM_*", "Platform" },
            { "background_after_ms", "BackgroundAfterMs" },
            { "idlelock_prompt_end", "PromptEnd" },
            { "idlelock_secret_get", "GetSecret" },
            { "idlelock_secret_put", "PutSecret" },
            { "idlelock_watch_stop", "WatchStop" },
            { "passcode_max_age_ms", "PasscodeMaxAgeMs" },
            { "attempts_remaining", "Snapshot.AttemptsRemaining" },
            { "biometric_max_uses", "BiometricMaxUses" },
            { "delay_schedule_len", "DelaySchedule.Count" },
            { "idlelock_lifecycle", "Lifecycle" },
            { "ms_until_idle_lock", "Snapshot.MsUntilIdleLock" },
            { "IDLELOCK_REASON_*", "LockReason" },
            { "inactive_after_ms", "InactiveAfterMs" },
            { "IDLELOCK_AUTH_OK", "AuthResult.Ok" },
            { "IDLELOCK_STATE_*", "LockState" },
            { "idlelock_disable", "Disable" },
            { "last_activity_ms", "Snapshot.LastActivityMs" },
            { "ms_until_warning", "Snapshot.MsUntilWarning" },
            { "IDLELOCK_AUTH_*", "AuthResult" },
            { "failed_attempts", "FailedAttempts" },
            { "idlelock_unlock", "Unlock" },
            { "IDLELOCK_NEVER", "IdleLock.Never" },
            { "delay_schedule", "DelaySchedule" },
            { "device_key_len", "DeviceKey.Length" },
            { "idlelock_check", "Check" },
            { "idlelock_start", "Start" },
            { "idlelock_touch", "Touch" },
            { "ms_until_retry", "Snapshot.MsUntilRetry" },
            { "warn_before_ms", "WarnBeforeMs" },
            { "authenticator", "Authenticator" },
            { "delete_secret", "IAuthenticator.DeleteSecret" },
            { "idle_after_ms", "IdleAfterMs" },
            { "idlelock_lock", "Lock" },
            { "lock_on_start", "LockOnStart" },
            { "prompt_cap_ms", "PromptCapMs" },
            { "unlock_reason", "UnlockReason" },
            { "is_available", "IAuthenticator.IsAvailable" },
            { "kdf_memlimit", "KdfMemlimit" },
            { "kdf_opslimit", "KdfOpslimit" },
            { "last_auth_ms", "Snapshot.LastAuthMs" },
            { "max_attempts", "MaxAttempts" },
            { "store_secret", "IAuthenticator.StoreSecret" },
            { "load_secret", "IAuthenticator.LoadSecret" },
            { "device_key", "DeviceKey" },
            { "is_enabled", "Snapshot.IsEnabled" },
            { "is_warning", "Snapshot.IsWarning" },
            { "max_age_ms", "maxAgeMs" },
            { "secret_len", "the secret's length" },
            { "state_name", "stateName" },
            { "store_path", "StorePath" },
            { "clock_ctx", "Clock" },
            { "delay_ms", "DelayMs" },
            { "grace_ms", "GraceMs" },
            { "is_away", "Snapshot.IsAway" },
            { "reason", "Snapshot.Reason" },
            { "clock", "Clock" },
            { "state", "Snapshot.State" },
            { "seq", "Snapshot.Seq" },
        };

        /// <summary>The exception for a status (1: InvalidArgumentException); IdleLockException for one this binding does not know.</summary>
        internal static Exception ExceptionFor(int status, string message, Snapshot snapshot)
        {
            switch (status)
            {
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

        /// <summary>The state names of a platform (IDLELOCK_PLATFORM_*), as the library's table has them; null for another.</summary>
        internal static string[] LifecycleNames(int platform)
        {
            switch (platform)
            {
                case 1: return new[] { "active", "inactive", "background" };
                case 2: return new[] { "active", "inactive", "background" };
                case 3: return new[] { "ON_CREATE", "ON_START", "ON_RESUME", "ON_PAUSE", "ON_STOP", "ON_DESTROY" };
                case 4: return new[] { "resumed", "inactive", "hidden", "paused", "detached" };
                case 5: return new[] { "active", "inactive", "background", "unknown", "extension" };
                default: return null;
            }
        }
    }
}
