// SPDX-License-Identifier: MIT
package org.idlelock;

import java.util.Arrays;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;

/**
 * An open biometric request of the two-phase pair (1.2, {@code
 * idlelock_biometric_begin} / {@code idlelock_biometric_finish}): the
 * one-time token {@link IdleLock#beginBiometricUnlock()} or {@link
 * IdleLock#beginBiometricEnable()} handed out, bound to its lock. The host
 * runs its biometric check however it likes (Android's {@code
 * BiometricPrompt} answers on the main thread) and ends the request with
 * {@link #finish(AuthResult, byte[])}; nothing blocks meanwhile.
 *
 * <pre>{@code
 * BiometricRequest req = lock.beginBiometricUnlock();       // on any thread
 * prompt.authenticate(info, new BiometricPrompt.CryptoObject(cipher));
 * // in onAuthenticationSucceeded (main thread):
 * req.finish(AuthResult.OK, cipher.doFinal(blob));          // the binding wipes that array
 * // in onAuthenticationError: req.dismiss(AuthResult.CANCELLED)
 * req.future().thenAccept(s -> showSession());              // completed by finish
 * }</pre>
 *
 * <p><b>Lifetime.</b> While open, the request is a prompt (see {@link
 * IdleLock#promptBegin()}): the round trip through the system's sheet is
 * presence, within {@code promptCapMs}. It lives {@code promptCapMs} from
 * its begin, on the lock's clock: a later finish unlocks nothing ({@link
 * LockUnavailableException}, "expired"); so does a clock step since its
 * begin. A sign-out ({@link IdleLock#disable()}), a new passcode and
 * {@link IdleLock#disableBiometrics()} on this lock void every open
 * request: finishing a request that is no longer open (finished, voided)
 * throws {@link InvalidArgumentException} and changes nothing. A sign-out
 * or new passcode by another process is seen by the finish itself, which
 * then throws {@link NoPasscodeException}, {@link SessionLockedException}
 * or {@link LockUnavailableException} and ends the request; never success. At most {@link
 * IdleLock#BIOMETRIC_REQUESTS_MAX} are open on a lock at once: {@link
 * #close()} (try-with-resources), {@link #cancel()} or {@link
 * #dismiss(AuthResult)} ends one you no longer need, and a request that becomes unreachable while still open is
 * finished as cancelled once it is collected, so a forgotten request never
 * holds a slot. After the lock is closed, {@link #finish} throws {@link
 * IllegalStateException}; {@link #cancel()}, {@link #dismiss} and {@link
 * #close()} do nothing.
 *
 * <p><b>Threads.</b> Any: a request may be finished on another thread than
 * the one that began it, and finished, cancelled or dropped concurrently
 * with anything else on the lock; the library lets exactly one finish
 * through.
 *
 * <p><b>Secrets.</b> {@link #secret()} (ENABLE requests) is the request's
 * own array of the new 32-byte secret: keep it behind your biometric check
 * (encrypt it with the Keystore key), never elsewhere; the binding wipes
 * it (zeros) when the request ends, however it ends (finish, cancel,
 * drop, the lock's close). Wipe any copy you make. The array you hand to
 * {@link #finish(AuthResult, byte[])} is taken over: the binding wipes it
 * when finish returns or throws; the C glue wipes its own copy too.
 */
public final class BiometricRequest implements AutoCloseable {
    /** What a request is for ({@code IDLELOCK_BIOMETRIC_*}). */
    public enum Purpose {
        /** Unlock (or re-authenticate an unlocked session) with the shortcut. */
        UNLOCK(1),
        /** Turn the shortcut on. */
        ENABLE(2);

        /** The C value. */
        public final int code;

        Purpose(int code) { this.code = code; }
    }

    private final Core core;
    private final Snapshot begun;
    private final Reaper.Registration cleanable;

    BiometricRequest(Core core, Snapshot begun) {
        this.core = core;
        this.begun = begun;
        this.cleanable = Reaper.register(this, core);
    }

    /** {@return UNLOCK or ENABLE} */
    public Purpose purpose() { return core.purpose; }

    /** The request's state, whose claim the helpers' futures share. */
    Core core() { return core; }

    /** {@return the library's token: 64 random bits, never 0, bound to this request's lock} */
    public long token() { return core.token; }

    /** {@return the state right after the begin} */
    public Snapshot snapshot() { return begun; }

    /**
     * ENABLE: the request's own array holding the new 32-byte secret, to
     * keep behind the biometric check; wiped by the binding when the
     * request ends (read it before you finish). UNLOCK: null.
     *
     * @return the secret array (ENABLE) or null (UNLOCK)
     */
    public byte[] secret() { return core.secret; }

