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

import CIdleLock
import CSystem

/// What a call did: the error, if any, and the state after it.
struct CallResult {
    var error: IdleLockError?
    var snapshot: Snapshot
}

final class IdleLockHandle {
    private let config: LockConfig
    private let mutex = Mutex()

    private var rules: LockRules
    /// The session key and its id subkey (`SessionKeyLayout`); wiped while
    /// the session is locked.
    private let sessionKey: SecureBytes
    private var keyLoaded = true
    private let deviceKey: SecureBytes?
    private var wrap: PasscodeWrap?
    private var biometricsEnabled = false
    private var vault = SecretVault()

    private var seq: UInt64 = 0
    private var published: VisibleState
    private var registry = ListenerRegistry()
    private var queue = SnapshotQueue()
    private var draining = false
    private var drainer = pthread_self()
    private var inFlightToken: UInt64 = 0

    private init(config: LockConfig, sessionKey: SecureBytes, deviceKey: SecureBytes?) {
        self.config = config
        self.sessionKey = sessionKey
        self.deviceKey = deviceKey
        let now = IdleLockHandle.readClock(config.clock)
        rules = LockRules(timeouts: config.timeouts, lockOnStart: config.lockOnStart,
                          maxAttempts: config.maxAttempts, now: now)
        published = VisibleState(state: .unlocked, reason: .none, isEnabled: false,
                                 isBiometricsEnabled: false, isBiometricsAvailable: false,
                                 isAway: false, attemptsRemaining: config.maxAttempts)
    }

    /// Validates `c` and makes a handle with a fresh random session key.
    static func create(_ c: idlelock_config) throws(IdleLockError) -> IdleLockHandle {
        let config = try LockConfig(validating: c)
        guard sodium_init() >= 0 else {
            throw IdleLockError(.internal, "sodium_init failed")
        }
        let sessionKey = try SecureBytes.allocate(count: SessionKeyLayout.total)
        sessionKey.randomize()
        try SecretVault.deriveIdKey(in: sessionKey)
        var deviceKey: SecureBytes? = nil
        if let bytes = c.device_key {
            let key = try SecureBytes.allocate(count: ConfigLimits.deviceKeyBytes)
            key.copy(from: bytes, count: ConfigLimits.deviceKeyBytes)
            deviceKey = key
        }
        return IdleLockHandle(config: config, sessionKey: sessionKey, deviceKey: deviceKey)
    }

    // MARK: - Clock and transactions

    /// The caller's clock, or `CLOCK_BOOTTIME` (which counts suspend).
    private static func readClock(_ clock: HostClock?) -> Int64 {
        if let clock { return clock.function(clock.context) }
        var ts = timespec()
        clock_gettime(CLOCK_BOOTTIME, &ts)
        return Int64(ts.tv_sec) &* 1000 &+ Int64(ts.tv_nsec / 1_000_000)
    }

    /// Runs `body` under the mutex with one clock reading (or `at`, for the
    /// second half of a call that already read it), then seals the session
    /// if it is locked, publishes a change, and delivers queued snapshots
    /// with the mutex released.
    private func transact(at fixedNow: Int64? = nil,
                          _ body: (Int64) throws(IdleLockError) -> Void) -> CallResult {
        mutex.lock()
        let now = fixedNow ?? IdleLockHandle.readClock(config.clock)
        var failure: IdleLockError? = nil
        do {
            try body(now)
        } catch {
            failure = error
        }
        let snapshot = settle(now: now)
        let mustDeliver = !queue.isEmpty
        mutex.unlock()
        if mustDeliver { deliver() }
        return CallResult(error: failure, snapshot: snapshot)
    }

    /// With the mutex held: wipe the session key of a locked session, and
    /// give a change of the visible state a new `seq` (queued for listeners).
    private func settle(now: Int64) -> Snapshot {
        if rules.state != .unlocked && keyLoaded {
            sessionKey.wipe()
            keyLoaded = false
        }
        var snapshot = makeSnapshot(now: now)
        let visible = snapshot.visible
        if visible != published {
            published = visible
            seq &+= 1
            snapshot.seq = seq
            if !registry.isEmpty { queue.push(snapshot) }
        }
        return snapshot
    }

    private func makeSnapshot(now: Int64) -> Snapshot {
        Snapshot(seq: seq, state: rules.state, reason: rules.reason, isEnabled: rules.engaged,
                 isBiometricsEnabled: biometricsEnabled, isBiometricsAvailable: false,
                 isAway: rules.isAway, attemptsRemaining: rules.attemptsRemaining,
                 lastActivityMs: rules.lastActivity, msUntilIdleLock: rules.msUntilIdleLock(now: now))
    }

    // MARK: - Events

