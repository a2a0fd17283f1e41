// SPDX-License-Identifier: MIT
// The two-phase pair (1.2) as BiometricRequest, its Task-returning helpers, the passcode
// policies and the step-up check, on Mono.
using System;
using System.Collections.Generic;
using System.Linq;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Tasks;
using LibIdleLock;
using static LibIdleLock.Tests.Harness;

namespace LibIdleLock.Tests
{
    static partial class Program
    {
        /// <summary>A lock with a passcode whose shortcut was turned on through the pair;
        /// item is the host's copy of the secret.</summary>
        static IdleLock EnabledByPair(IdleLockOptions o, out byte[] item)
        {
            var l = new IdleLock(o);
            l.SetPasscode(C("2468"));
            using (var req = l.BeginBiometricEnable())
            {
                Eq(req.Purpose, BiometricPurpose.Enable, "purpose");
                item = (byte[])req.Secret.Clone();
                Check(item.Any(b => b != 0), "a random secret");
                req.Finish(AuthResult.Ok);
            }
            Check(l.Snapshot().IsBiometricsEnabled, "enabled through the pair");
            return l;
        }

        static byte[] Copy(byte[] a) { return (byte[])a.Clone(); }

        static bool Zero(byte[] a) { return a.All(b => b == 0); }

        /// <summary>What a task ended with: its (first) exception, or an exception when it did not fail.</summary>
        static Exception Fault(Task t)
        {
            try
            {
                if (!t.Wait(10000)) throw new Exception("the task never completed");
            }
            catch (AggregateException e)
            {
                return e.InnerExceptions[0];
            }
            throw new Exception("the task completed normally");
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        static void BeginAndDrop(IdleLock l, int n)
        {
            for (int i = 0; i < n; i++) l.BeginBiometricUnlock();
        }

        static void AsyncBiometrics(Harness h)
        {
            h.Test("pair: begun on one thread, finished on another; the binding clears both secrets", () =>
            {
                var clock = new FakeClock();
                using (var l = new IdleLock(Fast(clock)))
                {
                    l.SetPasscode(C("2468"));
                    var enable = l.BeginBiometricEnable();
                    byte[] own = enable.Secret;
                    byte[] item = Copy(own);
                    Check(!enable.Snapshot.IsBiometricsEnabled, "not on before the finish");
                    Check(enable.Finish(AuthResult.Ok).IsBiometricsEnabled, "on after the finish");
                    Check(Zero(own), "the request's copy of the enable secret is cleared");
                    Check(enable.IsFinished && enable.Task.IsCompleted, "ended");
                    l.Lock();
                    var req = l.BeginBiometricUnlock();
                    Eq(req.Purpose, BiometricPurpose.Unlock, "purpose");
                    Check(req.Secret == null, "an unlock hands out no secret");
                    Check(req.Token != 0, "a token");
                    byte[] released = Copy(item);
                    int listenerThread = 0;
                    l.Subscribe(s => listenerThread = Thread.CurrentThread.ManagedThreadId);
                    var callback = new Thread(() => req.Finish(AuthResult.Ok, released));
                    callback.Start();
                    Check(req.Task.Wait(10000), "completed");
                    callback.Join();
                    Eq(req.Task.Result.State, LockState.Unlocked, "unlocked by the finish on the other thread");
                    Eq(listenerThread, callback.ManagedThreadId, "the change was heard on the finishing thread");
                    Check(Zero(released), "the array handed to Finish is cleared");
                    Eq(req.Task.Result.LastAuthMs, clock.Now(), "LastAuthMs is the finish's clock reading");
                    Eq(l.Snapshot().AttemptsRemaining, 5, "no attempt counted");
                }
            });
            h.Test("pair: cancelled, failed and unavailable checks change nothing but the prompt", () =>
            {
                byte[] item;
                using (var l = EnabledByPair(Fast(new FakeClock()), out item))
                {
                    l.Lock();
                    var before = l.Snapshot();
                    var req = l.BeginBiometricUnlock();
                    var e = Expect<LockUnavailableException>(() => req.Finish(AuthResult.Cancelled));
                    Contains(e.Message.ToLowerInvariant(), "cancel", "the message says cancelled");
                    Eq(e.Snapshot.State, LockState.Locked, "still locked");
                    Check(Fault(req.Task) is LockUnavailableException, "the task faults the same way");
                    var failed = l.BeginBiometricUnlock();
                    Contains(Expect<LockUnavailableException>(() => failed.Finish(AuthResult.Failed)).Message.ToLowerInvariant(), "fail", "says failed");
                    var gone = l.BeginBiometricUnlock();
                    Expect<LockUnavailableException>(() => gone.Finish(AuthResult.Unavailable));
                    var dismissed = l.BeginBiometricUnlock();
                    Expect<InvalidArgumentException>(() => dismissed.Dismiss(AuthResult.Ok));
                    Eq(dismissed.Dismiss(AuthResult.Failed).State, LockState.Locked, "Dismiss returns the state, throws nothing");
                    Check(Fault(dismissed.Task) is LockUnavailableException, "its task has the library's answer");
                    Check(dismissed.Dismiss(AuthResult.Cancelled) == null, "nothing left to dismiss");
                    var after = l.Snapshot();
                    Eq(after.AttemptsRemaining, before.AttemptsRemaining, "never counted");
                    Check(after.IsBiometricsEnabled, "the shortcut stays on");
                    Eq(l.Unlock(C("2468")).State, LockState.Unlocked, "the passcode works");
                }
            });
            h.Test("pair: a secret that does not open the wrap turns the shortcut off", () =>
            {
                byte[] item;
                using (var l = EnabledByPair(Fast(new FakeClock()), out item))
                {
                    l.Lock();
                    var req = l.BeginBiometricUnlock();
                    var wrong = Copy(item);
                    wrong[0] ^= 1;
                    Expect<LockUnavailableException>(() => req.Finish(AuthResult.Ok, wrong));
                    Check(Zero(wrong), "cleared even when refused");
                    Eq(l.Snapshot().State, LockState.Locked, "still locked");
                    Check(!l.Snapshot().IsBiometricsEnabled, "turned off");
                    Expect<LockUnavailableException>(() => l.BeginBiometricUnlock());
                    Eq(l.Unlock(C("2468")).State, LockState.Unlocked, "the passcode remains");
                }
            });
            h.Test("pair: a request left open past PromptCapMs expires (a fake clock)", () =>
            {
                var clock = new FakeClock();
                var o = Fast(clock);
                o.PromptCapMs = 10000;
                byte[] item;
                using (var l = EnabledByPair(o, out item))
                {
                    l.Lock();
                    var req = l.BeginBiometricUnlock();
                    clock.Advance(10001);
                    Contains(Expect<LockUnavailableException>(() => req.Finish(AuthResult.Ok, Copy(item))).Message, "expired", "says expired");
                    Eq(l.Snapshot().State, LockState.Locked, "a late release unlocks nothing");
                    Check(req.IsFinished, "finished all the same");
                    Eq(Expect<InvalidArgumentException>(() => req.Finish(AuthResult.Ok, Copy(item))).Status, 1, "then INVALID_ARGUMENT");
                    var fresh = l.BeginBiometricUnlock();
                    clock.Advance(9999);
                    Eq(fresh.Finish(AuthResult.Ok, Copy(item)).State, LockState.Unlocked, "within the cap it unlocks");
                }
            });
            h.Test("pair: a token finished twice, also by two threads at once: exactly one finish counts", () =>
            {
                byte[] item;
                using (var l = EnabledByPair(Fast(new FakeClock()), out item))
                {
                    l.Lock();
                    var req = l.BeginBiometricUnlock();
                    Eq(req.Finish(AuthResult.Ok, Copy(item)).State, LockState.Unlocked, "the first finish");
                    l.Lock();
                    Contains(Expect<InvalidArgumentException>(() => req.Finish(AuthResult.Ok, Copy(item))).Message, "token", "names the token");
                    Eq(l.Snapshot().State, LockState.Locked, "a finished token unlocks nothing");
                    Eq(req.Task.Result.State, LockState.Unlocked, "the task keeps the first outcome");
                    for (int round = 0; round < 20; round++)
                    {
                        var r = l.BeginBiometricUnlock();
                        var start = new Barrier(2);
                        int wins = 0, refused = 0;
                        var threads = new List<Thread>();
                        for (int t = 0; t < 2; t++)
                        {
                            var th = new Thread(() =>
                            {
                                start.SignalAndWait();
                                try
                                {
                                    r.Finish(AuthResult.Ok, Copy(item));
                                    Interlocked.Increment(ref wins);
                                }
                                catch (InvalidArgumentException)
                                {
                                    Interlocked.Increment(ref refused);
                                }
                            });
                            th.Start();
                            threads.Add(th);
                        }
                        foreach (var th in threads) th.Join();
                        Eq(wins, 1, "round " + round + ": one finish wins");
                        Eq(refused, 1, "round " + round + ": the other is refused");
                        Check(r.Task.Wait(10000), "round " + round + ": completed");
                        Eq(r.Task.Result.State, LockState.Unlocked, "round " + round + ": the winner's outcome");
                        l.Lock();
                    }
                }
            });
            h.Test("pair: DisableBiometrics, Disable and a new passcode void open requests", () =>
            {
                byte[] item;
                using (var l = EnabledByPair(Fast(new FakeClock()), out item))
                {
                    l.Lock();
                    var req = l.BeginBiometricUnlock();
                    l.DisableBiometrics();
                    Eq(Expect<InvalidArgumentException>(() => req.Finish(AuthResult.Ok, Copy(item))).Status, 1, "INVALID_ARGUMENT");
                    Eq(l.Snapshot().State, LockState.Locked, "a voided request unlocks nothing");
                    Check(Fault(req.Task) is InvalidArgumentException, "the task learns it was voided");
                    Check(req.Cancel() == null, "Cancel of an ended request does nothing");
                }
                using (var l = new IdleLock(Fast(new FakeClock())))
                {
                    l.SetPasscode(C("2468"));
                    var enable = l.BeginBiometricEnable();
                    l.SetPasscode(C("1357"));
                    Expect<InvalidArgumentException>(() => enable.Finish(AuthResult.Ok));
                    Check(!l.Snapshot().IsBiometricsEnabled, "never turned on");
                    Check(Zero(enable.Secret), "its secret cleared when it ended");
                    var other = l.BeginBiometricEnable();
                    l.Disable();
                    Expect<InvalidArgumentException>(() => other.Finish(AuthResult.Ok));
                    Check(!l.Snapshot().IsEnabled, "signed out");
                }
            });
            h.Test("pair: bad arguments are refused before the library and leave the request open", () =>
            {
                byte[] item;
                using (var l = EnabledByPair(Fast(new FakeClock()), out item))
                {
                    l.Lock();
                    var req = l.BeginBiometricUnlock();
                    Contains(Expect<InvalidArgumentException>(() => req.Finish((AuthResult)7)).Message, "result", "names result");
                    Eq(Expect<ArgumentNullException>(() => req.Finish(AuthResult.Ok)).ParamName, "secret", "names secret");
                    var short31 = item.Take(31).ToArray();
                    Contains(Expect<InvalidArgumentException>(() => req.Finish(AuthResult.Ok, short31)).Message, "31", "says the length");
                    Check(Zero(short31), "a refused array is cleared too");
                    Expect<InvalidArgumentException>(() => req.Finish(AuthResult.Cancelled, Copy(item)));
                    Check(!req.IsFinished && !req.Task.IsCompleted, "still open");
                    Eq(req.Finish(AuthResult.Ok, Copy(item)).State, LockState.Unlocked, "and still finishes");
                    var enable = l.BeginBiometricEnable();
                    Contains(Expect<InvalidArgumentException>(() => enable.Finish(AuthResult.Ok, new byte[32])).Message, "Enable", "an enable takes no secret");
                    enable.Dispose();
                    Check(enable.IsFinished, "Dispose ended it");
                }
            });
            h.Test("pair: at most BiometricRequestsMax open; a dropped request is cancelled by its finalizer", () =>
            {
                byte[] item;
                using (var l = EnabledByPair(Fast(new FakeClock()), out item))
                {
                    l.Lock();
                    var open = new List<BiometricRequest>();
                    for (int i = 0; i < IdleLock.BiometricRequestsMax; i++) open.Add(l.BeginBiometricUnlock());
                    Contains(Expect<InvalidArgumentException>(() => l.BeginBiometricUnlock()).Message, "IdleLock.BiometricRequestsMax", "the ninth is refused");
                    foreach (var r in open) r.Dispose();
                    foreach (var r in open) Check(r.IsFinished, "disposed requests are finished");
                    open.Clear();
                    BeginAndDrop(l, IdleLock.BiometricRequestsMax);
                    BiometricRequest got = null;
                    var until = DateTime.UtcNow.AddSeconds(20);
                    while (got == null && DateTime.UtcNow < until)
                    {
                        GC.Collect();
                        GC.WaitForPendingFinalizers();
                        try { got = l.BeginBiometricUnlock(); }
                        catch (InvalidArgumentException) { Thread.Sleep(10); }
                    }
                    Check(got != null, "the dropped requests were finished: a slot came free");
                    Eq(got.Finish(AuthResult.Ok, Copy(item)).State, LockState.Unlocked, "and it works");
                }
            });
            h.Test("pair after Dispose: tasks fault, secrets cleared, Finish is ObjectDisposedException, Cancel is quiet", () =>
            {
                var l = new IdleLock(Fast(new FakeClock()));
                l.SetPasscode(C("2468"));
                var enable = l.BeginBiometricEnable();
                byte[] own = enable.Secret;
                Check(!Zero(own), "a secret");
                l.Dispose();
                Check(Fault(enable.Task) is ObjectDisposedException, "the task faults: the lock was disposed");
                Check(Zero(own), "the request's secret is cleared at Dispose");
                Check(enable.IsFinished, "ended");
                Exception other = null;
                var t = new Thread(() => { try { enable.Finish(AuthResult.Ok); } catch (Exception x) { other = x; } });
                t.Start();
                t.Join();
                Check(other is ObjectDisposedException, "Finish from another thread after Dispose: " + other);
                Check(enable.Cancel() == null, "Cancel after Dispose does nothing");
                enable.Dispose();
                Expect<ObjectDisposedException>(() => l.BeginBiometricUnlock());
            });
            h.Test("pair: Dispose from a listener inside a Finish: the finish's outcome stands", () =>
            {
                int live = LiveHandles();
                byte[] item;
                var l = EnabledByPair(Fast(new FakeClock()), out item);
                l.Lock();
                var req = l.BeginBiometricUnlock();
                l.Subscribe(s => { if (s.State == LockState.Unlocked) l.Dispose(); });
                Eq(req.Finish(AuthResult.Ok, Copy(item)).State, LockState.Unlocked, "Finish returns its outcome");
                Check(req.Task.Wait(1000), "completed");
                Eq(req.Task.Result.State, LockState.Unlocked, "the task too");
                Check(l.IsDisposed, "disposed");
                Eq(LiveHandles(), live, "destroyed once the finish returned");
            });
            h.Test("step-up: RequireRecentAuth refused (ReauthRequiredException, status 13), then granted after the pair", () =>
            {
                var clock = new FakeClock();
                byte[] item;
                using (var l = EnabledByPair(Fast(clock), out item))
                {
                    var none = Expect<ReauthRequiredException>(() => l.RequireRecentAuth(60000));
                    Eq(none.Status, 13, "status 13");
                    Eq(none.StatusName, "IDLELOCK_ERR_REAUTH_REQUIRED", "StatusName");
                    Check(none is IdleLockException, "an IdleLockException");
                    l.Unlock(C("2468"));
                    l.RequireRecentAuth(60000);
                    clock.Advance(30000);
                    l.Touch();
                    Expect<ReauthRequiredException>(() => l.RequireRecentAuth(TimeSpan.FromSeconds(10)));
                    var again = l.BeginBiometricUnlock(); // re-authenticate the unlocked session
                    Eq(again.Finish(AuthResult.Ok, Copy(item)).LastAuthMs, clock.Now(), "LastAuthMs moved");
                    l.RequireRecentAuth(10000);
                    l.Lock();
                    Expect<SessionLockedException>(() => l.RequireRecentAuth(10000));
                }
                using (var bare = new IdleLock(Fast(new FakeClock())))
                    Expect<NoPasscodeException>(() => bare.RequireRecentAuth(1000));
            });
            h.Test("policy: after BiometricMaxUses biometric unlocks the passcode is required", () =>
            {
                var o = Fast(new FakeClock());
                o.BiometricMaxUses = 2;
                byte[] item;
                using (var l = EnabledByPair(o, out item))
                {
                    var heard = new List<bool>();
                    l.Subscribe(s => heard.Add(s.IsPasscodeRequired));
                    for (int i = 0; i < 2; i++)
                    {
                        l.Lock();
                        Check(!l.Snapshot().IsPasscodeRequired, "use " + (i + 1) + " allowed");
                        Eq(l.BeginBiometricUnlock().Finish(AuthResult.Ok, Copy(item)).State, LockState.Unlocked, "use " + (i + 1));
                    }
                    l.Lock();
                    Check(l.Snapshot().IsPasscodeRequired, "the snapshot says the passcode is required");
                    Check(heard.Contains(true), "a listener heard it");
                    Contains(Expect<LockUnavailableException>(() => l.BeginBiometricUnlock()).Message, "BiometricMaxUses", "names the policy");
                    l.Unlock(C("2468"));
                    Check(!l.Snapshot().IsPasscodeRequired, "the passcode satisfied it");
                }
            });
            h.Test("policy: PasscodeMaxAgeMs refuses the shortcut once the passcode entry is that old", () =>
            {
                var clock = new FakeClock();
                var o = Fast(clock);
                o.PasscodeMaxAgeMs = IdleLock.PasscodeMaxAgeMinMs;
                byte[] item;
                using (var l = EnabledByPair(o, out item))
                {
                    l.Lock();
                    clock.Advance(IdleLock.PasscodeMaxAgeMinMs - 1);
                    Check(!l.Snapshot().IsPasscodeRequired, "not yet");
                    clock.Advance(1);
                    Check(l.Snapshot().IsPasscodeRequired, "an hour after the passcode was entered");
                    Contains(Expect<LockUnavailableException>(() => l.BeginBiometricUnlock()).Message, "PasscodeMaxAgeMs", "names the policy");
                }
            });
            h.Test("policy options out of range name the field; the bounds build", () =>
            {
                Bad(With(o => o.PasscodeMaxAgeMs = IdleLock.PasscodeMaxAgeMinMs - 1), "PasscodeMaxAgeMs", "3599999");
                Bad(With(o => o.PasscodeMaxAgeMs = IdleLock.PasscodeMaxAgeMaxMs + 1), "PasscodeMaxAgeMs");
                Bad(With(o => o.BiometricMaxUses = IdleLock.BiometricMaxUsesMax + 1), "BiometricMaxUses", "1001");
                Bad(With(o => o.BiometricMaxUses = -1), "BiometricMaxUses");
                new IdleLock(With(o => { o.PasscodeMaxAgeMs = 0; o.BiometricMaxUses = 0; o.PasscodeAfterReboot = false; })).Dispose();
                new IdleLock(With(o => { o.PasscodeMaxAgeMs = IdleLock.PasscodeMaxAgeMaxMs; o.BiometricMaxUses = IdleLock.BiometricMaxUsesMax; o.PasscodeAfterReboot = true; })).Dispose();
                using (var l = new IdleLock(Fast(null)))
                {
                    Check(!l.Snapshot().IsPasscodeRequired, "no policy by default");
                    Eq(l.Snapshot().LastAuthMs, IdleLock.Never, "no authentication yet");
                }
            });
            h.Test("bad input for the 1.2 calls changes nothing", () =>
            {
                using (var l = new IdleLock(Fast(new FakeClock())))
                {
                    l.SetPasscode(C("2468"));
                    l.Lock();
                    var before = l.Snapshot();
                    Contains(Expect<InvalidArgumentException>(() => l.RequireRecentAuth(0)).Message, "maxAgeMs", "names it");
                    Expect<InvalidArgumentException>(() => l.RequireRecentAuth(-1));
                    Expect<InvalidArgumentException>(() => l.RequireRecentAuth(IdleLock.RecentAuthMaxMs + 1));
                    Eq(Expect<ArgumentNullException>(() => l.UnlockWithBiometricsAsync(null)).ParamName, "check", "check");
                    Eq(Expect<ArgumentNullException>(() => l.EnableBiometricsAsync(null)).ParamName, "store", "store");
                    Eq(l.Snapshot().Seq, before.Seq, "nothing changed");
                }
            });
            h.Test("helper: UnlockWithBiometricsAsync/EnableBiometricsAsync await the host's tasks", () =>
            {
                using (var l = new IdleLock(Fast(new FakeClock())))
                {
                    l.SetPasscode(C("2468"));
                    byte[] kept = null, storeArgument = null;
                    var on = l.EnableBiometricsAsync(async (r, secret) =>
                    {
                        await Task.Delay(10);
                        storeArgument = secret;
                        kept = Copy(secret);
                    });
                    Check(on.Wait(10000), "enabled");
                    Check(on.Result.IsBiometricsEnabled, "on");
                    Check(Zero(storeArgument), "the request's secret cleared after the finish");
                    Check(!Zero(kept), "the keystore kept its copy");
                    l.Lock();
                    var gate = new TaskCompletionSource<byte[]>();
                    var t = l.UnlockWithBiometricsAsync(r => gate.Task);
                    Thread.Sleep(30);
                    Check(!t.IsCompleted, "waiting for the person, no thread blocked on the lock");
                    l.Touch();
                    Eq(l.Snapshot().State, LockState.Locked, "other calls go on meanwhile");
                    byte[] released = Copy(kept);
                    new Thread(() => gate.SetResult(released)).Start();
                    Check(t.Wait(10000), "completed");
                    Eq(t.Result.State, LockState.Unlocked, "unlocked");
                    Check(Zero(released), "the released array cleared");

                    l.Lock();
                    Check(Fault(l.UnlockWithBiometricsAsync(r => { throw new AuthenticationException(AuthResult.Cancelled, "tapped Cancel"); }))
                          is LockUnavailableException, "AuthenticationException: LockUnavailable");
                    var bug = Fault(l.UnlockWithBiometricsAsync(async r => { await Task.Yield(); throw new InvalidOperationException("host bug"); }));
                    Eq(bug.Message, "host bug", "a host bug propagates as itself");
                    Eq(l.Snapshot().State, LockState.Locked, "still locked");

                    var cts = new CancellationTokenSource();
                    var late = new TaskCompletionSource<byte[]>();
                    var cancelled = l.UnlockWithBiometricsAsync(r => late.Task, cts.Token);
                    cts.Cancel();
                    late.SetResult(Copy(kept));
                    Check(Fault(cancelled) is OperationCanceledException, "the token cancels the task");
                    Eq(l.Snapshot().State, LockState.Locked, "a cancelled helper unlocks nothing, even when the check answers later");
                    var open = new List<BiometricRequest>();
                    for (int i = 0; i < IdleLock.BiometricRequestsMax; i++) open.Add(l.BeginBiometricUnlock());
                    foreach (var r in open) r.Cancel(); // none was left open by the helpers
                    Check(l.UnlockWithBiometricsAsync(r => Task.FromResult(Copy(kept))).Wait(10000), "works again");
                    Eq(l.Snapshot().State, LockState.Unlocked, "unlocked");
                }
            });
            h.Test("helper: an enable refused after the item was stored deletes the item", () =>
            {
                using (var l = new IdleLock(Fast(new FakeClock())))
                {
                    l.SetPasscode(C("2468"));
                    var gate = new TaskCompletionSource<bool>();
                    int deletes = 0;
                    var t = l.EnableBiometricsAsync((r, secret) => gate.Task, () => { deletes++; return Task.FromResult(0); });
                    l.Lock(); // after the begin: the enable must not take effect
                    gate.SetResult(true);
                    Check(Fault(t) is SessionLockedException, "refused");
                    Eq(deletes, 1, "delete ran before the task faulted");
                    Check(!l.Snapshot().IsBiometricsEnabled, "off");
                    Check(Fault(l.EnableBiometricsAsync((r, s) => Task.FromResult(0))) is SessionLockedException, "a refused begin faults the task");
                }
            });
            h.Test("the pair opens the callback IAuthenticator's wrap; both paths work side by side", () =>
            {
                var ks = new FakeKeystore();
                using (var l = Enabled(ks))
                {
                    l.Lock();
                    Eq(l.BeginBiometricUnlock().Finish(AuthResult.Ok, Copy(ks.Item)).State, LockState.Unlocked, "the pair");
                    l.Lock();
                    Eq(l.UnlockWithBiometrics().State, LockState.Unlocked, "the callback path");
                }
            });
        }
    }
}
