// SPDX-License-Identifier: MIT
package org.idlelock;

/** {@code IDLELOCK_ERR_NOT_FOUND}: no secret has that name. */
public class NotFoundException extends IdleLockException {
    private static final long serialVersionUID = 1L;
    /** The C status. */
    public static final int STATUS = 8;

    /**
     * Made by the binding for this status.
     *
     * @param message what was wrong, in the binding's words
     */
    public NotFoundException(String message) { super(STATUS, message, null); }
}
