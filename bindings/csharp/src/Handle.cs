// SPDX-License-Identifier: MIT
// The native handle's lifetime: destroyed exactly once, never while a call on
// it is in flight on any thread, never blocking Dispose.
//
// Each call publishes the handle it is about to use in its thread's slot (a
// hazard pointer: one interlocked exchange, which is also the full fence the
// protocol needs), then reads the handle's retired flag; Dispose sets the
// flag (interlocked), then scans every thread's slot. Of two such threads at
// least one sees the other: either the call sees the flag and backs out with
// ObjectDisposedException, or Dispose sees the call and leaves the destroy to
// the call's way out, or, when that thread's exit raced past the flag, to a
// timer that looks again (1 ms, doubling to 100 ms) until no slot holds the
// handle. A call costs one interlocked operation; the reference count of a
// SafeHandle marshalled into the P/Invoke costs two and more (BENCHMARKS.md,
// "Bindings"). The SafeHandle stays, unmarshalled, for its critical
// finalizer: a lock never disposed is destroyed when it is collected (no call
// can be in flight then: each holds the lock).
using System;
using System.Collections.Generic;
using System.Runtime.InteropServices;
using System.Threading;

namespace LibIdleLock
{
    /// <summary>One thread's binding calls in progress (nested calls from listeners count
    /// too) and the handles they hold: Held entries of Hazards, one per call (null for the
    /// constructor's, which has no handle yet), plus one per listener the watcher runs
    /// (ListenerHolds of them: those are no binding call).</summary>
    internal sealed class ThreadSlot
    {
        // Read directly by the hot call (IdleLock.Touch): Mono does not inline a getter
        // that reads a thread-static field.
        [ThreadStatic] internal static ThreadSlot current;
        static readonly List<WeakReference> all = new List<WeakReference>();

        /// <summary>The handles held on this thread, innermost last (zero past Held, and for
        /// the constructor's call). Read by other threads (Dispose); written by this thread
        /// only.</summary>
        internal Hazard[] Hazards = new Hazard[8];
        internal int Held;
        internal int ListenerHolds;

        internal static ThreadSlot Current { get { return current ?? Register(); } }

        /// <summary>This thread's slot, or null when it never made a call (no allocation).</summary>
        internal static ThreadSlot Peek() { return current; }

        /// <summary>Binding calls in progress on this thread (0 in a listener the watcher runs:
        /// the library called it from no call of ours).</summary>
        internal static int CurrentDepth { get { var s = current; return s == null ? 0 : s.Held - s.ListenerHolds; } }

        /// <summary>A binding call that holds no handle (the constructor's create); returns
        /// the index to pass to Release.</summary>
        internal int EnterUnheld()
        {
            int d = Held;
            if (d == Hazards.Length) Grow();
            Held = d + 1;
            return d;
        }

        internal void Release(int d) { Held = d; }

        internal static ThreadSlot Register()
        {
            var slot = new ThreadSlot();
            lock (all)
            {
                all.RemoveAll(w => !w.IsAlive); // slots of threads that ended
                all.Add(new WeakReference(slot));
            }
            current = slot;
            return slot;
        }

        /// <summary>Makes room for one more nested call; the new array is published before
        /// the caller writes into it.</summary>
        internal Hazard[] Grow()
        {
            var bigger = new Hazard[Hazards.Length * 2];
            Array.Copy(Hazards, bigger, Hazards.Length);
            Volatile.Write(ref Hazards, bigger);
            return bigger;
        }

        /// <summary>True when a call on some thread holds h. A stale read only says "held"
        /// too long: the destroy then waits for the next look.</summary>
        internal static bool Holds(IdleLockHandle h)
        {
            WeakReference[] slots;
            lock (all) slots = all.ToArray();
            foreach (var w in slots)
            {
                var slot = w.Target as ThreadSlot;
                if (slot == null) continue;
                var hazards = Volatile.Read(ref slot.Hazards);
                for (int i = 0; i < hazards.Length; i++)
                    if (Volatile.Read(ref hazards[i].Raw) == h.Raw) return true;
            }
            return false;
        }
    }

