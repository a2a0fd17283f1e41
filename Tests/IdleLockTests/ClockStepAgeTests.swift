// SPDX-License-Identifier: MIT
// Clock steps make ages unknown (issue 19, finding 4; header "Events and
// the decision rules", docs/RULES.md "Clock steps"): every age the library
// measures on the handle's clock (passcode_max_age_ms, the step-up window,
// an escalating delay) gives the strict answer after a step in either
// direction the handle detects, and a step never re-opens what an age had
// closed. Through the C ABI on a fake clock, and with the store (the step
// is told to every process of the sign-in).

import CIdleLock
import Foundation
import Testing
@testable import IdleLock

private let hour: Int64 = 3_600_000
private let minute: Int64 = 60_000

private func fileBytes(_ path: String) -> [UInt8] {
    (try? [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))) ?? []
}

/// The store's passcode_entered_at (docs/STORE_FORMAT.md, offset 408).
private func storedEntry(_ path: String) -> Int64 {
    let bytes = fileBytes(path)
    guard bytes.count > 416 else { return 0 }
    return bytes[408..<416].reversed().reduce(Int64(0)) { $0 << 8 | Int64($1) }
}

@Suite("Clock steps make ages unknown")
struct ClockStepAgeTests {
    /// Regression (issue 19, finding 4): with passcode_max_age_ms 1 h the
    /// shortcut closed at 1 h; a step back to a reading still after the
    /// entry dropped is_passcode_required to 0 and a biometric unlock went
    /// through on the same handle.
    @Test func aStepBackNeverReopensAPasscodeAgeOnALockedSession() {
        let l = PairLock(clock: FakeClock(10 * hour), maxAge: hour)
        l.setPasscode()
        l.enable()
        l.lock()
        l.clock.advance(hour)
        #expect(l.snapshot().is_passcode_required == 1, "the age has closed the shortcut")
        l.clock.now.pointee = 10 * hour + 30 * minute // back, still after the entry
        let s = l.snapshot()
        #expect(s.is_passcode_required == 1, "a step back re-opened passcode_max_age_ms")
        #expect(l.pairUnlock() == IDLELOCK_ERR_LOCK_UNAVAILABLE)
        #expect(l.snapshot().state == IDLELOCK_STATE_LOCKED)
        l.clock.advance(10 * minute)
        #expect(l.snapshot().is_passcode_required == 1, "unknown until the passcode is entered again")
        #expect(l.unlock() == 0)
        #expect(l.snapshot().is_passcode_required == 0, "the next entry is known")
    }

    /// The same on an unlocked session: the step locks (CLOCK), and the
    /// biometric unlock after it is refused (before the fix it went
    /// through).
    @Test func aStepBackLocksAnUnlockedSessionAndKeepsTheShortcutClosed() {
        let l = PairLock(clock: FakeClock(10 * hour), maxAge: hour, idle: 10 * hour)
        l.setPasscode()
        l.enable()
        l.clock.advance(hour)
        var s = l.snapshot()
        #expect(s.state == IDLELOCK_STATE_UNLOCKED && s.is_passcode_required == 1)
        l.clock.advance(-30 * minute)
        s = l.snapshot()
        #expect(s.state == IDLELOCK_STATE_LOCKED && s.reason == IDLELOCK_REASON_CLOCK)
        #expect(s.is_passcode_required == 1)
        #expect(l.pairUnlock() == IDLELOCK_ERR_LOCK_UNAVAILABLE)
        #expect(l.snapshot().state == IDLELOCK_STATE_LOCKED)
    }

    /// A step back to after the entry, before the age had closed, makes the
    /// entry's age unknown too (it would otherwise look younger than it is).
    @Test func anyStepMakesTheEntryTooOld() {
        let l = PairLock(clock: FakeClock(10 * hour), maxAge: hour)
        l.setPasscode()
        l.enable()
        l.lock()
        l.clock.advance(20 * minute)
        #expect(l.snapshot().is_passcode_required == 0)
        l.clock.advance(-10 * minute)
        #expect(l.snapshot().is_passcode_required == 1, "the entry's age is unknown after a step")
        #expect(l.pairUnlock() == IDLELOCK_ERR_LOCK_UNAVAILABLE)
    }

