// What the library calls back into: static methods (IL2CPP can only hand C a
// static method marked [MonoPInvokeCallback]) whose delegates live in static
// fields for the life of the process, reaching the right IdleLock through a
// GCHandle passed as ctx. The GCHandles are Weak: the IdleLock holds its
// listeners, clock and authenticator strongly, so a listener that captures
// its lock does not pin it from native memory, and a forgotten lock is still
// finalized. No exception ever unwinds into C.
using System;
using System.Collections.Generic;
using System.Runtime.InteropServices;
using System.Threading;

namespace LibIdleLock
{
    internal sealed class ListenerRecord
    {
        internal readonly Action<Snapshot> Listener;
        internal readonly SynchronizationContext Context;
        internal volatile bool Active = true;
        internal ulong Token;
        internal IntPtr Self; // a Weak GCHandle to this record: the ctx the library passes back

        internal ListenerRecord(Action<Snapshot> listener, SynchronizationContext context)
        {
            Listener = listener;
            Context = context;
            Self = GCHandle.ToIntPtr(GCHandle.Alloc(this, GCHandleType.Weak));
        }
    }

    /// <summary>One lock's callbacks; owned (strongly) by its IdleLockHandle.</summary>
    internal sealed class CallbackSet
    {
        internal readonly Func<long> Clock;
        internal readonly IAuthenticator Authenticator;
        internal readonly List<ListenerRecord> Listeners = new List<ListenerRecord>();
        internal IntPtr Self; // a Weak GCHandle to this set: the clock's and authenticator's ctx

        internal CallbackSet(Func<long> clock, IAuthenticator authenticator)
        {
            Clock = clock;
            Authenticator = authenticator;
            Self = GCHandle.ToIntPtr(GCHandle.Alloc(this, GCHandleType.Weak));
        }

        /// <summary>Frees a record's GCHandle once; call with the set locked.</summary>
        internal static void Free(ListenerRecord r)
        {
            r.Active = false;
            if (r.Self != IntPtr.Zero)
            {
                GCHandle.FromIntPtr(r.Self).Free();
                r.Self = IntPtr.Zero;
            }
        }

        /// <summary>After idlelock_destroy (no callback can run any more), or after a failed create.</summary>
        internal void FreeAll()
        {
            lock (this)
            {
                foreach (var r in Listeners) Free(r);
                Listeners.Clear();
                if (Self != IntPtr.Zero)
                {
                    GCHandle.FromIntPtr(Self).Free();
                    Self = IntPtr.Zero;
                }
            }
        }
    }

    internal static class Callbacks
    {
        // Per thread: binding calls in progress, whether the clock is running,
        // exceptions to throw from the current call.
        [ThreadStatic] internal static int Depth;
        [ThreadStatic] internal static bool InClock;
        [ThreadStatic] static List<Exception> errors;
        static int pending; // recorded on any thread, not yet taken: lets the hot path skip the list

        static readonly ListenerFn listenerFn = OnListener;
        static readonly ClockFn clockFn = OnClock;
        static readonly IsAvailableFn isAvailableFn = OnIsAvailable;
        static readonly StoreSecretFn storeSecretFn = OnStoreSecret;
        static readonly LoadSecretFn loadSecretFn = OnLoadSecret;
        static readonly DeleteSecretFn deleteSecretFn = OnDeleteSecret;
        internal static readonly IntPtr ListenerPtr = Marshal.GetFunctionPointerForDelegate(listenerFn);
        internal static readonly IntPtr ClockPtr = Marshal.GetFunctionPointerForDelegate(clockFn);
        internal static readonly IntPtr IsAvailablePtr = Marshal.GetFunctionPointerForDelegate(isAvailableFn);
        internal static readonly IntPtr StoreSecretPtr = Marshal.GetFunctionPointerForDelegate(storeSecretFn);
        internal static readonly IntPtr LoadSecretPtr = Marshal.GetFunctionPointerForDelegate(loadSecretFn);
        internal static readonly IntPtr DeleteSecretPtr = Marshal.GetFunctionPointerForDelegate(deleteSecretFn);

        internal static bool AnyPending { get { return Volatile.Read(ref pending) != 0; } }

        internal static List<Exception> TakePending()
        {
            var list = errors;
            if (list == null) return null;
            errors = null;
            Interlocked.Add(ref pending, -list.Count);
            return list;
        }

        static void Record(Exception e)
        {
            if (Depth == 0)
            {
                // No binding call on this thread to throw it from: the watcher thread.
                IdleLock.ReportUnobserved(e);
                return;
            }
            if (errors == null) errors = new List<Exception>(2);
            errors.Add(e);
            Interlocked.Increment(ref pending);
        }

        static T Target<T>(IntPtr ctx) where T : class
        {
            return ctx == IntPtr.Zero ? null : GCHandle.FromIntPtr(ctx).Target as T;
        }

