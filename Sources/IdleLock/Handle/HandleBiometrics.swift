// The biometric shortcut on the handle (SPEC §5). Each call is split around
// the host's callbacks, which run with no internal lock held: what the call
// started from (the lock epoch, the passcode generation, the wrap) is
// re-checked when the host's answer is applied.

import CIdleLockSupport

/// What `enable_biometrics` starts from (its first transaction).
struct BiometricEnableStart {
    /// What must still hold when the host's answer is applied.
    let ticket: AttemptTicket
    /// A copy of the session key, to wrap with no lock held.
    let keyCopy: SecureBytes
    let authenticator: HostAuthenticator
}

/// What `unlock_with_biometrics` starts from (its first transaction).
struct BiometricUnlockStart {
    let ticket: AttemptTicket
    /// The shortcut's wrap and the passcode wrap as they were: a change
    /// while the check ran voids its answer.
    let shortcut: KeyWrap
    let passcode: PasscodeWrap
    let authenticator: HostAuthenticator
}

/// What the host's biometric check gave.
struct BiometricAnswer {
    var released = AuthenticatorResult.failed
    /// For a release: the session key the secret opened, or nil when it
    /// does not open the wrap (the enrolment changed).
    var opened: SecureBytes? = nil
    /// A step of the library's own that failed (no memory).
    var failure: IdleLockError? = nil
}

extension IdleLockHandle {
    private static let noAuthenticator = IdleLockError(.lockUnavailable, "no authenticator is configured (config.authenticator is NULL); unlock with the passcode")

    /// SPEC §5 `enable_biometrics`. `store_secret` may show the host's own
    /// sheet: it runs as a host check (HostCheck.swift).
    func enableBiometrics() -> CallResult {
        var available = false
        var made: KeyWrap? = nil
        var hostFailure: IdleLockError? = nil
        var stored = false
        var keepSecret = false
        let result = hostCheckCall(begin: { now throws(IdleLockError) -> BiometricEnableStart in
            try refreshFromStore()
            guard rules.engaged else { throw IdleLockHandle.noPasscode }
            guard rules.handsOut else { throw closedError() }
            guard let authenticator = config.authenticator else { throw IdleLockHandle.noAuthenticator }
            return BiometricEnableStart(ticket: AttemptTicket(epoch: rules.lockEpoch, generation: rules.passcodeGeneration),
                                        keyCopy: try copySessionKey(), authenticator: authenticator)
        }, host: { start in
            // The host's part, with no lock held: is a check available, and
            // keep the new secret behind it.
            available = start.authenticator.isAvailable()
            if !available {
                hostFailure = IdleLockError(.lockUnavailable, "the authenticator reports no biometric check available (is_available returned 0)")
            } else {
                do throws(IdleLockError) {
                    let secret = try SecureBytes.allocate(count: HostAuthenticator.secretBytes)
                    secret.randomize()
                    let key = try HostAuthenticator.wrapKey(secret: secret, deviceKey: deviceKey)
                    made = try KeyWrap.seal(start.keyCopy, under: key.base, label: KeyWrap.biometricLabel)
                    stored = start.authenticator.store(secret)
                    if !stored {
                        hostFailure = IdleLockError(.lockUnavailable, "the authenticator could not store the secret (store_secret failed); the shortcut stays off")
                    }
                } catch {
                    hostFailure = error
                }
            }
            start.keyCopy.wipe()
        }, finish: { start, _ throws(IdleLockError) in
            bioAvailable = available
            do throws(IdleLockError) {
                if let hostFailure { throw hostFailure }
                guard let made else { throw IdleLockError(.internal, "the biometric wrap is missing") }
                guard rules.state == .unlocked, start.ticket.epoch == rules.lockEpoch,
                      start.ticket.generation == rules.passcodeGeneration else {
                    throw IdleLockError(.sessionLocked, "the session was locked or its passcode changed while the shortcut was being enabled; the shortcut is off")
                }
                try saveBiometricWrap(made)
                bioWrap = made
                keepSecret = true
            } catch {
                // store_secret replaced the host's item: a shortcut enabled
                // before can no longer be opened with it. It goes too (the
                // new item is deleted below); the passcode remains.
                if stored && bioWrap != nil {
                    try? saveBiometricWrap(nil)
                    bioWrap = nil
                }
                throw error
            }
        })
        if stored && !keepSecret { config.authenticator?.delete() }
        return result
    }

    /// SPEC §5 `disable_biometrics`: forget the wrap, then `delete_secret`.
    func disableBiometrics() -> CallResult {
        var wasOn = false
        let result = transact { now throws(IdleLockError) in
            rules.check(now: now)
            try refreshFromStore()
            guard bioWrap != nil else { return }
            try saveBiometricWrap(nil)
            bioWrap = nil
            wasOn = true
        }
        if wasOn { config.authenticator?.delete() }
        return result
    }

