// SPDX-License-Identifier: MIT
package org.idlelock;

/**
 * The native methods of {@code libidlelock_jni.so} (jni/idlelock_jni.c),
 * registered with {@code RegisterNatives} when the library loads. Private to
 * the package: {@link IdleLock} validates every argument before it calls
 * one, and calls one only between {@code enter()} and {@code exit()}, so a
 * handle is never used after it was destroyed.
 *
 * <p>Strings cross as byte arrays of UTF-8 (never through JNI's
 * {@code NewStringUTF}/{@code GetStringUTFChars}, whose "modified UTF-8"
 * encodes NUL as two bytes and a character outside the BMP as two
 * surrogates). Snapshots cross as a {@code long[GeneratedTables.SNAP_FIELDS]},
 * a config's numbers as a {@code long[GeneratedTables.CFG_FIELDS]} (their
 * slots generated from the header with the glue's C side,
 * jni/idlelock_jni_generated.h).
 */
final class Native {
    private Native() {}

    /** {@link #event} kinds (the switch in the glue). */
    static final int EV_START = 0, EV_TOUCH = 1, EV_INACTIVE = 2, EV_BACKGROUND = 3,
            EV_FOREGROUND = 4, EV_CHECK = 5, EV_LOCK = 6, EV_SNAPSHOT = 7;

    private static final Throwable LOAD_ERROR = load();

    /**
     * Loads the glue: from {@code -Dorg.idlelock.jni.path} when set;
     * else through {@code System.loadLibrary("idlelock_jni")}, from {@code
     * java.library.path} (an Android app's {@code jniLibs/<abi>/}, an app's
     * own folder); else from the jar ({@link JarNatives}).
     */
    private static Throwable load() {
        try {
            String path = System.getProperty("org.idlelock.jni.path");
            if (path != null && !path.isEmpty()) {
                System.load(path);
            } else {
                try {
                    System.loadLibrary("idlelock_jni");
                } catch (UnsatisfiedLinkError notThere) {
                    try {
                        JarNatives.load();
                    } catch (Throwable fromJar) {
                        UnsatisfiedLinkError e = new UnsatisfiedLinkError("not in java.library.path ("
                                + notThere.getMessage() + "), and not from the jar: " + fromJar.getMessage());
                        e.initCause(fromJar);
                        throw e;
                    }
                }
            }
            byte[] problem = checkAbi(IdleLock.HEADER_VERSION_NUMBER);
            if (problem != null) {
                return new UnsatisfiedLinkError(Utf8.decode(problem));
            }
            return null;
        } catch (Throwable t) {
            return t;
        }
    }

    /** Throws an {@link UnsatisfiedLinkError} saying why the native side is
     * unusable (not found, or built for another version), each time. */
    static void ensureLoaded() {
        if (LOAD_ERROR != null) {
            UnsatisfiedLinkError e = new UnsatisfiedLinkError(
                    "libidlelock_jni could not be used: " + LOAD_ERROR.getMessage()
                    + " (the jar carries it for linux-x86_64, linux-aarch64 and linux-armv7; elsewhere put"
                    + " libidlelock_jni.so and libidlelock.so where System.loadLibrary finds them:"
                    + " java.library.path, an Android app's jniLibs/<abi>/;"
                    + " or set -Dorg.idlelock.jni.path=/absolute/path/libidlelock_jni.so)");
            e.initCause(LOAD_ERROR);
            throw e;
        }
    }

    // Load-time check: null when the glue, this package and the library agree.
    static native byte[] checkAbi(int javaHeaderVersion);

    // Versions and errors (byte arrays of UTF-8, never NULL).
    static native byte[] version();
    static native int versionNumber();
    static native byte[] statusName(int status);
    static native byte[] lastError();
    static native long[] structSizes();
    static native long[] iosDelaySchedule();

    // Life cycle. numbers: the config's GeneratedTables.CFG_* slots, bit
    // (1 << slot) of setMask set for each one given (else config_init's
    // default). out[0] receives the handle.
    static native int create(long[] numbers, int setMask, byte[] storePath, byte[] unlockReason,
                             byte[] deviceKey, long[] delaySteps, Object callbacks,
                             boolean hasClock, boolean hasAuthenticator, long[] out);
    static native void destroy(long handle);
    static native int watchStart(long handle);
    static native int watchStop(long handle);

    // Events; snap may be null.
    static native int touch(long handle);
    static native int event(long handle, int kind, long[] snap);
    static native int lifecycle(long handle, int platform, byte[] stateName, long[] snap);
    static native int promptBegin(long handle, long[] token);
    static native int promptEnd(long handle, long token);

    // Passcode: the first len bytes of utf8.
    static native int setPasscode(long handle, byte[] utf8, int len);
    static native int unlock(long handle, byte[] utf8, int len, long[] snap);

    // Biometric shortcut.
    static native int enableBiometrics(long handle);
    static native int disableBiometrics(long handle);
    static native int unlockWithBiometrics(long handle, long[] snap);

    // The two-phase pair (1.2). begin: token[0] receives the token; for
    // ENABLE secretOut (byte[32]) receives the secret. finish: the first
    // len bytes of secret (0 or 32), copied and wiped in C.
    static native int biometricBegin(long handle, int purpose, long[] token, byte[] secretOut, long[] snap);
    static native int biometricFinish(long handle, long token, int result, byte[] secret, int len, long[] snap);
    static native int requireRecentAuth(long handle, long maxAgeMs);

    // Sign-out.
    static native int disable(long handle);

    // Listeners: id is the binding's number for the listener (Callbacks).
    static native int subscribe(long handle, long id);
    static native int unsubscribe(long handle, long id);

    // Secrets and the gate; names are NUL-terminated UTF-8.
    static native int secretPut(long handle, byte[] name, byte[] value);
    static native byte[] secretGet(long handle, byte[] name, int[] status);
    static native int secretRemove(long handle, byte[] name);
    static native int requireUnlocked(long handle);

    // For the tests: {handles alive, threads attached by the glue, threads
    // detached at their exit}.
    static native long[] glueCounters();
}
