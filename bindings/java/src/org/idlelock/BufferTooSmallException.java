// SPDX-License-Identifier: MIT
package org.idlelock;

/**
 * {@code IDLELOCK_ERR_BUFFER_TOO_SMALL}. The binding sizes its buffers itself
 * ({@link IdleLock#getSecret} retries with the size the library reports),
 * so this is only seen from a library that breaks that contract.
 */
public class BufferTooSmallException extends IdleLockException {
    private static final long serialVersionUID = 1L;
    /** The C status. */
    public static final int STATUS = 9;

    /**
     * Made by the binding for this status.
     *
     * @param message what was wrong, in the binding's words
     */
    public BufferTooSmallException(String message) { super(STATUS, message, null); }
}
