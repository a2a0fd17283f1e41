// SPDX-License-Identifier: MIT
// The biometric shortcut through the callback authenticator (header,
// "Biometric shortcut"): the library runs the host's check itself, on the
// core the two-phase pair uses (BiometricRequests.swift), so both obey one
// set of rules. A call opens a
// request, runs the host's callbacks with no internal lock held, and
// finishes the request with their answer: what the call started from (the
// lock epoch, the passcode generation, the wrap) is re-checked then.

import CIdleLockSupport

extension IdleLockHandle {
    /// `idlelock_enable_biometrics`: an ENABLE request whose check is
    /// `is_available` and `store_secret`.
    func enableBiometrics() -> CallResult {
        let secret: SecureBytes
        do throws(IdleLockError) {
            secret = try SecureBytes.allocate(count: HostAuthenticator.secretBytes)
        } catch {
            return CallResult(error: error)
        }
        defer { secret.wipe() }
        var request: BiometricRequest? = nil
        let first = transact { now throws(IdleLockError) in
            rules.check(now: now)
            request = try openBiometricRequest(.enable, token: 0, now: now, secret: secret, viaAuthenticator: true)
        }
        guard first.error == nil, let request else { return first }
        // Opening the request needed an authenticator; none now means a
        // listener of the first transaction destroyed the handle.
        guard let authenticator = liveAuthenticator() else {
            return CallResult(error: IdleLockHandle.destroyedDuringCall)
        }

        // The host's part, with no lock held: is a check available, and keep
        // the new secret behind it.
        let available = authenticator.isAvailable()
        let stored = available && authenticator.store(secret)
        secret.wipe()

        var turnedOff = false
        var kept = false
        let result = transact { now throws(IdleLockError) in
            try closeHostCheck(request.check, now: now) { (expired: Bool) throws(IdleLockError) in
                bioAvailable = available
                if !available {
                    throw IdleLockError(.lockUnavailable, "the authenticator reports no biometric check available (is_available returned 0)")
                }
                if !stored {
                    throw IdleLockError(.lockUnavailable, "the authenticator could not store the secret (store_secret failed); the shortcut stays off")
                }
                do throws(IdleLockError) {
                    try applyBiometricOutcome(request, BiometricOutcome(result: .released), now: now, expired: expired,
                                              turnedOff: &turnedOff)
                    kept = true
                } catch {
                    // store_secret replaced the host's item, which is deleted
                    // again: a shortcut enabled before cannot open any more.
                    if bioWrap != nil {
                        try? saveBiometricWrap(nil)
                        bioWrap = nil
                    }
                    throw error
                }
            }
        }
        if stored && !kept { return deletingSecret(after: result) }
        return result
    }

    /// `idlelock_disable_biometrics`: forget the wrap, then `delete_secret`.
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
        if wasOn { return deletingSecret(after: result) }
        return result
    }

    /// `idlelock_unlock_with_biometrics`: an UNLOCK request whose check is
    /// `load_secret`. The snapshot goes into `out` (written by each
    /// transaction: the last one's is the call's).
    func unlockWithBiometrics(into out: UnsafeMutablePointer<Snapshot>? = nil) -> CallResult {
        defer { ilk_scrub_vector_registers() } // no fragment of the released secret left in them
        var request: BiometricRequest? = nil
        let first = transact(into: out) { now throws(IdleLockError) in
            rules.check(now: now)
            request = try openBiometricRequest(.unlock, token: 0, now: now, secret: nil, viaAuthenticator: true)
        }
        guard first.error == nil, let request, let shortcut = request.shortcut else { return first }
        // As for enable: none now means a listener destroyed the handle.
        guard let authenticator = liveAuthenticator() else {
            return CallResult(error: IdleLockHandle.destroyedDuringCall)
        }

        // The check, with no lock held: it may take seconds.
        var answer = BiometricOutcome(result: .failed)
        do throws(IdleLockError) {
            let secret = try SecureBytes.allocate(count: HostAuthenticator.secretBytes)
            answer.result = authenticator.load(into: secret)
            if answer.result == .released { answer.opened = try openShortcut(shortcut, secret: secret) }
            secret.wipe()
        } catch {
            answer.failure = error
        }

        var turnedOff = false
        let result = transact(into: out) { now throws(IdleLockError) in
            try closeHostCheck(request.check, now: now) { (expired: Bool) throws(IdleLockError) in
                try applyBiometricOutcome(request, answer, now: now, expired: expired, turnedOff: &turnedOff)
            }
        }
        if turnedOff { return deletingSecret(after: result) }
        return result
    }

    /// Saves the biometric wrap (nil: the shortcut is off) to the store in
    /// one durable step; nothing to do without a store. Turning it on needs
    /// the session unlocked in the state the call leaves (another process's
    /// lockout, taken in under the store lock, refuses it); turning it off
    /// works in every state.
    func saveBiometricWrap(_ shortcut: KeyWrap?) throws(IdleLockError) {
        guard let store, rules.engaged else { return }
        let image = try updateAsSeen({ () throws(IdleLockError) in
            if shortcut != nil && !rules.handsOut {
                throw IdleLockError(.sessionLocked, "the session was locked (another process locked it out?) while the shortcut was being enabled; it was not turned on")
            }
        }) { (image: inout StoreImage) throws(IdleLockError) -> Bool in
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
