// SPDX-License-Identifier: MIT
// A store put back to an older copy (issue 19, finding 5; docs/STORE.md,
// "Rollback"; docs/STORE_FORMAT.md, "The lock file"): a handle never adopts
// a lower generation of its sign-in than it has seen, and the mark in
// `<store>.lock` makes every process catch a rollback of the store file
// alone. Two handles on one path behave as two processes (each has its own
// lock file descriptor); real processes are in Tests/c/test_store/
// (rollback.c).

import CIdleLock
import CSystem
import Foundation
import Testing
@testable import IdleLock

private let key: [UInt8] = (0..<32).map { UInt8(truncatingIfNeeded: $0 &* 11 &+ 5) }

private func bytes(_ path: String) -> [UInt8] {
    (try? [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))) ?? []
}

/// Puts `copy` back at `path`, as a restore from a backup would (a new
/// file: the inode changes as it does for a restore).
private func putBack(_ copy: [UInt8], at path: String) {
    try? FileManager.default.removeItem(atPath: path)
    #expect(FileManager.default.createFile(atPath: path, contents: Data(copy)))
}

/// Writes `<store>.lock` in place (the library holds it open).
private func writeLockFile(_ path: String, _ content: [UInt8]) {
    let fd = open(path + ".lock", O_WRONLY | O_TRUNC)
    #expect(fd >= 0)
    if !content.isEmpty {
        _ = content.withUnsafeBytes { write(fd, $0.baseAddress!, $0.count) }
    }
    close(fd)
}

private func lastError() -> String { String(cString: idlelock_last_error()) }

private func handle(_ lock: TestHandle) -> IdleLockHandle {
    Unmanaged<IdleLockHandle>.fromOpaque(UnsafeRawPointer(lock.handle!)).takeUnretainedValue()
}

/// The store keys of `key` (or none), to read the mark as the library does.
private func storeKeys(_ withKey: Bool) throws -> StoreKeys {
    guard withKey else { return try StoreKeys(deviceKey: nil) }
    let secure = try SecureBytes.allocate(count: 32)
    key.withUnsafeBufferPointer { secure.copy(from: $0.baseAddress!, count: 32) }
    return try StoreKeys(deviceKey: secure)
}

/// The store's generation (offset 16).
private func generation(_ path: String) -> UInt64 {
    generationOf(bytes(path))
}

/// The generation of a copy of the store.
private func generationOf(_ b: [UInt8]) -> UInt64 {
    guard b.count >= 24 else { return 0 }
    return b[16..<24].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
}

@Suite("Rollback")
struct RollbackTests {
    /// Regression (issue 19, finding 5): restoring an older copy of the
    /// store gave back the biometric uses: biometric_max_uses 2 allowed a
    /// third unlock, on the running handle and on a new one, with or
    /// without a device key.
    @Test(arguments: [false, true])
    func anOlderCopyNeverGivesBackBiometricUses(withKey: Bool) {
        let folder = TempFolder()
        let clock = FakeClock()
        let a = PairLock(clock: clock, maxUses: 2, store: folder.store, deviceKey: withKey ? key : nil)
        a.setPasscode()
        a.enable()
        a.lock()
        let copy = bytes(folder.store) // no biometric use yet
        #expect(a.pairUnlock() == 0)
        a.lock()
        #expect(a.pairUnlock() == 0)
        a.lock()
        #expect(a.snapshot().is_passcode_required == 1)
        putBack(copy, at: folder.store)
        #expect(a.pairUnlock() == IDLELOCK_ERR_STORAGE, "the running handle adopted an older generation")
        #expect(lastError().contains("older copy"), "\(lastError())")
        let s = a.snapshot()
        #expect(s.state == IDLELOCK_STATE_LOCKED && s.is_enabled == 1)
        #expect(idlelock_require_unlocked(a.handle) == IDLELOCK_ERR_STORAGE)
        // A new process catches it too (the mark in <store>.lock).
        let b = StoredLock(folder.store, clock: clock, key: withKey ? key : nil)
        #expect(b.status == IDLELOCK_ERR_STORAGE, "a new handle adopted the older copy")
        #expect(lastError().contains("older copy"))
        #expect(bytes(folder.store) == copy, "the file is left untouched")
    }

