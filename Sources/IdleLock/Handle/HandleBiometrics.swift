// The biometric shortcut on the handle (SPEC §5). Each call is split around
// the host's callbacks, which run with no internal lock held: what the call
// started from (the lock epoch, the passcode generation, the wrap) is
// re-checked when the host's answer is applied.

import CIdleLockSupport

extension IdleLockHandle {
    private static let noAuthenticator = IdleLockError(.lockUnavailable, "no authenticator is configured (config.authenticator is NULL); unlock with the passcode")

    /// SPEC §5 `enable_biometrics`.
    func enableBiometrics() -> CallResult {
        var entryNow: Int64 = 0
        var ticket: AttemptTicket? = nil
        var keyCopy: SecureBytes? = nil
        let first = transact { now throws(IdleLockError) in
            entryNow = now
            rules.check(now: now)
            try refreshFromStore()
            guard rules.engaged else { throw IdleLockHandle.noPasscode }
            guard rules.state == .unlocked else { throw IdleLockHandle.sessionLocked }
            guard config.authenticator != nil else { throw IdleLockHandle.noAuthenticator }
            keyCopy = try copySessionKey()
            ticket = AttemptTicket(epoch: rules.lockEpoch, generation: rules.passcodeGeneration)
        }
        guard first.error == nil, let ticket, let keyCopy, let authenticator = config.authenticator else {
            return first
        }

        // The host's part, with no lock held: is a check available, and keep
        // the new secret behind it.
        let available = authenticator.isAvailable()
        var made: KeyWrap? = nil
        var hostFailure: IdleLockError? = nil
        var stored = false
        if !available {
            hostFailure = IdleLockError(.lockUnavailable, "the authenticator reports no biometric check available (is_available returned 0)")
        } else {
            do throws(IdleLockError) {
                let secret = try SecureBytes.allocate(count: HostAuthenticator.secretBytes)
                secret.randomize()
                let key = try HostAuthenticator.wrapKey(secret: secret, deviceKey: deviceKey)
                made = try KeyWrap.seal(keyCopy, under: key.base, label: KeyWrap.biometricLabel)
                stored = authenticator.store(secret)
                if !stored {
                    hostFailure = IdleLockError(.lockUnavailable, "the authenticator could not store the secret (store_secret failed); the shortcut stays off")
                }
            } catch {
                hostFailure = error
            }
        }
        keyCopy.wipe()

        var keepSecret = false
        let result = transact(at: entryNow) { now throws(IdleLockError) in
            bioAvailable = available
            if let hostFailure { throw hostFailure }
            guard let made else { throw IdleLockError(.internal, "the biometric wrap is missing") }
            guard rules.state == .unlocked, ticket.epoch == rules.lockEpoch,
                  ticket.generation == rules.passcodeGeneration else {
                throw IdleLockError(.sessionLocked, "the session was locked or its passcode changed while the shortcut was being enabled; nothing changed")
            }
            try saveBiometricWrap(made)
            bioWrap = made
            keepSecret = true
        }
        if stored && !keepSecret { authenticator.delete() }
        return result
    }

    /// SPEC §5 `disable_biometrics`: forget the wrap, then `delete_secret`.
    func disableBiometrics() -> CallResult {
        var wasOn = false
        let result = transact { now throws(IdleLockError) in
            rules.check(now: now)
            try refreshFromStore()
            voidBiometricRequests()
            guard bioWrap != nil else { return }
            try saveBiometricWrap(nil)
            bioWrap = nil
            wasOn = true
        }
        if wasOn { config.authenticator?.delete() }
        return result
    }

    /// SPEC §5 `unlock_with_biometrics`. The snapshot goes into `out`
    /// (written by each transaction: the last one's is the call's).
    func unlockWithBiometrics(into out: UnsafeMutablePointer<Snapshot>? = nil) -> CallResult {
        defer { ilk_scrub_vector_registers() } // no fragment of the released secret left in them
        var entryNow: Int64 = 0
        var ticket: AttemptTicket? = nil
        var shortcut: KeyWrap? = nil
        var passcode: PasscodeWrap? = nil
        var prompt: UInt64 = 0
        let first = transact(into: out) { now throws(IdleLockError) in
            entryNow = now
            rules.check(now: now)
            try refreshFromStore()
            guard rules.engaged, let current = wrap else { throw IdleLockHandle.noPasscode }
            guard rules.state != .lockedOut else { throw IdleLockHandle.lockedOut }
            guard config.authenticator != nil else { throw IdleLockHandle.noAuthenticator }
            guard let enabled = bioWrap else {
                throw IdleLockError(.lockUnavailable, "the biometric shortcut is not enabled; unlock with the passcode")
            }
            guard bioAvailable else {
                throw IdleLockError(.lockUnavailable, "no biometric check is available now (is_available); unlock with the passcode")
            }
            ticket = AttemptTicket(epoch: rules.lockEpoch, generation: rules.passcodeGeneration)
            shortcut = enabled
            passcode = current
            // The host's biometric sheet is a prompt (SPEC §9): an absence
            // it causes is presence.
            prompt = rules.openPrompt(now: now)
        }
        guard first.error == nil, let ticket, let shortcut, let passcode,
              let authenticator = config.authenticator else {
            return first
        }

        // The check, with no lock held: it may take seconds.
        var released = AuthenticatorResult.failed
        var opened: SecureBytes? = nil
        var checkFailure: IdleLockError? = nil
        do throws(IdleLockError) {
            let secret = try SecureBytes.allocate(count: HostAuthenticator.secretBytes)
            released = authenticator.load(into: secret)
            if released == .released {
                let key = try HostAuthenticator.wrapKey(secret: secret, deviceKey: deviceKey)
                let candidate = try SecureBytes.allocate(count: SessionKeyLayout.total)
                if shortcut.open(into: candidate, under: key.base, label: KeyWrap.biometricLabel) {
                    try SecretVault.deriveIdKey(in: candidate)
                    opened = candidate
                }
            }
        } catch {
            checkFailure = error
        }

        var turnedOff = false
        // The clock is read again here for the prompt's end (when the sheet
        // went away); the unlock itself is judged at the call's entry.
        let result = transact(into: out) { now throws(IdleLockError) in
            rules.closePrompt(prompt, now: now)
            if let checkFailure { throw checkFailure }
            switch released {
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
            guard bioWrap == shortcut else {
                throw IdleLockError(.lockUnavailable, "the biometric shortcut changed while the check ran; try again")
            }
            guard let opened else {
                // The released secret no longer opens the wrap: the enrolment
                // changed. The shortcut goes; the passcode remains.
                try? saveBiometricWrap(nil)
                bioWrap = nil
                turnedOff = true
                throw IdleLockError(.lockUnavailable, "the authenticator's secret no longer opens the shortcut (the biometric enrolment changed?); the shortcut is now off, unlock with the passcode")
            }
            let outcome = try finishAttempt(ticket, checked: passcode, right: true, now: entryNow)
            try apply(outcome, key: opened)
        }
        if turnedOff { authenticator.delete() }
        return result
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
