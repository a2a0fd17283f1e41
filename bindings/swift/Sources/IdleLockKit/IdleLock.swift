// SPDX-License-Identifier: MIT
// The lock as SwiftUI observes it.
//
// Weak-linked: Observation ships with iOS 17 and macOS 14, and an import
// autolinks its library. Linked strongly, an app that runs from iOS 15
// would not launch on iOS 15 or 16 (dyld: library not loaded), even though
// IdleLock itself is only used on 17 and later. Only a device can show it.
@_weakLinked import Observation

/// The app's idle lock for SwiftUI: an `@Observable` model on the main
/// actor over an ``IdleLockHandle``. Its properties follow the library's
/// listeners: a change made anywhere (this model, another thread, the
/// watcher thread at a deadline, another process sharing the store) reaches
/// them on the main actor, and the model's own calls update them before
/// they return. iOS 17 and macOS 14 (Observation); on iOS 15 and 16 use
/// ``IdleLockHandle`` and its ``IdleLockHandle/snapshots()``.
///
/// ```swift
/// let lock = try IdleLock(options: options, authenticator: KeychainBiometricAuthenticator(service: "com.example.app.idlelock"))
/// try lock.start()                       // the watcher locks on time
/// try await lock.setPasscode(typed)      // after sign-in
/// try await lock.unlock(passcode: typed) // on the lock screen
/// try lock.disable()                     // sign-out
/// ```
@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
@MainActor
@Observable
public final class IdleLock {
    /// The deadlines of the latest snapshot, in milliseconds from it;
    /// `nil`: never.
    public struct Deadlines: Sendable, Hashable {
        public var msUntilIdleLock: Int64?
        public var msUntilWarning: Int64?
        public var msUntilRetry: Int64
        public var msUntilNextDeadline: Int64?
    }

    /// The handle underneath, for what the model does not wrap (secrets,
    /// prompts, step-up checks, the two-phase pair).
    @ObservationIgnored public nonisolated let handle: IdleLockHandle
    @ObservationIgnored private var listener: Int?
    @ObservationIgnored private var seq: UInt64 = 0

    public private(set) var state: Snapshot.State = .unlocked
    /// Locked or locked out: show the lock screen.
    public private(set) var isLocked = false
    public private(set) var reason: Snapshot.Reason = .none
    /// A passcode is set (the lock is engaged).
    public private(set) var isEnabled = false
    public private(set) var isBiometricsEnabled = false
    public private(set) var isBiometricsAvailable = false
    /// Away: show a privacy cover.
    public private(set) var isAway = false
    /// The "still there?" warning is open.
    public private(set) var isWarning = false
    /// A passcode policy refuses the biometric shortcut.
    public private(set) var isPasscodeRequired = false
    public private(set) var attemptsRemaining = 0
    public private(set) var deadlines = Deadlines(msUntilIdleLock: nil, msUntilWarning: nil, msUntilRetry: 0,
                                                  msUntilNextDeadline: nil)
    /// The latest snapshot the model took.
    public private(set) var snapshot: Snapshot?

    /// A new lock (``IdleLockHandle/init(options:authenticator:)``).
    public convenience init(options: IdleLockOptions, authenticator: (any BiometricAuthenticator)? = nil)
        throws(IdleLockError) {
        try self.init(handle: IdleLockHandle(options: options, authenticator: authenticator))
    }

    /// A model over `handle`, which keeps working on its own.
    public init(handle: IdleLockHandle) throws(IdleLockError) {
        self.handle = handle
        listener = handle.addListener { [weak self] snapshot in
            Task { @MainActor in self?.follow(snapshot) }
        }
        take(try handle.snapshot())
    }

    /// Closes the handle (``IdleLockHandle/close()``).
    public func close() {
        if let listener { handle.removeListener(listener) }
        listener = nil
        handle.close()
    }

    // MARK: following the library

    /// A listener's snapshot: taken unless the model has seen its change.
    private func follow(_ s: Snapshot) {
        if s.seq > seq { take(s) }
    }

