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
/// The message is `head`, then `value` in decimal when present, then `tail`,
/// then what the failure did to the call (`Consequence`) when a layer above
/// said so: static text only, so a message can never carry a passcode or a
/// secret, and building one allocates nothing.
struct IdleLockError: Error {
    let status: Status
    let head: StaticString
    let value: Int64?
    let tail: StaticString
    /// Store damage, or what the failure did to the call: one byte, where a
    /// Bool was (the error is copied on every failure path; a third string
    /// would grow the library by kilobytes).
    private let kind: Kind

    private enum Kind: UInt8 {
        case plain
        case storeDamage
        case consequence0, consequence1, consequence2, consequence3
    }

    /// A store file that is present but damaged (short, failing its
    /// checksum, foreign, of a newer format, not a regular file): STORAGE,
    /// and the session locks (header, "The store"). A failed read or write
    /// of a sound store is not damage.
    var isStoreDamage: Bool { kind == .storeDamage }

    /// What the failure did to the call (`leading(to:)`), if a layer said.
    var consequence: Consequence? {
        switch kind {
        case .plain, .storeDamage: return nil
        case .consequence0: return .attemptRefused
        case .consequence1: return .rightPasscodeNotSaved
        case .consequence2: return .lockNotSaved
        case .consequence3: return .storeNotDeleted
        }
    }

    init(_ status: Status, _ head: StaticString, _ value: Int64? = nil, _ tail: StaticString = "") {
        self.status = status
        self.head = head
        self.value = value
        self.tail = tail
        self.kind = .plain
    }

    private init(damage head: StaticString, _ value: Int64?, _ tail: StaticString) {
        self.status = .storage
        self.head = head
        self.value = value
        self.tail = tail
        self.kind = .storeDamage
    }

    private init(_ error: IdleLockError, _ kind: Kind) {
        self.status = error.status
        self.head = error.head
        self.value = error.value
        self.tail = error.tail
        self.kind = kind
    }

    /// This failure (of the store), with what it did to the call said after
    /// it: "writing the new store file failed (errno 28); the attempt could
    /// not be saved ...". No longer damage: the call says what it did.
    func leading(to consequence: Consequence) -> IdleLockError {
        switch consequence {
        case .attemptRefused: return IdleLockError(self, .consequence0)
        case .rightPasscodeNotSaved: return IdleLockError(self, .consequence1)
        case .lockNotSaved: return IdleLockError(self, .consequence2)
        case .storeNotDeleted: return IdleLockError(self, .consequence3)
        }
    }

    static func invalid(_ head: StaticString, _ value: Int64? = nil, _ tail: StaticString = "") -> IdleLockError {
        IdleLockError(.invalidArgument, head, value, tail)
    }

    /// STORAGE for a store file that is present but damaged.
    static func damagedStore(_ head: StaticString, _ value: Int64? = nil, _ tail: StaticString = "") -> IdleLockError {
        IdleLockError(damage: head, value, tail)
    }
}

/// What a store failure did to the call it failed, said after the failure
/// itself in the message (`IdleLockError.leading(to:)`).
enum Consequence {
    /// An unlock attempt whose count could not be saved.
    case attemptRefused
    /// A right passcode whose unlock could not be saved.
    case rightPasscodeNotSaved
    /// A lock whose save failed.
    case lockNotSaved
    /// A sign-out whose delete of the store failed.
    case storeNotDeleted

    /// The text after the failure's own.
    var text: StaticString {
        switch self {
        case .attemptRefused:
            return "; the attempt could not be saved to the store, so it was refused without being checked; try again"
        case .rightPasscodeNotSaved:
            return "; the passcode was right, but the store could not be updated, so the session stays locked; try again"
        case .lockNotSaved:
            return "; the session is locked, but saving the lock to the store failed; it stays locked in this process"
        case .storeNotDeleted:
            return "; signed out in this process, but deleting the store failed; delete the store file, or call idlelock_disable again"
        }
    }
}
