// SPDX-License-Identifier: MIT
// The warning before the idle lock and the next deadline (docs/RULES.md, "Since 1.1").

import CIdleLock
import CSystem
import Testing
@testable import IdleLock

private func rules(idle: Int64 = 60_000, background: Int64 = 10_000, warn: Int64 = 0,
                   grace: Int64 = 1_500) -> LockRules {
    var r = LockRules(timeouts: Timeouts(idle: idle, background: background, inactive: 30_000,
                                         grace: grace, promptCap: 120_000, warnBefore: warn),
                      lockOnStart: false, maxAttempts: 5, now: 0)
    r.passcodeSet(now: 0)
    return r
}

@Suite("Warning and next deadline")
struct DeadlineTests {
    @Test func theWarningOpensWarnBeforeMsBeforeTheIdleLock() {
        var r = rules(warn: 10_000)
        #expect(!r.isWarning(now: 49_999))
        #expect(r.msUntilWarning(now: 49_999) == 1)
        #expect(r.isWarning(now: 50_000))
        #expect(r.msUntilWarning(now: 50_000) == 0)
        r.touch(now: 55_000) // activity during the warning is ordinary activity
        #expect(!r.isWarning(now: 55_000))
        #expect(r.msUntilWarning(now: 55_000) == 50_000)
        r.check(now: 115_000)
        #expect(r.state == .locked)
        #expect(!r.isWarning(now: 115_000) && r.msUntilWarning(now: 115_000) == Int64.max)
    }

    @Test func noWarningWhenOffOrDeferredByAPrompt() {
        let off = rules()
        #expect(!off.isWarning(now: 59_999) && off.msUntilWarning(now: 0) == Int64.max)
        var r = rules(warn: 10_000)
        _ = r.openPrompt(now: 40_000)
        #expect(!r.isWarning(now: 55_000), "the idle rule waits while a prompt is open")
    }

    @Test func theNextDeadlineIsTheEarliestChange() {
        let r = rules(idle: 60_000, background: 10_000, warn: 10_000)
        #expect(r.msUntilNextDeadline(now: 0) == 50_000, "the warning opens first")
        #expect(r.msUntilNextDeadline(now: 50_000) == 10_000, "the warning shows at 50 s; next, the lock")
        var s = rules(idle: 60_000, background: 10_000)
        #expect(s.msUntilNextDeadline(now: 1_000) == 59_000)
        s.depart(now: 1_000, toBackground: true)
        #expect(s.msUntilNextDeadline(now: 1_000) == 1_501, "the end of the grace window")
        #expect(s.msUntilNextDeadline(now: 2_501) == 8_499, "then the background timeout (11 s)")
        #expect(s.msUntilNextDeadline(now: 11_000) == 0)
        s.check(now: 11_000)
        #expect(s.state == .locked && s.msUntilNextDeadline(now: 11_000) == Int64.max)
    }

    @Test func theNextDeadlineIsNeverLate() {
        // Walk time forward by the reported deadline only: the state must
        // never have changed before a wake-up.
        var r = rules(idle: 60_000, background: 10_000, warn: 5_000)
        r.depart(now: 20_000, toBackground: false) // inactive: 30 s timeout
        var now: Int64 = 20_000
        var wakes = 0
        while r.state == .unlocked && wakes < 100 {
            let wait = r.msUntilNextDeadline(now: now)
            #expect(wait != Int64.max)
            // One ms before the wake-up nothing is due yet.
            if wait > 0 {
                var early = r
                early.check(now: now + wait - 1)
                #expect(early.state == .unlocked)
            }
            now += wait
            r.check(now: now)
            wakes += 1
        }
        #expect(r.state == .locked && r.reason == .backgrounded && now == 50_000)
    }

    /// Regression (found by fuzz_api): with the clock near INT64_MIN and a
    /// deadline past 0, `next - now` overflowed and trapped, killing the host.
    @Test func theNextDeadlineSaturatesInsteadOfTrapping() {
        var r = rules(idle: 1_000)
        _ = r.openPrompt(now: 100_000_000)
        r.check(now: Int64.min) // not engaged-relevant: steps back, locks CLOCK
        let fresh = LockRules(timeouts: Timeouts(idle: 1_000, background: 10_000, inactive: 30_000, grace: 1_500,
                                                 promptCap: 120_000),
                              lockOnStart: false, maxAttempts: 5, now: Int64.min)
        var s = fresh
        _ = s.openPrompt(now: 100_000_000)
        s.passcodeSet(now: Int64.min)
        #expect(s.msUntilNextDeadline(now: Int64.min + 64_000) == Int64.max)
    }