    /// SPEC §5 `unlock_with_biometrics`. `load_secret` runs as a host check
    /// (HostCheck.swift): whatever it answers, its end is judged at a fresh
    /// reading before it counts as activity. The snapshot in `out` is the
    /// state when the call returns.
    func unlockWithBiometrics(into out: UnsafeMutablePointer<Snapshot>? = nil) -> CallResult {
        defer { ilk_scrub_vector_registers() } // no fragment of the released secret left in them
        var answer = BiometricAnswer()
        var turnedOff = false
        let result = hostCheckCall(into: out, begin: { _ throws(IdleLockError) -> BiometricUnlockStart in
            try beginBiometricUnlock()
        }, host: { start in
            // The check, with no lock held: it may take minutes.
            answer = runBiometricCheck(start)
        }, finish: { start, now throws(IdleLockError) in
            try finishBiometricUnlock(start, answer, now: now, turnedOff: &turnedOff)
        })
        if turnedOff { config.authenticator?.delete() }
        return result
    }

    /// With the mutex held, after judging: the checks of a biometric unlock
    /// before the host is asked (SPEC §5's order).
    func beginBiometricUnlock() throws(IdleLockError) -> BiometricUnlockStart {
        try refreshFromStore()
        guard rules.engaged, let current = wrap else { throw IdleLockHandle.noPasscode }
        guard rules.state != .lockedOut else { throw IdleLockHandle.lockedOut }
        guard let authenticator = config.authenticator else { throw IdleLockHandle.noAuthenticator }
        guard let enabled = bioWrap else {
            throw IdleLockError(.lockUnavailable, "the biometric shortcut is not enabled; unlock with the passcode")
        }
        guard bioAvailable else {
            throw IdleLockError(.lockUnavailable, "no biometric check is available now (is_available); unlock with the passcode")
        }
        return BiometricUnlockStart(ticket: AttemptTicket(epoch: rules.lockEpoch, generation: rules.passcodeGeneration),
                                    shortcut: enabled, passcode: current, authenticator: authenticator)
    }

    /// With no lock held: `load_secret`, and the session key the released
    /// secret opens.
    func runBiometricCheck(_ start: BiometricUnlockStart) -> BiometricAnswer {
        var answer = BiometricAnswer()
        do throws(IdleLockError) {
            let secret = try SecureBytes.allocate(count: HostAuthenticator.secretBytes)
            answer.released = start.authenticator.load(into: secret)
            if answer.released == .released {
                answer.opened = try openShortcut(start.shortcut, secret: secret)
            }
        } catch {
            answer.failure = error
        }
        return answer
    }

    /// The session key under the shortcut's wrap, opened with the host's
    /// secret; nil when the secret does not open it.
    func openShortcut(_ shortcut: KeyWrap, secret: SecureBytes) throws(IdleLockError) -> SecureBytes? {
        let key = try HostAuthenticator.wrapKey(secret: secret, deviceKey: deviceKey)
        let candidate = try SecureBytes.allocate(count: SessionKeyLayout.total)
        guard shortcut.open(into: candidate, under: key.base, label: KeyWrap.biometricLabel) else { return nil }
        try SecretVault.deriveIdKey(in: candidate)
        return candidate
    }

    /// With the mutex held, inside `closeHostCheck` at `now` (the check's
    /// end, already judged): applies the host's answer. A success unlocks
    /// at `now` (the prompt's end, activity) under the epoch rule of §4.
    func finishBiometricUnlock(_ start: BiometricUnlockStart, _ answer: BiometricAnswer, now: Int64,
                               turnedOff: inout Bool) throws(IdleLockError) {
        if let failure = answer.failure { throw failure }
        switch answer.released {
        case .failed:
            throw IdleLockError(.lockUnavailable, "the biometric check failed; try again or unlock with the passcode")
        case .cancelled:
            throw IdleLockError(.lockUnavailable, "the biometric check was cancelled")
        case .unavailable:
            // The cache is refreshed only at create, enable and
            // foreground (SPEC §5); this answer does not change it.
            throw IdleLockError(.lockUnavailable, "the authenticator reports no biometric check available; unlock with the passcode")
        case .released:
            break
        }
        guard bioWrap == start.shortcut else {
            throw IdleLockError(.lockUnavailable, "the biometric shortcut changed while the check ran; try again")
        }
        guard let opened = answer.opened else {
            // The released secret no longer opens the wrap: the enrolment
            // changed. The shortcut goes; the passcode remains.
            try? saveBiometricWrap(nil)
            bioWrap = nil
            turnedOff = true
            throw IdleLockError(.lockUnavailable, "the authenticator's secret no longer opens the shortcut (the biometric enrolment changed?); the shortcut is now off, unlock with the passcode")
        }
        let outcome = try finishAttempt(start.ticket, checked: start.passcode, right: true, now: now)
        try apply(outcome, key: opened)
    }

    /// Saves the biometric wrap (nil: the shortcut is off) to the store in
    /// one durable step; nothing to do without a store.
    func saveBiometricWrap(_ shortcut: KeyWrap?) throws(IdleLockError) {
        guard let store, rules.engaged else { return }
        let image = try store.update { (image: inout StoreImage) throws(IdleLockError) -> Bool in
            guard store.isOurs(image) else {
                throw IdleLockError(.sessionLocked, "another process signed in with its own passcode; this session is locked")
            }
            image.biometricWrap = shortcut
            return true
        }
        guard let image else {
            forgetSession()
            store.forget()
            throw IdleLockHandle.noPasscode
        }
        absorb(image)
    }
}
