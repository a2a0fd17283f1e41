// SPDX-License-Identifier: MIT
// The store's files (header, "The store"; docs/STORE_FORMAT.md): the store
// itself, written only by replace (a new file with a random name and
// O_EXCL in the same folder, fsync, rename, fsync of the folder, mode
// 0600), and `<store>.lock`, which is never renamed or deleted, carries the
// exclusive flock every durable step takes, and holds the rollback mark
// (StoreMark.swift), written in place.
//
// `store_path` names one file for the life of the handle (header, "The
// store"): its folder is opened once, at create, and every file is reached
// relative to it (Platform/Folder.swift). A later chdir of the host, or a
// rename of a parent folder, changes nothing. The store is opened without
// blocking and without following a symbolic link, and only a regular file
// is read: a FIFO, a device, a folder or a link at the path is damage
// (STORAGE), never a wait.
//
// The system calls are the platform layer's (Folder.swift, OpenFile.swift,
// FileLock.swift, FileReplace.swift); this file decides what each failure
// means for the store, and says so in the error.

enum StoreLimits {
    /// Largest store file read: 256 secrets of 64 KiB plus headers.
    static let fileMaxBytes = 20 * 1024 * 1024
    /// How long a durable step waits for another process's store lock.
    static let lockWaitMs: Int64 = 2_000
}

/// The store's folder (held open), its file names, and the open lock file.
final class StoreFiles {
    /// The folder of `store_path`, opened at create.
    private let folder: Folder
    /// The store's file name in that folder, NUL-terminated.
    let name: [UInt8]
    /// The file name part of a temporary file (`<name>.tmp.`), for making
    /// one and for cleaning strays.
    let tempPrefix: [UInt8]
    /// `<name>.lock`, NUL-terminated.
    private let lockName: [UInt8]
    /// The open lock file: the one at the path when the lock was last taken
    /// (`locked` takes the new one when a cleanup tool deleted it).
    private var lockFile: OpenFile

    private init(folder: consuming Folder, name: [UInt8], tempPrefix: [UInt8], lockName: [UInt8], lockFile: consuming OpenFile) {
        self.folder = folder
        self.name = name
        self.tempPrefix = tempPrefix
        self.lockName = lockName
        self.lockFile = lockFile
    }

    /// Opens the folder of `path` (resolved now, against the current
    /// folder for a relative path) and opens (or creates) its lock file,
    /// which must be a regular file.
    static func open(_ path: StorePath) throws(IdleLockError) -> StoreFiles {
        let base = path.name
        let prefix = base + ".tmp.".utf8
        let lockName = base + ".lock".utf8 + [0]

        let folder: Folder
        do throws(Errno) {
            folder = try Folder.open(path.folder)
        } catch {
            throw IdleLockError(.storage, "cannot open the store's folder (errno ", error.number, "); check that the folder of config.store_path exists and is readable")
        }
        try refuseStoreThatIsNoFile(in: folder, base + [0])
        var status = FileStatus()
        let lockFile = try openLockFile(in: folder, lockName, status: &status)
        return StoreFiles(folder: folder, name: base + [0], tempPrefix: prefix, lockName: lockName, lockFile: lockFile)
    }

    /// Refuses a store path that names a folder, a FIFO, a device or a
    /// symbolic link before `<store>.lock` is made beside it, so that a
    /// create that fails on it leaves no file behind (a store path given
    /// without its file name made `<folder>.lock` next to the folder).
    /// Anything else (no store, one that cannot be opened or stat'ed) is
    /// for the read under the store lock to answer.
    private static func refuseStoreThatIsNoFile(in folder: borrowing Folder, _ name: [UInt8]) throws(IdleLockError) {
        let file: OpenFile
        do throws(Errno) {
            file = try folder.openFile(name, .read)
        } catch {
            if error.meansSymbolicLink { throw storeIsSymbolicLink }
            return
        }
        let status: FileStatus
        do throws(Errno) {
            status = try file.status()
        } catch {
            return
        }
        if !status.isRegularFile { throw storeIsNoRegularFile }
    }

