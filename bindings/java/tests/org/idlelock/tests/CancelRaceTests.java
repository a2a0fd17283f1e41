// SPDX-License-Identifier: MIT
package org.idlelock.tests;

import static org.idlelock.tests.AsyncBiometricTests.copy;
import static org.idlelock.tests.AsyncBiometricTests.enabledByPair;
import static org.idlelock.tests.CancellationTests.together;
import static org.idlelock.tests.Harness.check;
import static org.idlelock.tests.Harness.eq;
import static org.idlelock.tests.Harness.fast;

import java.util.Arrays;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.idlelock.AuthResult;
import org.idlelock.BiometricRequest;
import org.idlelock.IdleLock;
import org.idlelock.InvalidArgumentException;
import org.idlelock.Snapshot;
import org.idlelock.State;

/**
 * A cancel racing the host's answer (issue 26, finding 6): the answer
 * completed on one thread at the moment the caller cancels on another, 200
 * rounds each. The caller's view must match the lock: a cancel() that
 * returns true means the answer unlocked nothing (and the future is
 * cancelled); a cancel() that returns false means the answer reached the
 * library first, and the future then completes with what the library
 * answered. Before the fix, 1 to 4 rounds in 200 returned true while the
 * session unlocked.
 */
final class CancelRaceTests {
    private CancelRaceTests() {}

    static final int ROUNDS = 200;

    /** What one round saw: did cancel() report success, and did the session unlock. */
    private static final class Tally {
        int cancelled, answered, lies;

        void round(int i, boolean cancelReturned, CompletableFuture<Snapshot> f, IdleLock lock, boolean unlocks) throws Exception {
            boolean opened = unlocks
                    ? lock.snapshot().state() == State.UNLOCKED
                    : lock.snapshot().isBiometricsEnabled();
            if (cancelReturned) {
                cancelled++;
                check(f.isCancelled(), "cancel() returned true but the future is not cancelled (round " + i + ")");
                if (opened) lies++;
                return;
            }
            answered++;
            // The answer reached the library first: the future completes with its outcome.
            Snapshot s;
            try {
                s = f.get(10, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                throw new AssertionError("round " + i + ": cancel() returned false and the future failed with " + e.getCause(), e);
            } catch (CancellationException e) {
                throw new AssertionError("round " + i + ": cancel() returned false but the future is cancelled", e);
            }
            check(opened, "round " + i + ": the future completed (" + s + ") but the lock did not take the answer");
        }

        void verdict() {
            eq(lies, 0, "rounds where cancel() returned true and the answer unlocked anyway (of " + cancelled + " cancelled, "
                    + answered + " answered)");
        }
    }

    /**
     * {@code r} after a spin that sweeps 0 to 60 µs over the rounds: the
     * cancel lands at every point of the answer's way into the library
     * (the worker waking, the check returning, the library's unlock).
     */
    static Runnable after(int round, Runnable r) {
        return () -> {
            long end = System.nanoTime() + (round % 61) * 1_000L;
            while (System.nanoTime() < end) Thread.onSpinWait();
            r.run();
        };
    }

    /**
     * Subscribes a listener that, when the session unlocks (or the shortcut
     * turns on) inside the library's answer, on the answering thread,
     * cancels what {@code target} holds: the cancel lands exactly after the
     * answer reached the library, and must return false.
     */
    static AtomicBoolean cancelInsideAnswer(IdleLock lock, CompletableFuture<?>[] target, boolean unlocks) {
        AtomicBoolean returned = new AtomicBoolean(true);
        AtomicBoolean fired = new AtomicBoolean();
        lock.subscribe(s -> {
            boolean opened = unlocks ? s.state() == State.UNLOCKED : s.isBiometricsEnabled();
            if (opened && target[0] != null && fired.compareAndSet(false, true)) returned.set(target[0].cancel(true));
        });
        return returned;
    }

    /** One round of an unlock race on a locked lock: starts the answer and the cancel together; returns the future cancelled. */
    interface UnlockRound {
        CompletableFuture<Snapshot> race(IdleLock lock, byte[] answer, int round, ExecutorService pool, AtomicBoolean cancelReturned)
                throws Exception;
    }

