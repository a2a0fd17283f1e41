// SPDX-License-Identifier: MIT
// What the C# binding adds to a call (BENCHMARKS.md, "Bindings"): thread CPU
// ns per call of a P/Invoke no-op, of a bare P/Invoke of idlelock_touch, and
// of IdleLock.Touch(), in interleaved rounds (the order rotates), after a
// warm-up. Prints the table, or with --kv "key value" lines.
//
//   mono Bench.exe [--rounds N] [--iters N] [--kv]
using System;
using System.Linq;
using System.Runtime.InteropServices;
using LibIdleLock;

static class Bench
{
    [DllImport("idlelock_bench")] static extern int bench_noop(IntPtr a, IntPtr b);
    [DllImport("idlelock_bench")] static extern IntPtr bench_raw_create();
    [DllImport("idlelock_bench")] static extern void bench_raw_destroy(IntPtr h);
    [DllImport("idlelock")] static extern int idlelock_touch(IntPtr h, IntPtr o);

    [StructLayout(LayoutKind.Sequential)] struct Timespec { public long Sec, Nsec; }
    [DllImport("libc")] static extern int clock_gettime(int clock, out Timespec ts);
    const int ClockThreadCputimeId = 3;

    // Where the loops' sums go, so the JIT keeps the calls; read at the end.
    static int sink;

    static double Cpu()
    {
        Timespec t;
        clock_gettime(ClockThreadCputimeId, out t);
        return t.Sec * 1e9 + t.Nsec;
    }

    static double NsPerCall(Action<int> body, int n)
    {
        double t0 = Cpu();
        body(n);
        return (Cpu() - t0) / n;
    }

    static double Quantile(double[] v, double q)
    {
        var s = v.OrderBy(x => x).ToArray();
        double pos = q * (s.Length - 1);
        int i = (int)pos;
        return i + 1 < s.Length ? s[i] + (pos - i) * (s[i + 1] - s[i]) : s[s.Length - 1];
    }

    static int Main(string[] args)
    {
        int rounds = 21, iters = 200000;
        bool kv = false;
        for (int i = 0; i < args.Length; i++)
        {
            if (args[i] == "--rounds") rounds = int.Parse(args[++i]);
            else if (args[i] == "--iters") iters = int.Parse(args[++i]);
            else if (args[i] == "--kv") kv = true;
        }
        IntPtr raw = bench_raw_create();
        if (raw == IntPtr.Zero) throw new InvalidOperationException("bench_raw_create failed");
        var lockObj = new IdleLock(new IdleLockOptions
        {
            IdleAfterMs = 3600000, BackgroundAfterMs = 30000, KdfOpslimit = 2, KdfMemlimit = 19UL * 1024 * 1024,
        });
        lockObj.SetPasscode(new[] { '2', '4', '6', '8' });

        var bodies = new Action<int>[]
        {
            n => { int s = 0; for (int i = 0; i < n; i++) s += bench_noop(raw, IntPtr.Zero); sink = s; },
            n => { int s = 0; for (int i = 0; i < n; i++) s += idlelock_touch(raw, IntPtr.Zero); sink = s; },
            n => { for (int i = 0; i < n; i++) lockObj.Touch(); },
        };
        for (int w = 0; w < 3; w++) foreach (var b in bodies) NsPerCall(b, Math.Max(iters, 20000));
        var ns = new double[3][];
        for (int k = 0; k < 3; k++) ns[k] = new double[rounds];
        for (int r = 0; r < rounds; r++)
            for (int k = 0; k < 3; k++)
            {
                int which = (r + k) % 3;
                ns[which][r] = NsPerCall(bodies[which], iters);
            }
        var ratio = Enumerable.Range(0, rounds).Select(r => ns[2][r] / ns[0][r]).ToArray();
        var overRaw = Enumerable.Range(0, rounds).Select(r => ns[2][r] / ns[1][r]).ToArray();
        lockObj.Dispose();
        bench_raw_destroy(raw);
        if (sink != 0) throw new InvalidOperationException("a call failed: " + sink);

        double noop = Quantile(ns[0], 0.5), rawTouch = Quantile(ns[1], 0.5), touch = Quantile(ns[2], 0.5);
        double med = Quantile(ratio, 0.5);
        string vm = "Mono " + Type.GetType("Mono.Runtime").GetMethod("GetDisplayName",
            System.Reflection.BindingFlags.NonPublic | System.Reflection.BindingFlags.Static).Invoke(null, null);
        if (kv)
        {
            Console.WriteLine("csharp_vm " + vm.Replace(' ', '_'));
            Console.WriteLine("csharp_noop_ns {0:F1}\ncsharp_raw_touch_ns {1:F1}\ncsharp_touch_ns {2:F1}", noop, rawTouch, touch);
            Console.WriteLine("csharp_ratio {0:F3}\ncsharp_ratio_q1 {1:F3}\ncsharp_ratio_q3 {2:F3}\ncsharp_over_raw {3:F3}",
                med, Quantile(ratio, 0.25), Quantile(ratio, 0.75), Quantile(overRaw, 0.5));
            return 0;
        }
        Console.WriteLine("C# binding ({0}): thread CPU ns per call, medians of {1} rounds of {2} calls", vm, rounds, iters);
        Console.WriteLine("   P/Invoke of a C no-op                    {0,8:F1}", noop);
        Console.WriteLine("   P/Invoke of idlelock_touch (bare)        {0,8:F1}", rawTouch);
        Console.WriteLine("   IdleLock.Touch()                         {0,8:F1}   {1:F2}x the no-op ({2:F2}..{3:F2})",
            touch, med, Quantile(ratio, 0.25), Quantile(ratio, 0.75));
        double over = Quantile(overRaw, 0.5);
        Console.WriteLine("   the binding over a bare P/Invoke of idlelock_touch: {0:F2}x; goal <= 1.2x  {1}",
            over, over <= 1.2 ? "met" : "not met");
        return 0;
    }
}
