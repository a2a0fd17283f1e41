// SPDX-License-Identifier: MIT
// The C ABI's edges: every call refuses a NULL handle and a NULL or bad
// argument with INVALID_ARGUMENT and a message that names it (never a
// crash, never a changed state); structs of another version's size; the
// static name of every status.

import CIdleLock
import Foundation
import Testing
@testable import IdleLock

private func lastError() -> String { String(cString: idlelock_last_error()) }

/// A snapshot struct of `size` bytes (an earlier or a later header's),
/// with room for this version's.
private final class SizedSnapshot {
    let raw: UnsafeMutableRawPointer
    let size: Int
    init(size: Int) {
        self.size = size
        raw = .allocate(byteCount: max(size, MemoryLayout<idlelock_snapshot>.size) + 64, alignment: 8)
        raw.initializeMemory(as: UInt8.self, repeating: 0xAB, count: max(size, MemoryLayout<idlelock_snapshot>.size) + 64)
        raw.storeBytes(of: UInt32(size), as: UInt32.self)
    }
    deinit { raw.deallocate() }
    var pointer: UnsafeMutablePointer<idlelock_snapshot> { raw.assumingMemoryBound(to: idlelock_snapshot.self) }
    var state: Int32 { raw.load(fromByteOffset: MemoryLayout<idlelock_snapshot>.offset(of: \.state)!, as: Int32.self) }
    func byte(_ offset: Int) -> UInt8 { raw.load(fromByteOffset: offset, as: UInt8.self) }
}

/// The first version's snapshot size: the end of its last field.
private let snapshotSizeV1 = MemoryLayout<idlelock_snapshot>.offset(of: \.ms_until_idle_lock)! + 8

@Suite("ABI edges")
struct ABIEdgeTests {
    @Test func everyCallRefusesANullHandle() {
        var token: UInt64 = 0
        var len = 0
        var buffer = [UInt8](repeating: 0, count: 8)
        let calls: [(String, () -> Int32)] = [
            ("watch_stop", { idlelock_watch_stop(nil) }),
            ("prompt_end", { idlelock_prompt_end(nil, 1) }),
            ("set_passcode", { idlelock_set_passcode(nil, "1234", 4) }),
            ("unlock", { idlelock_unlock(nil, "1234", 4, nil) }),
            ("enable_biometrics", { idlelock_enable_biometrics(nil) }),
            ("disable_biometrics", { idlelock_disable_biometrics(nil) }),
            ("unlock_with_biometrics", { idlelock_unlock_with_biometrics(nil, nil) }),
            ("require_recent_auth", { idlelock_require_recent_auth(nil, 1_000) }),
            ("disable", { idlelock_disable(nil) }),
            ("subscribe", { idlelock_subscribe(nil, { _, _ in }, nil, &token) }),
            ("unsubscribe", { idlelock_unsubscribe(nil, 1) }),
            ("secret_put", { idlelock_secret_put(nil, "a", buffer, 1) }),
            ("secret_get", { idlelock_secret_get(nil, "a", &buffer, &len) }),
            ("secret_remove", { idlelock_secret_remove(nil, "a") }),
            ("require_unlocked", { idlelock_require_unlocked(nil) }),
            ("touch", { idlelock_touch(nil, nil) }),
            ("lifecycle", { idlelock_lifecycle(nil, IDLELOCK_PLATFORM_ANDROID_LIFECYCLE_EVENT, "ON_PAUSE", nil) }),
            ("biometric_begin", { idlelock_biometric_begin(nil, IDLELOCK_BIOMETRIC_UNLOCK, &token, nil, 0, nil) }),
            ("biometric_finish", { idlelock_biometric_finish(nil, 1, IDLELOCK_AUTH_OK, nil, 0, nil) }),
        ]
        for (name, call) in calls {
            #expect(call() == IDLELOCK_ERR_INVALID_ARGUMENT, "\(name)")
            #expect(lastError() == "idlelock_\(name): the idlelock handle is NULL", "\(name)")
        }
    }

