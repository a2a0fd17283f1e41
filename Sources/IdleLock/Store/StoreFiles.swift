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
// relative to that folder descriptor (openat, renameat, unlinkat, fsync of
// the folder). A later chdir of the host, or a rename of a parent folder,
// changes nothing. The store is opened without blocking and without
// following a symbolic link, and only a regular file is read: a FIFO, a
// device, a folder or a link at the path is damage (STORAGE), never a wait.

import CSystem

enum StoreLimits {
    /// Longest store_path accepted (PATH_MAX less room for the suffixes).
    static let pathMaxBytes = 4000
    /// Largest store file read: 256 secrets of 64 KiB plus headers.
    static let fileMaxBytes = 20 * 1024 * 1024
    /// How long a durable step waits for another process's store lock.
    static let lockWaitMs: Int64 = 2_000
    /// Random characters in a temporary file's name, after `<name>.tmp.`.
    static let tempSuffixBytes = 6
}

/// A step of a store write, for fault injection in tests.
enum StoreFileStep {
    case read, write, fsync, rename, remove, markWrite, folderSync
}

/// The store's folder (held open), its file names, and the open lock file.
final class StoreFiles {
    #if DEBUG
    /// Tests only (debug builds; the shipped library has no such hook): make
    /// the next such step fail as if the system call had failed with EIO.
    var injectedFault: StoreFileStep? = nil

    private func injected(_ step: StoreFileStep) -> Bool {
        guard injectedFault == step else { return false }
        injectedFault = nil
        return true
    }
    #else
    @inline(__always) private func injected(_ step: StoreFileStep) -> Bool { false }
    #endif

    /// The folder of `store_path`, opened at create (O_DIRECTORY).
    private let folderFD: Int32
    /// The store's file name in that folder, NUL-terminated.
    let name: [CChar]
    /// The file name part of a temporary file (`<name>.tmp.`), for making
    /// one and for cleaning strays.
    let tempPrefix: [UInt8]
    /// `<name>.lock`, NUL-terminated.
    private let lockName: [CChar]
    /// The open lock file: the one at the path when the lock was last taken
    /// (`locked` takes the new one when a cleanup tool deleted it).
    private var lockFD: Int32

    private init(folderFD: Int32, name: [CChar], tempPrefix: [UInt8], lockName: [CChar], lockFD: Int32) {
        self.folderFD = folderFD
        self.name = name
        self.tempPrefix = tempPrefix
        self.lockName = lockName
        self.lockFD = lockFD
    }

    deinit {
        close(lockFD)
        close(folderFD)
    }

    /// Checks `store_path` (UTF-8, 1...4000 bytes, not a folder), opens its
    /// folder (resolved now, against the current folder for a relative
    /// path) and opens (or creates) its lock file, which must be a regular
    /// file.
    static func open(_ cPath: UnsafePointer<CChar>) throws(IdleLockError) -> StoreFiles {
        let length = strnlen(cPath, StoreLimits.pathMaxBytes + 1)
        if length == 0 { throw .invalid("config.store_path is empty") }
        if length > StoreLimits.pathMaxBytes {
            throw .invalid("config.store_path is longer than 4000 bytes")
        }
        let raw = UnsafeRawBufferPointer(start: cPath, count: length)
        if UTF8Check.scalarCount(raw) == nil { throw .invalid("config.store_path is not valid UTF-8") }
        if raw[length - 1] == UInt8(ascii: "/") {
            throw .invalid("config.store_path names a folder; give a file path such as /data/app/session.idlelock")
        }
        var slash = -1
        for i in 0..<length where raw[i] == UInt8(ascii: "/") { slash = i }
        var folder: [CChar]
        if slash < 0 {
            folder = [CChar(bitPattern: UInt8(ascii: "."))]
        } else if slash == 0 {
            folder = [CChar(bitPattern: UInt8(ascii: "/"))]
        } else {
            folder = []
            for i in 0..<slash { folder.append(CChar(bitPattern: raw[i])) }
        }
        folder.append(0)
        var base: [CChar] = []
        var prefix: [UInt8] = []
        for i in (slash + 1)..<length {
            base.append(CChar(bitPattern: raw[i]))
            prefix.append(raw[i])
        }
        if prefix == [UInt8(ascii: ".")] || prefix == [UInt8(ascii: "."), UInt8(ascii: ".")] {
            throw .invalid("config.store_path names a folder; give a file path such as /data/app/session.idlelock")
        }
        prefix.append(contentsOf: ".tmp.".utf8)
        let lockName = base + ".lock".utf8.map { CChar(bitPattern: $0) } + [0]
        base.append(0)

        let dirFD = folder.withUnsafeBufferPointer {
            ilk_open($0.baseAddress!, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0)
        }
        if dirFD < 0 {
            throw IdleLockError(.storage, "cannot open the store's folder (errno ", Int64(ilk_errno()), "); check that the folder of config.store_path exists and is readable")
        }
        let fd: Int32
        do throws(IdleLockError) {
            fd = try openLockFile(in: dirFD, lockName)
        } catch {
            close(dirFD)
            throw error
        }
        return StoreFiles(folderFD: dirFD, name: base, tempPrefix: prefix, lockName: lockName, lockFD: fd)
    }

