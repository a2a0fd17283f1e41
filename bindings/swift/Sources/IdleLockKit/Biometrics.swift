// SPDX-License-Identifier: MIT
// The biometric shortcut (idlelock.h, "Biometric shortcut" and "Biometrics
// for asynchronous hosts"; docs/BIOMETRICS.md).
import CIdleLock

/// How a biometric check ended without releasing the secret
/// (`IDLELOCK_AUTH_FAILED`, `_CANCELLED`, `_UNAVAILABLE`).
public enum BiometricCheckError: Error, Sendable, Hashable {
    /// The check failed (a face or finger not recognised, a locked sensor).
    case failed
    /// The person or the system cancelled the prompt.
    case cancelled
    /// No check can run now (no enrolment, no hardware).
    case unavailable
    /// The item is gone for good: `.biometryCurrentSet` deleted it after a
    /// new enrolment (Keychain: `errSecItemNotFound`). The library hears
    /// "unavailable", then the binding turns the shortcut off
    /// (``IdleLockHandle/disableBiometrics()``), as idlelock.h's iOS sequence
    /// asks: the passcode is the way in until the shortcut is enabled again.
    case invalidated

    var result: BiometricResult {
        switch self {
        case .failed: return .failed
        case .cancelled: return .cancelled
        case .unavailable, .invalidated: return .unavailable
        }
    }
}

/// The host's keystore behind a biometric check: an iOS Keychain item with
/// `.biometryCurrentSet` (``KeychainBiometricAuthenticator`` on Apple
/// platforms), Android Keystore, a test's fake. The library has no
/// biometric code: it hands the authenticator a random 32-byte secret to
/// keep, and the secret it releases must open a wrap of the session key (a
/// biometric result is never a yes/no).
///
/// Threads: every method may be called on any thread, never with the
/// library's lock held; `loadSecret` runs on the task of
/// ``IdleLockHandle/unlockWithBiometrics()``.
public protocol BiometricAuthenticator: AnyObject, Sendable {
    /// Whether a check can run now (hardware present, enrolled). The
    /// library caches it (at creation, at every foreground and enable):
    /// keep it quick.
    func isAvailable() -> Bool
    /// Keep these 32 bytes in an item released only after a biometric
    /// check, replacing any earlier one (no prompt is needed to add one).
    /// Throw to fail: the shortcut then stays off. The bytes are wiped when
    /// this returns: copy them into the keystore, nowhere else.
    func storeSecret(_ secret: SecretBytes) throws
    /// Run the check, showing `reason`, and release the stored 32 bytes.
    /// Throw ``BiometricCheckError`` for the other outcomes. When the
    /// calling task is cancelled (the app left the screen, the lock was
    /// closed) stop the prompt if you can: the binding has already told the
    /// library "cancelled" and wipes whatever this returns later.
    func loadSecret(reason: String?) async throws(BiometricCheckError) -> SecretBytes
    /// Delete the item: the shortcut went off (disabled, a new passcode, a
    /// sign-out, an enrolment change). Failures are ignored by the library.
    func deleteSecret()
}

// The outcome a host reports when it finishes a request, BiometricResult
// (`IDLELOCK_AUTH_*`), and a request's Purpose (`IDLELOCK_BIOMETRIC_*`) are
// Generated.swift's, from include/idlelock.h.

/// An open biometric request of the two-phase pair (`idlelock_biometric_begin`):
/// for a host that runs the check itself and reports the outcome later,
/// from any thread, with ``finish(secret:)``, ``finish()``,
/// ``finish(result:)`` or ``cancel()``. While open, its prompt defers the
/// rules (within prompt_cap_ms); it expires after prompt_cap_ms. A request
/// still open when it is freed is finished as cancelled.
public final class BiometricRequest: @unchecked Sendable {
    public let purpose: Purpose
    /// The library's one-time token (64 random bits, never 0).
    public let token: UInt64
    /// For ``Purpose/enable``: the new secret to keep behind the check,
    /// wiped when the request ends. `nil` for an unlock.
    public let secret: SecretBytes?
    /// The state after the begin.
    public let snapshot: Snapshot
    private let handle: IdleLockHandle
    private let ended = Locked(false)

    init(handle: IdleLockHandle, purpose: Purpose, token: UInt64, secret: SecretBytes?, snapshot: Snapshot) {
        self.handle = handle
        self.purpose = purpose
        self.token = token
        self.secret = secret
        self.snapshot = snapshot
    }

    deinit {
        if !isFinished { _ = cancel() }
        secret?.wipe()
    }

    /// Whether a finish or cancel reached the library and ended it.
    public var isFinished: Bool { ended.withLock { $0 } }

    /// An unlock whose check passed: `secret` is the 32 bytes it released
    /// (read during the call; wipe your copy, or let it go: it wipes itself).
    @discardableResult
    public func finish(secret: SecretBytes) throws(IdleLockError) -> Snapshot {
        try end(.ok, secret)
    }

