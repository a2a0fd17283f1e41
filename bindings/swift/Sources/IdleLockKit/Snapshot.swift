// SPDX-License-Identifier: MIT
import CIdleLock

/// The lock's state after a call (`idlelock_snapshot`). Times are
/// milliseconds on the lock's clock, as of the call that produced it; `nil`
/// where the C struct says `IDLELOCK_NEVER`.
public struct Snapshot: Sendable, Hashable {
    // State (`IDLELOCK_STATE_*`) and Reason (`IDLELOCK_REASON_*`) are
    // Generated.swift's, from include/idlelock.h.

    public var state: State
    /// Number of the latest change; later snapshots have larger numbers.
    public var seq: UInt64
    public var reason: Reason
    /// A passcode is set: the lock is engaged.
    public var isEnabled: Bool
    public var isBiometricsEnabled: Bool
    public var isBiometricsAvailable: Bool
    /// An absence is recorded: show a privacy cover (the app switcher's
    /// picture is taken now), whatever the state.
    public var isAway: Bool
    /// Wrong passcodes left before the lockout.
    public var attemptsRemaining: Int
    public var lastActivityMs: Int64
    /// Until the idle lock; `nil`: never (no idle timeout, locked, or not
    /// engaged).
    public var msUntilIdleLock: Int64?
    /// The "still there?" warning is open.
    public var isWarning: Bool
    public var msUntilWarning: Int64?
    /// Until a passcode attempt is accepted again (0: now).
    public var msUntilRetry: Int64
    /// Until the earliest moment anything can change; call
    /// ``IdleLockHandle/check()`` then. `nil`: nothing is due.
    public var msUntilNextDeadline: Int64?
    /// A passcode policy refuses the biometric shortcut: show the passcode
    /// field only.
    public var isPasscodeRequired: Bool
    /// The last successful authentication on this handle; `nil`: none.
    public var lastAuthMs: Int64?

    /// Locked or locked out.
    public var isLocked: Bool { state != .unlocked }

    init(_ s: idlelock_snapshot) {
        func ms(_ v: Int64) -> Int64? { v == Int64.max ? nil : v }
        state = State(rawValue: s.state) ?? .locked
        seq = s.seq
        reason = Reason(rawValue: s.reason) ?? .none
        isEnabled = s.is_enabled != 0
        isBiometricsEnabled = s.is_biometrics_enabled != 0
        isBiometricsAvailable = s.is_biometrics_available != 0
        isAway = s.is_away != 0
        attemptsRemaining = Int(s.attempts_remaining)
        lastActivityMs = s.last_activity_ms
        msUntilIdleLock = ms(s.ms_until_idle_lock)
        isWarning = s.is_warning != 0
        msUntilWarning = ms(s.ms_until_warning)
        msUntilRetry = s.ms_until_retry
        msUntilNextDeadline = ms(s.ms_until_next_deadline)
        isPasscodeRequired = s.is_passcode_required != 0
        lastAuthMs = ms(s.last_auth_ms)
    }

    /// An empty C snapshot, its size set.
    static func raw() -> idlelock_snapshot {
        var s = idlelock_snapshot()
        s.size = UInt32(MemoryLayout<idlelock_snapshot>.size)
        return s
    }
}
