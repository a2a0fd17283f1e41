// SPDX-License-Identifier: MIT
// The handle through the C ABI: configuration checks, passcode, secrets
// sealed while locked, listeners and their re-entry, and races between an
// unlock and a lock.

import CIdleLock
import CSystem
import Foundation
import Testing
@testable import IdleLock

/// A clock the test moves by hand.
final class FakeClock {
    let now = UnsafeMutablePointer<Int64>.allocate(capacity: 1)
    init(_ start: Int64 = 1_000) { now.initialize(to: start) }
    deinit { now.deallocate() }
    func advance(_ ms: Int64) { now.pointee += ms }
    static let function: idlelock_clock_fn = { ctx in ctx!.assumingMemoryBound(to: Int64.self).pointee }
}

/// A handle on a fake clock, destroyed with the box.
/// What the tests' handle wrappers share: the handle, and the calls that
/// need nothing else.
protocol TestHandle: AnyObject {
    var handle: OpaquePointer? { get }
}

extension TestHandle {
    func snapshot() -> idlelock_snapshot {
        var s = idlelock_snapshot()
        s.size = UInt32(MemoryLayout<idlelock_snapshot>.size)
        _ = idlelock_snapshot_get(handle, &s)
        return s
    }

    @discardableResult
    func setPasscode(_ code: String) -> Int32 { idlelock_set_passcode(handle, code, code.utf8.count) }

    @discardableResult
    func unlock(_ code: String) -> Int32 { idlelock_unlock(handle, code, code.utf8.count, nil) }
}

final class Lock: TestHandle {
    let clock = FakeClock()
    var handle: OpaquePointer?

    init(idle: Int64 = 60_000, background: Int64 = 10_000, grace: Int64 = 1_500,
         lockOnStart: Int32 = 1, maxAttempts: Int32 = 5) {
        var cfg = Lock.config()
        cfg.idle_after_ms = idle
        cfg.background_after_ms = background
        cfg.grace_ms = grace
        cfg.lock_on_start = lockOnStart
        cfg.max_attempts = maxAttempts
        cfg.clock = FakeClock.function
        cfg.clock_ctx = UnsafeMutableRawPointer(clock.now)
        let rc = idlelock_create(&cfg, &handle)
        precondition(rc == 0, String(cString: idlelock_last_error()))
    }

    deinit { idlelock_destroy(handle) }

    /// Defaults at the KDF floor, so tests run fast.
    static func config() -> idlelock_config {
        var cfg = idlelock_config()
        _ = idlelock_config_init(&cfg, MemoryLayout<idlelock_config>.size)
        cfg.kdf_opslimit = 2
        cfg.kdf_memlimit = 19 * 1024 * 1024
        return cfg
    }

    func put(_ name: String, _ value: [UInt8]) -> Int32 {
        value.withUnsafeBufferPointer { idlelock_secret_put(handle, name, $0.baseAddress, $0.count) }
    }

    func get(_ name: String) -> (Int32, [UInt8]) {
        var buffer = [UInt8](repeating: 0, count: 128)
        var length = buffer.count
        let rc = buffer.withUnsafeMutableBufferPointer { idlelock_secret_get(handle, name, $0.baseAddress, &length) }
        return (rc, rc == 0 ? Array(buffer[0..<length]) : [])
    }
}

private func lastError() -> String { String(cString: idlelock_last_error()) }

/// Creates (and destroys) a handle from the test config with `change`
/// made: the status, and the message when it failed.
func createWithConfig(_ change: (inout idlelock_config) -> Void) -> (Int32, String) {
    var cfg = Lock.config()
    cfg.idle_after_ms = 60_000
    change(&cfg)
    var h: OpaquePointer? = nil
    let rc = idlelock_create(&cfg, &h)
    idlelock_destroy(h)
    return (rc, rc == 0 ? "" : lastError())
}

@Suite("Configuration")
struct ConfigurationTests {
    private func create(_ change: (inout idlelock_config) -> Void) -> (Int32, String) {
        createWithConfig(change)
    }

    @Test func defaultsRefuseALockThatNeverTimesOut() {
        var cfg = Lock.config()
        var h: OpaquePointer? = nil
        #expect(idlelock_create(&cfg, &h) == IDLELOCK_ERR_INVALID_ARGUMENT)
        #expect(h == nil)
        #expect(lastError().contains("idle_after_ms"))
    }