    /// An enable: the secret is stored behind the check. The shortcut is on
    /// only when this returns; when it throws, delete what you stored.
    @discardableResult
    public func finish() throws(IdleLockError) -> Snapshot {
        try end(.ok, nil)
    }

    /// Any other outcome: throws ``IdleLockError/lockUnavailable(_:)`` (the
    /// expected answer: nothing unlocked or enabled), or what else the
    /// library answers.
    @discardableResult
    public func finish(result: BiometricResult) throws(IdleLockError) -> Snapshot {
        try end(result, nil)
    }

    /// Finishes the request as cancelled, for a screen that goes away
    /// without an answer. `true`: this cancel ended the request, so no
    /// answer can unlock anything through it any more. `false`: it had
    /// ended already (an answer reached the library first, or it was voided
    /// or closed): check the lock's state.
    @discardableResult
    public func cancel() -> Bool {
        do {
            _ = try end(.cancelled, nil)
            return true
        } catch .invalidArgument, .closed {
            return false
        } catch {
            return true  // a cancelled finish never unlocks: ended as cancelled
        }
    }

    private func end(_ result: BiometricResult, _ released: SecretBytes?) throws(IdleLockError) -> Snapshot {
        var s = Snapshot.raw()
        let (rc, message): (Int32, String)
        if let released {
            (rc, message) = try released.withUnsafeBytes { bytes throws(IdleLockError) in
                try handle.status { h in
                    idlelock_biometric_finish(h, token, result.rawValue, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self),
                                              bytes.count, &s)
                }
            }
        } else {
            (rc, message) = try handle.status { idlelock_biometric_finish($0, token, result.rawValue, nil, 0, &s) }
        }
        if rc != IDLELOCK_ERR_INVALID_ARGUMENT {
            ended.withLock { $0 = true }
            secret?.wipe()
        }
        let snapshot = Snapshot(s)
        if rc != IDLELOCK_OK {
            throw IdleLockError(status: rc, message: message, snapshot: rc == IDLELOCK_ERR_INVALID_ARGUMENT ? nil : snapshot)
        }
        return snapshot
    }
}

extension IdleLockHandle {
    /// `idlelock_biometric_begin` for an unlock (or a re-authentication):
    /// run your check, then ``BiometricRequest/finish(secret:)``. Needs no
    /// authenticator; with one, its cached availability must be true.
    public func beginBiometricUnlock() throws(IdleLockError) -> BiometricRequest {
        try begin(.unlock)
    }

    /// `idlelock_biometric_begin` to turn the shortcut on: keep
    /// ``BiometricRequest/secret`` behind your check, then
    /// ``BiometricRequest/finish()``.
    public func beginBiometricEnable() throws(IdleLockError) -> BiometricRequest {
        try begin(.enable)
    }

    private func begin(_ purpose: BiometricRequest.Purpose) throws(IdleLockError) -> BiometricRequest {
        let secret = purpose == .enable ? SecretBytes(count: Int(IDLELOCK_AUTH_SECRET_BYTES)) : nil
        var token: UInt64 = 0
        let snapshot = try snapshotCall { h, s in
            if let secret {
                return secret.withUnsafeMutableBytes {
                    idlelock_biometric_begin(h, purpose.rawValue, &token, $0.baseAddress?.assumingMemoryBound(to: UInt8.self),
                                             $0.count, s)
                }
            }
            return idlelock_biometric_begin(h, purpose.rawValue, &token, nil, 0, s)
        }
        return BiometricRequest(handle: self, purpose: purpose, token: token, secret: secret, snapshot: snapshot)
    }

    /// Turns the shortcut on (`idlelock_enable_biometrics`): the
    /// authenticator keeps a new secret (``BiometricAuthenticator/storeSecret(_:)``,
    /// on a background thread). Needs an unlocked session with a passcode
    /// and an available authenticator (``IdleLockError/lockUnavailable(_:)``
    /// otherwise). A task cancelled before it starts throws
    /// ``IdleLockError/cancelled``; once it runs, it finishes.
    public func enableBiometrics() async throws(IdleLockError) {
        if Task.isCancelled { throw .cancelled }
        let result: Result<Void, IdleLockError> = await offloaded {
            Result { () throws(IdleLockError) in try self.plainCall { idlelock_enable_biometrics($0) } }
        }
        try result.get()
    }

    /// Turns the shortcut off (`idlelock_disable_biometrics`): the
    /// authenticator's item is deleted; open requests are void.
    public func disableBiometrics() throws(IdleLockError) {
        try plainCall { idlelock_disable_biometrics($0) }
    }

