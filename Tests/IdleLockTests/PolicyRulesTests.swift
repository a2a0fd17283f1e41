// SPDX-License-Identifier: MIT
// The passcode policies, the last authentication and the biometric
// request's life (1.2) as values: PasscodePolicy and LockRules with no
// clock, no store and no thread.

import Testing
@testable import IdleLock

private let hour: Int64 = 3_600_000

private func rules(afterReboot: Bool = false, maxAge: Int64 = 0, maxUses: Int32 = 0,
                   promptCap: Int64 = 120_000, engaged: Bool = true) -> LockRules {
    var r = LockRules(timeouts: Timeouts(idle: 60 * hour, background: 60 * hour, inactive: 0, grace: 1_500,
                                         promptCap: promptCap),
                      lockOnStart: false, maxAttempts: 5, now: 0,
                      policy: PasscodePolicySettings(afterReboot: afterReboot, maxAge: maxAge, biometricMaxUses: maxUses))
    if engaged { r.passcodeSet(now: 0) }
    return r
}

/// A locked session unlocked at `now` by `credential`: `expected` is what
/// the rules answer (a biometric success a policy refuses changes nothing).
private func unlock(_ r: inout LockRules, by credential: Credential, now: Int64,
                    expected: AttemptOutcome = .unlocked) {
    r.lockNow(now: now)
    guard case .check(let ticket) = r.beginAttempt(now: now) else {
        Issue.record("the attempt was refused")
        return
    }
    #expect(r.finishAttempt(ticket, right: true, now: now, by: credential) == expected)
}

@Suite("Passcode policies (rules)")
struct PasscodePolicyRulesTests {
    /// Regression (issue 13's review): two handles on one store each judged
    /// biometric_max_uses at what they had read, and both unlocked. The
    /// rules judge the policies again when a biometric success is applied,
    /// after the store's count was adopted under its lock.
    @Test func aBiometricSuccessIsJudgedAgainWhenApplied() {
        var r = rules(maxUses: 1)
        r.lockNow(now: 1_000)
        let ticket = AttemptTicket(epoch: r.lockEpoch, generation: r.passcodeGeneration)
        // Another process's biometric unlock, read under the store lock.
        r.adoptPasscodeRecord(enteredAt: 0, sameBoot: true, biometricUses: 1)
        #expect(r.finishAttempt(ticket, right: true, now: 1_000, by: .biometric) == .passcodeRequired(.biometricUses))
        #expect(r.state == .locked)
        #expect(r.finishAttempt(ticket, right: true, now: 1_000, by: .passcode) == .unlocked)
    }

    @Test func everyPolicyIsOffByDefault() {
        var r = rules()
        for _ in 0..<50 { unlock(&r, by: .biometric, now: 1_000) }
        #expect(!r.isPasscodeRequired(now: 1_000_000 * hour))
        #expect(r.passcodeDemand(now: 1_000_000 * hour) == nil)
        r.adoptPasscodeRecord(enteredAt: 0, sameBoot: false, biometricUses: 1_000)
        #expect(!r.isPasscodeRequired(now: 0), "with no policy on, nothing asks for the passcode")
    }

    @Test func notEngagedNeverRequiresThePasscode() {
        let r = rules(afterReboot: true, maxAge: hour, maxUses: 1, engaged: false)
        #expect(!r.isPasscodeRequired(now: 0))
        #expect(r.passcodeDemand(now: 0) == nil)
    }

    @Test func maxAgeCountsFromTheLastPasscodeEntry() {
        var r = rules(maxAge: hour)
        #expect(!r.isPasscodeRequired(now: hour - 1))
        #expect(r.isPasscodeRequired(now: hour), "elapsed >= passcode_max_age_ms")
        #expect(r.passcodeDemand(now: hour) == .tooOld)
        unlock(&r, by: .biometric, now: hour + 5, expected: .passcodeRequired(.tooOld))
        #expect(r.state == .locked && r.isPasscodeRequired(now: hour + 5), "the shortcut is refused, and is no entry")
        unlock(&r, by: .passcode, now: hour + 10)
        #expect(!r.isPasscodeRequired(now: hour + 10))
        #expect(r.isPasscodeRequired(now: 2 * hour + 10))
    }