    /// <summary>One entry of a thread's hazards: the native pointer of the handle held, or
    /// zero. A pointer, not a reference: writing it needs no GC write barrier. It names one
    /// handle: the library can reuse the address only after that handle was destroyed, and
    /// a handle is looked for only before its destroy.</summary>
    internal struct Hazard
    {
        internal IntPtr Raw;
    }

    /// <summary>The native handle (idlelock *) and its lifetime (see the file's comment).</summary>
    internal sealed class IdleLockHandle : SafeHandle
    {
        internal static int Live; // handles not yet destroyed (read by the tests)
        internal CallbackSet Callbacks;
        internal IntPtr Raw; // the idlelock *, valid between Enter and Exit
        int retired;         // 1 once Dispose (or the finalizer) refused new calls
        int destroying;      // 1 once one thread won the right to destroy
        Timer retry;
        int retryMs;

        internal IdleLockHandle() : base(IntPtr.Zero, true) { }

        public override bool IsInvalid { get { return handle == IntPtr.Zero; } }

        internal void Created(IntPtr raw, CallbackSet callbacks)
        {
            Callbacks = callbacks;
            Raw = raw;
            SetHandle(raw);
            Interlocked.Increment(ref Live);
        }

        internal bool IsRetired { get { return Volatile.Read(ref retired) != 0; } }

        /// <summary>Holds the handle on this thread for a call: returns the index to pass to
        /// Exit, or -1 when the handle is retired (the caller throws
        /// ObjectDisposedException).</summary>
        internal int Enter(ThreadSlot slot)
        {
            int d = slot.Held;
            var hazards = slot.Hazards;
            if (d == hazards.Length) hazards = slot.Grow();
            Interlocked.Exchange(ref hazards[d].Raw, Raw);
            if (Volatile.Read(ref retired) != 0)
            {
                Volatile.Write(ref hazards[d].Raw, IntPtr.Zero);
                return -1;
            }
            slot.Held = d + 1;
            return d;
        }

        /// <summary>Releases what Enter held at index d.</summary>
        internal void Exit(ThreadSlot slot, int d)
        {
            slot.Held = d;
            Volatile.Write(ref slot.Hazards[d].Raw, IntPtr.Zero);
            if (Volatile.Read(ref retired) != 0) TryDestroy();
        }

        /// <summary>Refuses new calls; destroys now when no call holds the handle, else on
        /// the way out of the last one (or at the timer's next look). Never blocks.
        /// Idempotent.</summary>
        internal void Retire()
        {
            if (Interlocked.Exchange(ref retired, 1) != 0) return;
            if (!TryDestroy()) Retry(null);
        }

        /// <summary>Destroys when no call holds the handle; false when one does.</summary>
        internal bool TryDestroy()
        {
            if (Volatile.Read(ref destroying) != 0) return true;
            if (ThreadSlot.Holds(this)) return false;
            if (Interlocked.CompareExchange(ref destroying, 1, 0) == 0)
            {
                // Under Retry's lock: a Retry that saw destroying still 0 has
                // finished arming the timer before it is taken and disposed
                // (a Change on a disposed timer threw ObjectDisposedException
                // on a pool thread, which ends the process).
                Timer t;
                lock (this)
                {
                    t = retry;
                    retry = null;
                }
                if (t != null) t.Dispose();
                Dispose(); // ReleaseHandle, once
            }
            return true;
        }

        void Retry(object unused)
        {
            if (TryDestroy()) return;
            lock (this)
            {
                if (Volatile.Read(ref destroying) != 0) return;
                retryMs = retryMs == 0 ? 1 : Math.Min(retryMs * 2, 100);
                if (retry == null) retry = new Timer(Retry, null, retryMs, Timeout.Infinite);
                else retry.Change(retryMs, Timeout.Infinite);
            }
        }

        protected override bool ReleaseHandle()
        {
            // From the finalizer too (a lock never disposed): no call may start after it
            // (a BiometricRequest's finalizer that runs later on the same thread).
            Interlocked.Exchange(ref retired, 1);
            // Stops the watcher and waits for it; once it returns the library calls
            // nothing of this handle, and the callbacks' numbers go.
            Native.idlelock_destroy(handle);
            var set = Callbacks;
            if (set != null) set.FreeAll();
            Interlocked.Decrement(ref Live);
            return true;
        }
    }
}