    @Test func nullAndBadArgumentsAreRefusedAndNamed() throws {
        let l = Lock(lockOnStart: 0)
        var token: UInt64 = 0
        var buffer = [UInt8](repeating: 0, count: 8)
        let notUTF8: [CChar] = [CChar(bitPattern: 0xC3), CChar(bitPattern: 0x28), 0]
        let cases: [(String, () -> Int32)] = [
            ("fn is NULL", { idlelock_subscribe(l.handle, nil, nil, &token) }),
            ("token is NULL", { idlelock_subscribe(l.handle, { _, _ in }, nil, nil) }),
            ("data is NULL but len is 4", { idlelock_secret_put(l.handle, "a", nil, 4) }),
            ("len is NULL", { idlelock_secret_get(l.handle, "a", &buffer, nil) }),
            ("the secret name is NULL", { idlelock_secret_remove(l.handle, nil) }),
            ("the secret name is not valid UTF-8", { idlelock_secret_remove(l.handle, notUTF8) }),
            ("out is NULL", { idlelock_snapshot_get(l.handle, nil) }),
            ("cfg is NULL", { idlelock_config_init(nil, MemoryLayout<idlelock_config>.size) }),
        ]
        for (message, call) in cases {
            #expect(call() == IDLELOCK_ERR_INVALID_ARGUMENT, "\(message)")
            #expect(lastError().contains(message), "\(lastError())")
        }
        var cfg = Lock.config()
        #expect(idlelock_create(&cfg, nil) == IDLELOCK_ERR_INVALID_ARGUMENT)
        #expect(lastError().contains("out is NULL"))
        var h: OpaquePointer? = OpaquePointer(bitPattern: 8)
        #expect(idlelock_create(nil, &h) == IDLELOCK_ERR_INVALID_ARGUMENT)
        #expect(lastError().contains("cfg is NULL"))
        #expect(h == nil, "out is cleared")
        #expect(l.snapshot().state == IDLELOCK_STATE_UNLOCKED, "nothing changed")
    }

