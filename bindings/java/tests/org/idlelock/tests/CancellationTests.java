// SPDX-License-Identifier: MIT
package org.idlelock.tests;

import static org.idlelock.tests.AsyncBiometricTests.copy;
import static org.idlelock.tests.AsyncBiometricTests.enabledByPair;
import static org.idlelock.tests.Harness.check;
import static org.idlelock.tests.Harness.eq;
import static org.idlelock.tests.Harness.expect;
import static org.idlelock.tests.Harness.fast;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.idlelock.AsyncAuthenticator;
import org.idlelock.AuthResult;
import org.idlelock.BiometricRequest;
import org.idlelock.IdleLock;
import org.idlelock.InvalidArgumentException;
import org.idlelock.Snapshot;
import org.idlelock.State;

/**
 * Every asynchronous helper ends on cancellation whatever the host's check
 * does (issue 19, finding 3): each is driven by a check that never answers,
 * cancelled, and must be done at once, its library request cancelled (its
 * slot free again), and a late answer ignored with its secret wiped. The
 * same when the lock is closed while the check is still out: the helper's
 * future fails at once with the closed lock's IllegalStateException.
 */
final class CancellationTests {
    private CancellationTests() {}

    /** An AsyncAuthenticator whose stages complete only when the test says so. */
    static final class Silent implements AsyncAuthenticator {
        final CompletableFuture<byte[]> load = new CompletableFuture<>();
        final CompletableFuture<Void> store = new CompletableFuture<>();
        final AtomicInteger deletes = new AtomicInteger();
        volatile byte[] storeArgument;

        @Override public CompletionStage<byte[]> loadSecret(BiometricRequest request) { return load; }

        @Override public CompletionStage<Void> storeSecret(BiometricRequest request, byte[] secret) {
            storeArgument = secret;
            return store;
        }

        @Override public CompletionStage<Void> deleteSecret() {
            deletes.incrementAndGet();
            return CompletableFuture.completedFuture(null);
        }
    }

    /** Every request slot is free: the helper left none open. */
    static void allSlotsFree(IdleLock lock, boolean enable) {
        List<BiometricRequest> open = new ArrayList<>();
        for (int i = 0; i < IdleLock.BIOMETRIC_REQUESTS_MAX; i++) {
            open.add(enable ? lock.beginBiometricEnable() : lock.beginBiometricUnlock());
        }
        for (BiometricRequest r : open) r.cancel();
    }

    static void cancelledAtOnce(CompletableFuture<Snapshot> f) {
        check(f.cancel(true), "cancel() took effect");
        check(f.isDone() && f.isCancelled(), "done at once, as cancelled");
        expect(CancellationException.class, f::join);
    }

    /** Closed while its check is out: the helper's future is already done, failed with the closed lock's exception. */
    static void endedByClose(CompletableFuture<Snapshot> f) throws Exception {
        check(f.isDone(), "done as soon as close() returned, though the check never answered");
        try {
            f.get(10, TimeUnit.SECONDS); // bounded: a hang is the failure
            throw new AssertionError("the future completed normally after close()");
        } catch (ExecutionException e) {
            check(e.getCause() instanceof IllegalStateException, "failed with IllegalStateException, not " + e.getCause());
            Harness.contains(e.getCause().getMessage(), "closed", "the message says the lock was closed");
        }
    }