    private static var storeIsSymbolicLink: IdleLockError {
        .damagedStore("the store path is a symbolic link; libidlelock opens only a regular file there; it was left untouched")
    }

    private static var storeIsNoRegularFile: IdleLockError {
        .damagedStore("the store path is not a regular file (a FIFO, a device or a folder?); it was left untouched")
    }

    /// Opens (or creates) `<store>.lock` in `folder`, which must be a
    /// regular file (not a link, FIFO, device or folder); its status in
    /// `status`.
    private static func openLockFile(in folder: borrowing Folder, _ lockName: [UInt8],
                                     status: inout FileStatus) throws(IdleLockError) -> OpenFile {
        let file: OpenFile
        do throws(Errno) {
            file = try folder.openFile(lockName, .readWriteCreating)
        } catch {
            if error.meansSymbolicLink {
                throw IdleLockError.damagedStore("<store_path>.lock is a symbolic link; the library opens only a regular file there; remove it")
            }
            throw IdleLockError(.storage, "cannot open the store's lock file <store_path>.lock (errno ", error.number, "); check that the folder exists and is writable")
        }
        do throws(Errno) {
            status = try file.status()
        } catch {
            throw IdleLockError(.storage, "cannot stat the store's lock file <store_path>.lock (errno ", error.number, ")")
        }
        if !status.isRegularFile {
            throw IdleLockError.damagedStore("<store_path>.lock is not a regular file (a FIFO, a device or a folder?); the library opens only a regular file there; remove it")
        }
        return file
    }

    // MARK: - The store lock

    /// Takes the exclusive flock on `<store>.lock`, then on the store's
    /// folder, waiting at most `StoreLimits.lockWaitMs` for each, runs
    /// `body`, and releases them. The folder's flock is what a cleanup tool
    /// that deletes `*.lock` files cannot take away: a process that holds a
    /// deleted lock file and one that made a new one still exclude each
    /// other there, also while the file is replaced during a step (the lock
    /// file's own re-check, `takeLock`, catches a deletion only before the
    /// step). The lock file comes first (1.2.1 and earlier take only it),
    /// and every process takes both in this order. The folder's is taken
    /// when it can be (`lockFolder`); the lock file's always.
    func locked<R>(_ body: () throws(IdleLockError) -> R) throws(IdleLockError) -> R {
        try takeLock()
        defer { lockFile.unlock() }
        let folderLocked = try lockFolder()
        defer { if folderLocked { folder.unlock() } }
        return try body()
    }

    /// The folder's flock (`locked`), waiting at most
    /// `StoreLimits.lockWaitMs`. False when it was not taken, and the lock
    /// file's flock (held) alone serves, as before 1.2.2: the file system
    /// cannot lock a folder (EINVAL, ENOLCK, EOPNOTSUPP: a network or FUSE
    /// file system), or another open file held it for the whole wait. Any
    /// user who may read the folder can flock it (a 0755 folder: every
    /// local user), unlike the lock file (0600), so a holder of the folder
    /// lock alone never stops a step: failing there let another user keep
    /// the right passcode out, and the sign-out's delete, for as long as
    /// they liked. The folder lock only guards against a lock file deleted
    /// during a step, and a step of this store holds its lock file too.
    private func lockFolder() throws(IdleLockError) -> Bool {
        do throws(FileLockFailure) {
            try folder.lockExclusively(waitingAtMost: StoreLimits.lockWaitMs)
            return true
        } catch {
            switch error {
            case .heldElsewhere:
                return false
            case .failed(let cause):
                if cause.meansLockingUnsupported { return false }
                throw IdleLockError(.storage, "flock on the store's folder failed (errno ", cause.number, ")")
            }
        }
    }

    /// How many times in one `takeLock` the lock file may turn out to have
    /// been replaced before the step gives up.
    static let lockFileChangesMax = 8