    /// A call's snapshot: the state now (unless a later change came in).
    private func take(_ s: Snapshot) {
        if s.seq < seq { return }
        seq = s.seq
        snapshot = s
        if state != s.state { state = s.state }
        if isLocked != s.isLocked { isLocked = s.isLocked }
        if reason != s.reason { reason = s.reason }
        if isEnabled != s.isEnabled { isEnabled = s.isEnabled }
        if isBiometricsEnabled != s.isBiometricsEnabled { isBiometricsEnabled = s.isBiometricsEnabled }
        if isBiometricsAvailable != s.isBiometricsAvailable { isBiometricsAvailable = s.isBiometricsAvailable }
        if isAway != s.isAway { isAway = s.isAway }
        if isWarning != s.isWarning { isWarning = s.isWarning }
        if isPasscodeRequired != s.isPasscodeRequired { isPasscodeRequired = s.isPasscodeRequired }
        if attemptsRemaining != s.attemptsRemaining { attemptsRemaining = s.attemptsRemaining }
        let d = Deadlines(msUntilIdleLock: s.msUntilIdleLock, msUntilWarning: s.msUntilWarning, msUntilRetry: s.msUntilRetry,
                          msUntilNextDeadline: s.msUntilNextDeadline)
        if deadlines != d { deadlines = d }
    }

    /// Runs a call and takes its snapshot; after a failure, the state now.
    private func updating<T>(_ body: () throws(IdleLockError) -> T) throws(IdleLockError) -> T {
        do {
            return try body()
        } catch {
            refresh()
            throw error
        }
    }

    private func refresh() {
        if let s = try? handle.snapshot() { take(s) }
    }

    // MARK: calls

    /// ``IdleLockHandle/start()``; with the system's clock, also starts the
    /// watcher thread, so the model follows every deadline with no call.
    public func start() throws(IdleLockError) {
        try updating { () throws(IdleLockError) in
            take(try handle.start())
            if !handle.hasCustomClock { try handle.startWatcher() }
        }
    }

    /// ``IdleLockHandle/touch()``: user activity.
    public func touch() throws(IdleLockError) {
        try updating { () throws(IdleLockError) in take(try handle.touch()) }
    }

    /// ``IdleLockHandle/check()``.
    public func check() throws(IdleLockError) {
        try updating { () throws(IdleLockError) in take(try handle.check()) }
    }

    /// "Lock now" (``IdleLockHandle/lock()``).
    public func lock() throws(IdleLockError) {
        try updating { () throws(IdleLockError) in take(try handle.lock()) }
    }

    /// The scene's phase changed (``IdleLockHandle/lifecycle(_:)``).
    public func phaseChanged(_ phase: AppPhase) throws(IdleLockError) {
        try updating { () throws(IdleLockError) in take(try handle.lifecycle(phase)) }
    }

    /// ``IdleLockHandle/setPasscode(_:)-(SecretBytes)``.
    public func setPasscode(_ passcode: SecretBytes) async throws(IdleLockError) {
        do {
            try await handle.setPasscode(passcode)
        } catch {
            refresh()
            throw error
        }
        refresh()
    }

    /// ``IdleLockHandle/setPasscode(_:)-(String)``.
    public func setPasscode(_ passcode: String) async throws(IdleLockError) {
        try await setPasscode(SecretBytes(utf8: passcode))
    }

    /// ``IdleLockHandle/unlock(passcode:)-(SecretBytes)``.
    public func unlock(passcode: SecretBytes) async throws(IdleLockError) {
        do {
            take(try await handle.unlock(passcode: passcode))
        } catch {
            refresh()
            throw error
        }
    }

    /// ``IdleLockHandle/unlock(passcode:)-(String)``.
    public func unlock(passcode: String) async throws(IdleLockError) {
        try await unlock(passcode: SecretBytes(utf8: passcode))
    }

    /// ``IdleLockHandle/unlockWithBiometrics()``: ends at once when the task
    /// is cancelled (nothing unlocked).
    public func unlockWithBiometrics() async throws(IdleLockError) {
        do {
            take(try await handle.unlockWithBiometrics())
        } catch {
            refresh()
            throw error
        }
    }

    /// ``IdleLockHandle/enableBiometrics()``.
    public func enableBiometrics() async throws(IdleLockError) {
        do {
            try await handle.enableBiometrics()
        } catch {
            refresh()
            throw error
        }
        refresh()
    }

    /// ``IdleLockHandle/disableBiometrics()``.
    public func disableBiometrics() throws(IdleLockError) {
        try updating { () throws(IdleLockError) in try handle.disableBiometrics() }
        refresh()
    }

    /// Sign-out (``IdleLockHandle/disable()``).
    public func disable() throws(IdleLockError) {
        try updating { () throws(IdleLockError) in try handle.disable() }
        refresh()
    }

    /// A shield for one of the app's own presentations
    /// (``PromptShield``).
    public func promptShield() -> PromptShield {
        PromptShield(handle: handle)
    }
}
