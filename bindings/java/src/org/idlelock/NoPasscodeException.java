// SPDX-License-Identifier: MIT
package org.idlelock;

/** {@code IDLELOCK_ERR_NO_PASSCODE}: no passcode is set: the lock is not engaged. */
public class NoPasscodeException extends IdleLockException {
    private static final long serialVersionUID = 1L;
    /** The C status. */
    public static final int STATUS = 6;

    public NoPasscodeException(String message, Snapshot snapshot) { super(STATUS, message, snapshot); }
}
