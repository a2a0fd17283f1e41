// SPDX-License-Identifier: MIT
using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Runtime.InteropServices;
using System.Text;
using System.Threading;

namespace LibIdleLock
{
    /// <summary>
    /// An idle lock for a signed-in session (idlelock *). The host reports lifecycle
    /// events and input; the library decides when the session locks, seals its secrets
    /// while locked, and unlocks with the passcode or the biometric shortcut. Every rule is
    /// in include/idlelock.h; this class is a thin, checked binding of it. Times are
    /// milliseconds on the lock's clock.
    ///
    /// Threads: every member may be called from any thread, also concurrently. Listeners run
    /// on the thread of some call on the lock, or on the watcher thread (WatchStart); pass a
    /// SynchronizationContext to Subscribe to have them posted to your main thread (Unity's
    /// main thread has one). The clock runs on the calling thread with the library's lock
    /// held.
    ///
    /// Lifetime: Dispose destroys the handle (session key, passcode wrap and secrets wiped)
    /// exactly once, never blocking: calls in flight on other threads finish first (the last
    /// one destroys it); from Dispose on, no listener of the lock starts. A lock never
    /// disposed is destroyed by its SafeHandle's finalizer. Every member after Dispose throws
    /// ObjectDisposedException.
    ///
    /// Errors: ArgumentNullException for a null argument; InvalidArgumentException (an
    /// ArgumentException, status 1) for an invalid value, from the binding's checks or the
    /// library's; one IdleLockException subclass for each other status, with the library's
    /// message in the binding's names, the snapshot where the call has one,
    /// AttemptsRemaining / MsUntilRetry where they apply. Both kinds implement
    /// IIdleLockError. A listener, clock or authenticator that throws surfaces as a
    /// CallbackException.
    ///
    /// Passcodes are char[] (encoded to UTF-8 strictly) or UTF-8 byte[], never string
    /// (immutable, never wiped); the binding clears its own copies. Secrets come back as a
    /// new byte[] that the caller owns.
    /// </summary>
    public sealed partial class IdleLock : IDisposable
    {
        // The header's constants (Never, SameAsIdle, GraceMaxMs, ..., HeaderVersion) are
        // Generated.cs's, from include/idlelock.h.

        static readonly UTF8Encoding StrictUtf8 = new UTF8Encoding(false, true);

        /// <summary>Runs before the first member of IdleLock (the class has a precise static
        /// constructor) and so before any method that calls into the library is compiled:
        /// Mono resolves a P/Invoke when it compiles its caller, and keeps a failure.</summary>
        static IdleLock()
        {
            NativeLoader.LoadPackaged();
        }

        readonly IdleLockHandle handle;
        readonly CallbackSet callbacks;
        readonly bool hasClock;
        // Set by Dispose (IsDisposed); the handle's own counter is what refuses calls.
        volatile bool disposed;
        // Biometric requests not yet ended: their secrets are cleared and tasks faulted at Dispose.
        readonly ConcurrentDictionary<BiometricRequest.Core, bool> requests = new ConcurrentDictionary<BiometricRequest.Core, bool>();
        // Cancelled by Dispose: every Task helper still waiting for the host's check ends with it.
        readonly CancellationTokenSource disposing = new CancellationTokenSource();

        /// <summary>A listener that threw on a thread with no IdleLock call to throw from (the
        /// watcher thread). Unity: IdleLock.UnobservedCallbackException += Debug.LogException.
        /// Without a handler the exception is written to Console.Error. The handler runs on
        /// that thread; an exception it throws is dropped.</summary>
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

        /// <summary>The library's version, "MAJOR.MINOR.PATCH". DllNotFoundException or
        /// InvalidOperationException when the library cannot serve this binding (see
        /// README, "Install").</summary>
        public static string Version { get { Native.EnsureAbi(); return Native.VersionString(); } }
        /// <summary>MAJOR * 10000 + MINOR * 100 + PATCH.</summary>
        public static int VersionNumber { get { Native.EnsureAbi(); return Native.VersionNumber(); } }

        /// <summary>The fixed name of a status ("IDLELOCK_ERR_SESSION_LOCKED"), "IDLELOCK_ERR_UNKNOWN" for others.</summary>
        public static string StatusName(int status)
        {
            Native.EnsureAbi();
            return Native.StatusName(status);
        }

