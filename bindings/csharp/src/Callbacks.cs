// SPDX-License-Identifier: MIT
// What the library calls back into: static methods (IL2CPP can only hand C a
// static method marked [MonoPInvokeCallback]) whose delegates live in static
// fields for the life of the process, reaching the right IdleLock through the
// ctx pointer the library passes back.
//
// That ctx is not a GCHandle but a number looked up in CallbackTable: a number
// the library passes after its owner is gone (a stale ctx) finds nothing and
// the callback returns at once, so nothing the library does with a ctx, late
// or early, can make the runtime dereference a freed handle. The table holds
// its entries weakly: the IdleLock holds its listeners, clock and
// authenticator strongly, so a listener that captures its lock does not pin it
// from native memory, and a forgotten lock is still finalized. An entry is
// removed once the library can no longer call it (after idlelock_unsubscribe
// or idlelock_destroy returned). No exception ever unwinds into C.
using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Runtime.InteropServices;
using System.Threading;

namespace LibIdleLock
{
    /// <summary>The numbers handed to the library as callback contexts, and what
    /// each stands for (weakly). Numbers are never reused while the process runs
    /// (on a 32-bit process, not before 2^31 registrations).</summary>
    internal static class CallbackTable
    {
        static readonly ConcurrentDictionary<long, WeakReference> live = new ConcurrentDictionary<long, WeakReference>();
        static long next;

        internal static IntPtr Add(object target)
        {
            while (true)
            {
                long id = Interlocked.Increment(ref next);
                if (IntPtr.Size == 4) id &= 0x7fffffff;
                if (id != 0 && live.TryAdd(id, new WeakReference(target))) return new IntPtr(id);
            }
        }

        /// <summary>What ctx stands for, or null: never registered, removed, or collected.</summary>
        internal static T Get<T>(IntPtr ctx) where T : class
        {
            WeakReference w;
            return live.TryGetValue(ctx.ToInt64(), out w) ? w.Target as T : null;
        }

        internal static void Remove(IntPtr ctx)
        {
            WeakReference unused;
            if (ctx != IntPtr.Zero) live.TryRemove(ctx.ToInt64(), out unused);
        }

        /// <summary>Entries not yet removed (read by the tests).</summary>
        internal static int Count { get { return live.Count; } }
    }

    internal sealed class ListenerRecord
    {
        internal readonly Action<Snapshot> Listener;
        internal readonly SynchronizationContext Context;
        internal readonly IdleLockHandle Handle;
        internal volatile bool Active = true;
        internal ulong Token;
        internal IntPtr Self; // this record's number in CallbackTable: the ctx the library passes back

        internal ListenerRecord(Action<Snapshot> listener, SynchronizationContext context, IdleLockHandle handle)
        {
            Listener = listener;
            Context = context;
            Handle = handle;
            Self = CallbackTable.Add(this);
        }
    }

    /// <summary>One lock's callbacks; owned (strongly) by its IdleLockHandle.</summary>
    internal sealed class CallbackSet
    {
        internal readonly Func<long> Clock;
        internal readonly IAuthenticator Authenticator;
        internal readonly List<ListenerRecord> Listeners = new List<ListenerRecord>();
        internal IntPtr Self; // this set's number: the clock's and the authenticator's ctx
        internal volatile bool Disposed; // the lock's Dispose was called: a late LoadSecret answer is cancelled

        internal CallbackSet(Func<long> clock, IAuthenticator authenticator)
        {
            Clock = clock;
            Authenticator = authenticator;
            Self = CallbackTable.Add(this);
        }

        /// <summary>Retires a record: it runs no more, and its number goes once the
        /// library can no longer call it. Call with the set locked.</summary>
        internal static void Free(ListenerRecord r)
        {
            r.Active = false;
            CallbackTable.Remove(r.Self);
        }

        /// <summary>Dispose: no listener of this lock starts from now on.</summary>
        internal void Deactivate()
        {
            Disposed = true;
            lock (this)
            {
                foreach (var r in Listeners) r.Active = false;
            }
        }

        /// <summary>After idlelock_destroy (no callback can run any more), or after a failed create.</summary>
        internal void FreeAll()
        {
            lock (this)
            {
                foreach (var r in Listeners) Free(r);
                Listeners.Clear();
                CallbackTable.Remove(Self);
            }
        }
    }

