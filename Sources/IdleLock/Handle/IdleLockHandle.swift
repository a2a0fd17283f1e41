// SPDX-License-Identifier: MIT
// The handle behind `idlelock *`: the decision rules plus the clock, the
// mutex, the session key, the passcode wrap, the sealed secrets and the
// listeners. Every public method may be called from any thread.
//
// Locking: `mutex` guards every stored property. The clock callback is the
// only host code called with it held. Key derivation (Argon2id, tens of ms
// or more) runs with it released; what the derivation started from is
// re-checked when its result is applied (the lock epoch and the passcode
// generation of LockRules), so concurrent attempts need no second lock and
// a listener may call any function, `unlock` included. Listeners run with
// no lock held (`deliver`).

import CSystem

/// What a call did: the error, if any. The state after it is written
/// into the caller's snapshot buffer (`into`) when one is given: straight
/// into the host's `out` (ABI/SnapshotConversion.swift), so the hot path
/// copies nothing, and a call with a NULL `out` skips the snapshot's
/// deadlines.
struct CallResult {
    var error: IdleLockError?
}

final class IdleLockHandle {
    let config: LockConfig
    let mutex = Mutex()

    var rules: LockRules
    /// The session key and its id subkey (`SessionKeyLayout`); wiped while
    /// the session is locked.
    let sessionKey: SecureBytes
    var keyLoaded = true
    let deviceKey: SecureBytes?
    var wrap: PasscodeWrap?
    /// The biometric wrap: the shortcut is on exactly when it is set. Every
    /// change (turned off or replaced, by this handle or seen in the store)
    /// voids the requests it leaves without a purpose
    /// (BiometricRequests.swift, `shortcutChanged`).
    var bioWrap: KeyWrap? = nil {
        didSet { shortcutChanged(from: oldValue) }
    }
    /// `is_available`, cached (create, enable, foreground): the hot path
    /// never calls the host.
    var bioAvailable = false
    var vault = SecretVault()

    /// The on-disk store, when `store_path` is set (HandleStore.swift).
    let store: SessionStore?
    /// This boot's id, stamped on saved activity.
    let bootID: [UInt8]
    /// What the store said of the last run, for `start`.
    var restart: RestartInfo? = nil
    /// `rules.lockEpoch` when a lock was last saved (or adopted).
    var savedEpoch: UInt64 = 0

    // The listeners' state (HandleListeners.swift) and the visible state
    // they hear (HandleSnapshot.swift): only the handle's own files use it.
    var seq: UInt64 = 0
    var published: VisibleState
    var registry = ListenerRegistry()
    var queue = SnapshotQueue()
    var draining = false
    var drainer = PlatformThread.current()
    var inFlightToken: UInt64 = 0
    /// The thread whose passcode attempt is being checked: attempts on one
    /// handle are checked one at a time, so that a delay a wrong one starts
    /// refuses the next (HandlePasscode.swift, `takeAttemptTurn`).
    var attemptHolder: PlatformThread? = nil
    /// Where `settle` builds a snapshot the caller did not ask for (for
    /// listeners, or the watcher), under the mutex.
    let scratch: UnsafeMutablePointer<Snapshot>
    /// The optional watcher thread (DeadlineWatcher.swift).
    var watcher: DeadlineWatcher? = nil
    /// The open requests of the two-phase biometric pair
    /// (BiometricRequests.swift), at most `biometricRequestsMax`.
    var biometricRequests: [BiometricRequest] = []
    /// Set by `destroy`, under the mutex: from then on the handle runs no
    /// host code (listener, authenticator, clock), and what is left of a
    /// call that was running when a listener destroyed it does not run.
    private(set) var destroyed = false

    private init(config: LockConfig, sessionKey: SecureBytes, deviceKey: SecureBytes?,
                 store: SessionStore?) {
        self.config = config
        self.sessionKey = sessionKey
        self.deviceKey = deviceKey
        self.store = store
        self.bootID = store == nil ? [] : BootID.current()
        scratch = .allocate(capacity: 1)
        scratch.initialize(to: Snapshot())
        let now = IdleLockHandle.readClock(config.clock)
        var firstToken: UInt64 = 0
        withUnsafeMutableBytes(of: &firstToken) { randombytes_buf($0.baseAddress!, $0.count) }
        rules = LockRules(timeouts: config.timeouts, lockOnStart: config.lockOnStart,
                          maxAttempts: config.maxAttempts, now: now, firstPromptToken: firstToken >> 2,
                          delaySchedule: config.delaySchedule, policy: config.policy)
        published = VisibleState(state: .unlocked, reason: .none, isEnabled: false,
                                 isBiometricsEnabled: false, isBiometricsAvailable: false,
                                 isAway: false, attemptsRemaining: config.maxAttempts, isWarning: false,
                                 isPasscodeRequired: false)
    }

