// SPDX-License-Identifier: MIT
// The store through the C ABI while system calls fail (Platform/
// SystemCallFaults.swift: each plan fails chosen calls of the thread that
// runs it, as the system would). Every failure branch of every call a
// durable step makes, checked against three rules:
//   - nothing is lost: an attempt that cannot be saved is refused and not
//     counted, and the store file stays as it was (byte for byte), with no
//     temporary file left beside it;
//   - nothing opens: a session never unlocks or hands out a secret because
//     of a fault, and a lock takes effect in memory whatever the disk says;
//   - the error says what failed: the message names the call's step and
//     its errno.
// Each test also checks that its plan's faults were all reached, so that a
// fault no call made cannot pass for a branch that was tested.
//
// The order of the calls a step makes (which is the nth openat, fstat or
// pread) is the one `SystemCallFaults.trace` records; an unlock of a locked
// session with the right passcode, the cheap look first:
//   look         openat(store)#1, fstat#1, pread#1
//   store lock   flock#1 (<store>.lock), openat(<store>.lock)#2, fstat#2
//                (the file at the path), fstat#3 (the one locked), flock#2
//                (the folder), pread#2 (the mark)
//   re-read      openat(store)#3, fstat#4, pread#3
//   replace      openat(temporary)#4, fchmod, pwrite#1, fsync#1, renameat,
//                fsync#2 (the folder), pwrite#2 (the mark), flock#3 and #4
//                (the folder's and the lock file's unlock)
// and then the same again for the reset of the count.

import CIdleLock
import CSystem
import Foundation
import Testing
@testable import IdleLock

private let right = "2468"
private let key = [UInt8](repeating: 9, count: 32)

private func lastError() -> String { String(cString: idlelock_last_error()) }

private func fileBytes(_ path: String) -> [UInt8]? {
    FileManager.default.contents(atPath: path).map { Array($0) }
}

private func temporaries(_ folder: TempFolder) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder.url.path)) ?? []).filter { $0.contains(".tmp.") }
}

/// A session with a passcode on its own store, locked.
private func lockedSession(_ folder: TempFolder, key: [UInt8]? = nil) -> StoredLock {
    let lock = StoredLock(folder.store, clock: FakeClock(), key: key)
    precondition(lock.setPasscode(right) == 0 && idlelock_lock(lock.handle, nil) == 0, lastError())
    return lock
}

/// A session with a passcode on its own store, open (a device key), with
/// the secret "token" holding `token`.
private func openSession(_ folder: TempFolder, token: String) -> StoredLock {
    let lock = StoredLock(folder.store, clock: FakeClock(), lockOnStart: 0, key: key)
    precondition(lock.setPasscode(right) == 0 && lock.put("token", token) == 0, lastError())
    return lock
}

/// A fault of a durable step and what the error must say.
struct StepFault: CustomStringConvertible {
    let faults: [SystemCallFault]
    let message: String
    let what: String
    var description: String { what }

    init(_ what: String, _ message: String, _ faults: SystemCallFault...) {
        self.what = what
        self.message = message
        self.faults = faults
    }
}

