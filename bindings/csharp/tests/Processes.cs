// SPDX-License-Identifier: MIT
// Dispose from every place a listener runs, and a program that must exit: each
// risky scenario runs in a child Mono process (this executable with --child
// NAME), so a crash or a hang is a failed test, not the end of the run.
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Threading;
using LibIdleLock;
using static LibIdleLock.Tests.Harness;

namespace LibIdleLock.Tests
{
    static partial class Program
    {
        /// <summary>Runs this test program as `mono --debug EXE --child name` with the same
        /// environment; fails on a non-zero exit (a crash: SIGSEGV is 139) or when it has not
        /// ended within limitMs (a hang; the child is killed). Returns its output.</summary>
        static string RunChild(string name, int limitMs)
        {
            var exe = System.Reflection.Assembly.GetEntryAssembly().Location;
            var info = new ProcessStartInfo("mono", "--debug \"" + exe + "\" --child " + name)
            {
                UseShellExecute = false,
                RedirectStandardOutput = true,
                RedirectStandardError = true,
            };
            using (var p = Process.Start(info))
            {
                var stdout = p.StandardOutput.ReadToEndAsync();
                var stderr = p.StandardError.ReadToEndAsync();
                if (!p.WaitForExit(limitMs))
                {
                    try { p.Kill(); } catch (Exception) { }
                    p.WaitForExit(10000);
                    throw new Exception("child " + name + " did not end within " + limitMs + " ms (a hang)\n" + stdout.Result + stderr.Result);
                }
                p.WaitForExit();
                string output = stdout.Result + stderr.Result;
                if (p.ExitCode != 0) throw new Exception("child " + name + " exited " + p.ExitCode + ":\n" + output);
                return output;
            }
        }

        /// <summary>The scenarios a child process runs; exit 0 when it held.</summary>
        static int Child(string name)
        {
            try
            {
                switch (name)
                {
                    case "dispose-in-watcher-listener": DisposeInWatcherListener(); break;
                    case "dispose-during-watcher-delivery": DisposeDuringWatcherDelivery(); break;
                    case "finalized-during-watcher-delivery": FinalizedDuringWatcherDelivery(); break;
                    case "exit-with-undisposed-watcher": ExitWithUndisposedWatcher(); break;
                    case "abort-in-listener": AbortInCallback(false); break;
                    case "abort-in-clock": AbortInCallback(true); break;
                    default: Console.WriteLine("unknown child " + name); return 2;
                }
                return 0;
            }
            catch (Exception e)
            {
                Console.WriteLine(e);
                return 1;
            }
        }

