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
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
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
    static class Silent implements AsyncAuthenticator {
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
        closeRaces(h);
    }
    /** How many unlockWithBiometricsAsync(Executor) calls the lock still tracks for close() (its private set). */
    static int waitingCalls(IdleLock lock) {
        try {
            java.lang.reflect.Field f = IdleLock.class.getDeclaredField("waitingCalls");
            f.setAccessible(true);
            return ((java.util.Set<?>) f.get(lock)).size();
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    /** Runs a and b at the same moment on the two threads of pool, and waits for both. */
    static void together(ExecutorService pool, Runnable a, Runnable b) throws Exception {
        CountDownLatch go = new CountDownLatch(1);
        Future<?> fa = pool.submit(() -> { go.await(); a.run(); return null; });
        Future<?> fb = pool.submit(() -> { go.await(); b.run(); return null; });
        go.countDown();
        fa.get(10, TimeUnit.SECONDS);
        fb.get(10, TimeUnit.SECONDS);
    }

    /** Races close() with the host's answer, with a cancel, from inside the check, and across locks. */
    static void closeRaces(Harness h) {
        h.test("close() racing the check's answer, many times: the future always ends (unlocked or IllegalStateException) and the answer is always wiped", () -> {
            ExecutorService pool = Executors.newFixedThreadPool(2);
            try {
                for (int i = 0; i < 150; i++) {
                    byte[][] item = new byte[1][];
                    IdleLock lock = enabledByPair(fast(new Harness.FakeClock()), item);
                    lock.lock();
                    Silent host = new Silent();
                    CompletableFuture<Snapshot> f = lock.unlockWithBiometricsAsync(host);
                    byte[] answer = copy(item[0]);
                    together(pool, () -> host.load.complete(answer), lock::close);
                    check(f.isDone(), "ended (iteration " + i + ")");
                    try {
                        eq(f.get().state(), State.UNLOCKED, "an answer that won unlocked");
                    } catch (ExecutionException e) {
                        check(e.getCause() instanceof IllegalStateException, "IllegalStateException, not " + e.getCause());
                    }
                    check(Arrays.equals(answer, new byte[32]), "the answer is wiped (iteration " + i + ")");
                }
            } finally {
                pool.shutdownNow();
            }
        });
        h.test("close() racing a store's completion, many times: a future that failed always deleted the item, one that succeeded never did", () -> {
            ExecutorService pool = Executors.newFixedThreadPool(2);
            try {
                int failedWithoutDelete = 0, failed = 0;
                for (int i = 0; i < 150; i++) {
                    IdleLock lock = fast(new Harness.FakeClock()).build();
                    lock.setPasscode(Harness.chars("2468"));
                    Silent host = new Silent();
                    CompletableFuture<Snapshot> f = lock.enableBiometricsAsync(host);
                    byte[] handed = host.storeArgument;
                    together(pool, () -> host.store.complete(null), lock::close);
                    check(f.isDone(), "ended (iteration " + i + ")");
                    check(Arrays.equals(handed, new byte[32]), "the request's secret is wiped (iteration " + i + ")");
                    if (f.isCompletedExceptionally()) {
                        failed++;
                        if (host.deletes.get() != 1) failedWithoutDelete++;
                    } else {
                        eq(host.deletes.get(), 0, "an enable that succeeded keeps its item");
                    }
                }
                eq(failedWithoutDelete, 0, "enables reported failed whose stored item was not deleted (of " + failed + " failed)");
            } finally {
                pool.shutdownNow();
            }
        });
        h.test("close() and cancel() at the same moment while the check is out: the future ends once, the late answer is wiped", () -> {
            ExecutorService pool = Executors.newFixedThreadPool(2);
            try {
                for (int i = 0; i < 50; i++) {
                    byte[][] item = new byte[1][];
                    IdleLock lock = enabledByPair(fast(new Harness.FakeClock()), item);
                    lock.lock();
                    Silent host = new Silent();
                    CompletableFuture<Snapshot> f = lock.unlockWithBiometricsAsync(host);
                    together(pool, () -> f.cancel(true), lock::close);
                    check(f.isDone(), "ended");
                    try {
                        f.join();
                        throw new AssertionError("completed normally");
                    } catch (CancellationException e) {
                        // the cancel won
                    } catch (java.util.concurrent.CompletionException e) {
                        check(e.getCause() instanceof IllegalStateException, "IllegalStateException, not " + e.getCause());
                    }
                    byte[] late = copy(item[0]);
                    host.load.complete(late);
                    check(Arrays.equals(late, new byte[32]), "the late answer is wiped");
                }
            } finally {
                pool.shutdownNow();
            }
        });
        h.test("close() from inside the host's check, and a stage that then fails: the future fails with IllegalStateException, secrets wiped, a stored item deleted", () -> {
            byte[][] item = new byte[1][];
            IdleLock lock = enabledByPair(fast(new Harness.FakeClock()), item);
            lock.lock();
            byte[] answer = copy(item[0]);
            CompletableFuture<Snapshot> f = lock.unlockWithBiometricsAsync(new Silent() {
                @Override public CompletionStage<byte[]> loadSecret(BiometricRequest request) {
                    lock.close();
                    return CompletableFuture.completedFuture(answer);
                }
            });
            endedByClose(f);
            check(Arrays.equals(answer, new byte[32]), "the answer given after the close is wiped");

            IdleLock other = fast(new Harness.FakeClock()).build();
            other.setPasscode(Harness.chars("2468"));
            Silent host = new Silent() {
                @Override public CompletionStage<Void> storeSecret(BiometricRequest request, byte[] secret) {
                    storeArgument = secret;
                    other.close();
                    return CompletableFuture.completedFuture(null);
                }
            };
            CompletableFuture<Snapshot> g = other.enableBiometricsAsync(host);
            endedByClose(g);
            eq(host.deletes.get(), 1, "the item stored after the close is deleted");
            check(Arrays.equals(host.storeArgument, new byte[32]), "the request's secret is wiped");

            byte[][] item3 = new byte[1][];
            IdleLock third = enabledByPair(fast(new Harness.FakeClock()), item3);
            third.lock();
            Silent failing = new Silent();
            CompletableFuture<Snapshot> k = third.unlockWithBiometricsAsync(failing);
            third.close();
            failing.load.completeExceptionally(new RuntimeException("the plugin failed after the close"));
            endedByClose(k);
        });
        h.test("unlockWithBiometricsAsync(Executor): close() from inside loadSecret ends the future; the answer is wiped and the worker is left uninterrupted", () -> {
            FakeKeystore ks = new FakeKeystore();
            ExecutorService worker = Executors.newSingleThreadExecutor();
            try {
                IdleLock lock = BiometricTests.enabled(ks);
                lock.lock();
                IdleLock[] self = {lock};
                FakeKeystore closing = new FakeKeystore() {
                    @Override public byte[] loadSecret(String reason) throws org.idlelock.AuthenticationException {
                        self[0].close();
                        return super.loadSecret(reason);
                    }
                };
                closing.item = copy(ks.item);
                IdleLock other = fast(new Harness.FakeClock()).authenticator(closing).build();
                other.setPasscode(Harness.chars("2468"));
                other.enableBiometrics();
                other.lock();
                self[0] = other;
                CompletableFuture<Snapshot> f = other.unlockWithBiometricsAsync(worker);
                endedByCloseEventually(f);
                worker.submit(() -> { }).get(10, TimeUnit.SECONDS);
                check(closing.lastLoadReturned != null && Arrays.equals(closing.lastLoadReturned, new byte[32]), "the answer is wiped");
                check(!worker.submit(() -> Thread.currentThread().isInterrupted()).get(10, TimeUnit.SECONDS),
                        "the interrupt did not outlive the call");
                lock.close();
            } finally {
                worker.shutdownNow();
            }
        });
        h.test("unlockWithBiometricsAsync(Executor): close() while the future's dependents run on the worker never interrupts them", () -> {
            FakeKeystore ks = new FakeKeystore();
            ExecutorService worker = Executors.newSingleThreadExecutor();
            try {
                IdleLock lock = BiometricTests.enabled(ks);
                lock.lock();
                ks.answer = new CountDownLatch(1);
                CompletableFuture<Snapshot> f = lock.unlockWithBiometricsAsync(worker);
                CountDownLatch running = new CountDownLatch(1);
                CountDownLatch closed = new CountDownLatch(1);
                CompletableFuture<Boolean> interrupted = f.thenApply(s -> {
                    running.countDown(); // the app's own work after the unlock, on the worker
                    try {
                        closed.await(10, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        return true;
                    }
                    return Thread.currentThread().isInterrupted();
                });
                ks.answer.countDown();
                check(running.await(10, TimeUnit.SECONDS), "the dependent runs");
                lock.close(); // the app quits meanwhile
                closed.countDown();
                eq(f.join().state(), State.UNLOCKED, "the unlock had returned");
                check(!interrupted.get(10, TimeUnit.SECONDS), "the dependent of a call that had returned was not interrupted");
            } finally {
                worker.shutdownNow();
            }
        });
        h.test("unlockWithBiometricsAsync(Executor): an executor that refuses the task leaves nothing for close() to hold", () -> {
            FakeKeystore ks = new FakeKeystore();
            IdleLock lock = BiometricTests.enabled(ks);
            for (int i = 0; i < 3; i++) {
                expect(RejectedExecutionException.class, () -> lock.unlockWithBiometricsAsync(r -> {
                    throw new RejectedExecutionException("the pool is shut down");
                }));
            }
            eq(waitingCalls(lock), 0, "calls tracked after the executor refused them");
            lock.close();
        });
        h.test("helpers on lock A are untouched when lock B closes; A's slots all come back", () -> {
            byte[][] itemA = new byte[1][];
            byte[][] itemB = new byte[1][];
            IdleLock a = enabledByPair(fast(new Harness.FakeClock()), itemA);
            IdleLock b = enabledByPair(fast(new Harness.FakeClock()), itemB);
            a.lock();
            b.lock();
            List<Silent> hostsA = new ArrayList<>();
            List<CompletableFuture<Snapshot>> onA = new ArrayList<>();
            List<CompletableFuture<Snapshot>> onB = new ArrayList<>();
            for (int i = 0; i < IdleLock.BIOMETRIC_REQUESTS_MAX; i++) {
                Silent s = new Silent();
                hostsA.add(s);
                onA.add(a.unlockWithBiometricsAsync(s));
                onB.add(b.unlockWithBiometricsAsync(new Silent()));
            }
            b.close();
            for (CompletableFuture<Snapshot> f : onB) endedByClose(f);
            for (CompletableFuture<Snapshot> f : onA) check(!f.isDone(), "a helper on the open lock still waits");
            for (int i = 1; i < hostsA.size(); i++) hostsA.get(i).load.cancel(true);
            hostsA.get(0).load.complete(copy(itemA[0]));
            eq(onA.get(0).get(10, TimeUnit.SECONDS).state(), State.UNLOCKED, "the open lock unlocks");
            allSlotsFree(a, false);
            a.close();
        });
    }

    /** As endedByClose, for a future that may end a moment after close() returns (another thread closed). */
    static void endedByCloseEventually(CompletableFuture<Snapshot> f) throws Exception {
        try {
            f.get(10, TimeUnit.SECONDS);
            throw new AssertionError("the future completed normally after close()");
        } catch (ExecutionException e) {
            check(e.getCause() instanceof IllegalStateException, "failed with IllegalStateException, not " + e.getCause());
        }
    }
}
