// SPDX-License-Identifier: MIT
package org.idlelock;

/** {@code IDLELOCK_ERR_NO_MEMORY}: memory (Argon2id's kdfMemlimit bytes, or secure memory) could not be allocated; also a 257th secret name. */
public class NoMemoryException extends IdleLockException {
    private static final long serialVersionUID = 1L;
    /** The C status. */
    public static final int STATUS = 10;

    public NoMemoryException(String message, Snapshot snapshot) { super(STATUS, message, snapshot); }
}
