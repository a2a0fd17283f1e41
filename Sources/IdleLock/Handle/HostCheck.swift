// A host callback that can take a person's time (SPEC §9): the library's
// own `load_secret` call, and `store_secret` while the shortcut is being
// enabled. The host may leave its sheet up for minutes (an Android
// BiometricPrompt does not pause the app), so such a callback runs as a
// prompt the library opens itself, and it ends as one whatever the host
// answered (passed, failed, cancelled, unavailable, a secret that does not
// open the wrap): the clock is read afresh, a clock step is checked and the
// deadlines are judged (the idle rule waits for the prompt only up to
// `prompt_cap_ms`), the call applies the host's answer, and only then is
// the prompt's end activity. A check is one piece: `openHostCheck` in the
// call's first transaction, `closeHostCheck` in its last one. Both ways of
// running the biometric check (the callbacks, and the two-phase pair whose
// host answers later) open and close it through the requests of
// BiometricRequests.swift.

/// A host check in flight: the prompt it runs under.
struct HostCheck {
    let prompt: UInt64
}

extension IdleLockHandle {
    /// With the mutex held, once the call's own checks passed at `now`:
    /// opens the check's prompt (inert on a locked session, SPEC §9).
    func openHostCheck(now: Int64) -> HostCheck {
        HostCheck(prompt: rules.openPrompt(now: now))
    }

    /// With the mutex held, at the reading of the transaction after the
    /// host returned, whatever it answered: the clock step and the
    /// deadlines (as `prompt_end` judges them), then `apply` (the call's own
    /// use of the answer, which may throw), then the prompt's end, which is
    /// activity while the session is unlocked. A damaged store that `apply`
    /// meets locks the session before the end (SPEC §7: the session locks
    /// where the damage is seen), so the end of such a check is no activity.
    func closeHostCheck(_ check: HostCheck, now: Int64,
                        _ apply: () throws(IdleLockError) -> Void) throws(IdleLockError) {
        rules.check(now: now)
        do throws(IdleLockError) {
            try apply()
        } catch {
            if error.isStoreDamage { rules.storeDamaged() }
            rules.closePrompt(check.prompt, now: now)
            throw error
        }
        rules.closePrompt(check.prompt, now: now)
    }
}
