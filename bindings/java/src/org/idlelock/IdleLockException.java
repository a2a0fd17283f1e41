// SPDX-License-Identifier: MIT
package org.idlelock;

/**
 * A libidlelock call failed. Each status has its subclass ({@link
 * InvalidPasscodeException}, {@link SessionLockedException}, ...); a status
 * this binding does not know (from a newer library) is thrown as this
 * class. {@link #status()} is the C status, {@link #getMessage()} the
 * library's message ({@code idlelock_last_error()}, read right after the
 * failing call on the same thread, in the binding's names: options,
 * methods and constants as Java spells them) or the binding's own, and
 * {@link #snapshot()} the state after the call when the call fills one
 * (events, unlocks), else null.
 *
 * <p>The one status that is not an {@code IdleLockException}: {@code
 * IDLELOCK_ERR_INVALID_ARGUMENT}, thrown as {@link InvalidArgumentException},
 * an {@link IllegalArgumentException}. Both implement {@link
 * IdleLockStatus}: {@code catch (IdleLockException | InvalidArgumentException e)}
 * catches every status.
 */
public class IdleLockException extends RuntimeException implements IdleLockStatus {
    private static final long serialVersionUID = 1L;
    /** The C status code. */
    private final int status;
    /** The state after the call; transient: not part of the serialized form. */
    private final transient Snapshot snapshot;

    /**
     * Made by the binding for a status (a subclass's, or one this binding
     * does not know).
     *
     * @param status the C status code
     * @param message what was wrong, in the binding's words
     * @param snapshot the state after the call, or null when the call reports none
     */
    public IdleLockException(int status, String message, Snapshot snapshot) {
        super(message);
        this.status = status;
        this.snapshot = snapshot;
    }

    /** The C status code ({@code IDLELOCK_ERR_*}). */
    @Override public int status() { return status; }

    /** The fixed name of the status ({@code "IDLELOCK_ERR_SESSION_LOCKED"}). */
    @Override public String statusName() { return IdleLock.statusName(status); }

    /** The state after the call, or null when the call does not report one. */
    @Override public Snapshot snapshot() { return snapshot; }

    /** The exception for {@code status}: an IdleLockException, or an InvalidArgumentException. */
    static RuntimeException of(int status, String message, Snapshot snapshot) {
        return GeneratedTables.exception(status, message, snapshot);
    }
}
