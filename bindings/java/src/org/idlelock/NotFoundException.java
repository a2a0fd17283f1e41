// SPDX-License-Identifier: MIT
package org.idlelock;

/** {@code IDLELOCK_ERR_NOT_FOUND}: no secret has that name. */
public class NotFoundException extends IdleLockException {
    private static final long serialVersionUID = 1L;
    /** The C status. */
    public static final int STATUS = 8;

    public NotFoundException(String message) { super(STATUS, message, null); }
}