    @Test func theAgeIsADeadlineForTheHostsTimer() {
        var r = rules(maxAge: hour)
        #expect(r.msUntilNextDeadline(now: 1_000) == hour - 1_000)
        r.lockNow(now: 2_000)
        #expect(r.msUntilNextDeadline(now: 2_000) == hour - 2_000, "also while locked: the lock screen changes")
        #expect(r.msUntilNextDeadline(now: hour) == Int64.max, "once required, nothing further")
    }

    @Test func aClockStepMakesTheEntryTooOld() {
        var r = rules(maxAge: hour)
        r.touch(now: 10_000)
        unlock(&r, by: .passcode, now: 20_000)
        r.check(now: 5_000) // the clock reads earlier than the entry
        #expect(r.state == .locked && r.reason == .clock)
        #expect(r.isPasscodeRequired(now: 5_000))
        #expect(r.isPasscodeRequired(now: 30_000), "back past the entry: still unknown on this timeline")
        #expect(r.passcodeDemand(now: 30_000) == .tooOld)
    }

    @Test func afterRebootAsksUntilThePasscodeIsEnteredInThisBoot() {
        var r = rules(afterReboot: true)
        #expect(!r.isPasscodeRequired(now: 0), "a new passcode is an entry in this boot")
        r.adoptPasscodeRecord(enteredAt: 0, sameBoot: false, biometricUses: 0)
        #expect(r.isPasscodeRequired(now: 1))
        #expect(r.passcodeDemand(now: 1) == .afterReboot)
        unlock(&r, by: .biometric, now: 2, expected: .passcodeRequired(.afterReboot))
        #expect(r.state == .locked && r.isPasscodeRequired(now: 2))
        unlock(&r, by: .passcode, now: 3)
        #expect(!r.isPasscodeRequired(now: 3))
        // A clock step is not a reboot.
        r.check(now: 1)
        #expect(!r.isPasscodeRequired(now: 1))
    }

    @Test func biometricUsesCountInARowUntilThePasscode() {
        var r = rules(maxUses: 2)
        unlock(&r, by: .biometric, now: 1)
        #expect(!r.isPasscodeRequired(now: 1))
        unlock(&r, by: .biometric, now: 2)
        #expect(r.isPasscodeRequired(now: 2))
        #expect(r.passcodeDemand(now: 2) == .biometricUses)
        unlock(&r, by: .biometric, now: 2, expected: .passcodeRequired(.biometricUses))
        #expect(r.state == .locked && r.passcodePolicy.biometricUses == 2)
        unlock(&r, by: .passcode, now: 3)
        #expect(!r.isPasscodeRequired(now: 3))
        #expect(r.passcodePolicy.biometricUses == 0)
    }

    @Test func theCountSaturatesAndAStoreValueIsClamped() {
        var p = PasscodePolicy(PasscodePolicySettings(biometricMaxUses: 1_000))
        p.passcodeEntered(now: 0)
        for _ in 0..<1_200 { p.biometricUsed() }
        #expect(p.biometricUses == 1_000)
        p.adopt(enteredAt: 0, sameBoot: true, biometricUses: Int32.max, latest: 0)
        #expect(p.biometricUses == 1_000)
        p.adopt(enteredAt: 0, sameBoot: true, biometricUses: -4, latest: 0)
        #expect(p.biometricUses == 0)
    }

