// SPDX-License-Identifier: MIT
// The call boundary's machinery, shared by every export (Exports.swift):
// the last error and its status, borrowing a handle from its opaque
// pointer, the snapshot out-parameter of any version's size, and the
// checks of passcode and secret-name arguments. Nothing here is exported.

import CIdleLock
import CIdleLockSupport
import CSystem

let statusOK: Int32 = 0

/// Records `error` as this thread's last error, prefixed with `function`,
/// and returns its status.
@inline(never)
func fail(_ function: StaticString, _ error: IdleLockError) -> Int32 {
    let hasValue: Int32 = error.value == nil ? 0 : 1
    // The tail, then the consequence (Consequence.text) when there is one,
    // joined in a buffer on the stack (the C side takes one tail).
    let consequence: StaticString = error.consequence?.text ?? ""
    withUnsafeTemporaryAllocation(byteCount: 256, alignment: 1) { joined in
        let tailCount = Swift.min(error.tail.utf8CodeUnitCount, joined.count)
        let afterCount = Swift.min(consequence.utf8CodeUnitCount, joined.count - tailCount)
        joined.baseAddress!.copyMemory(from: error.tail.utf8Start, byteCount: tailCount)
        (joined.baseAddress! + tailCount).copyMemory(from: consequence.utf8Start, byteCount: afterCount)
        function.withUTF8Buffer { fn in
            error.head.withUTF8Buffer { head in
                ilk_error_set(fn.baseAddress, fn.count, head.baseAddress, head.count, hasValue, error.value ?? 0,
                              joined.baseAddress!.assumingMemoryBound(to: UInt8.self), tailCount + afterCount)
            }
        }
    }
    return error.status.rawValue
}

/// Appends `text`, then `value` in decimal when given, to this thread's
/// last error (after `fail`): a message that lists what is valid.
func appendError(_ text: StaticString, _ value: Int64? = nil) {
    text.withUTF8Buffer { t in
        ilk_error_append(t.baseAddress, t.count, value == nil ? 0 : 1, value ?? 0)
    }
}

/// The handle behind an `idlelock *` (retained once at create, released
/// once at destroy), as a strong reference: the call holds it until its
/// last use, so a listener of the call that destroys the handle does not
/// free it under the rest of the call (`holding` says so explicitly for
/// the calls that go through `withOut`).
@inline(__always)
func handle(_ pointer: OpaquePointer?) -> IdleLockHandle? {
    guard let pointer else { return nil }
    return Unmanaged<IdleLockHandle>.fromOpaque(UnsafeRawPointer(pointer)).takeUnretainedValue()
}

let nullHandle = IdleLockError.invalid("the idlelock handle is NULL")

/// A C `size_t` arrives as a signed `Int`: compare it as the unsigned value
/// it is, so 2^63 and above are huge, not negative.
@inline(__always)
func unsigned(_ n: Int) -> UInt { UInt(bitPattern: n) }

/// A `size_t` for a message: clamped to the Int64 range.
@inline(__always)
func shown(_ n: Int) -> Int64 { Int64(clamping: unsigned(n)) }

/// This version's struct sizes, and the first version's (the smallest a host
/// may pass: fields added later are appended after them).
let snapshotSize = MemoryLayout<idlelock_snapshot>.size
let configSize = MemoryLayout<idlelock_config>.size
let snapshotSizeV1 = ilk_snapshot_size_v1()

/// Checks an optional `out` snapshot before any effect, and returns the
/// size it was checked with (0 for NULL). `out->size` is read only here:
/// a listener that rewrote it later would not make the library write past
/// the caller's struct.
@inline(__always)
func checkOut(_ out: UnsafeMutablePointer<idlelock_snapshot>?) -> (size: Int, error: IdleLockError?) {
    guard let out else { return (0, nil) }
    let size = Int(UnsafeRawPointer(out).load(as: UInt32.self))
    if size < snapshotSizeV1 || size > ConfigLimits.structSizeMax {
        return (0, .invalid("out->size is ", Int64(size), "; set it to sizeof(idlelock_snapshot)"))
    }
    return (size, nil)
}

