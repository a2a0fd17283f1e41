// SPDX-License-Identifier: MIT
package org.idlelock;

/** {@code IDLELOCK_ERR_INVALID_PASSCODE}: the passcode did not open the lock. The attempt was counted; {@link #attemptsRemaining()} says how many remain. */
public class InvalidPasscodeException extends IdleLockException {
    private static final long serialVersionUID = 1L;
    /** The C status. */
    public static final int STATUS = 3;

    public InvalidPasscodeException(String message, Snapshot snapshot) { super(STATUS, message, snapshot); }

    /** Wrong passcodes left before LOCKED_OUT, or -1 when the call reported no snapshot. */
    public int attemptsRemaining() { return snapshot() == null ? -1 : snapshot().attemptsRemaining(); }
}
