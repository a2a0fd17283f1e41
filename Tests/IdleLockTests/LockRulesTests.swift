// SPDX-License-Identifier: MIT
// The decision rules of the header ("Events and the decision rules", "Passcode"; docs/RULES.md), as values: every numbered step and every
// boundary (elapsed == timeout, away == grace, grace 0, IDLELOCK_NEVER).

import Testing
@testable import IdleLock

private let never = Int64.max

private func rules(idle: Int64 = 60_000, background: Int64 = 10_000, inactive: Int64 = 30_000,
                   grace: Int64 = 1_500, lockOnStart: Bool = false, maxAttempts: Int32 = 5,
                   engaged: Bool = true, now: Int64 = 0) -> LockRules {
    var r = LockRules(timeouts: Timeouts(idle: idle, background: background, inactive: inactive, grace: grace),
                      lockOnStart: lockOnStart, maxAttempts: maxAttempts, now: now)
    if engaged { r.passcodeSet(now: now) }
    return r
}

private func expectUnlocked(_ r: LockRules, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(r.state == .unlocked, sourceLocation: sourceLocation)
    #expect(r.reason == .none, sourceLocation: sourceLocation)
}

private func expectLocked(_ r: LockRules, _ reason: LockReason, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(r.state == .locked, sourceLocation: sourceLocation)
    #expect(r.reason == reason, sourceLocation: sourceLocation)
}

@Suite("Idle timeout")
struct IdleTimeoutTests {
    @Test func locksExactlyAtTheTimeout() {
        var r = rules()
        r.check(now: 59_999)
        expectUnlocked(r)
        r.check(now: 60_000)
        expectLocked(r, .idle)
    }

    @Test func touchMovesTheDeadline() {
        var r = rules()
        r.touch(now: 50_000)
        r.check(now: 109_999)
        expectUnlocked(r)
        #expect(r.lastActivity == 50_000)
        r.touch(now: 110_000)
        expectLocked(r, .idle)
        #expect(r.lastActivity == 50_000, "a touch that finds the deadline due is not activity")
    }

    @Test func neverTimeoutNeverPasses() {
        var r = rules(idle: never, background: 5_000)
        r.check(now: Int64.max - 1)
        expectUnlocked(r)
        #expect(r.msUntilIdleLock(now: 1_000) == never)
    }

    @Test func nothingJudgedWhileNotEngaged() {
        var r = rules(engaged: false)
        r.check(now: 1_000_000)
        expectUnlocked(r)
        r.lockNow(now: 1_000_001)
        expectUnlocked(r)
        #expect(r.msUntilIdleLock(now: 0) == never)
    }

    @Test func touchWhileLockedIsNotActivity() {
        var r = rules()
        r.lockNow(now: 100)
        r.touch(now: 200)
        #expect(r.lastActivity == 0)
        expectLocked(r, .manual)
    }

    /// Regression: activity later than the reading (a touch on another
    /// thread during a key derivation, judged at the call's entry) gave
    /// more than a whole timeout.
    @Test func msUntilIdleLockNeverExceedsTheTimeout() {
        var r = rules()
        r.touch(now: 5_000)
        #expect(r.msUntilIdleLock(now: 1_000) == 60_000)
    }

    @Test func msUntilIdleLockCountsDownToZero() {
        let r = rules()
        #expect(r.msUntilIdleLock(now: 0) == 60_000)
        #expect(r.msUntilIdleLock(now: 59_999) == 1)
        #expect(r.msUntilIdleLock(now: 60_000) == 0)
        #expect(r.msUntilIdleLock(now: 90_000) == 0)
        var locked = r
        locked.lockNow(now: 1)
        #expect(locked.msUntilIdleLock(now: 1) == never)
    }
}

@Suite("Departures and returns")
struct DepartureTests {
    @Test func firstDepartureWinsAndBackgroundIsRemembered() {
        var r = rules()
        r.inactive(now: 1_000)
        r.depart(now: 2_000, toBackground: true)
        #expect(r.departure == 1_000)
        #expect(r.reachedBackground)
        #expect(r.isAway)
    }

    @Test func departureRecordedInEveryState() {
        var r = rules()
        r.lockNow(now: 10)
        r.depart(now: 20, toBackground: true)
        #expect(r.departure == 20)
        r.foreground(now: 30)
        #expect(!r.isAway)
        expectLocked(r, .manual)
    }

    @Test func idleLockOnTheWayOut() {
        var r = rules()
        r.depart(now: 60_000, toBackground: false)
        expectLocked(r, .idle)
        #expect(r.isAway)
    }