    /// Opens (or creates) `<store>.lock` in the folder `dirFD`, which must
    /// be a regular file (not a link, FIFO, device or folder).
    private static func openLockFile(in dirFD: Int32, _ lockName: [CChar]) throws(IdleLockError) -> Int32 {
        let fd = lockName.withUnsafeBufferPointer {
            ilk_openat(dirFD, $0.baseAddress!, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o600)
        }
        if fd < 0 {
            let e = ilk_errno()
            if e == ELOOP {
                throw IdleLockError.damagedStore("<store_path>.lock is a symbolic link; the library opens only a regular file there; remove it")
            }
            throw IdleLockError(.storage, "cannot open the store's lock file <store_path>.lock (errno ", Int64(e), "); check that the folder exists and is writable")
        }
        var info = stat()
        if fstat(fd, &info) != 0 || ilk_is_regular_file(&info) == 0 {
            close(fd)
            throw IdleLockError.damagedStore("<store_path>.lock is not a regular file (a FIFO, a device or a folder?); the library opens only a regular file there; remove it")
        }
        return fd
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
    /// and every process takes both in this order.
    func locked<R>(_ body: () throws(IdleLockError) -> R) throws(IdleLockError) -> R {
        try takeLock()
        defer { flock(lockFD, LOCK_UN) }
        let folderLocked = try lockFolder()
        defer { if folderLocked { flock(folderFD, LOCK_UN) } }
        return try body()
    }

    /// The folder's flock (`locked`), waiting at most
    /// `StoreLimits.lockWaitMs`. False when the file system cannot lock a
    /// folder (EINVAL, ENOLCK, EOPNOTSUPP: a network or FUSE file system):
    /// the lock file's flock alone serves then, as before 1.2.2.
    private func lockFolder() throws(IdleLockError) -> Bool {
        var waited: Int64 = 0
        while flock(folderFD, LOCK_EX | LOCK_NB) != 0 {
            let e = ilk_errno()
            if e == EINTR { continue }
            if e == EINVAL || e == ENOLCK || e == EOPNOTSUPP { return false }
            if e != EWOULDBLOCK {
                throw IdleLockError(.storage, "flock on the store's folder failed (errno ", Int64(e), ")")
            }
            if waited >= StoreLimits.lockWaitMs {
                throw IdleLockError(.storage, "another process held the store's folder lock for more than 2000 ms; try again")
            }
            var pause = timespec(tv_sec: 0, tv_nsec: 2_000_000)
            nanosleep(&pause, nil)
            waited += 2
        }
        return true
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
    /// same time as its own (no attempt is lost).
    private func takeLock() throws(IdleLockError) {
        var waited: Int64 = 0
        var changes = 0
        while true {
            while flock(lockFD, LOCK_EX | LOCK_NB) != 0 {
                let e = ilk_errno()
                if e == EINTR { continue }
                if e != EWOULDBLOCK {
                    throw IdleLockError(.storage, "flock on the store's lock file failed (errno ", Int64(e), ")")
                }
                if waited >= StoreLimits.lockWaitMs {
                    throw IdleLockError(.storage, "another process held the store lock for more than 2000 ms; try again")
                }
                var pause = timespec(tv_sec: 0, tv_nsec: 2_000_000)
                nanosleep(&pause, nil)
                waited += 2
            }
            let atPath: Int32
            do throws(IdleLockError) {
                guard let replacement = try lockFileAtPathIfReplaced() else { return }
                atPath = replacement
            } catch {
                flock(lockFD, LOCK_UN)
                throw error
            }
            close(lockFD) // its flock goes with it
            lockFD = atPath
            changes += 1
            if changes >= StoreFiles.lockFileChangesMax {
                throw IdleLockError(.storage, "<store_path>.lock was deleted or replaced ", Int64(changes), " times while this process took the store lock; stop whatever deletes it (it must stay beside the store)")
            }
        }
    }

    /// With the flock held on `lockFD`: nil when it is the file at
    /// `<store>.lock`, or the descriptor of the file there now (created
    /// when there is none).
    private func lockFileAtPathIfReplaced() throws(IdleLockError) -> Int32? {
        let fd = try StoreFiles.openLockFile(in: folderFD, lockName)
        var held = stat()
        var current = stat()
        guard fstat(fd, &current) == 0 else {
            let e = ilk_errno()
            close(fd)
            throw IdleLockError(.storage, "cannot stat the store's lock file (errno ", Int64(e), ")")
        }
        if fstat(lockFD, &held) == 0 && held.st_nlink > 0 && held.st_dev == current.st_dev
            && held.st_ino == current.st_ino {
            close(fd)
            return nil
        }
        return fd
    }

    // MARK: - The rollback mark (StoreMark.swift)

    /// The first `StoreMarkFormat.fileBytes` bytes of `<store>.lock` (fewer
    /// when it is shorter: empty as 1.2.0 left it). A failed read is read
    /// as no mark (it only narrows what the rollback check catches).
    func readMark() -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: StoreMarkFormat.fileBytes)
        let done = StoreFiles.preadFully(lockFD, into: &bytes).count
        if done < bytes.count { bytes.removeLast(bytes.count - done) }
        return bytes
    }