    /// A later header's config (larger, its extra bytes zero) is taken; a
    /// non-zero byte past the known fields is refused (the host needs a
    /// newer library), and config_init zeroes those bytes.
    @Test func aLaterHeadersConfigIsTakenWhenItsExtraBytesAreZero() throws {
        let size = MemoryLayout<idlelock_config>.size + 16
        let raw = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8)
        defer { raw.deallocate() }
        raw.initializeMemory(as: UInt8.self, repeating: 0xEE, count: size)
        let cfg = raw.assumingMemoryBound(to: idlelock_config.self)
        #expect(idlelock_config_init(cfg, size) == 0)
        for offset in MemoryLayout<idlelock_config>.size..<size {
            #expect(raw.load(fromByteOffset: offset, as: UInt8.self) == 0)
        }
        cfg.pointee.idle_after_ms = 60_000
        var h: OpaquePointer? = nil
        #expect(idlelock_create(cfg, &h) == 0)
        idlelock_destroy(h)
        raw.storeBytes(of: 1, toByteOffset: size - 3, as: UInt8.self)
        #expect(idlelock_create(cfg, &h) == IDLELOCK_ERR_INVALID_ARGUMENT)
        #expect(lastError().contains("non-zero byte at offset \(size - 3)"))
    }

    @Test func aBadConfigIsRefusedWithWhatIsWrong() {
        let steps = UnsafeMutablePointer<idlelock_delay_step>.allocate(capacity: 1)
        steps.initialize(to: idlelock_delay_step(failed_attempts: 2, reserved0: 0, delay_ms: 1_000))
        let key = UnsafeMutablePointer<UInt8>.allocate(capacity: 16)
        key.initialize(repeating: 1, count: 16)
        let long = strdup(String(repeating: "r", count: 513))!
        let notUTF8 = strdup([CChar(bitPattern: 0xFF), 0])!
        defer {
            steps.deallocate()
            key.deallocate()
            free(long)
            free(notUTF8)
        }
        let expectations: [(String, (inout idlelock_config) -> Void)] = [
            ("delay_schedule_len must be 1..32, got 0", { c in c.delay_schedule = UnsafePointer(steps); c.delay_schedule_len = 0 }),
            ("delay_schedule[0].reserved0 must be 0", { c in
                steps.pointee.reserved0 = 1
                c.delay_schedule = UnsafePointer(steps)
                c.delay_schedule_len = 1
            }),
            ("unlock_reason is longer than 512 bytes", { c in c.unlock_reason = UnsafePointer(long) }),
            ("unlock_reason is not valid UTF-8", { c in c.unlock_reason = UnsafePointer(notUTF8) }),
            ("device_key_len must be 32, got 16", { c in c.device_key = UnsafePointer(key); c.device_key_len = 16 }),
        ]
        for (message, change) in expectations {
            let (rc, error) = createWithConfig(change)
            #expect(rc == IDLELOCK_ERR_INVALID_ARGUMENT, "\(message)")
            #expect(error.contains(message), "\(error)")
        }
    }

    @Test func aBadAuthenticatorIsRefusedWithWhatIsWrong() {
        let fake = FakeKeystore()
        let known = MemoryLayout<idlelock_authenticator>.size
        let raw = UnsafeMutableRawPointer.allocate(byteCount: known + 16, alignment: 8)
        defer { raw.deallocate() }
        func create(_ change: (UnsafeMutablePointer<idlelock_authenticator>) -> Void) -> String {
            raw.initializeMemory(as: UInt8.self, repeating: 0, count: known + 16)
            let a = raw.assumingMemoryBound(to: idlelock_authenticator.self)
            a.pointee = fake.authenticator
            change(a)
            var cfg = Lock.config()
            cfg.idle_after_ms = 60_000
            cfg.authenticator = UnsafePointer(a)
            var h: OpaquePointer? = nil
            let rc = idlelock_create(&cfg, &h)
            idlelock_destroy(h)
            return rc == IDLELOCK_ERR_INVALID_ARGUMENT ? lastError() : "status \(rc)"
        }
        #expect(create { $0.pointee.size = 8 }.contains("authenticator->size is 8"))
        #expect(create { $0.pointee.size = UInt32(known + 16) }.hasPrefix("status 0"), "a later size, zero past the known fields")
        #expect(create { a in
            a.pointee.size = UInt32(known + 16)
            UnsafeMutableRawPointer(a).storeBytes(of: 7, toByteOffset: known + 2, as: UInt8.self)
        }.contains("non-zero byte at offset \(known + 2)"))
        #expect(create { $0.pointee.reserved0 = 1 }.contains("reserved0 must be 0"))
        #expect(create { $0.pointee.is_available = nil }.contains("is_available is NULL"))
        #expect(create { $0.pointee.store_secret = nil }.contains("store_secret is NULL"))
        #expect(create { $0.pointee.load_secret = nil }.contains("load_secret is NULL"))
        #expect(create { $0.pointee.delete_secret = nil }.contains("delete_secret is NULL"))
    }

    /// The events write an earlier version's snapshot (its size's bytes
    /// only) and a later one's (this version's fields, then zeros).
    @Test func eventsWriteASnapshotOfTheSizeTheHostPassed() {
        let l = Lock(lockOnStart: 0)
        let known = MemoryLayout<idlelock_snapshot>.size
        let calls: [(String, (UnsafeMutablePointer<idlelock_snapshot>) -> Int32)] = [
            ("touch", { idlelock_touch(l.handle, $0) }),
            ("background", { idlelock_background(l.handle, $0) }),
            ("foreground", { idlelock_foreground(l.handle, $0) }),
            ("check", { idlelock_check(l.handle, $0) }),
            ("unlock (not locked)", { idlelock_unlock(l.handle, "0000", 4, $0) }),
        ]
        for (name, call) in calls {
            let early = SizedSnapshot(size: snapshotSizeV1)
            _ = call(early.pointer)
            #expect(early.state == IDLELOCK_STATE_UNLOCKED, "\(name)")
            #expect(early.byte(snapshotSizeV1) == 0xAB, "\(name): nothing past the host's size")
            let later = SizedSnapshot(size: known + 24)
            _ = call(later.pointer)
            #expect(later.state == IDLELOCK_STATE_UNLOCKED, "\(name)")
            #expect((known..<(known + 24)).allSatisfy { later.byte($0) == 0 }, "\(name): zeros past this version's fields")
            #expect(later.byte(known + 24) == 0xAB, "\(name)")
        }
    }

    @Test func everyStatusHasItsName() {
        let names = ["IDLELOCK_OK", "IDLELOCK_ERR_INVALID_ARGUMENT", "IDLELOCK_ERR_SESSION_LOCKED",
                     "IDLELOCK_ERR_INVALID_PASSCODE", "IDLELOCK_ERR_LOCKED_OUT", "IDLELOCK_ERR_LOCK_UNAVAILABLE",
                     "IDLELOCK_ERR_NO_PASSCODE", "IDLELOCK_ERR_STORAGE", "IDLELOCK_ERR_NOT_FOUND",
                     "IDLELOCK_ERR_BUFFER_TOO_SMALL", "IDLELOCK_ERR_NO_MEMORY", "IDLELOCK_ERR_INTERNAL",
                     "IDLELOCK_ERR_RETRY_LATER", "IDLELOCK_ERR_REAUTH_REQUIRED"]
        for (code, name) in names.enumerated() {
            #expect(String(cString: idlelock_status_name(Int32(code))) == name)
        }
    }
}

@Suite("ABI edges: sizes and empty values")
struct ABISizeEdgeTests {
    /// An event's snapshot whose size is smaller than any version's is
    /// refused before the event has any effect.
    @Test func anEventWithATooSmallSnapshotIsRefusedBeforeItActs() {
        let l = Lock(lockOnStart: 0)
        l.setPasscode("1234")
        l.clock.advance(60_000) // the idle deadline has passed
        var s = idlelock_snapshot()
        s.size = 4
        #expect(idlelock_touch(l.handle, &s) == IDLELOCK_ERR_INVALID_ARGUMENT)
        #expect(lastError().contains("out->size is 4"))
        #expect(idlelock_require_unlocked(l.handle) == IDLELOCK_ERR_SESSION_LOCKED, "judged by the next call")
    }

    /// A secret of no bytes, passed as NULL and 0, is a secret.
    @Test func anEmptySecretIsKept() {
        let l = Lock(lockOnStart: 0)
        #expect(idlelock_secret_put(l.handle, "empty", nil, 0) == 0)
        #expect(l.get("empty") == (0, []))
    }
}
