// SPDX-License-Identifier: MIT
// The C# binding's tests on the Mono runtime and the real libidlelock.
using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Text;
using System.Text.RegularExpressions;
using System.Threading;
using System.Threading.Tasks;
using LibIdleLock;
using static LibIdleLock.Tests.Harness;

namespace LibIdleLock.Tests
{
    static partial class Program
    {
        static int Main(string[] args)
        {
            if (args.Length == 2 && args[0] == "--child") return Child(args[1]);
            var h = new Harness();
            Module(h);
            Config(h);
            Rules(h);
            Passcodes(h);
            Secrets(h);
            Listeners(h);
            Biometrics(h);
            AsyncBiometrics(h);
            AsyncCancellation(h);
            AsyncDispose(h);
            DisposeRaces(h);
            AsyncCancellationAuthenticator(h);
            Races(h);
            Store(h);
            Lifetime(h);
            Processes(h);
            BadInput(h);
            Threads(h);
            return h.Finish() == 0 ? 0 : 1;
        }

        // ------------------------------------------------------------------ module

        /// <summary>delay_step -> DelayStep, no_memory -> NoMemory.</summary>
        static string Pascal(string snake) =>
            string.Concat(snake.Split('_').Select(p => char.ToUpperInvariant(p[0]) + p.Substring(1)));

        static void Module(Harness h)
        {
            // The constants, mirrors and declarations come from include/idlelock.h
            // (Generated.cs, checked by `make check-bindings`); the library built from
            // that header reports its version.
            h.Test("the library is at the header version the binding was generated from", () =>
            {
                Eq(IdleLock.Version, IdleLock.HeaderVersion, "Version");
                Eq(IdleLock.VersionNumber, IdleLock.HeaderVersionNumber, "VersionNumber");
                Eq(IdleLock.HeaderVersionNumber / 100, 102, "1.2");
            });
            h.Test("struct mirrors have the library's sizes", () =>
            {
                var t = typeof(IdleLock).Assembly.GetType("LibIdleLock.Native");
                foreach (var name in new[] { "config", "snapshot", "authenticator", "delay_step" })
                {
                    var size = (UIntPtr)t.GetMethod("idlelock_" + name + "_size", System.Reflection.BindingFlags.NonPublic | System.Reflection.BindingFlags.Static).Invoke(null, null);
                    var pascal = Pascal(name) + "Size";
                    var mine = (int)t.GetField(pascal, System.Reflection.BindingFlags.NonPublic | System.Reflection.BindingFlags.Static).GetValue(null);
                    Eq((ulong)mine, size.ToUInt64(), name);
                }
            });
            h.Test("status names", () =>
            {
                Eq(IdleLock.StatusName(0), "IDLELOCK_OK", "0");
                Eq(IdleLock.StatusName(3), "IDLELOCK_ERR_INVALID_PASSCODE", "3");
                Eq(IdleLock.StatusName(12), "IDLELOCK_ERR_RETRY_LATER", "12");
                Eq(IdleLock.StatusName(13), "IDLELOCK_ERR_REAUTH_REQUIRED", "13");
                Eq(IdleLock.StatusName(4242), "IDLELOCK_ERR_UNKNOWN", "4242");
            });
            // The status-to-exception table is generated from the header, the
            // exception classes are written by hand, each with its status: a class
            // that reports another status than the one it is thrown for (a copied
            // class, a renumbered one) misreports every such failure.
            h.Test("each status the library names is thrown as its own class, reporting that status", () =>
            {
                var of = typeof(IdleLockException).GetMethod("For",
                    System.Reflection.BindingFlags.NonPublic | System.Reflection.BindingFlags.Static);
                int known = 0;
                for (int code = 1; code < 64; code++)
                {
                    var name = IdleLock.StatusName(code);
                    var e = (IIdleLockError)of.Invoke(null, new object[] { code, "m", null });
                    Eq(e.Status, code, "Status of the exception for " + code);
                    if (name == "IDLELOCK_ERR_UNKNOWN")
                    {
                        Eq(e.GetType(), typeof(IdleLockException), "the class for unknown status " + code);
                        continue;
                    }
                    known++;
                    Eq(e.GetType().Name, Pascal(name.Substring("IDLELOCK_ERR_".Length).ToLowerInvariant()) + "Exception",
                        "the class for " + name);
                }
                Check(known >= 13, "the library names " + known + " statuses; 1.2 has 13");
            });
            h.Test("the iOS delay preset", () =>
            {
                var s = IdleLock.IosDelaySchedule();
                Eq(s.Count, 4, "steps");
                Eq(s[0], new DelayStep(5, 60000), "first");
                Eq(s[3], new DelayStep(9, 3600000), "last");
            });
        }

        // ------------------------------------------------------------------ config

        /// <summary>The constructor refuses o with InvalidArgumentException (an ArgumentException
        /// with status 1) whose message names the option in the binding's words (parts[0] is
        /// the option, also ParamName) and no C name.</summary>
        static void Bad(IdleLockOptions o, params string[] parts)
        {
            var e = Expect<InvalidArgumentException>(() => new IdleLock(o).Dispose());
            Check(e is ArgumentException, "an ArgumentException");
            Check(e is IIdleLockError, "an IIdleLockError");
            Eq(e.Status, 1, "status");
            Eq(e.StatusName, "IDLELOCK_ERR_INVALID_ARGUMENT", "StatusName");
            Check(e.Snapshot == null, "no snapshot");
            foreach (var p in parts) Contains(e.Message, p, "message");
            Eq(e.ParamName, parts[0].Split('.', ' ')[0], "ParamName");
            NoCNames(e.Message);
        }

        /// <summary>A message in the binding's words: no config.field, no snake_case option
        /// name, no IDLELOCK_ constant.</summary>
        static void NoCNames(string message)
        {
            var c = Regex.Match(message, @"config\.|IDLELOCK_|\b(idle_after_ms|background_after_ms|inactive_after_ms|grace_ms|max_attempts|kdf_opslimit|kdf_memlimit|store_path|unlock_reason|device_key|prompt_cap_ms|warn_before_ms|delay_schedule|delay_ms|failed_attempts|passcode_max_age_ms|passcode_after_reboot|biometric_max_uses|lock_on_start|max_age_ms|state_name)\b");
            Check(!c.Success, "the message uses a C name (" + c.Value + "): " + message);
        }

        static IdleLockOptions With(Action<IdleLockOptions> change)
        {
            var o = Fast(null);
            change(o);
            return o;
        }