    internal static class Callbacks
    {
        // Per thread (the binding calls in progress: ThreadSlot.CurrentDepth): whether
        // the clock is running, exceptions to throw from the current call, whether
        // this thread was made a background thread, the cancellation of an async
        // unlock.
        [ThreadStatic] internal static bool InClock;
        [ThreadStatic] static List<Exception> errors;
        [ThreadStatic] static bool background;
        [ThreadStatic] internal static CancellationToken LoadCancellation;
        [ThreadStatic] internal static AnswerClaim LoadClaim;
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

        /// <summary>What a callback's catch does with what it caught. A thread abort
        /// (Thread.Abort; Mono aborts threads when the program exits and when an AppDomain
        /// unloads, as Unity's editor does on every script reload) is re-raised by the
        /// runtime at the end of a catch block, and would unwind through the library's
        /// frames, skipping their cleanup: the clock runs with the library's internal lock
        /// held, which then stays taken, and every later call on the lock, and the exit,
        /// waits forever. So the abort is reset here, the library's call finishes, and the
        /// binding call the callback ran in raises it again once the library returned
        /// (IdleLock.Thrown). On the watcher thread (no call of ours to raise it from) it
        /// ends with the callback: the thread goes back into the library.</summary>
        static void Caught(Exception e)
        {
            if (e is ThreadAbortException)
            {
                try
                {
                    Thread.ResetAbort();
                }
                catch (Exception)
                {
                    // no abort to reset after all (a runtime that refuses): it unwinds as before
                }
                if (ThreadSlot.CurrentDepth == 0) return;
                e = new DeferredAbort();
            }
            Record(e);
        }

        /// <summary>Stands for a thread abort that landed in a callback: IdleLock.Thrown
        /// aborts the thread again, after the library's call returned.</summary>
        internal sealed class DeferredAbort : Exception
        {
            internal DeferredAbort() : base("a thread abort deferred until the library's call returned") { }
        }

        static void Record(Exception e)
        {
            if (ThreadSlot.CurrentDepth == 0)
            {
                // No binding call on this thread to throw it from: the watcher thread.
                IdleLock.ReportUnobserved(e);
                return;
            }
            if (errors == null) errors = new List<Exception>(2);
            errors.Add(e);
            Interlocked.Increment(ref pending);
        }

        /// <summary>
        /// Called first by every callback. With no binding call in progress on this
        /// thread, the library called from a thread of its own (the watcher), which
        /// the runtime attached when it entered managed code. Mono attaches such a
        /// thread as a foreground thread, and a runtime does not exit while a
        /// foreground thread lives: a program (a Unity or Godot game that quits)
        /// whose lock was never disposed would never exit. So the binding makes it a
        /// background thread, once per thread, before any host code runs on it, as
        /// .NET already does for threads it did not create. A host's own threads
        /// (Depth &gt; 0) are left as they are.
        /// </summary>
        static void EnteredFromNative()
        {
            if (background || ThreadSlot.CurrentDepth != 0) return;
            background = true;
            try
            {
                Thread.CurrentThread.IsBackground = true;
            }
            catch (Exception)
            {
                // a runtime that refuses (a thread already stopping): nothing more to do
            }
        }

