// SPDX-License-Identifier: MIT
package org.idlelock;

/** The lock state ({@code IDLELOCK_STATE_*}). */
public enum State {
    /** The session is open: secrets readable, the gate passes. */
    UNLOCKED(0),
    /** Locked (see {@link Snapshot#reason()}): the passcode or the biometric shortcut opens it. */
    LOCKED(1),
    /** Too many wrong passcodes: only {@link IdleLock#disable()} (sign-out) leaves this state. */
    LOCKED_OUT(2),
    /** A value a newer library added; {@link Snapshot#stateCode()} has it. */
    UNKNOWN(-1);

    /** The C value. */
    public final int code;

    State(int code) { this.code = code; }

    static State of(long code) {
        for (State s : values()) if (s.code == code) return s;
        return UNKNOWN;
    }
}
