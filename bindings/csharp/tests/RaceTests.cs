// SPDX-License-Identifier: MIT
// Issue 26 (findings 6 and 9) on Mono: a cancellation racing the host's answer
// (the caller's view must match the lock: a task that ends cancelled unlocked
// nothing, and an answer that reached the library first makes the task end with
// its outcome), Dispose racing a pending task and the answer, and finalizers of
// dropped requests racing calls on other threads. The stress loops are bounded
// (200 rounds of microseconds each); the cancel that lands inside the library's
// answer is also made deterministically, from a listener.
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Reflection;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Tasks;
using LibIdleLock;
using static LibIdleLock.Tests.Harness;

namespace LibIdleLock.Tests
{
    static partial class Program
    {
        const int RaceRounds = 200;

        /// <summary>True while a binding call on some thread holds l's handle (the hazard
        /// pointers of Handle.cs, by reflection): a worker's call has not returned yet.</summary>
        static bool InCall(IdleLock l)
        {
            var handle = typeof(IdleLock).GetField("handle", BindingFlags.NonPublic | BindingFlags.Instance).GetValue(l);
            var slot = typeof(IdleLock).Assembly.GetType("LibIdleLock.ThreadSlot");
            return (bool)slot.GetMethod("Holds", BindingFlags.NonPublic | BindingFlags.Static).Invoke(null, new[] { handle });
        }

        /// <summary>WaitFor without its 5 ms naps: the race loops wait for microseconds each round.</summary>
        static void SpinFor(Func<bool> condition, int ms, string what)
        {
            if (!SpinWait.SpinUntil(condition, ms)) throw new Exception("timed out: " + what);
        }

        /// <summary>a, after a spin that sweeps 0 to 60 µs over the rounds: the cancel lands
        /// at every point of the answer's way into the library.</summary>
        static Action After(int round, Action a)
        {
            return () =>
            {
                var sw = Stopwatch.StartNew();
                long ticks = Stopwatch.Frequency * (round % 61) / 1000000;
                while (sw.ElapsedTicks < ticks) Thread.SpinWait(10);
                a();
            };
        }

        /// <summary>A keystore whose LoadSecret answers when the test says so and counts its returns.</summary>
        sealed class GatedKeystore : IAuthenticator
        {
            public byte[] Item;
            public volatile ManualResetEventSlim Gate;
            public int Entered, Returned;
            public volatile byte[] LastReturned;

            public bool IsAvailable() { return true; }
            public void StoreSecret(byte[] secret) { Item = (byte[])secret.Clone(); }
            public void DeleteSecret() { Item = null; }

            public byte[] LoadSecret(string reason)
            {
                Interlocked.Increment(ref Entered);
                var gate = Gate;
                if (gate != null && !gate.Wait(10000)) throw new AuthenticationException(AuthResult.Cancelled, "timed out");
                var o = (byte[])Item.Clone();
                LastReturned = o;
                Interlocked.Increment(ref Returned);
                return o;
            }
        }

        /// <summary>What the rounds of an unlock race saw: a task that ended cancelled must have
        /// unlocked nothing; one that did not ended with the lock's unlock.</summary>
        sealed class RaceTally
        {
            int cancelled, answered, lies;

            public void Round(int i, Task<Snapshot> t, LockState state)
            {
                if (t.IsCanceled)
                {
                    cancelled++;
                    if (state == LockState.Unlocked) lies++;
                    return;
                }
                answered++;
                Eq(t.Status, TaskStatus.RanToCompletion, "a task that did not end cancelled has the answer's outcome (round " + i + ")");
                Eq(state, LockState.Unlocked, "round " + i + ": the task's unlock is the lock's");
            }

            public void Verdict()
            {
                Eq(lies, 0, "cancelled tasks whose answer unlocked anyway (of " + cancelled + " cancelled, " + answered + " answered)");
            }
        }