    @Test func everyBoundNamesItsField() {
        let cases: [(String, (inout idlelock_config) -> Void)] = [
            ("idle_after_ms", { $0.idle_after_ms = 0 }),
            ("idle_after_ms", { $0.idle_after_ms = -5 }),
            ("background_after_ms", { $0.background_after_ms = -2 }),
            ("inactive_after_ms", { $0.inactive_after_ms = -1 }),
            ("grace_ms", { $0.grace_ms = 60_001 }),
            ("grace_ms", { $0.grace_ms = -1 }),
            ("max_attempts", { $0.max_attempts = 0 }),
            ("max_attempts", { $0.max_attempts = 101 }),
            ("lock_on_start", { $0.lock_on_start = 2 }),
            ("kdf_opslimit", { $0.kdf_opslimit = 1 }),
            ("kdf_opslimit", { $0.kdf_opslimit = 11 }),
            ("kdf_memlimit", { $0.kdf_memlimit = 19 * 1024 * 1024 - 1 }),
            ("kdf_memlimit", { $0.kdf_memlimit = 1024 * 1024 * 1024 + 1 }),
            ("reserved0", { $0.reserved0 = 7 }),
            ("clock_ctx", { $0.clock_ctx = UnsafeMutableRawPointer(bitPattern: 8) }),
            ("device_key_len", { $0.device_key_len = 32 }),
            ("passcode_after_reboot", { $0.passcode_after_reboot = 2 }),
            ("passcode_after_reboot", { $0.passcode_after_reboot = -1 }),
            ("passcode_max_age_ms", { $0.passcode_max_age_ms = 3_599_999 }),
            ("passcode_max_age_ms", { $0.passcode_max_age_ms = 2_592_000_001 }),
            ("passcode_max_age_ms", { $0.passcode_max_age_ms = -1 }),
            ("passcode_max_age_ms", { $0.passcode_max_age_ms = Int64.max }),
            ("biometric_max_uses", { $0.biometric_max_uses = 1_001 }),
            ("biometric_max_uses", { $0.biometric_max_uses = -1 }),
        ]
        for (field, change) in cases {
            let (rc, message) = create(change)
            #expect(rc == IDLELOCK_ERR_INVALID_ARGUMENT, "\(field)")
            #expect(message.contains(field), "\(message)")
        }
    }

    @Test func boundsThemselvesAreAccepted() {
        #expect(create { $0.grace_ms = 60_000 }.0 == 0)
        #expect(create { $0.grace_ms = 0 }.0 == 0)
        #expect(create { $0.max_attempts = 1 }.0 == 0)
        #expect(create { $0.max_attempts = 100 }.0 == 0)
        #expect(create { $0.background_after_ms = 0 }.0 == 0)
        #expect(create { $0.idle_after_ms = Int64.max; $0.background_after_ms = 5_000 }.0 == 0)
        #expect(create { $0.kdf_opslimit = 10 }.0 == 0)
        #expect(create { $0.passcode_max_age_ms = 3_600_000 }.0 == 0)
        #expect(create { $0.passcode_max_age_ms = 2_592_000_000 }.0 == 0)
        #expect(create { $0.biometric_max_uses = 1 }.0 == 0)
        #expect(create { $0.biometric_max_uses = 1_000 }.0 == 0)
        #expect(create { $0.passcode_after_reboot = 1 }.0 == 0)
    }

    /// The 1.2 options are off by default, and a host built against the 1.1
    /// header (its config ends at delay_schedule_len) gets them off.
    @Test func policiesAreOffByDefaultAndForA11Host() {
        var cfg = Lock.config()
        #expect(cfg.passcode_after_reboot == 0 && cfg.passcode_max_age_ms == 0 && cfg.biometric_max_uses == 0)
        let v11 = MemoryLayout<idlelock_config>.offset(of: \idlelock_config.passcode_max_age_ms)!
        cfg.size = UInt32(v11)
        cfg.idle_after_ms = 60_000
        cfg.passcode_max_age_ms = 1 // past the 1.1 size: never read
        var h: OpaquePointer? = nil
        #expect(idlelock_create(&cfg, &h) == 0)
        idlelock_destroy(h)
        // A size that ends inside a 1.2 field matches no header.
        cfg.size = UInt32(v11 + 4)
        #expect(idlelock_create(&cfg, &h) == IDLELOCK_ERR_INVALID_ARGUMENT)
        #expect(idlelock_config_init(&cfg, v11 + 4) == IDLELOCK_ERR_INVALID_ARGUMENT)
        #expect(idlelock_config_init(&cfg, v11) == 0)
        #expect(cfg.size == UInt32(v11))
    }

