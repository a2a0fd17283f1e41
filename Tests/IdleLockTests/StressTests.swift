// SPDX-License-Identifier: MIT
// Several threads hammer one handle with a random mix of every call,
// including biometric unlocks through a slow fake keystore and listeners
// that call back in, and check the invariants after every step. Bounded by
// an operation count (not time); `make test-sanitizers` runs it under
// ThreadSanitizer and AddressSanitizer. The run has a generous deadline
// only to turn a deadlock into a failure instead of a hang.

import CIdleLock
import Foundation
import Synchronization
import Testing
@testable import IdleLock

/// A clock that several threads move: atomic, since the library reads it
/// (with its lock held) while test threads advance it.
final class AtomicClock: Sendable {
    let now = Atomic<Int64>(1_000)
    static let function: idlelock_clock_fn = { ctx in
        Unmanaged<AtomicClock>.fromOpaque(ctx!).takeUnretainedValue().now.load(ordering: .relaxed)
    }
    func advance(_ ms: Int64) { _ = now.add(ms, ordering: .relaxed) }
}

/// SplitMix64: a seeded generator, so a failing run can be replayed.
struct SeededRandom {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE5_E9B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}

/// Thread-safe failure log (the checks run on worker threads).
final class Findings: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []
    func add(_ s: String) { lock.lock(); if items.count < 20 { items.append(s) }; lock.unlock() }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return items }
}

/// A listener that checks seq order and that it is never called after
/// its unsubscribe returned.
final class CheckingListener: @unchecked Sendable {
    let findings: Findings
    let handle: OpaquePointer?
    private let lock = NSLock()
    private var lastSeq: UInt64 = 0
    private var unsubscribed = false
    var token: UInt64 = 0
    var reenter = false

    init(findings: Findings, handle: OpaquePointer?) {
        self.findings = findings
        self.handle = handle
    }

    static let function: idlelock_listener_fn = { ctx, snapshot in
        let me = Unmanaged<CheckingListener>.fromOpaque(ctx!).takeUnretainedValue()
        let s = snapshot!.pointee
        me.lock.lock()
        if me.unsubscribed { me.findings.add("listener called after unsubscribe returned") }
        if s.seq <= me.lastSeq { me.findings.add("listener seq \(s.seq) after \(me.lastSeq)") }
        me.lastSeq = s.seq
        me.lock.unlock()
        checkSnapshot(s, findings: me.findings, context: "listener")
        if me.reenter {
            var inner = idlelock_snapshot()
            inner.size = UInt32(MemoryLayout<idlelock_snapshot>.size)
            _ = idlelock_snapshot_get(me.handle, &inner)
            if s.seq % 7 == 0 { _ = idlelock_lock(me.handle, nil) }
        }
    }

    func markUnsubscribed() { lock.lock(); unsubscribed = true; lock.unlock() }
}

/// What holds for every snapshot.
func checkSnapshot(_ s: idlelock_snapshot, findings: Findings, context: String) {
    if !(0...2).contains(s.state) { findings.add("\(context): state \(s.state)") }
    if !(0...5).contains(s.reason) { findings.add("\(context): reason \(s.reason)") }
    if s.state == IDLELOCK_STATE_UNLOCKED && s.reason != IDLELOCK_REASON_NONE {
        findings.add("\(context): unlocked with reason \(s.reason)")
    }
    // Locked out means no attempt remains. (No attempt remaining is not yet
    // a lockout while the last one is being checked.)
    if s.state == IDLELOCK_STATE_LOCKED_OUT && s.attempts_remaining != 0 {
        findings.add("\(context): locked out with \(s.attempts_remaining) attempts remaining")
    }
    if s.attempts_remaining < 0 || s.attempts_remaining > 5 {
        findings.add("\(context): attempts_remaining \(s.attempts_remaining)")
    }
    if s.state != IDLELOCK_STATE_UNLOCKED && s.ms_until_idle_lock != Int64.max {
        findings.add("\(context): locked with ms_until_idle_lock \(s.ms_until_idle_lock)")
    }
}

/// Tokens of the two-phase pair, shared by the stress test's threads.
final class RequestPool: @unchecked Sendable {
    private let lock = NSLock()
    private var tokens: [UInt64] = []
    func put(_ token: UInt64) { lock.lock(); tokens.append(token); lock.unlock() }
    func take() -> UInt64? {
        lock.lock()
        defer { lock.unlock() }
        return tokens.popLast()
    }
}

