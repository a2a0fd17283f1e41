// SPDX-License-Identifier: MIT
package org.idlelock;

/** {@code IDLELOCK_ERR_INTERNAL}: a failure inside the library or libsodium that is not the caller's; the message says which step. */
public class InternalException extends IdleLockException {
    private static final long serialVersionUID = 1L;
    /** The C status. */
    public static final int STATUS = 11;

    /**
     * Made by the binding for this status.
     *
     * @param message what was wrong, in the binding's words
     * @param snapshot the state after the call, or null when the call reports none
     */
    public InternalException(String message, Snapshot snapshot) { super(STATUS, message, snapshot); }
}