        static void Config(Harness h)
        {
            h.Test("a lock that never times out is refused, naming IdleAfterMs", () =>
                Bad(new IdleLockOptions(), "IdleAfterMs", "BackgroundAfterMs", "IdleLock.Never"));
            h.Test("values out of range name the option and the value in the binding's words", () =>
            {
                Bad(With(o => o.GraceMs = 60001), "GraceMs", "60001");
                Bad(With(o => o.MaxAttempts = 0), "MaxAttempts");
                Bad(With(o => o.IdleAfterMs = 0), "IdleAfterMs", "IdleLock.Never");
                Bad(With(o => o.BackgroundAfterMs = -2), "BackgroundAfterMs", "IdleLock.SameAsIdle");
                Bad(With(o => o.InactiveAfterMs = -1), "InactiveAfterMs");
                Bad(With(o => o.KdfOpslimit = 1), "KdfOpslimit");
                Bad(With(o => o.KdfMemlimit = 1024), "KdfMemlimit");
                Bad(With(o => o.PromptCapMs = 600001), "PromptCapMs");
                Bad(With(o => o.WarnBeforeMs = 60000), "WarnBeforeMs");
                Bad(With(o => o.DeviceKey = new byte[31]), "DeviceKey");
                Bad(With(o => o.UnlockReason = new string('r', 513)), "UnlockReason");
                Bad(With(o => o.DelaySchedule = new[] { new DelayStep(2, 10), new DelayStep(1, 20) }), "DelaySchedule", "FailedAttempts");
                Bad(With(o => o.DelaySchedule = new[] { new DelayStep(2, 0) }), "DelaySchedule", "DelayMs");
                Bad(With(o => o.DelaySchedule = IdleLock.IosDelaySchedule()), "DelaySchedule", "MaxAttempts");
                Bad(With(o => { o.StorePath = "/tmp/idlelock-never-created"; o.LockOnStart = false; }), "LockOnStart is false", "DeviceKey");
            });
            h.Test("the binding's own checks name the option; a null is ArgumentNullException", () =>
            {
                Bad(With(o => o.StorePath = "/tmp/a\0b"), "StorePath", "NUL");
                Bad(With(o => o.UnlockReason = "why\0not"), "UnlockReason", "NUL");
                Bad(With(o => o.UnlockReason = "\ud800"), "UnlockReason", "surrogate");
                Eq(Expect<ArgumentNullException>(() => new IdleLock(null)).ParamName, "options", "ParamName");
            });
            h.Test("one clause catches every library error: IIdleLockError", () =>
            {
                using (var l = new IdleLock(Fast(new FakeClock())))
                {
                    l.SetPasscode(C("2468"));
                    l.Lock();
                    int caught = 0;
                    foreach (var call in new Action[] { () => l.GetSecret("x"), () => l.Unlock(C("0000")), () => l.RequireRecentAuth(0) })
                    {
                        try { call(); }
                        catch (Exception e) when (e is IIdleLockError) { caught++; }
                    }
                    Eq(caught, 3, "SessionLocked, InvalidPasscode and InvalidArgument are all IIdleLockError");
                    Check(typeof(ArgumentException).IsAssignableFrom(typeof(InvalidArgumentException)), "InvalidArgumentException is an ArgumentException");
                    Check(!typeof(IdleLockException).IsAssignableFrom(typeof(InvalidArgumentException)), "and not an IdleLockException");
                }
            });
            h.Test("defaults build; the iOS preset with MaxAttempts 10", () =>
            {
                using (var l = new IdleLock(new IdleLockOptions { IdleAfterMs = 1000 }))
                    Eq(l.Snapshot().AttemptsRemaining, 5, "default 5");
                new IdleLock(With(o => { o.DelaySchedule = IdleLock.IosDelaySchedule(); o.MaxAttempts = 10; })).Dispose();
            });
        }

        // ------------------------------------------------------------------- rules

        static void Rules(Harness h)
        {
            h.Test("start, lock on start, lock, unlock", () =>
            {
                var clock = new FakeClock();
                using (var l = new IdleLock(Fast(clock)))
                {
                    var s = l.Start();
                    Eq(s.State, LockState.Unlocked, "not engaged");
                    Eq(s.MsUntilIdleLock, IdleLock.Never, "no deadline");
                    l.SetPasscode(C("2468"));
                    Eq(l.Start().State, LockState.Unlocked, "the first start was used up before the passcode");
                    s = l.Lock();
                    Eq(s.Reason, LockReason.Manual, "manual");
                    Check(s.IsLocked, "IsLocked");
                    Eq(l.Unlock(C("2468")).State, LockState.Unlocked, "unlocked");
                }
                using (var l = new IdleLock(Fast(clock)))
                {
                    l.SetPasscode(C("2468"));
                    Eq(l.Start().Reason, LockReason.Startup, "STARTUP");
                }
            });
            h.Test("idle timeout, touch, the next deadline", () =>
            {
                var clock = new FakeClock();
                using (var l = new IdleLock(Fast(clock)))
                {
                    l.SetPasscode(C("2468"));
                    clock.Advance(59000);
                    l.Touch();
                    Eq(l.Snapshot().MsUntilNextDeadline, 60000L, "touch moved it");
                    clock.Advance(60000);
                    Eq(l.Check().Reason, LockReason.Idle, "IDLE");
                }
            });
            h.Test("grace window, background timeout, clock step", () =>
            {
                var clock = new FakeClock();
                using (var l = new IdleLock(Fast(clock)))
                {
                    l.SetPasscode(C("2468"));
                    Check(l.Background().IsAway, "away");
                    clock.Advance(1500);
                    Eq(l.Foreground().State, LockState.Unlocked, "within grace");
                    l.Background();
                    clock.Advance(30000);
                    Eq(l.Foreground().Reason, LockReason.Backgrounded, "backgrounded");
                    l.Unlock(C("2468"));
                    l.Inactive();
                    clock.Advance(-5);
                    Eq(l.Check().Reason, LockReason.Clock, "CLOCK");
                }
            });
            h.Test("named platform states", () =>
            {
                var clock = new FakeClock();
                using (var l = new IdleLock(Fast(clock)))
                {
                    l.SetPasscode(C("2468"));
                    Check(l.Lifecycle(Platform.AndroidLifecycleEvent, "ON_STOP").IsAway, "ON_STOP");
                    Check(!l.Lifecycle(Platform.AndroidLifecycleEvent, "ON_RESUME").IsAway, "ON_RESUME");
                    var seq = l.Snapshot().Seq;
                    var wrong = Expect<InvalidArgumentException>(() => l.Lifecycle(Platform.IosScenePhase, "Active"));
                    Contains(wrong.Message, "stateName is not a state of Platform.IosScenePhase", "names the platform");
                    Contains(wrong.Message, "its states are active, inactive, background", "lists the valid names");
                    Eq(wrong.ParamName, "stateName", "ParamName");
                    NoCNames(wrong.Message);
                    var android = Expect<InvalidArgumentException>(() => l.Lifecycle(Platform.AndroidLifecycleEvent, "onStop"));
                    Contains(android.Message, "ON_CREATE, ON_START, ON_RESUME, ON_PAUSE, ON_STOP, ON_DESTROY", "lists Android's");
                    var platform = Expect<InvalidArgumentException>(() => l.Lifecycle((Platform)99, "active"));
                    Contains(platform.Message, "Platform.IosScenePhase (1), Platform.IosApplicationState (2)", "lists the platforms");
                    NoCNames(platform.Message);
                    Eq(platform.ParamName, "platform", "ParamName");
                    Eq(l.Snapshot().Seq, seq, "nothing changed");
                }
            });
            h.Test("prompts and the warning", () =>
            {
                var clock = new FakeClock();
                var o = Fast(clock);
                o.WarnBeforeMs = 10000;
                using (var l = new IdleLock(o))
                {
                    l.SetPasscode(C("2468"));
                    ulong token;
                    using (var p = l.OpenPrompt())
                    {
                        token = p.Token;
                        clock.Advance(90000);
                        Eq(l.Check().State, LockState.Unlocked, "deferred");
                    }
                    Expect<InvalidArgumentException>(() => l.PromptEnd(token));
                    clock.Advance(50000);
                    Check(l.Check().IsWarning, "warning");
                    l.Touch();
                    Check(!l.Snapshot().IsWarning, "ended by activity");
                }
            });
        }

