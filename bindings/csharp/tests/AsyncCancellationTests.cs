// SPDX-License-Identifier: MIT
// The Task helpers under cancellation, with a host check that never answers: the
// task ends at once with OperationCanceledException, the library's request is
// cancelled, and an answer that comes later is cleared and unlocks nothing. The
// same when the lock is disposed while the check is out: the task ends at once
// with ObjectDisposedException.
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using LibIdleLock;
using static LibIdleLock.Tests.Harness;

namespace LibIdleLock.Tests
{
    static partial class Program
    {
        /// <summary>Waits (generously) for t to end and says how long that took after start.</summary>
        static long EndedAfter(Task t, Stopwatch start)
        {
            try { t.Wait(20000); }
            catch (AggregateException) { }
            Check(t.IsCompleted, "the task ended (status " + t.Status + " after " + start.ElapsedMilliseconds + " ms)");
            return start.ElapsedMilliseconds;
        }

        /// <summary>All BiometricRequestsMax slots can be begun: no request was left open.</summary>
        static void NoRequestLeftOpen(IdleLock l)
        {
            var open = new List<BiometricRequest>();
            for (int i = 0; i < IdleLock.BiometricRequestsMax; i++) open.Add(l.BeginBiometricUnlock());
            foreach (var r in open) r.Cancel();
        }

        static void AsyncCancellation(Harness h)
        {
            h.Test("cancel: UnlockWithBiometricsAsync(check) ends at once when the check never answers; a late answer is wiped", () =>
            {
                byte[] item;
                using (var l = EnabledByPair(Fast(new FakeClock()), out item))
                {
                    l.Lock();
                    var never = new TaskCompletionSource<byte[]>();
                    BiometricRequest seen = null;
                    var cts = new CancellationTokenSource();
                    var t = l.UnlockWithBiometricsAsync(r => { seen = r; return never.Task; }, cts.Token);
                    Thread.Sleep(100);
                    Check(!t.IsCompleted, "waiting for the check");
                    var sw = Stopwatch.StartNew();
                    cts.Cancel();
                    long ms = EndedAfter(t, sw);
                    Check(t.IsCanceled, "ended as cancelled: " + t.Status);
                    Check(Fault(t) is OperationCanceledException, "OperationCanceledException");
                    Check(ms < 5000, "ended " + ms + " ms after the cancellation");
                    Check(seen != null && seen.IsFinished, "the library's request was finished as cancelled");
                    NoRequestLeftOpen(l);
                    var late = Copy(item);
                    never.SetResult(late);
                    WaitFor(() => Zero(late), 10000, "the late answer is cleared");
                    Eq(l.Snapshot().State, LockState.Locked, "a late answer unlocks nothing");
                }
            });
            h.Test("cancel: a check whose task faults or is cancelled after the cancellation is observed quietly", () =>
            {
                byte[] item;
                using (var l = EnabledByPair(Fast(new FakeClock()), out item))
                {
                    l.Lock();
                    var failing = new TaskCompletionSource<byte[]>();
                    var cts = new CancellationTokenSource();
                    var t = l.UnlockWithBiometricsAsync(r => failing.Task, cts.Token);
                    cts.Cancel();
                    EndedAfter(t, Stopwatch.StartNew());
                    Check(t.IsCanceled, "cancelled");
                    failing.SetException(new InvalidOperationException("the plugin failed later"));
                    Eq(l.Snapshot().State, LockState.Locked, "still locked");
                    NoRequestLeftOpen(l);
                }
            });
            h.Test("cancel: EnableBiometricsAsync ends at once when the store never completes; a late store is deleted", () =>
            {
                using (var l = new IdleLock(Fast(new FakeClock())))
                {
                    l.SetPasscode(C("2468"));
                    var never = new TaskCompletionSource<bool>();
                    byte[] handed = null;
                    int deletes = 0;
                    var cts = new CancellationTokenSource();
                    var t = l.EnableBiometricsAsync((r, secret) => { handed = secret; return never.Task; },
                                                    () => { Interlocked.Increment(ref deletes); return Task.FromResult(0); }, cts.Token);
                    Thread.Sleep(100);
                    Check(!t.IsCompleted, "waiting for the store");
                    var sw = Stopwatch.StartNew();
                    cts.Cancel();
                    long ms = EndedAfter(t, sw);
                    Check(t.IsCanceled, "ended as cancelled: " + t.Status);
                    Check(ms < 5000, "ended " + ms + " ms after the cancellation");
                    Check(handed != null && Zero(handed), "the request's secret is cleared");
                    Check(!l.Snapshot().IsBiometricsEnabled, "the shortcut stays off");
                    never.SetResult(true);
                    WaitFor(() => Volatile.Read(ref deletes) == 1, 10000, "the item stored late is deleted");
                    Check(!l.Snapshot().IsBiometricsEnabled, "still off");
                    var open = new List<BiometricRequest>();
                    for (int i = 0; i < IdleLock.BiometricRequestsMax; i++) open.Add(l.BeginBiometricEnable());
                    foreach (var r in open) r.Cancel();
                }
            });
            h.Test("cancel: a token cancelled before the call ends the task at once, begins nothing", () =>
            {
                byte[] item;
                using (var l = EnabledByPair(Fast(new FakeClock()), out item))
                {
                    l.Lock();
                    var cts = new CancellationTokenSource();
                    cts.Cancel();
                    int asked = 0;
                    var t = l.UnlockWithBiometricsAsync(r => { asked++; return new TaskCompletionSource<byte[]>().Task; }, cts.Token);
                    EndedAfter(t, Stopwatch.StartNew());
                    Check(t.IsCanceled, "cancelled");
                    Eq(asked, 0, "the check was never asked");
                    var e = l.EnableBiometricsAsync((r, s) => new TaskCompletionSource<bool>().Task, null, cts.Token);
                    EndedAfter(e, Stopwatch.StartNew());
                    Check(e.IsCanceled, "the enable too");
                    NoRequestLeftOpen(l);
                }
            });
        }

