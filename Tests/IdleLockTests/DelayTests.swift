// SPDX-License-Identifier: MIT
// Escalating delays after wrong passcodes (header, idlelock_delay_step).

import CIdleLock
import Foundation
import Testing
@testable import IdleLock

/// A locked handle on a fake clock with `schedule`, optionally on a store.
private final class DelayedLock: TestHandle {
    let clock: FakeClock
    var handle: OpaquePointer?
    let status: Int32

    init(_ schedule: [(Int32, Int64)], maxAttempts: Int32 = 5, clock: FakeClock = FakeClock(0),
         store: String? = nil, setPasscode: Bool = true) {
        self.clock = clock
        var steps = schedule.map { idlelock_delay_step(failed_attempts: $0.0, reserved0: 0, delay_ms: $0.1) }
        var cfg = Lock.config()
        cfg.idle_after_ms = 600_000
        cfg.max_attempts = maxAttempts
        cfg.clock = FakeClock.function
        cfg.clock_ctx = UnsafeMutableRawPointer(clock.now)
        var h: OpaquePointer? = nil
        status = steps.withUnsafeMutableBufferPointer { s in
            cfg.delay_schedule = UnsafePointer(s.baseAddress)
            cfg.delay_schedule_len = s.count
            guard let store else { return idlelock_create(&cfg, &h) }
            return store.withCString { p in
                cfg.store_path = p
                return idlelock_create(&cfg, &h)
            }
        }
        handle = h
        if status == 0 && setPasscode {
            _ = idlelock_set_passcode(h, "2468", 4)
            _ = idlelock_lock(h, nil)
        }
    }

    deinit { idlelock_destroy(handle) }

    func unlock(_ code: String) -> (Int32, idlelock_snapshot) {
        var s = idlelock_snapshot()
        s.size = UInt32(MemoryLayout<idlelock_snapshot>.size)
        let rc = idlelock_unlock(handle, code, code.utf8.count, &s)
        return (rc, s)
    }

    func at(_ t: Int64) { clock.now.pointee = t }
}

/// Rules with one delay step (1 wrong passcode: `delay` ms) and no
/// timeout that could lock on its own, at `now`.
private func rulesWithDelay(_ delay: Int64, now: Int64) -> LockRules {
    LockRules(timeouts: Timeouts(idle: Millis.never, background: 0, inactive: 0, grace: 0),
              lockOnStart: true, maxAttempts: 3, now: now,
              delaySchedule: [DelayStep(failedAttempts: 1, delay: delay)])
}

/// A wrong passcode at `now`, counted and checked; false if it was not counted.
private func wrongAttempt(_ r: inout LockRules, now: Int64) -> Bool {
    guard case .check(let ticket) = r.beginAttempt(now: now) else { return false }
    _ = r.finishAttempt(ticket, right: false, now: now)
    return true
}

@Suite("Escalating delays")
struct DelayTests {
    @Test func wrongPasscodesStartDelaysThatRefuseAttemptsUncounted() {
        let l = DelayedLock([(2, 1_000), (3, 5_000)])
        #expect(l.unlock("0000").0 == IDLELOCK_ERR_INVALID_PASSCODE)
        var (rc, s) = l.unlock("0000") // the 2nd wrong: 1 s
        #expect(rc == IDLELOCK_ERR_INVALID_PASSCODE && s.ms_until_retry == 1_000)
        l.at(500)
        (rc, s) = l.unlock("2468")
        #expect(rc == IDLELOCK_ERR_RETRY_LATER, "even the right passcode waits")
        #expect(s.ms_until_retry == 500 && s.attempts_remaining == 3, "not counted")
        #expect(String(cString: idlelock_last_error()).contains("500 ms"))
        #expect(s.ms_until_next_deadline == 500, "a locked session's next deadline is the retry")
        l.at(1_000)
        (rc, s) = l.unlock("0000") // the 3rd wrong: 5 s
        #expect(rc == IDLELOCK_ERR_INVALID_PASSCODE && s.ms_until_retry == 5_000)
        l.at(5_999)
        #expect(l.unlock("2468").0 == IDLELOCK_ERR_RETRY_LATER)
        l.at(6_000)
        (rc, s) = l.unlock("2468")
        #expect(rc == 0 && s.ms_until_retry == 0 && s.attempts_remaining == 5)
        // The count reset: the next wrong one starts no delay.
        idlelock_lock(l.handle, nil)
        (rc, s) = l.unlock("0000")
        #expect(rc == IDLELOCK_ERR_INVALID_PASSCODE && s.ms_until_retry == 0)
    }