        static void Races(Harness h)
        {
            h.Test("cancel race: UnlockWithBiometricsAsync(token) cancelled from inside the library's answer (a listener) ends with the unlock, not cancelled", () =>
            {
                var ks = new GatedKeystore();
                using (var l = Enabled(ks))
                {
                    l.Lock();
                    var cts = new CancellationTokenSource();
                    l.Subscribe(s => { if (s.State == LockState.Unlocked) cts.Cancel(); });
                    var t = l.UnlockWithBiometricsAsync(cts.Token);
                    EndedAfter(t, Stopwatch.StartNew());
                    Eq(t.Status, TaskStatus.RanToCompletion, "the task ends with the answer that reached the library");
                    Eq(t.Result.State, LockState.Unlocked, "its snapshot");
                    Check(ks.LastReturned != null && Zero(ks.LastReturned), "the secret is cleared");
                }
            });
            h.Test("cancel race: UnlockWithBiometricsAsync(token), LoadSecret answering at the moment of the cancel, " + RaceRounds + " rounds: a cancelled task unlocked nothing", () =>
            {
                var ks = new GatedKeystore();
                var tally = new RaceTally();
                using (var l = Enabled(ks))
                {
                    for (int i = 0; i < RaceRounds; i++)
                    {
                        l.Lock();
                        var gate = new ManualResetEventSlim();
                        ks.Gate = gate;
                        int entered = Volatile.Read(ref ks.Entered), returned = Volatile.Read(ref ks.Returned);
                        var cts = new CancellationTokenSource();
                        var t = l.UnlockWithBiometricsAsync(cts.Token);
                        SpinFor(() => Volatile.Read(ref ks.Entered) > entered, 10000, "the prompt is up");
                        Together(gate.Set, After(i, cts.Cancel));
                        EndedAfter(t, Stopwatch.StartNew());
                        SpinFor(() => Volatile.Read(ref ks.Returned) > returned && !InCall(l), 10000, "the worker's call returned");
                        tally.Round(i, t, l.Snapshot().State);
                        Check(Zero(ks.LastReturned), "the answer is cleared (round " + i + ")");
                    }
                }
                tally.Verdict();
            });
            h.Test("cancel race: UnlockWithBiometricsAsync(check, token), the check's answer at the moment of the cancel, " + RaceRounds + " rounds: a cancelled task unlocked nothing", () =>
            {
                byte[] item;
                var tally = new RaceTally();
                using (var l = EnabledByPair(Fast(new FakeClock()), out item))
                {
                    for (int i = 0; i < RaceRounds; i++)
                    {
                        l.Lock();
                        var answer = new TaskCompletionSource<byte[]>();
                        var cts = new CancellationTokenSource();
                        var t = l.UnlockWithBiometricsAsync(r => answer.Task, cts.Token);
                        var late = Copy(item);
                        Together(() => answer.SetResult(late), After(i, cts.Cancel));
                        EndedAfter(t, Stopwatch.StartNew());
                        SpinFor(() => !InCall(l), 10000, "no call in flight");
                        tally.Round(i, t, l.Snapshot().State);
                        SpinFor(() => Zero(late), 10000, "the answer is cleared (round " + i + ")");
                    }
                    NoRequestLeftOpen(l);
                }
                tally.Verdict();
            });
            h.Test("cancel race: EnableBiometricsAsync, the store completing at the moment of the cancel, " + RaceRounds + " rounds: a cancelled task left the shortcut off and its item deleted", () =>
            {
                int cancelled = 0, answered = 0;
                using (var l = new IdleLock(Fast(new FakeClock())))
                {
                    l.SetPasscode(C("2468"));
                    for (int i = 0; i < RaceRounds; i++)
                    {
                        if (l.Snapshot().IsBiometricsEnabled) l.DisableBiometrics();
                        var stored = new TaskCompletionSource<bool>();
                        int deletes = 0;
                        var cts = new CancellationTokenSource();
                        var t = l.EnableBiometricsAsync((r, secret) => stored.Task,
                                                        () => { Interlocked.Increment(ref deletes); return Task.FromResult(0); }, cts.Token);
                        Together(() => stored.SetResult(true), After(i, cts.Cancel));
                        EndedAfter(t, Stopwatch.StartNew());
                        SpinFor(() => !InCall(l), 10000, "no call in flight");
                        if (t.IsCanceled)
                        {
                            cancelled++;
                            Check(!l.Snapshot().IsBiometricsEnabled, "round " + i + ": a cancelled enable turned the shortcut on");
                            SpinFor(() => Volatile.Read(ref deletes) == 1, 10000, "round " + i + ": a cancelled enable deletes its item");
                        }
                        else
                        {
                            answered++;
                            Eq(t.Status, TaskStatus.RanToCompletion, "round " + i + ": " + t.Status);
                            Check(l.Snapshot().IsBiometricsEnabled, "round " + i + ": the task's enable is the lock's");
                            Eq(Volatile.Read(ref deletes), 0, "round " + i + ": an enable that went through keeps its item");
                        }
                    }
                }
                Check(cancelled + answered == RaceRounds, "every round ended");
            });
            h.Test("cancel race: BiometricRequest.Cancel() on one thread, Finish(Ok) on another, " + RaceRounds + " rounds: Cancel returns a snapshot only when nothing unlocked", () =>
            {
                byte[] item;
                using (var l = EnabledByPair(Fast(new FakeClock()), out item))
                {
                    for (int i = 0; i < RaceRounds; i++)
                    {
                        l.Lock();
                        var req = l.BeginBiometricUnlock();
                        Snapshot cancelledTo = null, finished = null;
                        Exception finishError = null;
                        var answer = Copy(item);
                        Together(() =>
                        {
                            try { finished = req.Finish(AuthResult.Ok, answer); }
                            catch (Exception e) when (e is IIdleLockError) { finishError = e; }
                        }, After(i, () => cancelledTo = req.Cancel()));
                        var state = l.Snapshot().State;
                        if (cancelledTo != null)
                        {
                            Eq(state, LockState.Locked, "round " + i + ": Cancel reported success but the answer unlocked");
                            Check(finishError is InvalidArgumentException, "round " + i + ": the answer after the cancel is refused, not " + finishError);
                        }
                        else
                        {
                            Eq(state, LockState.Unlocked, "round " + i + ": Cancel reported nothing to cancel but nothing unlocked");
                            Check(finished != null, "round " + i + ": the finish returned");
                        }
                        Check(Zero(answer), "the answer is cleared (round " + i + ")");
                    }
                }
            });
            h.Test("dispose race: UnlockWithBiometricsAsync(token)'s LoadSecret answering at the moment of Dispose, 100 rounds: the task always ends, the answer is always cleared", () =>
            {
                for (int i = 0; i < 100; i++)
                {
                    var ks = new GatedKeystore();
                    var l = Enabled(ks);
                    l.Lock();
                    var gate = new ManualResetEventSlim();
                    ks.Gate = gate;
                    var t = l.UnlockWithBiometricsAsync(new CancellationTokenSource().Token);
                    SpinFor(() => Volatile.Read(ref ks.Entered) > 0, 10000, "the prompt is up");
                    Together(gate.Set, After(i, l.Dispose));
                    EndedAfter(t, Stopwatch.StartNew());
                    if (t.Status == TaskStatus.RanToCompletion) Eq(t.Result.State, LockState.Unlocked, "an answer that won unlocked");
                    else Check(Fault(t) is ObjectDisposedException, "ObjectDisposedException, not " + Fault(t));
                    SpinFor(() => ks.LastReturned != null && Zero(ks.LastReturned), 10000, "the answer is cleared (round " + i + ")");
                }
            });
            h.Test("finalizers: requests dropped while threads finish, cancel and begin on the same lock, and while it is disposed: no crash, every slot comes back, secrets cleared", () =>
            {
                byte[] item;
                var l = EnabledByPair(Fast(new FakeClock()), out item);
                var stop = DateTime.UtcNow.AddMilliseconds(800);
                Exception failure = null;
                int finishes = 0;
                var workers = new List<Thread>();
                for (int w = 0; w < 3; w++)
                {
                    int id = w;
                    var t = new Thread(() =>
                    {
                        try
                        {
                            while (DateTime.UtcNow < stop)
                            {
                                BiometricRequest r;
                                try { r = l.BeginBiometricUnlock(); }
                                catch (InvalidArgumentException) { Thread.Yield(); continue; } // all slots taken for a moment
                                if (id == 0)
                                {
                                    try { BeginAndDrop(l, 2); } // dropped: their finalizers finish them
                                    catch (InvalidArgumentException) { }
                                }
                                if (id == 1)
                                {
                                    // Refused when another worker's Lock() or a dropped request's end came first.
                                    try { r.Finish(AuthResult.Ok, Copy(item)); Interlocked.Increment(ref finishes); }
                                    catch (Exception e) when (e is InvalidArgumentException || e is SessionLockedException || e is LockUnavailableException) { }
                                }
                                else r.Cancel();
                                if (id == 2) l.Lock();
                            }
                        }
                        catch (Exception e) { failure = e; }
                    });
                    workers.Add(t);
                    t.Start();
                }
                var collector = new Thread(() =>
                {
                    while (DateTime.UtcNow < stop)
                    {
                        GC.Collect();
                        GC.WaitForPendingFinalizers();
                        Thread.Sleep(1);
                    }
                });
                collector.Start();
                foreach (var t in workers) Check(t.Join(20000), "a worker ended");
                Check(collector.Join(20000), "the collector ended");
                if (failure != null) throw failure;
                Check(finishes > 0, "finishes went through meanwhile");
                GC.Collect();
                GC.WaitForPendingFinalizers();
                NoRequestLeftOpen(l); // every dropped request was finished by its finalizer

                // Dropped while the lock is disposed on another thread.
                var enable = new List<byte[]>();
                l.Unlock(C("2468"));
                DropEnables(l, 4, enable);
                Together(() => { GC.Collect(); GC.WaitForPendingFinalizers(); }, l.Dispose);
                GC.Collect();
                GC.WaitForPendingFinalizers();
                foreach (var s in enable) Check(Zero(s), "a dropped request's secret is cleared, the lock disposed meanwhile");
            });
            h.Test("finalizers: an enable request dropped with its lock (never disposed): the secret the host kept a reference to is cleared", () =>
            {
                var kept = new List<byte[]>();
                DropLockWithEnables(kept);
                for (int i = 0; i < 3; i++)
                {
                    GC.Collect();
                    GC.WaitForPendingFinalizers();
                }
                foreach (var s in kept) Check(Zero(s), "the secret is cleared");
            });
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        static void DropEnables(IdleLock l, int n, List<byte[]> secrets)
        {
            for (int i = 0; i < n; i++) secrets.Add(l.BeginBiometricEnable().Secret);
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        static void DropLockWithEnables(List<byte[]> secrets)
        {
            var l = new IdleLock(Fast(new FakeClock()));
            l.SetPasscode(C("2468"));
            DropEnables(l, 3, secrets);
        }
    }
}