        /// <summary>Disposed while its check was out: the task is already over, faulted with
        /// ObjectDisposedException.</summary>
        static void EndedByDispose(Task t, Stopwatch start)
        {
            long ms = EndedAfter(t, start);
            Check(t.IsFaulted, "faulted: " + t.Status);
            Check(Fault(t) is ObjectDisposedException, "ObjectDisposedException, not " + Fault(t));
            Check(ms < 5000, "ended " + ms + " ms after Dispose");
        }

        static void AsyncDispose(Harness h)
        {
            h.Test("dispose: UnlockWithBiometricsAsync(check) ends at once when the lock is disposed while the check never answers; a late answer is wiped", () =>
            {
                byte[] item;
                var l = EnabledByPair(Fast(new FakeClock()), out item);
                l.Lock();
                var never = new TaskCompletionSource<byte[]>();
                BiometricRequest seen = null;
                var t = l.UnlockWithBiometricsAsync(r => { seen = r; return never.Task; });
                Thread.Sleep(100);
                Check(!t.IsCompleted, "waiting for the check");
                var sw = Stopwatch.StartNew();
                l.Dispose();
                EndedByDispose(t, sw);
                Check(seen != null && seen.Task.IsFaulted && seen.Task.Exception.InnerException is ObjectDisposedException,
                      "the request ended with the lock");
                var late = Copy(item);
                never.SetResult(late);
                WaitFor(() => Zero(late), 10000, "the late answer is cleared");
            });
            h.Test("dispose: EnableBiometricsAsync ends at once when the lock is disposed while the store never completes; a late store is deleted", () =>
            {
                var l = new IdleLock(Fast(new FakeClock()));
                l.SetPasscode(C("2468"));
                var never = new TaskCompletionSource<bool>();
                byte[] handed = null;
                int deletes = 0;
                var t = l.EnableBiometricsAsync((r, secret) => { handed = secret; return never.Task; },
                                                () => { Interlocked.Increment(ref deletes); return Task.FromResult(0); });
                Thread.Sleep(100);
                Check(!t.IsCompleted, "waiting for the store");
                var sw = Stopwatch.StartNew();
                l.Dispose();
                EndedByDispose(t, sw);
                Check(handed != null && Zero(handed), "the request's secret is cleared");
                never.SetResult(true);
                WaitFor(() => Volatile.Read(ref deletes) == 1, 10000, "the item stored late is deleted");
            });
        }

