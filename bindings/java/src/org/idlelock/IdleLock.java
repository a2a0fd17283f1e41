// SPDX-License-Identifier: MIT
package org.idlelock;

import java.io.File;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongFieldUpdater;

/**
 * An idle lock for a signed-in session ({@code idlelock *}): the host
 * reports lifecycle events and user activity, the library decides when the
 * session locks, keeps the session's secrets sealed while it is locked, and
 * unlocks it with the passcode or the biometric shortcut. Every rule is
 * written in {@code include/idlelock.h}; this class is a thin, checked
 * binding of it.
 *
 * <pre>{@code
 * try (IdleLock lock = IdleLock.builder().idleAfterMs(300_000).backgroundAfterMs(30_000).build()) {
 *     lock.setPasscode(passcodeChars);          // char[] or UTF-8 byte[]: wipe yours afterwards
 *     lock.putSecret("token", tokenBytes);
 *     lock.touch();                             // on every input event
 *     lock.lock();                              // "Lock now"
 *     lock.unlock(passcodeChars);               // InvalidPasscodeException: attemptsRemaining()
 *     byte[] token = lock.getSecret("token");   // yours: Arrays.fill(token, (byte) 0) when done
 * }
 * }</pre>
 *
 * <p><b>Units.</b> Every time and duration is a {@code long} of
 * milliseconds; {@link #NEVER} ({@code Long.MAX_VALUE}) is "no deadline".
 *
 * <p><b>Threads.</b> Every method may be called from any thread, also
 * several at once on one lock. Listeners run on the thread of some call on
 * the lock (often the one that caused the change), or on the watcher
 * thread ({@link #watchStart()}), which the JNI glue attaches to the JVM
 * once (as a daemon) and detaches when it ends; subscribe with an {@link
 * Executor} to have them handed to your main thread. The clock runs on the
 * calling thread with the library's internal lock held: it must be quick
 * and must not call into the lock ({@link IllegalStateException}).
 *
 * <p><b>Lifetime.</b> {@link #close()} (or try-with-resources) destroys the
 * handle: its session key, passcode wrap and secrets are wiped. A lock
 * that is never closed is destroyed once it is unreachable (a {@code
 * PhantomReference} drained by the daemon thread "idlelock-reaper", as
 * {@code java.lang.ref.Cleaner} would, which Android has only from API 33). Calls in flight on other threads when close() is called
 * finish first (the last one to return destroys the handle; close never
 * waits, so it is safe from a listener and from the main thread); every
 * call after close() throws {@link IllegalStateException}. The native
 * handle is freed exactly once. A biometric helper still waiting for the
 * host's check when close() is called ends at once, failed with {@link
 * IllegalStateException}, whatever the check does (see {@link #close()}).
 *
 * <p><b>Errors.</b> A null argument is a {@link NullPointerException}
 * naming the parameter; an invalid value is an {@link
 * InvalidArgumentException} (an {@link IllegalArgumentException}); every
 * other failed call throws the {@link IdleLockException} subclass for its
 * status, with the library's message (in this binding's names: {@code
 * idleAfterMs}, {@link #NEVER}), the snapshot after the call where there
 * is one, and {@link InvalidPasscodeException#attemptsRemaining()} or
 * {@link RetryLaterException#msUntilRetry()} where they apply. Both
 * implement {@link IdleLockStatus}: {@code catch (IdleLockException |
 * InvalidArgumentException e)} catches every status. An exception thrown
 * by a listener, the clock or the authenticator surfaces as a {@link
 * CallbackException} from the call that ran it.
 *
 * <p><b>Passcodes and secrets.</b> Passcodes are {@code char[]} (encoded to
 * UTF-8 strictly: an unpaired surrogate is refused, never replaced) or
 * UTF-8 {@code byte[]}; never a {@link String}, which cannot be wiped and
 * which JNI would convert to "modified UTF-8" (NUL as two bytes, emoji as
 * two surrogates), a different passcode. The binding wipes its own copies
 * (Java and C) after each call; wipe yours. Secrets come back as a new
 * {@code byte[]} that the caller owns.
 */
public final class IdleLock implements AutoCloseable, GeneratedConstants {
    // The header's constants (IdleLock.NEVER, IdleLock.GRACE_MAX_MS, ...,
    // HEADER_VERSION) are GeneratedConstants', generated from
    // include/idlelock.h by scripts/gen-bindings.py.

    /** Hears every change of state, reason, a flag or attemptsRemaining, in seq order. */
    @FunctionalInterface
    public interface Listener {
        /**
         * The snapshot is immutable and may be kept. Must not block waiting
         * for another thread that is calling into the same lock.
         *
         * @param snapshot the state after the change
         */
        void onChange(Snapshot snapshot);
    }

    /** A clock: milliseconds from any fixed origin, monotonic, counting time asleep. */
    @FunctionalInterface
    public interface Clock {
        /** {@return the time now, in milliseconds from the clock's origin} Quick, and never a call into the lock. */
        long nowMs();
    }

    private static final AtomicLong NEXT_LISTENER_ID = new AtomicLong();

    /** state: bit 62 = closed; the low bits count calls in flight. */
    private static final long CLOSED = 1L << 62;
    private static final AtomicLongFieldUpdater<IdleLock> STATE =
            AtomicLongFieldUpdater.newUpdater(IdleLock.class, "state");
    private volatile long state;

    private final long handle;
    private final Callbacks callbacks;
    private final boolean hasClock;
    private final Reaper.Registration cleanable;
    /** Biometric requests not yet ended (their secrets are wiped and futures failed at close). */
    private final Set<BiometricRequest.Core> requests = ConcurrentHashMap.newKeySet();
    /** What ends each {@link #unlockWithBiometricsAsync(Executor)} still waiting, run by close(). */
    private final Set<Runnable> waitingCalls = ConcurrentHashMap.newKeySet();

    /** The reaper's action: holds the native pointer, never the IdleLock. */
    private static final class Destroyer implements Runnable {
        private final long handle;

        Destroyer(long handle) { this.handle = handle; }

        @Override public void run() { Native.destroy(handle); }
    }

    private IdleLock(long handle, Callbacks callbacks, boolean hasClock) {
        this.handle = handle;
        this.callbacks = callbacks;
        this.hasClock = hasClock;
        this.cleanable = Reaper.register(this, new Destroyer(handle));
    }

    // -- versions and names -------------------------------------------------------