    /// Regression (issue 19, finding 4, the step-up window): a step back
    /// that landed after the last authentication kept it (last_auth_ms),
    /// as if the time since it were known. Every step forgets it: an
    /// unlocked session locks (CLOCK) and step-up asks again after the next
    /// unlock; a locked one shows last_auth_ms IDLELOCK_NEVER.
    @Test func aStepForgetsTheLastAuthentication() {
        let l = PairLock(clock: FakeClock(10 * hour), idle: 10 * hour)
        l.setPasscode()
        l.lock()
        #expect(l.unlock() == 0) // the authentication, at 10 h
        l.clock.advance(10 * minute)
        #expect(idlelock_require_recent_auth(l.handle, 5 * minute) == IDLELOCK_ERR_REAUTH_REQUIRED)
        l.clock.advance(-9 * minute) // 1 min after the authentication
        #expect(idlelock_require_recent_auth(l.handle, 5 * minute) == IDLELOCK_ERR_SESSION_LOCKED)
        var s = l.snapshot()
        #expect(s.state == IDLELOCK_STATE_LOCKED && s.reason == IDLELOCK_REASON_CLOCK)
        #expect(s.last_auth_ms == Int64.max)
        // The same on a locked session, which a step does not lock again.
        #expect(l.unlock() == 0)
        l.lock()
        l.clock.advance(10 * minute)
        #expect(l.snapshot().last_auth_ms == l.clock.now.pointee - 10 * minute)
        l.clock.advance(-9 * minute)
        s = l.snapshot()
        #expect(s.last_auth_ms == Int64.max, "a step that lands after the authentication kept it")
    }

    /// A step with a store is told to the store: a process started after
    /// it (or another one running) takes the entry as unknown too, so a
    /// restart does not re-open the shortcut either.
    @Test func theStepIsToldToEveryProcessOfTheSignIn() {
        let folder = TempFolder()
        let clock = FakeClock(10 * hour)
        do {
            let a = PairLock(clock: clock, maxAge: hour, store: folder.store)
            a.setPasscode()
            a.enable()
            a.lock()
            #expect(storedEntry(folder.store) == 10 * hour)
            clock.advance(hour)
            #expect(a.snapshot().is_passcode_required == 1)
            clock.advance(-30 * minute)
            #expect(a.snapshot().is_passcode_required == 1)
            #expect(storedEntry(folder.store) == Int64.max, "the entry's time is recorded as unknown")
        }
        let b = PairLock(clock: clock, maxAge: hour, store: folder.store)
        idlelock_start(b.handle, nil)
        #expect(b.snapshot().is_passcode_required == 1, "a restart re-opened the age the step had closed")
        #expect(b.unlock() == 0)
        #expect(b.snapshot().is_passcode_required == 0)
        #expect(storedEntry(folder.store) == clock.now.pointee, "the next entry is known again")
    }

    /// A handle records only steps it sees: a reading later than its own
    /// latest one is time passing, not a step, and leaves another
    /// process's entry as it is.
    @Test func aReadingThatIsNoStepLeavesAnotherProcesssEntry() {
        let folder = TempFolder()
        let clock = FakeClock(10 * hour)
        let a = PairLock(clock: clock, maxAge: hour, store: folder.store)
        a.setPasscode()
        a.lock()
        let b = PairLock(clock: clock, maxAge: hour, store: folder.store)
        idlelock_start(b.handle, nil)
        clock.advance(5 * minute)
        #expect(b.unlock() == 0) // another process's entry, later than a's
        clock.advance(-1 * minute) // a step for b, not for a (which last read 10 h)
        _ = a.snapshot()
        #expect(storedEntry(folder.store) == 10 * hour + 5 * minute, "no step for a: left as it is")
        _ = b.snapshot()
        #expect(storedEntry(folder.store) == Int64.max, "b's own entry, made unknown by the step b saw")
    }

    /// Regression (issue 26, finding 1): a handle that already held the
    /// entry as unknown (it had seen a step) did not record a later step,
    /// so the entry another process had renewed meanwhile stayed in the
    /// store, and a process started after the step got the biometric
    /// unlock that passcode_max_age_ms had closed. A step is recorded
    /// against the store's current entry, whatever the handle remembers.
    @Test func aStepIsRecordedWhateverTheHandleRemembers() {
        let folder = TempFolder()
        let clock = FakeClock(10 * hour)
        let a = PairLock(clock: clock, maxAge: hour, store: folder.store)
        a.setPasscode()
        a.enable()
        a.lock()
        clock.advance(-1 * minute) // a's first step: its entry is unknown
        _ = a.snapshot()
        #expect(storedEntry(folder.store) == Int64.max)
        clock.advance(2 * minute)
        let entry = clock.now.pointee
        do {
            let d = PairLock(clock: clock, maxAge: hour, store: folder.store)
            idlelock_start(d.handle, nil)
            #expect(d.unlock() == 0, "process D enters the passcode")
        }
        #expect(storedEntry(folder.store) == entry)
        clock.now.pointee = entry + 70 * minute // the age has closed
        #expect(a.snapshot().is_passcode_required == 1)
        clock.now.pointee = entry + 20 * minute // a step back, seen by a only
        let s = a.snapshot()
        #expect(s.state == IDLELOCK_STATE_LOCKED && s.is_passcode_required == 1)
        #expect(storedEntry(folder.store) == Int64.max, "the step was not recorded: D's entry stayed")
        let e = PairLock(clock: clock, maxAge: hour, store: folder.store)
        e.kept = a.kept
        idlelock_start(e.handle, nil)
        #expect(e.snapshot().is_passcode_required == 1, "a process started after the step re-opened the age")
        #expect(e.pairUnlock() == IDLELOCK_ERR_LOCK_UNAVAILABLE)
        #expect(e.snapshot().state == IDLELOCK_STATE_LOCKED)
    }

}

