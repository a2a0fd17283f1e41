// SPDX-License-Identifier: MIT
package org.idlelock.tests;

import static org.idlelock.tests.Harness.chars;
import static org.idlelock.tests.Harness.check;
import static org.idlelock.tests.Harness.contains;
import static org.idlelock.tests.Harness.eq;
import static org.idlelock.tests.Harness.expect;
import static org.idlelock.tests.Harness.fast;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.idlelock.AuthResult;
import org.idlelock.BiometricRequest;
import org.idlelock.IdleLock;
import org.idlelock.IdleLockException;
import org.idlelock.InvalidArgumentException;
import org.idlelock.LockUnavailableException;
import org.idlelock.NoPasscodeException;
import org.idlelock.ReauthRequiredException;
import org.idlelock.SessionLockedException;
import org.idlelock.Snapshot;
import org.idlelock.State;

/** The two-phase pair (1.2) as BiometricRequest, its CompletableFuture helpers, the policies and the step-up check. */
final class AsyncBiometricTests {
    private AsyncBiometricTests() {}

    /** A lock with a passcode whose shortcut was turned on through the pair; {@code item[0]} is the host's copy. */
    static IdleLock enabledByPair(IdleLock.Builder b, byte[][] item) {
        IdleLock lock = b.build();
        lock.setPasscode(chars("2468"));
        try (BiometricRequest req = lock.beginBiometricEnable()) {
            eq(req.purpose(), BiometricRequest.Purpose.ENABLE, "purpose");
            item[0] = Arrays.copyOf(req.secret(), IdleLock.AUTH_SECRET_BYTES);
            check(!Arrays.equals(item[0], new byte[32]), "a random secret");
            req.finish(AuthResult.OK);
        }
        check(lock.snapshot().isBiometricsEnabled(), "enabled through the pair");
        return lock;
    }

    static byte[] copy(byte[] a) { return Arrays.copyOf(a, a.length); }

