// SPDX-License-Identifier: MIT
package org.idlelock;

/** {@code IDLELOCK_ERR_LOCK_UNAVAILABLE}: the biometric shortcut is not enabled, not available, failed or was cancelled (the message says which). The passcode still works. */
public class LockUnavailableException extends IdleLockException {
    private static final long serialVersionUID = 1L;
    /** The C status. */
    public static final int STATUS = 5;

    public LockUnavailableException(String message, Snapshot snapshot) { super(STATUS, message, snapshot); }
}
