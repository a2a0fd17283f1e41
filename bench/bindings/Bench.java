// SPDX-License-Identifier: MIT
package org.idlelock.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import org.idlelock.IdleLock;

/**
 * What the Java binding adds to a call (BENCHMARKS.md, "Bindings"): thread
 * CPU ns per call of a JNI no-op, of a bare JNI call of idlelock_touch, and
 * of IdleLock.touch(), in interleaved rounds (the order rotates), after a
 * warm-up that lets HotSpot compile all three. Prints the table, or with
 * --kv "key value" lines.
 *
 *   java -cp ... org.idlelock.bench.Bench [--rounds N] [--iters N] [--kv]
 */
public final class Bench {
    private Bench() {}

    static native int noop(long handle);
    static native int rawTouch(long handle);
    static native long rawCreate();
    static native void rawDestroy(long handle);

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static volatile int sink;

    interface Body {
        void run(int n);
    }

    private static double nsPerCall(Body body, int n) {
        long t0 = THREADS.getCurrentThreadCpuTime();
        body.run(n);
        return (double) (THREADS.getCurrentThreadCpuTime() - t0) / n;
    }

    private static double quantile(double[] v, double q) {
        double[] s = v.clone();
        Arrays.sort(s);
        double pos = q * (s.length - 1);
        int i = (int) pos;
        return i + 1 < s.length ? s[i] + (pos - i) * (s[i + 1] - s[i]) : s[s.length - 1];
    }

    public static void main(String[] args) {
        int rounds = 21;
        int iters = 200_000;
        boolean kv = false;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--rounds")) rounds = Integer.parseInt(args[++i]);
            else if (args[i].equals("--iters")) iters = Integer.parseInt(args[++i]);
            else if (args[i].equals("--kv")) kv = true;
        }
        System.loadLibrary("idlelock_bench");
        long raw = rawCreate();
        if (raw == 0) throw new IllegalStateException("rawCreate failed");
        IdleLock lock = IdleLock.builder().idleAfterMs(3_600_000).backgroundAfterMs(30_000)
                .kdfOpslimit(2).kdfMemlimit(19L * 1024 * 1024).build();
        lock.setPasscode(new char[] {'2', '4', '6', '8'});

        Body[] bodies = {
            n -> { int s = 0; for (int i = 0; i < n; i++) s += noop(raw); sink = s; },
            n -> { int s = 0; for (int i = 0; i < n; i++) s += rawTouch(raw); sink = s; },
            n -> { for (int i = 0; i < n; i++) lock.touch(); },
        };
        // Warm-up: C2 compiles each loop and the binding's touch path.
        for (int w = 0; w < 3; w++) for (Body b : bodies) nsPerCall(b, Math.max(iters, 20_000));

        double[][] ns = new double[3][rounds];
        for (int r = 0; r < rounds; r++) {
            for (int k = 0; k < 3; k++) {
                int which = (r + k) % 3;
                ns[which][r] = nsPerCall(bodies[which], iters);
            }
        }
        double[] ratio = new double[rounds];
        double[] overRaw = new double[rounds];
        for (int r = 0; r < rounds; r++) {
            ratio[r] = ns[2][r] / ns[0][r];
            overRaw[r] = ns[2][r] / ns[1][r];
        }
        lock.close();
        rawDestroy(raw);

        double noopNs = quantile(ns[0], 0.5), rawNs = quantile(ns[1], 0.5), touchNs = quantile(ns[2], 0.5);
        double med = quantile(ratio, 0.5);
        String vm = System.getProperty("java.vm.name") + " " + System.getProperty("java.version");
        if (kv) {
            System.out.printf("java_vm %s%n", vm.replace(' ', '_'));
            System.out.printf("java_noop_ns %.1f%njava_raw_touch_ns %.1f%njava_touch_ns %.1f%n", noopNs, rawNs, touchNs);
            System.out.printf("java_ratio %.3f%njava_ratio_q1 %.3f%njava_ratio_q3 %.3f%njava_over_raw %.3f%n",
                    med, quantile(ratio, 0.25), quantile(ratio, 0.75), quantile(overRaw, 0.5));
            return;
        }
        System.out.printf("Java binding (%s): thread CPU ns per call, medians of %d rounds of %d calls%n", vm, rounds, iters);
        System.out.printf("   JNI call of a native no-op               %8.1f%n", noopNs);
        System.out.printf("   JNI call of idlelock_touch (bare glue)   %8.1f%n", rawNs);
        System.out.printf("   IdleLock.touch()                         %8.1f   %.2fx the no-op (%.2f..%.2f)%n",
                touchNs, med, quantile(ratio, 0.25), quantile(ratio, 0.75));
        double over = quantile(overRaw, 0.5);
        System.out.printf("   the binding over a bare JNI idlelock_touch: %.2fx; goal <= 1.2x  %s%n", over,
                over <= 1.2 ? "met" : "not met");
    }
}
