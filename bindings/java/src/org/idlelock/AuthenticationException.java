// SPDX-License-Identifier: MIT
package org.idlelock;

/**
 * Thrown by an {@link Authenticator} to report a biometric check that did
 * not release the secret: {@link AuthResult#FAILED}, {@link
 * AuthResult#CANCELLED} or {@link AuthResult#UNAVAILABLE} (an {@code OK}
 * result is treated as FAILED). The library then answers the call with
 * {@link LockUnavailableException}; the passcode still works.
 */
public class AuthenticationException extends Exception {
    private static final long serialVersionUID = 1L;
    /** FAILED, CANCELLED or UNAVAILABLE. */
    private final AuthResult result;

    /**
     * Reports a check that did not release the secret.
     *
     * @param result FAILED, CANCELLED or UNAVAILABLE (null or OK count as FAILED)
     * @param message what happened, for the logs
     */
    public AuthenticationException(AuthResult result, String message) {
        super(message);
        this.result = result == null || result == AuthResult.OK ? AuthResult.FAILED : result;
    }

    /**
     * Reports a check that did not release the secret, with its cause.
     *
     * @param result FAILED, CANCELLED or UNAVAILABLE (null or OK count as FAILED)
     * @param message what happened, for the logs
     * @param cause the platform's exception
     */
    public AuthenticationException(AuthResult result, String message, Throwable cause) {
        this(result, message);
        initCause(cause);
    }

    /** {@return FAILED, CANCELLED or UNAVAILABLE} */
    public AuthResult result() { return result; }
}
