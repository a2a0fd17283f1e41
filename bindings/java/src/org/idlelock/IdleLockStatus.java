// SPDX-License-Identifier: MIT
package org.idlelock;

/**
 * What every exception for a libidlelock status has: the C status, its
 * name and the state after the call. Two classes implement it, because a
 * Java class has one superclass: {@link IdleLockException} (every status
 * but one, a {@code RuntimeException}) and {@link InvalidArgumentException}
 * ({@code IDLELOCK_ERR_INVALID_ARGUMENT}, an {@link IllegalArgumentException}
 * as Java expects for a bad value). To catch every failure of a call and
 * read its status, catch both; the variable then has this type:
 *
 * <pre>{@code
 * try {
 *     lock.unlock(typed);
 * } catch (IdleLockException | InvalidArgumentException e) {
 *     log(e.statusName() + ": " + e.getMessage());
 * }
 * }</pre>
 */
public interface IdleLockStatus {
    /** {@return the C status code ({@code IDLELOCK_ERR_*}, 1..13; a newer library may add more)} */
    int status();

    /** {@return the fixed name of the status ({@code "IDLELOCK_ERR_SESSION_LOCKED"})} */
    String statusName();

    /** {@return the state after the call when the call reports one, else null (always null for INVALID_ARGUMENT)} */
    Snapshot snapshot();
}
