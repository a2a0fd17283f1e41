// SPDX-License-Identifier: MIT
package org.idlelock;

/** {@code IDLELOCK_ERR_STORAGE}: the store could not be read or written. From an event, the session locked and the lock could not be saved: it is LOCKED anyway ({@link #snapshot()}). */
public class StorageException extends IdleLockException {
    private static final long serialVersionUID = 1L;
    /** The C status. */
    public static final int STATUS = 7;

    /**
     * Made by the binding for this status.
     *
     * @param message what was wrong, in the binding's words
     * @param snapshot the state after the call, or null when the call reports none
     */
    public StorageException(String message, Snapshot snapshot) { super(STATUS, message, snapshot); }
}