@Suite("Store faults: an attempt that cannot be saved")
struct AttemptFaultTests {
    static let refusals: [StepFault] = [
        // Before the attempt: the look at the store fails the call.
        StepFault("the look's open", "cannot open the store file (errno 24)", .fail(.openat, EMFILE)),
        StepFault("the look's fstat", "cannot stat the store file (errno 5)", .fail(.fstat, EIO)),
        StepFault("the look's read", "reading the store file failed (errno 5)", .fail(.pread, EIO)),
        // The attempt's save: the message says what failed, then what that
        // did to the attempt.
        StepFault("the store lock's flock", "flock on the store's lock file failed (errno 37)", .fail(.flock, ENOLCK)),
        StepFault("another process holding the store lock", "another process held the store lock for more than 2000 ms",
                  .fail(.flock, EWOULDBLOCK, times: .max), .fail(.nanosleep, EINTR, times: .max)),
        StepFault("the re-open of <store>.lock", "cannot open the store's lock file <store_path>.lock (errno 24)",
                  .fail(.openat, EMFILE, after: 1)),
        StepFault("the fstat of <store>.lock", "cannot stat the store's lock file <store_path>.lock (errno 5)",
                  .fail(.fstat, EIO, after: 1)),
        StepFault("the folder's flock", "flock on the store's folder failed (errno 5)", .fail(.flock, EIO, after: 1)),
        StepFault("the re-read's open", "cannot open the store file (errno 23)", .fail(.openat, ENFILE, after: 2)),
        StepFault("the re-read's fstat", "cannot stat the store file (errno 5)", .fail(.fstat, EIO, after: 3)),
        StepFault("the re-read", "reading the store file failed (errno 5)", .fail(.pread, EIO, after: 2)),
        StepFault("the temporary file's open", "cannot create a temporary file beside the store (errno 28)",
                  .fail(.openat, ENOSPC, after: 3)),
        StepFault("a temporary name taken 100 times", "cannot create a temporary file beside the store (errno 17)",
                  .fail(.openat, EEXIST, after: 3, times: 100)),
        StepFault("the temporary file's fchmod", "fchmod of the new store file failed (errno 1)", .fail(.fchmod, EPERM)),
        StepFault("a full disk", "writing the new store file failed (errno 28)", .fail(.pwrite, ENOSPC)),
        StepFault("a write error", "writing the new store file failed (errno 5)", .fail(.pwrite, EIO)),
        StepFault("a write that writes nothing", "writing the new store file failed (errno 5)", .short(.pwrite, to: 0)),
        StepFault("the new file's fsync", "fsync of the new store file failed (errno 5); the old store stands",
                  .fail(.fsync, EIO)),
        StepFault("the rename", "renaming the new store file into place failed (errno 28)", .fail(.renameat, ENOSPC)),
    ]

    @Test(arguments: refusals)
    func anAttemptThatCannotBeSavedIsRefusedUncounted(_ fault: StepFault) {
        let folder = TempFolder()
        let a = lockedSession(folder)
        let before = fileBytes(folder.store)
        let plan = SystemCallFaults(fault.faults)
        #expect(plan.run { a.unlock(right) } == IDLELOCK_ERR_STORAGE)
        #expect(lastError().contains(fault.message), "\(lastError())")
        let refused = "; the attempt could not be saved to the store, so it was refused without being checked; try again"
        #expect(lastError().hasSuffix(refused) == !fault.what.hasPrefix("the look"), "\(lastError())")
        #expect(plan.allHit, "\(plan.trace)")
        let s = a.snapshot()
        #expect(s.state == IDLELOCK_STATE_LOCKED, "a fault never unlocks")
        #expect(s.attempts_remaining == 5, "the attempt was not counted")
        #expect(fileBytes(folder.store) == before, "the old store stands")
        #expect(temporaries(folder).isEmpty)
        #expect(a.unlock(right) == 0, "the store lock was released: the next attempt runs")
        #expect(a.snapshot().attempts_remaining == 5)
    }

    /// Another open file holding the folder's lock for the whole wait (any
    /// user who may read the folder can take it) does not stop a step: it
    /// goes on under the lock file's flock alone (StoreFiles.lockFolder).
    /// In 1.2.2 as merged it failed with STORAGE, so another user kept the
    /// right passcode out.
    @Test func aFolderLockHeldElsewhereDoesNotStopAStep() {
        let folder = TempFolder()
        let a = openSession(folder, token: "old")
        let plan = SystemCallFaults(.fail(.flock, EWOULDBLOCK, after: 1, times: .max),
                                    .fail(.nanosleep, EINTR, times: .max))
        #expect(plan.run { a.put("token", "new") } == 0, "\(lastError())")
        #expect(plan.allHit, "\(plan.trace)")
        #expect(a.get("token").1 == "new")
        #expect(temporaries(folder).isEmpty)
    }