        // --------------------------------------------------------------- passcodes

        static byte[] ModifiedUtf8(string s)
        {
            var o = new List<byte>();
            foreach (char c in s)
            {
                if (c != 0 && c < 0x80) o.Add((byte)c);
                else if (c < 0x800) { o.Add((byte)(0xC0 | (c >> 6))); o.Add((byte)(0x80 | (c & 0x3F))); }
                else { o.Add((byte)(0xE0 | (c >> 12))); o.Add((byte)(0x80 | ((c >> 6) & 0x3F))); o.Add((byte)(0x80 | (c & 0x3F))); }
            }
            return o.ToArray();
        }

        static void Passcodes(Harness h)
        {
            h.Test("wrong passcodes count, then lock out; sign-out is the way out", () =>
            {
                var o = Fast(new FakeClock());
                o.MaxAttempts = 3;
                using (var l = new IdleLock(o))
                {
                    Expect<NoPasscodeException>(() => l.Unlock(C("2468")));
                    l.SetPasscode(C("2468"));
                    l.Lock();
                    var e = Expect<InvalidPasscodeException>(() => l.Unlock(C("1111")));
                    Eq(e.AttemptsRemaining, 2, "AttemptsRemaining");
                    Eq(e.Snapshot.State, LockState.Locked, "snapshot");
                    Expect<InvalidPasscodeException>(() => l.Unlock(C("1112")));
                    Eq(Expect<LockedOutException>(() => l.Unlock(C("1113"))).Snapshot.State, LockState.LockedOut, "out");
                    Expect<SessionLockedException>(() => l.SetPasscode(C("1357")));
                    l.Disable();
                    Check(!l.Snapshot().IsEnabled, "signed out");
                }
            });
            h.Test("an escalating delay refuses attempts without counting them", () =>
            {
                var clock = new FakeClock();
                var o = Fast(clock);
                o.DelaySchedule = new[] { new DelayStep(1, 5000) };
                using (var l = new IdleLock(o))
                {
                    l.SetPasscode(C("2468"));
                    l.Lock();
                    Expect<InvalidPasscodeException>(() => l.Unlock(C("0000")));
                    var e = Expect<RetryLaterException>(() => l.Unlock(C("2468")));
                    Eq(e.MsUntilRetry, 5000L, "MsUntilRetry");
                    Eq(e.RetryAfter, TimeSpan.FromSeconds(5), "RetryAfter");
                    clock.Advance(5000);
                    Eq(l.Unlock(C("2468")).State, LockState.Unlocked, "after the delay");
                }
            });
            h.Test("NUL and emoji cross as UTF-8; modified UTF-8 and lone surrogates are refused", () =>
            {
                string pass = "a\0b\ud83d\ude00c";
                using (var l = new IdleLock(Fast(new FakeClock())))
                {
                    var typed = pass.ToCharArray();
                    l.SetPasscode(typed);
                    Eq(new string(typed), pass, "the caller's array is untouched");
                    l.Lock();
                    Contains(Expect<InvalidArgumentException>(() => l.UnlockUtf8(ModifiedUtf8(pass))).Message, "UTF-8", "modified UTF-8");
                    Contains(Expect<InvalidArgumentException>(() => l.Unlock(new[] { '2', '\ud800' })).Message, "surrogate", "surrogate");
                    Eq(l.Snapshot().AttemptsRemaining, 5, "never counted");
                    Eq(l.UnlockUtf8(Encoding.UTF8.GetBytes(pass)).State, LockState.Unlocked, "UTF-8 bytes");
                    l.Lock();
                    Eq(l.Unlock(pass.ToCharArray()).State, LockState.Unlocked, "char[]");
                }
            });
            h.Test("passcode length rules", () =>
            {
                using (var l = new IdleLock(Fast(new FakeClock())))
                {
                    Contains(Expect<InvalidArgumentException>(() => l.SetPasscode(C("123"))).Message, "4", "min");
                    Contains(Expect<InvalidArgumentException>(() => l.SetPasscodeUtf8(new byte[0])).Message, "empty", "empty");
                    Contains(Expect<InvalidArgumentException>(() => l.SetPasscodeUtf8(Enumerable.Repeat((byte)'x', 1025).ToArray())).Message, "1024", "max");
                }
            });
        }

        // ----------------------------------------------------------------- secrets

        static void Secrets(Harness h)
        {
            h.Test("put, get, remove; the returned array belongs to the caller", () =>
            {
                using (var l = new IdleLock(Fast(new FakeClock())))
                {
                    var token = Encoding.UTF8.GetBytes("eyJhbGciOi");
                    l.PutSecret("token", token);
                    Array.Clear(token, 0, token.Length);
                    var got = l.GetSecret("token");
                    Eq(Encoding.UTF8.GetString(got), "eyJhbGciOi", "value");
                    Array.Clear(got, 0, got.Length);
                    Eq(Encoding.UTF8.GetString(l.GetSecret("token")), "eyJhbGciOi", "a fresh copy");
                    l.PutSecret("empty", new byte[0]);
                    Eq(l.GetSecret("empty").Length, 0, "empty");
                    var max = Enumerable.Repeat((byte)7, 65536).ToArray();
                    l.PutSecret("max", max);
                    Check(l.GetSecret("max").SequenceEqual(max), "64 KiB");
                    l.PutSecret("ünïcødé", new byte[] { 1 });
                    Eq(l.GetSecret("ünïcødé")[0], (byte)1, "UTF-8 name");
                    l.RemoveSecret("token");
                    Expect<NotFoundException>(() => l.GetSecret("token"));
                    Expect<NotFoundException>(() => l.RemoveSecret("token"));
                }
            });
            h.Test("secrets and the gate are closed while locked", () =>
            {
                using (var l = new IdleLock(Fast(new FakeClock())))
                {
                    l.PutSecret("a", new byte[] { 1, 2, 3 });
                    l.RequireUnlocked();
                    l.SetPasscode(C("2468"));
                    l.Lock();
                    Expect<SessionLockedException>(() => l.GetSecret("a"));
                    Expect<SessionLockedException>(() => l.PutSecret("b", new byte[1]));
                    Expect<SessionLockedException>(() => l.RequireUnlocked());
                    l.Unlock(C("2468"));
                    Check(l.GetSecret("a").SequenceEqual(new byte[] { 1, 2, 3 }), "restored");
                }
            });
            h.Test("bad names and values; 256 secrets at most", () =>
            {
                using (var l = new IdleLock(Fast(new FakeClock())))
                {
                    Contains(Expect<InvalidArgumentException>(() => l.PutSecret("", new byte[1])).Message, "empty", "empty");
                    Contains(Expect<InvalidArgumentException>(() => l.PutSecret(new string('n', 65), new byte[1])).Message, "64", "65 bytes");
                    Contains(Expect<InvalidArgumentException>(() => l.PutSecret("a\0b", new byte[1])).Message, "NUL", "NUL");
                    Contains(Expect<InvalidArgumentException>(() => l.PutSecret("big", new byte[65537])).Message, "65536", "big");
                    for (int i = 0; i < 256; i++) l.PutSecret("s" + i, new byte[] { (byte)i });
                    Expect<NoMemoryException>(() => l.PutSecret("one-too-many", new byte[1]));
                }
            });
        }

