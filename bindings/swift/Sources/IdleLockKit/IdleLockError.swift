// SPDX-License-Identifier: MIT
import CIdleLock

/// What went wrong, one case per status of the C interface
/// (`IDLELOCK_ERR_*` in idlelock.h, whose blocks say when each is
/// returned), plus the two the binding adds (``cancelled``, ``closed``).
/// Every call that fails changes nothing unless its documentation says
/// otherwise; the lock's state after it is in ``IdleLockHandle/snapshot()``
/// (and an ``IdleLock`` has already taken it).
public enum IdleLockError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `IDLELOCK_ERR_INVALID_ARGUMENT`: an argument or option out of range,
    /// a request token no longer open; nothing changed. The message names it.
    case invalidArgument(String)
    /// `IDLELOCK_ERR_SESSION_LOCKED`: the session is locked (or a lock
    /// overtook the call while it ran).
    case sessionLocked
    /// `IDLELOCK_ERR_INVALID_PASSCODE`: the passcode was wrong; the attempt
    /// counted, this many remain before the lockout.
    case invalidPasscode(attemptsRemaining: Int)
    /// `IDLELOCK_ERR_LOCKED_OUT`: too many wrong passcodes; only
    /// ``IdleLockHandle/disable()`` (sign-out) leaves this state.
    case lockedOut
    /// `IDLELOCK_ERR_LOCK_UNAVAILABLE`: the biometric shortcut is off,
    /// unavailable, required the passcode, failed, was cancelled by the
    /// person or expired; the message says which. The passcode still works.
    case lockUnavailable(String)
    /// `IDLELOCK_ERR_NO_PASSCODE`: no passcode is set.
    case noPasscode
    /// `IDLELOCK_ERR_STORAGE`: the store could not be read or written, or is
    /// damaged; the message says which.
    case storage(String)
    /// `IDLELOCK_ERR_NOT_FOUND`: no secret has that name.
    case notFound
    /// `IDLELOCK_ERR_NO_MEMORY`: Argon2id's memory or secure memory could
    /// not be allocated.
    case noMemory
    /// `IDLELOCK_ERR_INTERNAL` (or a status this binding does not know):
    /// a failure inside the library; the message says which step.
    case internalFailure(String)
    /// `IDLELOCK_ERR_RETRY_LATER`: an escalating delay runs after wrong
    /// passcodes; try again in this many milliseconds. Not counted.
    case retryLater(milliseconds: Int64)
    /// `IDLELOCK_ERR_REAUTH_REQUIRED`: the last authentication is older than
    /// the caller allows; ask again, then repeat the check.
    case reauthRequired
    /// The task was cancelled before the library heard an answer: nothing
    /// was unlocked or enabled by it.
    case cancelled
    /// The lock was closed (``IdleLockHandle/close()``).
    case closed

    /// The C status code (`IDLELOCK_ERR_*`); 0 for ``cancelled`` and
    /// ``closed``, which the binding reports itself.
    public var status: Int32 {
        switch self {
        case .invalidArgument: return IDLELOCK_ERR_INVALID_ARGUMENT
        case .sessionLocked: return IDLELOCK_ERR_SESSION_LOCKED
        case .invalidPasscode: return IDLELOCK_ERR_INVALID_PASSCODE
        case .lockedOut: return IDLELOCK_ERR_LOCKED_OUT
        case .lockUnavailable: return IDLELOCK_ERR_LOCK_UNAVAILABLE
        case .noPasscode: return IDLELOCK_ERR_NO_PASSCODE
        case .storage: return IDLELOCK_ERR_STORAGE
        case .notFound: return IDLELOCK_ERR_NOT_FOUND
        case .noMemory: return IDLELOCK_ERR_NO_MEMORY
        case .internalFailure: return IDLELOCK_ERR_INTERNAL
        case .retryLater: return IDLELOCK_ERR_RETRY_LATER
        case .reauthRequired: return IDLELOCK_ERR_REAUTH_REQUIRED
        case .cancelled, .closed: return 0
        }
    }

    public var description: String {
        switch self {
        case .invalidArgument(let m): return "invalid argument: \(m)"
        case .sessionLocked: return "the session is locked"
        case .invalidPasscode(let left): return "wrong passcode: \(left) attempt\(left == 1 ? "" : "s") left"
        case .lockedOut: return "locked out after too many wrong passcodes: only a sign-out leaves it"
        case .lockUnavailable(let m): return "the biometric shortcut is unavailable: \(m)"
        case .noPasscode: return "no passcode is set"
        case .storage(let m): return "storage: \(m)"
        case .notFound: return "no secret has that name"
        case .noMemory: return "out of memory"
        case .internalFailure(let m): return "internal failure: \(m)"
        case .retryLater(let ms): return "wrong passcodes: try again in \(ms) ms"
        case .reauthRequired: return "authenticate again first"
        case .cancelled: return "cancelled: nothing was unlocked"
        case .closed: return "the lock was closed"
        }
    }

    /// The error for a C status, its message (`idlelock_last_error()`, read
    /// on the failing thread) and the snapshot the call wrote.
    init(status: Int32, message: String, snapshot: Snapshot?) {
        switch status {
        case IDLELOCK_ERR_INVALID_ARGUMENT: self = .invalidArgument(message)
        case IDLELOCK_ERR_SESSION_LOCKED: self = .sessionLocked
        case IDLELOCK_ERR_INVALID_PASSCODE: self = .invalidPasscode(attemptsRemaining: snapshot?.attemptsRemaining ?? 0)
        case IDLELOCK_ERR_LOCKED_OUT: self = .lockedOut
        case IDLELOCK_ERR_LOCK_UNAVAILABLE: self = .lockUnavailable(message)
        case IDLELOCK_ERR_NO_PASSCODE: self = .noPasscode
        case IDLELOCK_ERR_STORAGE: self = .storage(message)
        case IDLELOCK_ERR_NOT_FOUND: self = .notFound
        case IDLELOCK_ERR_NO_MEMORY: self = .noMemory
        case IDLELOCK_ERR_RETRY_LATER: self = .retryLater(milliseconds: snapshot?.msUntilRetry ?? 0)
        case IDLELOCK_ERR_REAUTH_REQUIRED: self = .reauthRequired
        case IDLELOCK_ERR_INTERNAL: self = .internalFailure(message)
        default:
            self = .internalFailure("status \(status) (\(String(cString: idlelock_status_name(status)))): \(message)")
        }
    }
}