    @Test func rule1StrayForegroundJudgesIdleOnly() {
        var r = rules()
        r.foreground(now: 30_000)
        expectUnlocked(r)
        #expect(r.lastActivity == 0, "a stray foreground is not activity")
        r.foreground(now: 60_000)
        expectLocked(r, .idle)
    }

    @Test func rule2WithinGraceIsPresence() {
        var r = rules(background: 0)
        r.depart(now: 10_000, toBackground: true)
        r.foreground(now: 11_500) // away == grace
        expectUnlocked(r)
        #expect(r.lastActivity == 11_500)
        #expect(!r.isAway)
    }

    @Test func rule2OneMillisecondPastGraceLocksWithBackgroundZero() {
        var r = rules(background: 0)
        r.depart(now: 10_000, toBackground: true)
        r.foreground(now: 11_501)
        expectLocked(r, .backgrounded)
    }

    @Test func graceZeroStillAllowsAZeroLengthAbsence() {
        var r = rules(background: 0, grace: 0)
        r.depart(now: 5, toBackground: true)
        r.foreground(now: 5)
        expectUnlocked(r)
        r.depart(now: 6, toBackground: true)
        r.foreground(now: 7)
        expectLocked(r, .backgrounded)
    }

    @Test func rule3BackgroundTimeoutIsInclusive() {
        var r = rules(background: 10_000)
        r.depart(now: 1_000, toBackground: true)
        r.foreground(now: 10_999)
        expectUnlocked(r)
        var s = rules(background: 10_000)
        s.depart(now: 1_000, toBackground: true)
        s.foreground(now: 11_000)
        expectLocked(s, .backgrounded)
    }

    @Test func rule3InactiveOnlyAbsenceUsesTheLongerTimeout() {
        // background 10 s, inactive 30 s: an absence that never reached the
        // background gets 30 s.
        var r = rules(background: 10_000, inactive: 30_000)
        r.depart(now: 0, toBackground: false)
        r.foreground(now: 29_999)
        expectUnlocked(r)
        #expect(r.lastActivity == 0, "rule 5: last activity unchanged")
        var s = rules(background: 10_000, inactive: 30_000)
        s.depart(now: 0, toBackground: false)
        s.foreground(now: 30_000)
        expectLocked(s, .backgrounded)
        // The same absence once it reached the background: 10 s.
        var t = rules(background: 10_000, inactive: 30_000)
        t.depart(now: 0, toBackground: false)
        t.depart(now: 500, toBackground: true)
        t.foreground(now: 10_000)
        expectLocked(t, .backgrounded)
    }

    @Test func rule3BackgroundLongerThanInactiveWins() {
        var r = rules(background: 40_000, inactive: 30_000)
        r.depart(now: 0, toBackground: false)
        r.foreground(now: 39_999)
        expectUnlocked(r)
    }

    @Test func rule4IdleAfterAShortAbsence() {
        var r = rules(idle: 60_000, background: 30_000)
        r.touch(now: 0)
        r.depart(now: 50_000, toBackground: true)
        r.foreground(now: 60_000) // away 10 s < 30 s, idle 60 s passed
        expectLocked(r, .idle)
    }

    @Test func checkWhileAwayWithinGraceDoesNothing() {
        var r = rules(idle: 10_000, background: 10_000)
        r.depart(now: 9_000, toBackground: true)
        r.check(now: 10_500) // idle passed, but away 1.5 s == grace
        expectUnlocked(r)
        r.check(now: 10_501)
        expectLocked(r, .idle)
    }

    @Test func checkWhileAwaySealsWithoutWaitingForTheReturn() {
        var r = rules(idle: 60_000, background: 5_000)
        r.depart(now: 1_000, toBackground: true)
        r.check(now: 5_999)
        expectUnlocked(r)
        r.check(now: 6_000)
        expectLocked(r, .backgrounded)
    }

    @Test func backgroundNeverMeansOnlyIdleApplies() {
        var r = rules(idle: 60_000, background: never, inactive: 30_000)
        r.depart(now: 0, toBackground: true)
        r.foreground(now: 59_999)
        expectUnlocked(r)
        r.depart(now: 59_999, toBackground: true)
        r.foreground(now: 60_000 + 2_000)
        expectLocked(r, .idle)
    }