        // --------------------------------------------------------------- listeners

        static IdleLockOptions Watched(long idleMs)
        {
            return new IdleLockOptions { IdleAfterMs = idleMs, KdfOpslimit = 2, KdfMemlimit = MemlimitFloor };
        }

        static void Listeners(Harness h)
        {
            h.Test("listeners hear each change in seq order, until unsubscribed", () =>
            {
                using (var l = new IdleLock(Fast(new FakeClock())))
                {
                    var heard = new List<Snapshot>();
                    var token = l.Subscribe(s => { lock (heard) heard.Add(s); });
                    l.SetPasscode(C("2468"));
                    l.Lock();
                    l.Unlock(C("2468"));
                    Check(heard.Count >= 3, "heard " + heard.Count);
                    for (int i = 1; i < heard.Count; i++) Check(heard[i].Seq > heard[i - 1].Seq, "seq order");
                    Check(heard.Any(s => s.Reason == LockReason.Manual), "heard the lock");
                    l.Unsubscribe(token);
                    int n = heard.Count;
                    l.Lock();
                    Eq(heard.Count, n, "nothing after unsubscribe");
                    Expect<InvalidArgumentException>(() => l.Unsubscribe(token));
                }
            });
            h.Test("a listener may call into the lock and unsubscribe itself", () =>
            {
                using (var l = new IdleLock(Fast(new FakeClock())))
                {
                    Snapshot inner = null;
                    ulong token = 0;
                    token = l.Subscribe(s => { inner = l.Snapshot(); l.Unsubscribe(token); });
                    l.SetPasscode(C("2468"));
                    Check(inner != null && inner.IsEnabled, "called back in");
                    inner = null;
                    l.Lock();
                    Check(inner == null, "unsubscribed itself");
                }
            });
            h.Test("a listener's exception is thrown from the call that ran it", () =>
            {
                using (var l = new IdleLock(Fast(new FakeClock())))
                {
                    l.SetPasscode(C("2468"));
                    l.Subscribe(s => { throw new ApplicationException("listener bug"); });
                    var e = Expect<CallbackException>(() => l.Lock());
                    Check(e.InnerExceptions[0] is ApplicationException, "inner");
                    Eq(l.Snapshot().State, LockState.Locked, "the call took effect");
                }
            });
            h.Test("a SynchronizationContext hands snapshots to the main loop", () =>
            {
                using (var l = new IdleLock(Fast(new FakeClock())))
                {
                    var ctx = new QueueContext();
                    var threads = new List<int>();
                    var token = l.Subscribe(s => threads.Add(Thread.CurrentThread.ManagedThreadId), ctx);
                    var worker = new Thread(() => l.SetPasscode(C("2468")));
                    worker.Start();
                    worker.Join();
                    Eq(threads.Count, 0, "nothing before the pump");
                    Check(ctx.Pump() > 0, "posted");
                    Eq(threads[0], Thread.CurrentThread.ManagedThreadId, "on the pumping thread");
                    l.Lock();
                    l.Unsubscribe(token);
                    int n = threads.Count;
                    ctx.Pump();
                    Eq(threads.Count, n, "dropped after unsubscribe");
                }
            });
            h.Test("a listener fired from the watcher thread", () =>
            {
                using (var l = new IdleLock(Watched(300)))
                {
                    l.SetPasscode(C("2468"));
                    var locked = new ManualResetEventSlim();
                    int on = 0;
                    l.Subscribe(s => { if (s.State == LockState.Locked) { on = Thread.CurrentThread.ManagedThreadId; locked.Set(); } });
                    l.WatchStart();
                    Check(locked.Wait(10000), "the watcher locked the session with no call from us");
                    Check(on != Thread.CurrentThread.ManagedThreadId, "on another thread");
                    Eq(l.Snapshot().Reason, LockReason.Idle, "IDLE");
                    l.WatchStop();
                }
            });
            h.Test("a listener that throws on the watcher thread is reported, not lost", () =>
            {
                Exception seen = null;
                var done = new ManualResetEventSlim();
                Action<Exception> handler = e => { seen = e; done.Set(); };
                IdleLock.UnobservedCallbackException += handler;
                try
                {
                    using (var l = new IdleLock(Watched(200)))
                    {
                        l.SetPasscode(C("2468"));
                        l.Subscribe(s => { if (s.State == LockState.Locked) throw new ApplicationException("from the watcher"); });
                        l.WatchStart();
                        Check(done.Wait(10000), "reported");
                        Eq(seen.Message, "from the watcher", "the listener's exception");
                        l.Touch(); // nothing pending for this thread
                    }
                }
                finally
                {
                    IdleLock.UnobservedCallbackException -= handler;
                }
            });
            h.Test("WatchStart is idempotent: a lock started on every resume is listed for the exit once", () =>
            {
                using (var l = new IdleLock(Watched(60000)))
                {
                    l.WatchStart();
                    int once = WatchedHandles();
                    for (int i = 0; i < 50; i++) l.WatchStart();
                    Eq(WatchedHandles(), once, "listed once, not once a start");
                    l.WatchStop();
                }
            });
            h.Test("the watcher needs the default clock", () =>
            {
                using (var l = new IdleLock(Fast(new FakeClock())))
                    Expect<InvalidArgumentException>(() => l.WatchStart());
            });
            h.Test("dispose from a listener on the watcher thread", () =>
            {
                int live = LiveHandles();
                var l = new IdleLock(Watched(200));
                l.SetPasscode(C("2468"));
                var disposed = new ManualResetEventSlim();
                l.Subscribe(s => { if (s.State == LockState.Locked) { l.Dispose(); disposed.Set(); } });
                l.WatchStart();
                Check(disposed.Wait(10000), "disposed");
                WaitFor(() => LiveHandles() == live, 5000, "destroyed on the watcher thread");
                Expect<ObjectDisposedException>(() => l.Snapshot());
            });
            h.Test("a clock that throws locks the session; one that calls in is refused", () =>
            {
                var clock = new FakeClock();
                bool broken = false, reenter = false;
                IdleLock self = null;
                var o = Fast(null);
                o.Clock = () =>
                {
                    if (broken) throw new ArithmeticException("clock broke");
                    if (reenter) self.Touch();
                    return clock.Now();
                };
                using (var l = new IdleLock(o))
                {
                    self = l;
                    l.SetPasscode(C("2468"));
                    broken = true;
                    Check(Expect<CallbackException>(() => l.Touch()).InnerExceptions[0] is ArithmeticException, "cause");
                    broken = false;
                    Eq(l.Snapshot().Reason, LockReason.Clock, "failed closed");
                    l.Unlock(C("2468"));
                    reenter = true;
                    Check(Expect<CallbackException>(() => l.Check()).InnerExceptions[0] is InvalidOperationException, "refused");
                    reenter = false;
                    Eq(l.Snapshot().Reason, LockReason.Clock, "the failed reading locked it");
                }
            });
        }

