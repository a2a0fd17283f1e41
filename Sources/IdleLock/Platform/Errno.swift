// SPDX-License-Identifier: MIT
// The error a file operation of the platform layer throws: the error
// number of the system call that failed (swift-system's Errno), which the
// layers above put in their messages ("(errno 28)") and ask the few
// questions they act on.

import CSystem

struct Errno: Error {
    /// The C library's errno value.
    let code: Int32

    /// errno as the call that just failed left it.
    static var last: Errno { Errno(code: ilk_errno()) }

    /// The code as a message carries it.
    var number: Int64 { Int64(code) }

    /// ENOENT: nothing at the path.
    var meansAbsent: Bool { code == ENOENT }

    /// ELOOP: the last part of the path is a symbolic link (O_NOFOLLOW).
    var meansSymbolicLink: Bool { code == ELOOP }

    /// EINTR: a signal interrupted the call before it did anything.
    var meansInterrupted: Bool { code == EINTR }

    /// flock's EINVAL, ENOLCK or EOPNOTSUPP: this file system cannot lock
    /// this file (a folder on a network or FUSE file system).
    var meansLockingUnsupported: Bool { code == EINVAL || code == ENOLCK || code == EOPNOTSUPP }
}