@Suite("Clock steps make ages unknown (rules)")
struct ClockStepAgeRulesTests {
    private func rules(maxAge: Int64 = hour) -> LockRules {
        var r = LockRules(timeouts: Timeouts(idle: 60 * hour, background: 60 * hour, inactive: 0, grace: 1_500),
                          lockOnStart: false, maxAttempts: 5, now: 0,
                          delaySchedule: [DelayStep(failedAttempts: 1, delay: 30_000)],
                          policy: PasscodePolicySettings(maxAge: maxAge))
        r.passcodeSet(now: 0)
        return r
    }

    @Test func aStepThatLandsAfterTheEntryMakesItUnknown() {
        var r = rules()
        r.lockNow(now: 2 * hour)
        #expect(r.isPasscodeRequired(now: 2 * hour))
        r.check(now: hour / 2)
        #expect(r.isPasscodeRequired(now: hour / 2), "re-opened by a step back that lands after the entry")
        #expect(r.passcodeDemand(now: hour / 2) == .tooOld)
        #expect(r.passcodePolicy.enteredAt == nil)
    }

    @Test func aStepForgetsTheLastAuthenticationWhereverItLands() {
        var r = rules()
        r.lockNow(now: 1_000)
        guard case .check(let ticket) = r.beginAttempt(now: 1_000) else { Issue.record("refused"); return }
        #expect(r.finishAttempt(ticket, right: true, now: 1_000) == .unlocked)
        r.lockNow(now: 10_000)
        #expect(!r.authenticated(within: 5_000, now: 10_000))
        r.check(now: 2_000) // back, after the authentication
        #expect(r.lastAuthentication == Int64.max)
        #expect(!r.authenticated(within: 5_000, now: 2_000), "the closed window re-opened")
    }

    /// A step that lands inside a running delay carries what it had left at
    /// the previous reading over to the landing reading: not restarted in
    /// full (issue 26, finding 3: the strict answer bought nothing, since a
    /// step forward cannot be seen, and cost the user the door), and not
    /// shortened by the time the clock had run past the landing point.
    @Test func aStepCarriesARunningDelayOver() {
        var r = rules()
        r.lockNow(now: 100_000)
        guard case .check(let ticket) = r.beginAttempt(now: 100_000) else { Issue.record("refused"); return }
        _ = r.finishAttempt(ticket, right: false, now: 100_000) // 30 s, until 130 s
        r.check(now: 120_000)
        #expect(r.msUntilRetry(now: 120_000) == 10_000)
        r.check(now: 105_000) // back 15 s: 5 s into the period
        #expect(r.msUntilRetry(now: 105_000) == 10_000, "the step lengthened or shortened the delay")
        #expect(r.beginAttempt(now: 110_000) == .retryLater(5_000))
        #expect(r.msUntilRetry(now: 115_000) == 0)
        #expect(r.clockSteps == 1)
    }

    /// A delay that had run out before the step stays over (a step forgives
    /// nothing, and it does not restart what had ended).
    @Test func aStepLeavesADelayThatHadRunOut() {
        var r = rules()
        r.lockNow(now: 100_000)
        guard case .check(let ticket) = r.beginAttempt(now: 100_000) else { Issue.record("refused"); return }
        _ = r.finishAttempt(ticket, right: false, now: 100_000)
        r.check(now: 200_000)
        #expect(r.msUntilRetry(now: 200_000) == 0)
        r.check(now: 150_000)
        #expect(r.msUntilRetry(now: 150_000) == 0)
    }

    /// The hot path: a reading that is no step changes none of it.
    @Test func aReadingThatIsNoStepChangesNothing() {
        var r = rules()
        r.touch(now: 1_000)
        r.touch(now: 1_000)
        r.touch(now: 2_000)
        #expect(r.passcodePolicy.enteredAt == 0 && r.clockSteps == 0 && r.state == .unlocked)
    }
}