        // -------------------------------------------------------------- biometrics

        static IdleLock Enabled(IAuthenticator ks)
        {
            var o = Fast(new FakeClock());
            o.Authenticator = ks;
            o.UnlockReason = "Unlock your notes";
            var l = new IdleLock(o);
            l.SetPasscode(C("2468"));
            l.EnableBiometrics();
            return l;
        }

        static void Biometrics(Harness h)
        {
            h.Test("enable, lock, unlock with the check; the binding clears the secret's arrays", () =>
            {
                var ks = new FakeKeystore();
                using (var l = Enabled(ks))
                {
                    Check(l.Snapshot().IsBiometricsEnabled, "enabled");
                    Eq(ks.Item.Length, IdleLock.AuthSecretBytes, "32 bytes kept");
                    Check(ks.LastStoreArgument.All(b => b == 0), "StoreSecret's argument cleared");
                    l.Lock();
                    Eq(l.UnlockWithBiometrics().State, LockState.Unlocked, "unlocked");
                    Eq(ks.LastReason, "Unlock your notes", "reason");
                    Check(ks.LastLoadReturned.All(b => b == 0), "LoadSecret's array cleared");
                    l.DisableBiometrics();
                    Eq(ks.Deletes, 1, "DeleteSecret");
                }
            });
            h.Test("failed, cancelled, replaced: LockUnavailable, never counted", () =>
            {
                var ks = new FakeKeystore();
                using (var l = Enabled(ks))
                {
                    l.Lock();
                    ks.Outcome = AuthResult.Cancelled;
                    Contains(Expect<LockUnavailableException>(() => l.UnlockWithBiometrics()).Message.ToLowerInvariant(), "cancel", "says cancelled");
                    ks.Outcome = AuthResult.Failed;
                    Expect<LockUnavailableException>(() => l.UnlockWithBiometrics());
                    Eq(l.Snapshot().AttemptsRemaining, 5, "not counted");
                    ks.Outcome = AuthResult.Ok;
                    ks.Item = new byte[32];
                    Expect<LockUnavailableException>(() => l.UnlockWithBiometrics());
                    Check(!l.Snapshot().IsBiometricsEnabled, "a wrong secret turns it off");
                    ks.WrongLength = true;
                    Eq(l.Unlock(C("2468")).State, LockState.Unlocked, "the passcode remains");
                }
            });
            h.Test("an authenticator bug surfaces as CallbackException", () =>
            {
                var ks = new FakeKeystore();
                using (var l = Enabled(ks))
                {
                    l.Lock();
                    ks.WrongLength = true;
                    var e = Expect<CallbackException>(() => l.UnlockWithBiometrics());
                    Contains(e.InnerExceptions[0].Message, "31 bytes", "names the length");
                    Check(e.CallFailure is LockUnavailableException, "the call's own failure");
                }
            });
            h.Test("the async unlock runs on a worker until the prompt answers", () =>
            {
                var ks = new FakeKeystore();
                using (var l = Enabled(ks))
                {
                    l.Lock();
                    ks.Answer = new ManualResetEventSlim();
                    Task<Snapshot> t = l.UnlockWithBiometricsAsync();
                    Thread.Sleep(50);
                    Check(!t.IsCompleted, "waiting for the person");
                    l.Touch();
                    ks.Answer.Set();
                    Check(t.Wait(10000), "completed");
                    Eq(t.Result.State, LockState.Unlocked, "unlocked");
                    Check(ks.LoadThread != Thread.CurrentThread.ManagedThreadId, "LoadSecret ran on a worker");
                    l.Lock();
                    ks.Answer = null;
                    ks.Outcome = AuthResult.Cancelled;
                    var ae = Expect<AggregateException>(() => l.UnlockWithBiometricsAsync().Wait());
                    Check(ae.InnerExceptions[0] is LockUnavailableException, "faulted with the call's exception");
                }
            });
            h.Test("unavailable hardware: enabling is refused", () =>
            {
                var ks = new FakeKeystore { Available = false };
                var o = Fast(new FakeClock());
                o.Authenticator = ks;
                using (var l = new IdleLock(o))
                {
                    l.SetPasscode(C("2468"));
                    Expect<LockUnavailableException>(() => l.EnableBiometrics());
                }
            });
        }

        // ------------------------------------------------------------------- store

        static IdleLockOptions Stored(string path)
        {
            return new IdleLockOptions { IdleAfterMs = 60000, KdfOpslimit = 2, KdfMemlimit = MemlimitFloor, StorePath = path };
        }

        // A test body given a fresh temporary folder, removed with all it
        // holds afterwards.
        static Action InTempDir(Action<string> body)
        {
            return () =>
            {
                var d = Path.Combine(Path.GetTempPath(), "idlelock-cs-" + Guid.NewGuid().ToString("N"));
                Directory.CreateDirectory(d);
                try { body(d); }
                finally { Directory.Delete(d, true); }
            };
        }

        static void Store(Harness h)
        {
            h.Test("a stored session outlives its handle; sign-out deletes it", InTempDir(dir =>
            {
                var path = Path.Combine(dir, "session");
                using (var a = new IdleLock(Stored(path)))
                {
                    a.SetPasscode(C("2468"));
                    a.PutSecret("token", new byte[] { 4, 2 });
                }
                using (var b = new IdleLock(Stored(path)))
                {
                    Eq(b.Snapshot().Reason, LockReason.Startup, "locked from create");
                    b.Start(); // a stored session hands out nothing before start
                    b.Unlock(C("2468"));
                    Check(b.GetSecret("token").SequenceEqual(new byte[] { 4, 2 }), "read back");
                    b.Disable();
                    Check(!File.Exists(path), "deleted");
                }
            }));
            h.Test("a damaged store is refused and left untouched", InTempDir(dir =>
            {
                var path = Path.Combine(dir, "session");
                var junk = Enumerable.Repeat((byte)0x5A, 600).ToArray();
                File.WriteAllBytes(path, junk);
                Eq(Expect<StorageException>(() => new IdleLock(Stored(path))).Status, 7, "status");
                Check(File.ReadAllBytes(path).SequenceEqual(junk), "untouched");
            }));
            h.Test("a device key opens the session at create; another key is refused", InTempDir(dir =>
            {
                var path = Path.Combine(dir, "session");
                var key = Enumerable.Repeat((byte)9, 32).ToArray();
                var o = Stored(path);
                o.DeviceKey = key;
                o.LockOnStart = false;
                using (var a = new IdleLock(o)) a.SetPasscode(C("2468"));
                using (var b = new IdleLock(o)) Eq(b.Start().State, LockState.Unlocked, "opened");
                o.DeviceKey = new byte[32];
                Expect<StorageException>(() => new IdleLock(o));
            }));
        }

