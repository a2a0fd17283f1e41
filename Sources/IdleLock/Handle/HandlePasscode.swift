// SPDX-License-Identifier: MIT
// The header's "Passcode" on the handle: set_passcode and unlock. Each runs in two
// transactions around the key derivation, which runs with the mutex
// released; the second reads the clock afresh and judges first, as every
// call does, so what the call reports is the state when it returns. With a
// store, the raised count and the delay it would start are saved before
// the passcode is checked, and the reset after a right one is saved before
// the unlock commits; a step that cannot be saved is refused (fail closed).

import CSystem
import CIdleLockSupport

extension IdleLockHandle {
    static let noPasscode = IdleLockError(.noPasscode, "no passcode is set; set one with idlelock_set_passcode")
    static let lockedOut = IdleLockError(.lockedOut, "too many wrong passcodes: the session is locked out; only idlelock_disable (sign-out) leaves this state")
    static let sessionLocked = IdleLockError(.sessionLocked, "the session is locked; unlock it first")
    static let signedOutElsewhere = IdleLockError(.storage, "another process signed out (the store is gone), and so is this session: drop the host's own session data; idlelock_set_passcode again signs in anew")

    static func retryLater(_ wait: Int64) -> IdleLockError {
        IdleLockError(.retryLater, "too many wrong passcodes for now: try again in ", wait, " ms (the attempt was not counted)")
    }

    /// `set_passcode`; `passcode` is already validated.
    func setPasscode(_ passcode: UnsafeRawBufferPointer) -> CallResult {
        defer { ilk_scrub_vector_registers() } // no passcode or key fragment left in them
        var ticket: AttemptTicket? = nil
        var keyCopy: SecureBytes? = nil
        let first = transact { now throws(IdleLockError) in
            rules.check(now: now)
            let wasEngaged = rules.engaged
            try refreshFromStore()
            // A sign-out elsewhere, seen now: this session follows it, and
            // the call that was to replace its passcode does not quietly
            // start a new sign-in (the host must drop its own session data
            // first; a locked session never comes out of it unlocked).
            if wasEngaged && !rules.engaged { throw IdleLockHandle.signedOutElsewhere }
            guard rules.state == .unlocked else {
                throw IdleLockError(.sessionLocked, "the session is locked; a locked session cannot replace its own passcode: unlock it first")
            }
            guard rules.handsOut else { throw closedError() }
            keyCopy = try copySessionKey()
            ticket = AttemptTicket(epoch: rules.lockEpoch, generation: rules.passcodeGeneration)
        }
        guard first.error == nil, let ticket, let keyCopy else { return first }

        var sealed: PasscodeWrap? = nil
        var deviceWrap: KeyWrap? = nil
        var sealFailure: IdleLockError? = nil
        do {
            sealed = try PasscodeWrap.seal(sessionKey: keyCopy, passcode: passcode,
                                           opslimit: config.kdfOpslimit, memlimit: config.kdfMemlimit,
                                           deviceKey: deviceKey)
            deviceWrap = try store?.sealDeviceWrap(keyCopy)
        } catch {
            sealFailure = error
        }
        keyCopy.wipe()

        var shortcutTurnedOff = false
        let result = transact { now throws(IdleLockError) in
            rules.check(now: now)
            if let sealFailure { throw sealFailure }
            guard let sealed else { throw IdleLockError(.internal, "the passcode wrap is missing") }
            guard rules.state == .unlocked, ticket.epoch == rules.lockEpoch,
                  ticket.generation == rules.passcodeGeneration else {
                throw IdleLockError(.sessionLocked, "the session was locked, signed out, or given another passcode while this passcode was being set; nothing changed")
            }
            if let store {
                try savePasscode(sealed, deviceWrap: deviceWrap, now: now, store: store)
                noteSavedActivity(now)
            }
            // What the store now holds: no saved lock, as the state here.
            savedEpoch = rules.lockEpoch
            wrap = sealed
            // The new passcode is activity before its requests are voided:
            // an idle lock a voided prompt deferred is judged from it. A lock
            // after this point is a new one, saved by the transaction.
            rules.passcodeSet(now: now, maxAttempts: config.maxAttempts)
            shortcutTurnedOff = bioWrap != nil
            bioWrap = nil
            voidBiometricRequests()
        }
        // A new passcode turns the shortcut off: the host's item goes too.
        if shortcutTurnedOff { return deletingSecret(after: result) }
        return result
    }