    @Test func theValueAppearsInTheMessage() {
        let (_, message) = create { $0.grace_ms = 60_001 }
        #expect(message.contains("60001"))
    }

    @Test func structSizeIsChecked() {
        var cfg = Lock.config()
        cfg.idle_after_ms = 1_000
        var h: OpaquePointer? = nil
        cfg.size = 8
        #expect(idlelock_create(&cfg, &h) == IDLELOCK_ERR_INVALID_ARGUMENT)
        #expect(idlelock_config_init(&cfg, 3) == IDLELOCK_ERR_INVALID_ARGUMENT)
        #expect(idlelock_config_size() == MemoryLayout<idlelock_config>.size)
        #expect(idlelock_snapshot_size() == MemoryLayout<idlelock_snapshot>.size)
        #expect(idlelock_authenticator_size() == MemoryLayout<idlelock_authenticator>.size)
        #expect(idlelock_delay_step_size() == MemoryLayout<idlelock_delay_step>.size)
    }
}

@Suite("Passcode, secrets and sealing")
struct PasscodeAndSecretTests {
    @Test func secretsAreSealedWhileLockedAndRestoredByUnlock() {
        let l = Lock()
        #expect(l.put("token", Array("before passcode".utf8)) == 0)
        #expect(l.setPasscode("2468") == 0)
        #expect(idlelock_lock(l.handle, nil) == 0)
        #expect(l.get("token").0 == IDLELOCK_ERR_SESSION_LOCKED)
        #expect(idlelock_require_unlocked(l.handle) == IDLELOCK_ERR_SESSION_LOCKED)
        #expect(l.put("other", [1]) == IDLELOCK_ERR_SESSION_LOCKED)
        #expect(l.unlock("1357") == IDLELOCK_ERR_INVALID_PASSCODE)
        #expect(lastError().contains("4 attempt"))
        #expect(l.unlock("2468") == 0)
        let (rc, value) = l.get("token")
        #expect(rc == 0)
        #expect(value == Array("before passcode".utf8))
        #expect(l.snapshot().attempts_remaining == 5)
    }

    @Test func aNewPasscodeKeepsTheSecretsReadable() {
        let l = Lock()
        #expect(l.setPasscode("1111") == 0)
        #expect(l.put("a", [9, 8, 7]) == 0)
        #expect(l.setPasscode("2222") == 0)
        idlelock_lock(l.handle, nil)
        #expect(l.unlock("1111") == IDLELOCK_ERR_INVALID_PASSCODE)
        #expect(l.unlock("2222") == 0)
        #expect(l.get("a").1 == [9, 8, 7])
    }

    @Test func lockedSessionCannotReplaceItsPasscode() {
        let l = Lock()
        l.setPasscode("1111")
        idlelock_lock(l.handle, nil)
        #expect(l.setPasscode("2222") == IDLELOCK_ERR_SESSION_LOCKED)
        #expect(l.unlock("1111") == 0)
    }

    @Test func badArgumentsAreNeverAnAttempt() {
        let l = Lock()
        l.setPasscode("1111")
        idlelock_lock(l.handle, nil)
        let invalid: [UInt8] = [0x31, 0xFF, 0x31, 0x31]
        let rc = invalid.withUnsafeBufferPointer { p in
            p.withMemoryRebound(to: CChar.self) { idlelock_unlock(l.handle, $0.baseAddress, $0.count, nil) }
        }
        #expect(rc == IDLELOCK_ERR_INVALID_ARGUMENT)
        #expect(idlelock_unlock(l.handle, nil, 4, nil) == IDLELOCK_ERR_INVALID_ARGUMENT)
        #expect(idlelock_unlock(l.handle, "x", 0, nil) == IDLELOCK_ERR_INVALID_ARGUMENT)
        #expect(l.snapshot().attempts_remaining == 5)
        #expect(l.setPasscode("abc") == IDLELOCK_ERR_INVALID_ARGUMENT)
    }