    /// Regression (found by the extended model): with huge timeouts the
    /// warning's start was computed from a saturated idle deadline, so the
    /// next deadline came after the warning opened.
    @Test func theWarningsStartIsNotLostToSaturation() {
        var r = LockRules(timeouts: Timeouts(idle: Int64.max - 1, background: Int64.max - 1, inactive: 0,
                                             grace: 1, promptCap: 120_000, warnBefore: Int64.max - 2),
                          lockOnStart: false, maxAttempts: 1, now: 1_000)
        r.passcodeSet(now: 1_000)
        r.depart(now: 1_000, toBackground: true)
        let wait = r.msUntilNextDeadline(now: 1_000)
        #expect(!r.isWarning(now: 1_000) && r.isWarning(now: 1_001))
        #expect(wait <= 1, "never late: the warning opens 1 ms after")
    }

    /// Regression (found by the extended model): a prompt opened less than
    /// its cap before INT64_MAX had its cap computed as a saturated end, so
    /// the warning was reported as due before the cap.
    @Test func aCapEndingPastInt64MaxStillDefersTheWarning() {
        var r = LockRules(timeouts: Timeouts(idle: 2, background: 2, inactive: 30_000, grace: 1_500,
                                             promptCap: 1_500, warnBefore: 1),
                          lockOnStart: false, maxAttempts: 5, now: Int64.max)
        r.passcodeSet(now: Int64.max)
        _ = r.openPrompt(now: Int64.max)
        #expect(!r.isWarning(now: Int64.max))
        #expect(r.msUntilWarning(now: Int64.max) == 1_500, "no warning before the cap, 1.5 s away")
    }

    /// Regression (found by the model's long profile): the end of a
    /// prompt's grace window was listed for an absence that began before
    /// the prompt, which it does not cover (a needless early wake).
    @Test func aPromptsEndMattersOnlyForTheAbsenceItCovers() {
        var r = rules(idle: Millis.never, background: 1_500, grace: 0)
        r.depart(now: 0, toBackground: true)
        let token = r.openPrompt(now: 0)
        r.closePrompt(token, now: 1)
        #expect(r.msUntilNextDeadline(now: 1) == 1_499, "the absence's timeout, from the departure")
    }

    @Test func nothingIsDueWithoutAnEngagedUnlockedSession() {
        var r = rules()
        r.lockNow(now: 1)
        #expect(r.msUntilNextDeadline(now: 1) == Int64.max)
        let n = LockRules(timeouts: Timeouts(idle: 1_000, background: 1_000, inactive: 0, grace: 0),
                          lockOnStart: false, maxAttempts: 5, now: 0)
        #expect(n.msUntilNextDeadline(now: 0) == Int64.max)
    }

    @Test func warnBeforeMsIsChecked() {
        var cfg = Lock.config()
        cfg.idle_after_ms = 10_000
        cfg.warn_before_ms = 10_000
        var h: OpaquePointer? = nil
        #expect(idlelock_create(&cfg, &h) == IDLELOCK_ERR_INVALID_ARGUMENT)
        #expect(String(cString: idlelock_last_error()).contains("warn_before_ms"))
        cfg.warn_before_ms = -1
        #expect(idlelock_create(&cfg, &h) == IDLELOCK_ERR_INVALID_ARGUMENT)
        cfg.warn_before_ms = 9_999
        #expect(idlelock_create(&cfg, &h) == 0)
        idlelock_destroy(h)
    }

    @Test func listenersHearTheWarningAndA10SnapshotGetsOnlyItsFields() {
        var cfg = Lock.config()
        cfg.idle_after_ms = 60_000
        cfg.warn_before_ms = 10_000
        cfg.lock_on_start = 0
        let clock = FakeClock(0)
        cfg.clock = FakeClock.function
        cfg.clock_ctx = UnsafeMutableRawPointer(clock.now)
        var h: OpaquePointer? = nil
        #expect(idlelock_create(&cfg, &h) == 0)
        defer { idlelock_destroy(h) }
        #expect(idlelock_set_passcode(h, "1234", 4) == 0)
        let r = Recorder()
        r.subscribe(h)
        clock.now.pointee = 50_000
        var s = idlelock_snapshot()
        s.size = UInt32(MemoryLayout<idlelock_snapshot>.size)
        #expect(idlelock_check(h, &s) == 0)
        #expect(s.is_warning == 1 && s.ms_until_idle_lock == 10_000 && s.ms_until_next_deadline == 10_000)
        #expect(r.seqs.count == 1, "the warning is a change listeners hear")
        #expect(idlelock_touch(h, &s) == 0)
        #expect(s.is_warning == 0 && r.seqs.count == 2)
        // A host built against the 1.0 header passes 56 bytes.
        let raw = UnsafeMutableRawPointer.allocate(byteCount: 96, alignment: 8)
        defer { raw.deallocate() }
        memset(raw, 0xAB, 96)
        raw.storeBytes(of: UInt32(56), as: UInt32.self)
        #expect(idlelock_snapshot_get(h, raw.assumingMemoryBound(to: idlelock_snapshot.self)) == 0)
        #expect(UnsafeRawBufferPointer(start: raw + 56, count: 40).allSatisfy { $0 == 0xAB })
    }

