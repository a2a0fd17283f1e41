// What a caller or a listener sees of the lock.

import CIdleLock

/// The fields of `idlelock_snapshot`.
struct Snapshot: Equatable {
    var seq: UInt64
    var state: LockState
    var reason: LockReason
    var isEnabled: Bool
    var isBiometricsEnabled: Bool
    var isBiometricsAvailable: Bool
    var isAway: Bool
    var attemptsRemaining: Int32
    var lastActivityMs: Int64
    var msUntilIdleLock: Int64
    var isWarning: Bool
    var msUntilWarning: Int64
    var msUntilRetry: Int64
    var msUntilNextDeadline: Int64

    var c: idlelock_snapshot {
        var s = idlelock_snapshot()
        s.size = UInt32(MemoryLayout<idlelock_snapshot>.size)
        s.state = state.rawValue
        s.seq = seq
        s.reason = reason.rawValue
        s.is_enabled = isEnabled ? 1 : 0
        s.is_biometrics_enabled = isBiometricsEnabled ? 1 : 0
        s.is_biometrics_available = isBiometricsAvailable ? 1 : 0
        s.is_away = isAway ? 1 : 0
        s.attempts_remaining = attemptsRemaining
        s.last_activity_ms = lastActivityMs
        s.ms_until_idle_lock = msUntilIdleLock
        s.is_warning = isWarning ? 1 : 0
        s.ms_until_warning = msUntilWarning
        s.ms_until_retry = msUntilRetry
        s.ms_until_next_deadline = msUntilNextDeadline
        return s
    }
}

struct VisibleState: Equatable {
    var state: LockState
    var reason: LockReason
    var isEnabled: Bool
    var isBiometricsEnabled: Bool
    var isBiometricsAvailable: Bool
    var isAway: Bool
    var attemptsRemaining: Int32
    var isWarning: Bool
}
