// SPDX-License-Identifier: MIT
// A biometric request's life (issue 19): one definition of "expired" for
// the finish and for the table of open requests, what an expired request's
// finish changes (nothing but the judging every call does), every path
// that turns the shortcut off voiding the requests it leaves without a
// purpose (they stop deferring the idle lock), and how a re-check answered
// while the app is away is judged. Through the C ABI, with the test as the
// host (PairLock, BiometricPairTests.swift).

import CIdleLock
import Foundation
import Testing
@testable import IdleLock

private func lastError() -> String { String(cString: idlelock_last_error()) }

private let storeKey = [UInt8](repeating: 7, count: 32)

@Suite("Biometric requests: life and expiry")
struct RequestExpiryTests {
    /// Regression (issue 19, finding 6): with eight requests open and
    /// begin as the only call, the table stayed full forever: begin judged
    /// "expired" at the latest reading of an earlier call, before reading
    /// the clock. A request expires at elapsed == prompt_cap_ms, and the
    /// begin that finds the table full judges that at its own reading.
    @Test func beginAloneFreesTheRequestsThatExpired() {
        let l = PairLock(promptCap: 30_000)
        l.setPasscode()
        l.enable()
        l.lock()
        var lost: [UInt64] = []
        for _ in 0..<IDLELOCK_BIOMETRIC_REQUESTS_MAX { lost.append(l.beginUnlock().1) }
        l.clock.advance(29_999)
        #expect(l.beginUnlock().0 == IDLELOCK_ERR_INVALID_ARGUMENT, "none has expired yet")
        #expect(lastError().contains("none has expired"))
        l.clock.advance(1) // elapsed == prompt_cap_ms: expired, for the table as for the finish
        let (rc, token) = l.beginUnlock()
        #expect(rc == 0, "\(lastError())")
        // The lost requests' tokens are no longer open: never an unlock.
        #expect(l.finish(lost[0], secret: l.kept) == IDLELOCK_ERR_INVALID_ARGUMENT)
        #expect(lastError().contains("freed by a later begin"))
        #expect(l.snapshot().state == IDLELOCK_STATE_LOCKED)
        #expect(l.finish(token, secret: l.kept) == 0, "the new request works")
    }

    /// A begin that meets the table full behind a clock step back (seen by
    /// this very begin) frees every request begun before the step.
    @Test func aStepBackSeenByTheBeginItselfMakesRoom() {
        let l = PairLock(promptCap: 30_000)
        l.setPasscode()
        l.enable()
        l.lock()
        for _ in 0..<IDLELOCK_BIOMETRIC_REQUESTS_MAX { #expect(l.beginUnlock().0 == 0) }
        l.clock.advance(1_000)
        #expect(l.beginUnlock().0 == IDLELOCK_ERR_INVALID_ARGUMENT)
        l.clock.advance(-1)
        let (rc, token) = l.beginUnlock()
        #expect(rc == 0, "\(lastError())")
        #expect(l.finish(token, secret: l.kept) == 0)
    }

    /// A full table is refused with nothing changed but the judging every
    /// call does first: the requests still open stay open.
    @Test func aFullTableChangesNothing() {
        let l = PairLock(promptCap: 30_000)
        l.setPasscode()
        l.enable()
        var tokens: [UInt64] = []
        for _ in 0..<IDLELOCK_BIOMETRIC_REQUESTS_MAX { tokens.append(l.beginUnlock().1) }
        l.clock.advance(10_000)
        let before = l.snapshot()
        var out = idlelock_snapshot()
        out.size = UInt32(MemoryLayout<idlelock_snapshot>.size)
        var token: UInt64 = 0
        #expect(idlelock_biometric_begin(l.handle, IDLELOCK_BIOMETRIC_UNLOCK, &token, nil, 0, &out)
            == IDLELOCK_ERR_INVALID_ARGUMENT)
        #expect(token == 0)
        let after = l.snapshot()
        #expect(after.seq == before.seq && after.ms_until_next_deadline == before.ms_until_next_deadline)
        #expect(l.finish(tokens[7], secret: l.kept) == 0, "still open")
    }

    /// A step forward is time passing: it ages a request by the step, and
    /// one that reaches prompt_cap_ms expires it.
    @Test func aStepForwardAgesTheRequest() {
        let l = PairLock(promptCap: 30_000)
        l.setPasscode()
        l.enable()
        l.lock()
        var (_, token) = l.beginUnlock()
        l.clock.advance(29_999) // a step forward of 29.999 s: within the life
        #expect(l.finish(token, secret: l.kept) == 0)
        l.lock()
        (_, token) = l.beginUnlock()
        l.clock.advance(86_400_000) // a day ahead
        #expect(l.finish(token, secret: l.kept) == IDLELOCK_ERR_LOCK_UNAVAILABLE)
        #expect(lastError().contains("expired"))
        #expect(l.snapshot().state == IDLELOCK_STATE_LOCKED)
    }

