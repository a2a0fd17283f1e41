// SPDX-License-Identifier: MIT
// Prompts the app opens itself (header, "Prompts the app opens itself") through the C ABI: the cases of the
// issue, the cap, inert prompts, tokens, and a randomized check that nothing
// here ever unlocks a locked session.

import CIdleLock
import Testing
@testable import IdleLock

/// background_after_ms 0 is the strictest setting: any absence past the
/// grace window locks unless a prompt covers it.
private func strictLock(idle: Int64 = 60_000) -> Lock {
    let l = Lock(idle: idle, background: 0, grace: 1_500, lockOnStart: 0)
    l.clock.now.pointee = 0
    l.setPasscode("1234")
    return l
}

private func at(_ l: Lock, _ t: Int64) { l.clock.now.pointee = t }

private func begin(_ l: Lock) -> UInt64 {
    var token: UInt64 = 0
    #expect(idlelock_prompt_begin(l.handle, &token) == 0)
    #expect(token != 0)
    return token
}

@Suite("Prompts")
struct PromptTests {
    @Test func aPickerStillOpenWhenTheAppReturnsIsPresence() {
        let l = strictLock()
        at(l, 1_000); let picker = begin(l)
        at(l, 1_050); idlelock_background(l.handle, nil)
        at(l, 40_000); idlelock_foreground(l.handle, nil)
        let s = l.snapshot()
        #expect(s.state == IDLELOCK_STATE_UNLOCKED)
        #expect(s.last_activity_ms == 40_000, "the return is activity")
        #expect(idlelock_prompt_end(l.handle, picker) == 0)
    }

    @Test func aReturnWithinGraceOfThePromptsEndIsPresence() {
        let l = strictLock()
        at(l, 1_000); let picker = begin(l)
        at(l, 1_050); idlelock_background(l.handle, nil)
        at(l, 40_000); #expect(idlelock_prompt_end(l.handle, picker) == 0)
        at(l, 41_000); idlelock_foreground(l.handle, nil)
        #expect(l.snapshot().state == IDLELOCK_STATE_UNLOCKED)
    }

    @Test func aReturnLongAfterThePromptsEndIsJudgedFromTheRealDeparture() {
        let l = strictLock()
        at(l, 1_000); let picker = begin(l)
        at(l, 1_050); idlelock_background(l.handle, nil)
        at(l, 40_000); idlelock_prompt_end(l.handle, picker)
        at(l, 45_000); idlelock_foreground(l.handle, nil)
        let s = l.snapshot()
        #expect(s.state == IDLELOCK_STATE_LOCKED && s.reason == IDLELOCK_REASON_BACKGROUNDED)
    }

    @Test func aPromptLeftOpenDefersNothingPastTheCap() {
        // Idle: the idle rule waits while the prompt is open, up to the cap.
        let l = strictLock()
        at(l, 0); _ = begin(l)
        at(l, 119_999); idlelock_check(l.handle, nil)
        #expect(l.snapshot().state == IDLELOCK_STATE_UNLOCKED)
        at(l, 120_000); idlelock_check(l.handle, nil)
        var s = l.snapshot()
        #expect(s.state == IDLELOCK_STATE_LOCKED && s.reason == IDLELOCK_REASON_IDLE)
        // Background: past the cap, measured from the real departure.
        let m = strictLock(idle: Int64.max)
        at(m, 0); _ = begin(m)
        at(m, 1_000); idlelock_background(m.handle, nil)
        at(m, 119_999); idlelock_check(m.handle, nil)
        #expect(m.snapshot().state == IDLELOCK_STATE_UNLOCKED)
        at(m, 600_000); idlelock_foreground(m.handle, nil)
        s = m.snapshot()
        #expect(s.state == IDLELOCK_STATE_LOCKED && s.reason == IDLELOCK_REASON_BACKGROUNDED)
    }

