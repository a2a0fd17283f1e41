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
        let files = try folder.store.withCString { (path) throws(IdleLockError) in try StoreFiles.open(StorePath(validating: path)) }
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

/// Another process locks the session out: `maxAttempts` wrong passcodes.
private func lockOutElsewhere(_ folder: TempFolder, attempts: Int = 2) {
    let b = other(folder)
    withExtendedLifetime(b) {
        for _ in 0..<attempts { _ = b.unlock("0000") }
    }
}

/// The flocks of one durable step: <store>.lock and the folder taken, then
/// released; the next try's first flock is `4 * n`.
private func nthTry(_ n: Int) -> Int { 4 * n }

@Suite("Store races: a step that another process's writes overtake")
struct OvertakenStepTests {
    /// Another process wrote after this handle's look and before its step
    /// took the store lock: the step takes that write in first, then
    /// applies itself on top (nothing of either is lost).
    @Test func aWriteElsewhereBeforeTheStepIsTakenInFirst() {
        let folder = TempFolder()
        let a = session(folder)
        let plan = SystemCallFaults(.before(.flock) {
            let b = other(folder)
            withExtendedLifetime(b) { precondition(b.put("b", "from b") == 0, lastError()) }
        })
        #expect(plan.run { a.put("a", "from a") } == 0, "\(lastError())")
        #expect(plan.allHit)
        #expect(a.get("a") == (0, "from a"))
        #expect(a.get("b") == (0, "from b"))
        let c = other(folder)
        #expect(c.get("a") == (0, "from a") && c.get("b") == (0, "from b"), "both on disk")
    }

    /// Another process writes before every try: the step gives up after
    /// four, changes nothing, and says why.
    @Test func aStepOvertakenAgainAndAgainGivesUp() {
        let folder = TempFolder()
        let a = session(folder)
        let plan = SystemCallFaults((0..<4).map { n in
            SystemCallFault.before(.flock, after: nthTry(n)) {
                let b = other(folder)
                withExtendedLifetime(b) { precondition(b.put("b\(n)", "x") == 0, lastError()) }
            }
        })
        #expect(plan.run { a.put("a", "from a") } == IDLELOCK_ERR_STORAGE)
        #expect(plan.allHit, "\(plan.trace)")
        #expect(lastError().contains("another process kept writing the store while this call tried to; nothing changed"))
        #expect(a.get("a").0 == IDLELOCK_ERR_NOT_FOUND)
        #expect(a.get("b3") == (0, "x"), "the other process's writes are taken in")
    }

    /// Another process locks the session out while a step of this one that
    /// needs it open waits for the store lock: the step does not write.
    @Test(arguments: ["set_passcode", "secret_put", "secret_remove", "enable_biometrics"])
    func aLockoutElsewhereStopsAStepThatNeedsTheSessionOpen(_ call: String) {
        let folder = TempFolder()
        let a = BioLock(store: folder.store)
        #expect(a.setPasscode(right) == 0)
        #expect(idlelock_secret_put(a.handle, "k", [1], 1) == 0)
        // A handle with the same configuration as the others (no device
        // key), five wrong passcodes: the limit of `a`'s config.
        let plan = SystemCallFaults(.before(.flock) {
            let b = StoredLock(folder.store, clock: FakeClock())
            idlelock_start(b.handle, nil)
            withExtendedLifetime(b) { for _ in 0..<5 { _ = b.unlock("0000") } }
        })
        let rc: Int32 = plan.run {
            switch call {
            case "set_passcode": return a.setPasscode("1111")
            case "secret_put": return idlelock_secret_put(a.handle, "k", [2], 1)
            case "secret_remove": return idlelock_secret_remove(a.handle, "k")
            default: return idlelock_enable_biometrics(a.handle)
            }
        }
        #expect(plan.allHit)
        #expect(rc == IDLELOCK_ERR_SESSION_LOCKED || rc == IDLELOCK_ERR_LOCKED_OUT, "\(call): \(lastError())")
        #expect(a.snapshot().state != IDLELOCK_STATE_UNLOCKED, "\(call)")
        let c = StoredLock(folder.store, clock: FakeClock())
        #expect(c.snapshot().attempts_remaining == 0, "\(call): the lockout stands on disk")
    }
}

@Suite("Store races: the look's older copy, judged again")
struct LookOlderCopyTests {
    /// The look reads the mark through the lock file this handle holds
    /// open; a cleanup tool deleted it, and another process signed in anew
    /// with a new one: the store looks older than the held file's mark, and
    /// is judged again under the store lock, on the lock file at the path,
    /// where it is sound. Regression (issue 26): the session was refused
    /// as an older copy until the process restarted.
    @Test func aStoreOlderThanADeletedLockFilesMarkIsJudgedAgain() throws {
        let folder = TempFolder()
        let a = session(folder)
        try deleteLockFileMarkedAhead(folder)
        let (rc, _) = a.get("k")
        #expect(rc != IDLELOCK_ERR_STORAGE, "not refused as an older copy: \(lastError())")
        #expect(a.snapshot().state == IDLELOCK_STATE_LOCKED, "another sign-in's store: locked here")
        #expect(a.unlock("1357") == 0, "and opened with its passcode")
    }
}

extension LookOlderCopyTests {
    /// The same, and the store is deleted (a sign-out elsewhere) just
    /// before the judging under the store lock: a sign-out, followed here.
    @Test func aStoreDeletedBeforeItIsJudgedAgainIsASignOut() throws {
        let folder = TempFolder()
        let a = session(folder)
        try deleteLockFileMarkedAhead(folder)
        let plan = SystemCallFaults(.before(.flock) { try? FileManager.default.removeItem(atPath: folder.store) })
        let (rc, _) = plan.run { a.get("k") }
        #expect(plan.allHit)
        #expect(rc != 0)
        #expect(a.snapshot().is_enabled == 0, "the sign-out is followed")
    }
}

/// Gives the lock file every handle holds open a mark far ahead of any
/// generation, deletes it (a cleanup tool), and has another process sign
/// in anew with a new one.
private func deleteLockFileMarkedAhead(_ folder: TempFolder) throws {
    let keys = try raceKeys()
    let id = [UInt8](repeating: 0xEE, count: StoreFormat.sessionIDBytes)
    let lock = try FileHandle(forUpdating: URL(fileURLWithPath: folder.store + ".lock"))
    for write in StoreMarkFormat.writes(StoreMark(sessionID: id, generation: UInt64.max - 1), over: .none, keys: keys) {
        try lock.seek(toOffset: UInt64(write.slot * StoreMarkFormat.slotBytes))
        lock.write(Data(write.bytes))
    }
    try lock.close()
    try FileManager.default.removeItem(atPath: folder.store + ".lock")
    anotherSignIn(folder)
}

/// The store keys of this file's device key.
private func raceKeys() throws -> StoreKeys {
    let k = try SecureBytes.allocate(count: 32)
    key.withUnsafeBufferPointer { k.copy(from: $0.baseAddress!, count: 32) }
    return try StoreKeys(deviceKey: k)
}