    @Test func lockoutThenDisable() {
        let l = Lock(maxAttempts: 2)
        l.setPasscode("1111")
        #expect(l.put("t", [1]) == 0)
        idlelock_lock(l.handle, nil)
        #expect(l.unlock("0000") == IDLELOCK_ERR_INVALID_PASSCODE)
        #expect(l.unlock("0000") == IDLELOCK_ERR_LOCKED_OUT)
        #expect(l.unlock("1111") == IDLELOCK_ERR_LOCKED_OUT)
        #expect(l.snapshot().state == IDLELOCK_STATE_LOCKED_OUT)
        #expect(idlelock_disable(l.handle) == 0)
        let s = l.snapshot()
        #expect(s.state == IDLELOCK_STATE_UNLOCKED && s.is_enabled == 0 && s.attempts_remaining == 2)
        #expect(l.get("t").0 == IDLELOCK_ERR_NOT_FOUND, "sign-out forgets the secrets")
        #expect(l.unlock("1111") == IDLELOCK_ERR_NO_PASSCODE)
    }

    @Test func theRightPasscodeOnTheLastAttemptUnlocks() {
        let l = Lock(maxAttempts: 2)
        l.setPasscode("1111")
        idlelock_lock(l.handle, nil)
        #expect(l.unlock("0000") == IDLELOCK_ERR_INVALID_PASSCODE)
        #expect(l.unlock("1111") == 0)
        #expect(l.snapshot().state == IDLELOCK_STATE_UNLOCKED)
    }

    /// Regression: a size_t of 2^63 or more reached Swift as a negative Int,
    /// passed the bounds checks, and crashed the host inside secret_put.
    @Test func hugeSizesAreInvalidArgumentsNotCrashes() {
        let l = Lock()
        let huge = Int(bitPattern: UInt.max)
        let half = Int(bitPattern: UInt(1) << 63)
        var byte: UInt8 = 1
        #expect(idlelock_secret_put(l.handle, "t", &byte, huge) == IDLELOCK_ERR_INVALID_ARGUMENT)
        #expect(lastError().contains("65536"))
        #expect(idlelock_secret_put(l.handle, "t", &byte, half) == IDLELOCK_ERR_INVALID_ARGUMENT)
        #expect(idlelock_secret_put(l.handle, "t", nil, huge) == IDLELOCK_ERR_INVALID_ARGUMENT)
        #expect(idlelock_set_passcode(l.handle, "1234", huge) == IDLELOCK_ERR_INVALID_ARGUMENT)
        #expect(lastError().contains("bytes"))
        #expect(idlelock_unlock(l.handle, "1234", half, nil) == IDLELOCK_ERR_INVALID_ARGUMENT)
        var cfg = idlelock_config()
        #expect(idlelock_config_init(&cfg, huge) == IDLELOCK_ERR_INVALID_ARGUMENT)
        #expect(l.put("t", [7]) == 0)
        var length = huge
        var buffer = [UInt8](repeating: 0, count: 8)
        #expect(idlelock_secret_get(l.handle, "t", &buffer, &length) == 0, "a huge capacity is clamped, not trusted")
        #expect(length == 1 && buffer[0] == 7)
        var nullLength = huge
        #expect(idlelock_secret_get(l.handle, "t", nil, &nullLength) == IDLELOCK_ERR_INVALID_ARGUMENT)
    }

    @Test func secretGetReportsTheNeededSize() {
        let l = Lock()
        #expect(l.put("big", [UInt8](repeating: 7, count: 300)) == 0)
        var length = 10
        var small = [UInt8](repeating: 0, count: 10)
        #expect(idlelock_secret_get(l.handle, "big", &small, &length) == IDLELOCK_ERR_BUFFER_TOO_SMALL)
        #expect(length == 300)
        var zero = 0
        #expect(idlelock_secret_get(l.handle, "big", nil, &zero) == IDLELOCK_ERR_BUFFER_TOO_SMALL)
        #expect(zero == 300)
        #expect(l.put("empty", []) == 0)
        var none = 0
        #expect(idlelock_secret_get(l.handle, "empty", nil, &none) == 0)
        #expect(none == 0)
        #expect(idlelock_secret_remove(l.handle, "big") == 0)
        #expect(idlelock_secret_remove(l.handle, "big") == IDLELOCK_ERR_NOT_FOUND)
    }