    /** {@return the library's version, "MAJOR.MINOR.PATCH"} ({@code idlelock_version}) */
    public static String version() {
        Native.ensureLoaded();
        return Utf8.decode(Native.version());
    }

    /** {@return the library's version as MAJOR * 10000 + MINOR * 100 + PATCH} */
    public static int versionNumber() {
        Native.ensureLoaded();
        return Native.versionNumber();
    }

    /**
     * {@return the fixed name of a status ("IDLELOCK_ERR_SESSION_LOCKED"), "IDLELOCK_ERR_UNKNOWN" for others}
     *
     * @param status a C status code
     */
    public static String statusName(int status) {
        Native.ensureLoaded();
        return Utf8.decode(Native.statusName(status));
    }

    /** {@return the library's iOS-like delay preset} ({@code idlelock_delay_schedule_ios}): 5 wrong
     * passcodes: 1 min; 6: 5 min; 7: 15 min; 9: 1 h. Use it with maxAttempts 10. */
    public static List<DelayStep> iosDelaySchedule() {
        Native.ensureLoaded();
        long[] pairs = Native.iosDelaySchedule();
        List<DelayStep> steps = new ArrayList<>(pairs.length / 2);
        for (int i = 0; i + 1 < pairs.length; i += 2) steps.add(new DelayStep((int) pairs[i], pairs[i + 1]));
        return Collections.unmodifiableList(steps);
    }

    // -- creation -------------------------------------------------------------------

    /** {@return a builder of a lock, every option at the library's default} */
    public static Builder builder() { return new Builder(); }

    /**
     * The options of {@code idlelock_config}; unset ones keep the library's
     * defaults (idle and background timeouts unset: {@link #build()} refuses
     * a lock that never times out until one of them is finite). Ranges are
     * the library's; it checks them at build() and names the field.
     */
    public static final class Builder {
        private final long[] numbers = new long[GeneratedTables.CFG_FIELDS];
        private int mask;
        private String storePath;
        private Clock clock;
        private Authenticator authenticator;
        private String unlockReason;
        private byte[] deviceKey;
        private List<DelayStep> delaySchedule;

        private Builder() {}

        private Builder set(int slot, long value) {
            numbers[slot] = value;
            mask |= 1 << slot;
            return this;
        }

        /**
         * Lock after this long without {@link IdleLock#touch()}: > 0 or NEVER (default).
         *
         * @param ms milliseconds
         * @return this builder
         */
        public Builder idleAfterMs(long ms) { return set(GeneratedTables.CFG_IDLE_AFTER_MS, ms); }
        /**
         * Lock when away (backgrounded) this long: >= 0, NEVER, or SAME_AS_IDLE (default).
         *
         * @param ms milliseconds
         * @return this builder
         */
        public Builder backgroundAfterMs(long ms) { return set(GeneratedTables.CFG_BACKGROUND_AFTER_MS, ms); }
        /**
         * An absence that stayed inactive locks after the longer of this and backgroundAfterMs; default 30000.
         *
         * @param ms milliseconds, >= 0 or NEVER
         * @return this builder
         */
        public Builder inactiveAfterMs(long ms) { return set(GeneratedTables.CFG_INACTIVE_AFTER_MS, ms); }
        /**
         * 0..60000, default 1500: an absence this short is presence (a Face ID sheet).
         *
         * @param ms milliseconds
         * @return this builder
         */
        public Builder graceMs(long ms) { return set(GeneratedTables.CFG_GRACE_MS, ms); }
        /**
         * 1..100, default 5: wrong passcodes before LOCKED_OUT.
         *
         * @param attempts wrong passcodes
         * @return this builder
         */
        public Builder maxAttempts(int attempts) { return set(GeneratedTables.CFG_MAX_ATTEMPTS, attempts); }
        /**
         * Default true: the first start() locks an engaged session (REASON_STARTUP).
         *
         * @param lock whether the first start() locks
         * @return this builder
         */
        public Builder lockOnStart(boolean lock) { return set(GeneratedTables.CFG_LOCK_ON_START, lock ? 1 : 0); }
        /**
         * Argon2id passes, 2..10, default 2.
         *
         * @param passes Argon2id passes
         * @return this builder
         */
        public Builder kdfOpslimit(long passes) { return set(GeneratedTables.CFG_KDF_OPSLIMIT, passes); }
        /**
         * Argon2id memory in bytes, 19 MiB..1 GiB, default 64 MiB.
         *
         * @param bytes Argon2id memory in bytes
         * @return this builder
         */
        public Builder kdfMemlimit(long bytes) { return set(GeneratedTables.CFG_KDF_MEMLIMIT, bytes); }
        /**
         * (1.1) 0..600000, default 120000: how long prompts the app opened can defer the rules.
         *
         * @param ms milliseconds
         * @return this builder
         */
        public Builder promptCapMs(long ms) { return set(GeneratedTables.CFG_PROMPT_CAP_MS, ms); }
        /**
         * (1.1) 0 (off, default) or 1..idleAfterMs-1: isWarning opens this long before the idle lock.
         *
         * @param ms milliseconds
         * @return this builder
         */
        public Builder warnBeforeMs(long ms) { return set(GeneratedTables.CFG_WARN_BEFORE_MS, ms); }
        /**
         * (1.2) 0 (off, default) or 3600000..2592000000 ms (1 hour .. 30
         * days): the biometric shortcut is refused once the last passcode
         * entry is this old (iOS asks for the passcode after 156 hours
         * without it). Measured on the lock's clock; an entry from another
         * boot or behind a clock step counts as too old.
         *
         * @param ms milliseconds, or 0 for off
         * @return this builder
         */
        public Builder passcodeMaxAgeMs(long ms) { return set(GeneratedTables.CFG_PASSCODE_MAX_AGE_MS, ms); }
        /**
         * (1.2) Default false: with a {@link #storePath}, the first unlock
         * after the device restarted must be by passcode, as iOS and Android
         * require after a restart.
         *
         * @param required whether the first unlock after a restart needs the passcode
         * @return this builder
         */
        public Builder passcodeAfterReboot(boolean required) { return set(GeneratedTables.CFG_PASSCODE_AFTER_REBOOT, required ? 1 : 0); }
        /**
         * (1.2) 0 (off, default) or 1..1000: after this many biometric
         * unlocks in a row (re-authentications included) the next unlock
         * needs the passcode (KeePassXC's and Keepass2Android's quick unlock).
         *
         * @param uses biometric unlocks in a row, or 0 for off
         * @return this builder
         */
        public Builder biometricMaxUses(int uses) { return set(GeneratedTables.CFG_BIOMETRIC_MAX_USES, uses); }

