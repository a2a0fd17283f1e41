// SPDX-License-Identifier: MIT
// Races with another process, made exact: the fault plan runs what the
// other process does just before a chosen system call of this handle's
// step (SystemCallFault.before), e.g. before the flock of the step's store
// lock, after the cheap look has seen the store unchanged. Another handle
// on the same path stands in for the other process (its own lock file
// descriptor and flock). The rules: a step never takes effect on a store
// it did not read; a sign-out elsewhere is followed here; another sign-in
// never mixes with this one; the error says what happened.
//
// The C suite test_store's processes area races real processes; these pin
// each branch to one instant.

import CIdleLock
import Foundation
import Testing
@testable import IdleLock

private func lastError() -> String { String(cString: idlelock_last_error()) }
private let key = [UInt8](repeating: 4, count: 32)
private let right = "2468"

/// A session on `folder`'s store with a passcode, unlocked (a device key:
/// lock_on_start 0 keeps it open).
private func session(_ folder: TempFolder, clock: FakeClock = FakeClock(), maxAttempts: Int32 = 5) -> StoredLock {
    let lock = StoredLock(folder.store, clock: clock, lockOnStart: 0, key: key, maxAttempts: maxAttempts)
    precondition(lock.setPasscode(right) == 0, lastError())
    return lock
}

/// Another process on the same store.
private func other(_ folder: TempFolder, clock: FakeClock = FakeClock()) -> StoredLock {
    let lock = StoredLock(folder.store, clock: clock, lockOnStart: 0, key: key)
    idlelock_start(lock.handle, nil)
    return lock
}

/// Another process signs out.
private func signOutElsewhere(_ folder: TempFolder) {
    let b = other(folder)
    withExtendedLifetime(b) { precondition(idlelock_disable(b.handle) == 0, lastError()) }
}

/// Another process signs out, and a third signs in anew with its own
/// passcode: a different sign-in at the same path.
private func anotherSignIn(_ folder: TempFolder) {
    signOutElsewhere(folder)
    let c = StoredLock(folder.store, clock: FakeClock(), lockOnStart: 0, key: key)
    withExtendedLifetime(c) { precondition(c.setPasscode("1357") == 0, lastError()) }
}

@Suite("Store races: an unlock")
struct UnlockRaceTests {
    @Test func anotherSignInBeforeTheAttemptIsCountedLocksThisSession() {
        let folder = TempFolder()
        let a = session(folder)
        idlelock_lock(a.handle, nil)
        let plan = SystemCallFaults(.before(.flock) { anotherSignIn(folder) })
        #expect(plan.run { a.unlock(right) } == IDLELOCK_ERR_SESSION_LOCKED)
        #expect(plan.allHit)
        #expect(lastError().contains("another process signed in with its own passcode; this session is locked"))
        #expect(a.snapshot().state == IDLELOCK_STATE_LOCKED)
        #expect(a.unlock("1357") == 0, "the other sign-in's passcode opens the other sign-in")
    }

    @Test func aSignOutBeforeTheAttemptIsCountedIsFollowed() {
        let folder = TempFolder()
        let a = session(folder)
        idlelock_lock(a.handle, nil)
        let plan = SystemCallFaults(.before(.flock) { signOutElsewhere(folder) })
        #expect(plan.run { a.unlock(right) } == IDLELOCK_ERR_NO_PASSCODE)
        #expect(plan.allHit)
        #expect(a.snapshot().is_enabled == 0, "signed out here too")
    }

    /// Another process used up the attempts while this one looked: this
    /// attempt finds the lockout saved, and is not checked.
    @Test func aLockoutReachedElsewhereMeanwhileIsALockoutHere() {
        let folder = TempFolder()
        let a = session(folder, maxAttempts: 2)
        idlelock_lock(a.handle, nil)
        let plan = SystemCallFaults(.before(.flock) {
            let b = other(folder)
            _ = b.unlock("0000")
            _ = b.unlock("0000")
        })
        #expect(plan.run { a.unlock(right) } == IDLELOCK_ERR_LOCKED_OUT)
        #expect(plan.allHit)
        #expect(a.snapshot().attempts_remaining == 0)
    }

    /// While the passcode is checked (the store lock released), another
    /// process signs in anew, signs out, or sets another passcode: the
    /// attempt is void, never an unlock of a session it did not check.
    @Test(arguments: ["sign-in", "sign-out", "new passcode"])
    func aChangeWhileThePasscodeIsCheckedVoidsTheAttempt(_ change: String) {
        let folder = TempFolder()
        let a = session(folder)
        #expect(a.put("k", "v") == 0)
        idlelock_lock(a.handle, nil)
        // flock#1 and #2 take the store lock (<store>.lock, then the
        // folder) to count the attempt, #3 and #4 release them; flock#5
        // takes it again to apply the checked attempt.
        let plan = SystemCallFaults(.before(.flock, after: 4) {
            switch change {
            case "sign-in": anotherSignIn(folder)
            case "sign-out": signOutElsewhere(folder)
            default:
                let b = other(folder)
                _ = b.unlock(right)
                precondition(b.setPasscode("9753") == 0, lastError())
            }
        })
        let rc = plan.run { a.unlock(right) }
        #expect(plan.allHit)
        #expect(rc != 0, "\(change): not unlocked")
        if change == "sign-out" {
            #expect(a.snapshot().is_enabled == 0, "signed out here too")
        } else {
            #expect(a.snapshot().state == IDLELOCK_STATE_LOCKED, "\(change)")
        }
        #expect(a.get("k").0 != 0, "\(change): no secret handed out")
    }
}

