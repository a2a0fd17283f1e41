// SPDX-License-Identifier: MIT
// What the decision rules (LockRules.swift) report at a clock reading,
// changing nothing: the time until the idle lock and the warning, the next
// deadline (header, snapshot.ms_until_next_deadline), whether a passcode
// policy refuses the shortcut, the step-up check, a request's life.

extension LockRules {
    /// Time until the idle deadline: 0 when due, `never` when the idle
    /// timeout is `never`, the session is locked, or not engaged.
    @inline(always)
    func msUntilIdleLock(now: Int64) -> Int64 {
        guard engaged, state == .unlocked, timeouts.idle != Millis.never else { return Millis.never }
        let idleFor = Millis.elapsed(from: lastActivity, to: now)
        if idleFor >= timeouts.idle { return 0 }
        // Activity later than `now` (another thread's touch during a key
        // derivation, judged at the call's entry): never report more than
        // a whole timeout.
        if idleFor <= 0 { return timeouts.idle }
        return timeouts.idle - idleFor
    }

    /// The times a snapshot reports and the warning, each computed once:
    /// the time until the idle lock, whether a prompt shields the session
    /// and the delay left are each read once and shared by the fields that
    /// depend on them (as `isWarning`, `msUntilWarning` and
    /// `msUntilNextDeadline` each compute them alone). Inlined into the one
    /// function that writes a snapshot (IdleLockHandle.swift), which reads
    /// the rules in place. `judgedNow`: the caller's transaction judged at
    /// `now` (`begin`), so nothing is due at this reading (false: the rules
    /// look it up). Changes nothing (`mutating` for
    /// `msUntilNextDeadlineInFull`).
    @inline(always)
    mutating func report(now: Int64, judgedNow: Bool = false) -> RulesReport {
        let untilIdle = msUntilIdleLock(now: now)
        // Only the warning asks whether a prompt shields the session.
        let shielded = timeouts.warnBefore > 0 && shield.isActive(now: now)
        let retryLeft = msUntilRetry(now: now)
        return RulesReport(msUntilIdleLock: untilIdle,
                           isWarning: isWarning(untilIdle: untilIdle, shielded: shielded),
                           msUntilWarning: msUntilWarning(untilIdle: untilIdle, shielded: shielded, now: now),
                           msUntilRetry: retryLeft,
                           msUntilNextDeadline: msUntilNextDeadline(now: now, retryLeft: retryLeft,
                                                                    judgedNow: judgedNow))
    }

    /// A policy refuses the biometric shortcut at `now`: the lock screen
    /// shows the passcode field only. One comparison (the policy keeps the
    /// moment it starts): every call asks it.
    @inline(always)
    func isPasscodeRequired(now: Int64) -> Bool {
        engaged && passcodePolicy.requiresPasscode(now: now)
    }

    /// The policy that refuses the biometric shortcut at `now`, if any.
    func passcodeDemand(now: Int64) -> PasscodeDemand? {
        engaged ? passcodePolicy.demand(now: now) : nil
    }

    /// The step-up check: the last successful authentication is at most
    /// `maxAge` ms old at `now` (a reading earlier than it is no proof).
    func authenticated(within maxAge: Int64, now: Int64) -> Bool {
        let at = lastAuthentication
        guard at != Millis.never, now >= at else { return false }
        return Millis.elapsed(from: at, to: now) <= maxAge
    }

    /// A biometric request opened at `openedAt` (a prompt), when this
    /// handle had seen `steps` clock steps, has expired at `now`:
    /// `prompt_cap_ms` passed since (it defers nothing any more, and its
    /// answer unlocks nothing), or the clock reads earlier than its opening
    /// or stepped since, seen by this call or another (fail closed).
    func requestExpired(openedAt: Int64, steps: UInt32, now: Int64) -> Bool {
        now < openedAt || steps != clockSteps
            || Millis.hasPassed(Millis.elapsed(from: openedAt, to: now), timeouts.promptCap)
    }

    /// Within `warn_before_ms` of the idle deadline (header,
    /// config.warn_before_ms): the host can save a draft or ask "still
    /// there?". Activity ends it.
    @inline(always)
    func isWarning(now: Int64) -> Bool {
        guard timeouts.warnBefore > 0 else { return false }
        return isWarning(untilIdle: msUntilIdleLock(now: now), shielded: shield.isActive(now: now))
    }

    @inline(always)
    private func isWarning(untilIdle left: Int64, shielded: Bool) -> Bool {
        timeouts.warnBefore > 0 && !shielded && left != Millis.never && left <= timeouts.warnBefore
    }

    /// Time until the warning window opens: 0 when open, `never` when there
    /// is no warning (off, no idle deadline, locked, not engaged).
    @inline(always)
    func msUntilWarning(now: Int64) -> Int64 {
        guard timeouts.warnBefore > 0 else { return Millis.never }
        return msUntilWarning(untilIdle: msUntilIdleLock(now: now), shielded: shield.isActive(now: now), now: now)
    }

    @inline(always)
    private func msUntilWarning(untilIdle left: Int64, shielded: Bool, now: Int64) -> Int64 {
        guard timeouts.warnBefore > 0, left != Millis.never else { return Millis.never }
        if shielded, let untilCap = shield.msUntilCap(now: now) {
            // A prompt defers the idle rule: no warning before its cap.
            return Swift.max(1, Swift.max(untilCap, left - timeouts.warnBefore))
        }
        return left <= timeouts.warnBefore ? 0 : left - timeouts.warnBefore
    }