    deinit {
        scratch.deallocate()
    }

    /// Makes a handle with a fresh random session key, or with the session
    /// found in the store at `storePath`. `config` and `storePath` are
    /// validated (ABI/ConfigConversion.swift); `deviceKey` (32 bytes,
    /// copied into secure memory) is only read during the call.
    static func create(_ config: LockConfig, storePath: StorePath?,
                       deviceKey bytes: UnsafePointer<UInt8>?) throws(IdleLockError) -> IdleLockHandle {
        guard sodium_init() >= 0 else {
            throw IdleLockError(.internal, "sodium_init failed")
        }
        let sessionKey = try SecureBytes.allocate(count: SessionKeyLayout.total)
        sessionKey.randomize()
        try SecretVault.deriveIdKey(in: sessionKey)
        var deviceKey: SecureBytes? = nil
        if let bytes {
            let key = try SecureBytes.allocate(count: ConfigLimits.deviceKeyBytes)
            key.copy(from: bytes, count: ConfigLimits.deviceKeyBytes)
            deviceKey = key
        }
        var store: SessionStore? = nil
        var image: StoreImage? = nil
        if let path = storePath {
            let opened = SessionStore(files: try StoreFiles.open(path), keys: try StoreKeys(deviceKey: deviceKey))
            image = try opened.load()
            store = opened
        }
        let handle = IdleLockHandle(config: config, sessionKey: sessionKey, deviceKey: deviceKey, store: store)
        // Not shared yet: no lock is held while the host answers.
        handle.bioAvailable = config.authenticator?.isAvailable() ?? false
        if let image {
            // In force from create; no listener exists yet to hear it.
            handle.adoptSession(image, atCreate: true)
            handle.sealIfLocked()
        }
        handle.published = handle.visibleState(now: handle.rules.lastActivity)
        return handle
    }

    // MARK: - Clock and transactions

    /// The caller's clock, or the system's, which counts suspend
    /// (Platform/SystemClock.swift). Inlined: the host's callback is called
    /// straight from the call; the system's reading is one shared copy, out
    /// of line (inlined, it would grow each hot call).
    @inline(always)
    static func readClock(_ clock: HostClock?) -> Int64 {
        if let clock { return clock.function(clock.context) }
        return systemClock()
    }

    @inline(never)
    static func systemClock() -> Int64 {
        SystemClock.milliseconds()
    }

    /// Runs `body` under the mutex with one clock reading, then seals the
    /// session if it is locked, publishes a change, writes the snapshot
    /// into `out` (when given), and delivers queued snapshots with the
    /// mutex released. Every transaction reads the clock afresh, also the
    /// second half of a call that ran a key derivation or a host check: the
    /// snapshot a call writes describes the state when it returns.
    /// `ownChangesOnly` delivers only the changes up to this call's own
    /// (the first half of an unlock, which holds the attempt turn: it must
    /// not stay on to deliver other threads' changes for as long as they
    /// keep coming; those are delivered by their own calls or its second
    /// half). Every call off the hot path shares one copy of the
    /// transaction's code (`transactOutlined`): the library stays under its
    /// size goal (BENCHMARKS.md).
    @inline(always)
    func transact(into out: UnsafeMutablePointer<Snapshot>? = nil, ownChangesOnly: Bool = false,
                  _ body: (Int64) throws(IdleLockError) -> Void) -> CallResult {
        transactOutlined(checking: {}, into: out, ownChangesOnly: ownChangesOnly, body)
    }

    /// As `transact`, after `precondition` (run under the lock, before the
    /// clock is read): a bad argument that can only be judged under the
    /// lock (a prompt token) fails with nothing changed.
    @inline(always)
    func transact(checking precondition: () throws(IdleLockError) -> Void,
                  into out: UnsafeMutablePointer<Snapshot>? = nil,
                  _ body: (Int64) throws(IdleLockError) -> Void) -> CallResult {
        transactOutlined(checking: precondition, into: out, ownChangesOnly: false, body)
    }

