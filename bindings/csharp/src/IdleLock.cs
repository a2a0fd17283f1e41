using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Runtime.InteropServices;
using System.Text;
using System.Threading;
using System.Threading.Tasks;

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

    /// <summary>
    /// An idle lock for a signed-in session (idlelock *). The host reports lifecycle
    /// events and input; the library decides when the session locks, seals its secrets
    /// while locked, and unlocks with the passcode or the biometric shortcut. Every rule is
    /// in include/idlelock.h; this class is a thin, checked binding of it.
    ///
    /// Threads: every member may be called from any thread, also concurrently. Listeners run
    /// on the thread of some call on the lock, or on the watcher thread (WatchStart); pass a
    /// SynchronizationContext to Subscribe to have them posted to your main thread (Unity's
    /// main thread has one). The clock runs on the calling thread with the library's lock
    /// held.
    ///
    /// Lifetime: Dispose destroys the handle (session key, passcode wrap and secrets wiped)
    /// exactly once, never blocking: calls in flight on other threads finish first (the last
    /// one destroys it); a lock never disposed is destroyed by its SafeHandle's finalizer.
    /// Every member after Dispose throws ObjectDisposedException.
    ///
    /// Errors: one IdleLockException subclass per status, with the library's message, the
    /// snapshot where the call has one, AttemptsRemaining / MsUntilRetry where they apply. A
    /// listener, clock or authenticator that throws surfaces as a CallbackException.
    ///
    /// Passcodes are char[] (encoded to UTF-8 strictly) or UTF-8 byte[], never string
    /// (immutable, never wiped); the binding clears its own copies. Secrets come back as a
    /// new byte[] that the caller owns.
    /// </summary>
    public sealed class IdleLock : IDisposable
    {
        /// <summary>IDLELOCK_NEVER: "no deadline".</summary>
        public const long Never = long.MaxValue;
        /// <summary>IDLELOCK_SAME_AS_IDLE: BackgroundAfterMs takes IdleAfterMs.</summary>
        public const long SameAsIdle = -1;
        public const string HeaderVersion = "1.2.0";
        public const int HeaderVersionNumber = Native.HeaderVersionNumber;
        // The header's limits (a test compares them with include/idlelock.h).
        public const long GraceMaxMs = 60000;
        public const int MaxAttemptsMax = 100;
        public const int PasscodeMinScalars = 4;
        public const int PasscodeMaxBytes = 1024;
        public const int SecretNameMaxBytes = 64;
        public const int SecretValueMaxBytes = 65536;
        public const int SecretsMax = 256;
        public const int ListenersMax = 64;
        public const int UnlockReasonMaxBytes = 512;
        public const int DeviceKeyBytes = 32;
        public const int AuthSecretBytes = 32;
        public const ulong KdfOpslimitMin = 2;
        public const ulong KdfOpslimitMax = 10;
        public const ulong KdfMemlimitMin = 19UL * 1024 * 1024;
        public const ulong KdfMemlimitMax = 1024UL * 1024 * 1024;
        public const long PromptCapMaxMs = 600000;
        public const long DelayMaxMs = 86400000;
        public const int DelayScheduleMaxSteps = 32;
        /// <summary>(1.2) Bounds of PasscodeMaxAgeMs (or 0), BiometricMaxUses (or 0) and
        /// RequireRecentAuth's maxAgeMs.</summary>
        public const long PasscodeMaxAgeMinMs = 3600000;
        public const long PasscodeMaxAgeMaxMs = 2592000000;
        public const int BiometricMaxUsesMax = 1000;
        public const long RecentAuthMaxMs = 2592000000;
        /// <summary>(1.2) Biometric requests open at once on one lock.</summary>
        public const int BiometricRequestsMax = 8;

        static readonly UTF8Encoding StrictUtf8 = new UTF8Encoding(false, true);

        readonly IdleLockHandle handle;
        readonly CallbackSet callbacks;
        readonly bool hasClock;
        // Set by Dispose. SafeHandle refuses new calls only once its last reference is
        // released (Mono keeps IsClosed false while a call is in flight), so the binding
        // keeps its own flag: no call starts after Dispose, whatever is in flight.
        volatile bool disposed;
        // Biometric requests not yet ended: their secrets are cleared and tasks faulted at Dispose.
        readonly ConcurrentDictionary<BiometricRequest.Core, bool> requests = new ConcurrentDictionary<BiometricRequest.Core, bool>();

        /// <summary>A listener that threw on a thread with no IdleLock call to throw from (the
        /// watcher thread). Unity: IdleLock.UnobservedCallbackException += Debug.LogException.
        /// Without a handler the exception is written to Console.Error.</summary>
        public static event Action<Exception> UnobservedCallbackException;

        internal static void ReportUnobserved(Exception e)
        {
            try
            {
                var handler = UnobservedCallbackException;
                if (handler != null) handler(e);
                else Console.Error.WriteLine("idlelock: a listener threw on a thread with no call to throw from: " + e);
            }
            catch (Exception)
            {
                // the handler failed: nothing is left to tell
            }
        }

        // -- versions and names ----------------------------------------------------------

        /// <summary>The library's version, "MAJOR.MINOR.PATCH".</summary>
        public static string Version { get { Native.EnsureAbi(); return Native.Utf8At(Native.idlelock_version()); } }
        /// <summary>MAJOR * 10000 + MINOR * 100 + PATCH.</summary>
        public static int VersionNumber { get { Native.EnsureAbi(); return Native.idlelock_version_number(); } }

        /// <summary>The fixed name of a status ("IDLELOCK_ERR_SESSION_LOCKED"), "IDLELOCK_ERR_UNKNOWN" for others.</summary>
        public static string StatusName(int status)
        {
            Native.EnsureAbi();
            return Native.Utf8At(Native.idlelock_status_name(status));
        }

        /// <summary>The library's iOS-like preset: 5 wrong: 1 min; 6: 5 min; 7: 15 min; 9: 1 h.</summary>
        public static IList<DelayStep> IosDelaySchedule()
        {
            Native.EnsureAbi();
            IntPtr steps;
            UIntPtr len;
            if (Native.idlelock_delay_schedule_ios(out steps, out len) != 0) throw new InternalException(Native.LastError(), null);
            var list = new List<DelayStep>();
            for (int i = 0; i < (int)len.ToUInt64(); i++)
            {
                var s = (DelayStepNative)Marshal.PtrToStructure(new IntPtr(steps.ToInt64() + i * Native.DelayStepSize), typeof(DelayStepNative));
                list.Add(new DelayStep(s.failed_attempts, s.delay_ms));
            }
            return list.AsReadOnly();
        }

        // -- creation --------------------------------------------------------------------

        /// <summary>Creates the lock (idlelock_create). InvalidArgumentException names the field
        /// of a value out of range; StorageException for a store that cannot be opened.</summary>
        public IdleLock(IdleLockOptions options)
        {
            if (options == null) throw new InvalidArgumentException("options is null");
            Native.EnsureAbi();
            var cfg = new ConfigNative();
            if (Native.idlelock_config_init(ref cfg, new UIntPtr((uint)Native.ConfigSize)) != 0)
                throw new InternalException(Native.LastError(), null);
            if (options.LockOnStart.HasValue) cfg.lock_on_start = options.LockOnStart.Value ? 1 : 0;
            if (options.IdleAfterMs.HasValue) cfg.idle_after_ms = options.IdleAfterMs.Value;
            if (options.BackgroundAfterMs.HasValue) cfg.background_after_ms = options.BackgroundAfterMs.Value;
            if (options.InactiveAfterMs.HasValue) cfg.inactive_after_ms = options.InactiveAfterMs.Value;
            if (options.GraceMs.HasValue) cfg.grace_ms = options.GraceMs.Value;
            if (options.MaxAttempts.HasValue) cfg.max_attempts = options.MaxAttempts.Value;
            if (options.KdfOpslimit.HasValue) cfg.kdf_opslimit = options.KdfOpslimit.Value;
            if (options.KdfMemlimit.HasValue) cfg.kdf_memlimit = options.KdfMemlimit.Value;
            if (options.PromptCapMs.HasValue) cfg.prompt_cap_ms = options.PromptCapMs.Value;
            if (options.WarnBeforeMs.HasValue) cfg.warn_before_ms = options.WarnBeforeMs.Value;
            if (options.PasscodeMaxAgeMs.HasValue) cfg.passcode_max_age_ms = options.PasscodeMaxAgeMs.Value;
            if (options.PasscodeAfterReboot.HasValue) cfg.passcode_after_reboot = options.PasscodeAfterReboot.Value ? 1 : 0;
            if (options.BiometricMaxUses.HasValue) cfg.biometric_max_uses = options.BiometricMaxUses.Value;

            var blocks = new List<IntPtr>();
            IntPtr key = IntPtr.Zero;
            int keyLen = 0;
            var set = new CallbackSet(options.Clock, options.Authenticator);
            IdleLockHandle h = null;
            int rc;
            string message = null;
            List<Exception> errors;
            try
            {
                cfg.store_path = Alloc(blocks, CString(options.StorePath, "StorePath"));
                cfg.unlock_reason = Alloc(blocks, CString(options.UnlockReason, "UnlockReason"));
                if (options.DeviceKey != null)
                {
                    keyLen = options.DeviceKey.Length;
                    key = Marshal.AllocHGlobal(Math.Max(1, keyLen));
                    Marshal.Copy(options.DeviceKey, 0, key, keyLen);
                    cfg.device_key = key;
                    cfg.device_key_len = new UIntPtr((uint)keyLen);
                }
                if (options.DelaySchedule != null)
                {
                    int n = options.DelaySchedule.Count;
                    IntPtr steps = Marshal.AllocHGlobal(Math.Max(1, n) * Native.DelayStepSize);
                    blocks.Add(steps);
                    for (int i = 0; i < n; i++)
                    {
                        var step = new DelayStepNative { failed_attempts = options.DelaySchedule[i].FailedAttempts, delay_ms = options.DelaySchedule[i].DelayMs };
                        Marshal.StructureToPtr(step, new IntPtr(steps.ToInt64() + i * Native.DelayStepSize), false);
                    }
                    cfg.delay_schedule = steps;
                    cfg.delay_schedule_len = new UIntPtr((uint)n);
                }
                if (options.Clock != null)
                {
                    cfg.clock = Callbacks.ClockPtr;
                    cfg.clock_ctx = set.Self;
                }
                if (options.Authenticator != null)
                {
                    var auth = new AuthenticatorNative
                    {
                        size = (uint)Native.AuthenticatorSize,
                        ctx = set.Self,
                        is_available = Callbacks.IsAvailablePtr,
                        store_secret = Callbacks.StoreSecretPtr,
                        load_secret = Callbacks.LoadSecretPtr,
                        delete_secret = Callbacks.DeleteSecretPtr,
                    };
                    IntPtr a = Marshal.AllocHGlobal(Native.AuthenticatorSize);
                    blocks.Add(a);
                    Marshal.StructureToPtr(auth, a, false); // copied by idlelock_create
                    cfg.authenticator = a;
                }
                Callbacks.Depth++;
                try
                {
                    rc = Native.idlelock_create(ref cfg, out h);
                    if (rc != 0) message = Native.LastError();
                }
                finally
                {
                    Callbacks.Depth--;
                }
            }
            catch
            {
                set.FreeAll();
                throw;
            }
            finally
            {
                foreach (var b in blocks) Marshal.FreeHGlobal(b);
                if (key != IntPtr.Zero)
                {
                    for (int i = 0; i < keyLen; i++) Marshal.WriteByte(key, i, 0);
                    Marshal.FreeHGlobal(key);
                }
            }
            errors = Callbacks.TakePending();
            if (rc != 0 || h == null || h.IsInvalid)
            {
                set.FreeAll();
                throw Thrown(IdleLockException.For(rc, message, null), errors);
            }
            h.Created(set);
            handle = h;
            callbacks = set;
            hasClock = options.Clock != null;
            if (errors != null)
            {
                // The authenticator's IsAvailable threw during create: a host bug, reported
                // before the lock is handed out.
                Dispose();
                throw Thrown(null, errors);
            }
        }

        static byte[] CString(string s, string what)
        {
            if (s == null) return null;
            if (s.IndexOf('\0') >= 0) throw new InvalidArgumentException(what + " contains a NUL character, which a C string cannot hold");
            byte[] utf8;
            try
            {
                utf8 = StrictUtf8.GetBytes(s);
            }
            catch (EncoderFallbackException)
            {
                throw new InvalidArgumentException(what + " is not valid UTF-16 (an unpaired surrogate): it has no UTF-8 form");
            }
            var z = new byte[utf8.Length + 1];
            Buffer.BlockCopy(utf8, 0, z, 0, utf8.Length);
            return z;
        }

        static IntPtr Alloc(List<IntPtr> blocks, byte[] bytes)
        {
            if (bytes == null) return IntPtr.Zero;
            IntPtr p = Marshal.AllocHGlobal(bytes.Length);
            blocks.Add(p);
            Marshal.Copy(bytes, 0, p, bytes.Length);
            return p;
        }

        // -- the guard and the errors ----------------------------------------------------

        void Enter()
        {
            if (hasClock && Callbacks.InClock)
                throw new InvalidOperationException("the clock must not call into the IdleLock: it runs with the library's internal lock held");
            if (disposed) throw new ObjectDisposedException("IdleLock");
        }

        static Exception Thrown(IdleLockException failure, List<Exception> errors)
        {
            if (errors == null || errors.Count == 0) return failure;
            return new CallbackException(errors, failure);
        }

        /// <summary>Throws for a failed call, or for exceptions its callbacks threw.</summary>
        static void Finish(int rc, string message, Snapshot snapshot)
        {
            IdleLockException failure = rc == 0 ? null : IdleLockException.For(rc, message, rc == 1 ? null : snapshot);
            var errors = Callbacks.AnyPending ? Callbacks.TakePending() : null;
            var e = Thrown(failure, errors);
            if (e != null) throw e;
        }

        delegate int SnapCall(IdleLockHandle h, ref SnapshotNative s);
        delegate int PlainCall(IdleLockHandle h);

        Snapshot WithSnapshot(SnapCall call)
        {
            Enter();
            var s = new SnapshotNative { size = (uint)Native.SnapshotSize };
            int rc;
            string message = null;
            Callbacks.Depth++;
            try
            {
                rc = call(handle, ref s);
                if (rc != 0) message = Native.LastError();
            }
            finally
            {
                Callbacks.Depth--;
            }
            var snapshot = new Snapshot(ref s);
            if (rc != 0 || Callbacks.AnyPending) Finish(rc, message, snapshot);
            return snapshot;
        }

        void Plain(PlainCall call)
        {
            Enter();
            int rc;
            string message = null;
            Callbacks.Depth++;
            try
            {
                rc = call(handle);
                if (rc != 0) message = Native.LastError();
            }
            finally
            {
                Callbacks.Depth--;
            }
            if (rc != 0 || Callbacks.AnyPending) Finish(rc, message, null);
        }

        // -- life cycle ------------------------------------------------------------------

        /// <summary>Destroys the lock: idempotent, never blocking (see the class remarks).</summary>
        public void Dispose()
        {
            disposed = true;
            // No finish can reach the library any more: open requests end (secrets cleared,
            // tasks faulted) once no finish of theirs is in flight.
            foreach (var r in requests.Keys) r.LockDisposed();
            handle.Dispose();
        }

        /// <summary>True once Dispose was called.</summary>
        public bool IsDisposed { get { return disposed; } }

        /// <summary>Starts the watcher thread: the session locks on time with no call from you;
        /// listeners then run on that thread (the runtime attaches it). Needs the default clock.</summary>
        public void WatchStart() { Plain(Native.idlelock_watch_start); }

        /// <summary>Stops the watcher and waits for it (not for itself, from one of its listeners).</summary>
        public void WatchStop() { Plain(Native.idlelock_watch_stop); }

        // -- events ----------------------------------------------------------------------

        /// <summary>Applies LockOnStart (only the first Start does); later starts only judge.</summary>
        public Snapshot Start() { return WithSnapshot(Native.idlelock_start); }

        /// <summary>User activity: call it on every input event. No snapshot (call Snapshot()).</summary>
        public void Touch()
        {
            if (hasClock && Callbacks.InClock)
                throw new InvalidOperationException("the clock must not call into the IdleLock");
            if (disposed) throw new ObjectDisposedException("IdleLock");
            int rc;
            Callbacks.Depth++;
            try
            {
                rc = Native.idlelock_touch(handle, IntPtr.Zero);
            }
            finally
            {
                Callbacks.Depth--;
            }
            if (rc != 0 || Callbacks.AnyPending) Finish(rc, rc != 0 ? Native.LastError() : null, null);
        }

        /// <summary>Still visible, not interactive (Android onPause, iOS resign-active, Unity OnApplicationFocus(false)).</summary>
        public Snapshot Inactive() { return WithSnapshot(Native.idlelock_inactive); }
        /// <summary>No longer visible (Android onStop, Unity OnApplicationPause(true)).</summary>
        public Snapshot Background() { return WithSnapshot(Native.idlelock_background); }
        /// <summary>Back in the foreground: judges the absence.</summary>
        public Snapshot Foreground() { return WithSnapshot(Native.idlelock_foreground); }
        /// <summary>Judges the deadlines due now; call it at MsUntilNextDeadline.</summary>
        public Snapshot Check() { return WithSnapshot(Native.idlelock_check); }
        /// <summary>"Lock now": an engaged unlocked session locks with Manual.</summary>
        public Snapshot Lock() { return WithSnapshot(Native.idlelock_lock); }
        /// <summary>The state now, after judging the deadlines that are due.</summary>
        public Snapshot Snapshot() { return WithSnapshot(Native.idlelock_snapshot_get); }

        /// <summary>Reports a platform's own state name ("ON_STOP", "inactive") as Foreground,
        /// Inactive or Background would. An unknown name: InvalidArgumentException.</summary>
        public Snapshot Lifecycle(Platform platform, string stateName)
        {
            if (stateName == null) throw new InvalidArgumentException("stateName is null");
            byte[] name = CString(stateName, "stateName");
            return WithSnapshot((IdleLockHandle h, ref SnapshotNative s) => Native.idlelock_lifecycle(h, (int)platform, name, ref s));
        }

        /// <summary>Opens a prompt the app shows itself (a file picker, a share sheet): until it
        /// ends, and never past PromptCapMs, the idle rule waits. Returns its token.</summary>
        public ulong PromptBegin()
        {
            ulong token = 0;
            Plain(h => Native.idlelock_prompt_begin(h, out token));
            return token;
        }

        /// <summary>Ends a prompt (activity). Ended twice or never issued: InvalidArgumentException.</summary>
        public void PromptEnd(ulong token) { Plain(h => Native.idlelock_prompt_end(h, token)); }

        /// <summary>A prompt for a using block: using (lock.OpenPrompt()) { ShowPicker(); }</summary>
        public Prompt OpenPrompt() { return new Prompt(this, PromptBegin()); }

        /// <summary>An open prompt; Dispose ends it once.</summary>
        public sealed class Prompt : IDisposable
        {
            readonly IdleLock owner;
            int ended;

            internal Prompt(IdleLock owner, ulong token) { this.owner = owner; Token = token; }

            public ulong Token { get; private set; }

            public void Dispose()
            {
                if (Interlocked.Exchange(ref ended, 1) == 0) owner.PromptEnd(Token);
            }
        }

        // -- passcode --------------------------------------------------------------------

        static byte[] EncodePasscode(char[] passcode, out int length)
        {
            // Straight into an array the binding owns and clears; GetByteCount first so
            // the encoder never grows a buffer of its own.
            try
            {
                length = StrictUtf8.GetByteCount(passcode);
            }
            catch (EncoderFallbackException)
            {
                throw new InvalidArgumentException("the passcode is not valid UTF-16 (an unpaired surrogate): it has no UTF-8 form");
            }
            var utf8 = new byte[Math.Max(1, length)];
            StrictUtf8.GetBytes(passcode, 0, passcode.Length, utf8, 0);
            return utf8;
        }

        /// <summary>Sets or replaces the passcode, engaging the lock: at least 4 characters, at
        /// most 1024 UTF-8 bytes. Runs Argon2id: call it off the main thread. The binding clears
        /// its UTF-8 copy; clear yours.</summary>
        public void SetPasscode(char[] passcode)
        {
            if (passcode == null) throw new InvalidArgumentException("passcode is null");
            int n;
            byte[] utf8 = EncodePasscode(passcode, out n);
            try
            {
                SetPasscodeUtf8(utf8, n);
            }
            finally
            {
                Array.Clear(utf8, 0, utf8.Length);
            }
        }

        /// <summary>As SetPasscode(char[]) with the passcode as UTF-8 bytes (checked by the library).</summary>
        public void SetPasscodeUtf8(byte[] utf8)
        {
            if (utf8 == null) throw new InvalidArgumentException("passcode is null");
            SetPasscodeUtf8(utf8, utf8.Length);
        }

        void SetPasscodeUtf8(byte[] utf8, int length)
        {
            Plain(h => Native.idlelock_set_passcode(h, utf8, new UIntPtr((uint)length)));
        }

        /// <summary>Unlocks with the passcode (on an unlocked session: re-authenticates and counts).
        /// InvalidPasscodeException (counted; AttemptsRemaining), LockedOutException,
        /// RetryLaterException (MsUntilRetry; not counted), NoPasscodeException,
        /// SessionLockedException (a lock overtook it). Runs Argon2id: call it off the main thread.</summary>
        public Snapshot Unlock(char[] passcode)
        {
            if (passcode == null) throw new InvalidArgumentException("passcode is null");
            int n;
            byte[] utf8 = EncodePasscode(passcode, out n);
            try
            {
                return UnlockUtf8(utf8, n);
            }
            finally
            {
                Array.Clear(utf8, 0, utf8.Length);
            }
        }

        /// <summary>As Unlock(char[]) with the passcode as UTF-8 bytes (checked by the library).</summary>
        public Snapshot UnlockUtf8(byte[] utf8)
        {
            if (utf8 == null) throw new InvalidArgumentException("passcode is null");
            return UnlockUtf8(utf8, utf8.Length);
        }

        Snapshot UnlockUtf8(byte[] utf8, int length)
        {
            return WithSnapshot((IdleLockHandle h, ref SnapshotNative s) => Native.idlelock_unlock(h, utf8, new UIntPtr((uint)length), ref s));
        }

        // -- biometric shortcut ----------------------------------------------------------
        //
        // Two ways in: the callback IAuthenticator, whose LoadSecret blocks the calling
        // thread until the prompt answers (a worker: UnlockWithBiometricsAsync()); and the
        // two-phase pair of 1.2, a BiometricRequest the host finishes from its plugin's
        // callback on any thread, with the Task-returning helpers built on it.

        /// <summary>Turns the shortcut on (an unlocked session with a passcode and an available authenticator).</summary>
        public void EnableBiometrics() { Plain(Native.idlelock_enable_biometrics); }

        /// <summary>Turns the shortcut off (calls DeleteSecret).</summary>
        public void DisableBiometrics() { Plain(Native.idlelock_disable_biometrics); }

        /// <summary>Unlocks with the authenticator's check, blocking this thread in LoadSecret.
        /// Never counts an attempt. LockUnavailableException when the shortcut is off,
        /// unavailable, failed or cancelled (the message says which).</summary>
        public Snapshot UnlockWithBiometrics() { return WithSnapshot(Native.idlelock_unlock_with_biometrics); }

        /// <summary>UnlockWithBiometrics on a thread-pool thread: await it from Unity's main
        /// thread while the authenticator shows its prompt there. The task faults with the
        /// exception the call threw.</summary>
        public Task<Snapshot> UnlockWithBiometricsAsync()
        {
            Enter();
            return Task.Run(() => UnlockWithBiometrics());
        }

        // -- biometrics for asynchronous hosts (1.2) -------------------------------------

        /// <summary>Begins a biometric unlock whose result comes later (idlelock_biometric_begin,
        /// IDLELOCK_BIOMETRIC_UNLOCK): show the platform's check, then call
        /// BiometricRequest.Finish(AuthResult.Ok, secret) with what it released, from any
        /// thread. Checks what UnlockWithBiometrics checks first; needs no IAuthenticator (when
        /// one is configured, its cached IsAvailable must be true). On an unlocked session it
        /// re-authenticates. NoPasscodeException, LockedOutException, LockUnavailableException
        /// (the shortcut is off or unavailable, a passcode policy requires the passcode:
        /// Snapshot.IsPasscodeRequired, or PromptCapMs is 0), InvalidArgumentException (already
        /// BiometricRequestsMax open), StorageException; when it throws, no request is left
        /// open. Thread: any.</summary>
        public BiometricRequest BeginBiometricUnlock() { return BeginBiometric(BiometricPurpose.Unlock); }

        /// <summary>Begins turning the shortcut on (idlelock_biometric_begin,
        /// IDLELOCK_BIOMETRIC_ENABLE): the request's Secret holds a new random 32-byte secret;
        /// keep it behind the platform's biometric check, then Finish(AuthResult.Ok): the
        /// shortcut is on only then. Needs an unlocked session with a passcode.
        /// NoPasscodeException, SessionLockedException, LockUnavailableException (PromptCapMs is
        /// 0), InvalidArgumentException (already BiometricRequestsMax open), NoMemoryException;
        /// when it throws, no request is left open. Thread: any.</summary>
        public BiometricRequest BeginBiometricEnable() { return BeginBiometric(BiometricPurpose.Enable); }

        BiometricRequest BeginBiometric(BiometricPurpose purpose)
        {
            byte[] secret = purpose == BiometricPurpose.Enable ? new byte[AuthSecretBytes] : null;
            ulong token = 0;
            Snapshot begun;
            try
            {
                // The array is pinned for the call: the library writes the secret straight into it.
                begun = WithSnapshot((IdleLockHandle h, ref SnapshotNative s) => Native.idlelock_biometric_begin(
                    h, (int)purpose, out token, secret, new UIntPtr((uint)(secret == null ? 0 : secret.Length)), ref s));
            }
            catch (Exception)
            {
                if (secret != null) Array.Clear(secret, 0, secret.Length);
                if (token != 0)
                {
                    // Begun, but a listener threw during it: the caller never gets the request,
                    // so it must not stay open (its prompt would defer the rules).
                    try { new BiometricRequest(Register(token, purpose, secret), null).Dispose(); }
                    catch (Exception) { /* the first error wins */ }
                }
                throw;
            }
            return new BiometricRequest(Register(token, purpose, secret), begun);
        }

        BiometricRequest.Core Register(ulong token, BiometricPurpose purpose, byte[] secret)
        {
            var core = new BiometricRequest.Core(this, token, purpose, secret);
            requests[core] = true;
            if (disposed) core.LockDisposed(); // disposed while the begin ran: it can never be finished
            return core;
        }

        /// <summary>A request that ended is no longer this lock's to clear at Dispose.</summary>
        internal void Forget(BiometricRequest.Core core)
        {
            bool unused;
            requests.TryRemove(core, out unused);
        }

        /// <summary>idlelock_biometric_finish for BiometricRequest; the arguments are checked.</summary>
        internal Snapshot FinishBiometric(BiometricRequest.Core core, AuthResult result, byte[] secret)
        {
            Enter();
            var s = new SnapshotNative { size = (uint)Native.SnapshotSize };
            int rc = -1;
            string message = null;
            bool reached = false;
            Snapshot snapshot = null;
            IdleLockException failure = null;
            core.EnterFinish();
            try
            {
                Callbacks.Depth++;
                try
                {
                    rc = Native.idlelock_biometric_finish(handle, core.Token, (int)result, secret,
                        new UIntPtr((uint)(secret == null ? 0 : secret.Length)), ref s);
                    reached = true;
                    if (rc != 0) message = Native.LastError();
                }
                finally
                {
                    Callbacks.Depth--;
                }
                snapshot = new Snapshot(ref s);
                failure = rc == 0 ? null : IdleLockException.For(rc, message, rc == 1 ? null : snapshot);
            }
            finally
            {
                core.ExitFinish(reached, rc, snapshot, failure);
            }
            if (rc != 0 || Callbacks.AnyPending) Finish(rc, message, snapshot);
            return snapshot;
        }

        /// <summary>
        /// Unlocks with a biometric check the host awaits, blocking no thread: begins a request
        /// (BeginBiometricUnlock), awaits check(request) (your plugin's check: it returns the
        /// 32-byte secret it released, or throws AuthenticationException with
        /// AuthResult.Failed, Cancelled or Unavailable), and finishes the request with the
        /// outcome on the thread that completed check's task. The task returns the state after
        /// the finish, or faults with what the begin or the finish threw (LockUnavailableException
        /// for a check that did not pass, an expired request or a refused secret;
        /// InvalidArgumentException for a request voided meanwhile), or with check's own
        /// exception when it failed otherwise (the request is then finished as failed).
        /// Cancelling cancellationToken finishes the request as cancelled at once and the task
        /// ends with OperationCanceledException. No request is ever left open. The secret array
        /// check returns is cleared by the binding. Thread: any; in Unity, await it from the
        /// main thread while the plugin shows its prompt.
        /// </summary>
        public Task<Snapshot> UnlockWithBiometricsAsync(Func<BiometricRequest, Task<byte[]>> check,
                                                        CancellationToken cancellationToken = default(CancellationToken))
        {
            if (check == null) throw new InvalidArgumentException("check is null");
            Enter();
            return UnlockWithCheck(check, cancellationToken);
        }

        async Task<Snapshot> UnlockWithCheck(Func<BiometricRequest, Task<byte[]>> check, CancellationToken cancellationToken)
        {
            cancellationToken.ThrowIfCancellationRequested();
            var request = BeginBiometricUnlock();
            using (cancellationToken.Register(CancelQuietly, request))
            {
                byte[] secret = await HostPart(request, () => check(request), cancellationToken).ConfigureAwait(false);
                if (secret == null)
                {
                    request.Dismiss(AuthResult.Failed);
                    throw new InvalidOperationException("the check returned no secret; throw AuthenticationException instead");
                }
                if (cancellationToken.IsCancellationRequested)
                {
                    Array.Clear(secret, 0, secret.Length);
                    throw new OperationCanceledException(cancellationToken);
                }
                return request.Finish(AuthResult.Ok, secret);
            }
        }

        /// <summary>
        /// Turns the shortcut on with a keystore the host awaits: begins a request
        /// (BeginBiometricEnable), awaits store(request, secret) (keep the 32 bytes behind the
        /// biometric check; the array is the request's, cleared when it ends), and finishes the
        /// request: the shortcut is on only then. If the library refuses after the secret was
        /// stored (a lock, a sign-out or a new passcode after the begin), delete() is awaited,
        /// when given, before the task faults, so no item is left behind. Errors, cancellation
        /// and threads as UnlockWithBiometricsAsync(check).
        /// </summary>
        public Task<Snapshot> EnableBiometricsAsync(Func<BiometricRequest, byte[], Task> store, Func<Task> delete = null,
                                                    CancellationToken cancellationToken = default(CancellationToken))
        {
            if (store == null) throw new InvalidArgumentException("store is null");
            Enter();
            return EnableWithStore(store, delete, cancellationToken);
        }

        async Task<Snapshot> EnableWithStore(Func<BiometricRequest, byte[], Task> store, Func<Task> delete, CancellationToken cancellationToken)
        {
            cancellationToken.ThrowIfCancellationRequested();
            var request = BeginBiometricEnable();
            using (cancellationToken.Register(CancelQuietly, request))
            {
                await HostPart(request, async () => { await store(request, request.Secret).ConfigureAwait(false); return true; },
                               cancellationToken).ConfigureAwait(false);
                Exception refused;
                try
                {
                    cancellationToken.ThrowIfCancellationRequested();
                    return request.Finish(AuthResult.Ok);
                }
                catch (Exception e)
                {
                    refused = e;
                }
                // Stored, but not taken: the item must go.
                if (delete != null)
                {
                    try { await delete().ConfigureAwait(false); }
                    catch (Exception) { /* the refusal is what the caller needs to hear */ }
                }
                System.Runtime.ExceptionServices.ExceptionDispatchInfo.Capture(refused).Throw();
                throw refused; // not reached
            }
        }

        /// <summary>A CancellationToken's callback: finishes the request as cancelled, and
        /// never throws into the code that cancelled the token.</summary>
        static void CancelQuietly(object request)
        {
            try { ((BiometricRequest)request).Cancel(); }
            catch (Exception) { /* a listener's error: the cancelled task is what matters */ }
        }

        /// <summary>Awaits the host's part of request. AuthenticationException finishes the
        /// request with its outcome (the library's LockUnavailableException propagates);
        /// cancellation and any other exception finish it as cancelled (failed) and
        /// propagate.</summary>
        static async Task<T> HostPart<T>(BiometricRequest request, Func<Task<T>> part, CancellationToken cancellationToken)
        {
            AuthResult outcome;
            try
            {
                var task = part();
                if (task == null) throw new InvalidOperationException("the host's part returned no task");
                return await task.ConfigureAwait(false);
            }
            catch (AuthenticationException e)
            {
                outcome = e.Result;
            }
            catch (OperationCanceledException)
            {
                request.Dismiss(AuthResult.Cancelled);
                throw;
            }
            catch (Exception)
            {
                request.Dismiss(AuthResult.Failed);
                throw;
            }
            if (cancellationToken.IsCancellationRequested) throw new OperationCanceledException(cancellationToken);
            request.Finish(outcome); // throws the library's LockUnavailableException
            throw new InvalidOperationException("a check that did not pass finished a request"); // not reached
        }

        // -- sign-out --------------------------------------------------------------------

        /// <summary>Signs out: forgets the passcode, the shortcut, every secret, the count and the
        /// lockout (the only way out of LockedOut); with a store, deletes it.</summary>
        public void Disable() { Plain(Native.idlelock_disable); }

        // -- listeners -------------------------------------------------------------------

        /// <summary>Hears every change made from now on, on the thread of the call that
        /// delivers it (or the watcher thread). Returns its token. At most 64 per lock.</summary>
        public ulong Subscribe(Action<Snapshot> listener) { return Subscribe(listener, null); }

        /// <summary>As Subscribe(listener), each snapshot posted to context (Unity's main thread:
        /// SynchronizationContext.Current captured in Start()), and none after Unsubscribe.</summary>
        public ulong Subscribe(Action<Snapshot> listener, SynchronizationContext context)
        {
            if (listener == null) throw new InvalidArgumentException("listener is null");
            Enter();
            var r = new ListenerRecord(listener, context);
            lock (callbacks) callbacks.Listeners.Add(r); // held before the library can call it
            ulong token = 0;
            int rc = -1;
            string message = null;
            try
            {
                Callbacks.Depth++;
                try
                {
                    rc = Native.idlelock_subscribe(handle, Callbacks.ListenerPtr, r.Self, out token);
                    if (rc != 0) message = Native.LastError();
                }
                finally
                {
                    Callbacks.Depth--;
                }
            }
            finally
            {
                lock (callbacks)
                {
                    if (rc == 0) r.Token = token;
                    else if (callbacks.Listeners.Remove(r)) CallbackSet.Free(r);
                }
            }
            Finish(rc, message, null);
            return token;
        }

        /// <summary>Removes a listener: when it returns, no call of it runs on another thread
        /// and none follows. An unknown token: InvalidArgumentException.</summary>
        public void Unsubscribe(ulong token)
        {
            Plain(h => Native.idlelock_unsubscribe(h, token));
            lock (callbacks)
            {
                var r = callbacks.Listeners.Find(x => x.Token == token);
                if (r != null)
                {
                    callbacks.Listeners.Remove(r);
                    CallbackSet.Free(r);
                }
            }
        }

        // -- secrets and the gate --------------------------------------------------------

        /// <summary>Stores value (0..65536 bytes, copied and sealed) under name (1..64 UTF-8
        /// bytes, no NUL). SessionLockedException while locked.</summary>
        public void PutSecret(string name, byte[] value)
        {
            if (name == null) throw new InvalidArgumentException("name is null");
            if (value == null) throw new InvalidArgumentException("value is null");
            byte[] n = CString(name, "the secret name");
            Plain(h => Native.idlelock_secret_put(h, n, value, new UIntPtr((uint)value.Length)));
        }

        /// <summary>The secret as a new array the caller owns: Array.Clear it when done.
        /// NotFoundException, SessionLockedException.</summary>
        public byte[] GetSecret(string name)
        {
            if (name == null) throw new InvalidArgumentException("name is null");
            byte[] n = CString(name, "the secret name");
            byte[] result = null;
            Plain(h =>
            {
                // Ask for the size, then read; another thread may replace it in between.
                var len = UIntPtr.Zero;
                int rc = Native.idlelock_secret_get(h, n, null, ref len);
                while (rc == 9)
                {
                    var buf = new byte[(int)len.ToUInt64()];
                    var got = len;
                    rc = Native.idlelock_secret_get(h, n, buf, ref got);
                    if (rc == 0 && got.ToUInt64() == (ulong)buf.Length)
                    {
                        result = buf;
                    }
                    else
                    {
                        if (rc == 0)
                        {
                            result = new byte[(int)got.ToUInt64()];
                            Buffer.BlockCopy(buf, 0, result, 0, result.Length);
                        }
                        Array.Clear(buf, 0, buf.Length);
                    }
                    len = got;
                }
                if (rc == 0 && result == null) result = new byte[0];
                return rc;
            });
            return result;
        }

        /// <summary>Forgets the secret (its ciphertext is wiped).</summary>
        public void RemoveSecret(string name)
        {
            if (name == null) throw new InvalidArgumentException("name is null");
            byte[] n = CString(name, "the secret name");
            Plain(h => Native.idlelock_secret_remove(h, n));
        }

        /// <summary>The gate for your own protected work: SessionLockedException unless unlocked.</summary>
        public void RequireUnlocked() { Plain(Native.idlelock_require_unlocked); }

        /// <summary>
        /// The step-up check before a sensitive action (1.2, idlelock_require_recent_auth):
        /// returns when the session is unlocked and its last successful authentication on this
        /// lock (Snapshot.LastAuthMs: a passcode or biometric unlock, including a
        /// re-authentication of the unlocked session) is at most maxAgeMs (1 ..
        /// RecentAuthMaxMs, 30 days) old. ReauthRequiredException (status 13) when it is older
        /// or there was none (ask again: Unlock, or the biometric shortcut on the unlocked
        /// session, then check again; a clock step also counts as too old),
        /// SessionLockedException when locked, NoPasscodeException when no passcode is set,
        /// InvalidArgumentException for maxAgeMs out of range. Android Keystore's
        /// authentication validity duration, LAContext's reuse duration and OWASP MASVS-AUTH's
        /// step-up authentication work this way. Thread: any.
        /// </summary>
        public void RequireRecentAuth(long maxAgeMs) { Plain(h => Native.idlelock_require_recent_auth(h, maxAgeMs)); }

        /// <summary>RequireRecentAuth with a TimeSpan (whole milliseconds).</summary>
        public void RequireRecentAuth(TimeSpan maxAge) { RequireRecentAuth((long)maxAge.TotalMilliseconds); }

        public override string ToString() { return "IdleLock(" + (IsDisposed ? "disposed" : "open") + ")"; }
    }
}
