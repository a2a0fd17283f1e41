// SPDX-License-Identifier: MIT
// Each status of the C interface reaches Swift as its IdleLockError case,
// with what the case carries, from the real library.
import CIdleLock
import Testing
@testable import IdleLockKit

@Suite struct ErrorTests {
    /// Every status the library names reaches Swift as the case that
    /// reports it: the enum is written by hand (its cases carry different
    /// things), so a status the header gains and this binding does not map
    /// would become `.internalFailure` silently. The statuses the binding
    /// answers itself are named here (BUFFER_TOO_SMALL: `secret(named:)`
    /// asks again with the size the library reported).
    @Test func everyStatusTheLibraryNamesHasItsOwnCase() {
        let answeredInside: Set<Int32> = [IDLELOCK_ERR_BUFFER_TOO_SMALL]
        let unknown = String(cString: idlelock_status_name(64))
        var known = 0
        for code in Int32(1)..<64 {
            let name = String(cString: idlelock_status_name(code))
            let error = IdleLockError(status: code, message: "m", snapshot: nil)
            if name == unknown || answeredInside.contains(code) {
                #expect(error.status == IDLELOCK_ERR_INTERNAL, "status \(code) (\(name))")
                #expect(error.description.contains("status \(code) (\(name))"), "the fallback names the status")
                continue
            }
            known += 1
            #expect(error.status == code, "\(name) reaches Swift as \(error), which reports \(error.status)")
        }
        #expect(known >= 12, "the library names \(known) statuses this binding maps; 1.2 has 12 (13 with BUFFER_TOO_SMALL)")
    }