    @Test func maxAttemptsStillEndsInALockout() {
        let l = DelayedLock([(1, 100)], maxAttempts: 3)
        var t: Int64 = 0
        for expected in [IDLELOCK_ERR_INVALID_PASSCODE, IDLELOCK_ERR_INVALID_PASSCODE, IDLELOCK_ERR_LOCKED_OUT] {
            #expect(l.unlock("0000").0 == expected)
            t += 100
            l.at(t)
        }
        #expect(l.unlock("2468").0 == IDLELOCK_ERR_LOCKED_OUT)
    }

    @Test func aClockStepRestartsThePeriodInsteadOfForgivingIt() {
        let l = DelayedLock([(1, 10_000)])
        l.at(5_000)
        #expect(l.unlock("0000").0 == IDLELOCK_ERR_INVALID_PASSCODE) // delay until 15 s
        l.at(1_000) // the clock steps back
        let (rc, s) = l.unlock("2468")
        #expect(rc == IDLELOCK_ERR_RETRY_LATER && s.ms_until_retry == 10_000)
    }

    @Test func aRestartRestartsThePeriodAndAnotherProcessFollowsIt() {
        let folder = TempFolder()
        let clock = FakeClock(0)
        let a = DelayedLock([(1, 10_000)], clock: clock, store: folder.store)
        #expect(a.unlock("0000").0 == IDLELOCK_ERR_INVALID_PASSCODE) // delay 0..10 s
        clock.now.pointee = 4_000
        // A process created now restarts the saved period in full.
        let restarted = DelayedLock([(1, 10_000)], clock: clock, store: folder.store, setPasscode: false)
        let (rc, s) = restarted.unlock("2468")
        #expect(rc == IDLELOCK_ERR_RETRY_LATER && s.ms_until_retry == 10_000)
        // The first process still runs its own period: 6 s left.
        let (rcA, sA) = a.unlock("2468")
        #expect(rcA == IDLELOCK_ERR_RETRY_LATER && sA.ms_until_retry == 6_000)
        clock.now.pointee = 10_000
        #expect(a.unlock("2468").0 == 0)
    }

    /// Regression (found by the model's long profile): a new passcode reset
    /// the count but left its delay running, in memory and in the store.
    @Test func aNewPasscodeEndsTheDelayWithTheCount() {
        let folder = TempFolder()
        let clock = FakeClock(0)
        let a = DelayedLock([(1, 10_000)], clock: clock, store: folder.store)
        #expect(a.unlock("2468").0 == 0)
        #expect(a.unlock("0000").0 == IDLELOCK_ERR_INVALID_PASSCODE, "a re-authentication that fails starts a delay")
        #expect(idlelock_set_passcode(a.handle, "1357", 4) == 0)
        var s = idlelock_snapshot()
        s.size = UInt32(MemoryLayout<idlelock_snapshot>.size)
        #expect(idlelock_snapshot_get(a.handle, &s) == 0)
        #expect(s.ms_until_retry == 0 && s.attempts_remaining == 5)
        idlelock_lock(a.handle, nil)
        let restarted = DelayedLock([(1, 10_000)], clock: clock, store: folder.store, setPasscode: false)
        let (rc, after) = restarted.unlock("1357")
        #expect(rc == 0 && after.ms_until_retry == 0, "nothing saved to restart")
    }