    /// Issue 19, finding 10 (a): the header promised that the finish of an
    /// expired request changes nothing, yet on an unlocked session its end
    /// counted as activity: a late answer to a stale sheet extended the
    /// session. It is no activity now, whatever the answer, for the pair
    /// and for the callback authenticator alike.
    @Test func anExpiredFinishIsNoActivity() {
        for result in [IDLELOCK_AUTH_OK, IDLELOCK_AUTH_FAILED, IDLELOCK_AUTH_CANCELLED] {
            let l = PairLock(promptCap: 30_000) // idle 60 s
            l.setPasscode()
            l.enable()
            #expect(idlelock_touch(l.handle, nil) == 0)
            let activity = l.snapshot().last_activity_ms
            let (_, token) = l.beginUnlock() // a re-check on the unlocked session
            l.clock.advance(40_000)           // past its life, not yet idle
            #expect(l.finish(token, result, secret: result == IDLELOCK_AUTH_OK ? l.kept : nil)
                == IDLELOCK_ERR_LOCK_UNAVAILABLE)
            #expect(lastError().contains("expired"), "\(result)")
            let s = l.snapshot()
            #expect(s.state == IDLELOCK_STATE_UNLOCKED, "\(result)")
            #expect(s.last_activity_ms == activity, "\(result): the late answer is no activity")
            #expect(s.ms_until_idle_lock == 20_000, "\(result)")
        }
        // An ENABLE request, too.
        let l = PairLock(promptCap: 30_000)
        l.setPasscode()
        let activity = l.snapshot().last_activity_ms
        let (_, token, _) = l.beginEnable()
        l.clock.advance(40_000)
        #expect(l.finish(token) == IDLELOCK_ERR_LOCK_UNAVAILABLE)
        #expect(l.snapshot().last_activity_ms == activity && l.snapshot().is_biometrics_enabled == 0)
    }

    /// Finding 10 (a) on the callback path: a load_secret or store_secret
    /// that outlived prompt_cap_ms is refused as expired, and its end is no
    /// activity either.
    @Test func aHostCheckThatOutlivedItsLifeIsNoActivity() {
        let l = BioLock(promptCap: 30_000) // idle 60 s
        l.setPasscode("2468")
        #expect(idlelock_enable_biometrics(l.handle) == 0)
        let activity = l.snapshot().last_activity_ms
        let clock = Shared(l.clock)
        l.keystore.duringLoad = { clock.value.advance(40_000) }
        #expect(l.bioUnlock() == IDLELOCK_ERR_LOCK_UNAVAILABLE)
        #expect(lastError().contains("expired"))
        var s = l.snapshot()
        #expect(s.state == IDLELOCK_STATE_UNLOCKED && s.last_activity_ms == activity)
        l.keystore.duringStore = { clock.value.advance(1_000) }
        #expect(idlelock_touch(l.handle, nil) == 0)
        let touched = l.snapshot().last_activity_ms
        l.keystore.duringStore = { clock.value.advance(40_000) }
        #expect(idlelock_enable_biometrics(l.handle) == IDLELOCK_ERR_LOCK_UNAVAILABLE)
        s = l.snapshot()
        #expect(s.state == IDLELOCK_STATE_UNLOCKED && s.last_activity_ms == touched)
    }
}

