// SPDX-License-Identifier: MIT
// The handle and its store (header, "The store"; docs/STORE.md): adopting
// a stored session, the re-check of other processes' changes, and saving
// every lock.
// Every method here runs with the handle's mutex held.

import CSystem

extension IdleLockHandle {
    /// Takes on the session in `image`: its passcode wrap, secrets and
    /// count, and at create its saved lock. The session key is opened
    /// through the device wrap when there is a device key; otherwise it
    /// stays sealed and the session is locked (STARTUP) until an unlock.
    /// A different sign-in found later (not at create) replaces this
    /// process's session as a sign-out would, and is locked.
    func adoptSession(_ image: StoreImage, atCreate: Bool) {
        if !atCreate { forgetSession() }
        vault.records = image.secrets
        wrap = image.passcode
        bioWrap = image.biometricWrap
        var opened = store?.openDeviceWrap(image.deviceWrap, into: sessionKey) ?? false
        if opened {
            do throws(IdleLockError) { try SecretVault.deriveIdKey(in: sessionKey) } catch { opened = false }
        }
        if opened {
            keyLoaded = true
        } else {
            sessionKey.wipe()
            keyLoaded = false
        }
        rules.adoptStoredSession(savedLock: atCreate ? image.savedLock : .startup,
                                 keyAvailable: opened && atCreate, atCreate: atCreate)
        // At create no attempt of this process is in flight: a count at the
        // limit is a lockout (a kill during the last check refunds nothing).
        rules.adoptAttempts(failed: image.failedAttempts, max: image.maxAttempts,
                            lockedOut: image.lockedOut || image.failedAttempts >= image.maxAttempts)
        if atCreate {
            rules.adoptDelay(started: image.retryStarted, period: image.retryPeriod, now: rules.lastActivity)
        }
        restart = RestartInfo(savedActivity: image.savedActivity, sameBoot: isThisBoot(image.bootID))
        adoptPasscodeRecord(image)
        savedEpoch = rules.lockEpoch
        store?.remember(image)
    }

    /// The passcode policies' state as the store holds it (another process
    /// may have entered the passcode or used the shortcut).
    func adoptPasscodeRecord(_ image: StoreImage) {
        rules.adoptPasscodeRecord(enteredAt: image.passcodeEnteredAt, sameBoot: isThisBoot(image.passcodeBootID),
                                  biometricUses: image.biometricUses)
    }

    /// This process saved `activity` to the store (unlock, set_passcode, a
    /// lock): a later first `start` judges the time since this one.
    func noteSavedActivity(_ activity: Int64) {
        guard restart != nil else { return }
        restart = RestartInfo(savedActivity: activity, sameBoot: isThisBoot(bootID))
    }

    /// Whether `stamp` is this boot's id (an unreadable id never matches).
    func isThisBoot(_ stamp: [UInt8]) -> Bool {
        BootID.matches(stamp, bootID)
    }

    /// Sign-out in memory: secrets, wrap and count forgotten, a fresh
    /// session key, not engaged.
    func forgetSession() {
        voidBiometricRequests()
        rules.disengage()
        wrap = nil
        bioWrap = nil
        vault.removeAll()
        restart = nil
        keyLoaded = false
        sessionKey.randomize()
        do throws(IdleLockError) {
            try SecretVault.deriveIdKey(in: sessionKey)
            keyLoaded = true
        } catch {
            sessionKey.wipe()
        }
    }

    /// Header, "The store": calls that authenticate or touch secrets first
    /// look at the store's generation and re-read it when another process
    /// changed it. A lockout there is a lockout here; a store that is absent
    /// was signed out elsewhere; another sign-in's store replaces this
    /// session. A store that is present but damaged, or an older copy of
    /// this sign-in, throws STORAGE (damage), and the transaction locks the
    /// session (`IdleLockHandle.transact`).
    func refreshFromStore() throws(IdleLockError) {
        guard let store else { return }
        switch try store.look() {
        case .unchanged:
            return
        case .gone:
            if rules.engaged { forgetSession() }
            store.forget()
        case .changed(let image):
            guard rules.engaged, store.isOurs(image) else {
                adoptSession(image, atCreate: false)
                return
            }
            absorb(image)
        }
    }