        static void AsyncCancellationAuthenticator(Harness h)
        {
            h.Test("dispose: UnlockWithBiometricsAsync() ends at once when the lock is disposed while LoadSecret blocks; its late answer is wiped", () =>
            {
                var ks = new FakeKeystore();
                var l = Enabled(ks);
                l.Lock();
                ks.Answer = new ManualResetEventSlim();
                var t = l.UnlockWithBiometricsAsync();
                WaitFor(() => ks.LoadThread != 0, 10000, "the prompt is up");
                var sw = Stopwatch.StartNew();
                l.Dispose();
                EndedByDispose(t, sw);
                ks.Answer.Set(); // the person answers after the game quit
                WaitFor(() => ks.LastLoadReturned != null && Zero(ks.LastLoadReturned), 10000, "the late secret is cleared");
            });
            h.Test("cancel: UnlockWithBiometricsAsync(token) ends at once while LoadSecret blocks; its late answer is wiped", () =>
            {
                var ks = new FakeKeystore();
                using (var l = Enabled(ks))
                {
                    l.Lock();
                    ks.Answer = new ManualResetEventSlim();
                    var cts = new CancellationTokenSource();
                    var t = l.UnlockWithBiometricsAsync(cts.Token);
                    WaitFor(() => ks.LoadThread != 0, 10000, "the prompt is up");
                    var sw = Stopwatch.StartNew();
                    cts.Cancel();
                    long ms = EndedAfter(t, sw);
                    Check(t.IsCanceled, "ended as cancelled: " + t.Status);
                    Check(ms < 5000, "ended " + ms + " ms after the cancellation");
                    ks.Answer.Set(); // the person answers after all
                    WaitFor(() => ks.LastLoadReturned != null && Zero(ks.LastLoadReturned), 10000, "the late secret is cleared");
                    Thread.Sleep(100);
                    Eq(l.Snapshot().State, LockState.Locked, "a late answer unlocks nothing");
                    Check(l.Snapshot().IsBiometricsEnabled, "a cancelled check does not turn the shortcut off");
                    ks.Answer = null;
                    Eq(l.UnlockWithBiometricsAsync(new CancellationTokenSource().Token).Result.State, LockState.Unlocked, "works again");
                }
            });
        }

        /// <summary>Runs a and b at the same moment on two threads and waits for both.</summary>
        static void Together(Action a, Action b)
        {
            var start = new Barrier(2);
            Exception fa = null, fb = null;
            var ta = new Thread(() => { start.SignalAndWait(); try { a(); } catch (Exception e) { fa = e; } });
            var tb = new Thread(() => { start.SignalAndWait(); try { b(); } catch (Exception e) { fb = e; } });
            ta.Start();
            tb.Start();
            Check(ta.Join(10000) && tb.Join(10000), "both threads ended");
            if (fa != null) throw fa;
            if (fb != null) throw fb;
        }

