// SPDX-License-Identifier: MIT
package org.idlelock.tests;

import java.util.concurrent.atomic.AtomicLong;
import org.idlelock.IdleLock;

/**
 * A plain test runner (no JUnit on a fresh Debian): each test is a named
 * block; a failure prints its name and stack trace, a pass prints nothing;
 * the run ends with "N passed, N failed". With IDLELOCK_TEST_ONLY set,
 * only the tests whose name contains it run (a name that matches none
 * fails the run).
 */
final class Harness {
    interface Body {
        void run() throws Throwable;
    }

    private int passed;
    private int failed;
    private final String only = System.getenv("IDLELOCK_TEST_ONLY");

    void test(String name, Body body) {
        if (only != null && !name.contains(only)) return;
        try {
            body.run();
            passed++;
        } catch (Throwable t) {
            failed++;
            System.out.println("FAIL " + name + ": " + t);
            t.printStackTrace(System.out);
        }
    }

    int finish() {
        if (only != null && passed + failed == 0) {
            System.out.println("FAIL IDLELOCK_TEST_ONLY=" + only + ": no test's name contains it");
            failed++;
        }
        System.out.println(passed + " passed, " + failed + " failed");
        return failed;
    }

    // -- assertions ------------------------------------------------------------

    static void check(boolean condition, String what) {
        if (!condition) throw new AssertionError(what);
    }

    static void eq(Object got, Object want, String what) {
        if (got == null ? want != null : !got.equals(want)) {
            throw new AssertionError(what + ": got " + got + ", want " + want);
        }
    }

    static <T extends Throwable> T expect(Class<T> type, Body body) {
        try {
            body.run();
        } catch (Throwable t) {
            if (type.isInstance(t)) return type.cast(t);
            throw new AssertionError("expected " + type.getSimpleName() + ", got " + t, t);
        }
        throw new AssertionError("expected " + type.getSimpleName() + ", nothing was thrown");
    }

    static void contains(String text, String part, String what) {
        if (text == null || !text.contains(part)) throw new AssertionError(what + ": \"" + text + "\" lacks \"" + part + "\"");
    }

    // -- fixtures --------------------------------------------------------------

    /** A clock the test moves by hand. */
    static final class FakeClock implements IdleLock.Clock {
        final AtomicLong now = new AtomicLong(1_000_000);

        @Override public long nowMs() { return now.get(); }

        void advance(long ms) { now.addAndGet(ms); }
    }

    static final long MEMLIMIT_FLOOR = 19L * 1024 * 1024;

    /** Idle 60 s, background 30 s, Argon2id at OWASP's floor (fast), the given clock. */
    static IdleLock.Builder fast(FakeClock clock) {
        IdleLock.Builder b = IdleLock.builder().idleAfterMs(60_000).backgroundAfterMs(30_000)
                .kdfOpslimit(2).kdfMemlimit(MEMLIMIT_FLOOR);
        return clock == null ? b : b.clock(clock);
    }

    static char[] chars(String s) { return s.toCharArray(); }

    static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
