// SPDX-License-Identifier: MIT
// The decision rules (header, "Events and the decision rules" and
// "Passcode"; docs/RULES.md) as a value type: no clock, no lock, no
// I/O. Every method takes the clock reading of the call and moves the state;
// the handle (IdleLockHandle.swift) adds the clock, the mutex and the rest.

/// `IDLELOCK_STATE_*`.
enum LockState: Int32 {
    case unlocked = 0
    case locked = 1
    case lockedOut = 2

    /// Compares raw values. The synthesized `==` of a raw-valued enum goes
    /// through the `getEnumTag` builtin, which Embedded Swift's optimizer
    /// takes as having global side effects: every method comparing a state
    /// made its callers copy (and retain) the whole `LockRules` around the
    /// call, the largest cost left on the hot path (BENCHMARKS.md).
    @inline(always)
    static func == (a: LockState, b: LockState) -> Bool { a.rawValue == b.rawValue }
}

/// `IDLELOCK_REASON_*`.
enum LockReason: Int32 {
    case none = 0
    case idle = 1
    case backgrounded = 2
    case startup = 3
    case manual = 4
    case clock = 5

    /// Compares raw values (see `LockState.==`).
    @inline(always)
    static func == (a: LockReason, b: LockReason) -> Bool { a.rawValue == b.rawValue }
}

/// The validated timeouts, in milliseconds (`Millis.never` = no deadline).
struct Timeouts: Equatable {
    /// Idle timeout in the foreground (> 0).
    var idle: Int64
    /// Timeout of an absence that reached the background (>= 0), with
    /// `IDLELOCK_SAME_AS_IDLE` already resolved.
    var background: Int64
    /// Together with `background`, the timeout of an absence that stayed
    /// inactive (>= 0).
    var inactive: Int64
    /// Grace window (0...60000): an absence this short is presence.
    var grace: Int64
    /// `prompt_cap_ms` (0...600000): how long open prompts can defer the
    /// rules, from the earliest one still open.
    var promptCap: Int64 = 120_000
    /// `warn_before_ms` (0 = off): the warning window before the idle lock.
    var warnBefore: Int64 = 0
}

/// A passcode attempt in flight: what must still hold when it finishes.
struct AttemptTicket: Equatable {
    /// `lockEpoch` when the attempt began (header, "Passcode": a lock after the attempt
    /// began wins over its success).
    let epoch: UInt64
    /// `passcodeGeneration` when it began: a replaced or removed passcode
    /// voids the attempt.
    let generation: UInt64
}

/// What a store tells `start` about the session's last run.
struct RestartInfo: Equatable {
    /// Last activity saved by unlock, set_passcode or a lock.
    var savedActivity: Int64
    /// The saved activity was stamped in this boot.
    var sameBoot: Bool
}

/// How a passcode attempt may proceed.
enum AttemptStart: Equatable {
    /// Counted; check the passcode, then call `finishAttempt`.
    case check(AttemptTicket)
    /// Locked out: refused unchecked and uncounted.
    case lockedOut
    /// An escalating delay runs for this many ms: refused unchecked and
    /// uncounted.
    case retryLater(Int64)
}

/// The times a snapshot reports, and the warning, at one reading
/// (`LockRules.report`).
struct RulesReport {
    var msUntilIdleLock: Int64
    var isWarning: Bool
    var msUntilWarning: Int64
    var msUntilRetry: Int64
    var msUntilNextDeadline: Int64
}

/// One step of an escalating-delay schedule (`idlelock_delay_step`).
struct DelayStep: Equatable {
    var failedAttempts: Int32
    var delay: Int64
}

/// The running escalating delay.
struct RetryDelay: Equatable {
    /// When the current period started on this handle's clock, and its
    /// full length. A clock step moves `started` so that the period goes
    /// on from where it was (`carriedOver`).
    var started: Int64
    var period: Int64
    /// The start saved with the store for this period, read on the clock
    /// of the process that started it: it tells this period from another
    /// process's newer one, and is never taken as a time on this handle's
    /// clock (whose origin may differ).
    var savedStart: Int64

