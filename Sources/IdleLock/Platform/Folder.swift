// SPDX-License-Identifier: MIT
// A folder held open (O_DIRECTORY), and the files in it: every file is
// reached relative to the folder's descriptor (openat, renameat, unlinkat,
// the folder's fsync), so a later chdir of the process, or a rename of a
// parent folder, changes nothing. Files are opened without following a
// symbolic link (O_NOFOLLOW) and without blocking (O_NONBLOCK: a FIFO
// answers at once). A name is its bytes and a NUL. The replace of a file is
// FileReplace.swift.

import CSystem

/// A folder descriptor this value owns: closed when the value goes.
struct Folder: ~Copyable {
    let descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit {
        SystemCalls.close(descriptor)
    }

    /// Opens the folder at `path` (NUL-terminated), resolved now: against
    /// the current folder for a relative path.
    static func open(_ path: [UInt8]) throws(Errno) -> Folder {
        let fd = cString(path) { SystemCalls.open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0) }
        guard fd >= 0 else { throw Errno.last }
        return Folder(descriptor: fd)
    }

    /// How `openFile` opens a file.
    enum Access {
        /// Read-only; the file must exist.
        case read
        /// Read and write, created (mode 0600 before the umask) when absent.
        case readWriteCreating
    }

    /// Opens `name`. ELOOP (`meansSymbolicLink`): it is a symbolic link;
    /// ENOENT (`meansAbsent`): there is nothing at `name` to read.
    func openFile(_ name: [UInt8], _ access: Access) throws(Errno) -> OpenFile {
        var flags = O_RDONLY
        if case .readWriteCreating = access { flags = O_RDWR | O_CREAT }
        let fd = Folder.cString(name) {
            SystemCalls.openat(descriptor, $0, flags | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o600)
        }
        guard fd >= 0 else { throw Errno.last }
        return OpenFile(descriptor: fd)
    }

    /// Creates `name` for writing, mode 0600 before the umask; it must not
    /// exist (O_EXCL: EEXIST otherwise, and a link there is never
    /// followed).
    func createFile(_ name: [UInt8]) throws(Errno) -> OpenFile {
        let fd = Folder.cString(name) {
            SystemCalls.openat(descriptor, $0, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        }
        guard fd >= 0 else { throw Errno.last }
        return OpenFile(descriptor: fd)
    }

    /// Renames `from` to `to` in this folder, replacing `to` atomically.
    func rename(_ from: [UInt8], to: [UInt8]) throws(Errno) {
        let rc = Folder.cString(from) { f in
            Folder.cString(to) { t in SystemCalls.renameat(descriptor, f, descriptor, t) }
        }
        guard rc == 0 else { throw Errno.last }
    }

    /// Deletes `name` (ENOENT: there was nothing to delete).
    func remove(_ name: [UInt8]) throws(Errno) {
        guard Folder.cString(name, { SystemCalls.unlinkat(descriptor, $0, 0) }) == 0 else { throw Errno.last }
    }

    /// Deletes `name` (NUL-terminated).
    func remove(_ name: UnsafePointer<CChar>) throws(Errno) {
        guard SystemCalls.unlinkat(descriptor, name, 0) == 0 else { throw Errno.last }
    }

    /// The durable sync of the folder (its entries: a rename, a delete):
    /// true when it is durable (DurableSync.swift).
    func sync() -> Bool {
        DurableSync.sync(descriptor)
    }

    /// Lists the folder (readdir, on a descriptor of its own): calls `body`
    /// with each name (NUL-terminated, valid during the call) that starts
    /// with `prefix` and has exactly `suffixBytes` bytes after it. Best
    /// effort: a folder that cannot be listed, or whose listing fails part
    /// way, lists what was read.
    func forEachName(prefix: [UInt8], suffixBytes: Int, _ body: (UnsafePointer<CChar>) -> Void) {
        let listing = SystemCalls.openat(descriptor, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0)
        guard listing >= 0 else { return }
        guard let stream = SystemCalls.fdopendir(listing) else {
            SystemCalls.close(listing)
            return
        }
        defer { SystemCalls.closedir(stream) }
        let length = prefix.count + suffixBytes
        while let entry = SystemCalls.readdir(stream) {
            let name = ilk_dirent_name(entry)
            var matches = true
            for i in 0...length {
                let byte = UInt8(bitPattern: name[i])
                // The prefix, then `suffixBytes` bytes that are not the end,
                // then the end.
                if i < prefix.count ? byte != prefix[i] : (i < length) == (byte == 0) {
                    matches = false
                    break
                }
            }
            if matches { body(name) }
        }
    }

    /// `name` (its bytes and a NUL) as the C string a call takes.
    @inline(__always)
    private static func cString<R>(_ name: [UInt8], _ body: (UnsafePointer<CChar>) -> R) -> R {
        name.withUnsafeBytes { body($0.baseAddress!.assumingMemoryBound(to: CChar.self)) }
    }
}