    /// A durable step that applies only to the store as this handle last
    /// took it in: when another process changed this sign-in's store since
    /// (found under the store lock), nothing is written; the change is taken
    /// in first (`absorb`: a lockout, a shortcut turned off, which voids the
    /// requests whose prompts deferred a due idle lock and so may lock the
    /// session), `stillAllowed` is asked again against the state that
    /// leaves (it throws when the call may no longer go ahead), and the step
    /// is tried again. So a step that needs the session unlocked never
    /// writes while the call leaves it locked. Returns what `update`
    /// returns (nil: the store is gone).
    func updateAsSeen(_ stillAllowed: () throws(IdleLockError) -> Void,
                      _ apply: (inout StoreImage) throws(IdleLockError) -> Bool) throws(IdleLockError) -> StoreImage? {
        guard let store else { return nil }
        for _ in 0..<IdleLockHandle.updateAsSeenTries {
            var changedSince = false
            let image = try store.update { (image: inout StoreImage) throws(IdleLockError) -> Bool in
                if store.isOurs(image) && image.generation != store.knownGeneration {
                    changedSince = true
                    return false
                }
                return try apply(&image)
            }
            guard let image, changedSince else { return image }
            absorb(image)
            try stillAllowed()
        }
        throw IdleLockError(.storage, "another process kept writing the store while this call tried to; nothing changed; try again")
    }

    /// How many times `updateAsSeen` takes in another process's change
    /// before it gives up.
    static let updateAsSeenTries = 4

    /// Takes on what other processes changed in this sign-in's store: a new
    /// passcode (attempts against the old one are void), the secrets, the
    /// count and limit (a lockout there is a lockout here). Every image a
    /// durable step re-read goes through here.
    func absorb(_ image: StoreImage) {
        guard let store, store.isOurs(image) else { return }
        store.remember(image)
        if wrap?.salt != image.passcode.salt {
            wrap = image.passcode
            rules.passcodeReplacedElsewhere()
            voidBiometricRequests()
        }
        bioWrap = image.biometricWrap
        vault.records = image.secrets
        rules.adoptAttempts(failed: image.failedAttempts, max: image.maxAttempts, lockedOut: image.lockedOut)
        adoptPasscodeRecord(image)
    }

    /// A lock takes effect in memory first; saving it is best effort
    /// (header, "The store"). Returns STORAGE when the save failed (the
    /// state stays locked either way). A clock step this handle saw is told
    /// to the store in the same step: the passcode entry the store records
    /// in this boot is marked unknown there (`PasscodePolicy.unknownEntry`),
    /// whatever this handle remembers of it (another process may have
    /// renewed it since this handle last looked), so that no other process,
    /// and no later one, judges the passcode's age on a reading this handle
    /// knows is off. That part is silent on its own (the handle distrusts
    /// the entry it found in memory either way), and when the store cannot
    /// be written (its lock held past the wait, a full disk) the step stays
    /// to be told, at every later call until a write succeeds: dropped, a
    /// process started afterwards took the entry as known. A step
    /// leaves an engaged session locked at the end of its transaction (it
    /// locks an unlocked one; a passcode unlock after it in the same call is
    /// a new entry, which replaces the one it told of; a biometric unlock
    /// cannot follow it in the same call, since a step expires every request
    /// begun before it), so an unlocked session (the hot path) pays one
    /// comparison here, as before.
    func saveLockIfNeeded() -> IdleLockError? {
        // An unlocked session (the hot path) has no lock to save, and a step
        // it saw would have locked it unless it is not engaged.
        guard let store, rules.state != .unlocked || rules.passcodePolicy.stepUntold else { return nil }
        let lockDue = rules.engaged && rules.state != .unlocked && rules.lockEpoch != savedEpoch
        let stepUntold = rules.passcodePolicy.stepUntold
        guard lockDue || stepUntold else { return nil }
        savedEpoch = rules.lockEpoch
        let reason = rules.reason
        let activity = rules.lastActivity
        let stamp = bootID
        do throws(IdleLockError) {
            let image = try store.update { (image: inout StoreImage) throws(IdleLockError) -> Bool in
                let ours = store.isOurs(image)
                var changed = false
                if lockDue && ours {
                    image.savedLock = reason
                    image.savedActivity = activity
                    image.bootID = stamp
                    changed = true
                }
                // Whichever sign-in the store holds (this handle may not be
                // engaged, or be another sign-in's): its entry was recorded
                // on the clock's old timeline too.
                if stepUntold, image.passcodeEnteredAt != PasscodePolicy.unknownEntry,
                   isThisBoot(image.passcodeBootID) {
                    rules.distrustStoreEntry(image.passcodeEnteredAt)
                    image.passcodeEnteredAt = PasscodePolicy.unknownEntry
                    changed = true
                }
                return changed
            }
            if stepUntold { rules.clockStepTold() }
            if let image {
                absorb(image)
                if lockDue { noteSavedActivity(activity) }
            }
            return nil
        } catch {
            guard lockDue else { return nil }
            return error.leading(to: .lockNotSaved)
        }
    }
}