    /// The flock, on the file that is `<store>.lock` now. The flock is on
    /// the open file, not on the path: when a cleanup tool deleted the lock
    /// file (or put another in its place) while this handle held it open,
    /// a process that starts afterwards creates and locks a new one, and
    /// the two would each hold "the" lock. So once the flock is taken, the
    /// file at the path must be the one it is on (same device and inode,
    /// still linked); otherwise this handle takes the new file and waits
    /// for its flock, and no durable step of another process runs at the
    /// same time as its own (no attempt is lost). The wait is
    /// `StoreLimits.lockWaitMs` in all.
    private func takeLock() throws(IdleLockError) {
        var waited: Int64 = 0
        for _ in 0..<StoreFiles.lockFileChangesMax {
            do throws(FileLockFailure) {
                waited += try lockFile.lockExclusively(waitingAtMost: StoreLimits.lockWaitMs - waited)
            } catch {
                switch error {
                case .heldElsewhere:
                    throw IdleLockError(.storage, "another process held the store lock for more than 2000 ms; try again")
                case .failed(let cause):
                    throw IdleLockError(.storage, "flock on the store's lock file failed (errno ", cause.number, ")")
                }
            }
            let atPath: OpenFile
            do throws(IdleLockError) {
                guard let replacement = try lockFileAtPathIfReplaced() else { return }
                atPath = replacement
            } catch {
                lockFile.unlock()
                throw error
            }
            lockFile = atPath // the old one is closed, and its flock goes with it
        }
        throw IdleLockError(.storage, "<store_path>.lock was deleted or replaced ", Int64(StoreFiles.lockFileChangesMax), " times while this process took the store lock; stop whatever deletes it (it must stay beside the store)")
    }

    /// With the flock held on `lockFile`: nil when it is the file at
    /// `<store>.lock`, or the file there now (created when there is none).
    private func lockFileAtPathIfReplaced() throws(IdleLockError) -> OpenFile? {
        var current = FileStatus()
        let atPath = try StoreFiles.openLockFile(in: folder, lockName, status: &current)
        do throws(Errno) {
            let held = try lockFile.status()
            if held.links > 0 && held.isSameFile(as: current) { return nil }
        } catch {
            // Not known to be the file at the path: take that one.
        }
        return atPath
    }

    // MARK: - The rollback mark (StoreMark.swift)