        // ---------------------------------------------------------------- lifetime

        static Dictionary<string, Action> EveryCall(IdleLock l)
        {
            return new Dictionary<string, Action>
            {
                { "Start", () => l.Start() }, { "Touch", l.Touch }, { "Inactive", () => l.Inactive() },
                { "Background", () => l.Background() }, { "Foreground", () => l.Foreground() },
                { "Check", () => l.Check() }, { "Lock", () => l.Lock() }, { "Snapshot", () => l.Snapshot() },
                { "Lifecycle", () => l.Lifecycle(Platform.IosScenePhase, "active") },
                { "PromptBegin", () => l.PromptBegin() }, { "PromptEnd", () => l.PromptEnd(1) },
                { "OpenPrompt", () => l.OpenPrompt() },
                { "SetPasscode", () => l.SetPasscode(C("2468")) },
                { "SetPasscodeUtf8", () => l.SetPasscodeUtf8(new byte[] { 50, 52, 54, 56 }) },
                { "SetPasscode(range)", () => l.SetPasscode(C("2468"), 0, 4) },
                { "SetPasscodeUtf8(range)", () => l.SetPasscodeUtf8(new byte[] { 50, 52, 54, 56 }, 0, 4) },
                { "Unlock", () => l.Unlock(C("2468")) }, { "UnlockUtf8", () => l.UnlockUtf8(new byte[] { 50, 52, 54, 56 }) },
                { "Unlock(range)", () => l.Unlock(C("2468"), 0, 4) },
                { "UnlockUtf8(range)", () => l.UnlockUtf8(new byte[] { 50, 52, 54, 56 }, 0, 4) },
                { "UnlockWithBiometricsAsync(token)", () => l.UnlockWithBiometricsAsync(new CancellationTokenSource().Token).Wait() },
                { "EnableBiometrics", l.EnableBiometrics }, { "DisableBiometrics", l.DisableBiometrics },
                { "UnlockWithBiometrics", () => l.UnlockWithBiometrics() },
                { "UnlockWithBiometricsAsync", () => l.UnlockWithBiometricsAsync().Wait() },
                { "BeginBiometricUnlock", () => l.BeginBiometricUnlock() },
                { "BeginBiometricEnable", () => l.BeginBiometricEnable() },
                { "UnlockWithBiometricsAsync(check)", () => l.UnlockWithBiometricsAsync(r => Task.FromResult(new byte[32])).Wait() },
                { "EnableBiometricsAsync(store)", () => l.EnableBiometricsAsync((r, s) => Task.FromResult(0)).Wait() },
                { "RequireRecentAuth", () => l.RequireRecentAuth(1000) },
                { "RequireRecentAuth(TimeSpan)", () => l.RequireRecentAuth(TimeSpan.FromSeconds(1)) },
                { "Disable", l.Disable }, { "Subscribe", () => l.Subscribe(s => { }) },
                { "Subscribe(context)", () => l.Subscribe(s => { }, new QueueContext()) },
                { "Unsubscribe", () => l.Unsubscribe(1) }, { "PutSecret", () => l.PutSecret("n", new byte[1]) },
                { "PutSecret(range)", () => l.PutSecret("n", new byte[1], 0, 1) },
                { "GetSecret", () => l.GetSecret("n") }, { "RemoveSecret", () => l.RemoveSecret("n") },
                { "RequireUnlocked", l.RequireUnlocked }, { "WatchStart", l.WatchStart }, { "WatchStop", l.WatchStop },
            };
        }

        static void MakeForgotten(int n)
        {
            for (int i = 0; i < n; i++)
            {
                var l = new IdleLock(new IdleLockOptions { IdleAfterMs = 60000 });
                // A listener that refers to its lock: held weakly from native memory, so
                // the cycle does not pin the handle.
                l.Subscribe(s => l.Snapshot());
                l.PutSecret("s", new byte[] { (byte)i });
            }
        }

        static KeyValuePair<string, Action> P(string paramName, Action call)
        {
            return new KeyValuePair<string, Action>(paramName, call);
        }

        static void Lifetime(Harness h)
        {
            h.Test("every call after Dispose is ObjectDisposedException; Dispose is idempotent", () =>
            {
                int live = LiveHandles();
                var l = new IdleLock(Fast(new FakeClock()));
                Eq(LiveHandles(), live + 1, "one handle");
                l.Dispose();
                l.Dispose();
                Check(l.IsDisposed, "IsDisposed");
                Eq(LiveHandles(), live, "destroyed once");
                var calls = EveryCall(l);
                foreach (var c in calls) Expect<ObjectDisposedException>(c.Value);
                // Every public instance method but Dispose, IsDisposed and ToString is listed.
                var members = typeof(IdleLock).GetMethods(System.Reflection.BindingFlags.Public | System.Reflection.BindingFlags.Instance |
                                                          System.Reflection.BindingFlags.DeclaredOnly)
                    .Where(m => m.Name != "Dispose" && m.Name != "get_IsDisposed" && m.Name != "ToString").Count();
                Eq(calls.Count, members, "covers every public instance method");
            });
            h.Test("forgotten handles are finalized and destroyed without a leak", () =>
            {
                int live = LiveHandles();
                MakeForgotten(200);
                Check(LiveHandles() >= live + 1, "created");
                var until = DateTime.UtcNow.AddSeconds(20);
                while (LiveHandles() > live && DateTime.UtcNow < until)
                {
                    GC.Collect();
                    GC.WaitForPendingFinalizers();
                }
                Eq(LiveHandles(), live, "every forgotten handle was destroyed");
            });
            h.Test("Dispose from a listener inside a call: the call finishes, then the handle goes", () =>
            {
                int live = LiveHandles();
                var l = new IdleLock(Fast(new FakeClock()));
                l.SetPasscode(C("2468"));
                l.Subscribe(s => l.Dispose());
                l.Lock();
                Check(l.IsDisposed, "disposed");
                Eq(LiveHandles(), live, "destroyed after the call returned");
            });
            h.Test("Dispose while a call is in flight never waits; the last call out destroys", () =>
            {
                int live = LiveHandles();
                var ks = new FakeKeystore();
                var l = Enabled(ks);
                l.Lock();
                ks.Answer = new ManualResetEventSlim();
                var t = l.UnlockWithBiometricsAsync();
                Thread.Sleep(50);
                l.Dispose();
                Check(l.IsDisposed, "disposed");
                Eq(LiveHandles(), live + 1, "the call in flight keeps the handle");
                ks.Answer.Set();
                try { t.Wait(10000); } catch (AggregateException) { }
                WaitFor(() => LiveHandles() == live, 5000, "the last call out destroyed it");
            });
        }

