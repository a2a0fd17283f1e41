// SPDX-License-Identifier: MIT
// The exclusive lock of an open file or folder, with a bounded wait:
// flock(2), which locks the open file (not the path) and goes with its last
// descriptor, so a process that dies holding it holds it no more.

import CSystem

/// Why the lock was not taken.
enum FileLockFailure: Error {
    /// Another open file held it for the whole wait.
    case heldElsewhere
    /// flock failed for another reason (the error number says which).
    case failed(Errno)
}

/// A descriptor a value owns (an open file, a folder): what flock locks.
protocol OwnedDescriptor: ~Copyable {
    var descriptor: Int32 { get }
}

extension OpenFile: OwnedDescriptor {}
extension Folder: OwnedDescriptor {}

extension OwnedDescriptor where Self: ~Copyable {
    /// Takes the exclusive lock, waiting at most `waitMs` ms for another
    /// open file (another process) to release it: tried every 2 ms (a
    /// signal does not cut a pause short: SystemCalls.nanosleep), EINTR
    /// retried. Returns the ms it waited. Some file systems cannot lock a
    /// folder (`Errno.meansLockingUnsupported`).
    @discardableResult
    func lockExclusively(waitingAtMost waitMs: Int64) throws(FileLockFailure) -> Int64 {
        var waited: Int64 = 0
        while SystemCalls.flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let error = Errno.last
            if error.meansInterrupted { continue }
            if error.code != EWOULDBLOCK { throw .failed(error) }
            if waited >= waitMs { throw .heldElsewhere }
            SystemCalls.nanosleep(2_000_000)
            waited += 2
        }
        return waited
    }

    /// Releases the lock.
    func unlock() {
        SystemCalls.flock(descriptor, LOCK_UN)
    }
}