    @Test func secretLimits() {
        let l = Lock()
        #expect(l.put(String(repeating: "n", count: 64), [1]) == 0)
        #expect(l.put(String(repeating: "n", count: 65), [1]) == IDLELOCK_ERR_INVALID_ARGUMENT)
        #expect(l.put("", [1]) == IDLELOCK_ERR_INVALID_ARGUMENT)
        #expect(l.put("v", [UInt8](repeating: 0, count: 65_536)) == 0)
        #expect(l.put("v", [UInt8](repeating: 0, count: 65_537)) == IDLELOCK_ERR_INVALID_ARGUMENT)
        for i in 0..<254 { #expect(l.put("s\(i)", [UInt8(i & 0xFF)]) == 0) }
        // A capacity limit, not a bad argument (which must change nothing,
        // while this call has already judged the deadlines).
        #expect(l.put("one too many", [1]) == IDLELOCK_ERR_NO_MEMORY)
        #expect(lastError().contains("256"))
        #expect(l.put("s3", [42]) == 0, "replacing an existing name is not a new secret")
        #expect(l.get("s3").1 == [42])
    }
}

/// Records what a listener saw; optionally runs a re-entrant action.
final class Recorder {
    var seqs: [UInt64] = []
    var states: [Int32] = []
    var attempts: [Int32] = []
    var action: ((Recorder, idlelock_snapshot) -> Void)?
    var handle: OpaquePointer?
    var token: UInt64 = 0

    static let listener: idlelock_listener_fn = { ctx, snapshot in
        let r = Unmanaged<Recorder>.fromOpaque(ctx!).takeUnretainedValue()
        r.seqs.append(snapshot!.pointee.seq)
        r.states.append(snapshot!.pointee.state)
        r.attempts.append(snapshot!.pointee.attempts_remaining)
        r.action?(r, snapshot!.pointee)
    }

    func subscribe(_ handle: OpaquePointer?) {
        self.handle = handle
        #expect(idlelock_subscribe(handle, Recorder.listener, Unmanaged.passUnretained(self).toOpaque(), &token) == 0)
    }
}

@Suite("Listeners")
struct ListenerTests {
    @Test func changesArriveInSeqOrder() {
        let l = Lock()
        let r = Recorder()
        r.subscribe(l.handle)
        l.setPasscode("1234")
        idlelock_start(l.handle, nil)
        idlelock_background(l.handle, nil)
        idlelock_foreground(l.handle, nil)
        idlelock_touch(l.handle, nil) // no visible change: no snapshot
        #expect(r.seqs.count == 4)
        #expect(r.seqs == r.seqs.sorted())
        #expect(Set(r.seqs).count == r.seqs.count)
        #expect(r.seqs.last == l.snapshot().seq)
    }

    @Test func listenerMayCallBackInAndUnsubscribeItself() {
        let l = Lock()
        l.setPasscode("1234")
        let r = Recorder()
        r.action = { rec, snap in
            if snap.is_away == 1 && snap.state == IDLELOCK_STATE_UNLOCKED {
                #expect(idlelock_lock(rec.handle, nil) == 0)
            }
            if snap.state == IDLELOCK_STATE_LOCKED {
                #expect(idlelock_unsubscribe(rec.handle, rec.token) == 0)
            }
        }
        r.subscribe(l.handle)
        idlelock_background(l.handle, nil)
        // background (away) → the listener locks → locked snapshot → unsubscribed.
        #expect(r.states == [IDLELOCK_STATE_UNLOCKED, IDLELOCK_STATE_LOCKED])
        #expect(r.seqs == r.seqs.sorted())
        idlelock_foreground(l.handle, nil)
        #expect(r.states.count == 2, "never called after unsubscribe")
        #expect(idlelock_unsubscribe(l.handle, r.token) == IDLELOCK_ERR_INVALID_ARGUMENT)
    }