        /**
         * A store file the library owns (plus {@code <path>.lock}), in an existing folder;
         * null (default): memory only. See "The store" in include/idlelock.h.
         *
         * @param path the store's path, or null
         * @return this builder
         */
        public Builder storePath(String path) { this.storePath = path; return this; }
        /**
         * As {@link #storePath(String)}.
         *
         * @param path the store's file, or null
         * @return this builder
         */
        public Builder storePath(File path) { this.storePath = path == null ? null : path.getPath(); return this; }
        /**
         * Null (default): Linux CLOCK_BOOTTIME. The watcher needs the default clock.
         *
         * @param clock the clock, or null
         * @return this builder
         */
        public Builder clock(Clock clock) { this.clock = clock; return this; }
        /**
         * Null (default): no biometric shortcut.
         *
         * @param authenticator the host's keystore behind a biometric check, or null
         * @return this builder
         */
        public Builder authenticator(Authenticator authenticator) { this.authenticator = authenticator; return this; }
        /**
         * At most 512 UTF-8 bytes, no NUL: the text the authenticator's prompt shows.
         *
         * @param reason the prompt's text, or null
         * @return this builder
         */
        public Builder unlockReason(String reason) { this.unlockReason = reason; return this; }
        /**
         * 32 bytes from a hardware keystore (see include/idlelock.h). The
         * array is referenced, not copied: keep it unchanged until build()
         * returns, then wipe it ({@code Arrays.fill(key, (byte) 0)}); the
         * library keeps its own copy in secure memory.
         *
         * @param key the 32-byte device key, or null
         * @return this builder
         */
        public Builder deviceKey(byte[] key) { this.deviceKey = key; return this; }
        /**
         * (1.1) Escalating delays after wrong passcodes; null or empty: none.
         *
         * @param steps the schedule, or null
         * @return this builder
         */
        public Builder delaySchedule(List<DelayStep> steps) { this.delaySchedule = steps; return this; }
        /** (1.1) The iOS-like preset ({@link IdleLock#iosDelaySchedule()}); needs maxAttempts(10).
         * @return this builder */
        public Builder iosDelaySchedule() { return delaySchedule(IdleLock.iosDelaySchedule()); }

        /**
         * Creates the lock ({@code idlelock_create}). Throws {@link
         * InvalidArgumentException} naming the field for a value out of
         * range, {@link StorageException} for a store that cannot be opened,
         * {@link NoMemoryException}, {@link InternalException}.
         *
         * @return the new lock, UNLOCKED and not engaged; close it when done
         */
        public IdleLock build() {
            Native.ensureLoaded();
            for (int slot : new int[] {GeneratedTables.CFG_KDF_OPSLIMIT, GeneratedTables.CFG_KDF_MEMLIMIT}) {
                if ((mask & (1 << slot)) != 0 && numbers[slot] < 0) {
                    throw new InvalidArgumentException((slot == GeneratedTables.CFG_KDF_OPSLIMIT ? "kdfOpslimit" : "kdfMemlimit")
                            + " is " + numbers[slot] + ": it cannot be negative");
                }
            }
            byte[] path = storePath == null ? null : Utf8.cString(storePath, "storePath");
            byte[] reason = unlockReason == null ? null : Utf8.cString(unlockReason, "unlockReason");
            long[] steps = null;
            if (delaySchedule != null) {
                steps = new long[delaySchedule.size() * 2];
                for (int i = 0; i < delaySchedule.size(); i++) {
                    DelayStep step = delaySchedule.get(i);
                    required(step, "delaySchedule[" + i + "]");
                    steps[2 * i] = step.failedAttempts;
                    steps[2 * i + 1] = step.delayMs;
                }
            }
            Callbacks callbacks = new Callbacks(clock, authenticator);
            long[] out = new long[1];
            int rc = Native.create(numbers.clone(), mask, path, reason, deviceKey, steps, callbacks,
                    clock != null, authenticator != null, out);
            String message = rc == 0 ? null : lastError();
            List<Throwable> errors = Callbacks.takePending();
            if (rc != 0) {
                throw thrown(IdleLockException.of(rc, message, null), errors);
            }
            IdleLock lock = new IdleLock(out[0], callbacks, clock != null);
            if (errors != null) {
                // The authenticator's isAvailable threw during create: a bug
                // in the host, reported before the lock is handed out.
                lock.close();
                throw thrown(null, errors);
            }
            return lock;
        }
    }

    // -- the guard around every native call --------------------------------------------

    /** Counts a call in; the handle stays valid until the matching exit(). */
    private long enter() {
        if (hasClock && Callbacks.inClock()) {
            throw new IllegalStateException("the clock must not call into the IdleLock: "
                    + "it runs with the library's internal lock held");
        }
        long s = STATE.incrementAndGet(this);
        if ((s & CLOSED) != 0) {
            exit();
            throw new IllegalStateException("this IdleLock is closed");
        }
        return handle;
    }

    /** Counts a call out; the last one out of a closed lock destroys it. Its
     * use of {@code this} also keeps the lock reachable (so uncleaned) until
     * the native call has returned. */
    private void exit() {
        if (STATE.decrementAndGet(this) == CLOSED) cleanable.clean();
    }

    private static String lastError() { return Messages.of(Utf8.decode(Native.lastError())); }

    /** What to throw after a call: the callbacks' exceptions first (the
     * call's own failure then suppressed), else the call's failure. */
    private static RuntimeException thrown(RuntimeException failure, List<Throwable> errors) {
        if (errors == null || errors.isEmpty()) return failure;
        Throwable first = errors.get(0);
        CallbackException e = new CallbackException(
                "a listener, the clock or the authenticator threw: " + first, first);
        for (int i = 1; i < errors.size(); i++) e.addSuppressed(errors.get(i));
        if (failure != null) e.addSuppressed(failure);
        return e;
    }

    /** Throws for a failed call (rc != 0) or for exceptions its callbacks threw. */
    private static void finish(int rc, Snapshot snapshot) {
        raise(failure(rc, snapshot));
    }

    /** Throws {@code failure} (null: none) with, or as, the exceptions the call's callbacks threw. */
    private static void raise(RuntimeException failure) {
        List<Throwable> errors = Callbacks.anyPending() ? Callbacks.takePending() : null;
        RuntimeException e = thrown(failure, errors);
        if (e != null) throw e;
    }