    /// The one shared copy of a transaction (not inlined, and not
    /// specialized for each call's closures).
    @inline(never) @_optimize(size)
    private func transactOutlined(checking precondition: () throws(IdleLockError) -> Void,
                                  into out: UnsafeMutablePointer<Snapshot>?, ownChangesOnly: Bool,
                                  _ body: (Int64) throws(IdleLockError) -> Void) -> CallResult {
        mutex.lock()
        if destroyed {
            // The rest of a call whose listener destroyed the handle (the
            // hot calls are one transaction: nothing of theirs comes after).
            mutex.unlock()
            return CallResult(error: IdleLockHandle.destroyedDuringCall)
        }
        do {
            try precondition()
        } catch {
            mutex.unlock()
            return CallResult(error: error)
        }
        return transactLocked(into: out, ownChangesOnly: ownChangesOnly, body)
    }

    /// The events of the hot path (BENCHMARKS.md): touch, check (and
    /// snapshot_get), background, foreground.
    typealias HotEvent = LockRules.Event

    /// A hot event, its failure (a lock that could not be saved to the
    /// store) as a `CallResult`: for the exports' other paths, the
    /// lifecycle names and the watcher.
    @inline(always)
    func event(_ event: HotEvent, into out: UnsafeMutablePointer<Snapshot>?) -> CallResult {
        let available = event == .foreground ? config.authenticator?.isAvailable() : nil
        var failure: IdleLockError? = nil
        withUnsafeMutablePointer(to: &failure) { hot(event, into: out, available: available, failure: $0) }
        return CallResult(error: failure)
    }

    /// Every hot event: one function, the transaction's end inlined into
    /// it. Only a handle with a store can fail (a lock it could not save):
    /// then the error goes into `failure`, which the caller must give (nil
    /// skips the store: the exports' own path to this takes only handles
    /// without one, and cannot fail). `available`: for `foreground`,
    /// `is_available` as the authenticator answered, asked by the caller
    /// before the lock.
    @inline(never)
    func hot(_ event: HotEvent, into out: UnsafeMutablePointer<Snapshot>?, available: Bool?,
             failure: UnsafeMutablePointer<IdleLockError?>?) {
        mutex.lock()
        let now = IdleLockHandle.readClock(config.clock)
        apply(event, now: now, available: available) // judges at `now` (`begin`)
        if let failure { saveLock(into: failure) }
        settleAndUnlock(now: now, into: out, ownChangesOnly: false, judgedNow: true, direct: true)
    }

    /// `saveLockIfNeeded` for `hot` (with a store): its failure into
    /// `failure`.
    @inline(never)
    private func saveLock(into failure: UnsafeMutablePointer<IdleLockError?>) {
        if store != nil, let error = saveLockIfNeeded() { failure.pointee = error }
    }

    /// A hot event's rule, at `now` (`available`: `is_available` as the
    /// authenticator answered before the lock, for `foreground`).
    @inline(always)
    private func apply(_ event: HotEvent, now: Int64, available: Bool?) {
        // One copy of `begin` in each case (no second dispatch after it).
        switch event {
        case .touch: rules.touch(now: now)
        case .check: rules.begin(now: now) // `check`, inlined
        case .background: rules.depart(now: now, toBackground: true)
        case .foreground:
            if let available { bioAvailable = available }
            rules.foreground(now: now)
        }
    }

    /// `require_unlocked` on a handle without a store (HandleSecrets.swift):
    /// judge, then the gate's verdict, with no closure and no error thrown
    /// on the way (an error is 66 bytes, copied at each throw and catch:
    /// BENCHMARKS.md "Profile").
    @inline(always)
    func gateWithoutStore() -> CallResult {
        mutex.lock()
        let now = IdleLockHandle.readClock(config.clock)
        rules.begin(now: now) // `check`, inlined
        guard rules.handsOut && keyLoaded else { return gateRefused(now: now) }
        leave(now: now, into: nil, ownChangesOnly: false)
        return CallResult(error: nil)
    }

    /// The gate closed: why (`requireOpen`), then the end of the
    /// transaction (no store: nothing to save).
    @inline(never)
    private func gateRefused(now: Int64) -> CallResult {
        var failure: IdleLockError? = nil
        do {
            try requireOpen()
        } catch {
            failure = error
        }
        leave(now: now, into: nil, ownChangesOnly: false)
        return CallResult(error: failure)
    }

