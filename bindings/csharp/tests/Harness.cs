// SPDX-License-Identifier: MIT
// A plain test runner (no NUnit on a fresh Debian): each test is a named block;
// a failure prints its name and the exception, a pass prints nothing; the run
// ends with "N passed, N failed". With IDLELOCK_TEST_ONLY set, only the tests
// whose name contains it run (a name that matches none fails the run).
using System;
using System.Collections.Generic;
using System.Reflection;
using System.Threading;
using LibIdleLock;

namespace LibIdleLock.Tests
{
    sealed class Harness
    {
        int passed, failed;
        readonly string only = Environment.GetEnvironmentVariable("IDLELOCK_TEST_ONLY");

        public void Test(string name, Action body)
        {
            if (only != null && !name.Contains(only)) return;
            try
            {
                body();
                passed++;
            }
            catch (Exception e)
            {
                failed++;
                Console.WriteLine("FAIL " + name + ": " + e);
            }
        }

        public int Finish()
        {
            if (only != null && passed + failed == 0)
            {
                Console.WriteLine("FAIL IDLELOCK_TEST_ONLY=" + only + ": no test's name contains it");
                failed++;
            }
            Console.WriteLine(passed + " passed, " + failed + " failed");
            return failed;
        }

        public static void Check(bool condition, string what)
        {
            if (!condition) throw new Exception("check failed: " + what);
        }

        public static void Eq<T>(T got, T want, string what)
        {
            if (!EqualityComparer<T>.Default.Equals(got, want))
                throw new Exception(what + ": got " + got + ", want " + want);
        }

        public static T Expect<T>(Action body) where T : Exception
        {
            try
            {
                body();
            }
            catch (Exception e)
            {
                var t = e as T;
                if (t != null) return t;
                throw new Exception("expected " + typeof(T).Name + ", got " + e.GetType().Name + ": " + e.Message, e);
            }
            throw new Exception("expected " + typeof(T).Name + ", nothing was thrown");
        }

        public static void Contains(string text, string part, string what)
        {
            if (text == null || !text.Contains(part)) throw new Exception(what + ": \"" + text + "\" lacks \"" + part + "\"");
        }

        public const ulong MemlimitFloor = 19UL * 1024 * 1024;

        /// <summary>A clock the test moves by hand.</summary>
        public sealed class FakeClock
        {
            long now = 1000000;
            public long Now() { return Interlocked.Read(ref now); }
            public void Advance(long ms) { Interlocked.Add(ref now, ms); }
        }

        /// <summary>Idle 60 s, background 30 s, Argon2id at OWASP's floor, the given clock.</summary>
        public static IdleLockOptions Fast(FakeClock clock)
        {
            return new IdleLockOptions
            {
                IdleAfterMs = 60000,
                BackgroundAfterMs = 30000,
                KdfOpslimit = 2,
                KdfMemlimit = MemlimitFloor,
                Clock = clock == null ? null : new Func<long>(clock.Now),
            };
        }

        public static char[] C(string s) { return s.ToCharArray(); }

        /// <summary>Handles not yet destroyed (the binding's internal counter, read by reflection).</summary>
        public static int LiveHandles()
        {
            var t = typeof(IdleLock).Assembly.GetType("LibIdleLock.IdleLockHandle");
            return (int)t.GetField("Live", BindingFlags.NonPublic | BindingFlags.Static).GetValue(null);
        }

        /// <summary>Handles the binding stops at exit (Watchers, read by reflection).</summary>
        public static int WatchedHandles()
        {
            var t = typeof(IdleLock).Assembly.GetType("LibIdleLock.Watchers");
            var list = (System.Collections.ICollection)t.GetField("running", BindingFlags.NonPublic | BindingFlags.Static).GetValue(null);
            lock (list) return list.Count;
        }

        public static void WaitFor(Func<bool> condition, int ms, string what)
        {
            var until = DateTime.UtcNow.AddMilliseconds(ms);
            while (!condition())
            {
                if (DateTime.UtcNow > until) throw new Exception("timed out: " + what);
                Thread.Sleep(5);
            }
        }
    }

    /// <summary>An IAuthenticator in memory, with the outcomes a real keystore has.</summary>
    sealed class FakeKeystore : IAuthenticator
    {
        public volatile bool Available = true;
        public AuthResult Outcome = AuthResult.Ok;
        public byte[] Item, LastStoreArgument, LastLoadReturned;
        public string LastReason;
        public bool WrongLength;
        public ManualResetEventSlim Answer; // when set, LoadSecret waits for it
        public int LoadThread;
        public int Deletes;

        public bool IsAvailable() { return Available; }

        public void StoreSecret(byte[] secret)
        {
            LastStoreArgument = secret;
            Item = (byte[])secret.Clone();
        }

        public byte[] LoadSecret(string reason)
        {
            LastReason = reason;
            LoadThread = Thread.CurrentThread.ManagedThreadId;
            var answer = Answer;
            if (answer != null && !answer.Wait(10000)) throw new AuthenticationException(AuthResult.Cancelled, "timed out");
            if (Outcome != AuthResult.Ok) throw new AuthenticationException(Outcome, "the fake keystore says " + Outcome);
            if (Item == null) throw new AuthenticationException(AuthResult.Unavailable, "no item");
            var o = new byte[WrongLength ? 31 : Item.Length];
            Array.Copy(Item, o, o.Length);
            LastLoadReturned = o;
            return o;
        }

        public void DeleteSecret()
        {
            Deletes++;
            Item = null;
        }
    }

    /// <summary>A SynchronizationContext whose posts wait in a queue until the "main loop" pumps them.</summary>
    sealed class QueueContext : SynchronizationContext
    {
        readonly Queue<KeyValuePair<SendOrPostCallback, object>> queue = new Queue<KeyValuePair<SendOrPostCallback, object>>();

        public override void Post(SendOrPostCallback d, object state)
        {
            lock (queue) queue.Enqueue(new KeyValuePair<SendOrPostCallback, object>(d, state));
        }

        public int Pump()
        {
            int n = 0;
            while (true)
            {
                KeyValuePair<SendOrPostCallback, object> item;
                lock (queue)
                {
                    if (queue.Count == 0) return n;
                    item = queue.Dequeue();
                }
                item.Key(item.Value);
                n++;
            }
        }
    }
}
