// SPDX-License-Identifier: MIT
// The durable sync of a file and of a folder (the store's replace: the new
// file before its rename, the folder after it; docs/STORE.md).
//
//   Linux   fsync(2): the data, and the drive's write cache, on stable
//           storage before it returns
//   Darwin  fcntl(F_FULLFSYNC): Darwin's fsync hands the data to the drive
//           but does not flush the drive's cache, so a power loss can lose
//           a write fsync reported done. Where the file system has no
//           F_FULLFSYNC (it answers ENOTSUP, EINVAL or ENOTTY), fsync
//           instead, as SQLite does.
// A failed sync is never retried: after a failure the system may already
// have dropped the dirty data, and a second try that succeeds proves
// nothing. Only "this file system has no F_FULLFSYNC" falls back.

import CSystem

enum DurableSync {
    /// Syncs the open file or folder `fd`: true when it is durable; false
    /// with errno set when it failed.
    static func sync(_ fd: Int32) -> Bool {
        #if os(macOS) || os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
        if SystemCalls.fcntl_full_fsync(fd) == 0 { return true }
        guard fallsBack(afterFullSyncError: ilk_errno()) else { return false }
        return SystemCalls.fsync(fd) == 0
        #else
        return SystemCalls.fsync(fd) == 0
        #endif
    }

    /// Whether an error of F_FULLFSYNC means "not supported here" (then a
    /// plain fsync is the most the file system offers), rather than a
    /// failed sync (which must fail the step).
    static func fallsBack(afterFullSyncError error: Int32) -> Bool {
        error == ENOTSUP || error == EOPNOTSUPP || error == EINVAL || error == ENOTTY
    }
}