    /// Writes one slot of the mark in place (the lock file is never
    /// replaced: it carries the flock). Call with the store lock held.
    /// Returns false when the write failed (nothing is retried: a mark
    /// behind the store is safe, StoreMark.swift).
    @discardableResult
    func writeMark(slot: Int, _ bytes: [UInt8]) -> Bool {
        if injected(.markWrite) { return false }
        return StoreFiles.pwriteFully(lockFD, bytes, at: slot * StoreMarkFormat.slotBytes) == 0
    }

    // MARK: - Reading

    /// The store's bytes, or nil when it does not exist. A store that is
    /// present but not a regular file, or larger than any store, is damage.
    func read() throws(IdleLockError) -> [UInt8]? {
        if injected(.read) { throw IdleLockError(.storage, "reading the store file failed (errno ", Int64(EIO), ")") }
        guard let fd = try openForReading() else { return nil }
        defer { close(fd) }
        let size = try regularFileSize(fd)
        if size > StoreLimits.fileMaxBytes {
            throw IdleLockError.damagedStore("the store file is ", Int64(size), " bytes, larger than any store libidlelock writes; it is damaged or foreign and was left untouched")
        }
        var bytes = [UInt8](repeating: 0, count: size)
        if try readFully(fd, into: &bytes) != size {
            throw IdleLockError.damagedStore("the store file changed size while it was read (libidlelock replaces it, never writes it in place); it was left untouched")
        }
        return bytes
    }

    /// Up to the first `count` bytes of the store and its size (for the
    /// cheap generation look), or nil only when it does not exist: a store
    /// shorter than `count` gives its bytes (it is damaged, as its full
    /// read then says).
    func readPrefix(_ count: Int) throws(IdleLockError) -> (bytes: [UInt8], size: Int)? {
        guard let fd = try openForReading() else { return nil }
        defer { close(fd) }
        let size = try regularFileSize(fd)
        var bytes = [UInt8](repeating: 0, count: count)
        let got = try readFully(fd, into: &bytes)
        if got < count { bytes.removeLast(count - got) }
        return (bytes, size)
    }