    /// Regression (issue 19, finding 5): a copy saved before a lockout let
    /// a new process unlock with the passcode.
    @Test func aPreLockoutCopyDoesNotOpenInANewProcess() {
        let folder = TempFolder()
        let clock = FakeClock()
        let copy: [UInt8]
        do {
            let a = StoredLock(folder.store, clock: clock, maxAttempts: 2)
            #expect(a.setPasscode("2468") == 0)
            idlelock_lock(a.handle, nil)
            copy = bytes(folder.store)
            #expect(a.unlock("0000") == IDLELOCK_ERR_INVALID_PASSCODE)
            #expect(a.unlock("0000") == IDLELOCK_ERR_LOCKED_OUT)
        }
        putBack(copy, at: folder.store)
        let b = StoredLock(folder.store, clock: clock, maxAttempts: 2)
        #expect(b.status == IDLELOCK_ERR_STORAGE, "a pre-lockout copy opened")
        #expect(b.handle == nil)
    }

    /// The mark is raised at every write, so a copy one generation old is
    /// caught; the latest copy put back changes nothing.
    @Test func oneGenerationBackIsCaughtAndTheLatestCopyIsNoRollback() {
        let folder = TempFolder()
        let clock = FakeClock()
        let a = StoredLock(folder.store, clock: clock, key: key)
        #expect(a.setPasscode("2468") == 0)
        #expect(a.put("token", "one") == 0)
        let older = bytes(folder.store)
        #expect(a.put("token", "two") == 0)
        let latest = bytes(folder.store)
        putBack(latest, at: folder.store)
        #expect(a.get("token") == (0, "two"), "the latest copy is the store as it was")
        let fresh = StoredLock(folder.store, clock: clock, key: key)
        #expect(fresh.status == 0)
        putBack(older, at: folder.store)
        #expect(a.get("token").0 == IDLELOCK_ERR_STORAGE)
        let late = StoredLock(folder.store, clock: clock, key: key)
        #expect(late.status == IDLELOCK_ERR_STORAGE)
        // Put right, it works again.
        putBack(latest, at: folder.store)
        #expect(a.unlock("2468") == 0)
        #expect(a.get("token") == (0, "two"))
    }

    /// What the mark cannot catch, written in docs/STORE.md: restoring both
    /// files is caught by a running handle (its own memory of the highest
    /// generation), not by a new process.
    @Test func restoringBothFilesIsCaughtOnlyByARunningHandle() {
        let folder = TempFolder()
        let clock = FakeClock()
        let a = StoredLock(folder.store, clock: clock, key: key)
        #expect(a.setPasscode("2468") == 0)
        let copy = bytes(folder.store)
        let lockCopy = bytes(folder.store + ".lock")
        #expect(lockCopy.count == StoreMarkFormat.slotBytes, "the first mark, in slot 0")
        #expect(a.put("token", "t") == 0)
        #expect(bytes(folder.store + ".lock").count == StoreMarkFormat.fileBytes, "the next one in slot 1")
        putBack(copy, at: folder.store)
        writeLockFile(folder.store, lockCopy)
        #expect(idlelock_require_unlocked(a.handle) == IDLELOCK_ERR_STORAGE, "the running handle remembers")
        let b = StoredLock(folder.store, clock: clock, key: key)
        #expect(b.status == 0, "both files put back: a new process cannot tell (docs/STORE.md)")
    }