    /// Regression (found by the extended model): a delay started less than
    /// its period before INT64_MAX ended at once (its end saturated to the
    /// clock's reading), and the next wrong passcode was counted.
    @Test func aDelayEndingPastInt64MaxRunsInFull() {
        var r = rulesWithDelay(1_000, now: Int64.max)
        r.passcodeSet(now: Int64.max)
        guard wrongAttempt(&r, now: Int64.max) else { Issue.record("not counted"); return }
        #expect(r.msUntilRetry(now: Int64.max) == 1_000)
        #expect(r.beginAttempt(now: Int64.max) == .retryLater(1_000), "refused, uncounted")
        #expect(r.attemptsRemaining == 2)
        #expect(r.msUntilNextDeadline(now: Int64.max) == Int64.max, "its end is past the clock's last reading")
        // The same period found in the store at a restart is restarted, not dropped.
        var restarted = rulesWithDelay(1_000, now: Int64.max)
        restarted.adoptDelay(started: Int64.max, period: 1_000, now: Int64.max)
        #expect(restarted.msUntilRetry(now: Int64.max) == 1_000)
    }

    /// A clock step carries a period over: it goes on from the landing
    /// reading with what it had left at the previous one, whatever the
    /// step (issue 26, finding 3). Back on the old timeline is a step
    /// forward, which no reading can tell from time passing.
    @Test func aClockStepCarriesThePeriodOver() {
        var r = rulesWithDelay(60_000, now: 1_000_000)
        r.passcodeSet(now: 1_000_000)
        guard wrongAttempt(&r, now: 1_000_000) else { Issue.record("not counted"); return }
        r.check(now: 1_010_000)
        r.check(now: 0) // a step back, 10 s into the period
        #expect(r.msUntilRetry(now: 0) == 50_000)
        #expect(r.beginAttempt(now: 20_000) == .retryLater(30_000))
        // Re-reading this process's own saved period changes nothing.
        r.adoptDelay(started: 1_000_000, period: 60_000, now: 20_000)
        #expect(r.msUntilRetry(now: 20_000) == 30_000)
        #expect(r.msUntilRetry(now: 50_000) == 0)
        // A step back once it is over does not run it again.
        r.check(now: 50_000)
        r.check(now: 10_000)
        #expect(r.msUntilRetry(now: 10_000) == 0)
    }

    /// Regression (issue 26, finding 3): after a step back before the last
    /// activity, every later reading until the clock passed that old
    /// activity counted as a new step and restarted the delay: a lock
    /// screen that polls kept the passcode out for as long as the step.
    /// A step is seen once: the delay goes on with what it had left.
    @Test func aStepBackIsSeenOnceByALockScreenThatPolls() {
        let l = DelayedLock([(5, 60_000)], maxAttempts: 10, clock: FakeClock(36_000_000))
        for _ in 0..<5 { _ = l.unlock("0000") }
        var s = l.snapshot()
        #expect(s.ms_until_retry == 60_000 && s.attempts_remaining == 5)
        l.clock.advance(-3_600_000) // back an hour, before the last activity
        s = l.snapshot()
        #expect(s.ms_until_retry == 60_000, "the step keeps what the delay had left, no more, no less")
        for _ in 0..<60 {
            l.clock.advance(1_000) // a lock screen polling every second
            _ = l.snapshot()
        }
        s = l.snapshot()
        #expect(s.ms_until_retry == 0, "each reading before the old activity restarted the delay")
        #expect(l.unlock("2468").0 == 0, "the passcode was kept out after the delay")
    }