    /// The first `StoreMarkFormat.fileBytes` bytes of `<store>.lock` (fewer
    /// when it is shorter: empty as 1.2.0 left it). A failed read is read
    /// as no mark (it only narrows what the rollback check catches).
    func readMark() -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: StoreMarkFormat.fileBytes)
        let done = lockFile.readWhole(into: &bytes).count
        if done < bytes.count { bytes.removeLast(bytes.count - done) }
        return bytes
    }

    /// Writes one slot of the mark in place (the lock file is never
    /// replaced: it carries the flock). Call with the store lock held.
    /// Returns false when the write failed (nothing is retried: a mark
    /// behind the store is safe, StoreMark.swift).
    @discardableResult
    func writeMark(slot: Int, _ bytes: [UInt8]) -> Bool {
        do throws(Errno) {
            try lockFile.writeWhole(bytes, at: slot * StoreMarkFormat.slotBytes)
            return true
        } catch {
            return false
        }
    }

    // MARK: - Reading

    /// The store's bytes, or nil when it does not exist. A store that is
    /// present but not a regular file, or larger than any store, is damage.
    func read() throws(IdleLockError) -> [UInt8]? {
        guard let file = try openForReading() else { return nil }
        let size = try regularFileSize(file)
        if size > StoreLimits.fileMaxBytes {
            throw IdleLockError.damagedStore("the store file is ", Int64(size), " bytes, larger than any store libidlelock writes; it is damaged or foreign and was left untouched")
        }
        var bytes = [UInt8](repeating: 0, count: size)
        if try readFully(file, into: &bytes) != size {
            throw IdleLockError.damagedStore("the store file changed size while it was read (libidlelock replaces it, never writes it in place); it was left untouched")
        }
        return bytes
    }

    /// Up to the first `count` bytes of the store and its size (for the
    /// cheap generation look), or nil only when it does not exist: a store
    /// shorter than `count` gives its bytes (it is damaged, as its full
    /// read then says).
    func readPrefix(_ count: Int) throws(IdleLockError) -> (bytes: [UInt8], size: Int)? {
        guard let file = try openForReading() else { return nil }
        let size = try regularFileSize(file)
        var bytes = [UInt8](repeating: 0, count: count)
        let got = try readFully(file, into: &bytes)
        if got < count { bytes.removeLast(count - got) }
        return (bytes, size)
    }

    /// Opens the store read-only (without blocking, without following a
    /// symbolic link); nil when it does not exist.
    private func openForReading() throws(IdleLockError) -> OpenFile? {
        do throws(Errno) {
            return try folder.openFile(name, .read)
        } catch {
            if error.meansAbsent { return nil }
            if error.meansSymbolicLink { throw StoreFiles.storeIsSymbolicLink }
            throw IdleLockError(.storage, "cannot open the store file (errno ", error.number, ")")
        }
    }

    /// The size of the open store, which must be a regular file.
    private func regularFileSize(_ file: borrowing OpenFile) throws(IdleLockError) -> Int {
        let status: FileStatus
        do throws(Errno) {
            status = try file.status()
        } catch {
            throw IdleLockError(.storage, "cannot stat the store file (errno ", error.number, ")")
        }
        if !status.isRegularFile { throw StoreFiles.storeIsNoRegularFile }
        return status.size
    }

    /// Reads into `bytes` from offset 0 until it is full or the file ends;
    /// returns how many bytes were read.
    private func readFully(_ file: borrowing OpenFile, into bytes: inout [UInt8]) throws(IdleLockError) -> Int {
        let (done, error) = file.readWhole(into: &bytes)
        if let error {
            throw IdleLockError(.storage, "reading the store file failed (errno ", error.number, ")")
        }
        return done
    }

    // MARK: - Writing

    /// Replaces the store with `bytes` (Platform/FileReplace.swift: a new
    /// file `<name>.tmp.XXXXXX` beside it, written, fsync'd, renamed over
    /// it, then the folder fsync'd). Any failure up to the rename fails the
    /// step: the old store stands, and the new file is removed. Returns
    /// whether the rename is durable. A failed fsync of the folder after it
    /// (an I/O error, a file system that cannot sync a folder) does not
    /// undo the change, which every process already reads: the step is
    /// done, only its survival across a power cut is not ensured (SQLite
    /// ignores this fsync's result too). So it is never reported as a step
    /// that failed: that made every attempt count (the raise was in place)
    /// while it was refused unchecked, a lockout with the right passcode
    /// (docs/STORE.md, "Crashes").
    @discardableResult
    func replace(with bytes: [UInt8]) throws(IdleLockError) -> Bool {
        do throws(ReplaceFailure) {
            return try folder.replace(name, temporaryPrefix: tempPrefix, with: bytes)
        } catch {
            let number = error.error.number
            switch error.step {
            case .create:
                throw IdleLockError(.storage, "cannot create a temporary file beside the store (errno ", number, ")")
            case .setMode:
                throw IdleLockError(.storage, "fchmod of the new store file failed (errno ", number, ")")
            case .write:
                throw IdleLockError(.storage, "writing the new store file failed (errno ", number, ")")
            case .sync:
                throw IdleLockError(.storage, "fsync of the new store file failed (errno ", number, "); the old store stands")
            case .rename:
                throw IdleLockError(.storage, "renaming the new store file into place failed (errno ", number, ")")
            }
        }
    }

    /// Deletes the store (sign-out); a missing store is fine. A failed
    /// fsync of the folder after it fails nothing (see `replace`).
    func remove() throws(IdleLockError) {
        do throws(Errno) {
            try folder.remove(name)
        } catch {
            if !error.meansAbsent {
                throw IdleLockError(.storage, "deleting the store file failed (errno ", error.number, ")")
            }
        }
        _ = folder.sync()
    }

    /// Removes temporary files a crashed writer left (`<name>.tmp.*`). Call
    /// with the store lock held. Best effort: a stray that stays is only a
    /// file (the next create tries again).
    func removeStrayTemporaries() {
        folder.forEachName(prefix: tempPrefix, suffixBytes: Folder.temporarySuffixBytes) { stray in
            try? folder.remove(stray)
        }
    }
}