    @Test func unlockWhileAwayRestartsTheAbsence() {
        var r = rules()
        r.depart(now: 0, toBackground: true)
        r.check(now: 20_000)
        expectLocked(r, .backgrounded)
        guard case .check(let ticket) = r.beginAttempt(now: 0) else { Issue.record("not counted"); return }
        #expect(r.finishAttempt(ticket, right: true, now: 25_000) == .unlocked)
        #expect(r.departure == 25_000)
        #expect(r.reachedBackground)
        r.foreground(now: 26_000)
        expectUnlocked(r)
    }
}

@Suite("Clock steps, manual lock, start")
struct ClockAndStartTests {
    @Test func clockBackwardsLocksAnEngagedSession() {
        var r = rules(now: 10_000)
        r.touch(now: 9_999)
        expectLocked(r, .clock)
    }

    @Test func clockBackwardsAgainstTheDeparture() {
        var r = rules(now: 0)
        r.depart(now: 5_000, toBackground: true)
        r.foreground(now: 4_000)
        expectLocked(r, .clock)
    }

    @Test func clockBackwardsBeforeAPasscodeResetsTheBookkeeping() {
        var r = rules(engaged: false, now: 10_000)
        r.depart(now: 12_000, toBackground: true)
        r.check(now: 3_000)
        expectUnlocked(r)
        #expect(r.lastActivity == 3_000)
        #expect(r.departure == 3_000)
    }

    /// Regression (issue 11, finding 10): a step back that landed after
    /// the last activity and the departure was not seen, and extended the
    /// session by the step (58 s in the review). A step is now judged
    /// against the latest reading too.
    @Test func aStepBackThatLandsAfterTheLastActivityLocks() {
        var r = rules(now: 0)
        r.check(now: 59_000) // the latest reading: 59 s idle
        r.check(now: 1_000)  // 58 s back: after the last activity (0)
        expectLocked(r, .clock)
        #expect(r.pendingLock(now: 1_000) == nil, "locked")
        var away = rules(now: 0)
        away.depart(now: 1_000, toBackground: true)
        away.check(now: 9_000)
        away.check(now: 2_000) // after the departure, before the latest reading
        expectLocked(away, .clock)
    }

    /// A step is seen once: after it, the new timeline is the latest
    /// reading, so a session unlocked on it is not locked again.
    @Test func aStepIsJudgedOnceAgainstTheLatestReading() {
        var r = rules(now: 0)
        r.check(now: 50_000)
        r.check(now: 10_000)
        expectLocked(r, .clock)
        guard case .check(let ticket) = r.beginAttempt(now: 10_001) else { Issue.record("not counted"); return }
        #expect(r.finishAttempt(ticket, right: true, now: 10_001) == .unlocked)
        r.touch(now: 10_002)
        expectUnlocked(r)
        #expect(r.msUntilNextDeadline(now: 10_002) == 60_000)
        // The next deadline reports a step it has not judged yet.
        #expect(r.pendingLock(now: 10_001) == .clock)
        #expect(r.msUntilNextDeadline(now: 10_001) == 0)
    }

    @Test func aStepBackBeforeAPasscodeOnlyRestartsTheBookkeeping() {
        var r = rules(engaged: false, now: 0)
        r.check(now: 50_000)
        r.check(now: 20_000)
        expectUnlocked(r)
        #expect(r.lastActivity == 20_000)
    }

    @Test func clockStepNeverOverwritesALock() {
        var r = rules(now: 10_000)
        r.lockNow(now: 10_000)
        r.check(now: 1)
        expectLocked(r, .manual)
    }

    @Test func locksNeverOverwriteEachOther() {
        var r = rules(lockOnStart: true)
        r.check(now: 60_000)
        expectLocked(r, .idle)
        r.lockNow(now: 60_001)
        r.start(now: 60_002)
        r.depart(now: 60_003, toBackground: true)
        r.foreground(now: 999_999)
        expectLocked(r, .idle)
    }

    @Test func manualLock() {
        var r = rules()
        r.lockNow(now: 5)
        expectLocked(r, .manual)
    }

    @Test func lockOnStartOnlyOnTheFirstStart() {
        var r = rules(lockOnStart: true)
        r.start(now: 1)
        expectLocked(r, .startup)
        guard case .check(let ticket) = r.beginAttempt(now: 0) else { Issue.record("not counted"); return }
        _ = r.finishAttempt(ticket, right: true, now: 2)
        r.start(now: 3)
        expectUnlocked(r)
    }

