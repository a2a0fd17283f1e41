// SPDX-License-Identifier: MIT
// The biometric shortcut as requests (header, "Biometric shortcut" and
// "Biometrics for asynchronous hosts"; docs/BIOMETRICS.md): one core for
// both ways a host runs its biometric check. A request is opened (the
// call's checks, a prompt), the host runs its check with no lock held, and
// the request is finished with the host's answer as a prompt ends
// (HostCheck.swift's closeHostCheck: the clock is read, the step and the
// deadlines judged, the answer applied, then the end is activity unless
// the request has expired). The callback authenticator
// (HandleBiometrics.swift) opens a request, calls load_secret or
// store_secret and finishes it in the same call; a host told the result
// later holds the request's token between `idlelock_biometric_begin` and
// `idlelock_biometric_finish`.

import CSystem
import CIdleLockSupport

/// `IDLELOCK_BIOMETRIC_*`: what a request is for.
enum BiometricPurpose: Int32 {
    case unlock = 1
    case enable = 2
}

/// An open request: what its begin started from, and what must still hold
/// when its answer is applied.
struct BiometricRequest {
    /// The host's handle on it (64 random bits, never 0); 0 for a request
    /// the library runs itself within one call (the callback path).
    let token: UInt64
    let purpose: BiometricPurpose
    /// The lock epoch and passcode generation at begin (header,
    /// idlelock_unlock: a lock after begin wins over a success).
    let ticket: AttemptTicket
    /// Its prompt, and what its life is measured from.
    let check: HostCheck
    /// UNLOCK: the shortcut's wrap and the passcode wrap at begin.
    let shortcut: KeyWrap?
    let passcode: PasscodeWrap?
    /// ENABLE: the session key wrapped under the secret handed out.
    let made: KeyWrap?
}

/// The host's answer to a request.
struct BiometricOutcome {
    var result: AuthenticatorResult
    /// UNLOCK, released: the session key the secret opened; nil when it
    /// does not open the shortcut's wrap.
    var opened: SecureBytes? = nil
    /// A step of the library's own that failed (no memory).
    var failure: IdleLockError? = nil
}

extension IdleLockHandle {
    static let noAuthenticator = IdleLockError(.lockUnavailable, "no authenticator is configured (config.authenticator is NULL); unlock with the passcode, or drive the check with idlelock_biometric_begin / _finish")

    // MARK: - The core (mutex held)

    /// Opens a request at `now`, after judging. UNLOCK checks what
    /// idlelock_unlock_with_biometrics checks first, then the passcode
    /// policies; ENABLE needs an unlocked session and writes a new random
    /// secret into `secret` (32 bytes), whose wrap of the session key the
    /// request keeps. `viaAuthenticator`:
    /// the library runs the check through `config.authenticator`, which must
    /// then be configured. Throws, with nothing opened, when a check fails.
    func openBiometricRequest(_ purpose: BiometricPurpose, token: UInt64, now: Int64, secret: SecureBytes?,
                              viaAuthenticator: Bool = false) throws(IdleLockError) -> BiometricRequest {
        try refreshFromStore()
        var shortcut: KeyWrap? = nil
        var passcode: PasscodeWrap? = nil
        var made: KeyWrap? = nil
        switch purpose {
        case .unlock:
            guard rules.engaged, let current = wrap else { throw IdleLockHandle.noPasscode }
            guard rules.state != .lockedOut else { throw IdleLockHandle.lockedOut }
            if viaAuthenticator && config.authenticator == nil { throw IdleLockHandle.noAuthenticator }
            guard let enabled = bioWrap else {
                throw IdleLockError(.lockUnavailable, "the biometric shortcut is not enabled; unlock with the passcode")
            }
            if config.authenticator != nil && !bioAvailable {
                throw IdleLockError(.lockUnavailable, "no biometric check is available now (is_available); unlock with the passcode")
            }
            try requireNoPasscodeDemand(now: now)
            try requirePromptTime()
            shortcut = enabled
            passcode = current
        case .enable:
            guard rules.engaged else { throw IdleLockHandle.noPasscode }
            guard rules.handsOut else { throw closedError() }
            if viaAuthenticator && config.authenticator == nil { throw IdleLockHandle.noAuthenticator }
            try requirePromptTime()
            guard let secret else { throw IdleLockError(.internal, "the enable request has no secret buffer") }
            let keyCopy = try copySessionKey()
            defer { keyCopy.wipe() }
            secret.randomize()
            let key = try HostAuthenticator.wrapKey(secret: secret, deviceKey: deviceKey)
            made = try KeyWrap.seal(keyCopy, under: key.base, label: KeyWrap.biometricLabel)
        }
        return BiometricRequest(token: token, purpose: purpose,
                                ticket: AttemptTicket(epoch: rules.lockEpoch, generation: rules.passcodeGeneration),
                                check: openHostCheck(now: now), shortcut: shortcut, passcode: passcode, made: made)
    }

