// SPDX-License-Identifier: MIT
// Edges of the value types the other suites reach only in passing: prompt
// tokens that wrap, a prompt ended or discarded twice, a delay adopted
// from the store while a longer one runs, a restart judged by the idle
// timeout, saturating arithmetic, four-byte UTF-8, the packed snapshot
// word.

import Testing
@testable import IdleLock

@Suite("Rule edges")
struct RuleEdgeTests {
    @Test func promptTokensNeverAreZeroAndAnUnknownOneChangesNothing() {
        var shield = PromptShield(cap: 1_000, firstToken: 0)
        let first = shield.begin(now: 0, inert: false)
        #expect(first == 1, "a zero first token starts at 1")
        var wrapping = PromptShield(cap: 1_000, firstToken: UInt64.max)
        let last = wrapping.begin(now: 0, inert: false)
        let next = wrapping.begin(now: 0, inert: false)
        #expect(last == UInt64.max)
        #expect(next == 1, "the token after UInt64.max is 1, never 0")
        let ended = wrapping.end(42, now: 5)
        #expect(!ended, "an unknown token is not open")
        wrapping.discard(42)
        #expect(wrapping.open.count == 2, "discarding an unknown token changes nothing")
        #expect(wrapping.msUntilCap(now: 100) == 900)
        #expect(PromptShield(cap: 1_000, firstToken: 7).msUntilCap(now: 100) == nil, "no prompt, no cap")
    }

    /// A delay read from the store that ends sooner than the one this
    /// handle follows does not shorten it.
    @Test func aShorterDelayFromTheStoreKeepsTheLongerOne() {
        var r = LockRules(timeouts: Timeouts(idle: 60_000, background: 10_000, inactive: 30_000, grace: 1_500),
                          lockOnStart: false, maxAttempts: 5, now: 0)
        r.adoptDelay(started: 0, period: 60_000, now: 0)
        let longer = r.retry
        r.adoptDelay(started: 5, period: 1_000, now: 10)
        #expect(r.retry == longer)
        #expect(r.msUntilRetry(now: 10) == 59_990)
    }

    /// A restart whose time away passed the idle timeout but not the
    /// background one (background longer than idle) locks IDLE (rule 4).
    @Test func aRestartAwayLongerThanTheIdleTimeoutLocksIdle() {
        var r = LockRules(timeouts: Timeouts(idle: 60_000, background: 120_000, inactive: 120_000, grace: 0),
                          lockOnStart: false, maxAttempts: 5, now: 85_000)
        r.passcodeSet(now: 85_000)
        r.start(now: 90_000, restart: RestartInfo(savedActivity: 0, sameBoot: true))
        #expect(r.state == .locked && r.reason == .idle)
    }

    @Test func sumsSaturateBothWays() {
        #expect(Millis.add(Int64.max, 1) == Int64.max)
        #expect(Millis.add(Int64.min, -1) == Int64.min)
    }

    @Test func fourByteUTF8IsCheckedByteByByte() {
        let valid: [UInt8] = [0xF1, 0x80, 0x80, 0x80, 0xF3, 0xBF, 0xBF, 0xBF]
        #expect(valid.withUnsafeBytes { UTF8Check.scalarCount($0) } == 2)
        let badLast: [UInt8] = [0xF2, 0x80, 0x80, 0x41]
        #expect(badLast.withUnsafeBytes { UTF8Check.scalarCount($0) } == nil)
    }

    @Test func theSnapshotWordKeepsThePasscodeFlag() {
        for flag in [false, true] {
            let state = VisibleState(state: .unlocked, reason: .none, isEnabled: true, isBiometricsEnabled: false,
                                     isBiometricsAvailable: false, isAway: false, attemptsRemaining: 5,
                                     isWarning: false, isPasscodeRequired: flag)
            #expect(state.isPasscodeRequired == flag)
        }
    }
}