    /// The rest of a transaction, entered with the mutex held.
    @inline(always)
    private func transactLocked(into out: UnsafeMutablePointer<Snapshot>?, ownChangesOnly: Bool,
                                _ body: (Int64) throws(IdleLockError) -> Void) -> CallResult {
        let now = IdleLockHandle.readClock(config.clock)
        var failure: IdleLockError? = nil
        do {
            try body(now)
        } catch {
            failure = bodyFailed(error)
        }
        let saveFailure = finish(now: now, into: out, ownChangesOnly: ownChangesOnly)
        return CallResult(error: failure ?? saveFailure)
    }

    /// A transaction's body failed with `error`: a store that is present
    /// but damaged locks the session (header, "The store"): never read as a
    /// sign-out, never left open.
    @inline(never)
    private func bodyFailed(_ error: IdleLockError) -> IdleLockError {
        if error.isStoreDamage { rules.storeDamaged() }
        return error
    }

    /// The end of every transaction, with the mutex held since its clock
    /// reading `now`: save a lock (with a store: its failure is returned,
    /// and counts when the call did not fail already), then `leave`. A
    /// handle without a store returns no failure here, known at compile
    /// time on the hot path (an optional error is 66 bytes: no copy of one
    /// is made when there is none).
    @inline(always)
    private func finish(now: Int64, into out: UnsafeMutablePointer<Snapshot>?,
                        ownChangesOnly: Bool) -> IdleLockError? {
        guard store == nil else { return saveAndLeave(now: now, into: out, ownChangesOnly: ownChangesOnly) }
        leave(now: now, into: out, ownChangesOnly: ownChangesOnly)
        return nil
    }

    /// `finish` with a store.
    @inline(never)
    private func saveAndLeave(now: Int64, into out: UnsafeMutablePointer<Snapshot>?,
                              ownChangesOnly: Bool) -> IdleLockError? {
        let failure = saveLockIfNeeded()
        leave(now: now, into: out, ownChangesOnly: ownChangesOnly)
        return failure
    }

    /// `settleAndUnlock`, for every transaction but the hot events (which
    /// inline it into `hot`): not inlined, one copy.
    @inline(never)
    private func leave(now: Int64, into out: UnsafeMutablePointer<Snapshot>?, ownChangesOnly: Bool) {
        settleAndUnlock(now: now, into: out, ownChangesOnly: ownChangesOnly, judgedNow: false, direct: false)
    }

    /// Settle (seal, publish, the snapshot into `out`), then release the
    /// mutex and deliver what is queued. `judgedNow`: the transaction judged
    /// at `now` (LockRules.report). `direct`: a snapshot only the caller
    /// reads may be written straight into `out` (`settle`).
    @inline(always)
    private func settleAndUnlock(now: Int64, into out: UnsafeMutablePointer<Snapshot>?, ownChangesOnly: Bool,
                                 judgedNow: Bool, direct: Bool) {
        // Straight into `out` (`settle` true): nothing was queued before,
        // and with no listener the call queued nothing.
        if settle(now: now, into: out, judgedNow: judgedNow, direct: direct) || queue.isEmpty {
            mutex.unlock()
            return
        }
        // Listeners run now, with the mutex released; one may reuse or
        // scribble on the caller's buffer, so the call's own snapshot is
        // written again after them: `out` holds this call's state. (With
        // listeners, settle built it in `scratch`, the library's memory.)
        deliverAfter(into: out, ownChangesOnly: ownChangesOnly)
    }

    /// The end of `settleAndUnlock` when snapshots are queued: not inlined.
    @inline(never)
    private func deliverAfter(into out: UnsafeMutablePointer<Snapshot>?, ownChangesOnly: Bool) {
        let own = out == nil ? nil : scratch.pointee
        let limit = ownChangesOnly ? seq : UInt64.max
        mutex.unlock()
        deliver(through: limit)
        if let out, let own { out.pointee = own }
    }

    // MARK: - Events