        // --------------------------------------------------------------- bad input

        static void BadInput(Harness h)
        {
            h.Test("bad input for every entry point changes nothing: ArgumentNullException for a null, InvalidArgumentException for a value", () =>
            {
                using (var l = new IdleLock(Fast(new FakeClock())))
                {
                    l.SetPasscode(C("2468"));
                    l.PutSecret("keep", new byte[] { 1 });
                    l.Lock();
                    var before = l.Snapshot();
                    var nulls = new Dictionary<string, KeyValuePair<string, Action>>
                    {
                        { "Lifecycle(null)", P("stateName", () => l.Lifecycle(Platform.IosScenePhase, null)) },
                        { "SetPasscode(null)", P("passcode", () => l.SetPasscode(null)) },
                        { "SetPasscode(null, 0, 0)", P("passcode", () => l.SetPasscode(null, 0, 0)) },
                        { "SetPasscodeUtf8(null)", P("utf8", () => l.SetPasscodeUtf8(null)) },
                        { "SetPasscodeUtf8(null, 0, 0)", P("utf8", () => l.SetPasscodeUtf8(null, 0, 0)) },
                        { "Unlock(null)", P("passcode", () => l.Unlock(null)) },
                        { "Unlock(null, 0, 0)", P("passcode", () => l.Unlock(null, 0, 0)) },
                        { "UnlockUtf8(null)", P("utf8", () => l.UnlockUtf8(null)) },
                        { "UnlockUtf8(null, 0, 0)", P("utf8", () => l.UnlockUtf8(null, 0, 0)) },
                        { "Subscribe(null)", P("listener", () => l.Subscribe(null)) },
                        { "Subscribe(null, ctx)", P("listener", () => l.Subscribe(null, new QueueContext())) },
                        { "PutSecret(null name)", P("name", () => l.PutSecret(null, new byte[1])) },
                        { "PutSecret(null value)", P("value", () => l.PutSecret("n", null)) },
                        { "PutSecret(name, null, 0, 0)", P("value", () => l.PutSecret("n", null, 0, 0)) },
                        { "GetSecret(null)", P("name", () => l.GetSecret(null)) },
                        { "RemoveSecret(null)", P("name", () => l.RemoveSecret(null)) },
                        { "UnlockWithBiometricsAsync(null)", P("check", () => l.UnlockWithBiometricsAsync(null)) },
                        { "EnableBiometricsAsync(null)", P("store", () => l.EnableBiometricsAsync(null)) },
                    };
                    foreach (var b in nulls)
                    {
                        var e = Expect<ArgumentNullException>(b.Value.Value);
                        Eq(e.ParamName, b.Value.Key, b.Key + ": ParamName");
                    }
                    var bad = new Dictionary<string, Action>
                    {
                        { "Lifecycle(bad platform)", () => l.Lifecycle((Platform)0, "active") },
                        { "Lifecycle(NUL)", () => l.Lifecycle(Platform.IosScenePhase, "act\0ive") },
                        { "Lifecycle(unknown)", () => l.Lifecycle(Platform.IosScenePhase, "ACTIVE") },
                        { "PromptEnd(never issued)", () => l.PromptEnd(987654321) },
                        { "PromptEnd(0)", () => l.PromptEnd(0) },
                        { "SetPasscodeUtf8(invalid)", () => l.SetPasscodeUtf8(new byte[] { 0xC0, 0x80, 97, 98 }) },
                        { "UnlockUtf8(empty)", () => l.UnlockUtf8(new byte[0]) },
                        { "Unlock(empty)", () => l.Unlock(new char[0]) },
                        { "UnlockUtf8(1025)", () => l.UnlockUtf8(new byte[1025]) },
                        { "Unlock(lone surrogate)", () => l.Unlock(new[] { '\udfff' }) },
                        { "UnlockUtf8(invalid)", () => l.UnlockUtf8(new byte[] { 0xFF }) },
                        { "Unsubscribe(never issued)", () => l.Unsubscribe(555) },
                        { "PutSecret(empty)", () => l.PutSecret("", new byte[1]) },
                        { "GetSecret(65)", () => l.GetSecret(new string('k', 65)) },
                        { "GetSecret(NUL)", () => l.GetSecret("ke\0ep") },
                        { "RemoveSecret(surrogate)", () => l.RemoveSecret("\ud800x") },
                        { "RequireRecentAuth(0)", () => l.RequireRecentAuth(0) },
                    };
                    foreach (var b in bad)
                    {
                        var e = Expect<InvalidArgumentException>(b.Value);
                        Check(!string.IsNullOrEmpty(e.Message), b.Key + ": a message");
                        Check(e.Snapshot == null, b.Key + ": no snapshot");
                        NoCNames(e.Message);
                    }
                    var after = l.Snapshot();
                    Eq(after.Seq, before.Seq, "nothing changed");
                    Eq(after.AttemptsRemaining, before.AttemptsRemaining, "no attempt counted");
                    l.Unlock(C("2468"));
                    Eq(l.GetSecret("keep")[0], (byte)1, "intact");
                }
            });
            h.Test("(array, offset, count): only the range is read; a range outside the array is refused, never read", () =>
            {
                using (var l = new IdleLock(Fast(new FakeClock())))
                {
                    // A fixed buffer the host fills from key events: the passcode sits in the middle.
                    var typed = C("xx2468yy");
                    l.SetPasscode(typed, 2, 4);
                    Eq(new string(typed), "xx2468yy", "the caller's buffer is untouched");
                    l.Lock();
                    Expect<InvalidPasscodeException>(() => l.Unlock(typed, 0, 6)); // "xx2468": counted, wrong
                    Eq(l.Unlock(typed, 2, 4).State, LockState.Unlocked, "the range alone is the passcode");
                    var utf8 = Encoding.UTF8.GetBytes("..1357..");
                    l.SetPasscodeUtf8(utf8, 2, 4);
                    l.Lock();
                    Eq(l.UnlockUtf8(utf8, 2, 4).State, LockState.Unlocked, "UTF-8 range");
                    var value = new byte[] { 9, 9, 1, 2, 3, 9 };
                    l.PutSecret("mid", value, 2, 3);
                    Check(l.GetSecret("mid").SequenceEqual(new byte[] { 1, 2, 3 }), "the value is the range");
                    l.PutSecret("none", value, 6, 0);
                    Eq(l.GetSecret("none").Length, 0, "an empty range at the end");
                    var seq = l.Snapshot().Seq;
                    int attempts = l.Snapshot().AttemptsRemaining;
                    var ranges = new Dictionary<string, Action>
                    {
                        { "SetPasscode", () => l.SetPasscode(typed, 0, typed.Length + 1) },
                        { "SetPasscode(offset)", () => l.SetPasscode(typed, typed.Length, 1) },
                        { "SetPasscode(overflow)", () => l.SetPasscode(typed, int.MaxValue, int.MaxValue) },
                        { "SetPasscodeUtf8", () => l.SetPasscodeUtf8(utf8, 5, 4) },
                        { "Unlock", () => l.Unlock(typed, 7, 2) },
                        { "Unlock(overflow)", () => l.Unlock(typed, 1, int.MaxValue) },
                        { "UnlockUtf8", () => l.UnlockUtf8(utf8, 8, 1) },
                        { "PutSecret", () => l.PutSecret("n", value, 4, 3) },
                        { "PutSecret(overflow)", () => l.PutSecret("n", value, int.MaxValue, 1) },
                    };
                    foreach (var r in ranges)
                    {
                        var e = Expect<ArgumentException>(r.Value);
                        Check(e is InvalidArgumentException, r.Key + ": InvalidArgumentException, got " + e.GetType().Name);
                        Eq(e.ParamName, "count", r.Key + ": ParamName");
                    }
                    var negative = new Dictionary<string, KeyValuePair<string, Action>>
                    {
                        { "SetPasscode(-1)", P("offset", () => l.SetPasscode(typed, -1, 4)) },
                        { "SetPasscodeUtf8(count -1)", P("count", () => l.SetPasscodeUtf8(utf8, 0, -1)) },
                        { "Unlock(-1)", P("offset", () => l.Unlock(typed, -1, 1)) },
                        { "UnlockUtf8(count -1)", P("count", () => l.UnlockUtf8(utf8, 1, -1)) },
                        { "PutSecret(-1)", P("offset", () => l.PutSecret("n", value, -1, 1)) },
                        { "PutSecret(count int.MinValue)", P("count", () => l.PutSecret("n", value, 0, int.MinValue)) },
                    };
                    foreach (var r in negative) Eq(Expect<ArgumentOutOfRangeException>(r.Value.Value).ParamName, r.Value.Key, r.Key);
                    Eq(l.Snapshot().Seq, seq, "nothing changed");
                    Eq(l.Snapshot().AttemptsRemaining, attempts, "no attempt counted");
                    Expect<NotFoundException>(() => l.GetSecret("n"));
                }
            });
            h.Test("a missing folder is a storage error that says what to check", () =>
                Contains(Expect<StorageException>(() => new IdleLock(Stored("/no/such/folder/x"))).Message, "folder", "message"));
        }

