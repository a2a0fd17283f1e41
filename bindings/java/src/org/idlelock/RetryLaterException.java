// SPDX-License-Identifier: MIT
package org.idlelock;

/** (1.1) {@code IDLELOCK_ERR_RETRY_LATER}: an escalating delay is running after wrong passcodes: try again in {@link #msUntilRetry()} ms. The attempt was not counted. */
public class RetryLaterException extends IdleLockException {
    private static final long serialVersionUID = 1L;
    /** The C status. */
    public static final int STATUS = 12;

    /**
     * Made by the binding for this status.
     *
     * @param message what was wrong, in the binding's words
     * @param snapshot the state after the call, or null when the call reports none
     */
    public RetryLaterException(String message, Snapshot snapshot) { super(STATUS, message, snapshot); }

    /** {@return the milliseconds until a passcode attempt is accepted again, or -1 when the call reported no snapshot} */
    public long msUntilRetry() { return snapshot() == null ? -1 : snapshot().msUntilRetry(); }
}