    /// A sign-out moves the mark past the sign-in's last generation: no
    /// copy of it, the latest included, signs it in again. A new sign-in
    /// starts afresh (its own mark).
    @Test func aSignOutIsFinalAndANewSignInStartsAfresh() {
        let folder = TempFolder()
        let clock = FakeClock()
        let a = StoredLock(folder.store, clock: clock, key: key)
        #expect(a.setPasscode("2468") == 0)
        #expect(a.put("token", "first sign-in") == 0)
        let lastCopy = bytes(folder.store)
        #expect(idlelock_disable(a.handle) == 0)
        putBack(lastCopy, at: folder.store)
        let b = StoredLock(folder.store, clock: clock, key: key)
        #expect(b.status == IDLELOCK_ERR_STORAGE, "the latest copy of a signed-out store signed it in again")
        #expect(idlelock_require_unlocked(a.handle) == IDLELOCK_ERR_STORAGE,
                "the handle that signed out adopted the copy")
        try? FileManager.default.removeItem(atPath: folder.store)
        // A new sign-in.
        #expect(idlelock_require_unlocked(a.handle) == 0)
        #expect(a.setPasscode("1357") == 0)
        #expect(a.put("token", "second sign-in") == 0)
        let c = StoredLock(folder.store, clock: clock, key: key)
        #expect(c.status == 0, "a new sign-in starts afresh")
        idlelock_start(c.handle, nil)
        #expect(c.unlock("1357") == 0)
        #expect(c.get("token") == (0, "second sign-in"))
    }

    /// The upgrade from 1.2.0, which kept `<store>.lock` empty: the store
    /// opens, and the first read under the store lock writes the mark.
    @Test(arguments: [false, true])
    func anEmptyLockFileFromAnEarlierVersionIsNoMark(withKey: Bool) throws {
        let folder = TempFolder()
        let clock = FakeClock()
        let a = StoredLock(folder.store, clock: clock, key: withKey ? key : nil)
        #expect(a.setPasscode("2468") == 0)
        #expect(a.put("token", "t") == 0)
        let copy = bytes(folder.store)
        #expect(a.put("token", "u") == 0)
        idlelock_destroy(a.handle)
        a.handle = nil
        writeLockFile(folder.store, []) // as 1.2.0 left it
        let b = StoredLock(folder.store, clock: clock, key: withKey ? key : nil)
        #expect(b.status == 0, "an empty lock file refused a sound store: \(lastError())")
        let mark = StoreMarkFormat.read(bytes(folder.store + ".lock"), keys: try storeKeys(withKey)).mark
        #expect(mark?.generation == generation(folder.store), "create wrote the mark")
        idlelock_start(b.handle, nil)
        #expect(b.unlock("2468") == 0)
        #expect(b.get("token") == (0, "u"))
        putBack(copy, at: folder.store)
        #expect(b.get("token").0 == IDLELOCK_ERR_STORAGE, "rollbacks are caught from the upgrade on")
    }

    /// A lock file this library cannot read as a mark (garbage, a slot cut
    /// short, a mark made with another device key) is no mark: never damage
    /// (anyone who can write the folder can empty it anyway), and it is
    /// written over with a sound mark.
    @Test func anUnreadableMarkIsNoMarkAndIsReplaced() throws {
        let folder = TempFolder()
        let clock = FakeClock()
        let a = StoredLock(folder.store, clock: clock, key: key)
        #expect(a.setPasscode("2468") == 0)
        idlelock_destroy(a.handle)
        a.handle = nil
        let keys = try storeKeys(true)
        var garbage = [UInt8](repeating: 0, count: StoreMarkFormat.fileBytes)
        garbage.withUnsafeMutableBytes { randombytes_buf($0.baseAddress!, $0.count) }
        for content in [garbage, Array(bytes(folder.store + ".lock").prefix(40)), Array("IDLKMARK".utf8)] {
            writeLockFile(folder.store, content)
            let b = StoredLock(folder.store, clock: clock, key: key)
            #expect(b.status == 0, "\(lastError())")
            #expect(StoreMarkFormat.read(bytes(folder.store + ".lock"), keys: keys).mark?.generation
                    == generation(folder.store))
        }
        // A mark forged without the device key (claiming one, with an
        // unkeyed check and a generation far ahead) fails its check: it
        // cannot be used to refuse the store.
        let inForce = try #require(StoreMarkFormat.read(bytes(folder.store + ".lock"), keys: keys).mark)
        var w = ByteWriter()
        w.bytes(StoreMarkFormat.magic)
        w.u32(StoreMarkFormat.version)
        w.u32(1) // flags: made with a device key
        w.u64(1_000) // a sequence ahead of the sound slot's
        w.bytes(inForce.sessionID)
        w.u64(UInt64.max >> 1)
        w.bytes(try #require(try storeKeys(false).markMac(w.buffer)))
        writeLockFile(folder.store, w.buffer)
        let c = StoredLock(folder.store, clock: clock, key: key)
        #expect(c.status == 0, "a forged mark refused a sound store: \(lastError())")
        // A slot numbered past any history of writes (an edited file) is
        // numbered afresh: the new mark is the one in force.
        let keys2 = try storeKeys(true)
        let edited = try #require(StoreMarkFormat.slot(inForce, sequence: UInt64.max, keys: keys2))
        writeLockFile(folder.store, edited)
        #expect(idlelock_lock(c.handle, nil) == 0) // a durable step: the lock is saved
        let after = StoreMarkFormat.read(bytes(folder.store + ".lock"), keys: keys2)
        guard case .mark(let m, _, let sequence) = after else { Issue.record("no mark"); return }
        #expect(sequence == 2 && m.generation == generation(folder.store))
        // Without a device key the check is unkeyed: such a mark is taken
        // (as an edit of the store itself would be: docs/STORE.md).
    }

    /// A mark of a later version is left for the library that wrote it:
    /// neither trusted nor written over.
    @Test func aLaterVersionsMarkIsLeftAlone() {
        let folder = TempFolder()
        let clock = FakeClock()
        let a = StoredLock(folder.store, clock: clock)
        #expect(a.setPasscode("2468") == 0)
        var later = bytes(folder.store + ".lock")
        later[8] = 2
        writeLockFile(folder.store, later)
        #expect(a.put("token", "t") == 0)
        #expect(bytes(folder.store + ".lock") == later, "written over")
        let b = StoredLock(folder.store, clock: clock)
        #expect(b.status == 0)
    }

    /// A write of the mark cut short (a crash) leaves the previous mark in
    /// the other slot in force.
    @Test func aTornSlotLeavesThePreviousMark() throws {
        let folder = TempFolder()
        let clock = FakeClock()
        let a = StoredLock(folder.store, clock: clock, key: key)
        #expect(a.setPasscode("2468") == 0)
        let first = bytes(folder.store) // mark in slot 0
        #expect(a.put("token", "t") == 0) // slot 1
        #expect(a.put("token", "u") == 0) // slot 0
        let keys = try storeKeys(true)
        let before = StoreMarkFormat.read(bytes(folder.store + ".lock"), keys: keys)
        guard case .mark(let inForce, let slot, _) = before else { Issue.record("no mark"); return }
        #expect(slot == 0 && inForce.generation == generation(folder.store))
        var torn = bytes(folder.store + ".lock")
        torn[40] ^= 0xff // slot 0's generation: its check fails
        writeLockFile(folder.store, torn)
        let after = StoreMarkFormat.read(torn, keys: keys)
        #expect(after.mark?.generation == inForce.generation - 1, "slot 1, one write older")
        idlelock_destroy(a.handle)
        a.handle = nil
        putBack(first, at: folder.store)
        let b = StoredLock(folder.store, clock: clock, key: key)
        #expect(b.status == IDLELOCK_ERR_STORAGE, "the other slot still catches an older copy")
    }

    /// The mark is written after the store: a write of the mark that fails
    /// (or a crash before it) leaves the store one generation ahead, which
    /// is taken (never a store refused for it), and the mark catches up.
    @Test func aStoreAheadOfTheMarkIsTakenAndTheMarkCatchesUp() throws {
        let folder = TempFolder()
        let clock = FakeClock()
        let a = StoredLock(folder.store, clock: clock, key: key)
        #expect(a.setPasscode("2468") == 0)
        // The store's new file is the first pwrite, the mark the second.
        let markWrite = SystemCallFaults(.fail(.pwrite, EIO, after: 1))
        #expect(markWrite.run { a.put("token", "t") } == 0, "a failed mark write fails nothing")
        #expect(markWrite.allHit)
        let keys = try storeKeys(true)
        #expect(StoreMarkFormat.read(bytes(folder.store + ".lock"), keys: keys).mark?.generation
                == generation(folder.store) - 1)
        let b = StoredLock(folder.store, clock: clock, key: key)
        #expect(b.status == 0, "a store one generation ahead of its mark was refused")
        #expect(StoreMarkFormat.read(bytes(folder.store + ".lock"), keys: keys).mark?.generation
                == generation(folder.store), "create raised the mark")
    }

    /// A write whose folder fsync failed after the rename is done (every
    /// process reads it) but may be undone by a power cut: the mark is not
    /// raised past it (a mark ahead of the store would refuse a sound one),
    /// and the next durable write catches it up.
    @Test func aWriteWhoseFolderSyncFailedLeavesTheMarkBehind() throws {
        let folder = TempFolder()
        let clock = FakeClock()
        let a = StoredLock(folder.store, clock: clock, key: key)
        #expect(a.setPasscode("2468") == 0)
        // The new file's fsync, then the folder's.
        let folderSync = SystemCallFaults(.fail(.fsync, EIO, after: 1))
        #expect(folderSync.run { a.put("token", "t") } == 0, "the write is done")
        #expect(folderSync.allHit)
        let keys = try storeKeys(true)
        #expect(StoreMarkFormat.read(bytes(folder.store + ".lock"), keys: keys).mark?.generation
                == generation(folder.store) - 1, "the mark stays behind a store a power cut may undo")
        #expect(a.put("token", "u") == 0)
        #expect(StoreMarkFormat.read(bytes(folder.store + ".lock"), keys: keys).mark?.generation
                == generation(folder.store), "a durable write raises it")
    }

    /// Regression (issue 26, finding 4): the mark remembered one sign-in,
    /// so a copy of an earlier sign-in put back after a new one was taken
    /// (once; alternating two sign-ins' copies, every time). Generations
    /// continue across sign-ins: a copy of any earlier sign-in is older
    /// than the mark (docs/STORE.md, "Rollback").
    @Test func aCopyOfAnEarlierSignInIsNeverTaken() {
        let folder = TempFolder()
        let clock = FakeClock()
        let a = StoredLock(folder.store, clock: clock, key: key, maxAttempts: 3)
        #expect(a.setPasscode("2468") == 0)
        idlelock_lock(a.handle, nil)
        let earlier = bytes(folder.store)
        #expect(idlelock_disable(a.handle) == 0)
        #expect(a.setPasscode("1357") == 0) // a new sign-in
        #expect(generation(folder.store) > generationOf(earlier), "the new sign-in continues above the last")
        idlelock_lock(a.handle, nil)
        let later = bytes(folder.store)
        #expect(a.unlock("1357") == 0) // the sign-in goes on: its copy is older now
        putBack(earlier, at: folder.store)
        let b = StoredLock(folder.store, clock: clock, key: key, maxAttempts: 3)
        #expect(b.status == IDLELOCK_ERR_STORAGE, "a copy of an earlier sign-in was taken")
        #expect(a.unlock("1357") == IDLELOCK_ERR_STORAGE, "the running handle took the earlier sign-in's copy")
        putBack(later, at: folder.store)
        let c = StoredLock(folder.store, clock: clock, key: key, maxAttempts: 3)
        #expect(c.status == IDLELOCK_ERR_STORAGE, "an older copy of the current sign-in")
    }

    /// docs/STORE.md's table "What the mark cannot catch", row by row, as a
    /// test shows it: the store put back with `<store>.lock` emptied or
    /// deleted (a running handle refuses it, a later process takes it), and
    /// a copy of an earlier sign-in put back together with the lock file of
    /// its time (a running handle of the later sign-in takes it as another
    /// sign-in, LOCKED (STARTUP); a later process takes it).
    @Test func whatTheMarkCannotCatch() {
        for lockFile in ["emptied", "deleted"] {
            let folder = TempFolder()
            let clock = FakeClock()
            let a = StoredLock(folder.store, clock: clock, key: key)
            #expect(a.setPasscode("2468") == 0)
            let copy = bytes(folder.store)
            #expect(a.put("token", "t") == 0)
            putBack(copy, at: folder.store)
            if lockFile == "emptied" {
                writeLockFile(folder.store, [])
            } else {
                #expect(unlink(folder.store + ".lock") == 0)
            }
            #expect(idlelock_require_unlocked(a.handle) == IDLELOCK_ERR_STORAGE, "\(lockFile): the running handle")
            let b = StoredLock(folder.store, clock: clock, key: key)
            #expect(b.status == 0, "\(lockFile): a later process takes it")
        }
        let folder = TempFolder()
        let clock = FakeClock()
        let a = StoredLock(folder.store, clock: clock, key: key, maxAttempts: 3)
        #expect(a.setPasscode("2468") == 0)
        idlelock_lock(a.handle, nil)
        let earlier = bytes(folder.store)
        let earlierLock = bytes(folder.store + ".lock")
        #expect(idlelock_disable(a.handle) == 0)
        #expect(a.setPasscode("1357") == 0)
        putBack(earlier, at: folder.store)
        writeLockFile(folder.store, earlierLock)
        #expect(idlelock_require_unlocked(a.handle) == IDLELOCK_ERR_SESSION_LOCKED, "taken as another sign-in, locked")
        let s = a.snapshot()
        #expect(s.state == IDLELOCK_STATE_LOCKED && s.reason == IDLELOCK_REASON_STARTUP && s.attempts_remaining == 3)
        #expect(a.unlock("2468") == 0, "the earlier sign-in's passcode opens it")
        let b = StoredLock(folder.store, clock: clock, key: key, maxAttempts: 3)
        #expect(b.status == 0, "a later process takes it")
    }
}

@Suite("Rollback: the first generation")
struct FirstGenerationTests {
    /// A new sign-in starts one past the mark; at the last generation it
    /// stays there (no wrap to 0, which every copy would pass).
    @Test func aNewSignInStartsPastTheMarkAndNeverWraps() {
        let id = [UInt8](repeating: 1, count: StoreFormat.sessionIDBytes)
        #expect(SessionStore.firstGeneration(over: .mark(StoreMark(sessionID: id, generation: 41), slot: 0, sequence: 1)) == 42)
        #expect(SessionStore.firstGeneration(over: .mark(StoreMark(sessionID: id, generation: .max), slot: 0, sequence: 1)) == .max)
        #expect(SessionStore.firstGeneration(over: .none) <= UInt64.max >> 1)
    }
}
