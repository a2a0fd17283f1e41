// SPDX-License-Identifier: MIT
// The C handle: one idlelock* and the callbacks it was created with.
import CIdleLock
import Dispatch

/// One idle lock: the C interface's `idlelock` handle, usable from any
/// thread and from iOS 15 and macOS 12 on. ``IdleLock`` wraps one for
/// SwiftUI (iOS 17 and macOS 14: Observation); an app on iOS 15 or 16
/// uses this class and ``snapshots()``.
///
/// Every method is the C function of the same name (its block in
/// idlelock.h is the reference) and throws ``IdleLockError``. The events
/// return the state after the call. The calls that derive a key (Argon2id:
/// tens of milliseconds at the floor, up to about a second at the largest
/// limits) are `async` and run on a background thread; so does the
/// biometric check.
///
/// ``close()`` (or the last reference going away) destroys the handle:
/// calls still running finish first, later ones throw
/// ``IdleLockError/closed``, and the biometric checks in flight end at once
/// (their late answers are wiped).
public final class IdleLockHandle: @unchecked Sendable {
    private let raw: OpaquePointer
    private let box: Unmanaged<CallbackBox>
    private let gate = Locked(Gate())
    /// The biometric authenticator the lock was created with.
    public let authenticator: (any BiometricAuthenticator)?
    /// Whether a clock was given (the watcher thread needs the system's).
    public let hasCustomClock: Bool
    let unlockReason: String?

    private struct Gate {
        var calls = 0
        var closed = false
        var destroyed = false
        var nextHelper = 0
        var helpers: [Int: @Sendable () -> Void] = [:]
    }

    /// Creates a lock (`idlelock_create`). It starts unlocked and not
    /// engaged; call ``start()`` once the app can show its lock screen.
    /// With an `authenticator`, the biometric shortcut is available: the
    /// library asks it `isAvailable()`, has it keep the shortcut's secret
    /// (``enableBiometrics()``) and delete it when the shortcut goes off;
    /// ``unlockWithBiometrics()`` runs its check.
    public init(options: IdleLockOptions, authenticator: (any BiometricAuthenticator)? = nil) throws(IdleLockError) {
        for (name, text) in [("storePath", options.storePath), ("unlockReason", options.unlockReason)] {
            if let text, text.utf8.contains(0) {
                throw .invalidArgument("\(name): contains a NUL character; pass it without one")
            }
        }
        let callbacks = CallbackBox(clock: options.clock, authenticator: authenticator)
        let box = Unmanaged.passRetained(callbacks)
        let context = box.toOpaque()
        var auth = idlelock_authenticator()
        auth.size = UInt32(MemoryLayout<idlelock_authenticator>.size)
        auth.ctx = context
        auth.is_available = { ctx in CallbackBox.from(ctx).authenticator?.isAvailable() == true ? 1 : 0 }
        auth.store_secret = { ctx, secret, count in CallbackBox.from(ctx).store(secret, count) }
        // The Swift API runs the check through the two-phase pair
        // (unlockWithBiometrics), never through idlelock_unlock_with_biometrics.
        auth.load_secret = { _, _, _, _, outLength in
            outLength?.pointee = 0
            return IDLELOCK_AUTH_UNAVAILABLE
        }
        auth.delete_secret = { ctx in
            CallbackBox.from(ctx).authenticator?.deleteSecret()
            return 0
        }
        let clock: idlelock_clock_fn? = options.clock == nil ? nil : { ctx in CallbackBox.from(ctx).clock!() }
        var handle: OpaquePointer?
        var message = ""
        let rc = withUnsafePointer(to: &auth) { authPointer in
            options.withConfig(clock: clock, clockContext: options.clock == nil ? nil : context,
                               authenticator: authenticator == nil ? nil : authPointer) { config in
                let rc = idlelock_create(config, &handle)
                if rc != IDLELOCK_OK { message = String(cString: idlelock_last_error()) }
                return rc
            }
        }
        guard rc == IDLELOCK_OK, let handle else {
            box.release()
            throw IdleLockError(status: rc, message: message, snapshot: nil)
        }
        var token: UInt64 = 0
        let listener: idlelock_listener_fn = { ctx, snapshot in
            if let snapshot { CallbackBox.from(ctx).deliver(Snapshot(snapshot.pointee)) }
        }
        guard idlelock_subscribe(handle, listener, context, &token) == IDLELOCK_OK else {
            let error = IdleLockError(status: IDLELOCK_ERR_NO_MEMORY, message: String(cString: idlelock_last_error()),
                                      snapshot: nil)
            idlelock_destroy(handle)
            box.release()
            throw error
        }
        raw = handle
        self.box = box
        self.authenticator = authenticator
        hasCustomClock = options.clock != nil
        unlockReason = options.unlockReason
    }