    /// A wrong passcode whose count cannot be saved is refused unchecked
    /// too: it neither counts nor reports INVALID_PASSCODE.
    @Test func aWrongPasscodeWhoseCountCannotBeSavedIsNotCounted() {
        let folder = TempFolder()
        let a = lockedSession(folder)
        let before = fileBytes(folder.store)
        let plan = SystemCallFaults(.fail(.renameat, EIO))
        #expect(plan.run { a.unlock("0000") } == IDLELOCK_ERR_STORAGE)
        #expect(plan.allHit)
        #expect(a.snapshot().attempts_remaining == 5)
        #expect(fileBytes(folder.store) == before)
        #expect(a.unlock("0000") == IDLELOCK_ERR_INVALID_PASSCODE)
        #expect(a.snapshot().attempts_remaining == 4)
    }

    /// When the new file cannot be removed either, it stays as a stray: the
    /// store stands, and the next handle on the store removes it.
    @Test func aTemporaryFileThatCannotBeRemovedIsCleanedByTheNextHandle() {
        let folder = TempFolder()
        let a = lockedSession(folder)
        let before = fileBytes(folder.store)
        let plan = SystemCallFaults(.fail(.renameat, EIO), .fail(.unlinkat, EACCES))
        #expect(plan.run { a.unlock(right) } == IDLELOCK_ERR_STORAGE)
        #expect(plan.allHit)
        #expect(fileBytes(folder.store) == before)
        #expect(temporaries(folder).count == 1, "the stray is left")
        let b = StoredLock(folder.store, clock: FakeClock())
        #expect(b.status == 0)
        #expect(temporaries(folder).isEmpty, "create removed it")
        #expect(b.snapshot().attempts_remaining == 5)
    }
}

@Suite("Store faults: calls that are retried or go on")
struct RetriedFaultTests {
    static let retried: [StepFault] = [
        StepFault("an interrupted flock", "", .fail(.flock, EINTR, times: 3)),
        StepFault("an interrupted read", "", .fail(.pread, EINTR, after: 2, times: 2)),
        StepFault("an interrupted write", "", .fail(.pwrite, EINTR, times: 2)),
        StepFault("an interrupted open of the new file", "", .fail(.openat, EINTR, after: 3)),
        StepFault("a temporary name taken", "", .fail(.openat, EEXIST, after: 3, times: 3)),
        StepFault("reads of one byte", "", .short(.pread, to: 1, times: .max)),
        StepFault("writes of 7 bytes", "", .short(.pwrite, to: 7, times: .max)),
        StepFault("a mark that cannot be read (read as none)", "", .fail(.pread, EIO, after: 1)),
        StepFault("the locked <store>.lock that cannot be stat'ed (taken again)", "", .fail(.fstat, EIO, after: 2)),
        StepFault("a close that fails", "", .fail(.close, EIO, times: .max)),
        StepFault("a folder this file system cannot lock (the lock file serves)", "", .fail(.flock, ENOLCK, after: 1)),
        StepFault("a folder this file system cannot lock (EINVAL)", "", .fail(.flock, EINVAL, after: 1)),
        StepFault("a folder this file system cannot lock (EOPNOTSUPP)", "", .fail(.flock, EOPNOTSUPP, after: 1)),
    ]

    @Test(arguments: retried)
    func aStepWhoseCallsAreRetriedLosesNothing(_ fault: StepFault) {
        let folder = TempFolder()
        let a = lockedSession(folder)
        let plan = SystemCallFaults(fault.faults)
        #expect(plan.run { a.unlock(right) } == 0, "\(lastError())")
        #expect(plan.allHit, "\(plan.trace)")
        #expect(a.snapshot().state == IDLELOCK_STATE_UNLOCKED)
        #expect(a.snapshot().attempts_remaining == 5)
        #expect(temporaries(folder).isEmpty)
        // What was written is the store another process reads whole.
        let b = StoredLock(folder.store, clock: FakeClock())
        #expect(b.status == 0, "\(lastError())")
        idlelock_start(b.handle, nil)
        #expect(b.unlock(right) == 0)
    }