    @Test func aRefusedOptionNamesTheField() {
        let clock = TestClock()
        var o = testOptions(clock)
        o.graceMs = 60_001
        #expect {
            _ = try IdleLockHandle(options: o)
        } throws: { error in
            guard case IdleLockError.invalidArgument(let message) = error else { return false }
            return message.contains("grace_ms") && message.contains("60001")
        }
    }

    @Test func aTimeoutIsRequired() {
        var o = IdleLockOptions()
        o.kdfMemlimit = 19 * 1024 * 1024
        #expect(throws: IdleLockError.self) { _ = try IdleLockHandle(options: o) }
    }

    @Test func aNulInAPathIsRefusedBeforeC() {
        let clock = TestClock()
        var o = testOptions(clock)
        o.storePath = "/tmp/a\u{0}b"
        #expect(throws: IdleLockError.invalidArgument("storePath: contains a NUL character; pass it without one")) {
            _ = try IdleLockHandle(options: o)
        }
    }

    @Test func wrongPasscodesCountDownThenLockOut() async throws {
        let clock = TestClock()
        let lock = try await engagedHandle(clock) { $0.maxAttempts = 3 }
        try lock.lock()
        await #expect(throws: IdleLockError.invalidPasscode(attemptsRemaining: 2)) { try await lock.unlock(passcode: "0000") }
        await #expect(throws: IdleLockError.invalidPasscode(attemptsRemaining: 1)) { try await lock.unlock(passcode: "0000") }
        await #expect(throws: IdleLockError.lockedOut) { try await lock.unlock(passcode: "0000") }
        await #expect(throws: IdleLockError.lockedOut) { try await lock.unlock(passcode: "2468") }
        #expect(try lock.snapshot().state == .lockedOut)
        try lock.disable()
        #expect(try lock.snapshot().state == .unlocked)
    }

    @Test func anEscalatingDelaySaysHowLong() async throws {
        let clock = TestClock()
        let lock = try await engagedHandle(clock) {
            $0.maxAttempts = 10
            $0.delaySchedule = IdleLockOptions.iosDelaySchedule
        }
        #expect(IdleLockOptions.iosDelaySchedule.first == .init(failedAttempts: 5, delayMs: 60_000))
        try lock.lock()
        for left in stride(from: 9, through: 5, by: -1) {
            await #expect(throws: IdleLockError.invalidPasscode(attemptsRemaining: left)) {
                try await lock.unlock(passcode: "0000")
            }
        }
        await #expect(throws: IdleLockError.retryLater(milliseconds: 60_000)) { try await lock.unlock(passcode: "2468") }
        clock.advance(60_000)
        try await lock.unlock(passcode: "2468")
        #expect(try lock.snapshot().state == .unlocked)
    }

    @Test func theOtherStatuses() async throws {
        let clock = TestClock()
        let fresh = try IdleLockHandle(options: testOptions(clock))
        await #expect(throws: IdleLockError.noPasscode) { try await fresh.unlock(passcode: "2468") }
        #expect(throws: IdleLockError.notFound) { _ = try fresh.secret(named: "token") }
        await #expect {
            try await fresh.unlockWithBiometrics()
        } throws: { error in
            guard case IdleLockError.lockUnavailable(let message) = error else { return false }
            return message.contains("no authenticator")
        }

        let lock = try await engagedHandle(clock)
        #expect(throws: IdleLockError.reauthRequired) { try lock.requireRecentAuth(maxAgeMs: 60_000) }
        try lock.lock()
        #expect(throws: IdleLockError.sessionLocked) { try lock.requireUnlocked() }
        #expect(throws: IdleLockError.sessionLocked) { _ = try lock.secret(named: "token") }
        await #expect(throws: IdleLockError.sessionLocked) { try await lock.setPasscode("1357") }
        await #expect {
            try await lock.setPasscode("12")
        } throws: { error in
            guard case IdleLockError.invalidArgument(let message) = error else { return false }
            return message.contains("4")
        }
    }

    @Test func aClosedLockSaysSo() async throws {
        let clock = TestClock()
        let lock = try IdleLockHandle(options: testOptions(clock))
        lock.close()
        lock.close()
        #expect(lock.isClosed)
        #expect(throws: IdleLockError.closed) { try lock.touch() }
        await #expect(throws: IdleLockError.closed) { try await lock.unlock(passcode: "2468") }
    }

    @Test func eachErrorKeepsItsCStatus() {
        #expect(IdleLockError.invalidPasscode(attemptsRemaining: 1).status == IDLELOCK_ERR_INVALID_PASSCODE)
        #expect(IdleLockError.retryLater(milliseconds: 5).status == IDLELOCK_ERR_RETRY_LATER)
        #expect(IdleLockError(status: 99, message: "x", snapshot: nil)
            == .internalFailure("status 99 (IDLELOCK_ERR_UNKNOWN): x"))
        #expect(IdleLockHandle.libraryVersion == String(cString: idlelock_version()))
    }

    /// The Swift enums' raw values are the header's constants.
    @Test func theEnumsAreTheHeadersConstants() {
        #expect([Snapshot.State.unlocked, .locked, .lockedOut].map(\.rawValue)
            == [IDLELOCK_STATE_UNLOCKED, IDLELOCK_STATE_LOCKED, IDLELOCK_STATE_LOCKED_OUT])
        #expect([Snapshot.Reason.none, .idle, .backgrounded, .startup, .manual, .clock].map(\.rawValue)
            == [IDLELOCK_REASON_NONE, IDLELOCK_REASON_IDLE, IDLELOCK_REASON_BACKGROUNDED, IDLELOCK_REASON_STARTUP,
                IDLELOCK_REASON_MANUAL, IDLELOCK_REASON_CLOCK])
        #expect([BiometricResult.ok, .failed, .cancelled, .unavailable].map(\.rawValue)
            == [IDLELOCK_AUTH_OK, IDLELOCK_AUTH_FAILED, IDLELOCK_AUTH_CANCELLED, IDLELOCK_AUTH_UNAVAILABLE])
        #expect([BiometricRequest.Purpose.unlock, .enable].map(\.rawValue)
            == [IDLELOCK_BIOMETRIC_UNLOCK, IDLELOCK_BIOMETRIC_ENABLE])
        #expect(MemoryLayout<idlelock_snapshot>.size == idlelock_snapshot_size())
        #expect(MemoryLayout<idlelock_config>.size == idlelock_config_size())
    }
}