    /// The snapshot's times come from `report`, which computes each input
    /// once and has an inline path for what nearly every call finds (no
    /// prompt, no delay, no policy moment, judged at the reading); the
    /// one-field queries (and the watcher) compute each field alone, the
    /// next deadline in full. They must agree on every state, also with
    /// readings and timeouts at the ends of the Int64 range, where the
    /// saturating arithmetic decides.
    @Test func theSnapshotsReportAgreesWithTheFieldByFieldRules() {
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 { // SplitMix64: the same sequence on every run
            seed &+= 0x9E37_79B9_7F4A_7C15
            var z = seed
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        func pick<T>(_ values: [T]) -> T { values[Int(next() % UInt64(values.count))] }
        let starts: [Int64] = [0, 1_000, -5_000_000, Int64.max - 200_000, Int64.min + 10, Int64.max - 3]
        var checked = 0
        for _ in 0..<400 {
            let idle = pick([60_000, 1, 500, Int64.max - 1, Millis.never])
            let warn = idle == Millis.never || idle < 2 ? 0 : pick([0, 0, 1, idle / 2, idle - 1])
            var r = LockRules(timeouts: Timeouts(idle: idle, background: pick([0, 10_000, Millis.never]),
                                                 inactive: pick([0, 30_000]), grace: pick([0, 1_500, 60_000]),
                                                 promptCap: pick([0, 1_000, 120_000]), warnBefore: warn),
                              lockOnStart: false, maxAttempts: 3, now: pick(starts),
                              delaySchedule: [DelayStep(failedAttempts: 1, delay: 5_000)])
            var now = r.lastActivity
            if next() % 4 != 0 { r.passcodeSet(now: now) }
            var tokens: [UInt64] = []
            for _ in 0..<30 {
                let step = Int64(pick([0, 1, 7, 499, 1_000, 1_501, 9_999, 60_000, 200_000]))
                now = next() % 16 == 0 ? now &- step : Millis.add(now, step) // now and then a step back
                switch next() % 9 {
                case 0: r.touch(now: now)
                case 1: r.check(now: now)
                case 2: r.depart(now: now, toBackground: next() % 2 == 0)
                case 3: r.foreground(now: now)
                case 4: r.check(now: now); tokens.append(r.openPrompt(now: now))
                case 5:
                    r.check(now: now)
                    if let t = tokens.popLast() { r.closePrompt(t, now: now) }
                case 6:
                    r.check(now: now)
                    if case .check(let ticket) = r.beginAttempt(now: now) {
                        _ = r.finishAttempt(ticket, right: next() % 3 == 0, now: now)
                    }
                case 7: r.lockNow(now: now)
                default: r.touch(now: now)
                }
                // Right after an event at `now` (judged at it), and at a
                // later reading nothing judged yet.
                for (at, judged) in [(now, true), (Millis.add(now, Int64(next() % 5_000)), false)] {
                    let report = r.report(now: at, judgedNow: judged)
                    #expect(report.msUntilIdleLock == r.msUntilIdleLock(now: at))
                    #expect(report.isWarning == r.isWarning(now: at))
                    #expect(report.msUntilWarning == r.msUntilWarning(now: at))
                    #expect(report.msUntilRetry == r.msUntilRetry(now: at))
                    #expect(report.msUntilNextDeadline == r.msUntilNextDeadline(now: at),
                            "next deadline at \(at) (judged \(judged)), idle \(idle), warn \(warn)")
                    checked += 1
                }
            }
        }
        #expect(checked == 400 * 30 * 2)
    }
}

@Suite("Warning under a prompt")
struct WarningPromptTests {
    /// Regression: while a prompt deferred the idle rule, ms_until_warning
    /// read 0 ("open") although is_warning was 0.
    @Test func noWarningIsReportedOpenWhileAPromptDefersTheIdleRule() {
        var r = LockRules(timeouts: Timeouts(idle: 60_000, background: 10_000, inactive: 30_000, grace: 1_500,
                                             promptCap: 120_000, warnBefore: 10_000),
                          lockOnStart: false, maxAttempts: 5, now: 0)
        r.passcodeSet(now: 0)
        _ = r.openPrompt(now: 0)
        #expect(!r.isWarning(now: 55_000))
        #expect(r.msUntilWarning(now: 55_000) == 65_000, "not before the prompt's cap")
    }
}