    /// A passcode policy refusing the shortcut at `now` (LOCK_UNAVAILABLE,
    /// naming it).
    private func requireNoPasscodeDemand(now: Int64) throws(IdleLockError) {
        if let demand = rules.passcodeDemand(now: now) { throw IdleLockHandle.passcodeRequired(demand) }
    }

    /// LOCK_UNAVAILABLE naming the passcode policy that refuses the shortcut.
    static func passcodeRequired(_ demand: PasscodeDemand) -> IdleLockError {
        switch demand {
        case .afterReboot:
            return IdleLockError(.lockUnavailable, "the passcode is required: it has not been entered since the device restarted (passcode_after_reboot); unlock with the passcode")
        case .tooOld:
            return IdleLockError(.lockUnavailable, "the passcode is required: it was last entered longer ago than passcode_max_age_ms (or in another boot, or before a clock step); unlock with the passcode")
        case .biometricUses:
            return IdleLockError(.lockUnavailable, "the passcode is required after biometric_max_uses biometric unlocks in a row; unlock with the passcode")
        }
    }

    /// A request lives `prompt_cap_ms`: with 0 it would expire at once.
    private func requirePromptTime() throws(IdleLockError) {
        if config.timeouts.promptCap == 0 {
            throw IdleLockError(.lockUnavailable, "config.prompt_cap_ms is 0, which leaves a biometric check no time (a request expires prompt_cap_ms after it begins); set it, e.g. to the default 120000")
        }
    }

    /// With the mutex held, inside `closeHostCheck` at `now` (the check's
    /// end, already judged): applies the host's answer to `request`.
    /// `expired`: the request has expired by `now` (`hostCheckExpired`),
    /// and its answer counts for nothing, whatever it is. `turnedOff` is
    /// set when the shortcut was turned off (the caller deletes the
    /// authenticator's item).
    func applyBiometricOutcome(_ request: BiometricRequest, _ outcome: BiometricOutcome, now: Int64,
                               expired: Bool, turnedOff: inout Bool) throws(IdleLockError) {
        // What other processes did meanwhile (a sign-out, a new passcode, a
        // lockout) is seen before the answer is applied.
        try refreshFromStore()
        if expired { throw IdleLockHandle.requestExpired }
        if let failure = outcome.failure { throw failure }
        switch outcome.result {
        case .failed:
            throw IdleLockError(.lockUnavailable, "the biometric check failed; try again or unlock with the passcode")
        case .cancelled:
            throw IdleLockError(.lockUnavailable, "the biometric check was cancelled")
        case .unavailable:
            // The cache is refreshed only at create, enable and
            // foreground (header, idlelock_snapshot); this answer does
            // not change it.
            throw IdleLockError(.lockUnavailable, "the authenticator reports no biometric check available; unlock with the passcode")
        case .released:
            break
        }
        switch request.purpose {
        case .unlock:
            guard let shortcut = request.shortcut, let passcode = request.passcode else {
                throw IdleLockError(.internal, "the unlock request has no wraps")
            }
            // Signed out elsewhere meanwhile (seen just now): as unlock.
            guard rules.engaged else { throw IdleLockHandle.noPasscode }
            try requireNoPasscodeDemand(now: now)
            guard bioWrap == shortcut else {
                throw IdleLockError(.lockUnavailable, "the biometric shortcut changed while the check ran; try again")
            }
            guard let opened = outcome.opened else {
                // The released secret no longer opens the wrap: the enrolment
                // changed. The shortcut goes; the passcode remains.
                try? saveBiometricWrap(nil)
                bioWrap = nil
                turnedOff = true
                throw IdleLockError(.lockUnavailable, "the secret no longer opens the shortcut (the biometric enrolment changed?); the shortcut is now off: delete the keystore item and unlock with the passcode")
            }
            let result = try finishAttempt(request.ticket, checked: passcode, right: true, now: now, by: .biometric)
            try apply(result, key: opened)
        case .enable:
            guard let made = request.made else { throw IdleLockError(.internal, "the biometric wrap is missing") }
            guard rules.engaged else { throw IdleLockHandle.noPasscode }
            guard rules.handsOut, request.ticket.epoch == rules.lockEpoch,
                  request.ticket.generation == rules.passcodeGeneration else {
                throw IdleLockError(.sessionLocked, "the session was locked or its passcode changed while the shortcut was being enabled; it was not turned on")
            }
            try saveBiometricWrap(made)
            bioWrap = made
        }
    }