    /** What a future failed with (its cause), or an AssertionError when it did not fail. */
    static Throwable failure(CompletableFuture<?> f) throws InterruptedException {
        try {
            f.get(10, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (CancellationException e) {
            return e;
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("the future never completed");
        }
        throw new AssertionError("the future completed normally");
    }

    static void run(Harness h) {
        h.test("pair: begun on one thread, finished from a prompt's callback thread; the binding wipes both secrets", () -> {
            Harness.FakeClock clock = new Harness.FakeClock();
            byte[][] item = new byte[1][];
            BiometricRequest enable;
            try (IdleLock lock = fast(clock).build()) {
                lock.setPasscode(chars("2468"));
                enable = lock.beginBiometricEnable();
                byte[] own = enable.secret();
                item[0] = copy(own);
                check(!enable.snapshot().isBiometricsEnabled(), "not on before the finish");
                eq(enable.finish(AuthResult.OK).isBiometricsEnabled(), true, "on after the finish");
                check(Arrays.equals(own, new byte[32]), "the request's copy of the enable secret is wiped");
                check(enable.isFinished() && enable.future().isDone(), "ended");
                lock.lock();
                BiometricRequest req = lock.beginBiometricUnlock();
                eq(req.purpose(), BiometricRequest.Purpose.UNLOCK, "purpose");
                eq(req.secret(), null, "an unlock hands out no secret");
                check(req.token() != 0, "a token");
                byte[] released = copy(item[0]);
                AtomicReference<String> listenerThread = new AtomicReference<>();
                lock.subscribe(s -> listenerThread.set(Thread.currentThread().getName()));
                Thread callback = new Thread(() -> req.finish(AuthResult.OK, released), "prompt-callback");
                callback.start();
                Snapshot s = req.future().get(10, TimeUnit.SECONDS);
                callback.join();
                eq(s.state(), State.UNLOCKED, "unlocked by the finish on the other thread");
                eq(lock.snapshot().state(), State.UNLOCKED, "the lock agrees");
                eq(listenerThread.get(), "prompt-callback", "the change was heard on the finishing thread");
                check(Arrays.equals(released, new byte[32]), "the array handed to finish is wiped");
                eq(s.lastAuthMs(), clock.now.get(), "lastAuthMs is the finish's clock reading");
                eq(lock.snapshot().attemptsRemaining(), 5, "no attempt counted");
            }
        });
        h.test("pair: cancelled and failed checks change nothing but the prompt", () -> {
            byte[][] item = new byte[1][];
            try (IdleLock lock = enabledByPair(fast(new Harness.FakeClock()), item)) {
                lock.lock();
                Snapshot before = lock.snapshot();
                BiometricRequest req = lock.beginBiometricUnlock();
                LockUnavailableException e = expect(LockUnavailableException.class, () -> req.finish(AuthResult.CANCELLED));
                contains(e.getMessage().toLowerCase(), "cancel", "the message says cancelled");
                eq(e.snapshot().state(), State.LOCKED, "still locked");
                check(failure(req.future()) instanceof LockUnavailableException, "the future fails the same way");
                BiometricRequest failed = lock.beginBiometricUnlock();
                contains(expect(LockUnavailableException.class, () -> failed.finish(AuthResult.FAILED)).getMessage().toLowerCase(),
                        "fail", "the message says failed");
                BiometricRequest gone = lock.beginBiometricUnlock();
                expect(LockUnavailableException.class, () -> gone.finish(AuthResult.UNAVAILABLE));
                BiometricRequest dismissed = lock.beginBiometricUnlock();
                expect(InvalidArgumentException.class, () -> dismissed.dismiss(AuthResult.OK));
                Snapshot quiet = dismissed.dismiss(AuthResult.FAILED); // a prompt's error callback: nothing thrown
                eq(quiet.state(), State.LOCKED, "dismiss returns the state");
                check(failure(dismissed.future()) instanceof LockUnavailableException, "its future has the library's answer");
                eq(dismissed.dismiss(AuthResult.CANCELLED), null, "nothing left to dismiss");
                Snapshot after = lock.snapshot();
                eq(after.state(), State.LOCKED, "locked");
                eq(after.attemptsRemaining(), before.attemptsRemaining(), "never counted");
                check(after.isBiometricsEnabled(), "the shortcut stays on");
                eq(lock.unlock(chars("2468")).state(), State.UNLOCKED, "the passcode works");
            }
        });
        h.test("pair: a secret that does not open the wrap turns the shortcut off", () -> {
            byte[][] item = new byte[1][];
            try (IdleLock lock = enabledByPair(fast(new Harness.FakeClock()), item)) {
                lock.lock();
                BiometricRequest req = lock.beginBiometricUnlock();
                byte[] wrong = copy(item[0]);
                wrong[0] ^= 1; // the enrolment changed: another item
                expect(LockUnavailableException.class, () -> req.finish(AuthResult.OK, wrong));
                check(Arrays.equals(wrong, new byte[32]), "wiped even when refused");
                Snapshot s = lock.snapshot();
                eq(s.state(), State.LOCKED, "still locked");
                check(!s.isBiometricsEnabled(), "turned off");
                expect(LockUnavailableException.class, lock::beginBiometricUnlock);
                eq(lock.unlock(chars("2468")).state(), State.UNLOCKED, "the passcode remains");
            }
        });
        h.test("pair: a request left open past promptCapMs expires (a fake clock)", () -> {
            Harness.FakeClock clock = new Harness.FakeClock();
            byte[][] item = new byte[1][];
            try (IdleLock lock = enabledByPair(fast(clock).promptCapMs(10_000), item)) {
                lock.lock();
                BiometricRequest req = lock.beginBiometricUnlock();
                clock.advance(10_001);
                LockUnavailableException e = expect(LockUnavailableException.class, () -> req.finish(AuthResult.OK, copy(item[0])));
                contains(e.getMessage(), "expired", "the message says it expired");
                eq(lock.snapshot().state(), State.LOCKED, "a late release unlocks nothing");
                check(req.isFinished(), "finished all the same");
                InvalidArgumentException again = expect(InvalidArgumentException.class, () -> req.finish(AuthResult.OK, copy(item[0])));
                eq(again.status(), 1, "INVALID_ARGUMENT");
                BiometricRequest fresh = lock.beginBiometricUnlock();
                clock.advance(9_999);
                eq(fresh.finish(AuthResult.OK, copy(item[0])).state(), State.UNLOCKED, "within the cap it unlocks");
            }
        });
        h.test("pair: a token finished twice, also by two threads at once: exactly one finish counts", () -> {
            byte[][] item = new byte[1][];
            try (IdleLock lock = enabledByPair(fast(new Harness.FakeClock()), item)) {
                lock.lock();
                BiometricRequest req = lock.beginBiometricUnlock();
                eq(req.finish(AuthResult.OK, copy(item[0])).state(), State.UNLOCKED, "the first finish");
                long seq = lock.snapshot().seq();
                lock.lock();
                InvalidArgumentException e = expect(InvalidArgumentException.class, () -> req.finish(AuthResult.OK, copy(item[0])));
                contains(e.getMessage(), "token", "the message names the token");
                eq(lock.snapshot().state(), State.LOCKED, "a finished token unlocks nothing");
                eq(req.future().get().state(), State.UNLOCKED, "the future keeps the first outcome");
                check(lock.snapshot().seq() == seq + 1, "nothing but the lock changed");
                for (int round = 0; round < 20; round++) {
                    BiometricRequest r = lock.beginBiometricUnlock();
                    CyclicBarrier start = new CyclicBarrier(2);
                    AtomicInteger wins = new AtomicInteger();
                    AtomicInteger refused = new AtomicInteger();
                    List<Thread> threads = new ArrayList<>();
                    for (int t = 0; t < 2; t++) {
                        Thread th = new Thread(() -> {
                            try {
                                start.await();
                                r.finish(AuthResult.OK, copy(item[0]));
                                wins.incrementAndGet();
                            } catch (InvalidArgumentException x) {
                                refused.incrementAndGet();
                            } catch (Exception x) {
                                throw new RuntimeException(x);
                            }
                        });
                        th.start();
                        threads.add(th);
                    }
                    for (Thread th : threads) th.join();
                    eq(wins.get(), 1, "round " + round + ": one finish wins");
                    eq(refused.get(), 1, "round " + round + ": the other is refused");
                    eq(r.future().get(10, TimeUnit.SECONDS).state(), State.UNLOCKED, "round " + round + ": the future has the winner's outcome");
                    lock.lock();
                }
            }
        });
        h.test("pair: disableBiometrics, disable and a new passcode void open requests", () -> {
            byte[][] item = new byte[1][];
            try (IdleLock lock = enabledByPair(fast(new Harness.FakeClock()), item)) {
                lock.lock();
                BiometricRequest req = lock.beginBiometricUnlock();
                lock.disableBiometrics();
                InvalidArgumentException e = expect(InvalidArgumentException.class, () -> req.finish(AuthResult.OK, copy(item[0])));
                eq(e.status(), 1, "INVALID_ARGUMENT");
                eq(lock.snapshot().state(), State.LOCKED, "a voided request unlocks nothing");
                check(failure(req.future()) instanceof InvalidArgumentException, "the future learns it was voided");
                check(req.isFinished(), "ended");
                eq(req.cancel(), null, "cancel of an ended request does nothing");
            }
            try (IdleLock lock = fast(new Harness.FakeClock()).build()) {
                lock.setPasscode(chars("2468"));
                BiometricRequest enable = lock.beginBiometricEnable();
                lock.setPasscode(chars("1357")); // a new passcode voids it
                expect(InvalidArgumentException.class, () -> enable.finish(AuthResult.OK));
                check(!lock.snapshot().isBiometricsEnabled(), "never turned on");
                check(Arrays.equals(enable.secret(), new byte[32]), "its secret wiped when it ended");
                BiometricRequest other = lock.beginBiometricEnable();
                lock.disable(); // sign-out
                expect(InvalidArgumentException.class, () -> other.finish(AuthResult.OK));
                check(!lock.snapshot().isEnabled(), "signed out");
            }
        });
        h.test("pair: bad arguments are refused before the library and leave the request open", () -> {
            byte[][] item = new byte[1][];
            try (IdleLock lock = enabledByPair(fast(new Harness.FakeClock()), item)) {
                lock.lock();
                BiometricRequest req = lock.beginBiometricUnlock();
                contains(expect(NullPointerException.class, () -> req.finish(null, null)).getMessage(), "result", "names result");
                contains(expect(NullPointerException.class, () -> req.finish(AuthResult.OK)).getMessage(), "secret", "names secret");
                byte[] short31 = Arrays.copyOf(item[0], 31);
                contains(expect(InvalidArgumentException.class, () -> req.finish(AuthResult.OK, short31)).getMessage(), "31", "says the length");
                check(Arrays.equals(short31, new byte[31]), "a refused array is wiped too");
                expect(InvalidArgumentException.class, () -> req.finish(AuthResult.CANCELLED, copy(item[0])));
                check(!req.isFinished() && !req.future().isDone(), "still open");
                eq(req.finish(AuthResult.OK, copy(item[0])).state(), State.UNLOCKED, "and still finishes");
                BiometricRequest enable = lock.beginBiometricEnable();
                contains(expect(InvalidArgumentException.class, () -> enable.finish(AuthResult.OK, new byte[32])).getMessage(),
                        "ENABLE", "an enable confirms with no secret");
                enable.cancel();
            }
        });
        h.test("pair: at most BIOMETRIC_REQUESTS_MAX open; a dropped request is cancelled by the reaper", () -> {
            byte[][] item = new byte[1][];
            try (IdleLock lock = enabledByPair(fast(new Harness.FakeClock()), item)) {
                lock.lock();
                List<BiometricRequest> open = new ArrayList<>();
                for (int i = 0; i < IdleLock.BIOMETRIC_REQUESTS_MAX; i++) open.add(lock.beginBiometricUnlock());
                contains(expect(InvalidArgumentException.class, lock::beginBiometricUnlock).getMessage(),
                        "IdleLock.BIOMETRIC_REQUESTS_MAX", "the ninth is refused, naming the limit");
                for (BiometricRequest r : open) r.close();
                for (BiometricRequest r : open) check(r.isFinished(), "closed requests are finished");
                open.clear();
                for (int i = 0; i < IdleLock.BIOMETRIC_REQUESTS_MAX; i++) lock.beginBiometricUnlock(); // dropped at once
                BiometricRequest got = null;
                long deadline = System.currentTimeMillis() + 20_000;
                while (got == null && System.currentTimeMillis() < deadline) {
                    System.gc();
                    Harness.sleep(20);
                    try {
                        got = lock.beginBiometricUnlock();
                    } catch (InvalidArgumentException full) {
                        // not collected yet
                    }
                }
                check(got != null, "the dropped requests were finished: a slot came free");
                eq(got.finish(AuthResult.OK, copy(item[0])).state(), State.UNLOCKED, "and it works");
            }
        });
        h.test("pair after close: futures fail, secrets wiped, finish is IllegalStateException, cancel is quiet", () -> {
            IdleLock lock = fast(new Harness.FakeClock()).build();
            lock.setPasscode(chars("2468"));
            BiometricRequest enable = lock.beginBiometricEnable();
            byte[] own = enable.secret();
            check(!Arrays.equals(own, new byte[32]), "a secret");
            lock.close();
            check(failure(enable.future()) instanceof IllegalStateException, "the future fails: the lock was closed");
            check(Arrays.equals(own, new byte[32]), "the request's secret is wiped at close");
            check(enable.isFinished(), "ended");
            AtomicReference<Throwable> other = new AtomicReference<>();
            Thread t = new Thread(() -> {
                try {
                    enable.finish(AuthResult.OK);
                } catch (Throwable x) {
                    other.set(x);
                }
            });
            t.start();
            t.join();
            check(other.get() instanceof IllegalStateException, "finish from another thread after close: " + other.get());
            eq(enable.cancel(), null, "cancel after close does nothing");
            enable.close();
            expect(IllegalStateException.class, lock::beginBiometricUnlock);
            expect(IllegalStateException.class, () -> lock.requireRecentAuth(1000));
        });
        h.test("pair: close from a listener inside a finish: the finish's outcome stands", () -> {
            long live = GlueAccess.liveHandles();
            byte[][] item = new byte[1][];
            IdleLock lock = enabledByPair(fast(new Harness.FakeClock()), item);
            lock.lock();
            BiometricRequest req = lock.beginBiometricUnlock();
            lock.subscribe(s -> {
                if (s.state() == State.UNLOCKED) lock.close();
            });
            eq(req.finish(AuthResult.OK, copy(item[0])).state(), State.UNLOCKED, "the finish returns its outcome");
            eq(req.future().get(1, TimeUnit.SECONDS).state(), State.UNLOCKED, "the future too");
            check(lock.isClosed(), "closed");
            eq(GlueAccess.liveHandles(), live, "destroyed once the finish returned");
        });
        h.test("step-up: requireRecentAuth refused (ReauthRequiredException, status 13), then granted after the pair", () -> {
            Harness.FakeClock clock = new Harness.FakeClock();
            byte[][] item = new byte[1][];
            try (IdleLock lock = enabledByPair(fast(clock), item)) {
                ReauthRequiredException none = expect(ReauthRequiredException.class, () -> lock.requireRecentAuth(60_000));
                eq(none.status(), 13, "status 13");
                eq(none.statusName(), "IDLELOCK_ERR_REAUTH_REQUIRED", "statusName");
                check(none instanceof IdleLockException, "an IdleLockException");
                lock.unlock(chars("2468"));
                lock.requireRecentAuth(60_000);
                clock.advance(30_000);
                lock.touch();
                ReauthRequiredException old = expect(ReauthRequiredException.class, () -> lock.requireRecentAuth(10_000));
                check(!old.getMessage().isEmpty(), "a message");
                BiometricRequest again = lock.beginBiometricUnlock(); // re-authenticate the unlocked session
                Snapshot s = again.finish(AuthResult.OK, copy(item[0]));
                eq(s.lastAuthMs(), clock.now.get(), "lastAuthMs moved to the re-authentication");
                lock.requireRecentAuth(10_000);
                lock.lock();
                expect(SessionLockedException.class, () -> lock.requireRecentAuth(10_000));
                contains(expect(InvalidArgumentException.class, () -> lock.requireRecentAuth(0)).getMessage(), "maxAgeMs", "names it");
                expect(InvalidArgumentException.class, () -> lock.requireRecentAuth(IdleLock.RECENT_AUTH_MAX_MS + 1));
            }
            try (IdleLock bare = fast(new Harness.FakeClock()).build()) {
                expect(NoPasscodeException.class, () -> bare.requireRecentAuth(1000));
            }
        });
        h.test("policy: after biometricMaxUses biometric unlocks the passcode is required", () -> {
            byte[][] item = new byte[1][];
            try (IdleLock lock = enabledByPair(fast(new Harness.FakeClock()).biometricMaxUses(2), item)) {
                List<Boolean> heard = new ArrayList<>();
                lock.subscribe(s -> heard.add(s.isPasscodeRequired()));
                for (int i = 0; i < 2; i++) {
                    lock.lock();
                    check(!lock.snapshot().isPasscodeRequired(), "use " + (i + 1) + " allowed");
                    eq(lock.beginBiometricUnlock().finish(AuthResult.OK, copy(item[0])).state(), State.UNLOCKED, "use " + (i + 1));
                }
                lock.lock();
                check(lock.snapshot().isPasscodeRequired(), "the snapshot says the passcode is required");
                check(heard.contains(Boolean.TRUE), "a listener heard it");
                LockUnavailableException e = expect(LockUnavailableException.class, lock::beginBiometricUnlock);
                contains(e.getMessage(), "biometricMaxUses", "the message names the policy");
                lock.unlock(chars("2468"));
                check(!lock.snapshot().isPasscodeRequired(), "the passcode satisfied it");
                lock.lock();
                eq(lock.beginBiometricUnlock().finish(AuthResult.OK, copy(item[0])).state(), State.UNLOCKED, "the shortcut works again");
            }
        });
        h.test("policy: passcodeMaxAgeMs refuses the shortcut once the passcode entry is that old", () -> {
            Harness.FakeClock clock = new Harness.FakeClock();
            byte[][] item = new byte[1][];
            try (IdleLock lock = enabledByPair(fast(clock).passcodeMaxAgeMs(IdleLock.PASSCODE_MAX_AGE_MIN_MS), item)) {
                lock.lock();
                clock.advance(IdleLock.PASSCODE_MAX_AGE_MIN_MS - 1);
                check(!lock.snapshot().isPasscodeRequired(), "not yet");
                clock.advance(1);
                check(lock.snapshot().isPasscodeRequired(), "an hour after the passcode was entered");
                contains(expect(LockUnavailableException.class, lock::beginBiometricUnlock).getMessage(),
                        "passcodeMaxAgeMs", "names the policy");
            }
        });
        h.test("helper: unlockWithBiometricsAsync/enableBiometricsAsync with stages completed on a main-ui thread", () -> {
            try (FakeAsyncKeystore ks = new FakeAsyncKeystore();
                 IdleLock lock = fast(new Harness.FakeClock()).build()) {
                lock.setPasscode(chars("2468"));
                Snapshot on = lock.enableBiometricsAsync(ks).get(10, TimeUnit.SECONDS);
                check(on.isBiometricsEnabled(), "enabled");
                check(Arrays.equals(ks.lastStoreArgument, new byte[32]), "the request's secret wiped after the finish");
                check(ks.item != null && !Arrays.equals(ks.item, new byte[32]), "the keystore kept its copy");
                lock.lock();
                AtomicReference<String> heardOn = new AtomicReference<>();
                lock.subscribe(s -> heardOn.set(Thread.currentThread().getName()));
                ks.gate = new CompletableFuture<>();
                CompletableFuture<Snapshot> f = lock.unlockWithBiometricsAsync(ks);
                Harness.sleep(30);
                check(!f.isDone(), "waiting for the person, no thread blocked on the lock");
                lock.touch();
                eq(lock.snapshot().state(), State.LOCKED, "other calls go on meanwhile");
                ks.gate.complete(null);
                eq(f.get(10, TimeUnit.SECONDS).state(), State.UNLOCKED, "unlocked");
                eq(heardOn.get(), "main-ui", "finished on the thread that completed the stage");
                check(Arrays.equals(ks.lastLoadReturned, new byte[32]), "the released array wiped");
                ks.gate = null;

                lock.lock();
                ks.outcome = AuthResult.CANCELLED;
                check(failure(lock.unlockWithBiometricsAsync(ks)) instanceof LockUnavailableException, "cancelled: LockUnavailable");
                ks.outcome = AuthResult.OK;
                ks.bug = new IllegalStateException("host bug");
                Throwable bug = failure(lock.unlockWithBiometricsAsync(ks));
                eq(bug.getMessage(), "host bug", "a host bug propagates as itself");
                ks.bug = null;
                eq(lock.snapshot().state(), State.LOCKED, "still locked");

                ks.gate = new CompletableFuture<>();
                CompletableFuture<Snapshot> dismissed = lock.unlockWithBiometricsAsync(ks);
                check(dismissed.cancel(true), "cancelled by the host");
                ks.gate.complete(null);
                Harness.sleep(50);
                eq(lock.snapshot().state(), State.LOCKED, "a cancelled helper unlocks nothing, even when the check answers later");
                ks.gate = null;
                List<BiometricRequest> open = new ArrayList<>();
                for (int i = 0; i < IdleLock.BIOMETRIC_REQUESTS_MAX; i++) open.add(lock.beginBiometricUnlock());
                for (BiometricRequest r : open) r.cancel(); // none was left open by the helpers
                eq(lock.unlockWithBiometricsAsync(ks).get(10, TimeUnit.SECONDS).state(), State.UNLOCKED, "works again");
            }
        });
        h.test("helper: an enable refused after the item was stored deletes the item", () -> {
            try (FakeAsyncKeystore ks = new FakeAsyncKeystore();
                 IdleLock lock = fast(new Harness.FakeClock()).build()) {
                lock.setPasscode(chars("2468"));
                ks.gate = new CompletableFuture<>();
                CompletableFuture<Snapshot> f = lock.enableBiometricsAsync(ks);
                lock.lock(); // after the begin: the enable must not take effect
                ks.gate.complete(null);
                Throwable t = failure(f);
                check(t instanceof SessionLockedException, "refused: " + t);
                eq(ks.deletes, 1, "deleteSecret ran before the future failed");
                check(!lock.snapshot().isBiometricsEnabled(), "off");
                Throwable begin = failure(lock.enableBiometricsAsync(ks));
                check(begin instanceof SessionLockedException, "a begin refused fails the future: " + begin);
            }
        });
        h.test("helper: an authenticator that throws an Error before its stage leaves no request open", () -> {
            // Regression: only a RuntimeException finished the request; an Error (a
            // platform plugin class missing: NoClassDefFoundError) left it open, so the
            // ninth call met a full table (and its prompt deferred the idle rule).
            byte[][] item = new byte[1][];
            List<byte[]> handed = new ArrayList<>();
            org.idlelock.AsyncAuthenticator broken = new org.idlelock.AsyncAuthenticator() {
                @Override public java.util.concurrent.CompletionStage<byte[]> loadSecret(BiometricRequest r) {
                    throw new NoClassDefFoundError("com/vendor/BiometricPlugin");
                }
                @Override public java.util.concurrent.CompletionStage<Void> storeSecret(BiometricRequest r, byte[] secret) {
                    handed.add(secret);
                    throw new NoClassDefFoundError("com/vendor/KeystorePlugin");
                }
            };
            try (IdleLock lock = enabledByPair(fast(new Harness.FakeClock()), item)) {
                for (int i = 0; i <= IdleLock.BIOMETRIC_REQUESTS_MAX; i++) {
                    expect(NoClassDefFoundError.class, () -> lock.enableBiometricsAsync(broken));
                }
                for (byte[] secret : handed) check(Arrays.equals(secret, new byte[32]), "the secret handed out is wiped");
                lock.lock();
                for (int i = 0; i <= IdleLock.BIOMETRIC_REQUESTS_MAX; i++) {
                    expect(NoClassDefFoundError.class, () -> lock.unlockWithBiometricsAsync(broken));
                }
                try (BiometricRequest req = lock.beginBiometricUnlock()) {
                    eq(req.finish(AuthResult.OK, copy(item[0])).state(), State.UNLOCKED, "a begin still finds room");
                }
            }
        });
        h.test("the pair works without an Authenticator; the callback Authenticator still works beside it", () -> {
            FakeKeystore ks = new FakeKeystore();
            try (IdleLock lock = BiometricTests.enabled(ks)) {
                lock.lock();
                eq(lock.beginBiometricUnlock().finish(AuthResult.OK, copy(ks.item)).state(), State.UNLOCKED, "the pair opens the callback's wrap");
                lock.lock();
                eq(lock.unlockWithBiometrics().state(), State.UNLOCKED, "and the callback path still works");
            }
        });
    }
}