    /// A period this handle starts (or first runs, from `savedStart` in
    /// the store) at `started`.
    init(started: Int64, period: Int64, savedStart: Int64? = nil) {
        self.started = started
        self.period = period
        self.savedStart = savedStart ?? started
    }

    /// Time left at `now`, 0...period: counted from the start, not to a
    /// saturated end, so a delay started less than its period before
    /// INT64_MAX still runs in full.
    @inline(always)
    func left(at now: Int64) -> Int64 {
        let left = Millis.elapsed(from: Millis.elapsed(from: started, to: now), to: period)
        return Swift.max(0, Swift.min(left, period))
    }

    /// The period across a clock step from `previous` to `now` (include/
    /// idlelock.h, idlelock_delay_step; docs/RULES.md, "Clock steps"): it
    /// goes on from the landing reading with what it had left at the
    /// previous reading, no more (a step never lengthens it, so a clock
    /// that jitters cannot keep the passcode out) and no less (a step never
    /// forgives any of it). One that had run out stays over.
    func carriedOver(from previous: Int64, to now: Int64) -> RetryDelay {
        var carried = self
        carried.started = Millis.add(now, -(period - left(at: previous)))
        return carried
    }
}

/// What an unlock was made with: the policies (PasscodePolicy.swift) count
/// a biometric unlock, and a passcode entry resets that count.
enum Credential {
    case passcode
    /// The secret the host released after its biometric check.
    case biometric
}

/// The outcome of a checked attempt.
enum AttemptOutcome: Equatable {
    case unlocked
    /// Wrong, with this many attempts left (> 0).
    case wrong(remaining: Int32)
    case lockedOut
    /// Right, but the session was locked while the check ran.
    case overtaken
    /// The passcode was replaced or removed while the check ran.
    case void
    /// A biometric success that a passcode policy refuses at the moment it
    /// would apply (another process's biometric unlocks, read under the
    /// store lock, count too): nothing changed.
    case passcodeRequired(PasscodeDemand)
}

struct LockRules {
    let timeouts: Timeouts
    let lockOnStart: Bool
    /// From the config, then from the store once one governs (header,
    /// "Passcode").
    private(set) var maxAttempts: Int32
    /// The config's `max_attempts`, which governs again after a sign-out.
    let configuredMaxAttempts: Int32

    private(set) var state: LockState = .unlocked
    private(set) var reason: LockReason = .none
    /// A passcode is set.
    private(set) var engaged = false
    /// Clock reading of the last activity; changes only while unlocked.
    private(set) var lastActivity: Int64
    /// When the app first left the foreground; nil when present.
    private(set) var departure: Int64? = nil
    /// Whether the recorded absence reached the background.
    private(set) var reachedBackground = false
    private(set) var started = false
    /// A session found in the store at create, before the first `start`:
    /// nothing of the restart has been judged yet, so the session hands out
    /// nothing (header, "The store"): secrets and the gate answer
    /// SESSION_LOCKED.
    private(set) var awaitingStart = false
    /// The latest clock reading this handle judged at: a reading earlier
    /// than it is a clock step (header, "Events and the decision rules"),
    /// also one that lands after the last activity and the departure.
    private(set) var latestReading: Int64
    /// How many times a reading was earlier than the latest one (wrapping):
    /// a biometric request begun before such a step has expired, whichever
    /// call saw it.
    private(set) var clockSteps: UInt32 = 0
    /// Prompts the app opened itself (header, "Prompts the app opens
    /// itself").
    private(set) var shield: PromptShield
    /// The recorded absence began while a live prompt was open.
    private(set) var absenceCovered = false
    /// Wrong passcodes counted; `maxAttempts` exactly when locked out.
    private(set) var failedAttempts: Int32 = 0
    /// Raised by every lock, lockout and disengage.
    private(set) var lockEpoch: UInt64 = 0
    /// Raised by every new passcode and every disengage.
    private(set) var passcodeGeneration: UInt64 = 0
    /// Escalating delays (header, idlelock_delay_step), strictly increasing
    /// in failed attempts.
    let delaySchedule: [DelayStep]
    /// The delay running after the latest wrong passcode, if any.
    private(set) var retry: RetryDelay? = nil
    /// The passcode policies and the state they judge (1.2).
    private(set) var passcodePolicy: PasscodePolicy
    /// The reading of the last successful authentication on this handle
    /// (an unlock or a re-authentication, by passcode or biometrics);
    /// `never` when there was none, or it is not on this clock's timeline
    /// any more (a clock step) or belongs to a session signed out since.
    private(set) var lastAuthentication: Int64 = Millis.never
    /// The reading the deadlines were last judged at: a check at the same
    /// reading changes nothing (nothing a call does after judging makes a
    /// lock due at that same reading).
    private var judgedAt: Int64? = nil

