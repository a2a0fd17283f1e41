// SPDX-License-Identifier: MIT
using System;

namespace LibIdleLock
{
    /// <summary>The lock state (IDLELOCK_STATE_*). A value a newer library adds casts through as is.</summary>
    public enum LockState { Unlocked = 0, Locked = 1, LockedOut = 2 }

    /// <summary>Why the session is locked (IDLELOCK_REASON_*).</summary>
    public enum LockReason { None = 0, Idle = 1, Backgrounded = 2, Startup = 3, Manual = 4, Clock = 5 }

    /// <summary>A platform whose own lifecycle state names IdleLock.Lifecycle maps (IDLELOCK_PLATFORM_*);
    /// IdleLock.LifecycleStateNames lists each one's names.</summary>
    public enum Platform
    {
        /// <summary>SwiftUI ScenePhase.</summary>
        IosScenePhase = 1,
        /// <summary>UIKit UIApplication.State.</summary>
        IosApplicationState = 2,
        /// <summary>androidx Lifecycle.Event.</summary>
        AndroidLifecycleEvent = 3,
        /// <summary>Flutter AppLifecycleState.</summary>
        FlutterAppLifecycleState = 4,
        /// <summary>React Native AppState.</summary>
        ReactNativeAppState = 5,
    }

    /// <summary>The outcome of a biometric check (IDLELOCK_AUTH_*): what an
    /// IAuthenticator reports through AuthenticationException, and what the
    /// host hands to BiometricRequest.Finish / Dismiss (1.2).</summary>
    public enum AuthResult { Ok = 0, Failed = 1, Cancelled = 2, Unavailable = 3 }

    /// <summary>One step of an escalating-delay schedule (idlelock_delay_step): once
    /// FailedAttempts wrong passcodes are counted, attempts are refused with
    /// RetryLaterException for DelayMs (1..86400000).</summary>
    public struct DelayStep : IEquatable<DelayStep>
    {
        public readonly int FailedAttempts;
        public readonly long DelayMs;

        public DelayStep(int failedAttempts, long delayMs) { FailedAttempts = failedAttempts; DelayMs = delayMs; }

        public bool Equals(DelayStep other) { return FailedAttempts == other.FailedAttempts && DelayMs == other.DelayMs; }
        public override bool Equals(object obj) { return obj is DelayStep && Equals((DelayStep)obj); }
        public override int GetHashCode() { return FailedAttempts * 31 + DelayMs.GetHashCode(); }
        public override string ToString() { return "DelayStep(" + FailedAttempts + ", " + DelayMs + " ms)"; }
    }

    /// <summary>What the lock looked like after a call (idlelock_snapshot), immutable.
    /// Times are milliseconds; IdleLock.Never (long.MaxValue) is "no deadline".</summary>
    public sealed class Snapshot
    {
        internal Snapshot(ref SnapshotNative s)
        {
            State = (LockState)s.state;
            Seq = s.seq;
            Reason = (LockReason)s.reason;
            IsEnabled = s.is_enabled != 0;
            IsBiometricsEnabled = s.is_biometrics_enabled != 0;
            IsBiometricsAvailable = s.is_biometrics_available != 0;
            IsAway = s.is_away != 0;
            AttemptsRemaining = s.attempts_remaining;
            LastActivityMs = s.last_activity_ms;
            MsUntilIdleLock = s.ms_until_idle_lock;
            IsWarning = s.is_warning != 0;
            MsUntilWarning = s.ms_until_warning;
            MsUntilRetry = s.ms_until_retry;
            MsUntilNextDeadline = s.ms_until_next_deadline;
            IsPasscodeRequired = s.is_passcode_required != 0;
            LastAuthMs = s.last_auth_ms;
        }

        public LockState State { get; private set; }
        /// <summary>Number of the latest change of state, reason, a flag or AttemptsRemaining; 0 at create.</summary>
        public ulong Seq { get; private set; }
        public LockReason Reason { get; private set; }
        /// <summary>True in Locked and LockedOut.</summary>
        public bool IsLocked { get { return State != LockState.Unlocked; } }
        /// <summary>A passcode is set: the lock is engaged.</summary>
        public bool IsEnabled { get; private set; }
        public bool IsBiometricsEnabled { get; private set; }
        /// <summary>Cached by the library: refreshed at create, EnableBiometrics and every Foreground.</summary>
        public bool IsBiometricsAvailable { get; private set; }
        /// <summary>An absence is recorded: show a privacy cover, whatever the state.</summary>
        public bool IsAway { get; private set; }
        /// <summary>Wrong passcodes left before LockedOut (MaxAttempts when not engaged, 0 when locked out).</summary>
        public int AttemptsRemaining { get; private set; }
        public long LastActivityMs { get; private set; }
        /// <summary>ms until the idle deadline, 0 when due, Never when there is none.</summary>
        public long MsUntilIdleLock { get; private set; }
        /// <summary>(1.1) Within WarnBeforeMs of the idle lock.</summary>
        public bool IsWarning { get; private set; }
        public long MsUntilWarning { get; private set; }
        /// <summary>(1.1) ms until a passcode attempt is accepted again, 0 when it is.</summary>
        public long MsUntilRetry { get; private set; }
        /// <summary>(1.1) ms until anything can change: call Check() then; Never when nothing is due.</summary>
        public long MsUntilNextDeadline { get; private set; }
        /// <summary>(1.2) A passcode policy refuses the biometric shortcut now: show the
        /// passcode field only.</summary>
        public bool IsPasscodeRequired { get; private set; }
        /// <summary>(1.2) Clock reading of the last successful authentication on this handle,
        /// Never when there was none.</summary>
        public long LastAuthMs { get; private set; }

        public override string ToString()
        {
            return "Snapshot(" + State + ", reason " + Reason + ", seq " + Seq + (IsEnabled ? ", engaged" : ", not engaged") +
                (IsAway ? ", away" : "") + (IsWarning ? ", warning" : "") + ", attempts remaining " + AttemptsRemaining + ")";
        }
    }
}