    deinit {
        // No call can be running: nothing else holds the handle.
        let (helpers, destroyed) = gate.withLock { g -> ([@Sendable () -> Void], Bool) in
            let h = Array(g.helpers.values)
            g.helpers = [:]
            g.closed = true
            return (h, g.destroyed)
        }
        for end in helpers { end() }
        if !destroyed { destroy() }
    }

    /// Destroys the handle (`idlelock_destroy`), wiping its keys and
    /// secrets. Calls running on other threads finish first; every later
    /// call throws ``IdleLockError/closed``; biometric checks awaiting the
    /// person end at once with ``IdleLockError/closed`` (what they answer
    /// later is wiped); ``snapshots()`` streams finish. Closing twice does
    /// nothing. Thread: any, also from a listener.
    public func close() {
        let (destroyNow, helpers) = gate.withLock { g -> (Bool, [@Sendable () -> Void]) in
            if g.closed { return (false, []) }
            g.closed = true
            let h = Array(g.helpers.values)
            g.helpers = [:]
            if g.calls == 0 { g.destroyed = true }
            return (g.destroyed, h)
        }
        for end in helpers { end() }
        if destroyNow { destroy() }
    }

    /// Whether ``close()`` was called.
    public var isClosed: Bool { gate.withLock { $0.closed } }

    private func destroy() {
        idlelock_destroy(raw)
        box.takeUnretainedValue().finishStreams()
        box.release()
    }

    // MARK: calls

    /// Runs `body` on the live handle; the destroy waits for it.
    func withRaw<T>(_ body: (OpaquePointer) -> T) throws(IdleLockError) -> T {
        try gate.withLock { g throws(IdleLockError) in
            if g.closed { throw .closed }
            g.calls += 1
        }
        defer {
            let destroyNow = gate.withLock { g -> Bool in
                g.calls -= 1
                if g.closed && g.calls == 0 && !g.destroyed {
                    g.destroyed = true
                    return true
                }
                return false
            }
            if destroyNow { destroy() }
        }
        return body(raw)
    }

    /// A C call that returns a status; its message is read on this thread.
    func status(_ body: (OpaquePointer) -> Int32) throws(IdleLockError) -> (Int32, String) {
        try withRaw { h in
            let rc = body(h)
            return (rc, rc == IDLELOCK_OK ? "" : String(cString: idlelock_last_error()))
        }
    }

    /// A C call that fills a snapshot: the snapshot, or the error.
    func snapshotCall(_ body: (OpaquePointer, UnsafeMutablePointer<idlelock_snapshot>) -> Int32)
        throws(IdleLockError) -> Snapshot {
        var s = Snapshot.raw()
        let (rc, message) = try status { body($0, &s) }
        let snapshot = Snapshot(s)
        if rc != IDLELOCK_OK {
            throw IdleLockError(status: rc, message: message, snapshot: rc == IDLELOCK_ERR_INVALID_ARGUMENT ? nil : snapshot)
        }
        return snapshot
    }

    /// A C call that returns only a status.
    func plainCall(_ body: (OpaquePointer) -> Int32) throws(IdleLockError) {
        let (rc, message) = try status(body)
        if rc != IDLELOCK_OK { throw IdleLockError(status: rc, message: message, snapshot: nil) }
    }

