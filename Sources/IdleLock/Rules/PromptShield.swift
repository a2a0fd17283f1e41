// SPDX-License-Identifier: MIT
// Prompts the app opens itself (header, "Prompts the app opens itself"): a biometric sheet, a file picker,
// the camera, a share sheet. While one is open the idle rule waits, and an
// absence that began under it is presence until the prompt's end plus the
// grace window, but never past `cap` ms from the earliest prompt still open:
// then the rules apply as if no prompt had been opened. A value type with
// no clock, part of LockRules.

struct PromptShield {
    struct Prompt {
        let token: UInt64
        var openedAt: Int64
        /// Opened on a locked session, or open when the session locked: it
        /// defers nothing, but its token can still be ended once.
        var inert: Bool
    }

    /// `prompt_cap_ms`.
    let cap: Int64
    private(set) var open: [Prompt] = []
    /// Tokens count up from a random start, so a token from another handle
    /// is (almost surely) not open on this one.
    private var nextToken: UInt64
    /// When the last prompt that shielded anything ended (no live prompt
    /// left open then).
    private(set) var lastEnd: Int64? = nil

    init(cap: Int64, firstToken: UInt64) {
        self.cap = cap
        nextToken = firstToken == 0 ? 1 : firstToken
    }

    /// The earliest opening among live (not inert) prompts, kept up to date
    /// by `begin`, `end` and `makeInert`: the queries on every call's path
    /// read one field and never walk (or retain) `open`.
    private(set) var earliestLive: Int64? = nil

    private mutating func recomputeEarliestLive() {
        var earliest: Int64? = nil
        for i in open.indices where !open[i].inert {
            earliest = Swift.min(earliest ?? open[i].openedAt, open[i].openedAt)
        }
        earliestLive = earliest
    }

    /// A live prompt is open and the cap has not passed.
    @inline(always)
    func isActive(now: Int64) -> Bool {
        guard let earliest = earliestLive else { return false }
        return Millis.elapsed(from: earliest, to: now) < cap
    }

    /// An absence that began under the shield is still presence at `now`:
    /// the shield is active, or it closed at most `grace` ms ago.
    @inline(always)
    func coversAbsence(now: Int64, grace: Int64) -> Bool {
        if isActive(now: now) { return true }
        if earliestLive != nil { return false } // open past the cap
        guard let lastEnd else { return false }
        return Millis.elapsed(from: lastEnd, to: now) <= grace
    }

    /// Time until the cap passes, while a live prompt is open: counted from
    /// the earliest opening, so a cap that would end past INT64_MAX still
    /// runs its full length.
    @inline(always)
    func msUntilCap(now: Int64) -> Int64? {
        guard let earliest = earliestLive else { return nil }
        return Millis.elapsed(from: Millis.elapsed(from: earliest, to: now), to: cap)
    }

    /// When something about the shield changes next (for the next
    /// deadline): the cap of the earliest live prompt.
    @inline(always)
    func capDeadline() -> Int64? {
        guard let earliest = earliestLive else { return nil }
        let (end, overflow) = earliest.addingReportingOverflow(cap)
        return overflow ? Millis.never : end
    }

    func contains(_ token: UInt64) -> Bool {
        open.contains { $0.token == token }
    }

    /// Opens a prompt; `inert` when the session is locked.
    mutating func begin(now: Int64, inert: Bool) -> UInt64 {
        let token = nextToken
        nextToken &+= 1
        if nextToken == 0 { nextToken = 1 }
        open.append(Prompt(token: token, openedAt: now, inert: inert))
        if !inert { earliestLive = Swift.min(earliestLive ?? now, now) }
        return token
    }

    /// Ends `token` (which must be open). Returns whether it was live.
    mutating func end(_ token: UInt64, now: Int64) -> Bool {
        guard let i = open.firstIndex(where: { $0.token == token }) else { return false }
        let wasLive = !open[i].inert
        // Past the cap the prompts covered nothing any more: their end
        // starts no grace window either.
        let withinCap = isActive(now: now)
        open.remove(at: i)
        recomputeEarliestLive()
        if wasLive && earliestLive == nil { lastEnd = withinCap ? now : nil }
        return wasLive
    }

    /// Removes `token` without an end (a voided biometric request): when it
    /// was the last live prompt, no grace window follows it (an absence it
    /// covered is judged from the real departure: fail closed).
    mutating func discard(_ token: UInt64) {
        guard let i = open.firstIndex(where: { $0.token == token }) else { return }
        let wasLive = !open[i].inert
        open.remove(at: i)
        recomputeEarliestLive()
        if wasLive && earliestLive == nil { lastEnd = nil }
    }

    /// An absence begins: the end of a prompt before it covers nothing of
    /// it (only a prompt open when it begins does, and the end of the last
    /// such prompt starts its grace window).
    @inline(always)
    mutating func absenceBegins() {
        lastEnd = nil
    }

    /// A clock step before a passcode is set: the bookkeeping restarts at
    /// `now` (header, "Events and the decision rules", clock steps), the open prompts' openings and the last end
    /// included, so a cap is never measured from a reading later than the
    /// clock.
    mutating func restart(at now: Int64) {
        for i in open.indices where open[i].openedAt > now { open[i].openedAt = now }
        if let end = lastEnd, end > now { lastEnd = now }
        recomputeEarliestLive()
    }

    /// A lock: every open prompt defers nothing any more, and an ended one
    /// no longer covers an absence.
    mutating func makeInert() {
        for i in open.indices { open[i].inert = true }
        earliestLive = nil
        lastEnd = nil
    }
}
