// SPDX-License-Identifier: MIT
package org.idlelock;

/** {@code IDLELOCK_ERR_LOCK_UNAVAILABLE}: the biometric shortcut is not enabled, not available, failed or was cancelled (the message says which). The passcode still works. */
public class LockUnavailableException extends IdleLockException {
    private static final long serialVersionUID = 1L;
    /** The C status. */
    public static final int STATUS = 5;

    /**
     * Made by the binding for this status.
     *
     * @param message what was wrong, in the binding's words
     * @param snapshot the state after the call, or null when the call reports none
     */
    public LockUnavailableException(String message, Snapshot snapshot) { super(STATUS, message, snapshot); }
}