    /// Runs blocking work (a key derivation) on a background thread.
    func offloaded<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async { continuation.resume(returning: work()) }
        }
    }

    /// Registers `end`, called at once by ``close()``; returns its key for
    /// ``endHelper(_:)``, or nil when the handle is closed already.
    func addHelper(_ end: @escaping @Sendable () -> Void) -> Int? {
        gate.withLock { g in
            if g.closed { return nil }
            g.nextHelper += 1
            g.helpers[g.nextHelper] = end
            return g.nextHelper
        }
    }

    func endHelper(_ key: Int?) {
        guard let key else { return }
        _ = gate.withLock { $0.helpers.removeValue(forKey: key) }
    }

    // MARK: events (idlelock.h, "Events and the decision rules")

    /// `idlelock_start`: applies lock_on_start once (and, with a store,
    /// judges the restart). Call it before anything else.
    @discardableResult public func start() throws(IdleLockError) -> Snapshot {
        try snapshotCall { idlelock_start($0, $1) }
    }

    /// `idlelock_touch`: user activity. Call it on every input event.
    @discardableResult public func touch() throws(IdleLockError) -> Snapshot {
        try snapshotCall { idlelock_touch($0, $1) }
    }

    /// `idlelock_inactive`: visible but not interactive (resign-active).
    @discardableResult public func inactive() throws(IdleLockError) -> Snapshot {
        try snapshotCall { idlelock_inactive($0, $1) }
    }

    /// `idlelock_background`: no longer visible.
    @discardableResult public func background() throws(IdleLockError) -> Snapshot {
        try snapshotCall { idlelock_background($0, $1) }
    }

    /// `idlelock_foreground`: back in the foreground.
    @discardableResult public func foreground() throws(IdleLockError) -> Snapshot {
        try snapshotCall { idlelock_foreground($0, $1) }
    }

    /// `idlelock_check`: judges the deadlines now (from a timer at
    /// `msUntilNextDeadline`).
    @discardableResult public func check() throws(IdleLockError) -> Snapshot {
        try snapshotCall { idlelock_check($0, $1) }
    }

    /// `idlelock_lock`: "Lock now" (an engaged, unlocked session locks,
    /// reason manual).
    @discardableResult public func lock() throws(IdleLockError) -> Snapshot {
        try snapshotCall { idlelock_lock($0, $1) }
    }

    /// `idlelock_snapshot_get`: the state now, after judging the deadlines.
    public func snapshot() throws(IdleLockError) -> Snapshot {
        try snapshotCall { idlelock_snapshot_get($0, $1) }
    }

    /// `idlelock_lifecycle` with `IDLELOCK_PLATFORM_IOS_SCENE_PHASE`: the
    /// scene's phase as SwiftUI names it (docs/LIFECYCLE.md).
    @discardableResult public func lifecycle(_ phase: AppPhase) throws(IdleLockError) -> Snapshot {
        try snapshotCall { h, s in
            phase.rawValue.withCString { idlelock_lifecycle(h, Int32(IDLELOCK_PLATFORM_IOS_SCENE_PHASE), $0, s) }
        }
    }

    // MARK: passcode

    /// `idlelock_set_passcode`: sets or replaces the passcode (at least 4
    /// Unicode scalars, at most 1024 UTF-8 bytes), engaging the lock. Runs
    /// Argon2id on a background thread. A task cancelled before the call
    /// starts throws ``IdleLockError/cancelled`` and changes nothing; once
    /// it runs, it finishes.
    public func setPasscode(_ passcode: SecretBytes) async throws(IdleLockError) {
        if Task.isCancelled { throw .cancelled }
        let result: Result<Void, IdleLockError> = await offloaded {
            Result { () throws(IdleLockError) in
                try passcode.withUnsafeBytes { bytes throws(IdleLockError) in
                    try self.plainCall { h in
                        idlelock_set_passcode(h, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), bytes.count)
                    }
                }
            }
        }
        try result.get()
    }

    /// ``setPasscode(_:)-(SecretBytes)`` with a string: the binding copies
    /// it into ``SecretBytes`` (wiped); the string is the caller's.
    public func setPasscode(_ passcode: String) async throws(IdleLockError) {
        try await setPasscode(SecretBytes(utf8: passcode))
    }

    /// `idlelock_unlock`: unlocks with the passcode (on an unlocked session,
    /// re-authenticates). Runs Argon2id on a background thread. Errors:
    /// ``IdleLockError/invalidPasscode(attemptsRemaining:)``,
    /// ``IdleLockError/lockedOut``, ``IdleLockError/retryLater(milliseconds:)``
    /// (not counted), ``IdleLockError/sessionLocked`` (a lock overtook it),
    /// ``IdleLockError/noPasscode``, ``IdleLockError/storage(_:)``.
    ///
    /// Cancellation: a task cancelled before the check starts throws
    /// ``IdleLockError/cancelled`` and counts nothing. Once the check runs
    /// it cannot be taken back (the attempt is counted before the passcode
    /// is checked, so that no failure probes for free): it finishes, and its
    /// outcome is what this returns or throws.
    @discardableResult
    public func unlock(passcode: SecretBytes) async throws(IdleLockError) -> Snapshot {
        if Task.isCancelled { throw .cancelled }
        let result: Result<Snapshot, IdleLockError> = await offloaded {
            Result { () throws(IdleLockError) in
                try passcode.withUnsafeBytes { bytes throws(IdleLockError) in
                    try self.snapshotCall { h, s in
                        idlelock_unlock(h, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), bytes.count, s)
                    }
                }
            }
        }
        return try result.get()
    }

    /// ``unlock(passcode:)-(SecretBytes)`` with a string (copied into
    /// ``SecretBytes``, wiped; the string is the caller's).
    @discardableResult
    public func unlock(passcode: String) async throws(IdleLockError) -> Snapshot {
        try await unlock(passcode: SecretBytes(utf8: passcode))
    }

    /// `idlelock_disable`: sign out. Forgets the passcode, the shortcut,
    /// every secret, the count and the lockout; the session is unlocked and
    /// not engaged. The app drops its own session data too.
    public func disable() throws(IdleLockError) {
        try plainCall { idlelock_disable($0) }
    }

    /// `idlelock_require_unlocked`: the gate before the app's own protected
    /// work (throws ``IdleLockError/sessionLocked`` while locked).
    public func requireUnlocked() throws(IdleLockError) {
        try plainCall { idlelock_require_unlocked($0) }
    }

    /// `idlelock_require_recent_auth`: the step-up check before a sensitive
    /// action (``IdleLockError/reauthRequired`` when the last
    /// authentication is older than `maxAgeMs`).
    public func requireRecentAuth(maxAgeMs: Int64) throws(IdleLockError) {
        try plainCall { idlelock_require_recent_auth($0, maxAgeMs) }
    }

    // MARK: sealed secrets

    /// `idlelock_secret_put`: keeps `value` under `name` (1...64 UTF-8
    /// bytes), encrypted under the session key.
    public func putSecret(_ value: SecretBytes, named name: String) throws(IdleLockError) {
        try Self.checkName(name)
        try value.withUnsafeBytes { bytes throws(IdleLockError) in
            try plainCall { h in
                name.withCString {
                    idlelock_secret_put(h, $0, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count)
                }
            }
        }
    }

    /// `idlelock_secret_get`: the secret `name`, in a buffer the binding
    /// wipes when it is freed.
    public func secret(named name: String) throws(IdleLockError) -> SecretBytes {
        try Self.checkName(name)
        var capacity = 0
        while true {
            let buffer = SecretBytes(count: capacity)
            var length = capacity
            let (rc, message) = try buffer.withUnsafeMutableBytes { bytes throws(IdleLockError) in
                try status { h in
                    name.withCString {
                        idlelock_secret_get(h, $0, capacity == 0 ? nil : bytes.baseAddress?.assumingMemoryBound(to: UInt8.self),
                                            &length)
                    }
                }
            }
            if rc == IDLELOCK_ERR_BUFFER_TOO_SMALL && length > capacity {
                capacity = length  // replaced by a longer one meanwhile: ask again
                continue
            }
            if rc != IDLELOCK_OK { throw IdleLockError(status: rc, message: message, snapshot: nil) }
            if length == capacity { return buffer }
            let exact = SecretBytes(count: length)
            exact.withUnsafeMutableBytes { to in
                buffer.withUnsafeBytes { from in to.copyMemory(from: UnsafeRawBufferPointer(rebasing: from[0..<length])) }
            }
            return exact
        }
    }

    /// `idlelock_secret_remove`.
    public func removeSecret(named name: String) throws(IdleLockError) {
        try Self.checkName(name)
        try plainCall { h in name.withCString { idlelock_secret_remove(h, $0) } }
    }

    private static func checkName(_ name: String) throws(IdleLockError) {
        if name.utf8.contains(0) { throw .invalidArgument("name: contains a NUL character") }
    }

    // MARK: prompts the app opens itself

    /// `idlelock_prompt_begin`: call it just before showing a sheet, a
    /// picker or the camera; the round trip through it is presence (within
    /// prompt_cap_ms). End it with ``endPrompt(_:)``.
    public func beginPrompt() throws(IdleLockError) -> UInt64 {
        var token: UInt64 = 0
        try plainCall { idlelock_prompt_begin($0, &token) }
        return token
    }

    /// `idlelock_prompt_end`: the prompt is gone (once per token).
    public func endPrompt(_ token: UInt64) throws(IdleLockError) {
        try plainCall { idlelock_prompt_end($0, token) }
    }

    // MARK: the watcher thread

    /// `idlelock_watch_start`: a thread that calls check at each deadline,
    /// so the session locks on time with no call of the app (listeners then
    /// run on it). Needs the system's clock (no ``IdleLockOptions/clock``).
    public func startWatcher() throws(IdleLockError) {
        try plainCall { idlelock_watch_start($0) }
    }

    /// `idlelock_watch_stop`.
    public func stopWatcher() throws(IdleLockError) {
        try plainCall { idlelock_watch_stop($0) }
    }

    // MARK: listening

    /// Calls `listener` with every change of state, reason, a flag or the
    /// attempts left, in order, one call at a time, on the thread of the
    /// call that made the change (or the watcher's). It must return
    /// quickly; it may call this handle. Returns a key for
    /// ``removeListener(_:)``.
    @discardableResult
    public func addListener(_ listener: @escaping @Sendable (Snapshot) -> Void) -> Int {
        box.takeUnretainedValue().add(listener)
    }

    /// Stops `key`'s listener; it is not called again once this returns
    /// (unless called from inside it, whose call finishes).
    public func removeListener(_ key: Int) {
        box.takeUnretainedValue().remove(key)
    }

    /// The state now, then every change, in order (`seq` increasing); the
    /// stream finishes when the lock is closed. A consumer slower than the
    /// changes sees the latest ones (at most 64 are kept).
    public func snapshots() -> AsyncStream<Snapshot> {
        let box = box.takeUnretainedValue()
        return AsyncStream(bufferingPolicy: .bufferingNewest(64)) { continuation in
            let last = Locked<UInt64?>(nil)
            let yield: @Sendable (Snapshot) -> Void = { snapshot in
                let fresh = last.withLock { seen -> Bool in
                    if let seen, snapshot.seq <= seen { return false }
                    seen = snapshot.seq
                    return true
                }
                if fresh { continuation.yield(snapshot) }
            }
            let key = box.add(yield, finish: { continuation.finish() })
            continuation.onTermination = { _ in box.remove(key) }
            if let now = try? self.snapshot() { yield(now) } else { continuation.finish() }
        }
    }

    // MARK: versions

    /// The library's version, "MAJOR.MINOR.PATCH" (`idlelock_version`).
    public static var libraryVersion: String { String(cString: idlelock_version()) }
}