        static void Processes(Harness h)
        {
            h.Test("Dispose from a watcher listener: the rest of the delivery does not run, no crash (child process)",
                   () => RunChild("dispose-in-watcher-listener", 120000));
            h.Test("Dispose from another thread while the watcher delivers: never blocks, nothing runs after it (child process)",
                   () => RunChild("dispose-during-watcher-delivery", 120000));
            h.Test("locks forgotten while their watchers deliver are finalized without a crash (child process)",
                   () => RunChild("finalized-during-watcher-delivery", 120000));
            h.Test("a program whose undisposed lock's watcher ran a listener exits (child process)", () =>
            {
                var output = RunChild("exit-with-undisposed-watcher", 120000);
                Contains(output, "Main returns", "the child got to the end of Main");
            });
            h.Test("a thread aborted in a listener: the library's delivery and call finish, then the abort goes on (child process)",
                   () => RunChild("abort-in-listener", 60000));
            h.Test("a thread aborted in the clock (the library's lock held): the lock still answers, the abort goes on (child process)",
                   () => RunChild("abort-in-clock", 60000));
            h.Test("Dispose from a listener on a host thread: the other listeners of that delivery do not run", () =>
            {
                int live = LiveHandles();
                var l = new IdleLock(Fast(new FakeClock()));
                l.SetPasscode(C("2468"));
                bool disposedReturned = false;
                int after = 0;
                l.Subscribe(s => { if (s.IsLocked) { l.Dispose(); disposedReturned = true; } });
                for (int i = 0; i < 7; i++) l.Subscribe(s => { if (disposedReturned) Interlocked.Increment(ref after); });
                Eq(l.Lock().State, LockState.Locked, "the call's outcome stands");
                Check(disposedReturned, "disposed inside");
                Eq(after, 0, "listeners run after Dispose returned");
                Eq(LiveHandles(), live, "destroyed once the call returned");
            });
            h.Test("Dispose from another thread while a host call delivers: it returns at once; the rest does not run", () =>
            {
                int live = LiveHandles();
                var l = new IdleLock(Fast(new FakeClock()));
                l.SetPasscode(C("2468"));
                var inside = new ManualResetEventSlim();
                var release = new ManualResetEventSlim();
                bool disposedReturned = false;
                int after = 0;
                l.Subscribe(s => { if (s.IsLocked) { inside.Set(); release.Wait(20000); } });
                for (int i = 0; i < 7; i++) l.Subscribe(s => { if (Volatile.Read(ref disposedReturned)) Interlocked.Increment(ref after); });
                Snapshot result = null;
                var caller = new Thread(() => result = l.Lock());
                caller.Start();
                Check(inside.Wait(20000), "the listener runs");
                var sw = Stopwatch.StartNew();
                l.Dispose();
                Volatile.Write(ref disposedReturned, true);
                Check(sw.ElapsedMilliseconds < 5000, "Dispose waited " + sw.ElapsedMilliseconds + " ms for a listener");
                Eq(LiveHandles(), live + 1, "the call in flight keeps the handle");
                release.Set();
                Check(caller.Join(20000), "the call returned");
                Eq(result.State, LockState.Locked, "its outcome stands");
                Eq(after, 0, "listeners run after Dispose returned");
                Eq(LiveHandles(), live, "the call destroyed it on its way out");
            });
        }

        static IdleLock WatchedWithPasscode(long idleMs)
        {
            var l = new IdleLock(Watched(idleMs));
            l.SetPasscode(C("2468"));
            return l;
        }

        // A listener on the watcher thread disposes the lock while seven more are subscribed:
        // none of them may run after Dispose returned, and the handle is destroyed.
        static void DisposeInWatcherListener()
        {
            int live = LiveHandles();
            for (int round = 0; round < 5; round++)
            {
                var l = WatchedWithPasscode(100);
                var done = new ManualResetEventSlim();
                bool disposedReturned = false;
                int after = 0;
                l.Subscribe(s => { if (s.IsLocked) { l.Dispose(); Volatile.Write(ref disposedReturned, true); done.Set(); } });
                for (int i = 0; i < 7; i++) l.Subscribe(s => { if (Volatile.Read(ref disposedReturned)) Interlocked.Increment(ref after); });
                l.WatchStart();
                Check(done.Wait(20000), "round " + round + ": the watcher ran the listener");
                WaitFor(() => LiveHandles() == live, 10000, "round " + round + ": the handle destroyed after the listener returned");
                Thread.Sleep(50);
                Eq(after, 0, "round " + round + ": listeners run after Dispose returned");
            }
        }

        // The watcher runs a listener that blocks; another thread disposes meanwhile.
        static void DisposeDuringWatcherDelivery()
        {
            int live = LiveHandles();
            var l = WatchedWithPasscode(100);
            var inside = new ManualResetEventSlim();
            var release = new ManualResetEventSlim();
            bool disposedReturned = false;
            int after = 0;
            l.Subscribe(s => { if (s.IsLocked) { inside.Set(); release.Wait(20000); } });
            for (int i = 0; i < 7; i++) l.Subscribe(s => { if (Volatile.Read(ref disposedReturned)) Interlocked.Increment(ref after); });
            l.WatchStart();
            Check(inside.Wait(20000), "the watcher runs the listener");
            var sw = Stopwatch.StartNew();
            l.Dispose();
            Volatile.Write(ref disposedReturned, true);
            Check(sw.ElapsedMilliseconds < 5000, "Dispose waited " + sw.ElapsedMilliseconds + " ms for the watcher's listener");
            release.Set();
            WaitFor(() => LiveHandles() == live, 10000, "destroyed once the listener returned");
            Thread.Sleep(50);
            Eq(after, 0, "listeners run after Dispose returned");
        }