    /// Issue 19, finding 1: a listener may destroy the handle; the rest of
    /// that delivery does not run, and the call that delivered (a hot one
    /// here, which borrows the handle) finishes on memory that its delivery
    /// still holds (the sanitizer runs of this suite catch a use after
    /// free).
    @Test func aListenerThatDestroysTheHandleStopsTheDelivery() {
        let l = Lock()
        l.setPasscode("1234")
        let first = Recorder()
        let later = (0..<7).map { _ in Recorder() }
        first.action = { rec, _ in
            idlelock_destroy(rec.handle)
            l.handle = nil // destroyed: the box must not destroy it again
        }
        first.subscribe(l.handle)
        for r in later { r.subscribe(l.handle) }
        let h = l.handle
        l.clock.advance(60_000)
        var out = idlelock_snapshot()
        out.size = UInt32(MemoryLayout<idlelock_snapshot>.size)
        #expect(idlelock_touch(h, &out) == 0, "touch's work was done before it delivered")
        #expect(out.state == IDLELOCK_STATE_LOCKED && out.reason == IDLELOCK_REASON_IDLE)
        #expect(first.states == [IDLELOCK_STATE_LOCKED])
        #expect(later.allSatisfy { $0.states.isEmpty }, "no listener after the one that destroyed")
        #expect(l.handle == nil)
    }
    @Test func aLockDuringTheCheckOvertakesARightPasscode() {
        // The listener hears the attempt being counted (before Argon2id runs)
        // and locks the session: the right passcode must not unlock it.
        let l = Lock()
        l.setPasscode("1234")
        let r = Recorder()
        r.action = { rec, snap in
            if snap.state == IDLELOCK_STATE_UNLOCKED && snap.attempts_remaining == 4 {
                idlelock_lock(rec.handle, nil)
            }
        }
        r.subscribe(l.handle)
        #expect(l.unlock("1234") == IDLELOCK_ERR_SESSION_LOCKED)
        let s = l.snapshot()
        #expect(s.state == IDLELOCK_STATE_LOCKED && s.reason == IDLELOCK_REASON_MANUAL)
        #expect(s.attempts_remaining == 5)
        #expect(l.get("x").0 == IDLELOCK_ERR_SESSION_LOCKED)
    }

    @Test func signOutDuringTheCheckVoidsTheAttempt() {
        let l = Lock()
        l.setPasscode("1234")
        idlelock_lock(l.handle, nil)
        let r = Recorder()
        r.action = { rec, snap in
            if snap.is_enabled == 1 && snap.attempts_remaining == 4 { idlelock_disable(rec.handle) }
        }
        r.subscribe(l.handle)
        #expect(l.unlock("1234") == IDLELOCK_ERR_NO_PASSCODE)
        let s = l.snapshot()
        #expect(s.is_enabled == 0 && s.state == IDLELOCK_STATE_UNLOCKED)
    }

    /// Regression: a per-handle attempt mutex was once held while the first
    /// half of an unlock delivered its snapshot, so a listener that called
    /// `idlelock_unlock` deadlocked.
    @Test func listenerMayUnlockDuringAnUnlock() {
        let l = Lock()
        l.setPasscode("1234")
        idlelock_lock(l.handle, nil)
        let r = Recorder()
        var nested: Int32 = -1
        r.action = { rec, snap in
            if nested == -1 && snap.attempts_remaining == 4 {
                nested = 99
                var code = Array("1234".utf8).map { CChar(bitPattern: $0) }
                nested = idlelock_unlock(rec.handle, &code, code.count, nil)
            }
        }
        r.subscribe(l.handle)
        #expect(l.unlock("1234") == 0)
        #expect(nested == 0)
        let s = l.snapshot()
        #expect(s.state == IDLELOCK_STATE_UNLOCKED && s.attempts_remaining == 5)
        #expect(r.seqs == r.seqs.sorted())
    }

    /// Regression: a listener subscribed during a delivery heard the snapshot
    /// being delivered, a change made before it subscribed.
    @Test func aListenerHearsOnlyChangesAfterItSubscribed() {
        let l = Lock()
        l.setPasscode("1234")
        let late = Recorder()
        let first = Recorder()
        first.action = { rec, _ in
            if late.handle == nil { late.subscribe(rec.handle) }
        }
        first.subscribe(l.handle)
        idlelock_background(l.handle, nil)
        #expect(first.seqs.count == 1)
        #expect(late.seqs.isEmpty, "the change being delivered came before it subscribed")
        idlelock_foreground(l.handle, nil)
        #expect(late.seqs.count == 1 && late.seqs == [first.seqs.last!])
    }