    /**
     * Completed when the request ends: with the snapshot of the finish
     * that the library accepted, or exceptionally with the {@link
     * IdleLockException} that finish threw ({@link
     * LockUnavailableException} for a failed, cancelled, expired or
     * refused check), with the {@link InvalidArgumentException} of a finish
     * that found it voided, with a {@link CancellationException} when it
     * was dropped unfinished, or with an {@link IllegalStateException} when
     * the lock was closed first. Dependent stages run on the thread that
     * ended the request unless you use the {@code *Async} methods.
     * Cancelling it ({@code future().cancel(...)}, or a timeout such as
     * {@code orTimeout} on Java 9+) ends the request at once as {@link
     * AuthResult#CANCELLED}, whatever the platform's check does; a finish
     * that comes later throws {@link InvalidArgumentException} and changes
     * nothing (its secret array is wiped). A finish and a cancel racing
     * each other: whichever claims the request first owns its outcome, so
     * a {@code cancel} that returns true means the answer unlocked
     * nothing, and a finish that reached the library first makes {@code
     * cancel} return false (the future then completes with the finish's
     * outcome; a timeout's completion is refused the same way).
     *
     * @return the request's future
     */
    public CompletableFuture<Snapshot> future() { return core.future; }

    /** {@return true once the request has ended (finished, voided and seen as such, dropped, or its lock closed)} */
    public boolean isFinished() { return core.isEnded(); }

    /**
     * Ends the request with the host's outcome ({@code
     * idlelock_biometric_finish}) and returns the state after it.
     *
     * <p>{@code secret}: for an UNLOCK whose check passed ({@link
     * AuthResult#OK}), the 32 bytes the check released; null in every
     * other case. The binding wipes this array when finish returns or
     * throws: pass one you do not need afterwards.
     *
     * <p>The request's prompt ends as every prompt ends: the deadlines are
     * judged first (a request deferred the idle rule at most promptCapMs),
     * then the outcome applies, then the end counts as activity while
     * unlocked. Throws {@link LockUnavailableException} (the check failed,
     * was cancelled or is unavailable, the request expired, a passcode
     * policy requires the passcode, or the secret does not open the
     * shortcut, which then turns off: delete your item), {@link
     * SessionLockedException} (a lock, lockout or sign-out after the begin
     * wins over a success; for ENABLE: delete what you stored), {@link
     * StorageException}, {@link NullPointerException} (a null result, or
     * a null secret for an UNLOCK that passed: the request stays open),
     * {@link InvalidArgumentException} (a secret that does not fit the
     * purpose and result: the request stays open; or a request no longer
     * open: finished, voided, cancelled through its future), {@link
     * IllegalStateException} (the lock is closed), {@link
     * CallbackException} (a listener threw; the request did end). Never
     * counts a passcode attempt. Thread: any.
     *
     * @param result the host's outcome
     * @param secret the 32 released bytes for an UNLOCK that passed, else null
     * @return the state after the finish
     */
    public Snapshot finish(AuthResult result, byte[] secret) {
        try {
            IdleLock.required(result, "result");
            boolean releases = core.purpose == Purpose.UNLOCK && result == AuthResult.OK;
            if (releases) {
                IdleLock.required(secret, "secret");
                if (secret.length != IdleLock.AUTH_SECRET_BYTES) {
                    throw new InvalidArgumentException("secret: " + secret.length + " bytes; an UNLOCK that passed hands over the "
                            + IdleLock.AUTH_SECRET_BYTES + "-byte secret the check released");
                }
            }
            if (!releases && secret != null) {
                throw new InvalidArgumentException("secret: only an UNLOCK finished with AuthResult.OK hands over a secret; pass null with "
                        + result + (core.purpose == Purpose.ENABLE ? " (an ENABLE confirms with no secret)" : ""));
            }
            // The one decision point: this answer or the caller's cancellation,
            // whichever claims the request first, owns its outcome.
            if (!core.claimAnswer()) {
                throw new InvalidArgumentException("this biometric request was cancelled before the answer came (its future was "
                        + "cancelled, or completed by a timeout): the answer unlocks nothing; begin a new request");
            }
            return core.lock.finishBiometric(core, result, secret);
        } finally {
            if (secret != null) Arrays.fill(secret, (byte) 0);
            if (core.isEnded()) cleanable.clean();
        }
    }

    /**
     * {@link #finish(AuthResult, byte[])} with no secret: an ENABLE confirmed
     * ({@link AuthResult#OK}), or a check that did not pass.
     *
     * @param result the host's outcome
     * @return the state after the finish
     */
    public Snapshot finish(AuthResult result) { return finish(result, null); }

    /**
     * Finishes the request as {@link AuthResult#CANCELLED} if it is still
     * open: for a screen that goes away without an answer. As {@link
     * #dismiss(AuthResult)}.
     *
     * @return the state after it, or null when there was nothing to finish
     */
    public Snapshot cancel() { return dismiss(AuthResult.CANCELLED); }

