// SPDX-License-Identifier: MIT
// The values the decision rules (LockRules.swift) work with: the states and
// reasons of the header, the validated timeouts, an attempt in flight and
// its outcome, the escalating delay. No clock, no lock, no I/O.

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
    /// The reading `leftAtStart` counts down from: when the period started
    /// on this handle's clock, or the reading a clock step landed on
    /// (`carriedOver`).
    var started: Int64
    /// What is left at `started`: the whole period, or what it had left at
    /// the reading before a clock step.
    var leftAtStart: Int64
    /// The configured length.
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
        self.leftAtStart = period
        self.period = period
        self.savedStart = savedStart ?? started
    }

    /// Time left at `now`, 0...leftAtStart: counted down from `started`, not
    /// to a saturated end, so a delay started less than its period before
    /// INT64_MAX still runs in full, and one carried to a reading near
    /// INT64_MIN never grows.
    @inline(always)
    func left(at now: Int64) -> Int64 {
        let left = Millis.elapsed(from: Millis.elapsed(from: started, to: now), to: leftAtStart)
        return Swift.max(0, Swift.min(left, leftAtStart))
    }

    /// The period across a clock step from `previous` to `now` (include/
    /// idlelock.h, idlelock_delay_step; docs/RULES.md, "Clock steps"): it
    /// goes on from the landing reading with what it had left at the
    /// previous reading, no more (a step never lengthens it, so a clock
    /// that jitters cannot keep the passcode out) and no less (a step never
    /// forgives any of it). One that had run out stays over.
    func carriedOver(from previous: Int64, to now: Int64) -> RetryDelay {
        var carried = self
        carried.leftAtStart = left(at: previous)
        carried.started = now
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
