// SPDX-License-Identifier: MIT
package org.idlelock;

/**
 * The outcome of a biometric check ({@code IDLELOCK_AUTH_*}): what an
 * {@link Authenticator} or an {@link AsyncAuthenticator} reports through
 * {@link AuthenticationException}, and what the host hands to {@link
 * BiometricRequest#finish(AuthResult, byte[])} (1.2).
 */
public enum AuthResult {
    /** The check passed; the secret was released. */
    OK(0),
    /** The check failed (wrong face or finger, a locked sensor). */
    FAILED(1),
    /** The user or the system cancelled the prompt. */
    CANCELLED(2),
    /** No item, no enrolment, no hardware. */
    UNAVAILABLE(3);

    /** The C value. */
    public final int code;

    AuthResult(int code) { this.code = code; }
}