        [MonoPInvokeCallback(typeof(ListenerFn))]
        static void OnListener(IntPtr ctx, IntPtr snapshot)
        {
            try
            {
                var r = Target<ListenerRecord>(ctx);
                if (r == null || !r.Active || snapshot == IntPtr.Zero) return;
                var native = (SnapshotNative)Marshal.PtrToStructure(snapshot, typeof(SnapshotNative));
                var s = new Snapshot(ref native);
                if (r.Context != null)
                {
                    r.Context.Post(_ => { if (r.Active) r.Listener(s); }, null);
                }
                else
                {
                    r.Listener(s);
                }
            }
            catch (Exception e)
            {
                Record(e);
            }
        }

        [MonoPInvokeCallback(typeof(ClockFn))]
        static long OnClock(IntPtr ctx)
        {
            InClock = true;
            try
            {
                var set = Target<CallbackSet>(ctx);
                return set == null ? long.MinValue : set.Clock();
            }
            catch (Exception e)
            {
                Record(e);
                // The earliest reading: an engaged unlocked session locks
                // (LockReason.Clock) instead of being extended.
                return long.MinValue;
            }
            finally
            {
                InClock = false;
            }
        }

        [MonoPInvokeCallback(typeof(IsAvailableFn))]
        static int OnIsAvailable(IntPtr ctx)
        {
            try
            {
                var set = Target<CallbackSet>(ctx);
                return set != null && set.Authenticator.IsAvailable() ? 1 : 0;
            }
            catch (Exception e)
            {
                Record(e);
                return 0;
            }
        }

        [MonoPInvokeCallback(typeof(StoreSecretFn))]
        static int OnStoreSecret(IntPtr ctx, IntPtr secret, UIntPtr len)
        {
            byte[] copy = null;
            try
            {
                var set = Target<CallbackSet>(ctx);
                if (set == null || secret == IntPtr.Zero || len.ToUInt64() > 4096) return 1;
                copy = new byte[(int)len.ToUInt64()];
                Marshal.Copy(secret, copy, 0, copy.Length);
                set.Authenticator.StoreSecret(copy);
                return 0;
            }
            catch (AuthenticationException)
            {
                return 1;
            }
            catch (Exception e)
            {
                Record(e);
                return 1;
            }
            finally
            {
                if (copy != null) Array.Clear(copy, 0, copy.Length);
            }
        }

        [MonoPInvokeCallback(typeof(LoadSecretFn))]
        static int OnLoadSecret(IntPtr ctx, IntPtr reason, IntPtr output, UIntPtr cap, IntPtr outLen)
        {
            byte[] secret = null;
            try
            {
                var set = Target<CallbackSet>(ctx);
                if (set == null || output == IntPtr.Zero || outLen == IntPtr.Zero) return (int)AuthResult.Failed;
                secret = set.Authenticator.LoadSecret(reason == IntPtr.Zero ? null : Native.Utf8At(reason));
                ulong want = cap.ToUInt64();
                if (secret == null || (ulong)secret.Length != want)
                {
                    Record(new InvalidOperationException("IAuthenticator.LoadSecret returned " +
                        (secret == null ? "null" : secret.Length + " bytes") + "; " + want +
                        " bytes were expected (treated as a failed check)"));
                    return (int)AuthResult.Failed;
                }
                Marshal.Copy(secret, 0, output, secret.Length);
                Marshal.WriteIntPtr(outLen, new IntPtr(secret.Length));
                return (int)AuthResult.Ok;
            }
            catch (AuthenticationException e)
            {
                return (int)e.Result;
            }
            catch (Exception e)
            {
                Record(e);
                return (int)AuthResult.Failed;
            }
            finally
            {
                if (secret != null) Array.Clear(secret, 0, secret.Length);
            }
        }

        [MonoPInvokeCallback(typeof(DeleteSecretFn))]
        static int OnDeleteSecret(IntPtr ctx)
        {
            try
            {
                var set = Target<CallbackSet>(ctx);
                if (set == null) return 1;
                set.Authenticator.DeleteSecret();
                return 0;
            }
            catch (AuthenticationException)
            {
                return 1;
            }
            catch (Exception e)
            {
                Record(e);
                return 1;
            }
        }
    }

    /// <summary>The native handle: freed exactly once, by Dispose when no call is in
    /// flight, else by the last call to return (SafeHandle's reference count), or by its
    /// critical finalizer for a lock that was never disposed.</summary>
    internal sealed class IdleLockHandle : SafeHandle
    {
        internal static int Live; // handles not yet destroyed (read by the tests)
        internal CallbackSet Callbacks;

        IdleLockHandle() : base(IntPtr.Zero, true) { }

        public override bool IsInvalid { get { return handle == IntPtr.Zero; } }

        internal void Created(CallbackSet callbacks)
        {
            Callbacks = callbacks;
            Interlocked.Increment(ref Live);
        }

        protected override bool ReleaseHandle()
        {
            // Stops the watcher and waits for it; no callback runs afterwards.
            Native.idlelock_destroy(handle);
            var set = Callbacks;
            if (set != null) set.FreeAll();
            Interlocked.Decrement(ref Live);
            return true;
        }
    }
}