    @Test func aPromptOpenedOnALockedSessionChangesNothing() {
        let l = strictLock()
        idlelock_lock(l.handle, nil)
        let inert = begin(l)
        #expect(l.unlock("1234") == 0)
        at(l, 1_000); idlelock_background(l.handle, nil)
        at(l, 40_000); idlelock_foreground(l.handle, nil)
        #expect(l.snapshot().state == IDLELOCK_STATE_LOCKED)
        #expect(idlelock_prompt_end(l.handle, inert) == 0, "an inert token can still be ended, once")
        #expect(idlelock_prompt_end(l.handle, inert) == IDLELOCK_ERR_INVALID_ARGUMENT)
    }

    @Test func aLockMakesOpenPromptsInert() {
        let l = strictLock()
        _ = begin(l)
        idlelock_lock(l.handle, nil)
        #expect(l.unlock("1234") == 0)
        at(l, 1_000); idlelock_background(l.handle, nil)
        at(l, 40_000); idlelock_foreground(l.handle, nil)
        #expect(l.snapshot().reason == IDLELOCK_REASON_BACKGROUNDED)
    }

    @Test func promptEndIsActivityAndTheIdleRuleWaits() {
        let l = strictLock(idle: 10_000)
        let p = begin(l)
        at(l, 50_000); idlelock_check(l.handle, nil)
        #expect(l.snapshot().state == IDLELOCK_STATE_UNLOCKED, "the idle rule waits while a prompt is open")
        #expect(idlelock_prompt_end(l.handle, p) == 0)
        #expect(l.snapshot().last_activity_ms == 50_000)
        at(l, 59_999); idlelock_check(l.handle, nil)
        #expect(l.snapshot().state == IDLELOCK_STATE_UNLOCKED)
        at(l, 60_000); idlelock_check(l.handle, nil)
        #expect(l.snapshot().reason == IDLELOCK_REASON_IDLE)
    }

    @Test func badTokensAreInvalidAndChangeNothing() {
        let l = strictLock()
        let p = begin(l)
        let before = l.snapshot()
        at(l, 5_000)
        #expect(idlelock_prompt_end(l.handle, p + 100) == IDLELOCK_ERR_INVALID_ARGUMENT)
        #expect(String(cString: idlelock_last_error()).contains("not open"))
        #expect(idlelock_prompt_end(l.handle, 0) == IDLELOCK_ERR_INVALID_ARGUMENT)
        let h = Unmanaged<IdleLockHandle>.fromOpaque(UnsafeRawPointer(l.handle!)).takeUnretainedValue()
        #expect(h.rules.lastActivity == before.last_activity_ms, "the clock was not even read")
        #expect(idlelock_prompt_end(l.handle, p) == 0)
        #expect(idlelock_prompt_end(l.handle, p) == IDLELOCK_ERR_INVALID_ARGUMENT, "ended twice")
        var token: UInt64 = 0
        #expect(idlelock_prompt_begin(nil, &token) == IDLELOCK_ERR_INVALID_ARGUMENT)
        #expect(idlelock_prompt_begin(l.handle, nil) == IDLELOCK_ERR_INVALID_ARGUMENT)
        // A token from another handle is not open on this one (tokens start
        // at a random value per handle).
        let other = strictLock()
        let foreign = begin(other)
        _ = begin(l)
        #expect(idlelock_prompt_end(l.handle, foreign) == IDLELOCK_ERR_INVALID_ARGUMENT)
    }

    @Test func theCapIsConfigurable() {
        var cfg = Lock.config()
        cfg.idle_after_ms = 1_000
        cfg.prompt_cap_ms = 600_001
        var h: OpaquePointer? = nil
        #expect(idlelock_create(&cfg, &h) == IDLELOCK_ERR_INVALID_ARGUMENT)
        #expect(String(cString: idlelock_last_error()).contains("prompt_cap_ms"))
        cfg.prompt_cap_ms = -1
        #expect(idlelock_create(&cfg, &h) == IDLELOCK_ERR_INVALID_ARGUMENT)
        cfg.prompt_cap_ms = 0 // prompts defer nothing
        #expect(idlelock_create(&cfg, &h) == 0)
        idlelock_destroy(h)
    }

