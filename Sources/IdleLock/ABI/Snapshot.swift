// What a caller or a listener sees of the lock.

import CIdleLock

/// What a call writes to `out` and a listener receives: the C struct
/// itself, filled in place (`IdleLockHandle.makeSnapshot`), so writing it
/// out is one copy.
typealias Snapshot = idlelock_snapshot

/// The part of the state whose change produces a new `seq` (not the
/// times, which move on every touch).
struct VisibleState: Equatable {
    var state: LockState
    var reason: LockReason
    var isEnabled: Bool
    var isBiometricsEnabled: Bool
    var isBiometricsAvailable: Bool
    var isAway: Bool
    var attemptsRemaining: Int32
    var isWarning: Bool

    /// Field by field, inlined: every call compares the state it leaves
    /// with the one last published (the synthesized `==` was an outlined
    /// call that packed both into registers first).
    @inline(always)
    static func == (a: VisibleState, b: VisibleState) -> Bool {
        a.state == b.state && a.reason == b.reason && a.isEnabled == b.isEnabled
            && a.isBiometricsEnabled == b.isBiometricsEnabled
            && a.isBiometricsAvailable == b.isBiometricsAvailable && a.isAway == b.isAway
            && a.attemptsRemaining == b.attemptsRemaining && a.isWarning == b.isWarning
    }
}