    /// Opens the store read-only, without blocking (a FIFO answers at once)
    /// and without following a symbolic link; nil when it does not exist.
    private func openForReading() throws(IdleLockError) -> Int32? {
        let fd = name.withUnsafeBufferPointer {
            ilk_openat(folderFD, $0.baseAddress!, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0)
        }
        if fd >= 0 { return fd }
        let e = ilk_errno()
        if e == ENOENT { return nil }
        if e == ELOOP {
            throw IdleLockError.damagedStore("the store path is a symbolic link; libidlelock opens only a regular file there; it was left untouched")
        }
        throw IdleLockError(.storage, "cannot open the store file (errno ", Int64(e), ")")
    }

    /// The size of the open store, which must be a regular file.
    private func regularFileSize(_ fd: Int32) throws(IdleLockError) -> Int {
        var info = stat()
        if fstat(fd, &info) != 0 {
            throw IdleLockError(.storage, "cannot stat the store file (errno ", Int64(ilk_errno()), ")")
        }
        if ilk_is_regular_file(&info) == 0 {
            throw IdleLockError.damagedStore("the store path is not a regular file (a FIFO, a device or a folder?); it was left untouched")
        }
        return Int(info.st_size)
    }

    /// `pread`s into `bytes` from offset 0 until it is full or the file
    /// ends; returns how many bytes were read.
    private func readFully(_ fd: Int32, into bytes: inout [UInt8]) throws(IdleLockError) -> Int {
        let (done, error) = StoreFiles.preadFully(fd, into: &bytes)
        if error != 0 {
            throw IdleLockError(.storage, "reading the store file failed (errno ", Int64(error), ")")
        }
        return done
    }

