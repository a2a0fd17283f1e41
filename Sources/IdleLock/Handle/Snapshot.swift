// What a caller or a listener sees of the lock.

/// What a call writes to its `out` and a listener receives. It is laid out
/// as `idlelock_snapshot` of this version is (the same fields in the same
/// order, of the same widths: flags and enums as their `Int32` values), so
/// the ABI layer can let the handle fill the host's struct in place, with
/// no copy on the hot path (ABI/SnapshotConversion.swift checks the size
/// at run time, ABITests every offset).
struct Snapshot {
    var size: UInt32 = 0
    /// `LockState.rawValue`.
    var state: Int32 = 0
    /// The number of the latest change of the visible state.
    var seq: UInt64 = 0
    /// `LockReason.rawValue`.
    var reason: Int32 = 0
    var isEnabled: Int32 = 0
    var isBiometricsEnabled: Int32 = 0
    var isBiometricsAvailable: Int32 = 0
    var isAway: Int32 = 0
    var attemptsRemaining: Int32 = 0
    var lastActivity: Int64 = 0
    var msUntilIdleLock: Int64 = 0
    var isWarning: Int32 = 0
    var reserved1: Int32 = 0
    var msUntilWarning: Int64 = 0
    var msUntilRetry: Int64 = 0
    var msUntilNextDeadline: Int64 = 0
}

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
