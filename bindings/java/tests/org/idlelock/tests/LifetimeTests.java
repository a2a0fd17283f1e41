// SPDX-License-Identifier: MIT
package org.idlelock.tests;

import static org.idlelock.tests.Harness.chars;
import static org.idlelock.tests.Harness.check;
import static org.idlelock.tests.Harness.eq;
import static org.idlelock.tests.Harness.expect;
import static org.idlelock.tests.Harness.fast;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import org.idlelock.IdleLock;
import org.idlelock.Platform;

/** Handles are freed exactly once: close, use after close, a forgotten handle. */
final class LifetimeTests {
    private LifetimeTests() {}

    /** Every public instance method of IdleLock, with harmless arguments. */
    static Map<String, Harness.Body> everyCall(IdleLock lock) {
        Map<String, Harness.Body> m = new LinkedHashMap<>();
        m.put("start", lock::start);
        m.put("touch", lock::touch);
        m.put("inactive", lock::inactive);
        m.put("background", lock::background);
        m.put("foreground", lock::foreground);
        m.put("check", lock::check);
        m.put("lock", lock::lock);
        m.put("snapshot", lock::snapshot);
        m.put("lifecycle", () -> lock.lifecycle(Platform.IOS_SCENE_PHASE, "active"));
        m.put("promptBegin", lock::promptBegin);
        m.put("promptEnd", () -> lock.promptEnd(1));
        m.put("prompt", lock::prompt);
        m.put("setPasscode(char[])", () -> lock.setPasscode(chars("2468")));
        m.put("setPasscode(byte[])", () -> lock.setPasscode(new byte[] {'2', '4', '6', '8'}));
        m.put("unlock(char[])", () -> lock.unlock(chars("2468")));
        m.put("unlock(byte[])", () -> lock.unlock(new byte[] {'2', '4', '6', '8'}));
        m.put("enableBiometrics", lock::enableBiometrics);
        m.put("disableBiometrics", lock::disableBiometrics);
        m.put("unlockWithBiometrics", lock::unlockWithBiometrics);
        m.put("unlockWithBiometricsAsync", () -> lock.unlockWithBiometricsAsync(Runnable::run).join());
        m.put("beginBiometricUnlock", lock::beginBiometricUnlock);
        m.put("beginBiometricEnable", lock::beginBiometricEnable);
        m.put("unlockWithBiometricsAsync(AsyncAuthenticator)", () -> lock.unlockWithBiometricsAsync(new FakeAsyncKeystore()).join());
        m.put("enableBiometricsAsync", () -> lock.enableBiometricsAsync(new FakeAsyncKeystore()).join());
        m.put("requireRecentAuth", () -> lock.requireRecentAuth(1000));
        m.put("disable", lock::disable);
        m.put("subscribe", () -> lock.subscribe(s -> { }));
        m.put("subscribe(executor)", () -> lock.subscribe(Runnable::run, s -> { }));
        m.put("unsubscribe", () -> lock.unsubscribe(1));
        m.put("putSecret", () -> lock.putSecret("n", new byte[1]));
        m.put("getSecret", () -> lock.getSecret("n"));
        m.put("removeSecret", () -> lock.removeSecret("n"));
        m.put("requireUnlocked", lock::requireUnlocked);
        m.put("watchStart", lock::watchStart);
        m.put("watchStop", lock::watchStop);
        return m;
    }

    static void run(Harness h) {
        h.test("every call after close is IllegalStateException, and close is idempotent", () -> {
            long live = GlueAccess.liveHandles();
            IdleLock lock = fast(new Harness.FakeClock()).build();
            eq(GlueAccess.liveHandles(), live + 1, "one handle");
            lock.close();
            lock.close();
            check(lock.isClosed(), "isClosed");
            eq(GlueAccess.liveHandles(), live, "destroyed once");
            for (Map.Entry<String, Harness.Body> e : everyCall(lock).entrySet()) {
                Throwable t = expect(Throwable.class, e.getValue());
                if (t instanceof java.util.concurrent.CompletionException) t = t.getCause();
                check(t instanceof IllegalStateException, e.getKey() + " after close: " + t);
            }
            eq(everyCall(lock).size(), 35, "covers the 35 calls");
        });
        h.test("forgotten handles are collected and destroyed by the Cleaner, without a leak", () -> {
            long live = GlueAccess.liveHandles();
            for (int i = 0; i < 200; i++) {
                IdleLock lock = IdleLock.builder().idleAfterMs(60_000).build();
                // A listener that refers to its lock: the glue holds it
                // weakly, so the cycle does not pin the handle.
                lock.subscribe(s -> lock.snapshot());
                lock.putSecret("s", new byte[] {(byte) i});
            }
            check(GlueAccess.liveHandles() >= live + 1, "created");
            long deadline = System.currentTimeMillis() + 20_000;
            while (GlueAccess.liveHandles() > live && System.currentTimeMillis() < deadline) {
                System.gc();
                List<byte[]> pressure = new ArrayList<>();
                for (int i = 0; i < 32; i++) pressure.add(new byte[1 << 16]);
                Harness.sleep(20);
            }
            eq(GlueAccess.liveHandles(), live, "every forgotten handle was destroyed");
        });
        h.test("close from a listener inside a call: the call finishes, then the handle goes", () -> {
            long live = GlueAccess.liveHandles();
            IdleLock lock = fast(new Harness.FakeClock()).build();
            lock.setPasscode(chars("2468"));
            lock.subscribe(s -> lock.close());
            lock.lock();
            check(lock.isClosed(), "closed");
            eq(GlueAccess.liveHandles(), live, "destroyed after the call returned");
            expect(IllegalStateException.class, lock::snapshot);
        });
        h.test("close while a call is in flight on another thread waits for nothing", () -> {
            long live = GlueAccess.liveHandles();
            FakeKeystore ks = new FakeKeystore();
            IdleLock lock = BiometricTests.enabled(ks);
            lock.lock();
            ks.answer = new java.util.concurrent.CountDownLatch(1);
            ks.stubborn = true; // close() interrupts the worker: a check that ignores it keeps the call in flight
            java.util.concurrent.ExecutorService worker = Executors.newSingleThreadExecutor();
            try {
                java.util.concurrent.CompletableFuture<?> f = lock.unlockWithBiometricsAsync(worker);
                long shown = System.currentTimeMillis() + 10_000;
                while (ks.loadRunner == null && System.currentTimeMillis() < shown) Harness.sleep(5);
                lock.close(); // returns at once: the prompt is still up
                check(lock.isClosed(), "closed");
                eq(GlueAccess.liveHandles(), live + 1, "the call in flight keeps the handle");
                ks.answer.countDown();
                try {
                    f.join();
                } catch (RuntimeException ignored) {
                    // the unlock may succeed or be overtaken: either is fine here
                }
                long deadline = System.currentTimeMillis() + 5000;
                while (GlueAccess.liveHandles() != live && System.currentTimeMillis() < deadline) Harness.sleep(5);
                eq(GlueAccess.liveHandles(), live, "the last call out destroyed it");
            } finally {
                worker.shutdownNow();
            }
        });
    }
}