    /// Regression (issue 26, finding 3): a caller clock that jitters (1 ms
    /// back every third reading) restarted a 30 s delay at every step: the
    /// right passcode was never accepted. A step carries the delay over.
    @Test func aJitteringClockDoesNotKeepThePasscodeOut() {
        let l = DelayedLock([(5, 30_000)], maxAttempts: 10, clock: FakeClock(36_000_000))
        for _ in 0..<5 { _ = l.unlock("0000") }
        #expect(l.snapshot().ms_until_retry == 30_000)
        var accepted = false
        for reading in 1...1_200 { // 10 simulated minutes at 2 readings a second
            l.clock.advance(reading % 3 == 0 ? -1 : 500)
            if l.snapshot().ms_until_retry == 0 {
                accepted = l.unlock("2468").0 == 0
                break
            }
        }
        #expect(accepted, "the jittering clock kept the passcode out")
    }

    /// Regression (found by the model's long profile): carried to a reading
    /// near INT64_MIN, a period's start moved back by its length saturated,
    /// and an ended delay came back. A step never lengthens a delay.
    @Test func aDelayCarriedNearInt64MinNeverGrows() {
        var r = rulesWithDelay(1_000, now: Int64.min + 5)
        r.passcodeSet(now: Int64.min + 5)
        guard wrongAttempt(&r, now: Int64.min + 5) else { Issue.record("not counted"); return }
        r.check(now: Int64.min + 505)
        #expect(r.msUntilRetry(now: Int64.min + 505) == 500)
        r.check(now: Int64.min + 2) // a step back: 500 ms carried over
        #expect(r.msUntilRetry(now: Int64.min + 2) == 500)
        r.check(now: 4) // long over
        r.check(now: Int64.min + 2)
        #expect(r.msUntilRetry(now: Int64.min + 2) == 0, "an ended delay came back")
        #expect(r.msUntilRetry(now: Int64.min + 600) == 0)
    }

    /// A period saved on a clock that read later than this one (another
    /// boot) restarts once at create, not at every attempt that re-reads it.
    @Test func aSavedPeriodAheadOfTheClockRestartsOnce() {
        var r = rulesWithDelay(1_000, now: 0)
        r.adoptDelay(started: 50_000, period: 1_000, now: 0)
        #expect(r.msUntilRetry(now: 0) == 1_000)
        r.adoptDelay(started: 50_000, period: 1_000, now: 1_000)
        #expect(r.msUntilRetry(now: 1_000) == 0, "over: the re-read did not restart it")
    }

    /// Regression (issue 11, finding 9): another process's period, saved
    /// on a clock with another origin, was ignored (its start lay far in
    /// this clock's past) or followed from a start read on another clock.
    /// A period this handle does not follow yet runs in full from its own
    /// reading, whatever the other clock's origin, and its saved start
    /// never becomes a time on this clock.
    @Test func anotherProcessesPeriodHoldsWhateverItsClocksOrigin() {
        for foreignStart in [Int64(-5_000_000_000), 1_000_000, 9_000_000_000] {
            var r = rulesWithDelay(60_000, now: 1_000_000)
            r.passcodeSet(now: 1_000_000)
            r.adoptDelay(started: foreignStart, period: 60_000, now: 1_010_000)
            #expect(r.msUntilRetry(now: 1_010_000) == 60_000, "from \(foreignStart)")
            #expect(r.beginAttempt(now: 1_069_999) == .retryLater(1), "from \(foreignStart)")
            // Re-reading the same period changes nothing.
            r.adoptDelay(started: foreignStart, period: 60_000, now: 1_050_000)
            #expect(r.msUntilRetry(now: 1_050_000) == 20_000)
            #expect(r.msUntilRetry(now: 1_070_000) == 0)
            // Its saved start is not a time on this clock: reaching it
            // starts nothing again.
            #expect(r.msUntilRetry(now: 9_000_000_000) == 0, "from \(foreignStart)")
        }
    }