    /**
     * Ends the request, if it is still open, with an outcome that releases
     * nothing ({@link AuthResult#FAILED}, {@link AuthResult#CANCELLED},
     * {@link AuthResult#UNAVAILABLE}), for a prompt's error callback: the
     * library's answer to it ({@link LockUnavailableException}, which also
     * fails {@link #future()}) is expected and not thrown, nor is anything
     * when the request already ended, was voided, or its lock is closed.
     * Returns the state after it, or null when there was nothing to
     * finish. Throws {@link NullPointerException} for null and {@link
     * InvalidArgumentException} for {@link AuthResult#OK} (a release goes
     * through {@link #finish}), and
     * what a finish throws besides (a {@link CallbackException}). Thread: any.
     *
     * @param outcome FAILED, CANCELLED or UNAVAILABLE
     * @return the state after it, or null when there was nothing to finish
     */
    public Snapshot dismiss(AuthResult outcome) {
        IdleLock.required(outcome, "outcome");
        if (outcome == AuthResult.OK) {
            throw new InvalidArgumentException("outcome: dismiss takes FAILED, CANCELLED or UNAVAILABLE, not " + outcome
                    + "; a check that passed goes through finish(AuthResult.OK, ...)");
        }
        if (core.isEnded() || core.lock.isClosed()) return null;
        try {
            return finish(outcome, null);
        } catch (LockUnavailableException e) {
            return e.snapshot();
        } catch (InvalidArgumentException | IllegalStateException e) {
            return null; // voided, finished meanwhile, or the lock was closed meanwhile
        }
    }

    /** {@link #cancel()}, for try-with-resources: a request still open at the end of the block is finished as cancelled. */
    @Override
    public void close() { cancel(); }

    @Override
    public String toString() {
        return "BiometricRequest(" + core.purpose + ", " + (core.isEnded() ? "finished" : "open") + ")";
    }

    /**
     * The state of one request, shared by its facade, its lock's registry
     * (for close()) and the reaper (the action that finishes a dropped
     * request: it never refers to the facade).
     */
    static final class Core extends RequestFuture.Owner implements Runnable {
        final IdleLock lock;
        final long token;
        final Purpose purpose;
        final byte[] secret;
        final RequestFuture future = new RequestFuture(this);
        private int finishing;   // finishes in flight in the library
        private boolean ended;
        private boolean lockClosed;

        Core(IdleLock lock, long token, Purpose purpose, byte[] secret) {
            this.lock = lock;
            this.token = token;
            this.purpose = purpose;
            this.secret = secret;
        }

        synchronized boolean isEnded() { return ended; }

        synchronized void enterFinish() { finishing++; }

        /**
         * After a finish returned from the library with {@code rc}: a status
         * other than INVALID_ARGUMENT means the library finished the
         * request (whatever the outcome). INVALID_ARGUMENT (the binding
         * checked the arguments) means the token is not open: it ended
         * before (a finish that completed the future first), or it was
         * voided; the future learns it unless another finish is still in
         * flight (that one tells).
         */
        void exitFinish(int rc, Snapshot s, RuntimeException failure) {
            boolean end;
            synchronized (this) {
                finishing--;
                end = !ended && (rc != InvalidArgumentException.STATUS || finishing == 0);
                if (end) end();
            }
            if (end) {
                if (isCancelled()) future.settleExceptionally(new CancellationException("the biometric request was dropped unfinished"));
                else if (failure == null) future.settle(s);
                else future.settleExceptionally(failure);
            }
            closedMeanwhile();
        }

        /** A finish that never reached the library: the lock was closed first. */
        void leaveFinish() {
            synchronized (this) {
                finishing--;
            }
            closedMeanwhile();
        }

        /** The lock was closed: no finish can reach the library any more. */
        void lockClosed() {
            synchronized (this) {
                lockClosed = true;
            }
            closedMeanwhile();
        }

        private void closedMeanwhile() {
            synchronized (this) {
                if (ended || !lockClosed || finishing > 0) return;
                end();
            }
            future.settleExceptionally(IdleLock.closedWhileWaiting());
        }

        /** With the monitor held. */
        private void end() {
            ended = true;
            if (secret != null) Arrays.fill(secret, (byte) 0);
            lock.forget(this);
        }

        /**
         * The reaper's action: the facade became unreachable while open (or
         * it ended: then nothing to do). Refers to the core only, never the
         * facade (which must stay collectable).
         */
        @Override
        public void run() {
            if (claimCancel()) cancelled();
        }

        /**
         * A cancellation owns the outcome (the future was cancelled or
         * completed by the caller, or the request was dropped): the request
         * is finished as cancelled in the library at once, whatever the
         * host's check does; a later finish is refused and its secret wiped.
         */
        @Override
        void cancelled() {
            synchronized (this) {
                if (ended || finishing > 0) return;
            }
            try {
                if (!lock.isClosed()) lock.finishBiometric(this, AuthResult.CANCELLED, null);
            } catch (RuntimeException e) {
                // cancelled (LockUnavailable), voided, or closed meanwhile: the request is over either way
            }
            boolean end;
            synchronized (this) {
                end = !ended && finishing == 0;
                if (end) end();
            }
            if (end) future.settleExceptionally(new CancellationException("the biometric request was dropped unfinished"));
        }
    }
}