@Suite("Store races: a new passcode, a secret, a lock")
struct StepRaceTests {
    @Test func anotherSignInWhileAPasscodeIsSetChangesNothing() {
        let folder = TempFolder()
        let a = session(folder)
        let plan = SystemCallFaults(.before(.flock) { anotherSignIn(folder) })
        #expect(plan.run { a.setPasscode("1111") } != 0)
        #expect(plan.allHit)
        #expect(lastError().contains("another process signed in with its own passcode meanwhile; nothing changed"), "\(lastError())")
        let c = other(folder)
        #expect(c.unlock("1357") == 0 || c.snapshot().state == IDLELOCK_STATE_UNLOCKED, "the other sign-in stands")
    }

    @Test func aSignOutWhileAPasscodeIsSetIsFollowed() {
        let folder = TempFolder()
        let a = session(folder)
        let plan = SystemCallFaults(.before(.flock) { signOutElsewhere(folder) })
        #expect(plan.run { a.setPasscode("1111") } == IDLELOCK_ERR_STORAGE)
        #expect(plan.allHit)
        #expect(lastError().contains("another process signed out"), "\(lastError())")
        #expect(a.snapshot().is_enabled == 0)
        #expect(!FileManager.default.fileExists(atPath: folder.store), "no store written")
    }

    /// Two first sign-ins at once: the second to take the store lock finds
    /// the first's store, and changes nothing.
    @Test func twoFirstSignInsAtOnceLeaveTheFirst() {
        let folder = TempFolder()
        let a = StoredLock(folder.store, clock: FakeClock(), lockOnStart: 0, key: key)
        let plan = SystemCallFaults(.before(.flock) {
            let b = StoredLock(folder.store, clock: FakeClock(), lockOnStart: 0, key: key)
            precondition(b.setPasscode("1357") == 0, lastError())
        })
        #expect(plan.run { a.setPasscode(right) } == IDLELOCK_ERR_STORAGE)
        #expect(plan.allHit)
        #expect(lastError().contains("another process signed in with its own passcode meanwhile; nothing changed"))
        let c = other(folder)
        idlelock_lock(c.handle, nil)
        #expect(c.unlock("1357") == 0, "the first sign-in's store stands")
    }

    @Test func aSignOutBeforeASecretIsSavedLeavesItInMemoryOnly() {
        let folder = TempFolder()
        let a = session(folder)
        let plan = SystemCallFaults(.before(.flock) { signOutElsewhere(folder) })
        #expect(plan.run { a.put("token", "t") } == 0, "\(lastError())")
        #expect(plan.allHit)
        #expect(a.snapshot().is_enabled == 0, "signed out here too")
        #expect(a.get("token") == (0, "t"), "kept in memory, as a session with no passcode keeps it")
        #expect(!FileManager.default.fileExists(atPath: folder.store), "nothing written for a session signed out")
    }

    @Test func anotherSignInBeforeASecretIsSavedLocksThisSession() {
        let folder = TempFolder()
        let a = session(folder)
        let plan = SystemCallFaults(.before(.flock) { anotherSignIn(folder) })
        #expect(plan.run { a.put("token", "t") } == IDLELOCK_ERR_SESSION_LOCKED)
        #expect(plan.allHit)
        #expect(lastError().contains("another process signed in with its own passcode; this session is locked"))
        #expect(a.get("token").0 != 0)
    }

    /// A lock saved while another sign-in holds the store: locked here, and
    /// the other sign-in's store is not written with this session's lock.
    @Test func aLockIsNotSavedIntoAnotherSignIn() {
        let folder = TempFolder()
        let a = session(folder)
        var otherStore: Data? = nil
        let plan = SystemCallFaults(.before(.flock) {
            anotherSignIn(folder)
            otherStore = FileManager.default.contents(atPath: folder.store)
        })
        plan.run { _ = idlelock_lock(a.handle, nil) }
        #expect(plan.allHit)
        #expect(a.snapshot().state == IDLELOCK_STATE_LOCKED)
        #expect(FileManager.default.contents(atPath: folder.store) == otherStore, "the other sign-in's store is untouched")
    }

    /// A sign-out of a store another sign-in replaced: the store goes, and
    /// the mark retires the sign-in that was at the path.
    @Test func aSignOutRemovesTheStoreAtThePathWhoeverMadeIt() {
        let folder = TempFolder()
        let a = session(folder)
        anotherSignIn(folder)
        #expect(idlelock_disable(a.handle) == 0)
        #expect(!FileManager.default.fileExists(atPath: folder.store))
        let d = StoredLock(folder.store, clock: FakeClock(), lockOnStart: 0, key: key)
        #expect(d.snapshot().is_enabled == 0)
    }

