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
    private final AuthResult result;

    public AuthenticationException(AuthResult result, String message) {
        super(message);
        this.result = result == null || result == AuthResult.OK ? AuthResult.FAILED : result;
    }

    public AuthenticationException(AuthResult result, String message, Throwable cause) {
        this(result, message);
        initCause(cause);
    }

    /** FAILED, CANCELLED or UNAVAILABLE. */
    public AuthResult result() { return result; }
}