    init(timeouts: Timeouts, lockOnStart: Bool, maxAttempts: Int32, now: Int64, firstPromptToken: UInt64 = 1,
         delaySchedule: [DelayStep] = [], policy: PasscodePolicySettings = PasscodePolicySettings()) {
        self.timeouts = timeouts
        self.lockOnStart = lockOnStart
        self.maxAttempts = maxAttempts
        self.configuredMaxAttempts = maxAttempts
        self.delaySchedule = delaySchedule
        self.passcodePolicy = PasscodePolicy(policy)
        self.lastActivity = now
        self.latestReading = now
        self.shield = PromptShield(cap: timeouts.promptCap, firstToken: firstPromptToken)
    }

    var isAway: Bool { departure != nil }

    /// Unlocked, and not a stored session still waiting for its first
    /// `start`: secrets and the gate may open.
    var handsOut: Bool { state == .unlocked && !awaitingStart }

    /// `failedAttempts` stays within 0...maxAttempts: the difference
    /// cannot wrap (no overflow check on every call's path).
    var attemptsRemaining: Int32 {
        engaged ? maxAttempts &- failedAttempts : maxAttempts
    }

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

    // MARK: - The first steps of every call that reads the clock

    /// Header, "Events and the decision rules": the clock-step check
    /// against the latest reading, the activity and the departure as they
    /// stood, then judging the deadlines that are due. Inlined into every
    /// call: on a reading that is no step and with nothing due, a few
    /// compares; a step and a lock are out of line.
    @inline(always)
    mutating func begin(now: Int64) {
        checkClockStep(now: now)
        judge(now: now)
        judgedAt = now
    }

    /// A clock step (include/idlelock.h, "Events and the decision rules";
    /// docs/RULES.md, "Clock steps"): a reading earlier than the latest
    /// one this handle judged at, or than its recorded activity or
    /// departure. Every age the handle measures on its clock is unknown
    /// after one, and the strict answer follows: the passcode entry is too
    /// old (until the next entry), the last authentication is forgotten
    /// (step-up asks again), open requests expire, and an engaged, unlocked
    /// session locks (CLOCK). A step never re-opens what an age had closed.
    /// A step is seen once: the clock is judged from where it landed
    /// afterwards (`clockStepped`). A step forward is not seen (it is time
    /// passing as far as any clock reading can tell). Nothing here runs on
    /// a reading that is no step (the hot path).
    @inline(always)
    private mutating func checkClockStep(now: Int64) {
        let previous = latestReading
        // Against the latest reading too: a step back that lands after the
        // last activity and the departure would otherwise extend the
        // session by the step.
        let stepped = now < previous || now < lastActivity || (departure.map { now < $0 } ?? false)
        latestReading = now
        if stepped { clockStepped(now: now, previous: previous) }
    }