    /// Regression (issue 11, finding 9): a period restarted at create ran
    /// again from its saved start once this clock read past it (a start
    /// from another boot, or another clock origin).
    @Test func aPeriodRestartedAtCreateRunsOnceOnThisClock() {
        var r = rulesWithDelay(1_000, now: 0)
        r.adoptDelay(started: 50_000, period: 1_000, now: 0)
        #expect(r.msUntilRetry(now: 999) == 1)
        #expect(r.msUntilRetry(now: 1_000) == 0)
        #expect(r.msUntilRetry(now: 50_500) == 0, "the saved start is another clock's reading")
    }

    /// Regression (found by trying to break 1.1): wrong passcodes sent
    /// at once from several threads were all checked before the delay the
    /// first of them started; attempts on one handle are now checked one
    /// at a time, so the delay refuses the rest.
    @Test func concurrentWrongPasscodesMeetTheDelay() {
        let l = DelayedLock([(1, 60_000)], maxAttempts: 10)
        // Each iteration writes only its own slot; concurrentPerform returns
        // after all of them.
        let shared = Shared(l)
        let slots = Shared(UnsafeMutablePointer<Int32>.allocate(capacity: 5))
        defer { slots.value.deallocate() }
        DispatchQueue.concurrentPerform(iterations: 5) { i in
            slots.value[i] = shared.value.unlock("0000").0
        }
        let all = (0..<5).map { slots.value[$0] }
        #expect(all.filter { $0 == IDLELOCK_ERR_INVALID_PASSCODE }.count == 1, "\(all)")
        #expect(all.filter { $0 == IDLELOCK_ERR_RETRY_LATER }.count == 4, "\(all)")
        #expect(l.unlock("2468").1.attempts_remaining == 9, "one counted")
    }

    @Test func schedulesAreChecked() {
        let cases: [([(Int32, Int64)], Int32, String)] = [
            ([(2, 1_000), (2, 2_000)], 5, "greater than the step before"),
            ([(2, 2_000), (3, 1_000)], 5, "not be shorter"),
            ([(5, 1_000)], 5, "max_attempts-1"),
            ([(0, 1_000)], 5, "failed_attempts"),
            ([(1, 86_400_001)], 5, "one day"),
            ([(1, 0)], 5, "delay_ms"),
        ]
        for (schedule, max, message) in cases {
            let l = DelayedLock(schedule, maxAttempts: max, setPasscode: false)
            #expect(l.status == IDLELOCK_ERR_INVALID_ARGUMENT, "\(schedule)")
            #expect(String(cString: idlelock_last_error()).contains(message), "\(schedule)")
        }
        var cfg = Lock.config()
        cfg.idle_after_ms = 1_000
        cfg.delay_schedule_len = 2
        var h: OpaquePointer? = nil
        #expect(idlelock_create(&cfg, &h) == IDLELOCK_ERR_INVALID_ARGUMENT)
    }

    @Test func theIOSPresetNeedsTenAttempts() {
        var steps: UnsafePointer<idlelock_delay_step>? = nil
        var count = 0
        #expect(idlelock_delay_schedule_ios(&steps, &count) == 0)
        #expect(count == 4 && steps![0].failed_attempts == 5 && steps![0].delay_ms == 60_000)
        #expect(steps![3].failed_attempts == 9 && steps![3].delay_ms == 3_600_000)
        #expect(idlelock_delay_schedule_ios(nil, &count) == IDLELOCK_ERR_INVALID_ARGUMENT)
        var cfg = Lock.config()
        cfg.idle_after_ms = 1_000
        cfg.delay_schedule = steps
        cfg.delay_schedule_len = count
        var h: OpaquePointer? = nil
        #expect(idlelock_create(&cfg, &h) == IDLELOCK_ERR_INVALID_ARGUMENT, "step 5 needs max_attempts above 5")
        cfg.max_attempts = 10
        #expect(idlelock_create(&cfg, &h) == 0)
        idlelock_destroy(h)
    }
}
