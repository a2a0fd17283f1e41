// SPDX-License-Identifier: MIT
package org.idlelock;

/** {@code IDLELOCK_ERR_NO_MEMORY}: memory (Argon2id's kdfMemlimit bytes, or secure memory) could not be allocated; also a 257th secret name. */
public class NoMemoryException extends IdleLockException {
    private static final long serialVersionUID = 1L;
    /** The C status. */
    public static final int STATUS = 10;

    /**
     * Made by the binding for this status.
     *
     * @param message what was wrong, in the binding's words
     * @param snapshot the state after the call, or null when the call reports none
     */
    public NoMemoryException(String message, Snapshot snapshot) { super(STATUS, message, snapshot); }
}