    /// `pread`s into `bytes` from offset 0 until it is full, the file ends
    /// or a read fails (EINTR is retried): how many bytes came, and the
    /// errno of the failure (0 when none).
    private static func preadFully(_ fd: Int32, into bytes: inout [UInt8]) -> (count: Int, error: Int32) {
        let count = bytes.count
        var done = 0
        while done < count {
            let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, count - done, off_t(done)) }
            if n < 0 {
                let e = ilk_errno()
                if e == EINTR { continue }
                return (done, e)
            }
            if n == 0 { break }
            done += n
        }
        return (done, 0)
    }

    /// `pwrite`s all of `bytes` at `offset` (EINTR is retried): 0, or the
    /// errno of the failure (EIO for a write that wrote nothing).
    private static func pwriteFully(_ fd: Int32, _ bytes: [UInt8], at offset: Int) -> Int32 {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress! + done, $0.count - done, off_t(offset + done)) }
            if n < 0 {
                let e = ilk_errno()
                if e == EINTR { continue }
                return e
            }
            if n == 0 { return EIO }
            done += n
        }
        return 0
    }

    // MARK: - Writing

    /// Replaces the store with `bytes`: a new file in the same folder
    /// (`<name>.tmp.XXXXXX`, random, O_EXCL, mode 0600), written, fsync'd,
    /// renamed over the store, then the folder fsync'd. Any failure up to
    /// the rename fails the step (an fsync is never retried and trusted)
    /// and removes the temporary file. Returns whether the rename is
    /// durable: false when the folder's fsync failed after it (`syncFolder`:
    /// the new file is in place all the same, and the step is done).
    @discardableResult
    func replace(with bytes: [UInt8]) throws(IdleLockError) -> Bool {
        let (fd, temp) = try makeTemporary()
        var ok = false
        defer {
            if !ok { _ = temp.withUnsafeBufferPointer { unlinkat(folderFD, $0.baseAddress!, 0) } }
        }
        do {
            defer { close(fd) }
            if fchmod(fd, 0o600) != 0 {
                throw IdleLockError(.storage, "fchmod of the new store file failed (errno ", Int64(ilk_errno()), ")")
            }
            let written = injected(.write) ? EIO : StoreFiles.pwriteFully(fd, bytes, at: 0)
            if written != 0 {
                throw IdleLockError(.storage, "writing the new store file failed (errno ", Int64(written), ")")
            }
            if injected(.fsync) || !DurableSync.sync(fd) {
                throw IdleLockError(.storage, "fsync of the new store file failed (errno ", Int64(ilk_errno()), "); the old store stands")
            }
        }
        let renamed = injected(.rename) ? -1 : temp.withUnsafeBufferPointer { t in
            name.withUnsafeBufferPointer { n in renameat(folderFD, t.baseAddress!, folderFD, n.baseAddress!) }
        }
        if renamed != 0 {
            throw IdleLockError(.storage, "renaming the new store file into place failed (errno ", Int64(ilk_errno()), ")")
        }
        ok = true
        return syncFolder()
    }

    /// A new temporary file beside the store, as mkstemp makes one but in
    /// the folder held open: a random name (`<name>.tmp.` and 6 hex digits
    /// of libsodium's randombytes), O_CREAT | O_EXCL (which never follows a
    /// link), mode 0600. Returns its descriptor and its name.
    private func makeTemporary() throws(IdleLockError) -> (Int32, [CChar]) {
        var attempt = 0
        while true {
            var random: (UInt8, UInt8, UInt8) = (0, 0, 0)
            withUnsafeMutableBytes(of: &random) { randombytes_buf($0.baseAddress!, 3) }
            var temp: [CChar] = tempPrefix.map { CChar(bitPattern: $0) }
            for byte in [random.0, random.1, random.2] {
                temp.append(StoreFiles.hexDigit(byte >> 4))
                temp.append(StoreFiles.hexDigit(byte & 0xF))
            }
            temp.append(0)
            let fd = temp.withUnsafeBufferPointer {
                ilk_openat(folderFD, $0.baseAddress!, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
            }
            if fd >= 0 { return (fd, temp) }
            let e = ilk_errno()
            attempt += 1
            if (e != EEXIST && e != EINTR) || attempt >= 100 {
                throw IdleLockError(.storage, "cannot create a temporary file beside the store (errno ", Int64(e), ")")
            }
        }
    }

    private static func hexDigit(_ nibble: UInt8) -> CChar {
        CChar(bitPattern: nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10)
    }

    /// Deletes the store (sign-out); a missing store is fine.
    func remove() throws(IdleLockError) {
        if injected(.remove) { throw IdleLockError(.storage, "deleting the store file failed (errno ", Int64(EIO), ")") }
        let rc = name.withUnsafeBufferPointer { unlinkat(folderFD, $0.baseAddress!, 0) }
        if rc != 0 && ilk_errno() != ENOENT {
            throw IdleLockError(.storage, "deleting the store file failed (errno ", Int64(ilk_errno()), ")")
        }
        _ = syncFolder()
    }

    /// The fsync of the folder after a rename or an unlink: true when the
    /// change is durable. A failure (an I/O error, a file system that
    /// cannot sync a folder) does not undo the change, which every process
    /// already reads: the step is done, only its survival across a power
    /// cut is not ensured (SQLite ignores this fsync's result too). So it
    /// is never reported as a step that failed: that made every attempt
    /// count (the raise was in place) while it was refused unchecked, a
    /// lockout with the right passcode (docs/STORE.md, "Crashes").
    private func syncFolder() -> Bool {
        !injected(.folderSync) && DurableSync.sync(folderFD)
    }

    /// Removes temporary files a crashed writer left (`<name>.tmp.*`). Call
    /// with the store lock held.
    func removeStrayTemporaries() {
        let listing = ilk_openat(folderFD, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0)
        guard listing >= 0 else { return }
        guard let dir = fdopendir(listing) else {
            close(listing)
            return
        }
        defer { closedir(dir) }
        let prefixLength = tempPrefix.count
        while let entry = readdir(dir) {
            guard let entryName = ilk_dirent_name(entry) else { continue }
            let length = strnlen(entryName, 4096)
            guard length == prefixLength + StoreLimits.tempSuffixBytes else { continue }
            var matches = true
            for i in 0..<prefixLength where UInt8(bitPattern: entryName[i]) != tempPrefix[i] {
                matches = false
                break
            }
            if matches { _ = unlinkat(folderFD, entryName, 0) }
        }
    }
}