    @Test func anEntryLaterThanThisHandlesClockIsUnknownUntilTheNextEntry() {
        var p = PasscodePolicy(PasscodePolicySettings(maxAge: hour))
        p.adopt(enteredAt: 5_000, sameBoot: true, biometricUses: 0, latest: 4_999)
        #expect(p.enteredAt == nil && p.requiresPasscode(now: 5_000))
        // Regression (found by the model extended for issue 13): read again
        // once the clock had passed it, the same entry was trusted.
        p.adopt(enteredAt: 5_000, sameBoot: true, biometricUses: 0, latest: 5_000)
        #expect(p.enteredAt == nil && p.requiresPasscode(now: 5_000), "a step seen once counts")
        p.adopt(enteredAt: 6_000, sameBoot: true, biometricUses: 0, latest: 7_000)
        #expect(p.enteredAt == 6_000 && !p.requiresPasscode(now: 7_000), "the next entry is known")
        p.adopt(enteredAt: 6_000, sameBoot: false, biometricUses: 0, latest: 9_000)
        #expect(p.enteredAt == nil && p.requiresPasscode(now: 9_000), "another boot's reading")
    }

    /// Regression (found by the model extended for issue 13): "no policy
    /// asks" was the moment INT64_MAX, and an entry's end past INT64_MAX was
    /// saturated to it, so at the reading INT64_MAX the passcode was
    /// required with every policy off, and 0 ms after an entry there.
    @Test func theLastReadingOfTheClockIsJudgedExactly() {
        var off = rules()
        #expect(!off.isPasscodeRequired(now: Int64.max))
        #expect(off.passcodeDemand(now: Int64.max) == nil)
        off.check(now: Int64.max)
        #expect(off.msUntilNextDeadline(now: Int64.max) == Millis.never)

        var p = PasscodePolicy(PasscodePolicySettings(maxAge: hour))
        p.passcodeEntered(now: Int64.max)
        #expect(!p.requiresPasscode(now: Int64.max), "0 ms after the entry")
        p.passcodeEntered(now: Int64.max - hour)
        #expect(!p.requiresPasscode(now: Int64.max - 1))
        #expect(p.requiresPasscode(now: Int64.max), "elapsed == passcode_max_age_ms has passed")
    }

    @Test func anEntryAClockStepMadeUnknownStaysUnknownWhenReadBack() {
        var p = PasscodePolicy(PasscodePolicySettings(maxAge: hour))
        p.passcodeEntered(now: 20_000)
        p.clockStepped()
        #expect(p.requiresPasscode(now: 25_000))
        p.adopt(enteredAt: 20_000, sameBoot: true, biometricUses: 0, latest: 25_000)
        #expect(p.enteredAt == nil && p.requiresPasscode(now: 25_000), "the store's copy is no better")
        p.adopt(enteredAt: 22_000, sameBoot: true, biometricUses: 0, latest: 25_000)
        #expect(p.enteredAt == nil, "until the step is told to the store, any entry read is one it makes unknown")
        p.stepTold() // the end of the transaction that saw the step (HandleStore.saveLockIfNeeded)
        p.adopt(enteredAt: 30_000, sameBoot: true, biometricUses: 0, latest: 31_000)
        #expect(p.enteredAt == 30_000, "a later entry (another process's) is known")
        p.passcodeEntered(now: 40_000)
        p.adopt(enteredAt: 40_000, sameBoot: true, biometricUses: 0, latest: 40_000)
        #expect(p.enteredAt == 40_000)
    }

    @Test func aSignOutForgetsEverything() {
        var r = rules(maxUses: 1)
        unlock(&r, by: .biometric, now: 1)
        #expect(r.isPasscodeRequired(now: 1) && r.lastAuthentication == 1)
        r.disengage()
        #expect(!r.isPasscodeRequired(now: 1) && r.lastAuthentication == Int64.max)
        r.passcodeSet(now: 2)
        #expect(!r.isPasscodeRequired(now: 2) && r.passcodePolicy.biometricUses == 0)
    }
}

@Suite("Last authentication and step-up (rules)")
struct StepUpRulesTests {
    @Test func aNewPasscodeIsNoAuthentication() {
        let r = rules()
        #expect(r.lastAuthentication == Int64.max)
        #expect(!r.authenticated(within: 1, now: 0))
    }