    /// What a clock step does (`checkClockStep`): not inlined, so a reading
    /// that is no step (every hot call) runs none of it.
    @inline(never)
    private mutating func clockStepped(now: Int64, previous: Int64) {
        // A new step back (not one already seen and still in effect) ends
        // every biometric request begun before it.
        if now < previous { clockSteps &+= 1 }
        // The delay running at the previous reading goes on with what it
        // had left then.
        if let running = retry { retry = running.carriedOver(from: previous, to: now) }
        // Every age on this clock is unknown now: the passcode entry counts
        // as too old until the next one (and the store is told, whatever
        // this handle remembers of it), and the last authentication is no
        // proof (not only when the clock reads earlier than them: a step
        // that lands after them would make them look younger).
        passcodePolicy.clockStepped()
        lastAuthentication = Millis.never
        if engaged && state == .unlocked { lock(.clock) }
        // Seen once: the recorded activity and departure move to the
        // landing reading (in every state, the locked ones included), so a
        // later reading before the old activity is no new step; one step
        // back must not keep the passcode out for as long as the step.
        lastActivity = now
        if departure != nil { departure = now }
        if !engaged {
            // Before a passcode: the prompts' openings (and so their cap)
            // restart at now too.
            shield.restart(at: now)
        }
    }

    /// `check`: while away past the grace window, the absence's timeout then
    /// the idle timeout; not away, the idle timeout. Within grace, nothing.
    @inline(always)
    private mutating func judge(now: Int64) {
        guard engaged, state == .unlocked else { return }
        if let due = verdict(now: now) { lock(due) }
    }

    /// The lock judging at `now` would take (engaged and unlocked), without
    /// taking it.
    @inline(always)
    private func verdict(now: Int64) -> LockReason? {
        if let departed = departure {
            // An absence under a prompt the app opened is presence.
            if absenceCovered && shield.coversAbsence(now: now, grace: timeouts.grace) { return nil }
            let away = Millis.elapsed(from: departed, to: now)
            if away <= timeouts.grace { return nil }
            if Millis.hasPassed(away, absenceTimeout(reachedBackground: reachedBackground)) {
                return .backgrounded
            }
        }
        return idleTimeoutPassed(now: now) ? .idle : nil
    }

    /// The lock a `check` at `now` would take (a clock step, then judging),
    /// without taking it.
    @inline(always)
    func pendingLock(now: Int64) -> LockReason? {
        guard engaged, state == .unlocked else { return nil }
        if now < latestReading || now < lastActivity || (departure.map { now < $0 } ?? false) { return .clock }
        return verdict(now: now)
    }

    /// The idle rule; it waits while a prompt the app opened is open
    /// (never past the cap). The timeout first: on nearly every call it has
    /// not passed, and the prompts are not looked at.
    @inline(always)
    private func idleTimeoutPassed(now: Int64) -> Bool {
        Millis.hasPassed(Millis.elapsed(from: lastActivity, to: now), timeouts.idle) && !shield.isActive(now: now)
    }

    /// `background_after_ms` for an absence that reached the background;
    /// otherwise the longer of it and `inactive_after_ms` (the app stayed on
    /// screen in the owner's hand).
    @inline(always)
    func absenceTimeout(reachedBackground: Bool) -> Int64 {
        reachedBackground ? timeouts.background : max(timeouts.background, timeouts.inactive)
    }

    @inline(never)
    private mutating func lock(_ why: LockReason) {
        state = .locked
        reason = why
        lockEpoch &+= 1
        shield.makeInert()
        absenceCovered = false // its prompts cover nothing any more
    }

    // MARK: - Events

    /// `check`.
    /// (The hot calls inline `begin` itself; this one copy out of line
    /// serves the others, `lockNow`, `start` and `becomeInactive` too.)
    @inline(never)
    mutating func check(now: Int64) {
        begin(now: now)
    }

    /// The events of the hot path (the handle's `hot`): `touch`, `check`,
    /// `depart` to the background, `foreground`.
    enum Event {
        case touch, check, background, foreground
    }

    /// User activity: nothing while locked; otherwise, if still unlocked
    /// after judging, last activity = now.
    @inline(always)
    mutating func touch(now: Int64) {
        begin(now: now)
        touched(now: now)
    }

    @inline(always)
    private mutating func touched(now: Int64) {
        if state == .unlocked { lastActivity = now }
    }

    /// `inactive` (`toBackground` false) or `background` (true).
    @inline(always)
    mutating func depart(now: Int64, toBackground: Bool) {
        begin(now: now)
        departed(now: now, toBackground: toBackground)
    }

