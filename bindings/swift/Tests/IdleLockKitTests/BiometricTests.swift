// SPDX-License-Identifier: MIT
// The biometric shortcut from Swift: enable through the authenticator, the
// unlock through the two-phase pair, its outcomes, and cancellation that
// ends at once and unlocks nothing.
import Foundation
import Testing
@testable import IdleLockKit

@Suite struct BiometricTests {
    /// An engaged, locked session whose shortcut is on.
    func lockedWithShortcut() async throws -> (IdleLockHandle, ManualAuthenticator, TestClock) {
        let clock = TestClock()
        let keystore = ManualAuthenticator()
        let lock = try await engagedHandle(clock, authenticator: keystore)
        try await lock.enableBiometrics()
        #expect(keystore.hasItem)
        #expect(try lock.snapshot().isBiometricsEnabled)
        try lock.lock()
        return (lock, keystore, clock)
    }

    @Test func thePassedCheckUnlocksAndItsSecretIsWiped() async throws {
        let (lock, keystore, _) = try await lockedWithShortcut()
        let unlock = Task { try await lock.unlockWithBiometrics() }
        try await keystore.waitForCheck()
        keystore.answer()
        let snapshot = try await unlock.value
        #expect(snapshot.state == .unlocked)
        #expect(keystore.released.count == 1 && keystore.released.allSatisfy(isZero))
    }

    @Test(arguments: [(BiometricCheckError.failed, "fail"), (.cancelled, "cancel"), (.unavailable, "no biometric check available")])
    func eachOutcomeIsLockUnavailableAndSaysWhich(_ outcome: BiometricCheckError, _ word: String) async throws {
        let (lock, keystore, _) = try await lockedWithShortcut()
        let unlock = Task { () async throws -> Snapshot in try await lock.unlockWithBiometrics() }
        try await keystore.waitForCheck()
        keystore.answer(outcome)
        let result = await failure(of: unlock)
        guard case .lockUnavailable(let message)? = result else {
            Issue.record("expected lockUnavailable, got \(result)")
            return
        }
        #expect(message.lowercased().contains(word))
        #expect(try lock.snapshot().state == .locked)
    }

    @Test func aSecretThatDoesNotOpenTheShortcutTurnsItOff() async throws {
        let (lock, keystore, _) = try await lockedWithShortcut()
        let unlock = Task { () async throws -> Snapshot in try await lock.unlockWithBiometrics() }
        try await keystore.waitForCheck()
        keystore.answer(secret: SecretBytes(count: 32))
        guard case .lockUnavailable? = await failure(of: unlock) else {
            Issue.record("a wrong secret must not unlock")
            return
        }
        let after = try lock.snapshot()
        #expect(after.state == .locked && !after.isBiometricsEnabled)
        #expect(keystore.deletes == 1 && !keystore.hasItem)
    }

    @Test func cancellationEndsAtOnceAndTheLateAnswerUnlocksNothing() async throws {
        let (lock, keystore, _) = try await lockedWithShortcut()
        let unlock = Task { () async throws -> Snapshot in try await lock.unlockWithBiometrics() }
        try await keystore.waitForCheck()
        let start = DispatchTime.now()
        unlock.cancel()
        let result = await failure(of: unlock)  // the check never answered
        let elapsed = DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds
        guard case .cancelled? = result else {
            Issue.record("expected cancelled, got \(result)")
            return
        }
        #expect(elapsed < 1_000_000_000)
        #expect(keystore.cancelledChecks == 1)
        // The check answers after all, with the right secret: wiped, unused.
        keystore.answer()
        for _ in 0..<1000 where !keystore.released.allSatisfy(isZero) {
            try await Task.sleep(nanoseconds: 1_000_000)
        }
        #expect(keystore.released.count == 1 && keystore.released.allSatisfy(isZero))
        #expect(try lock.snapshot().state == .locked)
        // The request was finished as cancelled: nothing left open defers the rules.
        try await lock.unlock(passcode: "2468")
        #expect(try lock.snapshot().state == .unlocked)
    }

    @Test func aTaskCancelledBeforeTheCheckShowsNoPrompt() async throws {
        let (lock, keystore, _) = try await lockedWithShortcut()
        let unlock = Task { () async throws -> Snapshot in
            withUnsafeCurrentTask { $0?.cancel() }
            return try await lock.unlockWithBiometrics()
        }
        guard case .cancelled? = await failure(of: unlock) else {
            Issue.record("expected cancelled")
            return
        }
        #expect(keystore.checks == 0)
    }

