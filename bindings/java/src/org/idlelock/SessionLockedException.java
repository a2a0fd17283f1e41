// SPDX-License-Identifier: MIT
package org.idlelock;

/** {@code IDLELOCK_ERR_SESSION_LOCKED}: the session is locked (LOCKED or LOCKED_OUT): secrets and the gate are closed; also an unlock overtaken by a lock that happened while it ran. */
public class SessionLockedException extends IdleLockException {
    private static final long serialVersionUID = 1L;
    /** The C status. */
    public static final int STATUS = 2;

    /**
     * Made by the binding for this status.
     *
     * @param message what was wrong, in the binding's words
     * @param snapshot the state after the call, or null when the call reports none
     */
    public SessionLockedException(String message, Snapshot snapshot) { super(STATUS, message, snapshot); }
}