    /// Writes of 7 bytes, also for a secret: the file another handle reads
    /// holds the whole value.
    @Test func aSecretWrittenInShortWritesIsWhole() {
        let folder = TempFolder()
        let a = StoredLock(folder.store, clock: FakeClock(), lockOnStart: 0, key: key)
        #expect(a.setPasscode(right) == 0)
        let value = String(repeating: "v", count: 200)
        let plan = SystemCallFaults(.short(.pwrite, to: 7, times: .max), .short(.pread, to: 3, times: .max))
        #expect(plan.run { a.put("token", value) } == 0)
        #expect(plan.allHit)
        let b = StoredLock(folder.store, clock: FakeClock(), lockOnStart: 0, key: key)
        idlelock_start(b.handle, nil)
        #expect(plan.run { b.get("token") } == (0, value))
    }
}

@Suite("Store faults: locks and secrets")
struct LockAndSecretFaultTests {
    /// A lock takes effect in memory whatever step of its save fails.
    @Test(arguments: [SystemCallFault.fail(.flock, EIO), .fail(.openat, EMFILE), .fail(.pread, EIO, after: 1),
                      .fail(.pwrite, ENOSPC), .fail(.fsync, EIO), .fail(.renameat, EIO)])
    func aLockWhoseSaveFailsLocks(_ fault: SystemCallFault) {
        let folder = TempFolder()
        let a = openSession(folder, token: "t")
        let before = fileBytes(folder.store)
        let plan = SystemCallFaults(fault)
        #expect(plan.run { idlelock_lock(a.handle, nil) } == IDLELOCK_ERR_STORAGE)
        #expect(plan.allHit, "\(plan.trace)")
        #expect(lastError().contains("(errno "), "what failed: \(lastError())")
        #expect(lastError().hasSuffix("; the session is locked, but saving the lock to the store failed; it stays locked in this process"))
        #expect(a.snapshot().state == IDLELOCK_STATE_LOCKED)
        #expect(a.get("token").0 == IDLELOCK_ERR_SESSION_LOCKED, "no secret after a lock")
        #expect(fileBytes(folder.store) == before)
    }

    /// A secret is never handed out by a read that failed: the call says
    /// what failed, and the session stays as it was.
    @Test(arguments: [(SystemCallFault.fail(.openat, EMFILE), "cannot open the store file (errno 24)"),
                      (.fail(.fstat, EIO), "cannot stat the store file (errno 5)"),
                      (.fail(.pread, EIO), "reading the store file failed (errno 5)")])
    func aSecretIsNotReadPastAFailedLook(_ fault: SystemCallFault, _ message: String) {
        let folder = TempFolder()
        let a = openSession(folder, token: "t")
        let plan = SystemCallFaults(fault)
        let (rc, value) = plan.run { a.get("token") }
        #expect(rc == IDLELOCK_ERR_STORAGE)
        #expect(value == "", "nothing handed out")
        #expect(lastError().contains(message), "\(lastError())")
        #expect(plan.allHit)
        #expect(a.get("token") == (0, "t"))
    }

    /// A secret put whose save fails leaves the old value, here and on disk.
    @Test(arguments: [SystemCallFault.fail(.pwrite, ENOSPC), .fail(.fsync, EIO), .fail(.openat, EMFILE, after: 3)])
    func aSecretThatCannotBeSavedKeepsTheOldValue(_ fault: SystemCallFault) {
        let folder = TempFolder()
        let a = openSession(folder, token: "old")
        let before = fileBytes(folder.store)
        let plan = SystemCallFaults(fault)
        #expect(plan.run { a.put("token", "new") } == IDLELOCK_ERR_STORAGE)
        #expect(plan.allHit, "\(plan.trace)")
        #expect(a.get("token") == (0, "old"))
        #expect(fileBytes(folder.store) == before)
    }

    /// A sign-out whose delete fails says so; the folder's fsync after a
    /// delete fails nothing.
    @Test func aSignOutSaysWhatFailed() {
        let folder = TempFolder()
        let a = lockedSession(folder)
        let plan = SystemCallFaults(.fail(.unlinkat, EBUSY))
        #expect(plan.run { idlelock_disable(a.handle) } == IDLELOCK_ERR_STORAGE)
        #expect(lastError() == "idlelock_disable: deleting the store file failed (errno 16); signed out in this process, but deleting the store failed; delete the store file, or call idlelock_disable again", "\(lastError())")
        #expect(plan.allHit)
        let folderSync = SystemCallFaults(.fail(.fsync, EIO))
        #expect(folderSync.run { idlelock_disable(a.handle) } == 0)
        #expect(folderSync.allHit)
        #expect(!FileManager.default.fileExists(atPath: folder.store))
    }
}