    /// Writes a new passcode in one replace: the first one creates the
    /// store with the secrets held in memory; a later one re-wraps the same
    /// session key in this sign-in's store.
    private func savePasscode(_ sealed: PasscodeWrap, deviceWrap: KeyWrap?, now: Int64,
                              store: SessionStore) throws(IdleLockError) {
        let limit = config.maxAttempts
        let stamp = bootID
        if rules.engaged {
            let written = try updateAsSeen({ () throws(IdleLockError) in
                guard rules.state == .unlocked else {
                    throw IdleLockError(.sessionLocked, "the session was locked (another process locked it out?) while this passcode was being set; nothing changed")
                }
            }) { (image: inout StoreImage) throws(IdleLockError) -> Bool in
                guard store.isOurs(image) else {
                    throw IdleLockError(.storage, "another process signed in with its own passcode meanwhile; nothing changed")
                }
                image.passcode = sealed
                image.deviceWrap = deviceWrap
                image.biometricWrap = nil
                image.maxAttempts = limit
                image.recordOpened(at: now, boot: stamp)
                image.passcodeEnteredAt = now // typed: an entry for the policies
                image.passcodeBootID = stamp
                image.biometricUses = 0
                return true
            }
            guard let written else {
                forgetSession()
                store.forget()
                throw IdleLockHandle.signedOutElsewhere
            }
            store.remember(written)
            vault.records = written.secrets
        } else {
            var sessionID = [UInt8](repeating: 0, count: StoreFormat.sessionIDBytes)
            sessionID.withUnsafeMutableBytes { randombytes_buf($0.baseAddress!, $0.count) }
            var image = StoreImage(maxAttempts: limit, savedActivity: now, bootID: stamp,
                                   sessionID: sessionID, passcode: sealed, deviceWrap: deviceWrap,
                                   secrets: vault.records)
            image.passcodeEnteredAt = now
            image.passcodeBootID = stamp
            _ = try store.create(image)
        }
    }

    /// `unlock`; `passcode` is already validated. The snapshot goes into
    /// `out` (written by each half: the second one's is the call's).
    func unlock(_ passcode: UnsafeRawBufferPointer, into out: UnsafeMutablePointer<Snapshot>? = nil) -> CallResult {
        defer { ilk_scrub_vector_registers() } // no passcode or key fragment left in them
        let myTurn = takeAttemptTurn()
        var entryNow: Int64 = 0
        var stepsAtEntry: UInt32 = 0
        var ticket: AttemptTicket? = nil
        var counted: PasscodeWrap? = nil
        // Holding the turn, this half delivers only its own changes (the
        // count, heard before the check runs), not other threads' for as long
        // as they keep coming: every other unlock waits for the turn. Its
        // snapshot in `out` is replaced by the second half's.
        let first = transact(into: out, ownChangesOnly: myTurn) { now throws(IdleLockError) in
            entryNow = now
            rules.check(now: now)
            stepsAtEntry = rules.clockSteps
            try refreshFromStore()
            guard rules.engaged, let current = wrap else { throw IdleLockHandle.noPasscode }
            guard rules.state != .lockedOut else { throw IdleLockHandle.lockedOut }
            ticket = try countAttempt(now: now)
            counted = current
        }
        guard first.error == nil, let ticket, let counted else {
            if myTurn {
                mutex.lock()
                passAttemptTurn()
                mutex.unlock()
                deliverPending(keeping: out)
            }
            return first
        }

        // The attempt is counted (and saved); check it with the mutex released.
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

        // A fresh reading: `out` describes the state when the call returns
        // (the derivation may have taken seconds); the attempt itself is
        // judged at the call's entry (its delay starts there, a right one is
        // last activity there: the header's "Passcode").
        let second = transact(into: out) { now throws(IdleLockError) in
            // Before listeners run: one of them may unlock again.
            if myTurn { passAttemptTurn() }
            rules.check(now: now)
            // A clock step since the entry (during the derivation): the
            // entry's reading is on the clock's old timeline, so the attempt
            // is taken at this one (its delay starts here, a right one's
            // entry and activity are here): never a passcode entry the clock
            // has not reached, nor a delay that waits for the step to pass.
            if rules.clockSteps != stepsAtEntry || now < entryNow { entryNow = now }
            // A check that could not run stays counted (fail closed); one
            // that brought the count to the limit is a lockout, as a wrong
            // passcode would be.
            if let checkFailure {
                let outcome = try finishAttempt(ticket, checked: counted, right: false, now: entryNow)
                if outcome == .lockedOut { throw IdleLockHandle.lockedOut }
                throw checkFailure
            }
            let outcome = try finishAttempt(ticket, checked: counted, right: right, now: entryNow)
            try apply(outcome, key: candidate)
        }
        if myTurn && second.error != nil {
            // A listener of the first half destroyed the handle: the second
            // half did not run, so the turn is passed here.
            mutex.lock()
            if destroyed, let holder = attemptHolder, holder.isCurrent {
                passAttemptTurn()
            }
            mutex.unlock()
        }
        return second
    }

