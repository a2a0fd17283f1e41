// SPDX-License-Identifier: MIT
package org.idlelock;

/** {@code IDLELOCK_ERR_NO_PASSCODE}: no passcode is set: the lock is not engaged. */
public class NoPasscodeException extends IdleLockException {
    private static final long serialVersionUID = 1L;
    /** The C status. */
    public static final int STATUS = 6;

    /**
     * Made by the binding for this status.
     *
     * @param message what was wrong, in the binding's words
     * @param snapshot the state after the call, or null when the call reports none
     */
    public NoPasscodeException(String message, Snapshot snapshot) { super(STATUS, message, snapshot); }
}