@Suite("Store faults: create")
struct CreateFaultTests {
    static let refusals: [StepFault] = [
        StepFault("the folder's open", "cannot open the store's folder (errno 13)", .fail(.open, EACCES)),
        // (openat#1 and fstat#1: the look that refuses a store path that
        // is no file before the lock file is made; a failure there is left
        // to the read.)
        StepFault("the lock file's open", "cannot open the store's lock file <store_path>.lock (errno 24)",
                  .fail(.openat, EMFILE, after: 1)),
        StepFault("the lock file's fstat", "cannot stat the store's lock file <store_path>.lock (errno 5)",
                  .fail(.fstat, EIO, after: 1)),
        StepFault("the first flock", "flock on the store's lock file failed (errno 5)", .fail(.flock, EIO)),
        StepFault("the store's read", "reading the store file failed (errno 5)", .fail(.pread, EIO, after: 1)),
    ]

    /// Regression: a failed fstat of <store>.lock was reported as "not a
    /// regular file ... remove it" (damage), sending the user to delete a
    /// file that was sound.
    @Test(arguments: refusals)
    func aCreateWhoseStoreCannotBeReadSaysWhy(_ fault: StepFault) {
        let folder = TempFolder()
        _ = lockedSession(folder)
        let before = fileBytes(folder.store)
        let plan = SystemCallFaults(fault.faults)
        let b = plan.run { StoredLock(folder.store, clock: FakeClock()) }
        #expect(b.status == IDLELOCK_ERR_STORAGE)
        #expect(b.handle == nil)
        #expect(lastError().contains(fault.message), "\(lastError())")
        #expect(plan.allHit, "\(plan.trace)")
        #expect(fileBytes(folder.store) == before)
    }

    /// The look that refuses a store path that is no file, before the lock
    /// file is made beside it, answers only for a link or a file that is not
    /// regular: when its open or fstat fails, create goes on, and the read
    /// under the store lock opens the store.
    @Test(arguments: [SystemCallFault.fail(.openat, EMFILE), .fail(.fstat, EIO)])
    func aLookBeforeTheLockFileThatFailsIsLeftToTheRead(_ fault: SystemCallFault) {
        let folder = TempFolder()
        _ = lockedSession(folder)
        let plan = SystemCallFaults(fault)
        let b = plan.run { StoredLock(folder.store, clock: FakeClock()) }
        #expect(b.status == 0, "\(lastError())")
        #expect(plan.allHit, "\(plan.trace)")
        #expect(b.snapshot().state == IDLELOCK_STATE_LOCKED)
    }

    /// The listing that removes strays is best effort: when it fails, create
    /// goes on and the stray stays for the next one.
    @Test(arguments: [SystemCallFault.fail(.openat, EMFILE, after: 3), .fail(.fdopendir, ENOMEM),
                      .fail(.readdir, EIO), .fail(.unlinkat, EACCES)])
    func aStrayThatCannotBeListedOrRemovedStays(_ fault: SystemCallFault) throws {
        let folder = TempFolder()
        _ = lockedSession(folder)
        let stray = folder.url.appendingPathComponent("session.idlelock.tmp.abc123").path
        #expect(FileManager.default.createFile(atPath: stray, contents: Data([1])))
        let plan = SystemCallFaults(fault)
        let b = plan.run { StoredLock(folder.store, clock: FakeClock()) }
        #expect(b.status == 0, "\(lastError())")
        #expect(plan.allHit, "\(plan.trace)")
        #expect(FileManager.default.fileExists(atPath: stray))
        let c = StoredLock(folder.store, clock: FakeClock())
        #expect(c.status == 0)
        #expect(!FileManager.default.fileExists(atPath: stray), "the next create removed it")
    }
}

