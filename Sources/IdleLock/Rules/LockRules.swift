// SPDX-License-Identifier: MIT
// The decision rules (header, "Events and the decision rules" and
// "Passcode"; docs/RULES.md) as a value type: no clock, no lock, no
// I/O. Every method takes the clock reading of the call and moves the state;
// the handle (IdleLockHandle.swift) adds the clock, the mutex and the rest.
// The values they work with are in RuleTypes.swift; what they report at a
// reading (the deadlines, the warning, the policies' demand) in
// LockRulesReport.swift.

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
    private(set) var judgedAt: Int64? = nil

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
            shield.absenceBegins()
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

    /// A clock step is being told to the store (`PasscodePolicy.stepUntold`):
    /// `entry`, the passcode entry the store recorded in this boot, is
    /// never trusted here again (also when the write then fails).
    mutating func distrustStoreEntry(_ entry: Int64) {
        passcodePolicy.distrust(entry)
    }

    /// The store was told of the clock step (its write succeeded, or there
    /// was nothing to tell: no store, no entry of this boot in it).
    mutating func clockStepTold() {
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
            shield.absenceBegins()
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