        static void DisposeRaces(Harness h)
        {
            h.Test("dispose race: Finish(Ok) of an Enable request against Dispose, many times: a Finish that returned the shortcut's state is what the request's Task says", () =>
            {
                int mismatched = 0, won = 0;
                for (int i = 0; i < 150; i++)
                {
                    var l = new IdleLock(Fast(new FakeClock()));
                    l.SetPasscode(C("2468"));
                    var req = l.BeginBiometricEnable();
                    Snapshot finished = null;
                    Together(() =>
                    {
                        try { finished = req.Finish(AuthResult.Ok); }
                        catch (ObjectDisposedException) { }
                    }, l.Dispose);
                    WaitFor(() => req.Task.IsCompleted, 10000, "the request's Task ended");
                    if (finished != null)
                    {
                        won++;
                        if (req.Task.Status != TaskStatus.RanToCompletion) mismatched++;
                    }
                    else
                    {
                        Check(req.Task.IsFaulted && req.Task.Exception.InnerException is ObjectDisposedException,
                              "a Finish refused by Dispose: the Task faults with ObjectDisposedException");
                    }
                }
                Eq(mismatched, 0, "Finish calls that turned the shortcut on while their Task said disposed (of " + won + " that returned)");
            });
            h.Test("dispose race: the check's answer against Dispose, many times: the task always ends, the answer is always cleared", () =>
            {
                for (int i = 0; i < 100; i++)
                {
                    byte[] item;
                    var l = EnabledByPair(Fast(new FakeClock()), out item);
                    l.Lock();
                    var answer = new TaskCompletionSource<byte[]>();
                    var t = l.UnlockWithBiometricsAsync(r => answer.Task);
                    var late = Copy(item);
                    Together(() => answer.SetResult(late), l.Dispose);
                    EndedAfter(t, Stopwatch.StartNew());
                    if (t.Status == TaskStatus.RanToCompletion) Eq(t.Result.State, LockState.Unlocked, "an answer that won unlocked");
                    else Check(Fault(t) is ObjectDisposedException, "ObjectDisposedException, not " + Fault(t));
                    WaitFor(() => Zero(late), 10000, "the answer is cleared (iteration " + i + ")");
                }
            });
            h.Test("dispose race: a store's completion against Dispose, many times: a task that faulted always deleted the item, one that succeeded never did", () =>
            {
                for (int i = 0; i < 100; i++)
                {
                    var l = new IdleLock(Fast(new FakeClock()));
                    l.SetPasscode(C("2468"));
                    var stored = new TaskCompletionSource<bool>();
                    int deletes = 0;
                    byte[] handed = null;
                    var t = l.EnableBiometricsAsync((r, secret) => { handed = secret; return stored.Task; },
                                                    () => { Interlocked.Increment(ref deletes); return Task.FromResult(0); });
                    Together(() => stored.SetResult(true), l.Dispose);
                    EndedAfter(t, Stopwatch.StartNew());
                    if (t.Status == TaskStatus.RanToCompletion)
                    {
                        Thread.Sleep(20);
                        Eq(Volatile.Read(ref deletes), 0, "an enable that succeeded keeps its item");
                    }
                    else
                    {
                        Check(Fault(t) is ObjectDisposedException, "ObjectDisposedException, not " + Fault(t));
                        WaitFor(() => Volatile.Read(ref deletes) == 1, 10000, "the item of an enable that faulted is deleted (iteration " + i + ")");
                    }
                    Check(handed != null && Zero(handed), "the request's secret is cleared");
                }
            });
            h.Test("dispose: from inside the check, from LoadSecret, and together with a cancellation: the task ends, answers cleared", () =>
            {
                byte[] item;
                var l = EnabledByPair(Fast(new FakeClock()), out item);
                l.Lock();
                var answer = Copy(item);
                var t = l.UnlockWithBiometricsAsync(r => { l.Dispose(); return Task.FromResult(answer); });
                EndedByDispose(t, Stopwatch.StartNew());
                WaitFor(() => Zero(answer), 10000, "the answer given after Dispose is cleared");

                var ks = new FakeKeystore();
                var m = Enabled(ks);
                m.Lock();
                var closing = new DisposingKeystore { Item = Copy(ks.Item) };
                var o = Fast(new FakeClock());
                o.Authenticator = closing;
                var n = new IdleLock(o);
                n.SetPasscode(C("2468"));
                n.EnableBiometrics();
                n.Lock();
                closing.Owner = n;
                var u = n.UnlockWithBiometricsAsync();
                Check(Fault(u) is ObjectDisposedException, "ObjectDisposedException, not " + Fault(u));
                WaitFor(() => closing.LastLoadReturned != null && Zero(closing.LastLoadReturned), 10000, "the answer is cleared");
                m.Dispose();

                for (int i = 0; i < 30; i++)
                {
                    byte[] it;
                    var k = EnabledByPair(Fast(new FakeClock()), out it);
                    k.Lock();
                    var never = new TaskCompletionSource<byte[]>();
                    var cts = new CancellationTokenSource();
                    var v = k.UnlockWithBiometricsAsync(r => never.Task, cts.Token);
                    Together(cts.Cancel, k.Dispose);
                    EndedAfter(v, Stopwatch.StartNew());
                    Check(v.IsCanceled || (v.IsFaulted && Fault(v) is ObjectDisposedException), "cancelled or disposed: " + v.Status);
                    var late = Copy(it);
                    never.SetResult(late);
                    WaitFor(() => Zero(late), 10000, "the late answer is cleared");
                }
            });
            h.Test("dispose: helpers on lock A are untouched when lock B is disposed; A's slots all come back", () =>
            {
                byte[] itemA, itemB;
                var a = EnabledByPair(Fast(new FakeClock()), out itemA);
                var b = EnabledByPair(Fast(new FakeClock()), out itemB);
                a.Lock();
                b.Lock();
                var answersA = new List<TaskCompletionSource<byte[]>>();
                var onA = new List<Task<Snapshot>>();
                var onB = new List<Task<Snapshot>>();
                for (int i = 0; i < IdleLock.BiometricRequestsMax; i++)
                {
                    var s = new TaskCompletionSource<byte[]>();
                    answersA.Add(s);
                    onA.Add(a.UnlockWithBiometricsAsync(r => s.Task));
                    onB.Add(b.UnlockWithBiometricsAsync(r => new TaskCompletionSource<byte[]>().Task));
                }
                b.Dispose();
                foreach (var t in onB) EndedByDispose(t, Stopwatch.StartNew());
                Thread.Sleep(50);
                foreach (var t in onA) Check(!t.IsCompleted, "a helper on the live lock still waits");
                for (int i = 1; i < answersA.Count; i++) answersA[i].SetException(new AuthenticationException(AuthResult.Cancelled, "closed"));
                answersA[0].SetResult(Copy(itemA));
                Eq(onA[0].Result.State, LockState.Unlocked, "the live lock unlocks");
                foreach (var t in onA) EndedAfter(t, Stopwatch.StartNew());
                NoRequestLeftOpen(a);
                a.Dispose();
            });
            h.Test("dispose: the Task helpers leave no unobserved task exception behind", () =>
            {
                for (int i = 0; i < 3; i++)
                {
                    GC.Collect(); // the earlier tests' garbage first: only these helpers count
                    GC.WaitForPendingFinalizers();
                }
                int unobserved = 0;
                var seen = new List<string>();
                EventHandler<UnobservedTaskExceptionEventArgs> count = (o, e) =>
                {
                    Interlocked.Increment(ref unobserved);
                    lock (seen) seen.Add(e.Exception.InnerException.GetType().Name + ": " + e.Exception.InnerException.Message);
                };
                TaskScheduler.UnobservedTaskException += count;
                try
                {
                    RunAndDrop();
                    for (int i = 0; i < 3; i++)
                    {
                        GC.Collect();
                        GC.WaitForPendingFinalizers();
                    }
                    Eq(Volatile.Read(ref unobserved), 0, "unobserved task exceptions (" + string.Join("; ", seen) + ")");
                }
                finally
                {
                    TaskScheduler.UnobservedTaskException -= count;
                }
            });
        }