    /** ROUNDS rounds of {@code r} on one lock whose shortcut is on: the tally, and the answer always wiped. */
    static void unlockRaces(UnlockRound r) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        Tally t = new Tally();
        byte[][] item = new byte[1][];
        try (IdleLock lock = enabledByPair(fast(new Harness.FakeClock()), item)) {
            for (int i = 0; i < ROUNDS; i++) {
                lock.lock();
                byte[] answer = copy(item[0]);
                AtomicBoolean returned = new AtomicBoolean();
                CompletableFuture<Snapshot> f = r.race(lock, answer, i, pool, returned);
                t.round(i, returned.get(), f, lock, true);
                check(Arrays.equals(answer, new byte[32]), "the answer is wiped (round " + i + ")");
            }
        } finally {
            pool.shutdownNow();
        }
        t.verdict();
    }

    static void run(Harness h) {
        h.test("a timeout (orTimeout) on a helper's future or a request's future cancels the request in the library; a late answer is refused and wiped", () -> {
            byte[][] item = new byte[1][];
            try (IdleLock lock = enabledByPair(fast(new Harness.FakeClock()), item)) {
                lock.lock();
                CancellationTests.Silent host = new CancellationTests.Silent();
                CompletableFuture<Snapshot> f = lock.unlockWithBiometricsAsync(host).orTimeout(20, TimeUnit.MILLISECONDS);
                check(AsyncBiometricTests.failure(f) instanceof TimeoutException, "timed out");
                BiometricRequest req = lock.beginBiometricUnlock();
                req.future().orTimeout(20, TimeUnit.MILLISECONDS);
                check(AsyncBiometricTests.failure(req.future()) instanceof TimeoutException, "timed out");
                check(req.isFinished(), "the request ended with its future");
                CancellationTests.allSlotsFree(lock, false);
                byte[] late = copy(item[0]);
                host.load.complete(late);
                check(Arrays.equals(late, new byte[32]), "the helper's late answer is wiped");
                byte[] late2 = copy(item[0]);
                Harness.expect(InvalidArgumentException.class, () -> req.finish(AuthResult.OK, late2));
                check(Arrays.equals(late2, new byte[32]), "the request's late answer is wiped");
                eq(lock.snapshot().state(), State.LOCKED, "late answers unlock nothing");
            }
        });
        String inside = "cancel(true) from inside the library's answer (a listener on the answering thread) returns false; the future completes with it: ";
        h.test(inside + "unlockWithBiometricsAsync(AsyncAuthenticator)", () -> {
            byte[][] item = new byte[1][];
            try (IdleLock lock = enabledByPair(fast(new Harness.FakeClock()), item)) {
                lock.lock();
                CompletableFuture<?>[] target = new CompletableFuture<?>[1];
                AtomicBoolean returned = cancelInsideAnswer(lock, target, true);
                CancellationTests.Silent host = new CancellationTests.Silent();
                CompletableFuture<Snapshot> f = lock.unlockWithBiometricsAsync(host);
                target[0] = f;
                host.load.complete(copy(item[0]));
                check(!returned.get(), "cancel() returned false");
                eq(f.get(10, TimeUnit.SECONDS).state(), State.UNLOCKED, "the future completed with the unlock");
            }
        });
        h.test(inside + "BiometricRequest.future()", () -> {
            byte[][] item = new byte[1][];
            try (IdleLock lock = enabledByPair(fast(new Harness.FakeClock()), item)) {
                lock.lock();
                CompletableFuture<?>[] target = new CompletableFuture<?>[1];
                AtomicBoolean returned = cancelInsideAnswer(lock, target, true);
                BiometricRequest req = lock.beginBiometricUnlock();
                target[0] = req.future();
                eq(req.finish(AuthResult.OK, copy(item[0])).state(), State.UNLOCKED, "finish unlocked");
                check(!returned.get(), "cancel() returned false");
                eq(req.future().get(10, TimeUnit.SECONDS).state(), State.UNLOCKED, "the future completed with the unlock");
            }
        });
        h.test(inside + "enableBiometricsAsync", () -> {
            try (IdleLock lock = fast(new Harness.FakeClock()).build()) {
                lock.setPasscode(Harness.chars("2468"));
                CompletableFuture<?>[] target = new CompletableFuture<?>[1];
                AtomicBoolean returned = cancelInsideAnswer(lock, target, false);
                CancellationTests.Silent host = new CancellationTests.Silent();
                CompletableFuture<Snapshot> f = lock.enableBiometricsAsync(host);
                target[0] = f;
                host.store.complete(null);
                check(!returned.get(), "cancel() returned false");
                check(f.get(10, TimeUnit.SECONDS).isBiometricsEnabled(), "the future completed with the shortcut on");
                eq(host.deletes.get(), 0, "the item is kept");
            }
        });
        h.test(inside + "unlockWithBiometricsAsync(Executor)", () -> {
            FakeKeystore ks = new FakeKeystore();
            ExecutorService worker = Executors.newSingleThreadExecutor();
            try (IdleLock lock = BiometricTests.enabled(ks)) {
                lock.lock();
                CompletableFuture<?>[] target = new CompletableFuture<?>[1];
                AtomicBoolean returned = cancelInsideAnswer(lock, target, true);
                CountDownLatch person = new CountDownLatch(1);
                ks.answer = person;
                CompletableFuture<Snapshot> f = lock.unlockWithBiometricsAsync(worker);
                target[0] = f;
                person.countDown();
                eq(f.get(10, TimeUnit.SECONDS).state(), State.UNLOCKED, "the future completed with the unlock");
                check(!returned.get(), "cancel() returned false");
            } finally {
                worker.shutdownNow();
            }
        });
        h.test("unlockWithBiometricsAsync(AsyncAuthenticator): cancel(true) racing the check's answer: true only when nothing unlocked", () ->
            unlockRaces((lock, answer, i, pool, returned) -> {
                CancellationTests.Silent host = new CancellationTests.Silent();
                CompletableFuture<Snapshot> f = lock.unlockWithBiometricsAsync(host);
                together(pool, () -> host.load.complete(answer), after(i, () -> returned.set(f.cancel(true))));
                return f;
            }));
        h.test("BiometricRequest: future().cancel(true) racing finish(OK, secret): true only when nothing unlocked", () ->
            unlockRaces((lock, answer, i, pool, returned) -> {
                BiometricRequest req = lock.beginBiometricUnlock();
                together(pool, () -> {
                    try {
                        req.finish(AuthResult.OK, answer);
                    } catch (RuntimeException e) {
                        // refused: the cancel came first
                    }
                }, after(i, () -> returned.set(req.future().cancel(true))));
                return req.future();
            }));
        h.test("unlockWithBiometricsAsync(Executor): cancel(true) racing the Authenticator's answer: true only when nothing unlocked", () -> {
            ExecutorService pool = Executors.newFixedThreadPool(2);
            ExecutorService worker = Executors.newSingleThreadExecutor();
            Tally t = new Tally();
            FakeKeystore ks = new FakeKeystore();
            ks.stubborn = true; // answers when the person does, interrupted or not
            try (IdleLock lock = BiometricTests.enabled(ks)) {
                for (int i = 0; i < ROUNDS; i++) {
                    lock.lock();
                    CountDownLatch person = new CountDownLatch(1);
                    ks.answer = person;
                    ks.loadRunner = null;
                    CompletableFuture<Snapshot> f = lock.unlockWithBiometricsAsync(worker);
                    long deadline = System.currentTimeMillis() + 10_000;
                    while (ks.loadRunner == null && System.currentTimeMillis() < deadline) Thread.yield();
                    check(ks.loadRunner != null, "the check is showing");
                    AtomicBoolean returned = new AtomicBoolean();
                    together(pool, person::countDown, after(i, () -> returned.set(f.cancel(true))));
                    worker.submit(() -> { }).get(10, TimeUnit.SECONDS); // the call has returned
                    t.round(i, returned.get(), f, lock, true);
                }
            } finally {
                pool.shutdownNow();
                worker.shutdownNow();
            }
            t.verdict();
        });
        h.test("enableBiometricsAsync: cancel(true) racing the store's completion: true only when the shortcut stayed off (and the item was deleted)", () -> {
            ExecutorService pool = Executors.newFixedThreadPool(2);
            Tally t = new Tally();
            try (IdleLock lock = fast(new Harness.FakeClock()).build()) {
                lock.setPasscode(Harness.chars("2468"));
                for (int i = 0; i < ROUNDS; i++) {
                    if (lock.snapshot().isBiometricsEnabled()) lock.disableBiometrics();
                    CancellationTests.Silent host = new CancellationTests.Silent();
                    CompletableFuture<Snapshot> f = lock.enableBiometricsAsync(host);
                    AtomicBoolean returned = new AtomicBoolean();
                    together(pool, () -> host.store.complete(null), after(i, () -> returned.set(f.cancel(true))));
                    t.round(i, returned.get(), f, lock, false);
                    if (returned.get()) eq(host.deletes.get(), 1, "a cancelled enable deletes the stored item (round " + i + ")");
                    else eq(host.deletes.get(), 0, "an enable that went through keeps its item (round " + i + ")");
                }
            } finally {
                pool.shutdownNow();
            }
            t.verdict();
        });
    }
}