/// Runs `body` on the handle without retaining it (the caller's reference
/// keeps it alive for the call: destroy must be the last call).
@inline(__always)
func borrowing<R>(_ lock: OpaquePointer, _ body: (IdleLockHandle) -> R) -> R {
    Unmanaged<IdleLockHandle>.fromOpaque(UnsafeRawPointer(lock))._withUnsafeGuaranteedRef(body)
}

/// The calls that apply one event to the rules, the hot path of a host's
/// event loop: `event` switches on this inside the borrow, so no closure
/// returns a `CallResult` (which was copied at each closure return).
enum EventCall {
    case start, touch, inactive, background, foreground, check, lockNow, snapshot
    case lifecycle(PresenceEvent)
}

/// A hot event's export (touch, check, snapshot_get, background,
/// foreground): on a handle without a store and an `out` of this version's
/// size (or none), a few compares, then `hot`, with nothing of the export
/// kept across the call. Every other case is `event`'s, out of line.
@inline(__always)
func hotEvent(_ function: StaticString, _ lock: OpaquePointer?,
                      _ out: UnsafeMutablePointer<idlelock_snapshot>?, _ call: EventCall,
                      _ hot: IdleLockHandle.HotEvent) -> Int32 {
    if let lock {
        let h = Unmanaged<IdleLockHandle>.fromOpaque(UnsafeRawPointer(lock))
        let target = out.flatMap { inPlace($0) }
        if (out == nil) == (target == nil) && h._withUnsafeGuaranteedRef({ $0.store == nil }) {
            // Without a store it cannot fail. Foreground asks the
            // authenticator first, with no lock held.
            h._withUnsafeGuaranteedRef {
                $0.hot(hot, into: target, available: hot == .foreground ? $0.config.authenticator?.isAvailable() : nil,
                       failure: nil)
            }
            return statusOK
        }
    }
    return event(function, lock, out, call)
}

/// An event call with an optional `out` snapshot: `out` of this version's
/// size is filled in place, read once for its size; any other size is
/// `throughCopy`'s. Not inlined: the hot events come here only for what is
/// not their hot path (`hotEvent`).
@inline(never)
func event(_ function: StaticString, _ lock: OpaquePointer?,
                   _ out: UnsafeMutablePointer<idlelock_snapshot>?, _ call: EventCall) -> Int32 {
    guard let lock else { return fail(function, nullHandle) }
    var target: UnsafeMutablePointer<Snapshot>? = nil
    if let out {
        guard let direct = inPlace(out) else { return throughCopy(function, lock, out, call) }
        target = direct
    }
    return borrowing(lock) { h in
        let result: CallResult
        switch call {
        case .start: result = h.start(into: target)
        case .touch: result = h.touch(into: target)
        case .inactive: result = h.inactive(into: target)
        case .background: result = h.background(into: target)
        case .foreground: result = h.foreground(into: target)
        case .check: result = h.check(into: target)
        case .lockNow: result = h.lockNow(into: target)
        case .snapshot: result = h.snapshot(into: target)
        case .lifecycle(let presence): result = h.lifecycle(presence, into: target)
        }
        return plain(function, result)
    }
}

/// An event call whose `out` is not this version's struct (an earlier
/// version's, or a later one's): its size is checked (before any effect),
/// the call runs (`event`) on a struct of this version's size, and the
/// bytes the host's size covers are copied out, when the call wrote its
/// snapshot (`state` set: not when it failed before it).
@inline(never)
func throughCopy(_ function: StaticString, _ lock: OpaquePointer,
                         _ out: UnsafeMutablePointer<idlelock_snapshot>, _ call: EventCall) -> Int32 {
    let checked = checkOut(out)
    if let bad = checked.error { return fail(function, bad) }
    var local = idlelock_snapshot()
    local.size = UInt32(snapshotSize)
    local.state = notWritten
    let status = event(function, lock, &local, call)
    if local.state != notWritten { writeSnapshot(local, to: out, size: checked.size) }
    return status
}

/// No `IDLELOCK_STATE_*`: a snapshot whose state is still this was not
/// written by the call.
let notWritten: Int32 = -1

