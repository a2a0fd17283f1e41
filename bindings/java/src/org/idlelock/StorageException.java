// SPDX-License-Identifier: MIT
package org.idlelock;

/** {@code IDLELOCK_ERR_STORAGE}: the store could not be read or written. From an event, the session locked and the lock could not be saved: it is LOCKED anyway ({@link #snapshot()}). */
public class StorageException extends IdleLockException {
    private static final long serialVersionUID = 1L;
    /** The C status. */
    public static final int STATUS = 7;

    public StorageException(String message, Snapshot snapshot) { super(STATUS, message, snapshot); }
}