    func start() -> CallResult { transact { now in rules.start(now: now) } }
    func touch() -> CallResult { transact { now in rules.touch(now: now) } }
    func inactive() -> CallResult { transact { now in rules.depart(now: now, toBackground: false) } }
    func background() -> CallResult { transact { now in rules.depart(now: now, toBackground: true) } }
    func foreground() -> CallResult { transact { now in rules.foreground(now: now) } }
    func check() -> CallResult { transact { now in rules.check(now: now) } }
    func lockNow() -> CallResult { transact { now in rules.lockNow(now: now) } }

    // MARK: - Passcode

    /// SPEC §4 `set_passcode`; `passcode` is already validated.
    func setPasscode(_ passcode: UnsafeRawBufferPointer) -> CallResult {
        var entryNow: Int64 = 0
        var ticket: AttemptTicket? = nil
        var keyCopy: SecureBytes? = nil
        let first = transact { now throws(IdleLockError) in
            entryNow = now
            rules.check(now: now)
            guard rules.state == .unlocked else {
                throw IdleLockError(.sessionLocked, "the session is locked; a locked session cannot replace its own passcode: unlock it first")
            }
            try requireKey()
            let copy = try SecureBytes.allocate(count: SodiumSizes.key)
            copy.copy(from: sessionKey.base, count: SodiumSizes.key)
            keyCopy = copy
            ticket = AttemptTicket(epoch: rules.lockEpoch, generation: rules.passcodeGeneration)
        }
        guard first.error == nil, let ticket, let keyCopy else { return first }

        var sealed: PasscodeWrap? = nil
        var sealFailure: IdleLockError? = nil
        do {
            sealed = try PasscodeWrap.seal(sessionKey: keyCopy, passcode: passcode,
                                           opslimit: config.kdfOpslimit, memlimit: config.kdfMemlimit,
                                           deviceKey: deviceKey)
        } catch {
            sealFailure = error
        }
        keyCopy.wipe()

        return transact(at: entryNow) { now throws(IdleLockError) in
            if let sealFailure { throw sealFailure }
            guard let sealed else { throw IdleLockError(.internal, "the passcode wrap is missing") }
            guard rules.state == .unlocked, ticket.epoch == rules.lockEpoch,
                  ticket.generation == rules.passcodeGeneration else {
                throw IdleLockError(.sessionLocked, "the session was locked, signed out, or given another passcode while this passcode was being set; nothing changed")
            }
            wrap = sealed
            biometricsEnabled = false
            rules.passcodeSet(now: now)
        }
    }

    /// SPEC §4 `unlock`; `passcode` is already validated.
    func unlock(_ passcode: UnsafeRawBufferPointer) -> CallResult {
        var entryNow: Int64 = 0
        var ticket: AttemptTicket? = nil
        var counted: PasscodeWrap? = nil
        let first = transact { now throws(IdleLockError) in
            entryNow = now
            rules.check(now: now)
            guard rules.engaged, let current = wrap else { throw IdleLockHandle.noPasscode }
            switch rules.beginAttempt() {
            case .lockedOut:
                throw IdleLockHandle.lockedOut
            case .check(let t):
                ticket = t
                counted = current
            }
        }
        guard first.error == nil, let ticket, let counted else { return first }

        // The attempt is counted; now check it, with the mutex released.
        var right = false
        var candidate: SecureBytes? = nil
        var checkFailure: IdleLockError? = nil
        do {
            let key = try SecureBytes.allocate(count: SessionKeyLayout.total)
            right = try counted.open(passcode: passcode, deviceKey: deviceKey, into: key)
            if right { try SecretVault.deriveIdKey(in: key) }
            candidate = key
        } catch {
            checkFailure = error
        }

        return transact(at: entryNow) { now throws(IdleLockError) in
            // A check that could not run stays counted (fail closed).
            if let checkFailure { throw checkFailure }
            switch rules.finishAttempt(ticket, right: right, now: now) {
            case .unlocked:
                guard let candidate else { throw IdleLockError(.internal, "the unwrapped key is missing") }
                sessionKey.copy(from: candidate.base, count: SessionKeyLayout.total)
                keyLoaded = true
            case .wrong(let remaining):
                throw IdleLockError(.invalidPasscode, "wrong passcode; ", Int64(remaining), " attempt(s) remain before lockout")
            case .lockedOut:
                throw IdleLockHandle.lockedOut
            case .overtaken:
                throw IdleLockError(.sessionLocked, "the passcode was right, but the session was locked while it was checked; unlock again")
            case .void:
                if !rules.engaged { throw IdleLockHandle.noPasscode }
                throw IdleLockError(.sessionLocked, "the passcode was replaced while this attempt was checked; the attempt is void, try again")
            }
        }
    }

    private static let noPasscode = IdleLockError(.noPasscode, "no passcode is set; set one with idlelock_set_passcode")
    private static let lockedOut = IdleLockError(.lockedOut, "too many wrong passcodes: the session is locked out; only idlelock_disable (sign-out) leaves this state")
    private static let sessionLocked = IdleLockError(.sessionLocked, "the session is locked; unlock it first")