    /// A sign-out of a handle that never signed in, with no store.
    @Test func aSignOutWithNoStoreIsFine() {
        let folder = TempFolder()
        let a = StoredLock(folder.store, clock: FakeClock(), lockOnStart: 0, key: key)
        #expect(idlelock_disable(a.handle) == 0)
        #expect(!FileManager.default.fileExists(atPath: folder.store))
    }
}

@Suite("Store races: the look")
struct LookRaceTests {
    /// The store changed (another process wrote a secret), and is deleted
    /// between the look's first bytes and its full read: a sign-out.
    @Test func aStoreDeletedBetweenTheLooksReadsIsASignOut() {
        let folder = TempFolder()
        let a = session(folder)
        #expect(a.put("k", "v") == 0)
        let b = other(folder)
        #expect(b.put("k", "w") == 0)
        // openat#1: the look's first bytes; openat#2: the full read.
        let plan = SystemCallFaults(.before(.openat, after: 1) {
            try? FileManager.default.removeItem(atPath: folder.store)
        })
        let (rc, _) = plan.run { a.get("k") }
        #expect(plan.allHit)
        #expect(rc != 0)
        #expect(a.snapshot().is_enabled == 0, "the sign-out elsewhere is followed")
    }
}

@Suite("Store races: a handle that has not caught up")
struct CatchUpTests {
    /// A sign-out elsewhere, seen when a new passcode is set: this session
    /// follows it, and the call says so (the host drops its own data
    /// first; a new sign-in is a later set_passcode).
    @Test func aNewPasscodeAfterASignOutElsewhereSaysSo() {
        let folder = TempFolder()
        let a = session(folder)
        signOutElsewhere(folder)
        #expect(a.setPasscode("1111") == IDLELOCK_ERR_STORAGE)
        #expect(lastError().contains("another process signed out"))
        #expect(a.snapshot().is_enabled == 0)
        #expect(a.setPasscode("1111") == 0, "a new sign-in")
    }

    /// A handle that opened a stored session and was not started: no
    /// secret, no new passcode, until idlelock_start judges the time since
    /// the last run.
    @Test func aStoredSessionNotYetStartedHandsOutNothing() {
        let folder = TempFolder()
        let a = session(folder)
        #expect(a.put("k", "v") == 0)
        let b = StoredLock(folder.store, clock: FakeClock(), lockOnStart: 0, key: key)
        #expect(b.get("k").0 == IDLELOCK_ERR_SESSION_LOCKED)
        #expect(lastError().contains("has not been started"))
        #expect(b.setPasscode("1111") == IDLELOCK_ERR_SESSION_LOCKED)
        #expect(lastError().contains("has not been started"))
        idlelock_start(b.handle, nil)
        #expect(b.get("k") == (0, "v"))
    }

    /// A store of no sign-in this handle knows is never its own.
    @Test func aHandleWithNoSignInOwnsNoStore() throws {
        let folder = TempFolder()
        let a = session(folder)
        _ = a
        let files = try folder.store.withCString { (path) throws(IdleLockError) in try StoreFiles.open(path) }
        let store = SessionStore(files: files, keys: try StoreKeys(deviceKey: nil))
        let image = StoreImage(maxAttempts: 5, savedActivity: 0, bootID: [], sessionID: [1],
                               passcode: PasscodeWrap(opslimit: 0, memlimit: 0, salt: [], nonce: [], sealed: []))
        #expect(!store.isOurs(image))
    }
}

@Suite("Store races: the biometric shortcut")
struct ShortcutRaceTests {
    /// Another process signs out, or signs in anew, just before the
    /// shortcut's wrap is saved: it is not saved into a store that is not
    /// this session's.
    @Test(arguments: ["sign-out", "sign-in"])
    func aShortcutIsNotSavedIntoAnotherSignIn(_ change: String) {
        let folder = TempFolder()
        let a = BioLock(store: folder.store)
        #expect(a.setPasscode(right) == 0)
        let plan = SystemCallFaults(.before(.flock) {
            let b = StoredLock(folder.store, clock: FakeClock())
            idlelock_start(b.handle, nil)
            withExtendedLifetime(b) { precondition(idlelock_disable(b.handle) == 0, lastError()) }
            if change == "sign-in" {
                let c = StoredLock(folder.store, clock: FakeClock())
                withExtendedLifetime(c) { precondition(c.setPasscode("1357") == 0, lastError()) }
            }
        })
        let rc = plan.run { idlelock_enable_biometrics(a.handle) }
        #expect(plan.allHit)
        if change == "sign-out" {
            #expect(rc == IDLELOCK_ERR_NO_PASSCODE, "\(lastError())")
            #expect(a.snapshot().is_enabled == 0)
        } else {
            #expect(rc == IDLELOCK_ERR_SESSION_LOCKED, "\(lastError())")
            #expect(lastError().contains("another process signed in with its own passcode; this session is locked"))
        }
        #expect(a.snapshot().is_biometrics_enabled == 0)
    }
}