    /// A request past its life (`prompt_cap_ms`, or behind a clock step)
    /// unlocks and enables nothing.
    static let requestExpired = IdleLockError(.lockUnavailable, "the biometric request expired: it was open prompt_cap_ms or longer (or the clock stepped back since it began); its answer counts for nothing: begin a new one")

    /// The session key under `shortcut`, opened with the host's secret; nil
    /// when the secret does not open it. No lock needed.
    func openShortcut(_ shortcut: KeyWrap, secret: SecureBytes) throws(IdleLockError) -> SecureBytes? {
        let key = try HostAuthenticator.wrapKey(secret: secret, deviceKey: deviceKey)
        let candidate = try SecureBytes.allocate(count: SessionKeyLayout.total)
        guard shortcut.open(into: candidate, under: key.base, label: KeyWrap.biometricLabel) else { return nil }
        try SecretVault.deriveIdKey(in: candidate)
        return candidate
    }

    /// With the mutex held: every open request of the pair is void (a
    /// sign-out, a new passcode, the shortcut turned off): its token is no
    /// longer open and its prompt is gone (without an end: no activity, no
    /// grace window), so it defers nothing any more.
    func voidBiometricRequests() {
        voidBiometricRequests { _ in true }
    }

    /// With the mutex held: the open requests `isVoid` picks are void, as
    /// `voidBiometricRequests()` voids them all.
    private func voidBiometricRequests(where isVoid: (BiometricRequest) -> Bool) {
        var i = 0
        while i < biometricRequests.count {
            if isVoid(biometricRequests[i]) {
                rules.discardPrompt(biometricRequests[i].check.prompt)
                biometricRequests.remove(at: i)
            } else {
                i += 1
            }
        }
    }

    /// With the mutex held, after `bioWrap` was set (it was `old`): when the
    /// shortcut changed (turned off, or another one replaced it, here or in
    /// another process), every request whose answer can no longer count is
    /// void: all of them when it went off (as `idlelock_disable_biometrics`
    /// does), the UNLOCK requests begun under another shortcut when it was
    /// replaced.
    func shortcutChanged(from old: KeyWrap?) {
        guard let current = bioWrap else {
            if old != nil { voidBiometricRequests() }
            return
        }
        guard current != old else { return }
        voidBiometricRequests { $0.purpose == .unlock && $0.shortcut != current }
    }

    /// With the mutex held, at a reading `now` the call has judged: the
    /// requests that have expired make room (they defer nothing and unlock
    /// nothing; a host that lost their tokens must not be kept from the
    /// shortcut). Their prompts go without an end, as an expired request's
    /// finish ends it, and their tokens are no longer open.
    private func retireExpiredRequests(now: Int64) {
        voidBiometricRequests { hostCheckExpired($0.check, at: now) }
    }

    // MARK: - The pair (idlelock_biometric_begin / _finish)

