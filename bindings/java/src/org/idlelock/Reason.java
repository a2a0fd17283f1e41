// SPDX-License-Identifier: MIT
package org.idlelock;

/** Why the session is locked ({@code IDLELOCK_REASON_*}). */
public enum Reason {
    /** Unlocked, or locked out from unlocked. */
    NONE(0),
    /** The idle timeout passed in the foreground. */
    IDLE(1),
    /** Away (backgrounded) for the background timeout. */
    BACKGROUNDED(2),
    /** lock_on_start, or a restart check. */
    STARTUP(3),
    /** {@link IdleLock#lock()} ("Lock now"). */
    MANUAL(4),
    /** The clock read earlier than a recorded time. */
    CLOCK(5),
    /** A value a newer library added; {@link Snapshot#reasonCode()} has it. */
    UNKNOWN(-1);

    /** The C value. */
    public final int code;

    Reason(int code) { this.code = code; }

    static Reason of(long code) {
        for (Reason r : values()) if (r.code == code) return r;
        return UNKNOWN;
    }
}