/// Any other call with an optional `out` snapshot (the unlocks and the
/// biometric pair): calls that go on after delivering to listeners, so
/// the handle is held for the whole call (`holding`).
func withOut(_ function: StaticString, _ lock: OpaquePointer?,
                     _ out: UnsafeMutablePointer<idlelock_snapshot>?,
                     _ body: (IdleLockHandle, UnsafeMutablePointer<Snapshot>?) -> CallResult) -> Int32 {
    guard let lock else { return fail(function, nullHandle) }
    let checked = checkOut(out)
    if let bad = checked.error { return fail(function, bad) }
    return holding(lock) { h in
        plain(function, snapshotting(into: out, size: checked.size) { body(h, $0) })
    }
}

/// Runs `body` with the handle retained for the call. A listener may
/// destroy the handle (idlelock_destroy); a call that goes on after
/// delivering (a second transaction, an authenticator callback) must still
/// find its memory, and finds it marked destroyed (IdleLockHandle.destroy).
/// The hot calls, one transaction each, end with their delivery, which
/// holds the handle itself (`deliver`).
@inline(__always)
func holding<R>(_ lock: OpaquePointer, _ body: (IdleLockHandle) -> R) -> R {
    let held = Unmanaged<IdleLockHandle>.fromOpaque(UnsafeRawPointer(lock)).retain()
    defer { held.release() }
    return held._withUnsafeGuaranteedRef(body)
}

/// Runs a call that writes its snapshot: in place into `out` when the host
/// passed this version's struct (or none), through a local copy for a
/// struct of another version's size (`size`, as checked by `checkOut`).
@inline(__always)
func snapshotting(into out: UnsafeMutablePointer<idlelock_snapshot>?, size: Int,
                          _ run: (UnsafeMutablePointer<Snapshot>?) -> CallResult) -> CallResult {
    // One call of `run` (each export inlines it once): its target is the
    // host's struct, or the local copy.
    let direct = out.flatMap { inPlace($0, size: size) }
    var local = Snapshot()
    local.state = notWritten
    return withUnsafeMutablePointer(to: &local) { copy in
        let result = run(out == nil ? nil : (direct ?? copy))
        // Copied out when the call wrote its snapshot (as `throughCopy`).
        if let out, direct == nil, copy.pointee.state != notWritten {
            writeSnapshot(copy.pointee, to: out, size: size)
        }
        return result
    }
}

/// A call's status (its error recorded as this thread's last error).
@inline(__always)
func plain(_ function: StaticString, _ result: CallResult) -> Int32 {
    if let error = result.error { return fail(function, error) }
    return statusOK
}

/// Validates a passcode: `len` bytes of UTF-8, 1...1024 bytes, and at least
/// `minScalars` Unicode scalars. The bytes are never copied.
func passcodeBytes(_ utf8: UnsafePointer<CChar>?, _ len: Int,
                           minScalars: Int) throws(IdleLockError) -> UnsafeRawBufferPointer {
    guard let utf8 else { throw .invalid("the passcode pointer is NULL") }
    if len == 0 { throw .invalid("the passcode is empty") }
    if unsigned(len) > 1024 { throw .invalid("the passcode is ", shown(len), " bytes; at most 1024 are allowed") }
    let bytes = UnsafeRawBufferPointer(start: utf8, count: len)
    guard let scalars = UTF8Check.scalarCount(bytes) else {
        throw .invalid("the passcode is not valid UTF-8")
    }
    if scalars < minScalars {
        throw .invalid("the passcode has ", Int64(scalars), " characters (Unicode scalars); at least 4 are needed")
    }
    return bytes
}

/// Validates a secret name: NUL-terminated UTF-8 of 1...64 bytes.
func nameBytes(_ name: UnsafePointer<CChar>?) throws(IdleLockError) -> UnsafeRawBufferPointer {
    guard let name else { throw .invalid("the secret name is NULL") }
    let length = CStringLength.of(name, atMost: SecretLimits.nameMaxBytes + 1)
    if length == 0 { throw .invalid("the secret name is empty") }
    if length > SecretLimits.nameMaxBytes { throw .invalid("the secret name is longer than 64 bytes") }
    let bytes = UnsafeRawBufferPointer(start: name, count: length)
    if UTF8Check.scalarCount(bytes) == nil { throw .invalid("the secret name is not valid UTF-8") }
    return bytes
}