        /// <summary>Helpers ended by Dispose and by cancellation, each task awaited, nothing kept.</summary>
        [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.NoInlining)]
        static void RunAndDrop()
        {
            byte[] item;
            var l = EnabledByPair(Fast(new FakeClock()), out item);
            l.Lock();
            var never = new TaskCompletionSource<byte[]>();
            var t = l.UnlockWithBiometricsAsync(r => never.Task);
            var stored = new TaskCompletionSource<bool>();
            var m = new IdleLock(Fast(new FakeClock()));
            m.SetPasscode(C("2468"));
            var e = m.EnableBiometricsAsync((r, s) => stored.Task, () => Task.FromResult(0));
            var cts = new CancellationTokenSource();
            var c = l.UnlockWithBiometricsAsync(r => new TaskCompletionSource<byte[]>().Task, cts.Token);
            cts.Cancel();
            EndedAfter(c, Stopwatch.StartNew());
            l.Dispose();
            m.Dispose();
            EndedAfter(t, Stopwatch.StartNew());
            EndedAfter(e, Stopwatch.StartNew());
            never.SetException(new InvalidOperationException("the plugin failed after the Dispose"));
            stored.SetException(new InvalidOperationException("the store failed after the Dispose"));
            Thread.Sleep(100);
        }
    }

    /// <summary>A keystore whose LoadSecret disposes the lock that asked it first.</summary>
    sealed class DisposingKeystore : IAuthenticator
    {
        public volatile IdleLock Owner;
        public byte[] Item, LastLoadReturned;

        public bool IsAvailable() { return true; }
        public void StoreSecret(byte[] secret) { Item = (byte[])secret.Clone(); }
        public void DeleteSecret() { Item = null; }

        public byte[] LoadSecret(string reason)
        {
            var owner = Owner;
            if (owner != null) owner.Dispose();
            var o = (byte[])Item.Clone();
            LastLoadReturned = o;
            return o;
        }
    }
}
