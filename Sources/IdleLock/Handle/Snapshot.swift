// SPDX-License-Identifier: MIT
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
    /// (1.2) 1 while a passcode policy refuses the biometric shortcut.
    var isPasscodeRequired: Int32 = 0
    var reserved2: Int32 = 0
    /// (1.2) The reading of the last successful authentication, or
    /// `Millis.never`.
    var lastAuthentication: Int64 = 0
}

/// The part of the state whose change produces a new `seq` (not the
/// times, which move on every touch), packed into one word: every call
/// compares the state it leaves with the one last published, and one
/// comparison of one word (built with no branch) costs less than a field
/// by field one, whose loads and spills grew with every flag the snapshot
/// gained (BENCHMARKS.md, the instruction counts of the hot calls).
struct VisibleState: Equatable {
    /// attempts_remaining (bits 0-31), state (32-33), reason (34-36), then
    /// one bit per flag.
    let word: UInt64

    @inline(__always)
    init(state: LockState, reason: LockReason, isEnabled: Bool, isBiometricsEnabled: Bool,
         isBiometricsAvailable: Bool, isAway: Bool, attemptsRemaining: Int32, isWarning: Bool,
         isPasscodeRequired: Bool) {
        @inline(__always) func bit(_ flag: Bool, _ at: UInt64) -> UInt64 { UInt64(flag ? 1 : 0) << at }
        // A state's raw value is 0...2 and a reason's 0...5 (their enums):
        // they fit their bits unmasked.
        word = UInt64(UInt32(bitPattern: attemptsRemaining))
            | UInt64(UInt32(bitPattern: state.rawValue)) << 32
            | UInt64(UInt32(bitPattern: reason.rawValue)) << 34
            | bit(isEnabled, 37) | bit(isBiometricsEnabled, 38) | bit(isBiometricsAvailable, 39)
            | bit(isAway, 40) | bit(isWarning, 41) | bit(isPasscodeRequired, 42)
    }

    /// The snapshot's is_passcode_required, as packed.
    @inline(__always)
    var isPasscodeRequired: Bool { word & (1 << 42) != 0 }

    @inline(always)
    static func == (a: VisibleState, b: VisibleState) -> Bool { a.word == b.word }
}
