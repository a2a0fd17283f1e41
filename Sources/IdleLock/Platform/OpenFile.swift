// SPDX-License-Identifier: MIT
// An open file of the platform layer (Folder.swift opens them): its status,
// reading and writing it whole, its mode and its durable sync. The lock
// (FileLock.swift) and the replace (FileReplace.swift) are beside it.

import CSystem

/// What fstat says of an open file (all zeros: nothing read yet).
struct FileStatus {
    /// A regular file (not a FIFO, a device, a folder or a socket).
    var isRegularFile = false
    /// Its size in bytes (Int.max for a size past it: a 32-bit host's
    /// off_t can hold more than its Int).
    var size = 0
    /// Device and inode: which file it is.
    var device: UInt64 = 0
    var inode: UInt64 = 0
    /// Its hard links: 0 once it was deleted while open.
    var links: UInt64 = 0

    /// Whether `other` is the same file (same device and inode).
    func isSameFile(as other: FileStatus) -> Bool {
        device == other.device && inode == other.inode
    }
}

/// A file descriptor this value owns: closed when the value goes (a
/// noncopyable struct: no allocation, and no second owner).
struct OpenFile: ~Copyable {
    let descriptor: Int32

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit {
        SystemCalls.close(descriptor)
    }

    /// fstat.
    func status() throws(Errno) -> FileStatus {
        var info = stat()
        guard SystemCalls.fstat(descriptor, &info) == 0 else { throw Errno.last }
        return FileStatus(isRegularFile: ilk_is_regular_file(&info) != 0, size: Int(clamping: info.st_size),
                          device: UInt64(truncatingIfNeeded: info.st_dev),
                          inode: UInt64(truncatingIfNeeded: info.st_ino),
                          links: UInt64(truncatingIfNeeded: info.st_nlink))
    }

    /// Reads from offset 0 (pread) until `bytes` is full or the file ends;
    /// a short read goes on where it stopped and EINTR is retried. Returns
    /// how many bytes came, and the error of a read that failed (nil when
    /// none did).
    func readWhole(into bytes: inout [UInt8]) -> (count: Int, error: Errno?) {
        let count = bytes.count
        var done = 0
        while done < count {
            let n = bytes.withUnsafeMutableBytes {
                SystemCalls.pread(descriptor, $0.baseAddress! + done, count - done, off_t(done))
            }
            if n < 0 {
                let error = Errno.last
                if error.meansInterrupted { continue }
                return (done, error)
            }
            if n == 0 { break }
            done += n
        }
        return (done, nil)
    }

    /// Writes all of `bytes` at `offset` (pwrite); a short write goes on
    /// where it stopped and EINTR is retried. A write that writes nothing
    /// fails with EIO (the system would otherwise be asked forever).
    func writeWhole(_ bytes: [UInt8], at offset: Int) throws(Errno) {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes {
                SystemCalls.pwrite(descriptor, $0.baseAddress! + done, $0.count - done, off_t(offset + done))
            }
            if n < 0 {
                let error = Errno.last
                if error.meansInterrupted { continue }
                throw error
            }
            if n == 0 { throw Errno(code: EIO) }
            done += n
        }
    }

    /// fchmod to `mode` (0600: the store's, whatever the umask made it).
    func setMode(_ mode: mode_t) throws(Errno) {
        guard SystemCalls.fchmod(descriptor, mode) == 0 else { throw Errno.last }
    }

    /// The durable sync of the file's data (DurableSync.swift); never
    /// retried.
    func sync() throws(Errno) {
        guard DurableSync.sync(descriptor) else { throw Errno.last }
    }
}