@Suite("Biometric requests: voided when the shortcut goes")
struct RequestVoidTests {
    /// Regression (issue 19, finding 8; the fuzzer's "next deadline 117950
    /// after the idle lock 0"): on an unlocked session with several
    /// requests open, a finish whose secret did not open the wrap turned
    /// the shortcut off; the other requests stayed open and went on
    /// deferring the idle lock for up to prompt_cap_ms, though none could
    /// unlock anything any more. They are void now, as after
    /// idlelock_disable_biometrics.
    @Test func aWrongSecretAtAFinishVoidsTheOtherRequests() {
        let l = PairLock() // idle 60 s, prompt_cap_ms 120 s
        l.setPasscode()
        l.enable()
        let (_, first) = l.beginUnlock()
        let (_, second) = l.beginUnlock()
        let (_, enabling, _) = l.beginEnable()
        l.clock.advance(10_000)
        #expect(l.finish(first, secret: [UInt8](repeating: 9, count: 32)) == IDLELOCK_ERR_LOCK_UNAVAILABLE)
        #expect(l.snapshot().is_biometrics_enabled == 0)
        l.clock.advance(60_000) // idle since the wrong finish's end; within the others' life
        let s = l.snapshot()
        #expect(s.state == IDLELOCK_STATE_LOCKED && s.reason == IDLELOCK_REASON_IDLE,
                "nothing defers the idle lock any more")
        #expect(l.finish(second, secret: l.kept) == IDLELOCK_ERR_INVALID_ARGUMENT)
        #expect(lastError().contains("voided"))
        #expect(l.finish(enabling) == IDLELOCK_ERR_INVALID_ARGUMENT)
    }

    /// Finding 8: the callback authenticator's check that meets an
    /// enrolment change (its secret no longer opens the wrap) voids the
    /// pair's requests too.
    @Test func anEnrolmentChangeSeenByTheCallbacksVoidsTheRequests() {
        let l = BioLock() // idle 60 s, prompt_cap_ms 120 s
        l.setPasscode("2468")
        #expect(idlelock_enable_biometrics(l.handle) == 0)
        var token: UInt64 = 0
        #expect(idlelock_biometric_begin(l.handle, IDLELOCK_BIOMETRIC_UNLOCK, &token, nil, 0, nil) == 0)
        l.keystore.secret = [UInt8](repeating: 9, count: 32) // a new enrolment replaced the item
        l.clock.advance(10_000)
        #expect(l.bioUnlock() == IDLELOCK_ERR_LOCK_UNAVAILABLE)
        #expect(l.snapshot().is_biometrics_enabled == 0)
        l.clock.advance(60_000)
        #expect(l.snapshot().state == IDLELOCK_STATE_LOCKED, "the voided request defers nothing")
        #expect(idlelock_biometric_finish(l.handle, token, IDLELOCK_AUTH_CANCELLED, nil, 0, nil)
            == IDLELOCK_ERR_INVALID_ARGUMENT)
    }

    /// Finding 8: an enable through the callbacks that fails after
    /// store_secret replaced the host's item turns the shortcut enabled
    /// before off, and voids the requests with it.
    @Test func anEnableThatTurnsTheShortcutOffVoidsTheRequests() {
        let l = BioLock(promptCap: 30_000)
        l.setPasscode("2468")
        #expect(idlelock_enable_biometrics(l.handle) == 0)
        var token: UInt64 = 0
        #expect(idlelock_biometric_begin(l.handle, IDLELOCK_BIOMETRIC_UNLOCK, &token, nil, 0, nil) == 0)
        let clock = Shared(l.clock)
        l.keystore.duringStore = { clock.value.advance(31_000) } // outlives its life
        #expect(idlelock_enable_biometrics(l.handle) == IDLELOCK_ERR_LOCK_UNAVAILABLE)
        #expect(l.snapshot().is_biometrics_enabled == 0)
        #expect(idlelock_biometric_finish(l.handle, token, IDLELOCK_AUTH_CANCELLED, nil, 0, nil)
            == IDLELOCK_ERR_INVALID_ARGUMENT)
    }

    /// Two handles on one store (as two processes): what the other one did
    /// is seen at this handle's next call that looks at the store.
    private func pair() -> (TempFolder, PairLock, PairLock) {
        let folder = TempFolder()
        let clock = FakeClock(1_000_000)
        let mine = PairLock(clock: clock, store: folder.store, deviceKey: storeKey, lockOnStart: 0)
        mine.setPasscode()
        mine.enable()
        let other = PairLock(clock: clock, store: folder.store, deviceKey: storeKey, lockOnStart: 0)
        #expect(idlelock_start(other.handle, nil) == 0)
        other.kept = mine.kept
        return (folder, mine, other)
    }

    /// Finding 8, through the store: another process turning the shortcut
    /// off (idlelock_disable_biometrics there, or a wrong secret there)
    /// voids this handle's requests once it sees the store.
    @Test func anotherProcessTurningTheShortcutOffVoidsTheRequests() {
        for how in ["disable_biometrics", "a wrong secret"] {
            let (folder, mine, other) = pair()
            let (_, token) = mine.beginUnlock()
            let (_, enabling, _) = mine.beginEnable()
            if how == "disable_biometrics" {
                #expect(idlelock_disable_biometrics(other.handle) == 0)
            } else {
                let (_, theirs) = other.beginUnlock()
                #expect(other.finish(theirs, secret: [UInt8](repeating: 9, count: 32)) == IDLELOCK_ERR_LOCK_UNAVAILABLE)
            }
            #expect(idlelock_require_unlocked(mine.handle) == 0) // looks at the store
            #expect(mine.snapshot().is_biometrics_enabled == 0, "\(how)")
            mine.clock.advance(60_000)
            #expect(mine.snapshot().state == IDLELOCK_STATE_LOCKED, "\(how): nothing defers the idle lock")
            #expect(mine.finish(token, secret: mine.kept) == IDLELOCK_ERR_INVALID_ARGUMENT, "\(how)")
            #expect(mine.finish(enabling) == IDLELOCK_ERR_INVALID_ARGUMENT, "\(how)")
            _ = folder
        }
    }

    /// Another process replacing the shortcut (its own enable): this
    /// handle's UNLOCK requests, begun under the old one, can no longer
    /// unlock and are void; its ENABLE requests can still replace it again.
    @Test func anotherProcessReplacingTheShortcutVoidsTheUnlockRequests() {
        let (folder, mine, other) = pair()
        let (_, token) = mine.beginUnlock()
        let (_, enabling, secret) = mine.beginEnable()
        other.enable()
        #expect(idlelock_require_unlocked(mine.handle) == 0)
        #expect(mine.finish(token, secret: mine.kept) == IDLELOCK_ERR_INVALID_ARGUMENT)
        #expect(lastError().contains("voided"))
        #expect(mine.finish(enabling) == 0, "an ENABLE request still replaces it")
        mine.kept = secret
        mine.lock()
        #expect(mine.pairUnlock() == 0)
        _ = folder
    }

    /// A new passcode or a sign-out by another process voids every request
    /// (as they do in this process).
    @Test func aNewPasscodeOrASignOutElsewhereVoidsTheRequests() {
        for how in ["set_passcode", "disable"] {
            let (folder, mine, other) = pair()
            let (_, token) = mine.beginUnlock()
            let (_, enabling, _) = mine.beginEnable()
            if how == "set_passcode" {
                #expect(other.setPasscode("1357") == 0)
            } else {
                #expect(idlelock_disable(other.handle) == 0)
            }
            _ = idlelock_require_unlocked(mine.handle)
            #expect(mine.finish(token, secret: mine.kept) == IDLELOCK_ERR_INVALID_ARGUMENT, "\(how)")
            #expect(mine.finish(enabling) == IDLELOCK_ERR_INVALID_ARGUMENT, "\(how)")
            _ = folder
        }
    }
}

