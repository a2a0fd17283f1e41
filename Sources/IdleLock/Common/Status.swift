// SPDX-License-Identifier: MIT
// Status codes and the typed error every fallible operation throws.

/// The status codes of the C ABI (`IDLELOCK_OK`, `IDLELOCK_ERR_*` in
/// include/idlelock.h). Append-only: a value is never reused or renumbered.
enum Status: Int32 {
    case ok = 0
    case invalidArgument = 1
    case sessionLocked = 2
    case invalidPasscode = 3
    case lockedOut = 4
    case lockUnavailable = 5
    case noPasscode = 6
    case storage = 7
    case notFound = 8
    case bufferTooSmall = 9
    case noMemory = 10
    case `internal` = 11
    case retryLater = 12
    case reauthRequired = 13

    /// The fixed name returned by `idlelock_status_name`.
    var name: StaticString {
        switch self {
        case .ok: return "IDLELOCK_OK"
        case .invalidArgument: return "IDLELOCK_ERR_INVALID_ARGUMENT"
        case .sessionLocked: return "IDLELOCK_ERR_SESSION_LOCKED"
        case .invalidPasscode: return "IDLELOCK_ERR_INVALID_PASSCODE"
        case .lockedOut: return "IDLELOCK_ERR_LOCKED_OUT"
        case .lockUnavailable: return "IDLELOCK_ERR_LOCK_UNAVAILABLE"
        case .noPasscode: return "IDLELOCK_ERR_NO_PASSCODE"
        case .storage: return "IDLELOCK_ERR_STORAGE"
        case .notFound: return "IDLELOCK_ERR_NOT_FOUND"
        case .bufferTooSmall: return "IDLELOCK_ERR_BUFFER_TOO_SMALL"
        case .noMemory: return "IDLELOCK_ERR_NO_MEMORY"
        case .internal: return "IDLELOCK_ERR_INTERNAL"
        case .retryLater: return "IDLELOCK_ERR_RETRY_LATER"
        case .reauthRequired: return "IDLELOCK_ERR_REAUTH_REQUIRED"
        }
    }
}

/// A failure with its status and a message for `idlelock_last_error`.
///
/// The message is `head`, then `value` in decimal when present, then `tail`:
/// static text only, so a message can never carry a passcode or a secret,
/// and building one allocates nothing.
struct IdleLockError: Error {
    let status: Status
    let head: StaticString
    let value: Int64?
    let tail: StaticString
    /// A store file that is present but damaged (short, failing its
    /// checksum, foreign, of a newer format, not a regular file): STORAGE,
    /// and the session locks (SPEC §7). A failed read or write of a sound
    /// store is not damage.
    let isStoreDamage: Bool

    init(_ status: Status, _ head: StaticString, _ value: Int64? = nil, _ tail: StaticString = "") {
        self.status = status
        self.head = head
        self.value = value
        self.tail = tail
        self.isStoreDamage = false
    }

    private init(damage head: StaticString, _ value: Int64?, _ tail: StaticString) {
        self.status = .storage
        self.head = head
        self.value = value
        self.tail = tail
        self.isStoreDamage = true
    }

    static func invalid(_ head: StaticString, _ value: Int64? = nil, _ tail: StaticString = "") -> IdleLockError {
        IdleLockError(.invalidArgument, head, value, tail)
    }

    /// STORAGE for a store file that is present but damaged.
    static func damagedStore(_ head: StaticString, _ value: Int64? = nil, _ tail: StaticString = "") -> IdleLockError {
        IdleLockError(damage: head, value, tail)
    }
}