        // ----------------------------------------------------------------- threads

        static void Threads(Harness h)
        {
            h.Test("Dispose races calls and nested calls: destroyed exactly once, after the last call, never blocking (50 rounds)", () =>
            {
                int live = LiveHandles();
                var rnd = new Random(1234);
                for (int round = 0; round < 50; round++)
                {
                    var l = new IdleLock(Fast(new FakeClock()));
                    l.SetPasscode(C("2468"));
                    // A listener that calls back into the lock: calls nested two deep.
                    l.Subscribe(s => { try { l.Snapshot(); } catch (ObjectDisposedException) { } });
                    var errors = new List<Exception>();
                    var go = new ManualResetEventSlim();
                    var threads = new Thread[3];
                    for (int t = 0; t < threads.Length; t++)
                    {
                        int id = t;
                        threads[t] = new Thread(() =>
                        {
                            go.Wait();
                            try
                            {
                                for (int i = 0; ; i++)
                                {
                                    if (id == 0) l.Touch();
                                    else if (id == 1) l.Snapshot();
                                    else if (i % 2 == 0) l.Lock();
                                    else l.Check();
                                }
                            }
                            catch (ObjectDisposedException) { }
                            catch (Exception e) { lock (errors) errors.Add(e); }
                        });
                        threads[t].Start();
                    }
                    go.Set();
                    Thread.Sleep(rnd.Next(0, 8));
                    var sw = System.Diagnostics.Stopwatch.StartNew();
                    l.Dispose();
                    Check(sw.ElapsedMilliseconds < 2000, "round " + round + ": Dispose took " + sw.ElapsedMilliseconds + " ms");
                    foreach (var t in threads) Check(t.Join(20000), "round " + round + ": thread ended");
                    Check(errors.Count == 0, "round " + round + ": " + string.Join("; ", errors.Select(e => e.ToString())));
                    WaitFor(() => LiveHandles() == live, 5000, "round " + round + ": destroyed");
                }
            });
            h.Test("four threads hammer one handle, then it is disposed under them", () =>
            {
                int live = LiveHandles();
                var l = new IdleLock(new IdleLockOptions { IdleAfterMs = 3600000, KdfOpslimit = 2, KdfMemlimit = MemlimitFloor });
                l.SetPasscode(C("2468"));
                var unexpected = new List<Exception>();
                int heard = 0, disposedSeen = 0;
                l.Subscribe(s => Interlocked.Increment(ref heard));
                var go = new ManualResetEventSlim();
                var threads = new Thread[4];
                for (int t = 0; t < threads.Length; t++)
                {
                    int id = t;
                    threads[t] = new Thread(() =>
                    {
                        go.Wait();
                        for (int i = 0; ; i++)
                        {
                            try
                            {
                                switch ((i + id) % 8)
                                {
                                    case 0: l.Touch(); break;
                                    case 1: l.Snapshot(); break;
                                    case 2: l.PutSecret("t" + id, new byte[] { (byte)i }); break;
                                    case 3: l.GetSecret("t" + id); break;
                                    case 4: if (i % 64 == 4) l.Lock(); else l.Check(); break;
                                    case 5: if (i % 64 == 5) l.Unlock(C(i % 128 == 5 ? "0000" : "2468")); else l.Touch(); break;
                                    case 6: l.Unsubscribe(l.Subscribe(s => { })); break;
                                    default: l.RequireUnlocked(); break;
                                }
                            }
                            catch (SessionLockedException) { }
                            catch (InvalidPasscodeException) { }
                            catch (NotFoundException) { }
                            catch (LockedOutException) { return; }
                            catch (ObjectDisposedException) { Interlocked.Increment(ref disposedSeen); return; }
                            catch (Exception e) { lock (unexpected) unexpected.Add(e); return; }
                        }
                    });
                    threads[t].Start();
                }
                go.Set();
                Thread.Sleep(1500);
                l.Dispose();
                foreach (var t in threads) Check(t.Join(20000), "thread ended");
                Check(unexpected.Count == 0, "unexpected: " + string.Join("; ", unexpected.Select(e => e.ToString())));
                Eq(disposedSeen, threads.Length, "every thread saw the Dispose as ObjectDisposedException");
                Check(heard > 0, "listeners ran meanwhile");
                WaitFor(() => LiveHandles() == live, 5000, "destroyed exactly once");
            });
        }
    }
}