    @Test func everySuccessfulUnlockIsOneAndTheBoundIsInclusive() {
        var r = rules()
        unlock(&r, by: .passcode, now: 1_000)
        #expect(r.lastAuthentication == 1_000)
        #expect(r.authenticated(within: 500, now: 1_500), "exactly max_age_ms old")
        #expect(!r.authenticated(within: 500, now: 1_501))
        unlock(&r, by: .biometric, now: 2_000)
        #expect(r.lastAuthentication == 2_000)
        // A re-authentication of the unlocked session counts too.
        guard case .check(let ticket) = r.beginAttempt(now: 3_000) else { return }
        #expect(r.finishAttempt(ticket, right: true, now: 3_000) == .unlocked)
        #expect(r.lastAuthentication == 3_000)
    }

    @Test func wrongOrOvertakenAttemptsAreNone() {
        var r = rules()
        r.lockNow(now: 10)
        guard case .check(let wrong) = r.beginAttempt(now: 20) else { return }
        _ = r.finishAttempt(wrong, right: false, now: 20)
        guard case .check(let overtaken) = r.beginAttempt(now: 30) else { return }
        r.disengage()
        r.passcodeSet(now: 31)
        r.lockNow(now: 32)
        #expect(r.finishAttempt(overtaken, right: true, now: 33) == .void)
        #expect(r.lastAuthentication == Int64.max)
    }

    @Test func aClockStepForgetsIt() {
        var r = rules()
        unlock(&r, by: .passcode, now: 1_000)
        r.check(now: 900)
        #expect(r.lastAuthentication == Int64.max)
        #expect(!r.authenticated(within: 2_592_000_000, now: 2_000))
    }
}

@Suite("Biometric requests (rules)")
struct BiometricRequestRulesTests {
    @Test func aRequestLivesPromptCapMs() {
        var r = rules(promptCap: 30_000)
        r.check(now: 1_000)
        let steps = r.clockSteps
        #expect(!r.requestExpired(openedAt: 1_000, steps: steps, now: 30_999))
        #expect(r.requestExpired(openedAt: 1_000, steps: steps, now: 31_000), "elapsed >= prompt_cap_ms")
        #expect(r.requestExpired(openedAt: 1_000, steps: steps, now: 999), "a clock step back expires it")
        r.check(now: 5_000)
        r.check(now: 2_000) // a step back, seen by another call, that stays after the opening
        #expect(r.clockSteps == steps &+ 1)
        #expect(r.requestExpired(openedAt: 1_000, steps: steps, now: 5_001), "a step seen since expires it")
        #expect(!r.requestExpired(openedAt: 2_000, steps: r.clockSteps, now: 5_001))
    }

    @Test func aDiscardedPromptLeavesNoGraceWindow() {
        func absenceUnder(voided: Bool) -> LockRules {
            var r = LockRules(timeouts: Timeouts(idle: 60 * hour, background: 3_000, inactive: 0, grace: 1_500),
                              lockOnStart: false, maxAttempts: 5, now: 0)
            r.passcodeSet(now: 0)
            let prompt = r.openPrompt(now: 1_000)
            r.depart(now: 2_000, toBackground: true)
            r.check(now: 4_000)
            if voided { r.discardPrompt(prompt) } else { r.closePrompt(prompt, now: 4_000) }
            #expect(!r.hasPrompt(prompt))
            r.foreground(now: 5_500)
            return r
        }
        // Ended: back within its end + grace_ms is presence.
        let ended = absenceUnder(voided: false)
        #expect(ended.state == .unlocked && ended.lastActivity == 5_500)
        // Voided: judged from the real departure (3.5 s >= 3 s).
        let voided = absenceUnder(voided: true)
        #expect(voided.state == .locked && voided.reason == .backgrounded)
    }
}