    @Test func closeEndsAPendingCheckAtOnce() async throws {
        let (lock, keystore, _) = try await lockedWithShortcut()
        let unlock = Task { () async throws -> Snapshot in try await lock.unlockWithBiometrics() }
        try await keystore.waitForCheck()
        lock.close()
        guard case .closed? = await failure(of: unlock) else {
            Issue.record("expected closed")
            return
        }
        keystore.answer()
        for _ in 0..<1000 where !keystore.released.allSatisfy(isZero) {
            try await Task.sleep(nanoseconds: 1_000_000)
        }
        #expect(keystore.released.allSatisfy(isZero))
    }

    @Test func anItemGoneForGoodTurnsTheShortcutOff() async throws {
        let (lock, keystore, _) = try await lockedWithShortcut()
        let unlock = Task { () async throws -> Snapshot in try await lock.unlockWithBiometrics() }
        try await keystore.waitForCheck()
        keystore.answer(.invalidated)
        guard case .lockUnavailable? = await failure(of: unlock) else {
            Issue.record("expected lockUnavailable")
            return
        }
        #expect(try !lock.snapshot().isBiometricsEnabled)
        #expect(keystore.deletes == 1)
        // A plain "unavailable" (no enrolment right now) leaves it on.
        try await lock.unlock(passcode: "2468")
        try await lock.enableBiometrics()
        try lock.lock()
        let again = Task { () async throws -> Snapshot in try await lock.unlockWithBiometrics() }
        try await keystore.waitForCheck()
        keystore.answer(.unavailable)
        _ = await failure(of: again)
        #expect(try lock.snapshot().isBiometricsEnabled)
    }

    @Test func aCancelAfterTheAnswerReportsFailure() async throws {
        let (lock, keystore, _) = try await lockedWithShortcut()
        let request = try lock.beginBiometricUnlock()
        let secret = try await {
            let check = Task { try await keystore.loadSecret(reason: nil) }
            try await keystore.waitForCheck()
            keystore.answer()
            return try await check.value
        }()
        try request.finish(secret: secret)
        #expect(request.cancel() == false)  // the answer reached the library first
        #expect(try lock.snapshot().state == .unlocked)
    }

    @Test func aCancelBeforeTheAnswerMeansItUnlocksNothing() async throws {
        let (lock, keystore, _) = try await lockedWithShortcut()
        let request = try lock.beginBiometricUnlock()
        #expect(request.cancel() == true)
        #expect(request.isFinished)
        let check = Task { try await keystore.loadSecret(reason: nil) }
        try await keystore.waitForCheck()
        keystore.answer()
        let late = try await check.value
        #expect {
            try request.finish(secret: late)
        } throws: { error in
            if case IdleLockError.invalidArgument = error { return true }
            return false
        }
        #expect(try lock.snapshot().state == .locked)
    }

    @Test func anEnableRequestHandsOutTheSecretAndWipesIt() async throws {
        let clock = TestClock()
        let lock = try await engagedHandle(clock)
        let request = try lock.beginBiometricEnable()
        let secret = try #require(request.secret)
        #expect(secret.count == 32 && !isZero(secret))
        let kept = secret.withUnsafeBytes { SecretBytes(copying: $0) }
        try request.finish()
        #expect(isZero(secret))
        #expect(try lock.snapshot().isBiometricsEnabled)
        // An unlock through the pair with the kept secret.
        try lock.lock()
        try lock.beginBiometricUnlock().finish(secret: kept)
        #expect(try lock.snapshot().state == .unlocked)
    }

    @Test func aRequestDroppedOpenIsCancelled() async throws {
        let (lock, _, _) = try await lockedWithShortcut()
        for _ in 0..<20 {
            _ = try lock.beginBiometricUnlock()  // freed at once: cancelled, so never 8 open
        }
    }

    @Test func anUnavailableAuthenticatorCannotEnable() async throws {
        let clock = TestClock()
        let keystore = ManualAuthenticator()
        keystore.available.withLock { $0 = false }
        let lock = try await engagedHandle(clock, authenticator: keystore)
        await #expect {
            try await lock.enableBiometrics()
        } throws: { error in
            if case IdleLockError.lockUnavailable = error { return true }
            return false
        }
        #expect(!keystore.hasItem)
    }
}