    /** The exception for a call's status (read the message right after the call), or null for 0. */
    private static RuntimeException failure(int rc, Snapshot snapshot) {
        if (rc < 0) return glueFailure(rc);
        if (rc == 0) return null;
        return IdleLockException.of(rc, lastError(), rc == InvalidArgumentException.STATUS ? null : snapshot);
    }

    /** The glue's own statuses (negative; jni/idlelock_jni.c). */
    private static RuntimeException glueFailure(int rc) {
        if (rc == -1) return new InvalidArgumentException("the token is not subscribed on this IdleLock");
        if (rc == -3) {
            return new InvalidArgumentException("an array and a length that does not fit it reached the JNI glue "
                    + "(nothing was read or written past the array; the call changed nothing)");
        }
        return new NoMemoryException("the JNI glue could not allocate its bookkeeping", null);
    }

    /** A null argument: {@link NullPointerException} naming the parameter, as {@code Objects.requireNonNull}. */
    static <T> T required(T value, String name) {
        return Objects.requireNonNull(value, name + " is null");
    }

    private Snapshot event(int kind) {
        long[] out = new long[GeneratedTables.SNAP_FIELDS];
        long h = enter();
        int rc;
        try {
            rc = Native.event(h, kind, out);
        } finally {
            exit();
        }
        Snapshot s = Snapshot.of(out);
        if (rc != 0 || Callbacks.anyPending()) finish(rc, s);
        return s;
    }

    private interface Call {
        int run(long handle);
    }

    private int call(Call c) {
        long h = enter();
        try {
            return c.run(h);
        } finally {
            exit();
        }
    }

    // -- life cycle -----------------------------------------------------------------

    /**
     * Destroys the lock ({@code idlelock_destroy}): wipes its session key,
     * passcode wrap and secrets, stops the watcher. Idempotent and never
     * blocking: with calls in flight on other threads (an unlock running
     * Argon2id, a biometric prompt), the last of them to return destroys
     * the handle; may be called from a listener. Afterwards every method
     * throws {@link IllegalStateException}. Every biometric helper still
     * waiting ends at once: open {@link BiometricRequest}s end (their
     * secrets wiped, their futures failed with {@link
     * IllegalStateException}, after a finish of theirs already in the
     * library returns), and so do the futures of {@link
     * #unlockWithBiometricsAsync(AsyncAuthenticator)}, {@link
     * #enableBiometricsAsync(AsyncAuthenticator)} and {@link
     * #unlockWithBiometricsAsync(Executor)}, whatever the host's check
     * does; its late answer is ignored and wiped (a late-stored item
     * deleted). Their dependent stages run on this thread.
     */
    @Override
    public void close() {
        long s;
        do {
            s = state;
            if ((s & CLOSED) != 0) return;
        } while (!STATE.compareAndSet(this, s, s | CLOSED));
        callbacks.closed = true; // no listener runs from now on, on any thread
        // No finish can reach the library any more: the open requests end
        // (secrets wiped, futures failed) once no finish of theirs is in flight.
        for (BiometricRequest.Core r : requests) r.lockClosed();
        // The helpers whose authenticator is still out end now too, whatever it does.
        for (Runnable end : waitingCalls) end.run();
        if (s == 0) cleanable.clean();
    }

    /** What a helper still waiting fails with when the lock is closed under it. */
    static IllegalStateException closedWhileWaiting() {
        return new IllegalStateException("the IdleLock was closed before this biometric request finished");
    }

    /** {@return true once {@link #close()} was called} */
    public boolean isClosed() { return (state & CLOSED) != 0; }

    /**
     * Starts the watcher thread ({@code idlelock_watch_start}): it sleeps
     * until the next deadline and calls check(), so the session locks on
     * time with no call from you; listeners then run on that thread, which
     * the glue attaches to the JVM (a daemon named "idlelock-native") and
     * detaches when it ends. Needs the default clock ({@link
     * InvalidArgumentException} with a custom one).
     */
    public void watchStart() { finish(call(Native::watchStart), null); }

    /** Stops the watcher and waits for it to end (not for itself, from one of its listeners). */
    public void watchStop() { finish(call(Native::watchStop), null); }

    // -- events -------------------------------------------------------------------

    /** Applies lockOnStart (only the first start does); later starts only judge.
     * @return the state after the call */
    public Snapshot start() { return event(Native.EV_START); }

    /**
     * User activity: call it on every input event. No I/O, no allocation
     * in the library, no snapshot (call {@link #snapshot()} when you need
     * one). Throws only {@link StorageException} (it locked and the lock
     * could not be saved) or a {@link CallbackException}.
     */
    public void touch() {
        long h = enter();
        int rc;
        try {
            rc = Native.touch(h);
        } finally {
            exit();
        }
        if (rc != 0 || Callbacks.anyPending()) finish(rc, null);
    }

    /** Still visible but not interactive (Android onPause, iOS resign-active).
     * @return the state after the call */
    public Snapshot inactive() { return event(Native.EV_INACTIVE); }
    /** No longer visible (Android onStop, iOS did-enter-background).
     * @return the state after the call */
    public Snapshot background() { return event(Native.EV_BACKGROUND); }
    /** Back in the foreground: judges the absence (grace window, background timeout).
     * @return the state after the call */
    public Snapshot foreground() { return event(Native.EV_FOREGROUND); }
    /** Judges the deadlines due now; call it from a timer at msUntilNextDeadline.
     * @return the state after the call */
    public Snapshot check() { return event(Native.EV_CHECK); }
    /** "Lock now": an engaged unlocked session locks with {@link Reason#MANUAL}.
     * @return the state after the call */
    public Snapshot lock() { return event(Native.EV_LOCK); }
    /** {@return the state now, after judging the deadlines that are due} */
    public Snapshot snapshot() { return event(Native.EV_SNAPSHOT); }

    /**
     * Reports a platform's own state name ({@code "ON_STOP"}, {@code
     * "inactive"}) as foreground, inactive or background would
     * ({@code idlelock_lifecycle}). An unknown name: {@link InvalidArgumentException},
     * whose message lists the platform's names.
     *
     * @param platform whose names {@code stateName} is one of
     * @param stateName the platform's own spelling, case-sensitive
     * @return the state after the call
     */
    public Snapshot lifecycle(Platform platform, String stateName) {
        required(platform, "platform");
        required(stateName, "stateName");
        byte[] name = Utf8.cString(stateName, "stateName");
        long[] out = new long[GeneratedTables.SNAP_FIELDS];
        int rc = call(h -> Native.lifecycle(h, platform.code, name, out));
        Snapshot s = Snapshot.of(out);
        finish(rc, s);
        return s;
    }

