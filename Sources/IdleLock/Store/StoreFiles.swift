// The store's files (SPEC §7): the store itself, written only by replace
// (mkstemp in the same folder, fsync, rename, fsync of the folder, mode
// 0600), and `<store>.lock`, which is never renamed or deleted and carries
// the exclusive flock every durable step takes.

import CSystem

enum StoreLimits {
    /// Longest store_path accepted (PATH_MAX less room for the suffixes).
    static let pathMaxBytes = 4000
    /// Largest store file read: 256 secrets of 64 KiB plus headers.
    static let fileMaxBytes = 20 * 1024 * 1024
    /// How long a durable step waits for another process's store lock.
    static let lockWaitMs: Int64 = 2_000
}

/// A step of a store write, for fault injection in tests.
enum StoreFileStep {
    case read, write, fsync, rename, remove
}

/// The store's paths, as NUL-terminated bytes, and the open lock file.
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

    let path: [CChar]
    let lockPath: [CChar]
    let folder: [CChar]
    /// `<path>.tmp.XXXXXX` for mkstemp.
    let tempTemplate: [CChar]
    /// The file name part of a temporary file, for cleaning strays.
    let tempPrefix: [UInt8]
    private let lockFD: Int32

    private init(path: [CChar], lockPath: [CChar], folder: [CChar], tempTemplate: [CChar],
                 tempPrefix: [UInt8], lockFD: Int32) {
        self.path = path
        self.lockPath = lockPath
        self.folder = folder
        self.tempTemplate = tempTemplate
        self.tempPrefix = tempPrefix
        self.lockFD = lockFD
    }

    deinit {
        close(lockFD)
    }

    /// Checks `store_path` (UTF-8, 1...4000 bytes, not a folder) and opens
    /// (or creates) its lock file.
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
        var bytes: [CChar] = []
        bytes.reserveCapacity(length + 1)
        for i in 0..<length { bytes.append(CChar(bitPattern: raw[i])) }
        var slash = -1
        for i in 0..<length where raw[i] == UInt8(ascii: "/") { slash = i }
        var folder: [CChar]
        if slash < 0 {
            folder = [CChar(bitPattern: UInt8(ascii: "."))]
        } else if slash == 0 {
            folder = [CChar(bitPattern: UInt8(ascii: "/"))]
        } else {
            folder = Array(bytes[0..<slash])
        }
        var prefix: [UInt8] = []
        for i in (slash + 1)..<length { prefix.append(raw[i]) }
        prefix.append(contentsOf: ".tmp.".utf8)
        let path = bytes + [0]
        let lockPath = bytes + ".lock".utf8.map { CChar(bitPattern: $0) } + [0]
        let template = bytes + ".tmp.XXXXXX".utf8.map { CChar(bitPattern: $0) } + [0]
        folder.append(0)
        let fd = lockPath.withUnsafeBufferPointer {
            ilk_open($0.baseAddress!, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        }
        if fd < 0 {
            throw IdleLockError(.storage, "cannot open the store's lock file <store_path>.lock (errno ", Int64(ilk_errno()), "); check that the folder exists and is writable")
        }
        return StoreFiles(path: path, lockPath: lockPath, folder: folder, tempTemplate: template,
                          tempPrefix: prefix, lockFD: fd)
    }

    // MARK: - The store lock

    /// Takes the exclusive flock on `<store>.lock`, waiting at most
    /// `StoreLimits.lockWaitMs`, runs `body`, and releases it.
    func locked<R>(_ body: () throws(IdleLockError) -> R) throws(IdleLockError) -> R {
        var waited: Int64 = 0
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
        defer { flock(lockFD, LOCK_UN) }
        return try body()
    }

    // MARK: - Reading

    /// The store's bytes, or nil when it does not exist.
    func read() throws(IdleLockError) -> [UInt8]? {
        if injected(.read) { throw IdleLockError(.storage, "reading the store file failed (errno ", Int64(EIO), ")") }
        guard let fd = try openForReading() else { return nil }
        defer { close(fd) }
        var info = stat()
        if fstat(fd, &info) != 0 {
            throw IdleLockError(.storage, "cannot stat the store file (errno ", Int64(ilk_errno()), ")")
        }
        let size = Int(info.st_size)
        if size > StoreLimits.fileMaxBytes {
            throw IdleLockError(.storage, "the store file is ", Int64(size), " bytes, larger than any store libidlelock writes; it is damaged or foreign and was left untouched")
        }
        var bytes = [UInt8](repeating: 0, count: size)
        if try readFully(fd, into: &bytes) != size {
            throw IdleLockError(.storage, "the store file changed size while it was read")
        }
        return bytes
    }

    /// The first `count` bytes of the store (for the cheap generation look),
    /// or nil when it does not exist or is shorter.
    func readPrefix(_ count: Int) throws(IdleLockError) -> [UInt8]? {
        guard let fd = try openForReading() else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: count)
        return try readFully(fd, into: &bytes) == count ? bytes : nil
    }

    /// Opens the store read-only; nil when it does not exist.
    private func openForReading() throws(IdleLockError) -> Int32? {
        let fd = path.withUnsafeBufferPointer { ilk_open($0.baseAddress!, O_RDONLY | O_CLOEXEC, 0) }
        if fd >= 0 { return fd }
        let e = ilk_errno()
        if e == ENOENT { return nil }
        throw IdleLockError(.storage, "cannot open the store file (errno ", Int64(e), ")")
    }

    /// `pread`s into `bytes` from offset 0 until it is full or the file
    /// ends; returns how many bytes were read.
    private func readFully(_ fd: Int32, into bytes: inout [UInt8]) throws(IdleLockError) -> Int {
        let count = bytes.count
        var done = 0
        while done < count {
            let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, count - done, off_t(done)) }
            if n < 0 {
                if ilk_errno() == EINTR { continue }
                throw IdleLockError(.storage, "reading the store file failed (errno ", Int64(ilk_errno()), ")")
            }
            if n == 0 { break }
            done += n
        }
        return done
    }

    // MARK: - Writing

    /// Replaces the store with `bytes`: a new file from mkstemp in the same
    /// folder (mode 0600), written, fsync'd, renamed over the store, then the
    /// folder fsync'd. Any failure fails the step (an fsync is never retried
    /// and trusted) and removes the temporary file.
    func replace(with bytes: [UInt8]) throws(IdleLockError) {
        var template = tempTemplate
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        if fd < 0 {
            throw IdleLockError(.storage, "cannot create a temporary file beside the store (mkstemp, errno ", Int64(ilk_errno()), ")")
        }
        var ok = false
        defer {
            if !ok { _ = template.withUnsafeBufferPointer { unlink($0.baseAddress!) } }
        }
        do {
            defer { close(fd) }
            if fchmod(fd, 0o600) != 0 {
                throw IdleLockError(.storage, "fchmod of the new store file failed (errno ", Int64(ilk_errno()), ")")
            }
            var done = 0
            while done < bytes.count {
                let n = injected(.write) ? -1 : bytes.withUnsafeBytes { write(fd, $0.baseAddress! + done, bytes.count - done) }
                if n < 0 {
                    if ilk_errno() == EINTR { continue }
                    throw IdleLockError(.storage, "writing the new store file failed (errno ", Int64(ilk_errno()), ")")
                }
                done += n
            }
            if injected(.fsync) || fsync(fd) != 0 {
                throw IdleLockError(.storage, "fsync of the new store file failed (errno ", Int64(ilk_errno()), "); the old store stands")
            }
        }
        let renamed = injected(.rename) ? -1 : template.withUnsafeBufferPointer { t in
            path.withUnsafeBufferPointer { p in rename(t.baseAddress!, p.baseAddress!) }
        }
        if renamed != 0 {
            throw IdleLockError(.storage, "renaming the new store file into place failed (errno ", Int64(ilk_errno()), ")")
        }
        ok = true
        try syncFolder()
    }

    /// Deletes the store (sign-out); a missing store is fine.
    func remove() throws(IdleLockError) {
        if injected(.remove) { throw IdleLockError(.storage, "deleting the store file failed (errno ", Int64(EIO), ")") }
        let rc = path.withUnsafeBufferPointer { unlink($0.baseAddress!) }
        if rc != 0 && ilk_errno() != ENOENT {
            throw IdleLockError(.storage, "deleting the store file failed (errno ", Int64(ilk_errno()), ")")
        }
        try syncFolder()
    }

    private func syncFolder() throws(IdleLockError) {
        let dfd = folder.withUnsafeBufferPointer { ilk_open($0.baseAddress!, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0) }
        if dfd < 0 {
            throw IdleLockError(.storage, "cannot open the store's folder to fsync it (errno ", Int64(ilk_errno()), ")")
        }
        defer { close(dfd) }
        if fsync(dfd) != 0 {
            throw IdleLockError(.storage, "fsync of the store's folder failed (errno ", Int64(ilk_errno()), ")")
        }
    }

    /// Removes temporary files a crashed writer left (`<name>.tmp.*`). Call
    /// with the store lock held.
    func removeStrayTemporaries() {
        guard let dir = folder.withUnsafeBufferPointer({ opendir($0.baseAddress!) }) else { return }
        defer { closedir(dir) }
        let prefixLength = tempPrefix.count
        while let entry = readdir(dir) {
            guard let name = ilk_dirent_name(entry) else { continue }
            let length = strnlen(name, 4096)
            guard length == prefixLength + 6 else { continue }
            var matches = true
            for i in 0..<prefixLength where UInt8(bitPattern: name[i]) != tempPrefix[i] {
                matches = false
                break
            }
            if matches { _ = unlinkat(dirfd(dir), name, 0) }
        }
    }
}

/// `/proc/sys/kernel/random/boot_id`: 36 ASCII bytes, or zeros when it
/// cannot be read (then every restart counts as another boot: errs toward
/// locking).
enum BootID {
    static let count = 36

    static func current() -> [UInt8] {
        var id = [UInt8](repeating: 0, count: count)
        let fd = ilk_open("/proc/sys/kernel/random/boot_id", O_RDONLY | O_CLOEXEC, 0)
        guard fd >= 0 else { return id }
        defer { close(fd) }
        let n = id.withUnsafeMutableBytes { read(fd, $0.baseAddress!, count) }
        if n != count { return [UInt8](repeating: 0, count: count) }
        return id
    }
}
