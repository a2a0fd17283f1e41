// SPDX-License-Identifier: MIT
package org.idlelock.tests;

import static org.idlelock.tests.Harness.chars;
import static org.idlelock.tests.Harness.check;
import static org.idlelock.tests.Harness.contains;
import static org.idlelock.tests.Harness.eq;
import static org.idlelock.tests.Harness.expect;
import static org.idlelock.tests.Harness.fast;

import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.idlelock.AuthResult;
import org.idlelock.CallbackException;
import org.idlelock.IdleLock;
import org.idlelock.LockUnavailableException;
import org.idlelock.SessionLockedException;
import org.idlelock.Snapshot;
import org.idlelock.State;

/** The biometric shortcut through the callback Authenticator, blocking a worker thread. */
final class BiometricTests {
    private BiometricTests() {}

    static IdleLock enabled(FakeKeystore ks) {
        IdleLock lock = fast(new Harness.FakeClock()).authenticator(ks).unlockReason("Unlock your notes").build();
        lock.setPasscode(chars("2468"));
        lock.enableBiometrics();
        return lock;
    }

    static void run(Harness h) {
        h.test("enable, lock, unlock with the check; the binding wipes the secret's arrays", () -> {
            FakeKeystore ks = new FakeKeystore();
            try (IdleLock lock = enabled(ks)) {
                check(lock.snapshot().isBiometricsEnabled(), "enabled");
                eq(ks.item.length, IdleLock.AUTH_SECRET_BYTES, "32 bytes kept");
                check(Arrays.equals(ks.lastStoreArgument, new byte[32]), "storeSecret's argument wiped after it returned");
                lock.lock();
                Snapshot s = lock.unlockWithBiometrics();
                eq(s.state(), State.UNLOCKED, "unlocked");
                eq(ks.lastReason, "Unlock your notes", "the reason reached the prompt");
                check(Arrays.equals(ks.lastLoadReturned, new byte[32]), "loadSecret's array wiped");
                lock.disableBiometrics();
                eq(ks.deletes, 1, "deleteSecret");
                check(!lock.snapshot().isBiometricsEnabled(), "off");
            }
        });
        h.test("failed and cancelled checks: LockUnavailable, never counted", () -> {
            FakeKeystore ks = new FakeKeystore();
            try (IdleLock lock = enabled(ks)) {
                lock.lock();
                ks.outcome = AuthResult.CANCELLED;
                LockUnavailableException e = expect(LockUnavailableException.class, lock::unlockWithBiometrics);
                contains(e.getMessage().toLowerCase(), "cancel", "the message says cancelled");
                ks.outcome = AuthResult.FAILED;
                expect(LockUnavailableException.class, lock::unlockWithBiometrics);
                eq(lock.snapshot().attemptsRemaining(), 5, "not counted");
                check(lock.snapshot().isBiometricsEnabled(), "still on");
            }
        });
        h.test("a secret that does not open the wrap turns the shortcut off", () -> {
            FakeKeystore ks = new FakeKeystore();
            try (IdleLock lock = enabled(ks)) {
                lock.lock();
                ks.item = new byte[32]; // the enrolment changed: another item
                expect(LockUnavailableException.class, lock::unlockWithBiometrics);
                check(!lock.snapshot().isBiometricsEnabled(), "turned off");
                eq(lock.unlock(chars("2468")).state(), State.UNLOCKED, "the passcode remains");
            }
        });
        h.test("an authenticator bug surfaces as CallbackException, the check as failed", () -> {
            FakeKeystore ks = new FakeKeystore();
            try (IdleLock lock = enabled(ks)) {
                lock.lock();
                ks.returnWrongLength = true;
                CallbackException e = expect(CallbackException.class, lock::unlockWithBiometrics);
                contains(e.getCause().getMessage(), "31 bytes", "names the length");
                check(e.getSuppressed().length == 1 && e.getSuppressed()[0] instanceof LockUnavailableException,
                        "the call's own failure is attached");
                eq(lock.snapshot().state(), State.LOCKED, "still locked");
            }
        });
        h.test("unavailable hardware: enabling is refused", () -> {
            FakeKeystore ks = new FakeKeystore();
            ks.available = false;
            try (IdleLock lock = fast(new Harness.FakeClock()).authenticator(ks).build()) {
                lock.setPasscode(chars("2468"));
                expect(LockUnavailableException.class, lock::enableBiometrics);
                lock.lock();
                expect(SessionLockedException.class, lock::enableBiometrics);
            }
        });
        h.test("the async unlock blocks a worker until the prompt's callback answers", () -> {
            FakeKeystore ks = new FakeKeystore();
            ExecutorService worker = Executors.newSingleThreadExecutor(r -> new Thread(r, "biometric-worker"));
            try (IdleLock lock = enabled(ks)) {
                lock.lock();
                ks.answer = new CountDownLatch(1);
                CompletableFuture<Snapshot> f = lock.unlockWithBiometricsAsync(worker);
                Harness.sleep(50);
                check(!f.isDone(), "waiting for the person");
                lock.touch(); // other calls go on meanwhile
                eq(lock.snapshot().state(), State.LOCKED, "still locked while the prompt is up");
                ks.answer.countDown(); // BiometricPrompt's onAuthenticationSucceeded, on "the main thread"
                eq(f.get(10, TimeUnit.SECONDS).state(), State.UNLOCKED, "completed");
                eq(ks.loadThread, "biometric-worker", "loadSecret ran on the worker");
                lock.lock();
                ks.answer = null;
                ks.outcome = AuthResult.CANCELLED;
                CompletionException ce = expect(CompletionException.class, () -> lock.unlockWithBiometricsAsync(worker).join());
                check(ce.getCause() instanceof LockUnavailableException, "completes exceptionally");
            } finally {
                worker.shutdownNow();
            }
        });
        h.test("a lock during the check wins over its success", () -> {
            FakeKeystore ks = new FakeKeystore();
            ExecutorService worker = Executors.newSingleThreadExecutor();
            try (IdleLock lock = enabled(ks)) {
                lock.lock();
                ks.answer = new CountDownLatch(1);
                CompletableFuture<Snapshot> f = lock.unlockWithBiometricsAsync(worker);
                Harness.sleep(50);
                lock.disable(); // signs out while the prompt is up
                ks.answer.countDown();
                Throwable t = expect(Throwable.class, () -> f.get(10, TimeUnit.SECONDS));
                check(t.getCause() instanceof org.idlelock.IdleLockException, "refused: " + t.getCause());
                check(!lock.snapshot().isEnabled(), "signed out stays signed out");
            } finally {
                worker.shutdownNow();
            }
        });
    }
}