/// A handle with a store and passcode_after_reboot.
private final class RebootPolicyLock: TestHandle {
    var handle: OpaquePointer?
    let status: Int32

    init(_ path: String, clock: FakeClock) {
        var cfg = Lock.config()
        cfg.idle_after_ms = 60_000
        cfg.lock_on_start = 0
        cfg.passcode_after_reboot = 1
        cfg.clock = FakeClock.function
        cfg.clock_ctx = UnsafeMutableRawPointer(clock.now)
        var h: OpaquePointer? = nil
        status = path.withCString { p in
            cfg.store_path = p
            return key.withUnsafeBufferPointer { k in
                cfg.device_key = k.baseAddress
                cfg.device_key_len = k.count
                return idlelock_create(&cfg, &h)
            }
        }
        handle = h
    }

    deinit { idlelock_destroy(handle) }
}

@Suite("Platform faults: the boot id")
struct BootIDFaultTests {
    /// A boot id that cannot be read whole never matches, not even this
    /// boot's: after a passcode entered in this boot, a handle that cannot
    /// read the id asks for the passcode again (a reboot, as it must assume).
    @Test(arguments: [SystemCallFault.fail(.open, ENOENT, after: 1), .fail(.read, EIO), .short(.read, to: 20)])
    func anUnreadableBootIdCountsAsAReboot(_ fault: SystemCallFault) {
        let folder = TempFolder()
        let clock = FakeClock()
        let a = RebootPolicyLock(folder.store, clock: clock)
        #expect(a.status == 0)
        #expect(a.setPasscode(right) == 0)
        let b = RebootPolicyLock(folder.store, clock: clock)
        idlelock_start(b.handle, nil)
        #expect(b.snapshot().is_passcode_required == 0, "the same boot: the entry counts")
        let plan = SystemCallFaults(fault)
        let c = plan.run { RebootPolicyLock(folder.store, clock: clock) }
        #expect(plan.allHit, "\(plan.trace)")
        #expect(c.status == 0)
        idlelock_start(c.handle, nil)
        #expect(c.snapshot().is_passcode_required == 1, "an unknown boot is a reboot")
    }
}

@Suite("Store faults: locks a call makes on its way")
struct LockOnTheWayFaultTests {
    /// A hot event that locks (the idle timeout passed) and cannot save the
    /// lock: STORAGE, locked all the same.
    @Test func aCheckThatLocksAndCannotSaveItLocks() {
        let folder = TempFolder()
        let clock = FakeClock()
        let a = StoredLock(folder.store, clock: clock, lockOnStart: 0, key: key)
        #expect(a.setPasscode(right) == 0)
        clock.advance(60_000)
        let plan = SystemCallFaults(.fail(.renameat, EIO))
        #expect(plan.run { idlelock_check(a.handle, nil) } == IDLELOCK_ERR_STORAGE)
        #expect(plan.allHit)
        #expect(lastError().hasSuffix("; the session is locked, but saving the lock to the store failed; it stays locked in this process"))
        #expect(a.snapshot().state == IDLELOCK_STATE_LOCKED)
    }

    /// A clock step seen on a locked session is told to the store in the
    /// next step; when that save fails, the call does not fail for it (the
    /// handle distrusts the entry in memory either way): best effort and
    /// silent.
    @Test func aClockStepThatCannotBeToldFailsNoCall() {
        let folder = TempFolder()
        let clock = FakeClock(100_000)
        let a = StoredLock(folder.store, clock: clock, lockOnStart: 0, key: key)
        #expect(a.setPasscode(right) == 0)
        #expect(idlelock_lock(a.handle, nil) == 0)
        clock.now.pointee -= 50_000 // a step back
        let plan = SystemCallFaults(.fail(.renameat, EIO))
        #expect(plan.run { idlelock_check(a.handle, nil) } == 0, "\(lastError())")
        #expect(plan.allHit, "the store was written to: \(plan.trace)")
        #expect(a.snapshot().state == IDLELOCK_STATE_LOCKED)
    }
}