/// What the C callbacks reach through their context pointer: the clock,
/// the authenticator and the Swift listeners. Retained by the handle until
/// idlelock_destroy has returned (no callback runs after it).
final class CallbackBox: @unchecked Sendable {
    let clock: (@Sendable () -> Int64)?
    let authenticator: (any BiometricAuthenticator)?
    private struct Listener {
        let call: @Sendable (Snapshot) -> Void
        let finish: (@Sendable () -> Void)?
    }
    private let listeners = Locked((next: 0, all: [Int: Listener]()))

    init(clock: (@Sendable () -> Int64)?, authenticator: (any BiometricAuthenticator)?) {
        self.clock = clock
        self.authenticator = authenticator
    }

    static func from(_ context: UnsafeMutableRawPointer?) -> CallbackBox {
        Unmanaged<CallbackBox>.fromOpaque(context!).takeUnretainedValue()
    }

    func add(_ call: @escaping @Sendable (Snapshot) -> Void, finish: (@Sendable () -> Void)? = nil) -> Int {
        listeners.withLock { l in
            l.next += 1
            l.all[l.next] = Listener(call: call, finish: finish)
            return l.next
        }
    }

    func remove(_ key: Int) {
        _ = listeners.withLock { $0.all.removeValue(forKey: key) }
    }

    func deliver(_ snapshot: Snapshot) {
        let calls = listeners.withLock { l in l.all.sorted { $0.key < $1.key }.map(\.value.call) }
        for call in calls { call(snapshot) }
    }

    func finishStreams() {
        let finishes = listeners.withLock { l -> [@Sendable () -> Void] in
            let f = l.all.values.compactMap(\.finish)
            l.all = [:]
            return f
        }
        for finish in finishes { finish() }
    }

    /// store_secret: the secret in a wiped buffer, kept by the host.
    func store(_ secret: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
        guard let authenticator, let secret, count == Int(IDLELOCK_AUTH_SECRET_BYTES) else { return -1 }
        let copy = SecretBytes(copying: UnsafeRawBufferPointer(start: secret, count: count))
        defer { copy.wipe() }
        do {
            try authenticator.storeSecret(copy)
            return 0
        } catch {
            return -1
        }
    }
}
