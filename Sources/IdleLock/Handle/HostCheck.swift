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
// call's first transaction, `closeHostCheck` in its last one, and
// `hostCheckCall` runs both around the host's part.

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
    /// activity while the session is unlocked.
    func closeHostCheck(_ check: HostCheck, now: Int64,
                        _ apply: () throws(IdleLockError) -> Void) throws(IdleLockError) {
        rules.check(now: now)
        defer { rules.closePrompt(check.prompt, now: now) }
        try apply()
    }

    /// A call around one host check, in two transactions (each with its own
    /// clock reading; `out`, when given, gets the state when the call
    /// returns): `begin` runs under the mutex after judging, makes the
    /// call's own checks and returns what the host part needs (throwing
    /// ends the call there, with no check opened); `host` runs with no lock
    /// held; `finish` applies the host's answer inside `closeHostCheck`, at
    /// that transaction's reading.
    func hostCheckCall<Started>(into out: UnsafeMutablePointer<Snapshot>? = nil,
                                begin: (Int64) throws(IdleLockError) -> Started,
                                host: (Started) -> Void,
                                finish: (Started, Int64) throws(IdleLockError) -> Void) -> CallResult {
        var started: Started? = nil
        var check: HostCheck? = nil
        let first = transact(into: out) { now throws(IdleLockError) in
            rules.check(now: now)
            started = try begin(now)
            check = openHostCheck(now: now)
        }
        guard first.error == nil, let started, let check else { return first }
        host(started)
        return transact(into: out) { now throws(IdleLockError) in
            try closeHostCheck(check, now: now) { () throws(IdleLockError) in try finish(started, now) }
        }
    }
}
