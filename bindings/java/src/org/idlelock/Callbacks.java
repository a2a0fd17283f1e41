// SPDX-License-Identifier: MIT
package org.idlelock;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the library may call back into for one {@link IdleLock}: its
 * listeners, its clock and its authenticator, and the static methods the
 * JNI glue calls (their names and signatures are registered in
 * jni/idlelock_jni.c).
 *
 * <p>The glue holds this object through a JNI <em>weak</em> global
 * reference (created at create, deleted when the glue frees the lock's
 * state after destroy); the {@link IdleLock}
 * holds it strongly. So a listener that captures its own IdleLock (the
 * common case) does not pin it through a JNI root: a forgotten lock is
 * still collected, and the reaper destroys the handle. While the lock is
 * reachable, so is this object, and no callback is lost.
 *
 * <p>No exception ever leaves these methods into C: each is caught and
 * kept for the thread's current call ({@link #takePending()}), or, on a
 * thread the JVM did not create, handed to its uncaught-exception handler.
 */
final class Callbacks {
    static final class Registration {
        final IdleLock.Listener listener;
        final Executor executor;
        volatile boolean active = true;

        Registration(IdleLock.Listener listener, Executor executor) {
            this.listener = listener;
            this.executor = executor;
        }
    }

    final ConcurrentHashMap<Long, Registration> listeners = new ConcurrentHashMap<>();
    /** Set by {@link IdleLock#close()}: no listener of the lock runs from then
     * on, on any thread (the rest of a delivery in progress included), even
     * while calls in flight keep the native handle alive. */
    volatile boolean closed;
    final IdleLock.Clock clock;
    final Authenticator authenticator;

    Callbacks(IdleLock.Clock clock, Authenticator authenticator) {
        this.clock = clock;
        this.authenticator = authenticator;
    }

    // -- per-thread bookkeeping ----------------------------------------------

    private static final class PerThread {
        boolean inClock;
        ArrayList<Throwable> errors;
        /** The cancellable call this thread runs, or null. */
        CancellableCall call;
    }

    /** (An anonymous subclass, not ThreadLocal.withInitial, which Android has only from API 26.) */
    private static final ThreadLocal<PerThread> THREAD = new ThreadLocal<PerThread>() {
        @Override protected PerThread initialValue() { return new PerThread(); }
    };
    /** Exceptions recorded on any thread and not yet taken: lets the hot path skip the ThreadLocal. */
    private static final AtomicInteger PENDING = new AtomicInteger();

    static boolean inClock() { return THREAD.get().inClock; }

    /** Runs {@code body} on this thread as {@code call}: an authenticator
     * answer that comes after the call was cancelled is answered CANCELLED. */
    static <T> T runAs(CancellableCall call, java.util.concurrent.Callable<T> body) throws Exception {
        PerThread p = THREAD.get();
        CancellableCall outer = p.call;
        p.call = call;
        try {
            return body.call();
        } finally {
            p.call = outer;
        }
    }

    static boolean anyPending() { return PENDING.get() != 0; }

    /** This thread's recorded exceptions (and forgets them), or null. */
    static List<Throwable> takePending() {
        PerThread p = THREAD.get();
        ArrayList<Throwable> list = p.errors;
        if (list == null) return null;
        p.errors = null;
        PENDING.addAndGet(-list.size());
        return list;
    }

    private static void record(Throwable t) {
        PerThread p = THREAD.get();
        if (p.errors == null) p.errors = new ArrayList<>(2);
        p.errors.add(t);
        PENDING.incrementAndGet();
    }

    private static void uncaught(Throwable t) {
        try {
            Thread thread = Thread.currentThread();
            thread.getUncaughtExceptionHandler().uncaughtException(thread, t);
        } catch (Throwable ignored) {
            // The handler itself failed: nothing is left to tell.
        }
    }

    // -- called from C ---------------------------------------------------------

    /** A listener call; {@code foreign}: the glue attached this thread (the watcher). */
    static void onListener(Object target, long id, long[] snap, boolean foreign) {
        try {
            Callbacks cb = (Callbacks) target;
            Registration r = cb.listeners.get(id);
            if (r == null || !r.active || cb.closed) return;
            Snapshot s = Snapshot.of(snap);
            if (r.executor != null) {
                r.executor.execute(() -> {
                    if (r.active && !cb.closed) r.listener.onChange(s);
                });
            } else {
                r.listener.onChange(s);
            }
        } catch (Throwable t) {
            if (foreign) uncaught(t);
            else record(t);
        }
    }

    static long onClock(Object target) {
        PerThread p = THREAD.get();
        p.inClock = true;
        try {
            return ((Callbacks) target).clock.nowMs();
        } catch (Throwable t) {
            record(t);
            // The earliest possible reading: earlier than anything recorded,
            // so an engaged unlocked session locks (REASON_CLOCK) instead of
            // being extended. Never "the last good value".
            return Long.MIN_VALUE;
        } finally {
            p.inClock = false;
        }
    }

    static int onAuthAvailable(Object target) {
        try {
            return ((Callbacks) target).authenticator.isAvailable() ? 1 : 0;
        } catch (Throwable t) {
            record(t);
            return 0;
        }
    }

    static int onAuthStore(Object target, byte[] secret) {
        try {
            ((Callbacks) target).authenticator.storeSecret(secret);
            return 0;
        } catch (AuthenticationException e) {
            return 1;
        } catch (Throwable t) {
            record(t);
            return 1;
        } finally {
            Arrays.fill(secret, (byte) 0);
        }
    }

    /** Fills {@code out} (32 bytes) with the released secret and returns an AuthResult code. */
    static int onAuthLoad(Object target, byte[] reason, byte[] out) {
        byte[] secret = null;
        CancellableCall call = THREAD.get().call;
        try {
            if (call != null && call.isCancelled()) return AuthResult.CANCELLED.code;
            secret = ((Callbacks) target).authenticator.loadSecret(reason == null ? null : Utf8.decode(reason));
            // Its future was cancelled meanwhile: a late answer unlocks nothing (the secret is wiped below).
            if (call != null && call.isCancelled()) return AuthResult.CANCELLED.code;
            if (secret == null || secret.length != out.length) {
                record(new IllegalStateException("Authenticator.loadSecret returned "
                        + (secret == null ? "null" : secret.length + " bytes") + "; "
                        + out.length + " bytes were expected (treated as a failed check)"));
                return AuthResult.FAILED.code;
            }
            // The one decision point: this answer or the future's cancellation,
            // whichever claims the call first, owns the outcome.
            if (call != null && !call.claimAnswer()) return AuthResult.CANCELLED.code;
            System.arraycopy(secret, 0, out, 0, out.length);
            return AuthResult.OK.code;
        } catch (AuthenticationException e) {
            return call != null && call.isCancelled() ? AuthResult.CANCELLED.code : e.result().code;
        } catch (Throwable t) {
            if (call != null && call.isCancelled()) return AuthResult.CANCELLED.code;
            record(t);
            return AuthResult.FAILED.code;
        } finally {
            if (secret != null) Arrays.fill(secret, (byte) 0);
        }
    }

    static int onAuthDelete(Object target) {
        try {
            ((Callbacks) target).authenticator.deleteSecret();
            return 0;
        } catch (AuthenticationException e) {
            return 1;
        } catch (Throwable t) {
            record(t);
            return 1;
        }
    }
}
