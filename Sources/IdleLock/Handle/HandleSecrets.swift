// SPDX-License-Identifier: MIT
// Sealed secrets, the gate, sign-out and the biometric calls on the handle
// (the header's "Biometric shortcut" and "Sealed secrets and the gate"). With a store, secrets of an engaged session are changed by
// a durable step (re-read, apply, replace); before a passcode they live in
// memory only.

import CIdleLockSupport

extension IdleLockHandle {
    /// With the mutex held, after judging: the session must be unlocked,
    /// started if it was found in the store (docs/STORE.md), and its key open.
    func requireOpen() throws(IdleLockError) {
        guard rules.handsOut else { throw closedError() }
        try requireKey()
    }

    static let awaitingStart = IdleLockError(.sessionLocked, "this handle opened a stored session and has not been started: call idlelock_start first (it judges the time since the last run); until then secrets and the gate stay closed")

    /// SESSION_LOCKED for a session that hands out nothing now: locked, or
    /// a stored session before its first `start`.
    func closedError() -> IdleLockError {
        rules.state == .unlocked ? IdleLockHandle.awaitingStart : IdleLockHandle.sessionLocked
    }

    /// A copy of the session key in secure memory, for wrapping it while
    /// the mutex is released (set_passcode, enable_biometrics).
    func copySessionKey() throws(IdleLockError) -> SecureBytes {
        try requireKey()
        let copy = try SecureBytes.allocate(count: SodiumSizes.key)
        copy.copy(from: sessionKey.base, count: SodiumSizes.key)
        return copy
    }

    func requireKey() throws(IdleLockError) {
        guard keyLoaded else {
            throw IdleLockError(.internal, "the session key is not loaded although the session is unlocked")
        }
    }

    func putSecret(name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) -> CallResult {
        transact { now throws(IdleLockError) in
            rules.check(now: now)
            try refreshFromStore()
            try requireOpen()
            try changeSecrets { (v: inout SecretVault) throws(IdleLockError) in
                try v.put(name: name, value: value, key: sessionKey)
            }
        }
    }

    /// `size` receives the value's size once found (also when `capacity` is
    /// too small).
    func getSecret(name: UnsafeRawBufferPointer, into buffer: UnsafeMutableRawPointer?, capacity: Int,
                   size: inout Int) -> CallResult {
        var found = -1
        let result = transact { now throws(IdleLockError) in
            rules.check(now: now)
            try refreshFromStore()
            try requireOpen()
            try vault.get(name: name, into: buffer, capacity: capacity, key: sessionKey, size: &found)
        }
        // The decryption leaves plaintext in vector registers; a later
        // register save (a lazy PLT binding, a signal) would spill it.
        ilk_scrub_vector_registers()
        if found >= 0 { size = found }
        return result
    }

    func removeSecret(name: UnsafeRawBufferPointer) -> CallResult {
        transact { now throws(IdleLockError) in
            rules.check(now: now)
            try refreshFromStore()
            try requireOpen()
            try changeSecrets { (v: inout SecretVault) throws(IdleLockError) in
                try v.remove(name: name, key: sessionKey)
            }
        }
    }

    /// Applies `change` to the secrets: in memory, or, for an engaged
    /// session with a store, to the store's records in one durable step
    /// (nothing changes when it cannot be saved).
    private func changeSecrets(_ change: (inout SecretVault) throws(IdleLockError) -> Void) throws(IdleLockError) {
        guard let store, rules.engaged else {
            try change(&vault)
            return
        }
        let image = try updateAsSeen({ () throws(IdleLockError) in try requireOpen() }) {
            (image: inout StoreImage) throws(IdleLockError) -> Bool in
            guard store.isOurs(image) else {
                throw IdleLockError(.sessionLocked, "another process signed in with its own passcode; this session is locked")
            }
            var stored = SecretVault(records: image.secrets)
            try change(&stored)
            image.secrets = stored.records
            return true
        }
        guard let image else {
            // Signed out elsewhere: from now on the session is memory only.
            forgetSession()
            store.forget()
            try change(&vault)
            return
        }
        absorb(image)
    }

    /// `require_unlocked`, the gate a host asks before every sensitive
    /// action: without a store it is one of the hot calls
    /// (`gateWithoutStore`); with one, the store is looked at first.
    @inline(__always)
    func requireUnlocked() -> CallResult {
        guard store == nil else { return requireUnlockedWithStore() }
        return gateWithoutStore()
    }

    @inline(never)
    private func requireUnlockedWithStore() -> CallResult {
        transact { now throws(IdleLockError) in
            rules.check(now: now)
            try refreshFromStore()
            try requireOpen()
        }
    }

    /// `require_recent_auth` (1.2): the gate, and the last successful
    /// authentication at most `maxAge` ms old (validated by the caller).
    func requireRecentAuth(maxAge: Int64) -> CallResult {
        transact { now throws(IdleLockError) in
            rules.check(now: now)
            if store != nil { try refreshFromStore() }
            guard rules.engaged else {
                throw IdleLockError(.noPasscode, "no passcode is set, so there is nothing to re-authenticate with; set one with idlelock_set_passcode")
            }
            try requireOpen()
            guard rules.authenticated(within: maxAge, now: now) else {
                throw IdleLockError(.reauthRequired, "the last authentication is older than max_age_ms (or there was none on this handle); ask for the passcode or the biometric check again, then repeat the check")
            }
        }
    }

    // MARK: - Sign-out

    /// `disable` (the header's "The store"): works in every state. Memory first, then the store
    /// is deleted (a failure there is STORAGE; this process is signed out
    /// either way).
    func disable() -> CallResult {
        var shortcutWasOn = false
        let result = transact { now throws(IdleLockError) in
            rules.check(now: now)
            shortcutWasOn = bioWrap != nil
            forgetSession()
            if let store {
                do throws(IdleLockError) {
                    try store.remove()
                } catch {
                    throw error.leading(to: .storeNotDeleted)
                }
            }
        }
        if shortcutWasOn { return deletingSecret(after: result) }
        return result
    }
}