    func start(into out: UnsafeMutablePointer<Snapshot>? = nil) -> CallResult {
        transact(into: out) { now in rules.start(now: now, restart: restart) }
    }
    @inline(always)
    func touch(into out: UnsafeMutablePointer<Snapshot>? = nil) -> CallResult {
        event(.touch, into: out)
    }
    func inactive(into out: UnsafeMutablePointer<Snapshot>? = nil) -> CallResult {
        transact(into: out) { now in rules.becomeInactive(now: now) }
    }
    @inline(always)
    func background(into out: UnsafeMutablePointer<Snapshot>? = nil) -> CallResult {
        event(.background, into: out)
    }
    /// `foreground` also refreshes the cached `is_available` (asked before
    /// the internal lock is taken).
    @inline(always)
    func foreground(into out: UnsafeMutablePointer<Snapshot>? = nil) -> CallResult {
        event(.foreground, into: out)
    }
    @inline(always)
    func check(into out: UnsafeMutablePointer<Snapshot>? = nil) -> CallResult {
        event(.check, into: out)
    }

    /// A platform's lifecycle state, mapped by `LifecycleNames`; a name with
    /// no presence change only judges, as `check` does.
    func lifecycle(_ event: PresenceEvent, into out: UnsafeMutablePointer<Snapshot>? = nil) -> CallResult {
        switch event {
        case .foreground: return foreground(into: out)
        case .inactive: return inactive(into: out)
        case .background: return background(into: out)
        case .none: return check(into: out)
        }
    }
    func lockNow(into out: UnsafeMutablePointer<Snapshot>? = nil) -> CallResult {
        transact(into: out) { now in rules.lockNow(now: now) }
    }

    // MARK: - Destroy

    /// What a call returns when one of its own listeners destroyed the
    /// handle before the call was done (the part left did not run).
    static let destroyedDuringCall = IdleLockError.invalid("the handle was destroyed (idlelock_destroy, from a listener) during this call; what was left of the call did not run")

    /// `idlelock_destroy`, before the host's reference is released: once it
    /// returns, no callback of this handle runs on any thread (the header's
    /// "Listeners" and idlelock_destroy). The listeners are dropped and the
    /// queue emptied, so a delivery in progress stops after the listener it
    /// is running; a listener running on another thread (the watcher's) is
    /// waited for, then the watcher is stopped and joined. Called from a
    /// listener, it cannot wait for that listener: the delivery stops when
    /// it returns, and the delivering thread's own reference (`deliver`)
    /// keeps the memory until then.
    func destroy() {
        mutex.lock()
        destroyed = true
        registry.removeAll()
        queue.removeAll()
        while inFlightToken != 0 && !(draining && drainer.isCurrent) {
            mutex.wait()
        }
        mutex.unlock()
        watchStop()
    }

    /// The authenticator for a callback after a transaction, unless a
    /// listener of this call destroyed the handle meanwhile: then nil, and
    /// the callback is skipped (a `delete_secret` skipped so leaves an item
    /// whose secret opens no wrap any more).
    func liveAuthenticator() -> HostAuthenticator? {
        mutex.lock()
        defer { mutex.unlock() }
        return destroyed ? nil : config.authenticator
    }

    /// The `delete_secret` a call makes after its transaction (the shortcut
    /// went off), then the call's result; when a listener of the call
    /// destroyed the handle meanwhile, it is skipped and the call says so
    /// (`destroyedDuringCall`, the header's idlelock_destroy): the host's
    /// item is still there, and only the host can delete it now.
    func deletingSecret(after result: CallResult) -> CallResult {
        mutex.lock()
        let gone = destroyed
        let authenticator = config.authenticator
        mutex.unlock()
        guard let authenticator else { return result }
        if gone { return CallResult(error: IdleLockHandle.destroyedDuringCall) }
        authenticator.delete()
        return result
    }

    // MARK: - Prompts

    func promptBegin() -> (CallResult, UInt64) {
        var token: UInt64 = 0
        let result = transact { now in
            rules.check(now: now)
            token = rules.openPrompt(now: now)
        }
        if result.error != nil && token != 0 {
            // Opened, but the call failed (judging locked the session and the
            // lock could not be saved): the caller gets no token to end it.
            mutex.lock()
            rules.discardPrompt(token)
            mutex.unlock()
            token = 0
        }
        return (result, token)
    }

    func promptEnd(_ token: UInt64) -> CallResult {
        transact(checking: { () throws(IdleLockError) in
            guard rules.hasPrompt(token) else {
                throw .invalid("prompt token ", Int64(clamping: token), " is not open on this handle (never issued, or already ended)")
            }
        }) { now in
            rules.check(now: now)
            rules.closePrompt(token, now: now)
        }
    }

    @inline(always)
    func snapshot(into out: UnsafeMutablePointer<Snapshot>?) -> CallResult {
        event(.check, into: out)
    }
}