    /**
     * Opens a prompt the app shows itself (a file picker, the camera, a
     * share sheet): until it ends, and never past promptCapMs, the idle
     * rule waits and an absence that began meanwhile is presence. Returns
     * its token for {@link #promptEnd}; {@link #prompt()} pairs them for you.
     *
     * @return the prompt's token
     */
    public long promptBegin() {
        long[] token = new long[1];
        finish(call(h -> Native.promptBegin(h, token)), null);
        return token[0];
    }

    /**
     * Ends a prompt (activity). A token ended twice or never issued: {@link InvalidArgumentException}.
     *
     * @param token what {@link #promptBegin()} returned
     */
    public void promptEnd(long token) { finish(call(h -> Native.promptEnd(h, token)), null); }

    /** {@return an open prompt for try-with-resources: {@code try (IdleLock.Prompt p = lock.prompt()) { pick(); }}} */
    public Prompt prompt() { return new Prompt(this, promptBegin()); }

    /** An open prompt; {@link #close()} ends it once. */
    public static final class Prompt implements AutoCloseable {
        private final IdleLock lock;
        private final long token;
        private boolean ended;

        private Prompt(IdleLock lock, long token) {
            this.lock = lock;
            this.token = token;
        }

        /** {@return the prompt's token} */
        public long token() { return token; }

        @Override
        public synchronized void close() {
            if (ended) return;
            ended = true;
            lock.promptEnd(token);
        }
    }

    // -- passcode -------------------------------------------------------------------

    /**
     * Sets or replaces the passcode, engaging the lock: at least 4
     * characters (Unicode scalar values), at most 1024 UTF-8 bytes. The
     * biometric shortcut is turned off and the attempt count reset. Runs
     * Argon2id: call it off the main thread. {@link
     * SessionLockedException} while locked. The binding wipes its UTF-8
     * copy; wipe {@code passcode} yourself.
     *
     * @param passcode the new passcode's characters
     */
    public void setPasscode(char[] passcode) {
        required(passcode, "passcode");
        int[] len = new int[1];
        byte[] utf8 = Utf8.encodeSecret(passcode, "the passcode", len);
        try {
            setPasscodeUtf8(utf8, len[0]);
        } finally {
            Arrays.fill(utf8, (byte) 0);
        }
    }

    /**
     * As {@link #setPasscode(char[])}, with the passcode as UTF-8 bytes (checked by the library).
     *
     * @param utf8 the new passcode, UTF-8
     */
    public void setPasscode(byte[] utf8) {
        required(utf8, "passcode");
        setPasscodeUtf8(utf8, utf8.length);
    }

    private void setPasscodeUtf8(byte[] utf8, int len) {
        finish(call(h -> Native.setPasscode(h, utf8, len)), null);
    }

    /**
     * Unlocks with the passcode (on an unlocked session it re-authenticates
     * and still counts). Throws {@link InvalidPasscodeException} (counted;
     * {@code attemptsRemaining()}), {@link LockedOutException}, {@link
     * RetryLaterException} ({@code msUntilRetry()}, not counted), {@link
     * NoPasscodeException}, {@link SessionLockedException} (a lock
     * overtook it), {@link StorageException}. Runs Argon2id: call it off
     * the main thread.
     *
     * @param passcode the passcode's characters
     * @return the state after the call
     */
    public Snapshot unlock(char[] passcode) {
        required(passcode, "passcode");
        int[] len = new int[1];
        byte[] utf8 = Utf8.encodeSecret(passcode, "the passcode", len);
        try {
            return unlockUtf8(utf8, len[0]);
        } finally {
            Arrays.fill(utf8, (byte) 0);
        }
    }

    /**
     * As {@link #unlock(char[])}, with the passcode as UTF-8 bytes (checked by the library).
     *
     * @param utf8 the passcode, UTF-8
     * @return the state after the call
     */
    public Snapshot unlock(byte[] utf8) {
        required(utf8, "passcode");
        return unlockUtf8(utf8, utf8.length);
    }

    private Snapshot unlockUtf8(byte[] utf8, int len) {
        long[] out = new long[GeneratedTables.SNAP_FIELDS];
        int rc = call(h -> Native.unlock(h, utf8, len, out));
        Snapshot s = Snapshot.of(out);
        finish(rc, s);
        return s;
    }

    // -- biometric shortcut ------------------------------------------------------------
    //
    // Two ways in: the callback Authenticator, whose loadSecret blocks the
    // calling thread until the prompt answers (a worker thread, or
    // unlockWithBiometricsAsync(Executor)); and the two-phase pair of 1.2,
    // a BiometricRequest the host finishes from BiometricPrompt's callback
    // on any thread, with the AsyncAuthenticator helpers built on it.

    /** Turns the shortcut on (needs an unlocked session with a passcode and an
     * available authenticator; calls isAvailable and storeSecret on this thread). */
    public void enableBiometrics() { finish(call(Native::enableBiometrics), null); }

    /** Turns the shortcut off (calls deleteSecret). */
    public void disableBiometrics() { finish(call(Native::disableBiometrics), null); }

    /**
     * Unlocks with the authenticator's check: blocks this thread in
     * loadSecret while the prompt is up. Never counts an attempt. {@link
     * LockUnavailableException} when the shortcut is off, unavailable, the
     * check failed or was cancelled (the message says which).
     *
     * @return the state after the call
     */
    public Snapshot unlockWithBiometrics() {
        long[] out = new long[GeneratedTables.SNAP_FIELDS];
        int rc = call(h -> Native.unlockWithBiometrics(h, out));
        Snapshot s = Snapshot.of(out);
        finish(rc, s);
        return s;
    }