    /// Waits until no other thread's passcode attempt is being checked on
    /// this handle, then holds the turn: attempts are checked one at a time,
    /// so an escalating delay a wrong one starts refuses the next (and one
    /// handle never runs two Argon2id derivations at once). Returns false,
    /// holding nothing, when this thread already holds the turn (a
    /// listener's unlock inside an unlock, which must not wait for itself).
    private func takeAttemptTurn() -> Bool {
        mutex.lock()
        defer { mutex.unlock() }
        while let holder = attemptHolder {
            if holder.isCurrent { return false }
            mutex.wait()
        }
        attemptHolder = PlatformThread.current()
        return true
    }

    /// With the mutex held: the next attempt may be checked.
    private func passAttemptTurn() {
        attemptHolder = nil
        mutex.broadcast()
    }

    /// With the mutex held: the end of an unlock (by passcode or by the
    /// authenticator). `key` is the opened session key on success.
    func apply(_ outcome: AttemptOutcome, key: SecureBytes?) throws(IdleLockError) {
        switch outcome {
        case .unlocked:
            guard let key else { throw IdleLockError(.internal, "the unwrapped key is missing") }
            sessionKey.copy(from: key.base, count: SessionKeyLayout.total)
            keyLoaded = true
        case .wrong(let remaining):
            throw IdleLockError(.invalidPasscode, "wrong passcode; ", Int64(remaining), " attempt(s) remain before lockout")
        case .lockedOut:
            throw IdleLockHandle.lockedOut
        case .overtaken:
            throw IdleLockError(.sessionLocked, "the check passed, but the session was locked while it ran; unlock again")
        case .void:
            if !rules.engaged { throw IdleLockHandle.noPasscode }
            throw IdleLockError(.sessionLocked, "the passcode was replaced while this attempt was checked; the attempt is void, try again")
        case .passcodeRequired(let demand):
            throw IdleLockHandle.passcodeRequired(demand)
        }
    }

    /// Counts an attempt before its check. With a store: under the store
    /// lock, re-read the count; at the limit, lock out unchecked; otherwise
    /// raise it and save it together with the delay a wrong passcode would
    /// then start (header, "The store": a kill during the check skips neither), or
    /// refuse the attempt unchecked.
    private func countAttempt(now: Int64) throws(IdleLockError) -> AttemptTicket {
        guard let store else {
            switch rules.beginAttempt(now: now) {
            case .lockedOut: throw IdleLockHandle.lockedOut
            case .retryLater(let wait): throw IdleLockHandle.retryLater(wait)
            case .check(let t): return t
            }
        }
        var trial = rules
        var start = AttemptStart.lockedOut
        let image: StoreImage?
        do {
            image = try store.update { (image: inout StoreImage) throws(IdleLockError) -> Bool in
                guard store.isOurs(image) else {
                    throw IdleLockError(.sessionLocked, "another process signed in with its own passcode; this session is locked")
                }
                trial.adoptAttempts(failed: image.failedAttempts, max: image.maxAttempts,
                                    lockedOut: image.lockedOut)
                trial.adoptDelay(started: image.retryStarted, period: image.retryPeriod, now: now)
                start = trial.beginAttempt(now: now)
                if case .retryLater = start { return false } // refused, nothing to save
                if trial.retry == nil { image.retryStarted = 0; image.retryPeriod = 0 } // over
                guard case .check = start else {
                    // The count had reached the limit: locked out, saved.
                    let wasSaved = image.lockedOut
                    image.lockedOut = true
                    return !wasSaved
                }
                image.failedAttempts = trial.failedAttempts
                // The delay this count starts if the passcode is wrong, from
                // this attempt's reading; a right one resets it with the
                // count, a wrong one keeps it as saved here.
                if let pending = trial.delayIfWrong(now: now) {
                    image.retryStarted = pending.savedStart
                    image.retryPeriod = pending.period
                }
                return true
            }
        } catch {
            if error.status == .storage && !error.isStoreDamage {
                throw error.leading(to: .attemptRefused)
            }
            throw error
        }
        guard let image else {
            forgetSession()
            store.forget()
            throw IdleLockHandle.noPasscode
        }
        rules = trial
        absorb(image)
        switch start {
        case .lockedOut: throw IdleLockHandle.lockedOut
        case .retryLater(let wait): throw IdleLockHandle.retryLater(wait)
        case .check(let t): return t
        }
    }