    /// Regression: `out->size` was read again after listeners ran, so a
    /// listener that rewrote it made the library write past the struct.
    @Test func outSizeIsReadOnce() {
        let l = Lock()
        let size = MemoryLayout<idlelock_snapshot>.size
        let bytes = size + 64
        let raw = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 8)
        defer { raw.deallocate() }
        memset(raw, 0xAB, bytes)
        let out = raw.bindMemory(to: idlelock_snapshot.self, capacity: 1)
        out.pointee.size = UInt32(size)
        l.setPasscode("1234")
        let r = Recorder()
        // Runs inside idlelock_lock, after out->size was checked.
        r.action = { _, snap in if snap.state == IDLELOCK_STATE_LOCKED { out.pointee.size = 4096 } }
        r.subscribe(l.handle)
        #expect(idlelock_lock(l.handle, out) == 0)
        #expect(Int(out.pointee.size) == size, "the size written back is the size checked")
        let tail = UnsafeRawBufferPointer(start: raw + size, count: 64)
        #expect(tail.allSatisfy { $0 == 0xAB }, "nothing written past the caller's struct")
    }

    /// Slow listeners cannot make the queue grow without bound: pending
    /// changes are merged past 1024, in seq order, and the latest is heard.
    @Test func theListenerQueueIsBounded() {
        let l = Lock()
        l.setPasscode("1234")
        let r = Recorder()
        let release = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        var blocked = false
        r.action = { _, _ in
            if !blocked {
                blocked = true
                started.signal()
                release.wait()
            }
        }
        r.subscribe(l.handle)
        let handle = Shared(l.handle)
        let done = DispatchSemaphore(value: 0)
        let deliverer = Thread {
            _ = idlelock_background(handle.value, nil) // drains the whole queue before it returns
            done.signal()
        }
        deliverer.start()
        started.wait()
        // The first delivery is stuck in the listener; queue 6000 changes.
        for _ in 0..<3_000 {
            idlelock_foreground(l.handle, nil)
            idlelock_background(l.handle, nil)
        }
        let last = l.snapshot().seq
        release.signal()
        done.wait()
        #expect(r.seqs == r.seqs.sorted() && Set(r.seqs).count == r.seqs.count)
        #expect(r.seqs.count <= ListenerLimits.queued + 1)
        #expect(r.seqs.last == last)
    }

    @Test func listenerLimit() {
        let l = Lock()
        var tokens: [UInt64] = []
        let r = Recorder()
        for _ in 0..<64 {
            var t: UInt64 = 0
            #expect(idlelock_subscribe(l.handle, Recorder.listener, Unmanaged.passUnretained(r).toOpaque(), &t) == 0)
            tokens.append(t)
        }
        var t: UInt64 = 0
        #expect(idlelock_subscribe(l.handle, Recorder.listener, nil, &t) == IDLELOCK_ERR_INVALID_ARGUMENT)
        #expect(Set(tokens).count == 64 && !tokens.contains(0))
        for token in tokens { #expect(idlelock_unsubscribe(l.handle, token) == 0) }
    }
}

@Suite("Errors and versions")
struct ErrorAndVersionTests {
    @Test func statusNamesAreFixedAndNeverNull() {
        #expect(String(cString: idlelock_status_name(0)) == "IDLELOCK_OK")
        #expect(String(cString: idlelock_status_name(3)) == "IDLELOCK_ERR_INVALID_PASSCODE")
        #expect(String(cString: idlelock_status_name(11)) == "IDLELOCK_ERR_INTERNAL")
        #expect(String(cString: idlelock_status_name(12)) == "IDLELOCK_ERR_RETRY_LATER")
        #expect(String(cString: idlelock_status_name(13)) == "IDLELOCK_ERR_REAUTH_REQUIRED")
        #expect(IDLELOCK_ERR_REAUTH_REQUIRED == 13)
        #expect(String(cString: idlelock_status_name(14)) == "IDLELOCK_ERR_UNKNOWN")
        #expect(String(cString: idlelock_status_name(-1)) == "IDLELOCK_ERR_UNKNOWN")
    }