@Suite("Unlocks while away")
struct UnlockWhileAwayTests {
    /// Issue 19, finding 10 (d): an unlock that succeeds while the app is
    /// away sets the departure to the unlock's reading (whether the
    /// absence reached the background is kept): the absence is measured
    /// from the unlock.
    @Test func aPasscodeUnlockWhileAwayMovesTheDeparture() {
        let l = PairLock() // idle 60 s, background 10 s, inactive 30 s
        l.setPasscode()
        l.lock()
        #expect(idlelock_background(l.handle, nil) == 0)
        l.clock.advance(50_000)
        #expect(l.unlock() == 0) // unlocked from a widget while the app is away
        let unlockedAt = l.clock.now.pointee
        l.clock.advance(9_999)
        #expect(idlelock_check(l.handle, nil) == 0)
        #expect(l.snapshot().state == IDLELOCK_STATE_UNLOCKED, "away 9.999 s since the unlock")
        l.clock.advance(1)
        #expect(idlelock_foreground(l.handle, nil) == 0)
        let s = l.snapshot()
        #expect(s.state == IDLELOCK_STATE_LOCKED && s.reason == IDLELOCK_REASON_BACKGROUNDED,
                "background_after_ms from the unlock at \(unlockedAt), the absence still one that reached the background")
    }

    /// Finding 10 (d): a biometric re-check answered while the app is away
    /// (the system sheet made it inactive). A success is an unlock: the
    /// absence counts from the finish, and the request's prompt, ending at
    /// the finish, covers it for grace_ms more. A failure moves nothing:
    /// once the prompt's end plus grace_ms has passed the absence is judged
    /// from the real departure.
    @Test func aReCheckAnsweredWhileAwayIsJudgedFromItsAnswer() {
        for passed in [true, false] {
            let l = PairLock() // idle 60 s, background 10 s, inactive 30 s, grace 1.5 s
            l.setPasscode()
            l.enable()
            let (_, token) = l.beginUnlock()
            #expect(idlelock_inactive(l.handle, nil) == 0) // the sheet is up
            l.clock.advance(40_000)                        // past inactive_after_ms, within the request's life
            #expect(l.finish(token, passed ? IDLELOCK_AUTH_OK : IDLELOCK_AUTH_FAILED,
                             secret: passed ? l.kept : nil) == (passed ? 0 : IDLELOCK_ERR_LOCK_UNAVAILABLE))
            let answeredAt = l.clock.now.pointee
            #expect(l.snapshot().last_activity_ms == answeredAt, "the end of the check is activity")
            l.clock.advance(2_000) // back 2 s after the answer: past its grace window
            #expect(idlelock_foreground(l.handle, nil) == 0)
            let s = l.snapshot()
            if passed {
                #expect(s.state == IDLELOCK_STATE_UNLOCKED, "away 2 s since the unlock")
            } else {
                #expect(s.state == IDLELOCK_STATE_LOCKED && s.reason == IDLELOCK_REASON_BACKGROUNDED,
                        "away 42 s since the real departure")
            }
        }
    }
}
