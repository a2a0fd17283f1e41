// SPDX-License-Identifier: MIT
// A host callback that can take a person's time (header, "Prompts the app
// opens itself"): the library's own `load_secret` call, `store_secret`
// while the shortcut is being enabled, and a request of the two-phase
// pair. The host may leave its sheet up for minutes (an Android
// BiometricPrompt does not pause the app), so such a check runs as a
// prompt the library opens itself, and it ends as one whatever the host
// answered (passed, failed, cancelled, unavailable, a secret that does not
// open the wrap): the clock is read afresh, a clock step is checked and the
// deadlines are judged (the idle rule waits for the prompt only up to
// `prompt_cap_ms`), the call applies the host's answer, and only then is
// the prompt's end activity. A check lives `prompt_cap_ms` from its
// opening (its life): one that has expired by its end counts for nothing,
// its end included, which is then no activity (a late answer to a stale
// sheet is no sign of a person). A check is one piece: `openHostCheck` in
// the call's first transaction, `closeHostCheck` in its last one. Both
// ways of running the biometric check (the callbacks, and the two-phase
// pair whose host answers later) open and close it through the requests of
// BiometricRequests.swift.

/// A host check in flight: the prompt it runs under, and what its life is
/// measured from.
struct HostCheck {
    let prompt: UInt64
    /// The reading it was opened at.
    let openedAt: Int64
    /// `rules.clockSteps` when it was opened: a step since expires it.
    let clockSteps: UInt32
}

extension IdleLockHandle {
    /// With the mutex held, once the call's own checks passed at `now`:
    /// opens the check's prompt (inert on a locked session, header
    /// "Prompts the app opens itself").
    func openHostCheck(now: Int64) -> HostCheck {
        HostCheck(prompt: rules.openPrompt(now: now), openedAt: now, clockSteps: rules.clockSteps)
    }

    /// The one definition of "expired" (header, "Requests"), for a check's
    /// end and for the table of open requests alike, at a reading `now` the
    /// call has judged (its clock step counted): `prompt_cap_ms` has passed
    /// since the check opened, or the clock reads earlier than its opening
    /// or has stepped back since, seen by any call of the handle. A step
    /// forward is time passing: it ages the check by the step.
    func hostCheckExpired(_ check: HostCheck, at now: Int64) -> Bool {
        rules.requestExpired(openedAt: check.openedAt, steps: check.clockSteps, now: now)
    }

    /// With the mutex held, at the reading of the transaction after the
    /// host returned, whatever it answered: the clock step and the
    /// deadlines (as `prompt_end` judges them), then `apply` (the call's own
    /// use of the answer, which may throw; told whether the check has
    /// expired), then the prompt's end, which is activity while the session
    /// is unlocked. An expired check's prompt goes without an end (no
    /// activity, no grace window). A damaged store that `apply` meets locks
    /// the session before the end (the header's "The store": the session
    /// locks where the damage is seen), so the end of such a check is no
    /// activity.
    func closeHostCheck(_ check: HostCheck, now: Int64,
                        _ apply: (_ expired: Bool) throws(IdleLockError) -> Void) throws(IdleLockError) {
        rules.check(now: now)
        let expired = hostCheckExpired(check, at: now)
        do throws(IdleLockError) {
            try apply(expired)
        } catch {
            if error.isStoreDamage { rules.storeDamaged() }
            endHostCheck(check, now: now, expired: expired)
            throw error
        }
        endHostCheck(check, now: now, expired: expired)
    }

    private func endHostCheck(_ check: HostCheck, now: Int64, expired: Bool) {
        if expired {
            rules.discardPrompt(check.prompt)
        } else {
            rules.closePrompt(check.prompt, now: now)
        }
    }
}