        [MonoPInvokeCallback(typeof(ListenerFn))]
        static void OnListener(IntPtr ctx, IntPtr snapshot)
        {
            try
            {
                EnteredFromNative();
                var r = CallbackTable.Get<ListenerRecord>(ctx);
                if (r == null || !r.Active || snapshot == IntPtr.Zero) return;
                // The handle stays alive while its listener runs: a Dispose from this
                // listener, or from another thread meanwhile, destroys it after the
                // listener returned (on the watcher thread, when this Exit is the last,
                // from inside the watcher's delivery, which the header allows).
                var slot = ThreadSlot.Current;
                int d = r.Handle.Enter(slot);
                if (d < 0) return;
                slot.ListenerHolds++;
                try
                {
                    if (!r.Active) return;
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
                finally
                {
                    slot.ListenerHolds--;
                    r.Handle.Exit(slot, d);
                }
            }
            catch (Exception e)
            {
                Caught(e);
            }
        }

        [MonoPInvokeCallback(typeof(ClockFn))]
        static long OnClock(IntPtr ctx)
        {
            InClock = true;
            try
            {
                EnteredFromNative();
                var set = CallbackTable.Get<CallbackSet>(ctx);
                return set == null ? long.MinValue : set.Clock();
            }
            catch (Exception e)
            {
                Caught(e);
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
                EnteredFromNative();
                var set = CallbackTable.Get<CallbackSet>(ctx);
                return set != null && set.Authenticator.IsAvailable() ? 1 : 0;
            }
            catch (Exception e)
            {
                Caught(e);
                return 0;
            }
        }

        [MonoPInvokeCallback(typeof(StoreSecretFn))]
        static int OnStoreSecret(IntPtr ctx, IntPtr secret, UIntPtr len)
        {
            byte[] copy = null;
            try
            {
                EnteredFromNative();
                var set = CallbackTable.Get<CallbackSet>(ctx);
                if (set == null || secret == IntPtr.Zero || len.ToUInt64() != (ulong)IdleLock.AuthSecretBytes) return 1;
                copy = new byte[IdleLock.AuthSecretBytes];
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
                Caught(e);
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
                EnteredFromNative();
                var set = CallbackTable.Get<CallbackSet>(ctx);
                if (set == null || output == IntPtr.Zero || outLen == IntPtr.Zero) return (int)AuthResult.Failed;
                // UnlockWithBiometricsAsync(cancellationToken): a cancelled unlock shows no
                // prompt, and an answer that comes after the cancellation, or after the
                // lock's Dispose, is wiped unused.
                if (LoadCancellation.IsCancellationRequested || set.Disposed) return (int)AuthResult.Cancelled;
                secret = set.Authenticator.LoadSecret(reason == IntPtr.Zero ? null : Native.Utf8At(reason));
                if (LoadCancellation.IsCancellationRequested || set.Disposed) return (int)AuthResult.Cancelled;
                ulong want = cap.ToUInt64();
                if (secret == null || (ulong)secret.Length != want)
                {
                    Record(new InvalidOperationException("IAuthenticator.LoadSecret returned " +
                        (secret == null ? "null" : secret.Length + " bytes") + "; " + want +
                        " bytes were expected (treated as a failed check)"));
                    return (int)AuthResult.Failed;
                }
                // The one decision point: this answer or the task's cancellation, whichever
                // claims the call first, owns the outcome.
                var claim = LoadClaim;
                if (claim != null && !claim.TryAnswer()) return (int)AuthResult.Cancelled;
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
                Caught(e);
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
                EnteredFromNative();
                var set = CallbackTable.Get<CallbackSet>(ctx);
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
                Caught(e);
                return 1;
            }
        }
    }

    /// <summary>
    /// The watchers to stop when the runtime shuts down. Mono ends a program (Main
    /// returned, a game quit) by waiting for every thread it knows, background ones too
    /// once it has asked them to abort, and a watcher thread the runtime attached (it ran
    /// a listener) sleeps in native code, where no abort reaches it: the program would
    /// never exit. So at ProcessExit (and at the unload of the AppDomain, as Unity's editor
    /// does on every script reload, after which a listener's code is gone) the binding
    /// stops every watcher still running; the thread ends, and the runtime goes on. The
    /// lock itself stays usable (another ProcessExit handler may still lock it); only its
    /// watcher is gone. Held weakly: a lock forgotten with its watcher running is still
    /// finalized.
    /// </summary>
    internal static class Watchers
    {
        static readonly List<WeakReference> running = new List<WeakReference>();
        static bool hooked;

        internal static void Started(IdleLockHandle h)
        {
            lock (running)
            {
                running.RemoveAll(w => !w.IsAlive);
                // WatchStart is idempotent: a handle is listed once, however often it starts.
                if (!running.Exists(w => ReferenceEquals(w.Target, h))) running.Add(new WeakReference(h));
                if (hooked) return;
                hooked = true;
            }
            AppDomain.CurrentDomain.ProcessExit += (sender, e) => StopAll();
            AppDomain.CurrentDomain.DomainUnload += (sender, e) => StopAll();
        }

        internal static void StopAll()
        {
            List<WeakReference> list;
            lock (running)
            {
                list = new List<WeakReference>(running);
                running.Clear();
            }
            foreach (var w in list)
            {
                var h = w.Target as IdleLockHandle;
                if (h == null) continue;
                var slot = ThreadSlot.Current;
                int d = h.Enter(slot);
                if (d < 0) continue;
                try
                {
                    Native.idlelock_watch_stop(h.Raw);
                }
                catch (Exception)
                {
                    // shutting down: nothing to tell
                }
                finally
                {
                    h.Exit(slot, d);
                }
            }
        }
    }
}