    @Test func lockOnStartNeedsAPasscode() {
        var r = rules(lockOnStart: true, engaged: false)
        r.start(now: 1)
        expectUnlocked(r)
        r.passcodeSet(now: 2)
        r.start(now: 3)
        expectUnlocked(r) // only the first start applies lock_on_start
    }

    @Test func lockOnStartOff() {
        var r = rules(lockOnStart: false)
        r.start(now: 1)
        expectUnlocked(r)
    }

    @Test func saturatingArithmeticNeverWraps() {
        var r = rules(idle: 1_000, now: Int64.min)
        #expect(r.msUntilIdleLock(now: Int64.max) == 0)
        r.check(now: Int64.max)
        expectLocked(r, .idle)
        #expect(Millis.elapsed(from: Int64.min, to: Int64.max) == Int64.max)
        #expect(Millis.elapsed(from: Int64.max, to: Int64.min) == Int64.min)
        #expect(!Millis.hasPassed(Int64.max, Int64.max))
    }
}

@Suite("Attempts and lockout")
struct AttemptTests {
    private func attempt(_ r: inout LockRules, right: Bool, now: Int64 = 0) -> AttemptOutcome? {
        guard case .check(let t) = r.beginAttempt(now: 0) else { return nil }
        return r.finishAttempt(t, right: right, now: now)
    }

    @Test func wrongAttemptsCountDownToLockout() {
        var r = rules(maxAttempts: 3)
        r.lockNow(now: 0)
        #expect(attempt(&r, right: false) == .wrong(remaining: 2))
        #expect(r.attemptsRemaining == 2)
        #expect(attempt(&r, right: false) == .wrong(remaining: 1))
        #expect(attempt(&r, right: false) == .lockedOut)
        #expect(r.state == .lockedOut)
        #expect(r.reason == .manual, "LOCKED_OUT keeps the reason it came from")
        #expect(r.attemptsRemaining == 0)
        #expect(r.failedAttempts == r.maxAttempts)
        #expect(r.beginAttempt(now: 0) == .lockedOut)
        #expect(r.failedAttempts == 3, "the count never exceeds max_attempts")
    }

    @Test func lockoutFromUnlockedHasReasonNone() {
        var r = rules(maxAttempts: 1)
        #expect(attempt(&r, right: false) == .lockedOut)
        #expect(r.state == .lockedOut)
        #expect(r.reason == .none)
    }

    @Test func rightAttemptResetsTheCountAndUnlocks() {
        var r = rules()
        r.lockNow(now: 0)
        _ = attempt(&r, right: false)
        #expect(attempt(&r, right: true, now: 42) == .unlocked)
        expectUnlocked(r)
        #expect(r.attemptsRemaining == 5)
        #expect(r.lastActivity == 42)
    }

    @Test func reauthenticationOnAnUnlockedSessionStillCounts() {
        var r = rules()
        #expect(attempt(&r, right: false) == .wrong(remaining: 4))
        #expect(r.state == .unlocked)
    }

    @Test func aLockDuringTheCheckWins() {
        var r = rules()
        guard case .check(let t) = r.beginAttempt(now: 0) else { Issue.record("not counted"); return }
        r.lockNow(now: 1)
        #expect(r.finishAttempt(t, right: true, now: 0) == .overtaken)
        expectLocked(r, .manual)
        #expect(r.attemptsRemaining == 5, "a right passcode still resets the count")
    }

    @Test func disengageDuringTheCheckVoidsIt() {
        var r = rules()
        r.lockNow(now: 0)
        guard case .check(let t) = r.beginAttempt(now: 0) else { Issue.record("not counted"); return }
        r.disengage()
        #expect(r.finishAttempt(t, right: false, now: 0) == .void)
        #expect(!r.engaged)
        expectUnlocked(r)
        #expect(r.attemptsRemaining == 5)
    }

    @Test func aNewPasscodeDuringTheCheckVoidsIt() {
        var r = rules()
        guard case .check(let t) = r.beginAttempt(now: 0) else { Issue.record("not counted"); return }
        r.passcodeSet(now: 1)
        #expect(r.finishAttempt(t, right: true, now: 0) == .void)
    }

    @Test func disengageLeavesLockout() {
        var r = rules(maxAttempts: 1)
        r.lockNow(now: 0)
        _ = attempt(&r, right: false)
        #expect(r.state == .lockedOut)
        r.disengage()
        expectUnlocked(r)
        #expect(!r.engaged)
        #expect(r.attemptsRemaining == 1)
    }
}

private extension LockRules {
    mutating func inactive(now: Int64) { depart(now: now, toBackground: false) }
}