    /**
     * {@link #unlockWithBiometrics()} on {@code executor} (a worker, never
     * the thread that answers the prompt): the future completes with the
     * snapshot, or exceptionally with the exception it threw (wrapped in a
     * {@code CompletionException} by {@code join()}).
     *
     * <p>Cancelling the future ends it at once ({@link
     * CancellationException}), whatever the authenticator does: the worker
     * is interrupted while it runs the call (a {@code loadSecret} that
     * waits on a latch should answer {@link AuthResult#CANCELLED} when
     * interrupted), and an answer the authenticator gives after the
     * cancellation is answered to the library as {@link
     * AuthResult#CANCELLED} (no unlock) and its secret array is wiped. A
     * future cancelled before the executor ran it never calls the
     * library. The platform's prompt is yours to dismiss. The answer and
     * the cancellation race for one claim on the call: {@code cancel}
     * returns true only when nothing was unlocked, and false when the
     * authenticator's secret reached the library first (the future then
     * completes with the library's answer).
     *
     * <p>{@link #close()} ends it the same way, at once, whatever the
     * authenticator does: the future fails with {@link
     * IllegalStateException}, the worker is interrupted, and a later answer
     * is answered {@link AuthResult#CANCELLED} and wiped (the handle is
     * destroyed once the call has returned). Dependent stages then run on
     * the thread that called close() unless you use the {@code *Async}
     * methods. The worker's interrupt never reaches dependent stages that
     * run on it after the call returned. An executor that refuses the task
     * throws its {@code RejectedExecutionException} from this call, which
     * then holds nothing. Thread: any.
     *
     * @param executor runs the blocking call
     * @return completed with the state after the unlock
     */
    public CompletableFuture<Snapshot> unlockWithBiometricsAsync(Executor executor) {
        required(executor, "executor");
        CancellableCall call = new CancellableCall();
        RequestFuture result = new RequestFuture(call); // its cancel claims the call, then interrupts it
        Runnable closed = () -> {
            if (call.claimClose()) call.cancelled(); // first: an answer from now on is a late one
            result.settleExceptionally(closedWhileWaiting());
        };
        waitingCalls.add(closed);
        result.whenComplete((s, e) -> waitingCalls.remove(closed));
        if (isClosed()) closed.run(); // closed before it was registered: close() did not see it
        try {
            executor.execute(() -> {
                if (!call.begin()) return; // cancelled before it ran
                Snapshot s = null;
                Throwable failure = null;
                try {
                    s = Callbacks.runAs(call, this::unlockWithBiometrics);
                } catch (Throwable t) {
                    failure = t;
                } finally {
                    // Before the future completes: its dependents run on this thread,
                    // and a close() meanwhile must not interrupt them.
                    call.end();
                }
                if (failure == null) result.settle(s);
                else result.settleExceptionally(failure);
            });
        } catch (RuntimeException e) {
            waitingCalls.remove(closed); // refused (RejectedExecutionException): nothing runs, nothing to end
            throw e;
        }
        return result;
    }

    // -- biometrics for asynchronous hosts (1.2) -----------------------------------------

    /**
     * Begins a biometric unlock whose result comes later ({@code
     * idlelock_biometric_begin}, {@code IDLELOCK_BIOMETRIC_UNLOCK}): show
     * the platform's check, then {@link BiometricRequest#finish(AuthResult,
     * byte[])} with the secret it released, from any thread. Checks what
     * {@link #unlockWithBiometrics()} checks first; needs no {@link
     * Authenticator} (when one is configured, its cached isAvailable must
     * be true). On an unlocked session it re-authenticates. Throws {@link
     * NoPasscodeException}, {@link LockedOutException}, {@link
     * LockUnavailableException} (the shortcut is off or unavailable, a
     * passcode policy requires the passcode: {@link
     * Snapshot#isPasscodeRequired()}, or promptCapMs is 0), {@link
     * InvalidArgumentException} (already {@link #BIOMETRIC_REQUESTS_MAX}
     * open), {@link StorageException}; when it throws, no request is left
     * open. Thread: any.
     *
     * @return the open request
     */
    public BiometricRequest beginBiometricUnlock() { return beginBiometric(BiometricRequest.Purpose.UNLOCK); }

    /**
     * Begins turning the shortcut on ({@code idlelock_biometric_begin},
     * {@code IDLELOCK_BIOMETRIC_ENABLE}): {@link BiometricRequest#secret()}
     * holds a new random 32-byte secret; keep it behind the platform's
     * biometric check (encrypt it with a Keystore key that needs the
     * check), then {@link BiometricRequest#finish(AuthResult)
     * finish(AuthResult.OK)}: the shortcut is on only then. Needs an
     * unlocked session with a passcode. Throws {@link NoPasscodeException},
     * {@link SessionLockedException}, {@link LockUnavailableException}
     * (promptCapMs is 0), {@link InvalidArgumentException} (already {@link
     * #BIOMETRIC_REQUESTS_MAX} open), {@link NoMemoryException}; when it
     * throws, no request is left open. Thread: any.
     *
     * @return the open request, its secret to keep
     */
    public BiometricRequest beginBiometricEnable() { return beginBiometric(BiometricRequest.Purpose.ENABLE); }

    private BiometricRequest beginBiometric(BiometricRequest.Purpose purpose) {
        long[] out = new long[GeneratedTables.SNAP_FIELDS];
        long[] token = new long[1];
        byte[] secret = purpose == BiometricRequest.Purpose.ENABLE ? new byte[AUTH_SECRET_BYTES] : null;
        int rc = call(h -> Native.biometricBegin(h, purpose.code, token, secret, out));
        Snapshot s = Snapshot.of(out);
        if (rc != 0) {
            if (secret != null) Arrays.fill(secret, (byte) 0);
            finish(rc, s);
        }
        BiometricRequest.Core core = new BiometricRequest.Core(this, token[0], purpose, secret);
        requests.add(core);
        BiometricRequest request = new BiometricRequest(core, s);
        if (isClosed()) core.lockClosed(); // closed while the begin ran: it can never be finished
        try {
            finish(0, s); // a listener that threw during the begin
        } catch (RuntimeException e) {
            // The caller never gets the request: do not leave it open (its
            // prompt would defer the rules up to promptCapMs).
            try {
                request.cancel();
            } catch (RuntimeException ignored) {
                // the first error wins
            }
            throw e;
        }
        return request;
    }

    /** {@code idlelock_biometric_finish} for {@link BiometricRequest}; the arguments are checked. */
    Snapshot finishBiometric(BiometricRequest.Core core, AuthResult result, byte[] secret) {
        long[] out = new long[GeneratedTables.SNAP_FIELDS];
        // Counted before enter(): a close() from now on waits for this finish's
        // outcome (it reaches the library) or its refusal (it does not).
        core.enterFinish();
        long h;
        try {
            h = enter();
        } catch (RuntimeException e) {
            core.leaveFinish();
            throw e;
        }
        int rc;
        RuntimeException failure;
        Snapshot s;
        try {
            rc = Native.biometricFinish(h, core.token, result.code, secret, secret == null ? 0 : secret.length, out);
            s = Snapshot.of(out);
            failure = failure(rc, s);
        } finally {
            exit();
        }
        core.exitFinish(rc, s, failure);
        List<Throwable> errors = Callbacks.anyPending() ? Callbacks.takePending() : null;
        RuntimeException e = thrown(failure, errors);
        if (e != null) throw e;
        return s;
    }

