// SPDX-License-Identifier: MIT
package org.idlelock;

/** {@code IDLELOCK_ERR_INVALID_PASSCODE}: the passcode did not open the lock. The attempt was counted; {@link #attemptsRemaining()} says how many remain. */
public class InvalidPasscodeException extends IdleLockException {
    private static final long serialVersionUID = 1L;
    /** The C status. */
    public static final int STATUS = 3;

    /**
     * Made by the binding for this status.
     *
     * @param message what was wrong, in the binding's words
     * @param snapshot the state after the call, or null when the call reports none
     */
    public InvalidPasscodeException(String message, Snapshot snapshot) { super(STATUS, message, snapshot); }

    /** {@return the wrong passcodes left before LOCKED_OUT, or -1 when the call reported no snapshot} */
    public int attemptsRemaining() { return snapshot() == null ? -1 : snapshot().attemptsRemaining(); }
}