        /// <summary>The library's iOS-like preset: 5 wrong: 1 min; 6: 5 min; 7: 15 min; 9: 1 h
        /// (use MaxAttempts 10). A new read-only list.</summary>
        public static IList<DelayStep> IosDelaySchedule()
        {
            Native.EnsureAbi();
            var steps = Native.IosDelaySchedule();
            if (steps == null) throw new InternalException("idlelock_delay_schedule_ios failed", null);
            var list = new List<DelayStep>();
            foreach (var s in steps) list.Add(new DelayStep(s.Key, s.Value));
            return list.AsReadOnly();
        }

        /// <summary>The state names Lifecycle accepts for a platform, in the platform's own
        /// case-sensitive spelling (docs/LIFECYCLE.md), as a new array.
        /// InvalidArgumentException for a value that is no Platform.</summary>
        public static string[] LifecycleStateNames(Platform platform)
        {
            var names = HeaderTables.LifecycleNames((int)platform);
            if (names == null)
                throw new InvalidArgumentException("platform " + (int)platform + " is not a Platform; the platforms are " +
                    string.Join(", ", Enum.GetNames(typeof(Platform))), "platform");
            return names;
        }

        // -- creation --------------------------------------------------------------------

        /// <summary>Creates the lock (idlelock_create). ArgumentNullException for a null
        /// options; InvalidArgumentException for a value out of range (the message and
        /// ParamName name the option: IdleAfterMs, not idle_after_ms); StorageException for a
        /// store that cannot be opened; NoMemoryException; CallbackException when the
        /// authenticator's IsAvailable threw (the lock is then disposed). DllNotFoundException
        /// or InvalidOperationException when the native library is missing or does not match.
        /// The options are read, not kept: change them afterwards freely. Thread: any.</summary>
        public IdleLock(IdleLockOptions options)
        {
            Arguments.NotNull(options, "options");
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
            var h = new IdleLockHandle();
            IntPtr raw = IntPtr.Zero;
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
                var slot = ThreadSlot.Current;
                int call = slot.EnterUnheld(); // the authenticator's IsAvailable may throw into it
                try
                {
                    rc = Native.idlelock_create(ref cfg, out raw);
                    if (rc != 0) message = Native.LastError();
                }
                finally
                {
                    slot.Release(call);
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
            if (rc != 0 || raw == IntPtr.Zero)
            {
                set.FreeAll();
                GC.SuppressFinalize(h);
                var failure = IdleLockException.For(rc, message, null);
                var invalid = failure as InvalidArgumentException;
                if (invalid != null) failure = new InvalidArgumentException(invalid.Message, Messages.OptionNamed(message));
                throw Thrown(failure, errors);
            }
            h.Created(raw, set);
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
            if (s.IndexOf('\0') >= 0)
                throw new InvalidArgumentException(what + " contains a NUL character, which a C string cannot hold", what);
            byte[] utf8;
            try
            {
                utf8 = StrictUtf8.GetBytes(s);
            }
            catch (EncoderFallbackException)
            {
                throw new InvalidArgumentException(what + " is not valid UTF-16 (an unpaired surrogate): it has no UTF-8 form", what);
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

        /// <summary>What every member checks first (the async helpers too, before they start).</summary>
        void CheckUsable()
        {
            if (hasClock && Callbacks.InClock) throw ClockReentry();
            if (disposed) throw Disposed();
        }

        static Exception ClockReentry()
        {
            return new InvalidOperationException("the clock must not call into the IdleLock: it runs with the library's internal lock held");
        }

        static ObjectDisposedException Disposed()
        {
            return new ObjectDisposedException("IdleLock", "the IdleLock was disposed");
        }

        static Exception Thrown(Exception failure, List<Exception> errors)
        {
            if (errors == null || errors.Count == 0) return failure;
            // A thread abort a callback held back (Callbacks.Caught): the library's call
            // has returned, so it goes on now.
            foreach (var e in errors)
                if (e is Callbacks.DeferredAbort) Thread.CurrentThread.Abort();
            return new CallbackException(errors, failure);
        }

        /// <summary>Throws for a failed call, or for exceptions its callbacks threw.</summary>
        static void Finish(int rc, string message, Snapshot snapshot)
        {
            Exception failure = rc == 0 ? null : IdleLockException.For(rc, message, rc == 1 ? null : snapshot);
            var errors = Callbacks.AnyPending ? Callbacks.TakePending() : null;
            var e = Thrown(failure, errors);
            if (e != null) throw e;
        }

        delegate int SnapCall(IntPtr h, ref SnapshotNative s);
        delegate int PlainCall(IntPtr h);

        Snapshot WithSnapshot(SnapCall call)
        {
            if (hasClock && Callbacks.InClock) throw ClockReentry();
            var h = handle;
            var slot = ThreadSlot.Current;
            int held = h.Enter(slot);
            if (held < 0) throw Disposed();
            var s = new SnapshotNative { size = (uint)Native.SnapshotSize };
            int rc;
            string message = null;
            try
            {
                rc = call(h.Raw, ref s);
                if (rc != 0) message = Native.LastError();
            }
            finally
            {
                h.Exit(slot, held);
            }
            var snapshot = new Snapshot(ref s);
            if (rc != 0 || Callbacks.AnyPending) Finish(rc, message, snapshot);
            return snapshot;
        }

        void Plain(PlainCall call)
        {
            if (hasClock && Callbacks.InClock) throw ClockReentry();
            var h = handle;
            var slot = ThreadSlot.Current;
            int held = h.Enter(slot);
            if (held < 0) throw Disposed();
            int rc;
            string message = null;
            try
            {
                rc = call(h.Raw);
                if (rc != 0) message = Native.LastError();
            }
            finally
            {
                h.Exit(slot, held);
            }
            if (rc != 0 || Callbacks.AnyPending) Finish(rc, message, null);
        }

        delegate int BytesCall(IntPtr data, UIntPtr length);

        /// <summary>Calls with data[offset .. offset+count) pinned: the library reads the
        /// caller's bytes in place, no copy is made. The range is checked by the caller.</summary>
        static int Pinned(byte[] data, int offset, int count, BytesCall call)
        {
            // An empty range still passes a valid pointer (the library tells "empty" from NULL).
            byte[] target = count == 0 ? EmptyRange : data;
            var pin = GCHandle.Alloc(target, GCHandleType.Pinned);
            try
            {
                return call(Marshal.UnsafeAddrOfPinnedArrayElement(target, count == 0 ? 0 : offset), new UIntPtr((uint)count));
            }
            finally
            {
                pin.Free();
            }
        }

        static readonly byte[] EmptyRange = new byte[1];

        // -- life cycle ------------------------------------------------------------------

        /// <summary>Destroys the lock (idlelock_destroy: session key, passcode wrap and secrets
        /// wiped): idempotent, never blocking, callable from any thread, from a listener (also
        /// on the watcher thread) and while other calls are in flight: those finish first and
        /// the last one out destroys the handle. From the moment Dispose is called no listener
        /// of this lock starts (one already running on another thread finishes). Open
        /// biometric requests end: their tasks fault with ObjectDisposedException. So do the
        /// tasks of UnlockWithBiometricsAsync and EnableBiometricsAsync still waiting for the
        /// host's check, at once, whatever the check does: its late answer is cleared unused
        /// (a late-stored item deleted), and LoadSecret's answer is answered
        /// AuthResult.Cancelled. Their continuations then run on the thread pool.</summary>
        public void Dispose()
        {
            if (disposed) return;
            disposed = true;
            callbacks.Deactivate();
            // No finish can reach the library any more: open requests end (secrets cleared,
            // tasks faulted) once no finish of theirs is in flight.
            foreach (var r in requests.Keys) r.LockDisposed();
            // The Task helpers still waiting for the host's check end now too, whatever it does.
            try { disposing.Cancel(); }
            catch (AggregateException) { /* the helpers' callbacks only complete tasks */ }
            handle.Retire();
        }

        /// <summary>True once Dispose was called.</summary>
        public bool IsDisposed { get { return disposed; } }

        /// <summary>Starts the watcher thread (idlelock_watch_start): the session locks on time
        /// with no call from you; listeners then run on that thread, which the binding makes
        /// a background thread, and stops when the program exits (ProcessExit, or the unload
        /// of the AppDomain), so a lock never disposed never keeps the program from exiting.
        /// Needs the default clock (InvalidArgumentException with a Clock). Idempotent.
        /// Thread: any.</summary>
        public void WatchStart()
        {
            Plain(Native.idlelock_watch_start);
            Watchers.Started(handle);
        }

        /// <summary>Stops the watcher and waits for it (not for itself, from one of its
        /// listeners). Idempotent. Thread: any.</summary>
        public void WatchStop() { Plain(Native.idlelock_watch_stop); }

        // -- events ----------------------------------------------------------------------

        /// <summary>Applies LockOnStart (only the first Start does); later starts only judge.
        /// Returns the state after it. StorageException (locked anyway). Thread: any.</summary>
        public Snapshot Start() { return WithSnapshot(Native.idlelock_start); }

        /// <summary>User activity: call it on every input event. No snapshot (call Snapshot()).
        /// The hot call: no allocation. StorageException when a lock it decided could not be
        /// saved. Thread: any.</summary>
        public void Touch()
        {
            if (hasClock && Callbacks.InClock) throw ClockReentry();
            // IdleLockHandle.Enter and Exit, written out: the hot call (BENCHMARKS.md, "Bindings").
            var h = handle;
            var slot = ThreadSlot.current ?? ThreadSlot.Register();
            int held = slot.Held;
            var hazards = slot.Hazards;
            if (held == hazards.Length) hazards = slot.Grow();
            IntPtr raw = h.Raw;
            Interlocked.Exchange(ref hazards[held].Raw, raw);
            if (h.IsRetired)
            {
                Volatile.Write(ref hazards[held].Raw, IntPtr.Zero);
                throw Disposed();
            }
            slot.Held = held + 1;
            int rc;
            try
            {
                rc = Native.idlelock_touch(raw, IntPtr.Zero);
            }
            catch
            {
                // Only an exception the runtime raises on the way back (a thread abort):
                // a catch costs nothing on the way through, a finally a call.
                h.Exit(slot, held);
                throw;
            }
            slot.Held = held;
            Volatile.Write(ref slot.Hazards[held].Raw, IntPtr.Zero);
            if (h.IsRetired) h.TryDestroy();
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
        /// Inactive or Background would (LifecycleStateNames lists them).
        /// ArgumentNullException for a null name; InvalidArgumentException for a value that
        /// is no Platform (the message lists the platforms) or a name the platform does not
        /// have (the message lists its names); nothing changed then. Thread: any.</summary>
        public Snapshot Lifecycle(Platform platform, string stateName)
        {
            Arguments.NotNull(stateName, "stateName");
            byte[] name = CString(stateName, "stateName");
            try
            {
                return WithSnapshot((IntPtr h, ref SnapshotNative s) => Native.idlelock_lifecycle(h, (int)platform, name, ref s));
            }
            catch (InvalidArgumentException e)
            {
                // The library's message lists the valid platforms or names; ParamName says which was wrong.
                throw new InvalidArgumentException(e.Message, e.Message.Contains("platform this library knows") ? "platform" : "stateName");
            }
        }

        /// <summary>Opens a prompt the app shows itself (a file picker, a share sheet): until it
        /// ends, and never past PromptCapMs, the idle rule waits. Returns its token (never 0).
        /// Thread: any.</summary>
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

        /// <summary>chars[offset .. offset+count) as UTF-8 in an array the binding owns and
        /// clears; GetByteCount first so the encoder never grows a buffer of its own.</summary>
        static byte[] EncodePasscode(char[] passcode, int offset, int count, out int length)
        {
            try
            {
                length = StrictUtf8.GetByteCount(passcode, offset, count);
            }
            catch (EncoderFallbackException)
            {
                throw new InvalidArgumentException("the passcode is not valid UTF-16 (an unpaired surrogate): it has no UTF-8 form", "passcode");
            }
            var utf8 = new byte[Math.Max(1, length)];
            StrictUtf8.GetBytes(passcode, offset, count, utf8, 0);
            return utf8;
        }

        /// <summary>Sets or replaces the passcode, engaging the lock: at least 4 characters
        /// (Unicode scalar values), at most 1024 UTF-8 bytes. Runs Argon2id: call it off the
        /// main thread. The binding clears its UTF-8 copy; clear yours.
        /// ArgumentNullException; InvalidArgumentException (too short, too long, an unpaired
        /// surrogate); SessionLockedException while locked; NoMemoryException; StorageException.
        /// Thread: any.</summary>
        public void SetPasscode(char[] passcode)
        {
            Arguments.NotNull(passcode, "passcode");
            SetPasscode(passcode, 0, passcode.Length);
        }

        /// <summary>As SetPasscode(char[]) with the passcode in passcode[offset .. offset+count):
        /// for a fixed buffer the host fills from key events. Nothing outside the range is
        /// read. ArgumentOutOfRangeException for a negative offset or count,
        /// InvalidArgumentException for a range past the array's end.</summary>
        public void SetPasscode(char[] passcode, int offset, int count)
        {
            Arguments.NotNull(passcode, "passcode");
            Arguments.Range(passcode.Length, offset, count);
            int n;
            byte[] utf8 = EncodePasscode(passcode, offset, count, out n);
            try
            {
                SetPasscodeUtf8(utf8, 0, n);
            }
            finally
            {
                Array.Clear(utf8, 0, utf8.Length);
            }
        }

        /// <summary>As SetPasscode(char[]) with the passcode as UTF-8 bytes (checked by the
        /// library: invalid UTF-8 is InvalidArgumentException). The array is read in place and
        /// left as it is: clear it yourself.</summary>
        public void SetPasscodeUtf8(byte[] utf8)
        {
            Arguments.NotNull(utf8, "utf8");
            SetPasscodeUtf8(utf8, 0, utf8.Length);
        }

        /// <summary>As SetPasscodeUtf8(byte[]) with the passcode in utf8[offset .. offset+count);
        /// nothing outside the range is read. ArgumentOutOfRangeException,
        /// InvalidArgumentException as SetPasscode(char[], int, int).</summary>
        public void SetPasscodeUtf8(byte[] utf8, int offset, int count)
        {
            Arguments.NotNull(utf8, "utf8");
            Arguments.Range(utf8.Length, offset, count);
            Plain(h => Pinned(utf8, offset, count, (p, n) => Native.idlelock_set_passcode(h, p, n)));
        }

        /// <summary>Unlocks with the passcode (on an unlocked session: re-authenticates and
        /// counts) and returns the state after it. InvalidPasscodeException (counted;
        /// AttemptsRemaining), LockedOutException, RetryLaterException (MsUntilRetry; not
        /// counted), NoPasscodeException, SessionLockedException (a lock overtook it),
        /// ArgumentNullException, InvalidArgumentException (empty, over 1024 bytes, an unpaired
        /// surrogate: not counted). Runs Argon2id: call it off the main thread. The binding
        /// clears its UTF-8 copy; clear yours. Thread: any.</summary>
        public Snapshot Unlock(char[] passcode)
        {
            Arguments.NotNull(passcode, "passcode");
            return Unlock(passcode, 0, passcode.Length);
        }

        /// <summary>As Unlock(char[]) with the passcode in passcode[offset .. offset+count);
        /// nothing outside the range is read. ArgumentOutOfRangeException for a negative offset
        /// or count, InvalidArgumentException for a range past the array's end.</summary>
        public Snapshot Unlock(char[] passcode, int offset, int count)
        {
            Arguments.NotNull(passcode, "passcode");
            Arguments.Range(passcode.Length, offset, count);
            int n;
            byte[] utf8 = EncodePasscode(passcode, offset, count, out n);
            try
            {
                return UnlockUtf8(utf8, 0, n);
            }
            finally
            {
                Array.Clear(utf8, 0, utf8.Length);
            }
        }

        /// <summary>As Unlock(char[]) with the passcode as UTF-8 bytes (checked by the library).
        /// The array is read in place and left as it is: clear it yourself.</summary>
        public Snapshot UnlockUtf8(byte[] utf8)
        {
            Arguments.NotNull(utf8, "utf8");
            return UnlockUtf8(utf8, 0, utf8.Length);
        }

        /// <summary>As UnlockUtf8(byte[]) with the passcode in utf8[offset .. offset+count);
        /// nothing outside the range is read.</summary>
        public Snapshot UnlockUtf8(byte[] utf8, int offset, int count)
        {
            Arguments.NotNull(utf8, "utf8");
            Arguments.Range(utf8.Length, offset, count);
            return WithSnapshot((IntPtr h, ref SnapshotNative s) =>
            {
                var snap = s;
                int rc = Pinned(utf8, offset, count, (p, n) => Native.idlelock_unlock(h, p, n, ref snap));
                s = snap;
                return rc;
            });
        }

        // -- sign-out --------------------------------------------------------------------

        /// <summary>Signs out: forgets the passcode, the shortcut, every secret, the count and the
        /// lockout (the only way out of LockedOut); with a store, deletes it; voids open
        /// biometric requests. StorageException when the store could not be deleted (signed out
        /// in this process all the same). Thread: any.</summary>
        public void Disable() { Plain(Native.idlelock_disable); }

        // -- listeners -------------------------------------------------------------------

        /// <summary>Hears every change made from now on, on the thread of the call that
        /// delivers it (or the watcher thread). Returns its token. At most 64 per lock
        /// (InvalidArgumentException). The listener must not block waiting for another thread
        /// that calls into the lock; it may call into the lock, Unsubscribe itself and Dispose.
        /// What it throws is rethrown from the call that ran it (CallbackException), or, on the
        /// watcher thread, raises UnobservedCallbackException. ArgumentNullException.</summary>
        public ulong Subscribe(Action<Snapshot> listener) { return Subscribe(listener, null); }

        /// <summary>As Subscribe(listener), each snapshot posted to context (Unity's main thread:
        /// SynchronizationContext.Current captured in Start()), and none after Unsubscribe or
        /// Dispose. A null context: Subscribe(listener).</summary>
        public ulong Subscribe(Action<Snapshot> listener, SynchronizationContext context)
        {
            Arguments.NotNull(listener, "listener");
            CheckUsable();
            var r = new ListenerRecord(listener, context, handle);
            lock (callbacks) callbacks.Listeners.Add(r); // held before the library can call it
            ulong token = 0;
            bool done = false;
            try
            {
                Plain(h => Native.idlelock_subscribe(h, Callbacks.ListenerPtr, r.Self, out token));
                done = true;
            }
            finally
            {
                lock (callbacks)
                {
                    if (done || token != 0) r.Token = token;
                    else if (callbacks.Listeners.Remove(r)) CallbackSet.Free(r);
                }
            }
            return token;
        }

        /// <summary>Removes a listener: when it returns, no call of it runs on another thread
        /// and none follows. An unknown token: InvalidArgumentException. Thread: any, also
        /// the listener itself.</summary>
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

        /// <summary>Stores value (0..65536 bytes, copied and sealed; the array is left as it
        /// is: clear it yourself) under name (1..64 UTF-8 bytes, no NUL), replacing any earlier
        /// value. ArgumentNullException; InvalidArgumentException (a bad name, a value too
        /// long); SessionLockedException while locked; NoMemoryException for a 257th secret.
        /// Thread: any.</summary>
        public void PutSecret(string name, byte[] value)
        {
            Arguments.NotNull(value, "value");
            PutSecret(name, value, 0, value.Length);
        }

        /// <summary>As PutSecret(name, value) with the value in value[offset .. offset+count);
        /// nothing outside the range is read. ArgumentOutOfRangeException for a negative
        /// offset or count, InvalidArgumentException for a range past the array's end.</summary>
        public void PutSecret(string name, byte[] value, int offset, int count)
        {
            Arguments.NotNull(name, "name");
            Arguments.NotNull(value, "value");
            Arguments.Range(value.Length, offset, count);
            byte[] n = CString(name, "name");
            Plain(h => Pinned(value, offset, count, (p, len) => Native.idlelock_secret_put(h, n, p, len)));
        }

        /// <summary>The secret as a new array the caller owns: Array.Clear it when done.
        /// ArgumentNullException, InvalidArgumentException (a bad name), NotFoundException,
        /// SessionLockedException. Thread: any.</summary>
        public byte[] GetSecret(string name)
        {
            Arguments.NotNull(name, "name");
            byte[] n = CString(name, "name");
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

        /// <summary>Forgets the secret (its ciphertext is wiped). ArgumentNullException,
        /// InvalidArgumentException, NotFoundException, SessionLockedException. Thread: any.</summary>
        public void RemoveSecret(string name)
        {
            Arguments.NotNull(name, "name");
            byte[] n = CString(name, "name");
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
