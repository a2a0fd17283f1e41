// SPDX-License-Identifier: MIT
package org.idlelock;

/**
 * The host's keystore behind a biometric check ({@code idlelock_authenticator}):
 * on Android, a Keystore key created with {@code setUserAuthenticationRequired(true)}
 * and unlocked by a {@code BiometricPrompt} with a {@code CryptoObject}
 * (bindings/java/README.md shows one). The library has no biometric code:
 * it hands the host a random 32-byte secret to keep, and the secret the
 * host gives back is key material that must open a wrap of the session
 * key; a biometric result is never a yes/no.
 *
 * <p><b>Threads.</b> Each method runs on the thread of the {@link IdleLock}
 * call that needs it ({@code isAvailable}: {@link IdleLock.Builder#build()},
 * {@link IdleLock#foreground()}, {@link IdleLock#enableBiometrics()};
 * {@code storeSecret}: enableBiometrics; {@code loadSecret}:
 * {@link IdleLock#unlockWithBiometrics()}; {@code deleteSecret}:
 * disableBiometrics, setPasscode and disable when the shortcut was on),
 * never with the library's internal lock held: it may block for as long
 * as a person looks at a prompt while other threads keep calling. So call
 * {@code unlockWithBiometrics} from a worker thread (or use {@link
 * IdleLock#unlockWithBiometricsAsync}) and let {@code loadSecret} wait on a
 * latch that the {@code BiometricPrompt} callback, on the main thread,
 * counts down. Never call it on the thread that would have to answer the
 * prompt (the main thread on Android): that thread would wait for itself.
 * A method may call into the lock.
 *
 * <p><b>Errors.</b> Report a check that did not release the secret by
 * throwing {@link AuthenticationException}. Any other exception (a bug) is
 * treated as a failed check and rethrown, as a {@link CallbackException},
 * from the call that ran the method once the library returned.
 */
public interface Authenticator {
    /** {@return true when a biometric check can run now (hardware present, enrolled)}
     * Cached by the library; keep it quick. */
    boolean isAvailable();

    /**
     * Keep these 32 bytes in an item released only after a biometric check,
     * replacing any earlier one. The binding wipes {@code secret} (fills it
     * with zeros) when this returns: copy what you keep, and wipe your own
     * copies. Throw {@link AuthenticationException} when it could not be
     * stored (the shortcut then stays off).
     *
     * @param secret the 32 bytes to keep; wiped when this returns
     * @throws AuthenticationException when the secret could not be stored
     */
    void storeSecret(byte[] secret) throws AuthenticationException;

    /**
     * Run the biometric check, showing {@code reason} (the config's
     * unlockReason, or null), and return the stored secret (32 bytes). The
     * binding copies it into the library's buffer and then wipes the array
     * you returned. Throw {@link AuthenticationException} for a failed,
     * cancelled or unavailable check.
     *
     * @param reason the prompt's text, or null
     * @return the stored 32-byte secret
     * @throws AuthenticationException for a check that did not release it
     */
    byte[] loadSecret(String reason) throws AuthenticationException;

    /**
     * Delete the item (the shortcut was turned off). A failure is ignored
     * by the library, which has forgotten the wrap anyway.
     *
     * @throws AuthenticationException when it could not be deleted (ignored)
     */
    void deleteSecret() throws AuthenticationException;
}