    /** A request that ended is no longer this lock's to wipe at close. */
    void forget(BiometricRequest.Core core) { requests.remove(core); }

    /**
     * Unlocks with an {@link AsyncAuthenticator}, blocking no thread:
     * begins a request ({@link #beginBiometricUnlock()}), calls {@code
     * authenticator.loadSecret(request)}, and when its stage completes
     * finishes the request with the outcome, on the thread that completed
     * it. The returned future completes with the state after the finish,
     * or exceptionally with what the begin or the finish threw ({@link
     * LockUnavailableException} for a check that did not pass, an expired
     * request or a refused secret; {@link InvalidArgumentException} for a
     * request voided meanwhile), or with the stage's own exception when it
     * failed with something other than {@link AuthenticationException}
     * (the request is then finished as failed). Cancelling the future
     * ends it at once ({@link CancellationException}) and finishes the
     * request as cancelled, whatever the authenticator's stage does: a
     * stage that never completes holds nothing, and one that completes
     * later is ignored (its secret array is wiped); a cancel that comes
     * after the answer reached the library returns false instead, and the
     * future completes with the library's answer ({@link
     * BiometricRequest#future()}). {@link #close()} ends
     * it the same way, at once, whatever the stage does: the future fails
     * with the {@link IllegalStateException} that fails the request's own
     * {@link BiometricRequest#future()} (a finish already in the library
     * when close() is called completes it first, with its outcome), and a
     * stage that completes later is ignored (its secret array is wiped);
     * dependent stages then run on the thread that called close() unless
     * you use the {@code *Async} methods. The platform's prompt is yours
     * to dismiss. No request is ever left open. Thread: any.
     *
     * @param authenticator runs the platform's check
     * @return completed with the state after the unlock
     */
    public CompletableFuture<Snapshot> unlockWithBiometricsAsync(AsyncAuthenticator authenticator) {
        required(authenticator, "authenticator");
        return drive(BiometricRequest.Purpose.UNLOCK, authenticator::loadSecret, (request, secret, result) -> {
            if (result.isDone()) { // cancelled (or failed) first: a late answer unlocks nothing
                if (secret != null) Arrays.fill(secret, (byte) 0);
                return;
            }
            if (secret == null) {
                finishQuietly(request, AuthResult.FAILED);
                result.settleExceptionally(new NullPointerException("AsyncAuthenticator.loadSecret completed with null; "
                        + "complete it exceptionally with an AuthenticationException instead"));
                return;
            }
            complete(result, () -> request.finish(AuthResult.OK, secret));
        });
    }

    /**
     * Turns the shortcut on with an {@link AsyncAuthenticator}, blocking no
     * thread: begins a request ({@link #beginBiometricEnable()}), calls
     * {@code authenticator.storeSecret(request, request.secret())}, and
     * when its stage completes finishes the request (the shortcut is on
     * only then). If the library refuses after the secret was stored (a
     * lock, a sign-out or a new passcode after the begin), {@code
     * authenticator.deleteSecret()} runs before the future fails, so no
     * item is left behind; the same when the future was cancelled, or the
     * lock closed, before the stage completed (the future ends at once,
     * the request is cancelled or ended with the lock, and a stage that
     * completes later has its item deleted). Errors, cancellation, close
     * and threads as {@link #unlockWithBiometricsAsync(AsyncAuthenticator)}.
     *
     * @param authenticator stores the secret behind the platform's check
     * @return completed with the state once the shortcut is on
     */
    public CompletableFuture<Snapshot> enableBiometricsAsync(AsyncAuthenticator authenticator) {
        required(authenticator, "authenticator");
        return drive(BiometricRequest.Purpose.ENABLE, r -> authenticator.storeSecret(r, r.secret()), (request, stored, result) -> {
            try {
                if (result.isDone()) { // cancelled or closed first: the request is over, the item must go
                    throw new CancellationException("the future ended before the secret was stored");
                }
                result.settle(request.finish(AuthResult.OK));
            } catch (RuntimeException e) {
                // Stored, but not taken (or the future was cancelled meanwhile): the item must go.
                CompletionStage<Void> deleted;
                try {
                    deleted = authenticator.deleteSecret();
                } catch (RuntimeException d) {
                    deleted = null;
                }
                if (deleted == null) {
                    result.settleExceptionally(e);
                } else {
                    deleted.whenComplete((v, d) -> result.settleExceptionally(e));
                }
            }
        });
    }

    private interface StageStart<T> {
        CompletionStage<T> start(BiometricRequest request);
    }

    private interface StageDone<T> {
        void done(BiometricRequest request, T value, RequestFuture result);
    }

    /**
     * Begins a request for {@code purpose} and starts the host's part of
     * it; when that completes, runs {@code done} with its value. An {@link
     * AuthenticationException} finishes the request with its outcome (the
     * library's {@link LockUnavailableException} fails the result);
     * anything else finishes it as failed (cancelled) and fails the result
     * with it. A begin that fails fails the result; cancelling the result
     * cancels the request.
     */
    private <T> CompletableFuture<Snapshot> drive(BiometricRequest.Purpose purpose, StageStart<T> start, StageDone<T> done) {
        BiometricRequest request;
        try {
            request = beginBiometric(purpose);
        } catch (RuntimeException e) {
            CompletableFuture<Snapshot> failed = new CompletableFuture<>();
            failed.completeExceptionally(e);
            return failed;
        }
        // The result shares the request's claim: cancelling either (or a
        // timeout completing either) cancels the request, unless the host's
        // answer reached the library first; then cancel() returns false.
        RequestFuture result = new RequestFuture(request.core());
        // close() ends the request (once no finish of it is in flight) with
        // closedWhileWaiting(): the helper ends with it, whatever the host's
        // stage does; a stage that completes later finds the result done.
        // So does a cancellation of the request's own future.
        request.future().whenComplete((s, e) -> {
            if (e instanceof IllegalStateException && isClosed()) result.settleExceptionally(e);
            else if (e instanceof CancellationException) result.settleCancelled();
        });
        if (result.isDone()) return result; // closed while the begin ran: no prompt for a dead request
        CompletionStage<T> stage;
        try {
            stage = start.start(request);
            if (stage == null) throw new NullPointerException("the AsyncAuthenticator returned no stage");
        } catch (RuntimeException e) {
            finishQuietly(request, AuthResult.FAILED);
            result.settleExceptionally(e);
            return result;
        } catch (Error e) {
            // A host that failed harder (a platform plugin's class missing:
            // NoClassDefFoundError): no request is left open either.
            finishQuietly(request, AuthResult.FAILED);
            throw e;
        }
        stage.whenComplete((value, error) -> {
            if (error == null) {
                done.done(request, value, result);
                return;
            }
            Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
            if (cause instanceof AuthenticationException) {
                complete(result, () -> request.finish(((AuthenticationException) cause).result()));
            } else {
                finishQuietly(request, cause instanceof CancellationException ? AuthResult.CANCELLED : AuthResult.FAILED);
                result.settleExceptionally(cause);
            }
        });
        return result;
    }

