// SPDX-License-Identifier: MIT
package org.idlelock;

/** {@code IDLELOCK_ERR_LOCKED_OUT}: too many wrong passcodes; only {@link IdleLock#disable()} (sign-out) leaves this state. */
public class LockedOutException extends IdleLockException {
    private static final long serialVersionUID = 1L;
    /** The C status. */
    public static final int STATUS = 4;

    /**
     * Made by the binding for this status.
     *
     * @param message what was wrong, in the binding's words
     * @param snapshot the state after the call, or null when the call reports none
     */
    public LockedOutException(String message, Snapshot snapshot) { super(STATUS, message, snapshot); }
}
