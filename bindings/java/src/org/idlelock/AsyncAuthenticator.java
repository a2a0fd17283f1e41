// SPDX-License-Identifier: MIT
package org.idlelock;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The host's keystore behind a biometric check that answers later (1.2):
 * each method starts the platform's work and returns at once with a stage
 * that completes when the work is done, so no thread waits for the person
 * at the sensor. {@link IdleLock#unlockWithBiometricsAsync(AsyncAuthenticator)}
 * and {@link IdleLock#enableBiometricsAsync(AsyncAuthenticator)} drive the
 * two-phase pair ({@link BiometricRequest}) with it. On Android the stage
 * is completed from {@code BiometricPrompt}'s callback on the main thread
 * (bindings/java/README.md shows one); the request is finished on the
 * thread that completes the stage (a quick call: no key derivation).
 *
 * <p>Report a check that did not release the secret by completing the
 * stage exceptionally with {@link AuthenticationException} ({@link
 * AuthResult#FAILED}, {@link AuthResult#CANCELLED}, {@link
 * AuthResult#UNAVAILABLE}): the helper's future then fails with {@link
 * LockUnavailableException}. Any other exception (a bug) finishes the
 * request as failed and fails the helper's future with that exception.
 * A method that throws instead of returning a stage counts the same way.
 *
 * <p>Unlike the callback {@link Authenticator}, nothing here is configured
 * on the lock: the pair needs no callback, so {@code isBiometricsAvailable}
 * stays false unless a callback {@link Authenticator} is configured too;
 * check availability yourself ({@code BiometricManager.canAuthenticate}).
 */
public interface AsyncAuthenticator {
    /**
     * Run the biometric check for {@code request} (an UNLOCK) and complete
     * the stage with the 32-byte secret it released. The binding takes
     * that array over: it is wiped once the request is finished.
     *
     * @param request the open UNLOCK request
     * @return a stage completed with the released secret
     */
    CompletionStage<byte[]> loadSecret(BiometricRequest request);

    /**
     * Keep {@code secret} (the request's 32-byte array, {@link
     * BiometricRequest#secret()}) behind the biometric check, replacing any
     * earlier item, and complete the stage when it is stored. The binding
     * wipes the array when the request ends: encrypt or store it before
     * the stage completes, and keep no other copy.
     *
     * @param request the open ENABLE request
     * @param secret the request's secret array
     * @return a stage completed once the secret is stored
     */
    CompletionStage<Void> storeSecret(BiometricRequest request, byte[] secret);

    /**
     * Delete the item storeSecret kept: called when the library refused to
     * turn the shortcut on after it was stored (a lock, sign-out or new
     * passcode after the begin). Its failure is ignored. The default does
     * nothing.
     *
     * @return a stage completed once the item is deleted
     */
    default CompletionStage<Void> deleteSecret() { return CompletableFuture.completedFuture(null); }
}
