// SPDX-License-Identifier: MIT
// The snapshot at the C boundary. The handle's `Snapshot` is laid out as
// `idlelock_snapshot` (Handle/Snapshot.swift), so a host's struct of this
// version is filled in place; any other size (an earlier version's struct,
// or a later one's) goes through a copy that covers only the bytes the
// host's `size` covers (the header's "Versions"; docs/COMPATIBILITY.md).

import CIdleLock
import CSystem

/// The handle's `Snapshot` has this version's `idlelock_snapshot` layout
/// (sizes, strides and alignment here, folded at compile time; every
/// field's offset in ABITests). When it does not, every call takes the
/// copy: slower, never wrong.
@inline(__always)
var snapshotLayoutAgrees: Bool {
    MemoryLayout<Snapshot>.size == MemoryLayout<idlelock_snapshot>.size
        && MemoryLayout<Snapshot>.stride == MemoryLayout<idlelock_snapshot>.stride
        && MemoryLayout<Snapshot>.alignment == MemoryLayout<idlelock_snapshot>.alignment
}

extension idlelock_snapshot {
    /// The C struct of this version for `s`.
    init(_ s: Snapshot) {
        self.init(size: UInt32(MemoryLayout<idlelock_snapshot>.size), state: s.state, seq: s.seq,
                  reason: s.reason, is_enabled: s.isEnabled, is_biometrics_enabled: s.isBiometricsEnabled,
                  is_biometrics_available: s.isBiometricsAvailable, is_away: s.isAway,
                  attempts_remaining: s.attemptsRemaining, last_activity_ms: s.lastActivity,
                  ms_until_idle_lock: s.msUntilIdleLock, is_warning: s.isWarning, reserved1: 0,
                  ms_until_warning: s.msUntilWarning, ms_until_retry: s.msUntilRetry,
                  ms_until_next_deadline: s.msUntilNextDeadline,
                  is_passcode_required: s.isPasscodeRequired, reserved2: 0,
                  last_auth_ms: s.lastAuthentication)
    }
}

/// The host's `out` as the handle's `Snapshot`, to be filled in place, when
/// the host passed this version's struct (`out->size`, read here once) and
/// the layouts agree; nil otherwise (checked and copied by the caller).
@inline(__always)
func inPlace(_ out: UnsafeMutablePointer<idlelock_snapshot>) -> UnsafeMutablePointer<Snapshot>? {
    inPlace(out, size: Int(UnsafeRawPointer(out).load(as: UInt32.self)))
}

/// `inPlace` for a size already read (and checked) by the caller.
@inline(__always)
func inPlace(_ out: UnsafeMutablePointer<idlelock_snapshot>, size: Int) -> UnsafeMutablePointer<Snapshot>? {
    guard size == MemoryLayout<idlelock_snapshot>.size, snapshotLayoutAgrees else { return nil }
    return UnsafeMutableRawPointer(out).bindMemory(to: Snapshot.self, capacity: 1)
}

/// Writes the first `size` bytes of `s`, this version's struct, into the
/// host's `out` (an earlier version's struct, or a later one's, whose
/// bytes past the fields this library knows are zeroed). `size` is the one
/// checked before the call: `out->size` is never read back.
func writeSnapshot(_ s: idlelock_snapshot, to out: UnsafeMutablePointer<idlelock_snapshot>, size: Int) {
    let known = MemoryLayout<idlelock_snapshot>.size
    var c = s
    c.size = UInt32(size)
    let raw = UnsafeMutableRawPointer(out)
    withUnsafeBytes(of: &c) { raw.copyMemory(from: $0.baseAddress!, byteCount: Swift.min(size, known)) }
    if size > known { (raw + known).initializeMemory(as: UInt8.self, repeating: 0, count: size - known) }
}

/// `writeSnapshot` of the handle's `Snapshot` (the calls that fill a local
/// copy: the unlocks and the biometric pair).
func writeSnapshot(_ s: Snapshot, to out: UnsafeMutablePointer<idlelock_snapshot>, size: Int) {
    writeSnapshot(idlelock_snapshot(s), to: out, size: size)
}
