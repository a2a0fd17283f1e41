// SPDX-License-Identifier: MIT
package org.idlelock;

/** (1.2) {@code IDLELOCK_ERR_REAUTH_REQUIRED} ({@code idlelock_require_recent_auth}): the session is unlocked, but its last successful authentication is older than the caller allows: ask the user again, then check again. */
public class ReauthRequiredException extends IdleLockException {
    private static final long serialVersionUID = 1L;
    /** The C status. */
    public static final int STATUS = 13;

    public ReauthRequiredException(String message, Snapshot snapshot) { super(STATUS, message, snapshot); }
}