    /// Applies a checked attempt. With a store: under the store lock,
    /// re-read (a lockout or a new passcode from another process wins), and
    /// save the count reset (and the unlock) before it takes effect here;
    /// an unlock whose reset cannot be saved is refused.
    func finishAttempt(_ ticket: AttemptTicket, checked: PasscodeWrap, right: Bool,
                       now: Int64, by credential: Credential = .passcode) throws(IdleLockError) -> AttemptOutcome {
        guard let store, rules.engaged else {
            return rules.finishAttempt(ticket, right: right, now: now, by: credential)
        }
        var trial = rules
        var outcome = AttemptOutcome.void
        let stamp = bootID
        // A lock this transaction made before the attempt was applied (its
        // second half judged first) and has not saved yet.
        let lockUnsaved = rules.lockEpoch != savedEpoch
        let image: StoreImage?
        do {
            image = try store.update { (image: inout StoreImage) throws(IdleLockError) -> Bool in
                guard store.isOurs(image) else { return false }
                if image.passcode.salt != checked.salt { trial.passcodeReplacedElsewhere() }
                trial.adoptAttempts(failed: image.failedAttempts, max: image.maxAttempts,
                                    lockedOut: image.lockedOut)
                // The count of biometric unlocks goes on from the store's
                // (another process's unlocks count too).
                trial.adoptPasscodeRecord(enteredAt: image.passcodeEnteredAt, sameBoot: isThisBoot(image.passcodeBootID),
                                          biometricUses: image.biometricUses)
                let wasLockedOut = image.lockedOut
                outcome = trial.finishAttempt(ticket, right: right, now: now, by: credential)
                switch outcome {
                case .unlocked:
                    image.recordOpened(at: now, boot: stamp)
                    switch credential {
                    case .passcode:
                        image.passcodeEnteredAt = now
                        image.passcodeBootID = stamp
                        image.biometricUses = 0
                    case .biometric:
                        image.biometricUses = trial.passcodePolicy.biometricUses
                    }
                    return true
                case .overtaken:
                    image.clearAttempts()
                    return true
                case .lockedOut:
                    // The lockout flag is saved before LOCKED_OUT is returned.
                    image.failedAttempts = image.maxAttempts
                    image.lockedOut = true
                    return !wasLockedOut
                case .wrong:
                    // The raised count is already saved, with the delay it
                    // starts (`countAttempt`); saved again only if another
                    // process changed it meanwhile.
                    guard let delay = trial.retry, delay.started == now else { return false }
                    if image.retryStarted == delay.savedStart && image.retryPeriod == delay.period { return false }
                    image.retryStarted = delay.savedStart
                    image.retryPeriod = delay.period
                    return true
                case .void, .passcodeRequired:
                    return false
                }
            }
        } catch {
            if error.status == .storage && right && !error.isStoreDamage {
                throw error.leading(to: .rightPasscodeNotSaved)
            }
            throw error
        }
        guard let image, store.isOurs(image) else {
            try refreshFromStore()
            return .void
        }
        rules = trial
        // What the update saved: an unlock, or a lockout over a lock that
        // was saved already. A lock still unsaved (one that overtook a
        // right passcode, or that a wrong one then locked out) is saved by
        // the transaction (`saveLockIfNeeded`).
        if outcome == .unlocked || (outcome == .lockedOut && !lockUnsaved) { savedEpoch = rules.lockEpoch }
        absorb(image)
        if outcome == .unlocked { noteSavedActivity(now) }
        // What the re-read took in (another process turned the shortcut off,
        // voiding a request whose prompt deferred a due idle lock) may have
        // locked the session again: the call answers from the state it
        // leaves, as an unlock a lock overtook.
        if outcome == .unlocked && rules.state != .unlocked { return .overtaken }
        return outcome
    }
}