    /// Time until the earliest moment anything can change (header,
    /// snapshot.ms_until_next_deadline), so a
    /// host timer wakes exactly then instead of polling: 0 when a `check`
    /// now would change the state or the warning, `never` when nothing is
    /// due. It may wake a host early (then it re-reads this), never late.
    /// (For the watcher and the tests: it reads a copy of the rules. The
    /// calls that write a snapshot read them in place, `report`.)
    func msUntilNextDeadline(now: Int64) -> Int64 {
        var rules = self
        return rules.msUntilNextDeadlineInFull(now: now, retryLeft: msUntilRetry(now: now))
    }

    /// `msUntilNextDeadline` with the delay left at `now` already read.
    /// What nearly every call of an app in use finds (engaged and
    /// unlocked, judged at this reading, no prompt open or covering an
    /// absence, no delay running, no policy moment ahead) is computed
    /// inline: then only the idle deadline, the warning's start and, while
    /// away, the end of the grace window and the absence's timeout can lie
    /// ahead. Everything else is `msUntilNextDeadlineInFull`'s, out of line.
    @inline(always)
    private mutating func msUntilNextDeadline(now: Int64, retryLeft: Int64, judgedNow: Bool) -> Int64 {
        guard engaged, state == .unlocked, judgedNow || judgedAt == now, retryLeft == 0, shield.earliestLive == nil,
              !absenceCovered, passcodePolicy.requiredFrom == Int64.max else {
            return msUntilNextDeadlineInFull(now: now, retryLeft: retryLeft)
        }
        var next = idleMoments(now: now)
        if let departed = departure { next = Swift.min(next, absenceMoments(departed, now: now)) }
        return next == Int64.max ? Millis.never : Millis.elapsed(from: now, to: next)
    }

    /// While away since `departed`: the earliest of the end of the grace
    /// window and the absence's timeout that is later than `now`, or
    /// Int64.max.
    @inline(always)
    private func absenceMoments(_ departed: Int64, now: Int64) -> Int64 {
        var next = Int64.max
        let graceEnd = Millis.add(departed, Millis.add(timeouts.grace, 1))
        if graceEnd > now { next = graceEnd }
        // A NEVER timeout never passes: no moment (from a departure below
        // 0, adding it would not even saturate).
        let absence = absenceTimeout(reachedBackground: reachedBackground)
        if absence != Millis.never {
            let timeout = Millis.add(departed, absence)
            if timeout > now { next = Swift.min(next, timeout) }
        }
        return next
    }

    /// The earliest of the idle deadline and the warning's start that is
    /// later than `now`, or Int64.max (engaged and unlocked).
    @inline(always)
    private func idleMoments(now: Int64) -> Int64 {
        var next = Int64.max
        if timeouts.idle != Millis.never {
            let deadline = Millis.add(lastActivity, timeouts.idle)
            if deadline > now { next = deadline }
            // warn < idle: the window's start from the last activity cannot
            // overflow before the final saturating add.
            if timeouts.warnBefore > 0 {
                let opens = Millis.add(lastActivity, timeouts.idle - timeouts.warnBefore)
                if opens > now { next = Swift.min(next, opens) }
            }
        }
        return next
    }

    /// Changes nothing: `mutating` only so that it is passed the rules in
    /// place (a call of an out-of-line non-mutating method on the rules,
    /// stored in the handle, is passed a copy of all of them: about 300
    /// bytes and two retains, BENCHMARKS.md "Profile").
    @inline(never)
    private mutating func msUntilNextDeadlineInFull(now: Int64, retryLeft: Int64) -> Int64 {
        let retryEnd: Int64? = retryLeft > 0 ? Millis.add(now, retryLeft) : nil
        guard engaged, state == .unlocked else {
            // Locked: only the end of an escalating delay and the moment a
            // passcode policy starts to ask for the passcode (the lock
            // screen changes then) are ahead (a moment at or past INT64_MAX
            // never comes: the clock stops there).
            var soonest = retryEnd ?? Millis.never
            let policyMoment = passcodePolicy.requiredFrom
            if engaged && policyMoment > now { soonest = Swift.min(soonest, policyMoment) }
            if soonest != Millis.never { return Millis.elapsed(from: now, to: soonest) }
            return Millis.never
        }
        if judgedAt != now && pendingLock(now: now) != nil { return 0 }
        var next = idleMoments(now: now)
        func consider(_ moment: Int64?) {
            if let moment, moment > now { next = Swift.min(next, moment) }
        }
        consider(shield.capDeadline())
        consider(retryEnd)
        consider(passcodePolicy.requiredFrom) // Int64.max (never, or the last reading) lists nothing
        if let departed = departure {
            next = Swift.min(next, absenceMoments(departed, now: now))
            // The end of a prompt's cover, for an absence that began under it.
            if absenceCovered, let end = shield.lastEnd { consider(Millis.add(end, Millis.add(timeouts.grace, 1))) }
        }
        return next == Int64.max ? Millis.never : Millis.elapsed(from: now, to: next)
    }
}