    static void run(Harness h) {
        h.test("unlockWithBiometricsAsync(AsyncAuthenticator): a check that never answers, cancelled: done at once, request cancelled, a late secret wiped", () -> {
            byte[][] item = new byte[1][];
            try (IdleLock lock = enabledByPair(fast(new Harness.FakeClock()), item)) {
                lock.lock();
                Silent host = new Silent();
                CompletableFuture<Snapshot> f = lock.unlockWithBiometricsAsync(host);
                check(!f.isDone(), "waiting for the check");
                cancelledAtOnce(f);
                allSlotsFree(lock, false);
                byte[] late = copy(item[0]);
                host.load.complete(late);
                check(Arrays.equals(late, new byte[32]), "the late answer's secret is wiped");
                eq(lock.snapshot().state(), State.LOCKED, "a late answer unlocks nothing");
                eq(lock.beginBiometricUnlock().finish(AuthResult.OK, copy(item[0])).state(), State.UNLOCKED, "the shortcut still works");
            }
        });
        h.test("enableBiometricsAsync: a store that never answers, cancelled: done at once, request cancelled, a late store deleted", () -> {
            try (IdleLock lock = fast(new Harness.FakeClock()).build()) {
                lock.setPasscode(Harness.chars("2468"));
                Silent host = new Silent();
                CompletableFuture<Snapshot> f = lock.enableBiometricsAsync(host);
                check(!f.isDone(), "waiting for the store");
                byte[] handed = host.storeArgument;
                cancelledAtOnce(f);
                check(Arrays.equals(handed, new byte[32]), "the request's secret is wiped when it is cancelled");
                allSlotsFree(lock, true);
                host.store.complete(null); // stored after all
                eq(host.deletes.get(), 1, "the late item is deleted");
                check(!lock.snapshot().isBiometricsEnabled(), "the shortcut stays off");
            }
        });
        h.test("BiometricRequest.future().cancel(): the request ends at once in the library; a late finish is refused and wiped", () -> {
            byte[][] item = new byte[1][];
            try (IdleLock lock = enabledByPair(fast(new Harness.FakeClock()), item)) {
                lock.lock();
                BiometricRequest req = lock.beginBiometricUnlock();
                check(req.future().cancel(true), "cancelled");
                check(req.isFinished(), "the request ended with its future");
                allSlotsFree(lock, false);
                byte[] late = copy(item[0]);
                expect(InvalidArgumentException.class, () -> req.finish(AuthResult.OK, late));
                check(Arrays.equals(late, new byte[32]), "the late secret is wiped");
                eq(lock.snapshot().state(), State.LOCKED, "a late finish unlocks nothing");
                BiometricRequest enable = lock.unlock(Harness.chars("2468")) != null ? lock.beginBiometricEnable() : null;
                byte[] own = enable.secret();
                check(enable.future().cancel(false), "an enable cancelled");
                check(Arrays.equals(own, new byte[32]) && enable.isFinished(), "ended, its secret wiped");
            }
        });
        h.test("unlockWithBiometricsAsync(Executor): an Authenticator that never answers, cancelled: done at once; its late answer unlocks nothing and is wiped", () -> {
            FakeKeystore ks = new FakeKeystore();
            ExecutorService worker = Executors.newSingleThreadExecutor();
            try (IdleLock lock = BiometricTests.enabled(ks)) {
                lock.lock();
                ks.answer = new CountDownLatch(1);
                ks.stubborn = true; // ignores the interrupt
                CompletableFuture<Snapshot> f = lock.unlockWithBiometricsAsync(worker);
                long deadline = System.currentTimeMillis() + 10_000;
                while (ks.loadRunner == null && System.currentTimeMillis() < deadline) Harness.sleep(5);
                check(ks.loadRunner != null, "the check is showing");
                cancelledAtOnce(f);
                ks.answer.countDown(); // the person answers after all
                worker.submit(() -> { }).get(); // the call has returned
                check(ks.lastLoadReturned != null && Arrays.equals(ks.lastLoadReturned, new byte[32]), "the late secret is wiped");
                eq(lock.snapshot().state(), State.LOCKED, "a late answer unlocks nothing");
                check(!worker.submit(() -> Thread.currentThread().isInterrupted()).get(), "the interrupt did not outlive the call");

                ks.stubborn = false; // a check that gives up when interrupted
                ks.answer = new CountDownLatch(1);
                ks.loadRunner = null;
                CompletableFuture<Snapshot> g = lock.unlockWithBiometricsAsync(worker);
                while (ks.loadRunner == null && System.currentTimeMillis() < deadline) Harness.sleep(5);
                cancelledAtOnce(g);
                worker.submit(() -> { }).get(10, java.util.concurrent.TimeUnit.SECONDS); // the interrupt ended it at once
                eq(lock.snapshot().state(), State.LOCKED, "still locked");
                ks.answer = null;
                eq(lock.unlockWithBiometricsAsync(worker).get(10, java.util.concurrent.TimeUnit.SECONDS).state(), State.UNLOCKED,
                        "the next unlock works");
            } finally {
                worker.shutdownNow();
            }
        });
        h.test("unlockWithBiometricsAsync(AsyncAuthenticator): close() while a check that never answers is out ends the future at once; a late secret is wiped", () -> {
            byte[][] item = new byte[1][];
            IdleLock lock = enabledByPair(fast(new Harness.FakeClock()), item);
            lock.lock();
            Silent host = new Silent();
            CompletableFuture<Snapshot> f = lock.unlockWithBiometricsAsync(host);
            check(!f.isDone(), "waiting for the check");
            lock.close();
            endedByClose(f);
            byte[] late = copy(item[0]);
            host.load.complete(late); // the person answers after the app closed the lock
            check(Arrays.equals(late, new byte[32]), "the late answer's secret is wiped");
            endedByClose(f);
        });
        h.test("enableBiometricsAsync: close() while a store that never answers is out ends the future at once; a late store is deleted", () -> {
            IdleLock lock = fast(new Harness.FakeClock()).build();
            lock.setPasscode(Harness.chars("2468"));
            Silent host = new Silent();
            CompletableFuture<Snapshot> f = lock.enableBiometricsAsync(host);
            check(!f.isDone(), "waiting for the store");
            byte[] handed = host.storeArgument;
            lock.close();
            endedByClose(f);
            check(Arrays.equals(handed, new byte[32]), "the request's secret is wiped at the close");
            host.store.complete(null); // stored after all: the shortcut never went on, the item must go
            eq(host.deletes.get(), 1, "the late item is deleted");
        });
        h.test("unlockWithBiometricsAsync(Executor): close() while an Authenticator that never answers is out ends the future at once; its late answer is wiped", () -> {
            FakeKeystore ks = new FakeKeystore();
            ExecutorService worker = Executors.newSingleThreadExecutor();
            try {
                IdleLock lock = BiometricTests.enabled(ks);
                lock.lock();
                ks.answer = new CountDownLatch(1);
                ks.stubborn = true; // ignores the interrupt
                CompletableFuture<Snapshot> f = lock.unlockWithBiometricsAsync(worker);
                long deadline = System.currentTimeMillis() + 10_000;
                while (ks.loadRunner == null && System.currentTimeMillis() < deadline) Harness.sleep(5);
                check(ks.loadRunner != null, "the check is showing");
                lock.close();
                endedByClose(f);
                ks.answer.countDown(); // the person answers after the app closed the lock
                worker.submit(() -> { }).get(10, TimeUnit.SECONDS); // the call has returned
                check(ks.lastLoadReturned != null && Arrays.equals(ks.lastLoadReturned, new byte[32]), "the late secret is wiped");
                endedByClose(f);
                check(!worker.submit(() -> Thread.currentThread().isInterrupted()).get(10, TimeUnit.SECONDS),
                        "the interrupt did not outlive the call");

                // Queued behind a busy worker when the lock is closed: it never calls the library.
                IdleLock other = BiometricTests.enabled(ks);
                CountDownLatch busy = new CountDownLatch(1);
                worker.execute(() -> {
                    try {
                        busy.await(10, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
                ks.loadRunner = null;
                ks.answer = null;
                CompletableFuture<Snapshot> g = other.unlockWithBiometricsAsync(worker);
                other.close();
                endedByClose(g);
                busy.countDown();
                worker.submit(() -> { }).get(10, TimeUnit.SECONDS);
                check(ks.loadRunner == null, "a helper still queued at the close never ran the check");
            } finally {
                worker.shutdownNow();
            }
        });
    }
}
