// SPDX-License-Identifier: MIT
// The durable replace of a file in a folder: a new file beside it with a
// random name, written whole, fsync'd, renamed over it, then the folder
// fsync'd (the sequence SQLite's and LMDB's authors use; docs/STORE.md,
// "Crashes"). A reader sees the old file or the new one, never a mix.

import CSystem

/// Which step of a replace failed, and the error number.
struct ReplaceFailure: Error {
    enum Step {
        /// Making the new file (openat with O_EXCL).
        case create
        /// fchmod of the new file.
        case setMode
        /// Writing it.
        case write
        /// Its fsync.
        case sync
        /// The rename over the old file.
        case rename
    }

    let step: Step
    let error: Errno
}

extension Folder {
    /// Random characters in a new file's name, after the prefix.
    static let temporarySuffixBytes = 6

    /// Replaces `name` with `bytes`: a new file `<temporaryPrefix>XXXXXX`
    /// (6 random hex digits, O_EXCL, mode 0600), written, fsync'd, closed,
    /// renamed over `name`, then the folder fsync'd. A failure up to the
    /// rename leaves `name` as it was and removes the new file (an fsync is
    /// never retried and trusted). Returns whether the rename is durable:
    /// false when the folder's fsync failed after it (the new file is in
    /// place all the same, and every process reads it).
    func replace(_ name: [UInt8], temporaryPrefix: [UInt8], with bytes: [UInt8]) throws(ReplaceFailure) -> Bool {
        let temporary = try writeTemporary(temporaryPrefix, bytes)
        do throws(Errno) {
            try rename(temporary, to: name)
        } catch {
            try? remove(temporary)
            throw ReplaceFailure(step: .rename, error: error)
        }
        return sync()
    }

    /// The new file, written and fsync'd, and closed: its name. Removed
    /// again when a step fails.
    private func writeTemporary(_ prefix: [UInt8], _ bytes: [UInt8]) throws(ReplaceFailure) -> [UInt8] {
        var temporary: [UInt8] = []
        let file = try createTemporary(prefix, named: &temporary)
        var step = ReplaceFailure.Step.setMode
        do throws(Errno) {
            try file.setMode(0o600)
            step = .write
            try file.writeWhole(bytes, at: 0)
            step = .sync
            try file.sync()
            return temporary
        } catch {
            try? remove(temporary)
            throw ReplaceFailure(step: step, error: error)
        }
    }

    /// A new file beside the others, as mkstemp makes one but in this
    /// folder: `prefix` and 6 hex digits of libsodium's randombytes (its
    /// name in `name`), O_EXCL (a name taken, EEXIST, or an interrupted
    /// open, EINTR, tries another, 100 times at most).
    private func createTemporary(_ prefix: [UInt8], named name: inout [UInt8]) throws(ReplaceFailure) -> OpenFile {
        name = prefix + [UInt8](repeating: 0, count: Folder.temporarySuffixBytes + 1)
        var failure = Errno(code: 0)
        for _ in 0..<100 {
            var random: UInt32 = 0
            withUnsafeMutableBytes(of: &random) { randombytes_buf($0.baseAddress!, Folder.temporarySuffixBytes / 2) }
            for i in 0..<Folder.temporarySuffixBytes {
                let nibble = UInt8(truncatingIfNeeded: random >> (4 * i)) & 0xF
                name[prefix.count + i] = nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
            }
            do throws(Errno) {
                return try createFile(name)
            } catch {
                failure = error
                if error.code != EEXIST && !error.meansInterrupted { break }
            }
        }
        throw ReplaceFailure(step: .create, error: failure)
    }
}