    /// Unlocks (or re-authenticates) with the authenticator's check,
    /// through the two-phase pair: begin, ``BiometricAuthenticator/loadSecret(reason:)``,
    /// finish with its answer. Never counts an attempt. Errors:
    /// ``IdleLockError/lockUnavailable(_:)`` (no authenticator, the shortcut
    /// off or unavailable, a passcode policy, a failed or cancelled check, a
    /// secret that no longer opens the shortcut: it is then off),
    /// ``IdleLockError/lockedOut``, ``IdleLockError/noPasscode``,
    /// ``IdleLockError/sessionLocked`` (a lock overtook it).
    ///
    /// Cancellation ends it at once, whatever the authenticator is doing:
    /// the request is finished as cancelled before this throws
    /// ``IdleLockError/cancelled``, so nothing the check answers later
    /// unlocks anything (the late secret is wiped). ``IdleLockHandle/close()``
    /// ends it the same way with ``IdleLockError/closed``.
    @discardableResult
    public func unlockWithBiometrics() async throws(IdleLockError) -> Snapshot {
        guard let authenticator else {
            throw .lockUnavailable("no authenticator: create the lock with one to use its check")
        }
        if Task.isCancelled { throw .cancelled }
        let request = try beginBiometricUnlock()
        let reason = unlockReason
        let answer = await awaitHost({ () async throws(BiometricCheckError) -> SecretBytes in
            try await authenticator.loadSecret(reason: reason)
        }, late: { $0.wipe() })
        switch answer {
        case .value(let secret):
            defer { secret.wipe() }
            return try request.finish(secret: secret)
        case .failure(let outcome):
            do {
                return try request.finish(result: outcome.result)
            } catch {
                if outcome == .invalidated { try? disableBiometrics() }
                throw error
            }
        case .cancelled:
            request.cancel()
            throw .cancelled
        case .closed:
            throw .closed
        }
    }

    /// Awaits the host's part `part`, or this task's cancellation, or
    /// ``close()``, whichever comes first. An abandoned part is asked to stop
    /// (its task is cancelled) and its late value goes to `late`.
    func awaitHost<T: Sendable>(_ part: @escaping @Sendable () async throws(BiometricCheckError) -> T,
                                late: @escaping @Sendable (T) -> Void) async -> HostAnswer<T> {
        let slot = HostSlot<T>()
        let helper = addHelper { slot.resolve(.closed) }
        defer { endHelper(helper) }
        if helper == nil { return .closed }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<HostAnswer<T>, Never>) in
                guard slot.wait(continuation) else { return }
                let host = Task {
                    let answer: HostAnswer<T>
                    do throws(BiometricCheckError) {
                        answer = .value(try await part())
                    } catch {
                        answer = .failure(error)
                    }
                    if !slot.resolve(answer), case .value(let value) = answer { late(value) }
                }
                slot.started(host)
            }
        } onCancel: {
            slot.resolve(.cancelled)
        }
    }
}

/// How the host's part of a check ended, for the task awaiting it.
enum HostAnswer<T: Sendable>: Sendable {
    case value(T)
    case failure(BiometricCheckError)
    case cancelled
    case closed
}

/// One answer, taken once: the first of the host's answer, the task's
/// cancellation and close resumes the waiting task; later ones are
/// refused (and a late value handed back to be wiped).
final class HostSlot<T: Sendable>: @unchecked Sendable {
    private enum State {
        case idle
        case waiting(CheckedContinuation<HostAnswer<T>, Never>)
        case early(HostAnswer<T>)
        case done
    }
    private let state = Locked<(State, Task<Void, Never>?)>((.idle, nil))

    /// Parks the continuation; false (and resumed at once) when an answer
    /// came before it could wait.
    func wait(_ continuation: CheckedContinuation<HostAnswer<T>, Never>) -> Bool {
        let early: HostAnswer<T>? = state.withLock { s in
            if case .early(let answer) = s.0 {
                s.0 = .done
                return answer
            }
            s.0 = .waiting(continuation)
            return nil
        }
        if let early {
            continuation.resume(returning: early)
            return false
        }
        return true
    }

    /// The host's task, cancelled when the waiter gives up on it.
    func started(_ host: Task<Void, Never>) {
        let stop = state.withLock { s -> Bool in
            s.1 = host
            if case .done = s.0 { return true }
            return false
        }
        if stop { host.cancel() }
    }

    /// Takes `answer` if none was taken; true when it was.
    @discardableResult
    func resolve(_ answer: HostAnswer<T>) -> Bool {
        let (continuation, host, taken) = state.withLock { s -> (CheckedContinuation<HostAnswer<T>, Never>?, Task<Void, Never>?, Bool) in
            switch s.0 {
            case .waiting(let c):
                s.0 = .done
                return (c, s.1, true)
            case .idle:
                s.0 = .early(answer)
                return (nil, nil, true)
            case .early, .done:
                return (nil, nil, false)
            }
        }
        continuation?.resume(returning: answer)
        if taken, let host {
            switch answer {
            case .cancelled, .closed: host.cancel()
            default: break
            }
        }
        return taken
    }
}