    // MARK: - Biometric shortcut (no authenticator in this version)

    func enableBiometrics() -> CallResult {
        transact { now throws(IdleLockError) in
            rules.check(now: now)
            guard rules.engaged else { throw IdleLockHandle.noPasscode }
            guard rules.state == .unlocked else { throw IdleLockHandle.sessionLocked }
            throw IdleLockError(.lockUnavailable, "no authenticator is configured (this version has no biometric shortcut); unlock with the passcode")
        }
    }

    func disableBiometrics() -> CallResult {
        transact { now in
            rules.check(now: now)
            biometricsEnabled = false
        }
    }

    func unlockWithBiometrics() -> CallResult {
        transact { now throws(IdleLockError) in
            rules.check(now: now)
            guard rules.engaged else { throw IdleLockHandle.noPasscode }
            guard rules.state != .lockedOut else { throw IdleLockHandle.lockedOut }
            throw IdleLockError(.lockUnavailable, "the biometric shortcut is not enabled; unlock with the passcode")
        }
    }

    // MARK: - Sign-out

    /// SPEC §6 `disable`: works in every state.
    func disable() -> CallResult {
        transact { now throws(IdleLockError) in
            rules.check(now: now)
            rules.disengage()
            wrap = nil
            biometricsEnabled = false
            vault.removeAll()
            keyLoaded = false
            sessionKey.randomize()
            try SecretVault.deriveIdKey(in: sessionKey)
            keyLoaded = true
        }
    }

    // MARK: - Secrets and the gate

    /// With the mutex held, after judging: the session must be unlocked.
    private func requireOpen() throws(IdleLockError) {
        guard rules.state == .unlocked else { throw IdleLockHandle.sessionLocked }
        try requireKey()
    }

    private func requireKey() throws(IdleLockError) {
        guard keyLoaded else { throw IdleLockError(.internal, "the session key is not loaded although the session is unlocked") }
    }

    func putSecret(name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) -> CallResult {
        transact { now throws(IdleLockError) in
            rules.check(now: now)
            try requireOpen()
            try vault.put(name: name, value: value, key: sessionKey)
        }
    }

    /// `size` receives the value's size once found (also when `capacity` is
    /// too small).
    func getSecret(name: UnsafeRawBufferPointer, into buffer: UnsafeMutableRawPointer?, capacity: Int,
                   size: inout Int) -> CallResult {
        var found = -1
        let result = transact { now throws(IdleLockError) in
            rules.check(now: now)
            try requireOpen()
            try vault.get(name: name, into: buffer, capacity: capacity, key: sessionKey, size: &found)
        }
        if found >= 0 { size = found }
        return result
    }

    func removeSecret(name: UnsafeRawBufferPointer) -> CallResult {
        transact { now throws(IdleLockError) in
            rules.check(now: now)
            try requireOpen()
            try vault.remove(name: name, key: sessionKey)
        }
    }

    func requireUnlocked() -> CallResult {
        transact { now throws(IdleLockError) in
            rules.check(now: now)
            try requireOpen()
        }
    }

    func snapshot() -> CallResult {
        transact { now in rules.check(now: now) }
    }

    // MARK: - Listeners

    func subscribe(_ function: @escaping idlelock_listener_fn,
                   context: UnsafeMutableRawPointer?) throws(IdleLockError) -> UInt64 {
        mutex.lock()
        defer { mutex.unlock() }
        return try registry.add(function, context: context)
    }

    /// Returns once no call of the listener runs on another thread.
    func unsubscribe(token: UInt64) throws(IdleLockError) {
        mutex.lock()
        defer { mutex.unlock() }
        guard registry.remove(token: token) else {
            throw .invalid("no listener is subscribed with token ", Int64(clamping: token))
        }
        let me = pthread_self()
        while inFlightToken == token && !(draining && pthread_equal(drainer, me) != 0) {
            mutex.wait()
        }
    }

    /// Delivers queued snapshots in `seq` order, one thread at a time, with
    /// no lock held during a listener call. A thread that finds another
    /// draining leaves its snapshots to it (so a listener that calls back
    /// in has its own changes delivered after the current one).
    private func deliver() {
        mutex.lock()
        if draining {
            mutex.unlock()
            return
        }
        draining = true
        drainer = pthread_self()
        while let snapshot = queue.pop() {
            var after: UInt64 = 0
            while let listener = registry.first(after: after) {
                after = listener.token
                inFlightToken = listener.token
                mutex.unlock()
                withUnsafePointer(to: snapshot.c) { listener.function(listener.context, $0) }
                mutex.lock()
                inFlightToken = 0
                mutex.broadcast()
            }
        }
        draining = false
        mutex.unlock()
    }
}