    private interface Finish {
        Snapshot run();
    }

    private static void complete(RequestFuture result, Finish finish) {
        try {
            result.settle(finish.run());
        } catch (RuntimeException e) {
            result.settleExceptionally(e);
        }
    }

    /** Finishes with a failure outcome whose answer is not the caller's concern. */
    private static void finishQuietly(BiometricRequest request, AuthResult outcome) {
        if (request.isFinished()) return;
        try {
            request.finish(outcome);
        } catch (RuntimeException ignored) {
            // LockUnavailable (expected), or voided / closed meanwhile
        }
    }

    // -- sign-out -------------------------------------------------------------------

    /**
     * Signs out: forgets the passcode, the shortcut, every secret, the
     * attempt count and the lockout (the only way out of LOCKED_OUT); with
     * a store, deletes it. Drop your own session data too.
     */
    public void disable() { finish(call(Native::disable), null); }

    // -- listeners ------------------------------------------------------------------

    /**
     * Registers {@code listener} to hear every change made from now on
     * (call {@link #snapshot()} for the state now), on the thread of the
     * call that delivers it (or the watcher thread). Returns its token for
     * {@link #unsubscribe}. At most 64 per lock ({@link InvalidArgumentException}).
     *
     * @param listener hears each change
     * @return its token
     */
    public long subscribe(Listener listener) { return subscribe(null, listener); }

    /**
     * As {@link #subscribe(Listener)}, but each snapshot is handed to
     * {@code executor} (Android: {@code ContextCompat.getMainExecutor(context)};
     * a UI toolkit's event queue): the listener then runs on your thread, in
     * seq order when the executor is serial, and not after unsubscribe.
     *
     * @param executor runs the listener, or null for the delivering thread
     * @param listener hears each change
     * @return its token
     */
    public long subscribe(Executor executor, Listener listener) {
        required(listener, "listener");
        long id = NEXT_LISTENER_ID.incrementAndGet();
        callbacks.listeners.put(id, new Callbacks.Registration(listener, executor));
        int rc = call(h -> Native.subscribe(h, id));
        if (rc != 0) callbacks.listeners.remove(id);
        finish(rc, null);
        return id;
    }

    /**
     * Removes a listener: when it returns, no call of it runs on another
     * thread and none will follow. An unknown token: {@link InvalidArgumentException}.
     *
     * @param token what {@link #subscribe} returned
     */
    public void unsubscribe(long token) {
        int rc = call(h -> Native.unsubscribe(h, token));
        if (rc == 0) {
            Callbacks.Registration r = callbacks.listeners.remove(token);
            if (r != null) r.active = false;
        }
        finish(rc, null);
    }

    // -- secrets and the gate -------------------------------------------------------------

    /**
     * Stores {@code value} (0..65536 bytes, copied and sealed) under {@code
     * name} (1..64 UTF-8 bytes, no NUL). {@link SessionLockedException}
     * while locked. At most 256 names ({@link NoMemoryException} beyond).
     *
     * @param name the secret's name
     * @param value its bytes, copied
     */
    public void putSecret(String name, byte[] value) {
        required(name, "name");
        required(value, "value");
        byte[] n = Utf8.cString(name, "the secret name");
        finish(call(h -> Native.secretPut(h, n, value)), null);
    }

    /**
     * The secret {@code name} as a new array that the caller owns: wipe it
     * when done ({@code Arrays.fill(value, (byte) 0)}). {@link
     * NotFoundException}, {@link SessionLockedException}.
     *
     * @param name the secret's name
     * @return a new array holding its bytes
     */
    public byte[] getSecret(String name) {
        required(name, "name");
        byte[] n = Utf8.cString(name, "the secret name");
        int[] status = new int[1];
        long h = enter();
        byte[] value;
        try {
            value = Native.secretGet(h, n, status);
        } finally {
            exit();
        }
        finish(status[0], null);
        return value;
    }

    /**
     * Forgets the secret {@code name} (its ciphertext is wiped).
     *
     * @param name the secret's name
     */
    public void removeSecret(String name) {
        required(name, "name");
        byte[] n = Utf8.cString(name, "the secret name");
        finish(call(h -> Native.secretRemove(h, n)), null);
    }

    /** The gate for your own protected work: throws {@link SessionLockedException} unless unlocked. */
    public void requireUnlocked() { finish(call(Native::requireUnlocked), null); }

    /**
     * The step-up check before a sensitive action (1.2, {@code
     * idlelock_require_recent_auth}): returns when the session is unlocked
     * and its last successful authentication on this lock ({@link
     * Snapshot#lastAuthMs()}: a passcode or biometric unlock, including a
     * re-authentication of the unlocked session) is at most {@code
     * maxAgeMs} (1 .. {@link #RECENT_AUTH_MAX_MS}, 30 days) old. Throws
     * {@link ReauthRequiredException} when it is older or there was none
     * (ask again: {@link #unlock(char[])} or the biometric shortcut on the
     * unlocked session, then check again; a clock step also counts as too
     * old), {@link SessionLockedException} when locked, {@link
     * NoPasscodeException} when no passcode is set, {@link
     * InvalidArgumentException} for maxAgeMs out of range. Android
     * Keystore's authentication validity duration, LAContext's reuse
     * duration and OWASP MASVS-AUTH's step-up authentication work this
     * way. No allocation in the library. Thread: any.
     *
     * @param maxAgeMs how old the last authentication may be, in ms
     */
    public void requireRecentAuth(long maxAgeMs) { finish(call(h -> Native.requireRecentAuth(h, maxAgeMs)), null); }

    @Override
    public String toString() { return "IdleLock(" + (isClosed() ? "closed" : "open") + ")"; }
}