    /// `biometric_begin`; the arguments are validated. For ENABLE the new
    /// secret is written into `secretOut` (32 bytes) on success only.
    func biometricBegin(_ purpose: BiometricPurpose, secretOut: UnsafeMutablePointer<UInt8>?,
                        into out: UnsafeMutablePointer<Snapshot>?) -> (CallResult, UInt64) {
        defer { ilk_scrub_vector_registers() } // no fragment of the secret or the key left in them
        var secret: SecureBytes? = nil
        if purpose == .enable {
            do throws(IdleLockError) {
                secret = try SecureBytes.allocate(count: HostAuthenticator.secretBytes)
            } catch {
                return (CallResult(error: error), 0)
            }
        }
        var token: UInt64 = 0
        let result = transact(into: out) { now throws(IdleLockError) in
            rules.check(now: now)
            // A full table is judged at this call's own reading (its clock
            // step counted): what has expired by now makes room. Nothing
            // else changes when none has.
            if biometricRequests.count >= ConfigLimits.biometricRequestsMax { retireExpiredRequests(now: now) }
            if biometricRequests.count >= ConfigLimits.biometricRequestsMax {
                throw .invalid("IDLELOCK_BIOMETRIC_REQUESTS_MAX (", Int64(ConfigLimits.biometricRequestsMax), ") requests are open on this handle and none has expired: finish the ones no longer needed (IDLELOCK_AUTH_CANCELLED) first")
            }
            let fresh = newRequestToken()
            biometricRequests.append(try openBiometricRequest(purpose, token: fresh, now: now, secret: secret))
            token = fresh
        }
        if result.error != nil && token != 0 {
            // Opened, but the call still failed (judging locked the session
            // and the lock could not be saved): the caller gets no token,
            // so the request must not stay open.
            mutex.lock()
            if let i = biometricRequests.firstIndex(where: { $0.token == token }) {
                rules.discardPrompt(biometricRequests[i].check.prompt)
                biometricRequests.remove(at: i)
            }
            mutex.unlock()
            token = 0
        }
        if result.error == nil, let secret, let secretOut {
            secretOut.update(from: secret.base, count: HostAuthenticator.secretBytes)
        }
        secret?.wipe()
        return (result, token)
    }

    /// A token no request on this handle holds: 64 random bits, never 0.
    private func newRequestToken() -> UInt64 {
        var token: UInt64 = 0
        repeat {
            withUnsafeMutableBytes(of: &token) { randombytes_buf($0.baseAddress!, $0.count) }
        } while token == 0 || biometricRequests.contains { $0.token == token }
        return token
    }

    /// `biometric_finish`; `result` is an `IDLELOCK_AUTH_*` code and the
    /// secret's shape (nil, or 32 bytes) is validated against it; what
    /// depends on the request (its purpose) is checked under the lock,
    /// before any effect.
    func biometricFinish(_ token: UInt64, result: AuthenticatorResult, secret: UnsafePointer<UInt8>?,
                         secretLength: Int, into out: UnsafeMutablePointer<Snapshot>?) -> CallResult {
        defer { ilk_scrub_vector_registers() } // no fragment of the released secret left in them
        // The host's secret in guarded memory before the lock is taken.
        var released: SecureBytes? = nil
        if let secret, secretLength == HostAuthenticator.secretBytes {
            do throws(IdleLockError) {
                let copy = try SecureBytes.allocate(count: HostAuthenticator.secretBytes)
                copy.copy(from: secret, count: HostAuthenticator.secretBytes)
                released = copy
            } catch {
                return CallResult(error: error)
            }
        }
        defer { released?.wipe() }
        var request: BiometricRequest? = nil
        var turnedOff = false
        let outcome = transact(checking: { () throws(IdleLockError) in
            guard let i = biometricRequests.firstIndex(where: { $0.token == token }) else {
                throw .invalid("token is not an open biometric request on this handle (never issued here, already finished, voided by idlelock_disable, a new passcode or idlelock_disable_biometrics, or by the shortcut going off or being replaced, or expired and freed by a later begin)")
            }
            let found = biometricRequests[i]
            if found.purpose == .unlock && result == .released && secretLength != HostAuthenticator.secretBytes {
                throw .invalid("secret_len must be 32 (IDLELOCK_AUTH_SECRET_BYTES) to finish an unlock request with IDLELOCK_AUTH_OK, got ", Int64(secretLength))
            }
            if found.purpose == .enable && secretLength != 0 {
                throw .invalid("secret_len must be 0 to finish an enable request (the secret was handed out at begin), got ", Int64(secretLength))
            }
            biometricRequests.remove(at: i)
            request = found
        }, into: out) { now throws(IdleLockError) in
            guard let request else { return }
            var answer = BiometricOutcome(result: result)
            if request.purpose == .unlock, result == .released, let shortcut = request.shortcut, let released {
                do throws(IdleLockError) {
                    answer.opened = try openShortcut(shortcut, secret: released)
                } catch {
                    answer.failure = error
                }
            }
            try closeHostCheck(request.check, now: now) { (expired: Bool) throws(IdleLockError) in
                try applyBiometricOutcome(request, answer, now: now, expired: expired, turnedOff: &turnedOff)
            }
        }
        if turnedOff { return deletingSecret(after: outcome) }
        return outcome
    }
}
