// SPDX-License-Identifier: MIT
package org.idlelock;

/**
 * {@code IDLELOCK_ERR_INVALID_ARGUMENT} (status 1): a malformed or
 * out-of-range value (the message names the option or parameter, in the
 * binding's words); the call changed nothing. Also thrown by the binding's
 * own checks before any call into the library: a string with a NUL
 * character or an unpaired surrogate, an array of the wrong length. A
 * null argument is a {@link NullPointerException} instead.
 *
 * <p>An {@link IllegalArgumentException}, as Java expects for a bad value,
 * and so not an {@link IdleLockException} (Java has one superclass):
 * both implement {@link IdleLockStatus}, so {@code catch
 * (IdleLockException | InvalidArgumentException e)} catches every status,
 * with {@code e.status()}.
 */
public class InvalidArgumentException extends IllegalArgumentException implements IdleLockStatus {
    private static final long serialVersionUID = 1L;
    /** The C status. */
    public static final int STATUS = 1;

    /**
     * Made by the binding for a bad argument, or for the library's status 1.
     *
     * @param message the argument and what was wrong with it
     */
    public InvalidArgumentException(String message) { super(message); }

    @Override public int status() { return STATUS; }

    @Override public String statusName() { return IdleLock.statusName(STATUS); }

    /** Always null: a call refused for its arguments reports no state. */
    @Override public Snapshot snapshot() { return null; }
}