    /// Nothing among prompts, lifecycle names and activity may move a locked
    /// session to unlocked without a passcode or an authenticator secret.
    @Test func noSequenceWithoutACredentialUnlocks() {
        var random = SeededRandom(seed: 0x5EC0_4E)
        let names: [(Int32, String)] = [
            (IDLELOCK_PLATFORM_IOS_SCENE_PHASE, "active"), (IDLELOCK_PLATFORM_IOS_SCENE_PHASE, "inactive"),
            (IDLELOCK_PLATFORM_IOS_SCENE_PHASE, "background"), (IDLELOCK_PLATFORM_FLUTTER_APP_LIFECYCLE_STATE, "hidden"),
            (IDLELOCK_PLATFORM_FLUTTER_APP_LIFECYCLE_STATE, "resumed"), (IDLELOCK_PLATFORM_ANDROID_LIFECYCLE_EVENT, "ON_STOP"),
            (IDLELOCK_PLATFORM_ANDROID_LIFECYCLE_EVENT, "ON_RESUME"), (IDLELOCK_PLATFORM_ANDROID_LIFECYCLE_EVENT, "ON_START"),
        ]
        for round in 0..<200 {
            let l = strictLock(idle: 5_000)
            var tokens: [UInt64] = []
            if round % 2 == 0 { tokens.append(begin(l)) }
            idlelock_lock(l.handle, nil)
            for _ in 0..<40 {
                at(l, l.clock.now.pointee + Int64(random.below(200_000)) - 1_000)
                switch random.below(7) {
                case 0: tokens.append(begin(l))
                case 1:
                    if !tokens.isEmpty { _ = idlelock_prompt_end(l.handle, tokens.remove(at: random.below(tokens.count))) }
                case 2:
                    let (platform, name) = names[random.below(names.count)]
                    _ = idlelock_lifecycle(l.handle, platform, name, nil)
                case 3: _ = idlelock_touch(l.handle, nil)
                case 4: _ = idlelock_start(l.handle, nil)
                case 5: _ = idlelock_check(l.handle, nil)
                default: _ = idlelock_unlock_with_biometrics(l.handle, nil)
                }
                #expect(l.snapshot().state != IDLELOCK_STATE_UNLOCKED, "round \(round): unlocked without a credential")
                #expect(idlelock_require_unlocked(l.handle) == IDLELOCK_ERR_SESSION_LOCKED)
            }
        }
    }
}

@Suite("Prompt regressions")
struct PromptRegressionTests {
    /// Regression (found by the extended model): a prompt ended past its cap
    /// on a session not yet engaged still started a grace window, so an
    /// absence under it counted as presence once the session engaged.
    @Test func aPromptEndedPastItsCapStartsNoGraceWindow() {
        var cfg = Lock.config()
        cfg.idle_after_ms = 60_000
        cfg.background_after_ms = 10_000
        cfg.lock_on_start = 0
        cfg.prompt_cap_ms = 30_000
        let clock = FakeClock(1_000_000)
        cfg.clock = FakeClock.function
        cfg.clock_ctx = UnsafeMutableRawPointer(clock.now)
        var h: OpaquePointer? = nil
        #expect(idlelock_create(&cfg, &h) == 0)
        defer { idlelock_destroy(h) }
        var token: UInt64 = 0
        #expect(idlelock_prompt_begin(h, &token) == 0)
        #expect(idlelock_background(h, nil) == 0)
        clock.advance(40_000)
        #expect(idlelock_prompt_end(h, token) == 0)
        #expect(idlelock_set_passcode(h, "2468", 4) == 0)
        var s = idlelock_snapshot()
        s.size = UInt32(MemoryLayout<idlelock_snapshot>.size)
        #expect(idlelock_snapshot_get(h, &s) == 0)
        #expect(s.state == IDLELOCK_STATE_LOCKED && s.reason == IDLELOCK_REASON_BACKGROUNDED)
    }
}
