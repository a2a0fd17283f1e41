// SPDX-License-Identifier: MIT
package org.idlelock;

/**
 * What the lock looked like after a call ({@code idlelock_snapshot}),
 * immutable. Times are milliseconds; {@link IdleLock#NEVER}
 * ({@code Long.MAX_VALUE}) means "no deadline".
 */
public final class Snapshot {
    private final long[] f;

    private Snapshot(long[] fields) { this.f = fields; }

    /** Wraps the array the glue filled (taken over, not copied). */
    static Snapshot of(long[] fields) { return new Snapshot(fields); }

    /** {@return UNLOCKED, LOCKED or LOCKED_OUT} */
    public State state() { return State.of(f[GeneratedTables.SNAP_STATE]); }
    /** {@return the C value of the state (for a value a newer library added)} */
    public int stateCode() { return (int) f[GeneratedTables.SNAP_STATE]; }
    /** {@return the number of the latest change of state, reason, a flag or attemptsRemaining; 0 at create} */
    public long seq() { return f[GeneratedTables.SNAP_SEQ]; }
    /** {@return why the session is locked; NONE when it is not} */
    public Reason reason() { return Reason.of(f[GeneratedTables.SNAP_REASON]); }
    /** {@return the C value of the reason (for a value a newer library added)} */
    public int reasonCode() { return (int) f[GeneratedTables.SNAP_REASON]; }
    /** {@return true in LOCKED and LOCKED_OUT} */
    public boolean isLocked() { return f[GeneratedTables.SNAP_STATE] != State.UNLOCKED.code; }
    /** {@return true when a passcode is set: the lock is engaged} */
    public boolean isEnabled() { return f[GeneratedTables.SNAP_IS_ENABLED] != 0; }
    /** {@return true when the biometric shortcut is on} */
    public boolean isBiometricsEnabled() { return f[GeneratedTables.SNAP_IS_BIOMETRICS_ENABLED] != 0; }
    /** {@return true when the authenticator says a check can run: cached by the library, refreshed at create, enableBiometrics and every foreground} */
    public boolean isBiometricsAvailable() { return f[GeneratedTables.SNAP_IS_BIOMETRICS_AVAILABLE] != 0; }
    /** {@return true while an absence is recorded: show a privacy cover, whatever the state} */
    public boolean isAway() { return f[GeneratedTables.SNAP_IS_AWAY] != 0; }
    /** {@return the wrong passcodes left before LOCKED_OUT (maxAttempts when not engaged, 0 when locked out)} */
    public int attemptsRemaining() { return (int) f[GeneratedTables.SNAP_ATTEMPTS_REMAINING]; }
    /** {@return the clock reading (ms) of the last activity} */
    public long lastActivityMs() { return f[GeneratedTables.SNAP_LAST_ACTIVITY_MS]; }
    /** {@return the ms until the idle deadline, 0 when due, NEVER when there is none} */
    public long msUntilIdleLock() { return f[GeneratedTables.SNAP_MS_UNTIL_IDLE_LOCK]; }
    /** {@return (1.1) true within warnBeforeMs of the idle lock: save a draft, ask "still there?"} */
    public boolean isWarning() { return f[GeneratedTables.SNAP_IS_WARNING] != 0; }
    /** {@return (1.1) the ms until isWarning opens, 0 when open, NEVER without a warning} */
    public long msUntilWarning() { return f[GeneratedTables.SNAP_MS_UNTIL_WARNING]; }
    /** {@return (1.1) the ms until a passcode attempt is accepted again (an escalating delay), 0 when it is} */
    public long msUntilRetry() { return f[GeneratedTables.SNAP_MS_UNTIL_RETRY]; }
    /** {@return (1.1) the ms until anything can change: wake a timer then and call check(); NEVER when nothing is due} */
    public long msUntilNextDeadline() { return f[GeneratedTables.SNAP_MS_UNTIL_NEXT_DEADLINE]; }
    /** {@return (1.2) true while a passcode policy (passcodeAfterReboot,
     * passcodeMaxAgeMs, biometricMaxUses) refuses the biometric shortcut:
     * show the passcode field only} Listeners hear it change. */
    public boolean isPasscodeRequired() { return f[GeneratedTables.SNAP_IS_PASSCODE_REQUIRED] != 0; }
    /** {@return (1.2) the clock reading (ms) of the last successful
     * authentication on this lock (a passcode or biometric unlock, or a
     * re-authentication), {@link IdleLock#NEVER} when there was none}
     * See {@link IdleLock#requireRecentAuth(long)}. */
    public long lastAuthMs() { return f[GeneratedTables.SNAP_LAST_AUTH_MS]; }

    @Override public String toString() {
        return "Snapshot(" + state() + ", reason " + reason() + ", seq " + seq()
                + (isEnabled() ? ", engaged" : ", not engaged")
                + (isAway() ? ", away" : "") + (isWarning() ? ", warning" : "")
                + (isPasscodeRequired() ? ", passcode required" : "")
                + ", attempts remaining " + attemptsRemaining() + ")";
    }
}
