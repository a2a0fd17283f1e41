// SPDX-License-Identifier: MIT
package org.idlelock;

/** (1.2) {@code IDLELOCK_ERR_REAUTH_REQUIRED} ({@code idlelock_require_recent_auth}): the session is unlocked, but its last successful authentication is older than the caller allows: ask the user again, then check again. */
public class ReauthRequiredException extends IdleLockException {
    private static final long serialVersionUID = 1L;
    /** The C status. */
    public static final int STATUS = 13;

    /**
     * Made by the binding for this status.
     *
     * @param message what was wrong, in the binding's words
     * @param snapshot the state after the call, or null when the call reports none
     */
    public ReauthRequiredException(String message, Snapshot snapshot) { super(STATUS, message, snapshot); }
}