    /// `inactive` (not a hot call): `depart` with `begin` out of line.
    mutating func becomeInactive(now: Int64) {
        check(now: now)
        departed(now: now, toBackground: false)
    }

    @inline(always)
    private mutating func departed(now: Int64, toBackground: Bool) {
        var recordedNow = false
        if departure == nil {
            departure = now
            reachedBackground = false
            absenceCovered = shield.isActive(now: now)
            recordedNow = true
        }
        if toBackground { reachedBackground = true }
        guard engaged, state == .unlocked else { return }
        if recordedNow && idleTimeoutPassed(now: now) {
            lock(.idle)
        } else {
            judge(now: now)
        }
    }

    /// `foreground`: take and clear the departure, then rules 1–5.
    @inline(always)
    mutating func foreground(now: Int64) {
        begin(now: now)
        cameBack(now: now)
    }

    @inline(always)
    private mutating func cameBack(now: Int64) {
        let departed = departure
        let wasBackground = reachedBackground
        let covered = absenceCovered
        departure = nil
        reachedBackground = false
        absenceCovered = false
        guard engaged, state == .unlocked else { return }
        guard let departed else {
            // 1. A stray or first "active" event: the idle timeout only.
            if idleTimeoutPassed(now: now) { lock(.idle) }
            return
        }
        if covered && shield.coversAbsence(now: now, grace: timeouts.grace) {
            // Back from a prompt the app opened: presence.
            lastActivity = now
            return
        }
        let away = Millis.elapsed(from: departed, to: now)
        if away <= timeouts.grace {
            // 2. A round trip through a system prompt.
            lastActivity = now
            return
        }
        if Millis.hasPassed(away, absenceTimeout(reachedBackground: wasBackground)) {
            lock(.backgrounded) // 3.
            return
        }
        if idleTimeoutPassed(now: now) { lock(.idle) } // 4.
        // 5. Otherwise unlocked, last activity unchanged.
    }

    /// "Lock now".
    mutating func lockNow(now: Int64) {
        check(now: now) // `begin`, its one out-of-line copy: not a hot call
        if engaged && state == .unlocked { lock(.manual) }
    }

    /// `start`: the first one applies `lock_on_start`; later ones only judge.
    /// `restart` describes a session adopted from a store (header, "The store"): with
    /// `lock_on_start` off, the time since the last saved activity is
    /// judged as an absence that reached the background.
    mutating func start(now: Int64, restart: RestartInfo? = nil) {
        check(now: now) // `begin`, its one out-of-line copy: not a hot call
        guard !started else { return }
        started = true
        awaitingStart = false
        guard engaged, state == .unlocked else { return }
        if lockOnStart {
            lock(.startup)
            return
        }
        guard let restart else { return }
        guard restart.sameBoot, restart.savedActivity <= now else {
            lock(.startup)
            return
        }
        let away = Millis.elapsed(from: restart.savedActivity, to: now)
        if Millis.hasPassed(away, timeouts.background) {
            lock(.backgrounded) // rule 3
        } else if Millis.hasPassed(away, timeouts.idle) {
            lock(.idle) // rule 4
        }
    }

    // MARK: - Adopting the store

    /// A session found in a store at create (or another sign-in found
    /// later): engaged, with the saved lock in force. `keyAvailable` false
    /// (no device key to open the session key) locks with STARTUP: such a
    /// session is really locked until an unlock. One found at create before
    /// the first `start` hands out nothing until that start.
    mutating func adoptStoredSession(savedLock: LockReason?, keyAvailable: Bool, atCreate: Bool) {
        if atCreate && !started { awaitingStart = true }
        engaged = true
        passcodeGeneration &+= 1
        if state == .unlocked {
            if let savedLock {
                lock(savedLock)
            } else if !keyAvailable {
                lock(.startup)
            }
        }
    }

