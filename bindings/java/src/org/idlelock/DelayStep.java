// SPDX-License-Identifier: MIT
package org.idlelock;

/**
 * One step of an escalating-delay schedule ({@code idlelock_delay_step}):
 * once {@code failedAttempts} wrong passcodes are counted, passcode attempts
 * are refused with {@link RetryLaterException} for {@code delayMs}
 * milliseconds (1..86400000). Steps must be strictly increasing in
 * failedAttempts (1..maxAttempts-1) and never decreasing in delayMs; the
 * library checks the schedule at {@link IdleLock.Builder#build()}.
 */
public final class DelayStep {
    /** Wrong passcodes counted before this delay starts. */
    public final int failedAttempts;
    /** The delay, in milliseconds. */
    public final long delayMs;

    /**
     * One step; the library checks its values at {@link IdleLock.Builder#build()}.
     *
     * @param failedAttempts wrong passcodes counted before this delay starts, 1..maxAttempts-1
     * @param delayMs the delay in milliseconds, 1..86400000
     */
    public DelayStep(int failedAttempts, long delayMs) {
        this.failedAttempts = failedAttempts;
        this.delayMs = delayMs;
    }

    @Override public boolean equals(Object o) {
        return o instanceof DelayStep && ((DelayStep) o).failedAttempts == failedAttempts
                && ((DelayStep) o).delayMs == delayMs;
    }

    @Override public int hashCode() { return failedAttempts * 31 + Long.hashCode(delayMs); }

    @Override public String toString() { return "DelayStep(" + failedAttempts + ", " + delayMs + " ms)"; }
}