    @Test func versionAgreesWithTheHeader() {
        #expect(String(cString: idlelock_version()) == IDLELOCK_VERSION_STRING)
        #expect(idlelock_version_number() == IDLELOCK_VERSION_NUMBER)
        #expect(IDLELOCK_VERSION_NUMBER == IDLELOCK_VERSION_MAJOR * 10000 + IDLELOCK_VERSION_MINOR * 100 + IDLELOCK_VERSION_PATCH)
    }

    @Test func nullHandleIsAnInvalidArgument() {
        #expect(idlelock_touch(nil, nil) == IDLELOCK_ERR_INVALID_ARGUMENT)
        #expect(lastError().contains("NULL"))
        #expect(idlelock_require_unlocked(nil) == IDLELOCK_ERR_INVALID_ARGUMENT)
        idlelock_destroy(nil)
    }
}

@Suite("Snapshot layout")
struct SnapshotLayoutTests {
    /// The handle fills a host's snapshot of this version in place through
    /// its own `Snapshot` (ABI/SnapshotConversion.swift): every field must
    /// sit where the header puts it.
    @Test func theHandlesSnapshotIsLaidOutAsTheHeaders() {
        #expect(snapshotLayoutAgrees)
        func same<A, B>(_ a: KeyPath<Snapshot, A>, _ b: KeyPath<idlelock_snapshot, B>) -> Bool {
            MemoryLayout<Snapshot>.offset(of: a) == MemoryLayout<idlelock_snapshot>.offset(of: b)
                && MemoryLayout<A>.size == MemoryLayout<B>.size
        }
        #expect(same(\.size, \.size))
        #expect(same(\.state, \.state))
        #expect(same(\.seq, \.seq))
        #expect(same(\.reason, \.reason))
        #expect(same(\.isEnabled, \.is_enabled))
        #expect(same(\.isBiometricsEnabled, \.is_biometrics_enabled))
        #expect(same(\.isBiometricsAvailable, \.is_biometrics_available))
        #expect(same(\.isAway, \.is_away))
        #expect(same(\.attemptsRemaining, \.attempts_remaining))
        #expect(same(\.lastActivity, \.last_activity_ms))
        #expect(same(\.msUntilIdleLock, \.ms_until_idle_lock))
        #expect(same(\.isWarning, \.is_warning))
        #expect(same(\.reserved1, \.reserved1))
        #expect(same(\.msUntilWarning, \.ms_until_warning))
        #expect(same(\.msUntilRetry, \.ms_until_retry))
        #expect(same(\.msUntilNextDeadline, \.ms_until_next_deadline))
        #expect(same(\.isPasscodeRequired, \.is_passcode_required))
        #expect(same(\.reserved2, \.reserved2))
        #expect(same(\.lastAuthentication, \.last_auth_ms))
        #expect(MemoryLayout<Snapshot>.size == MemoryLayout<idlelock_snapshot>.size)
    }

    /// The copy (a struct of another version's size, and what listeners
    /// hear) carries every field.
    @Test func theCopyCarriesEveryField() {
        let s = Snapshot(size: 0, state: 1, seq: 2, reason: 3, isEnabled: 4, isBiometricsEnabled: 5,
                         isBiometricsAvailable: 6, isAway: 7, attemptsRemaining: 8, lastActivity: 9,
                         msUntilIdleLock: 10, isWarning: 11, reserved1: 0, msUntilWarning: 12,
                         msUntilRetry: 13, msUntilNextDeadline: 14, isPasscodeRequired: 15, reserved2: 0,
                         lastAuthentication: 16)
        let c = idlelock_snapshot(s)
        #expect(Int(c.size) == MemoryLayout<idlelock_snapshot>.size)
        #expect([Int64(c.state), Int64(c.seq), Int64(c.reason), Int64(c.is_enabled), Int64(c.is_biometrics_enabled),
                 Int64(c.is_biometrics_available), Int64(c.is_away), Int64(c.attempts_remaining), c.last_activity_ms,
                 c.ms_until_idle_lock, Int64(c.is_warning), c.ms_until_warning, c.ms_until_retry,
                 c.ms_until_next_deadline, Int64(c.is_passcode_required), c.last_auth_ms] == Array(1...16))
    }
}