    /// The attempt count, limit and lockout as the store holds them
    /// (re-read under the store lock). A count at the limit without the
    /// lockout is an attempt still being checked: not yet a lockout (the
    /// next attempt to begin is refused and locks out).
    mutating func adoptAttempts(failed: Int32, max limit: Int32, lockedOut: Bool) {
        maxAttempts = limit
        failedAttempts = Swift.min(Swift.max(failed, 0), limit)
        if lockedOut { lockOut() }
    }

    /// The policies' state as the store keeps it (PasscodePolicy.adopt),
    /// judged against the latest reading of this handle.
    mutating func adoptPasscodeRecord(enteredAt: Int64, sameBoot: Bool, biometricUses: Int32) {
        passcodePolicy.adopt(enteredAt: enteredAt, sameBoot: sameBoot, biometricUses: biometricUses,
                             latest: latestReading)
    }

    /// A clock step is being told to the store (`PasscodePolicy.stepUntold`;
    /// best effort): `entry`, the passcode entry the store recorded in this
    /// boot when it was told, if any, is never trusted here again.
    mutating func clockStepTold(storeEntry entry: Int64?) {
        if let entry { passcodePolicy.distrust(entry) }
        passcodePolicy.stepTold()
    }

    /// The passcode was replaced by another process: attempts against the
    /// old one are void.
    mutating func passcodeReplacedElsewhere() {
        passcodeGeneration &+= 1
    }

    /// The store is present but damaged (header, "The store"): an engaged, unlocked
    /// session locks (STARTUP, as for a store that changed under it); a
    /// locked one stays locked. Never a sign-out.
    mutating func storeDamaged() {
        if engaged && state == .unlocked { lock(.startup) }
    }

    // MARK: - Prompts (header, "Prompts the app opens itself")

    /// Opens a prompt (judge first: the caller ran `check`). A prompt
    /// opened on a locked session is inert.
    mutating func openPrompt(now: Int64) -> UInt64 {
        shield.begin(now: now, inert: state != .unlocked)
    }

    func hasPrompt(_ token: UInt64) -> Bool {
        shield.contains(token)
    }

    /// Removes a prompt without ending it (its request was voided): not
    /// activity, and it leaves no grace window behind. The deadlines are
    /// judged again at the latest reading (the call's own: it judged first):
    /// an idle lock the prompt deferred may be due now, and whatever the
    /// call answers next (a gate, a secret) must answer from the state it
    /// leaves.
    mutating func discardPrompt(_ token: UInt64) {
        shield.discard(token)
        judge(now: latestReading)
    }

    /// Ends an open prompt (the caller checked the token and ran `check`):
    /// it is activity.
    mutating func closePrompt(_ token: UInt64, now: Int64) {
        _ = shield.end(token, now: now)
        if state == .unlocked { lastActivity = now }
    }

    // MARK: - Passcode

    /// A new passcode took effect (the session is unlocked): engaged, count
    /// reset, and the call is activity. `maxAttempts` is the config's, which
    /// the store then keeps.
    mutating func passcodeSet(now: Int64, maxAttempts limit: Int32? = nil) {
        if let limit { maxAttempts = limit }
        engaged = true
        // Typed while unlocked: a passcode entry for the policies (not an
        // authentication: anyone holding the unlocked session can set one).
        passcodePolicy.passcodeEntered(now: now)
        failedAttempts = 0
        retry = nil // the delays follow the count
        passcodeGeneration &+= 1
        if state == .unlocked { lastActivity = now }
    }

    /// Starts a passcode attempt on an engaged session (header, "Passcode"): refused
    /// when locked out (a count already at the limit locks out first);
    /// otherwise counted before the passcode is checked.
    mutating func beginAttempt(now: Int64) -> AttemptStart {
        if state == .lockedOut { return .lockedOut }
        if failedAttempts >= maxAttempts {
            lockOut()
            return .lockedOut
        }
        let wait = msUntilRetry(now: now)
        if wait > 0 { return .retryLater(wait) }
        retry = nil
        failedAttempts += 1
        return .check(AttemptTicket(epoch: lockEpoch, generation: passcodeGeneration))
    }

