package org.idlelock;

/**
 * {@code IDLELOCK_ERR_INVALID_ARGUMENT}: a null, malformed or out-of-range
 * argument or option (the message names it). The call changed nothing.
 * Also thrown by the binding's own checks (a null array, a string with a
 * NUL, an unpaired surrogate), before any call into the library.
 */
public class InvalidArgumentException extends IdleLockException {
    private static final long serialVersionUID = 1L;
    /** The C status. */
    public static final int STATUS = 1;

    public InvalidArgumentException(String message) { super(STATUS, message, null); }
}