        static void ForgetWatchedLocks(int n, int[] heard)
        {
            for (int i = 0; i < n; i++)
            {
                var l = WatchedWithPasscode(50 + 10 * i);
                for (int k = 0; k < 8; k++) l.Subscribe(s => Interlocked.Increment(ref heard[0]));
                l.WatchStart();
            }
        }

        // Locks forgotten while their watchers run: the finalizer destroys them, some of
        // them in the middle of a delivery.
        static void FinalizedDuringWatcherDelivery()
        {
            int live = LiveHandles();
            var heard = new int[1];
            for (int round = 0; round < 4; round++)
            {
                ForgetWatchedLocks(10, heard);
                var until = DateTime.UtcNow.AddSeconds(30);
                while (LiveHandles() > live && DateTime.UtcNow < until)
                {
                    Thread.Sleep(20);
                    GC.Collect();
                    GC.WaitForPendingFinalizers();
                }
                Eq(LiveHandles(), live, "round " + round + ": every forgotten lock was destroyed");
            }
        }

        [ThreadStatic] static bool stallHere; // the next callback on this thread waits to be aborted

        /// <summary>Parks the calling thread in a callback until it is aborted.</summary>
        static void StallIfAsked(ManualResetEventSlim entered)
        {
            if (!stallHere) return;
            stallHere = false;
            entered.Set();
            Thread.Sleep(Timeout.Infinite);
        }

        // Thread.Abort lands in a callback (Mono aborts threads at exit and when an
        // AppDomain unloads: Unity's script reload). Unwound through the library's frames
        // it skipped the rest of the delivery and, in the clock, left the library's
        // internal lock taken: every later call, and the exit, hung. The abort must reach
        // the aborted thread after the library's call returned.
        static void AbortInCallback(bool inClock)
        {
            int live = LiveHandles();
            var entered = new ManualResetEventSlim();
            var clock = new FakeClock();
            var o = Fast(null);
            o.Clock = () => { if (inClock) StallIfAsked(entered); return clock.Now(); };
            var l = new IdleLock(o);
            l.SetPasscode(C("2468"));
            Thread victim = null;
            int restOfDelivery = 0;
            l.Subscribe(s => { if (!inClock) StallIfAsked(entered); });
            l.Subscribe(s => { if (Thread.CurrentThread == victim) Interlocked.Increment(ref restOfDelivery); });
            bool aborted = false, returned = false;
            victim = new Thread(() =>
            {
                stallHere = true;
                try { l.Lock(); returned = true; }
                catch (ThreadAbortException) { aborted = true; }
            });
            victim.Start();
            Check(entered.Wait(20000), "the victim is in the callback");
            victim.Abort();
            Check(victim.Join(20000), "the aborted thread ended");
            Check(aborted && !returned, "the abort reached the aborted thread's call");
            if (!inClock) Eq(restOfDelivery, 1, "the delivery went on to the next listener after the abort");
            Snapshot after = null;
            var other = new Thread(() => after = l.Snapshot()) { IsBackground = true };
            other.Start();
            // When it fails, the stuck call also keeps the child from exiting: RunChild
            // reports a hang with this message.
            Check(other.Join(20000), "the lock answers after the abort (its internal lock was left taken)");
            Eq(after.State, LockState.Locked, "the aborted call's Lock() took effect");
            l.Dispose();
            Eq(LiveHandles(), live, "destroyed");
        }

        static IdleLock kept; // never disposed, as a game keeps its lock in a static field

        static void ExitWithUndisposedWatcher()
        {
            kept = WatchedWithPasscode(100);
            var heard = new ManualResetEventSlim();
            kept.Subscribe(s => heard.Set());
            kept.WatchStart();
            Check(heard.Wait(20000), "the watcher ran a listener");
            Console.WriteLine("Main returns");
        }
    }
}
