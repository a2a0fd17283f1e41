// SPDX-License-Identifier: MIT
using System;
using System.Collections.Generic;

namespace LibIdleLock
{
    /// <summary>
    /// Options of idlelock_config. Unset (null) properties keep the library's defaults
    /// (the idle and background timeouts unset: the constructor refuses a lock that never
    /// times out until one of them is finite). Ranges are the library's; it checks them in
    /// the constructor and names the field. Times are milliseconds.
    /// </summary>
    public sealed class IdleLockOptions
    {
        /// <summary>Lock after this long without Touch: &gt; 0 or IdleLock.Never (default).</summary>
        public long? IdleAfterMs { get; set; }
        /// <summary>Lock when away (backgrounded) this long: &gt;= 0, Never, or IdleLock.SameAsIdle (default).</summary>
        public long? BackgroundAfterMs { get; set; }
        /// <summary>An absence that stayed inactive locks after the longer of this and BackgroundAfterMs; default 30000.</summary>
        public long? InactiveAfterMs { get; set; }
        /// <summary>0..60000, default 1500: an absence this short is presence.</summary>
        public long? GraceMs { get; set; }
        /// <summary>1..100, default 5: wrong passcodes before LockedOut.</summary>
        public int? MaxAttempts { get; set; }
        /// <summary>Default true: the first Start locks an engaged session (Startup).</summary>
        public bool? LockOnStart { get; set; }
        /// <summary>Argon2id passes, 2..10, default 2.</summary>
        public ulong? KdfOpslimit { get; set; }
        /// <summary>Argon2id memory in bytes, 19 MiB..1 GiB, default 64 MiB.</summary>
        public ulong? KdfMemlimit { get; set; }
        /// <summary>(1.1) 0..600000, default 120000: how long prompts the app opened can defer the rules.</summary>
        public long? PromptCapMs { get; set; }
        /// <summary>(1.1) 0 (off, default) or 1..IdleAfterMs-1: IsWarning opens this long before the idle lock.</summary>
        public long? WarnBeforeMs { get; set; }
        /// <summary>A store file the library owns (plus "&lt;path&gt;.lock") in an existing folder;
        /// null: memory only. See "The store" in include/idlelock.h.</summary>
        public string StorePath { get; set; }
        /// <summary>Null: Linux CLOCK_BOOTTIME. Called with the library's lock held on the calling
        /// thread: quick, and never calling into the lock. The watcher needs the default clock.</summary>
        public Func<long> Clock { get; set; }
        /// <summary>Null: no biometric shortcut.</summary>
        public IAuthenticator Authenticator { get; set; }
        /// <summary>At most 512 UTF-8 bytes, no NUL: the text the authenticator's prompt shows.</summary>
        public string UnlockReason { get; set; }
        /// <summary>32 bytes from a hardware keystore. Referenced, not copied: clear it yourself
        /// (Array.Clear) once the constructor returned; the library keeps its own copy.</summary>
        public byte[] DeviceKey { get; set; }
        /// <summary>(1.1) Escalating delays after wrong passcodes; null or empty: none.
        /// IdleLock.IosDelaySchedule() is the iOS-like preset (use MaxAttempts 10).</summary>
        public IList<DelayStep> DelaySchedule { get; set; }
        /// <summary>(1.2) 0 (off, default) or 3600000..2592000000 ms (1 hour .. 30 days): the
        /// biometric shortcut is refused once the last passcode entry is this old (iOS asks for
        /// the passcode after 156 hours without it). Measured on the lock's clock; an entry from
        /// another boot or behind a clock step counts as too old.</summary>
        public long? PasscodeMaxAgeMs { get; set; }
        /// <summary>(1.2) Default false: with a StorePath, the first unlock after the device
        /// restarted must be by passcode, as iOS and Android require after a restart.</summary>
        public bool? PasscodeAfterReboot { get; set; }
        /// <summary>(1.2) 0 (off, default) or 1..1000: after this many biometric unlocks in a
        /// row (re-authentications included) the next unlock needs the passcode (KeePassXC's
        /// and Keepass2Android's quick unlock).</summary>
        public int? BiometricMaxUses { get; set; }
    }
}