@Suite("Stress")
struct StressTests {
    @Test func manyThreadsOnOneHandleKeepEveryInvariant() throws {
        let keystore = FakeKeystore()
        keystore.duringLoad = { usleep(1_000) } // a person looking at a prompt, shortened
        let atomicClock = AtomicClock()
        let lock = BioLock(keystore: keystore, clock: .atomic(atomicClock))
        try #require(lock.status == 0)
        lock.setPasscode("2468")
        try #require(idlelock_enable_biometrics(lock.handle) == 0)
        let value = Array("the access token".utf8)
        let putStatus = value.withUnsafeBufferPointer { idlelock_secret_put(lock.handle, "token", $0.baseAddress, $0.count) }
        try #require(putStatus == 0)

        let findings = Findings()
        let pool = RequestPool()
        let handle = Shared(lock.handle)
        let clock = Shared(atomicClock)
        let threads = 4
        let operations = 1_500
        let done = DispatchSemaphore(value: 0)
        let permanent = CheckingListener(findings: findings, handle: lock.handle)
        permanent.reenter = true
        try #require(idlelock_subscribe(lock.handle, CheckingListener.function,
                                        Unmanaged.passUnretained(permanent).toOpaque(), &permanent.token) == 0)

        for t in 0..<threads {
            let worker = Thread {
                var random = SeededRandom(seed: 0x1D1E_10C4 &+ UInt64(t))
                for _ in 0..<operations {
                    StressTests.step(&random, handle.value, clock: clock.value, value: value, findings: findings,
                                     keystore: keystore, pool: pool)
                }
                done.signal()
            }
            worker.stackSize = 1 << 20
            worker.start()
        }
        var finished = 0
        while finished < threads {
            // A deadlock is a failure, not a hang (the bound is generous: the
            // run takes a few seconds, more under the sanitizers).
            guard done.wait(timeout: .now() + 300) == .success else {
                Issue.record("a worker did not finish within 300 s: deadlock")
                return
            }
            finished += 1
        }
        #expect(idlelock_unsubscribe(lock.handle, permanent.token) == 0)
        #expect(findings.all.isEmpty, "\(findings.all)")

        // The session key is wiped whenever the session is not unlocked.
        let h = Unmanaged<IdleLockHandle>.fromOpaque(UnsafeRawPointer(lock.handle!)).takeUnretainedValue()
        h.mutex.lock()
        #expect(h.rules.state == .unlocked || !h.keyLoaded)
        h.mutex.unlock()
    }

    /// One random call and the checks of its result.
    static func step(_ random: inout SeededRandom, _ handle: OpaquePointer?, clock: AtomicClock,
                     value: [UInt8], findings: Findings, keystore: FakeKeystore, pool: RequestPool) {
        var s = idlelock_snapshot()
        s.size = UInt32(MemoryLayout<idlelock_snapshot>.size)
        let ok: Int32 = 0
        func expectStatus(_ st: Int32, _ allowed: [Int32], _ what: String) {
            if !allowed.contains(st) { findings.add("\(what) returned \(st): \(String(cString: idlelock_last_error()))") }
        }
        switch random.below(22) {
        case 0: expectStatus(idlelock_touch(handle, &s), [ok], "touch")
        case 1: expectStatus(idlelock_check(handle, &s), [ok], "check")
        case 2: expectStatus(idlelock_background(handle, &s), [ok], "background")
        case 3: expectStatus(idlelock_inactive(handle, &s), [ok], "inactive")
        case 4: expectStatus(idlelock_foreground(handle, &s), [ok], "foreground")
        case 5:
            expectStatus(idlelock_lock(handle, &s), [ok], "lock")
            // "Lock now" does nothing without a passcode (another thread may
            // be between a sign-out and a new passcode).
            if s.is_enabled == 1 && s.state == IDLELOCK_STATE_UNLOCKED {
                findings.add("lock left an engaged session unlocked")
            }
        case 6:
            // The clock is shared; it only moves forward here.
            clock.advance(Int64(random.below(3_000)))
            expectStatus(idlelock_snapshot_get(handle, &s), [ok], "snapshot_get")
        case 7:
            let right = random.below(10) < 9
            let code = right ? "2468" : "0000"
            let st = idlelock_unlock(handle, code, 4, &s)
            // SESSION_LOCKED: overtaken by a lock, or voided by a concurrent
            // set_passcode; NO_PASSCODE: voided by a concurrent sign-out.
            let voided = [IDLELOCK_ERR_SESSION_LOCKED, IDLELOCK_ERR_NO_PASSCODE, IDLELOCK_ERR_LOCKED_OUT]
            expectStatus(st, right ? [ok] + voided : [IDLELOCK_ERR_INVALID_PASSCODE] + voided, "unlock")
            if st == ok && s.state != IDLELOCK_STATE_UNLOCKED { findings.add("unlock OK but state \(s.state)") }
            if st == IDLELOCK_ERR_LOCKED_OUT {
                // Sign out and start over, so the run keeps exercising unlocks.
                _ = idlelock_disable(handle)
                _ = idlelock_set_passcode(handle, "2468", 4)
                _ = idlelock_enable_biometrics(handle)
                _ = value.withUnsafeBufferPointer { idlelock_secret_put(handle, "token", $0.baseAddress, $0.count) }
                return
            }
        case 8, 9:
            let st = idlelock_unlock_with_biometrics(handle, &s)
            expectStatus(st, [ok, IDLELOCK_ERR_SESSION_LOCKED, IDLELOCK_ERR_LOCK_UNAVAILABLE,
                              IDLELOCK_ERR_LOCKED_OUT, IDLELOCK_ERR_NO_PASSCODE], "unlock_with_biometrics")
            if st == ok && s.state != IDLELOCK_STATE_UNLOCKED { findings.add("biometric unlock OK but state \(s.state)") }
        case 10, 11, 12:
            var buffer = [UInt8](repeating: 0, count: 64)
            var length = buffer.count
            let st = buffer.withUnsafeMutableBufferPointer { idlelock_secret_get(handle, "token", $0.baseAddress, &length) }
            expectStatus(st, [ok, IDLELOCK_ERR_SESSION_LOCKED, IDLELOCK_ERR_NOT_FOUND], "secret_get")
            if st == ok && Array(buffer[0..<length]) != value { findings.add("secret_get returned other bytes") }
            return
        case 13:
            expectStatus(idlelock_require_unlocked(handle), [ok, IDLELOCK_ERR_SESSION_LOCKED], "require_unlocked")
            return
        case 14:
            let st = value.withUnsafeBufferPointer { idlelock_secret_put(handle, "token", $0.baseAddress, $0.count) }
            expectStatus(st, [ok, IDLELOCK_ERR_SESSION_LOCKED], "secret_put")
            return
        case 15:
            // A short-lived listener: subscribe, let it hear something, go.
            let listener = CheckingListener(findings: findings, handle: handle)
            listener.reenter = random.below(2) == 0
            let context = Unmanaged.passRetained(listener)
            guard idlelock_subscribe(handle, CheckingListener.function, context.toOpaque(), &listener.token) == 0 else {
                context.release()
                findings.add("subscribe failed: \(String(cString: idlelock_last_error()))")
                return
            }
            _ = idlelock_background(handle, nil)
            _ = idlelock_foreground(handle, nil)
            expectStatus(idlelock_unsubscribe(handle, listener.token), [ok], "unsubscribe")
            listener.markUnsubscribed()
            context.release()
            return
        case 16:
            expectStatus(idlelock_enable_biometrics(handle),
                         [ok, IDLELOCK_ERR_SESSION_LOCKED, IDLELOCK_ERR_NO_PASSCODE], "enable_biometrics")
            return
        case 17:
            expectStatus(idlelock_start(handle, &s), [ok], "start")
        case 18:
            let st = idlelock_set_passcode(handle, "2468", 4)
            expectStatus(st, [ok, IDLELOCK_ERR_SESSION_LOCKED], "set_passcode")
            if st == ok { _ = idlelock_enable_biometrics(handle) }
            return
        case 19:
            // The two-phase pair (1.2): a request begun on one thread may be
            // finished on another; a concurrent sign-out or new passcode
            // voids it (INVALID_ARGUMENT), a lock overtakes it.
            if random.below(2) == 0 {
                var token: UInt64 = 0
                let st = idlelock_biometric_begin(handle, IDLELOCK_BIOMETRIC_UNLOCK, &token, nil, 0, &s)
                expectStatus(st, [ok, IDLELOCK_ERR_NO_PASSCODE, IDLELOCK_ERR_LOCKED_OUT, IDLELOCK_ERR_LOCK_UNAVAILABLE,
                                  IDLELOCK_ERR_INVALID_ARGUMENT], "biometric_begin")
                if st == ok { pool.put(token) }
            } else if let token = pool.take() {
                let secret = keystore.secret ?? [UInt8](repeating: 0, count: 32)
                let cancel = random.below(4) == 0
                let st = cancel ? idlelock_biometric_finish(handle, token, IDLELOCK_AUTH_CANCELLED, nil, 0, &s)
                    : secret.withUnsafeBufferPointer { idlelock_biometric_finish(handle, token, IDLELOCK_AUTH_OK, $0.baseAddress, 32, &s) }
                expectStatus(st, [ok, IDLELOCK_ERR_LOCK_UNAVAILABLE, IDLELOCK_ERR_SESSION_LOCKED, IDLELOCK_ERR_NO_PASSCODE,
                                  IDLELOCK_ERR_LOCKED_OUT, IDLELOCK_ERR_INVALID_ARGUMENT], "biometric_finish")
                if st == ok && (cancel || s.state != IDLELOCK_STATE_UNLOCKED) {
                    findings.add("biometric_finish OK (cancel \(cancel)) but state \(s.state)")
                }
                if st == IDLELOCK_ERR_INVALID_ARGUMENT { return } // voided: out untouched
            }
        case 20:
            let st = idlelock_require_recent_auth(handle, 60_000)
            expectStatus(st, [ok, IDLELOCK_ERR_REAUTH_REQUIRED, IDLELOCK_ERR_SESSION_LOCKED, IDLELOCK_ERR_NO_PASSCODE],
                          "require_recent_auth")
            return
        default:
            expectStatus(idlelock_snapshot_get(handle, &s), [ok], "snapshot_get")
        }
        checkSnapshot(s, findings: findings, context: "after a call")
    }
}