    /// Finishes a counted attempt. `right` is whether the passcode (or the
    /// biometric secret, `by`) opened the wrap; `now` is the clock reading
    /// at the call's entry.
    mutating func finishAttempt(_ ticket: AttemptTicket, right: Bool, now: Int64,
                                by credential: Credential = .passcode) -> AttemptOutcome {
        guard engaged, ticket.generation == passcodeGeneration else { return .void }
        if !right {
            if failedAttempts >= maxAttempts {
                lockOut()
                return .lockedOut
            }
            startDelay(now: now)
            return .wrong(remaining: maxAttempts - failedAttempts)
        }
        if state == .lockedOut { return .lockedOut }
        // Judged again here, not only at begin: the count of biometric
        // unlocks in a row may have grown meanwhile (another handle or
        // process finished first), and the passcode may have aged.
        if credential == .biometric, let demand = passcodeDemand(now: now) { return .passcodeRequired(demand) }
        failedAttempts = 0
        retry = nil
        guard ticket.epoch == lockEpoch else { return .overtaken }
        state = .unlocked
        reason = .none
        lastActivity = now
        lastAuthentication = now
        switch credential {
        case .passcode: passcodePolicy.passcodeEntered(now: now)
        case .biometric: passcodePolicy.biometricUsed()
        }
        // `now` is the call's entry reading, earlier than the reading this
        // call judged at: a deadline may be due at that reading already.
        judgedAt = nil
        if departure != nil {
            // The absence is measured from the unlock: covered only if a
            // live prompt is open now.
            departure = now
            absenceCovered = shield.isActive(now: now)
        }
        return .unlocked
    }

    /// The delay of the highest step the count has reached, from `now`.
    private mutating func startDelay(now: Int64) {
        if let delay = delayIfWrong(now: now) { retry = delay }
    }

    /// The delay a wrong passcode would start at `now`, with the count as
    /// it stands once the attempt is counted (nil: none, or the attempt
    /// would lock out). Saved with the raised count before the check
    /// (header, "The store"), so a kill during the check does not skip it.
    func delayIfWrong(now: Int64) -> RetryDelay? {
        guard failedAttempts < maxAttempts else { return nil }
        var period: Int64? = nil
        for step in delaySchedule where step.failedAttempts <= failedAttempts { period = step.delay }
        return period.map { RetryDelay(started: now, period: $0) }
    }

    /// Time until a passcode attempt is accepted again; 0 when it is.
    @inline(always)
    func msUntilRetry(now: Int64) -> Int64 {
        retry?.left(at: now) ?? 0
    }

    /// A delay found in the store (`started`: its saved start, on the
    /// clock of the process that started it). A period this handle does
    /// not follow yet (at create, after a restart; or another process's,
    /// seen at an attempt) runs in full from `now`, this handle's own
    /// reading: it is never forgiven, whatever the origin of each
    /// process's clock (and may end up to one period later than in the
    /// process that started it). The period this handle already follows
    /// (started here, or first run here) is kept as it runs here. Never
    /// longer than the period.
    mutating func adoptDelay(started: Int64, period: Int64, now: Int64) {
        guard period > 0 else { return }
        if let current = retry, current.savedStart == started, current.period == period { return }
        let delay = RetryDelay(started: now, period: period, savedStart: started)
        if msUntilRetry(now: now) >= delay.left(at: now) { return }
        retry = delay
    }

    /// LOCKED_OUT keeps the reason of the state it came from.
    private mutating func lockOut() {
        failedAttempts = maxAttempts
        guard state != .lockedOut else { return }
        state = .lockedOut
        lockEpoch &+= 1
    }

    /// `disable`: not engaged, unlocked, count and lockout forgotten. The
    /// departure is presence and stays.
    mutating func disengage() {
        passcodePolicy.forget()
        lastAuthentication = Millis.never
        shield.makeInert()
        absenceCovered = false
        retry = nil
        maxAttempts = configuredMaxAttempts // the store's limit went with the store
        engaged = false
        awaitingStart = false
        state = .unlocked
        reason = .none
        failedAttempts = 0
        lockEpoch &+= 1
        passcodeGeneration &+= 1
    }
}
