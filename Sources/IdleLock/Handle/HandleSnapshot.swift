// SPDX-License-Identifier: MIT
// The end of every transaction of the handle (IdleLockHandle.swift): a
// locked session's key wiped, a change of the visible state given a new
// `seq` and queued for listeners (HandleListeners.swift), and the snapshot
// written into the caller's `out` (include/idlelock.h, idlelock_snapshot).
// Every method here runs with the handle's mutex held.

extension IdleLockHandle {
    /// A lock takes effect in memory first: the session key is wiped. The
    /// test is inlined into every call; the wipe is not.
    @inline(always)
    func sealIfLocked() {
        if rules.state != .unlocked && keyLoaded { seal() }
    }

    @inline(never)
    private func seal() {
        sessionKey.wipe()
        keyLoaded = false
    }

    /// With the mutex held: wipe the session key of a locked session, and
    /// give a change of the visible state a new `seq` (queued for
    /// listeners). The full snapshot (with its deadlines) is computed only
    /// when the caller asked for it (into `out`), or a listener or the
    /// watcher needs it.
    /// Returns true when the snapshot went straight into `out` (nothing
    /// queued before or by the call). Only the hot events do that
    /// (`direct`); the other calls build it in `scratch` and copy it, one
    /// copy of that code less.
    @inline(always)
    func settle(now: Int64, into out: UnsafeMutablePointer<Snapshot>?, judgedNow: Bool,
                        direct: Bool) -> Bool {
        sealIfLocked()
        let listening = !registry.isEmpty
        // Straight into the host's `out` when only the caller reads it: the
        // rules report the snapshot's times in one pass, whose warning is
        // also the visible state's. (`size` is this version's already.)
        if direct, let out, !listening, watcher == nil, queue.isEmpty {
            let report = rules.report(now: now, judgedNow: judgedNow)
            writeTimes(to: out, report: report)
            let shown = shownState(now: now, isWarning: report.isWarning)
            publish(shown.visible)
            writeState(to: out, shown)
            return true
        }
        let heard = publish(visibleState(now: now, isWarning: rules.isWarning(now: now))) && listening
        guard out != nil || heard || watcher != nil else { return false }
        settleShared(now: now, into: out, heard: heard)
        return false
    }

    /// Gives a change of the visible state a new `seq`; true when it changed.
    @inline(always)
    @discardableResult
    private func publish(_ visible: VisibleState) -> Bool {
        guard visible != published else { return false }
        published = visible
        seq &+= 1
        return true
    }

    /// `settle` when a listener or the watcher reads the snapshot too, or
    /// listeners will run after the call: it is built in `scratch` and
    /// copied out (the library never reads back the host's memory: another
    /// thread of the host may be writing the same buffer), queued, shown
    /// to the watcher. Not inlined.
    @inline(never)
    private func settleShared(now: Int64, into out: UnsafeMutablePointer<Snapshot>?, heard: Bool) {
        let report = rules.report(now: now)
        writeSnapshot(to: scratch, report: report, shown: shownState(now: now, isWarning: report.isWarning))
        out?.pointee = scratch.pointee
        // A deadline that moved earlier than the watcher's alarm wakes it.
        if let watcher, Millis.add(now, scratch.pointee.msUntilNextDeadline) < watcher.armedAt {
            watcher.wake()
        }
        if heard { queue.push(scratch.pointee) }
    }

    /// The part of the state whose change produces a new `seq` (not the
    /// times, which move on every touch).
    @inline(always)
    private func visibleState(now: Int64, isWarning: Bool) -> VisibleState {
        shownState(now: now, isWarning: isWarning).visible
    }

    /// The fields of the visible state, each read once: packed for the
    /// comparison with the published state, and written to the snapshot
    /// from the same values (after a write to the host's struct, which
    /// may be anywhere, the compiler would read the handle's fields
    /// again).
    struct Shown {
        let state: LockState
        let reason: LockReason
        let engaged: Bool
        let biometricsEnabled: Bool
        let biometricsAvailable: Bool
        let away: Bool
        let attemptsRemaining: Int32
        let passcodeRequired: Bool
        let visible: VisibleState
    }

    @inline(always)
    private func shownState(now: Int64, isWarning: Bool) -> Shown {
        let state = rules.state, reason = rules.reason, engaged = rules.engaged
        let biometricsEnabled = bioWrap != nil, biometricsAvailable = bioAvailable, away = rules.isAway
        let attempts = rules.attemptsRemaining, passcodeRequired = rules.isPasscodeRequired(now: now)
        return Shown(state: state, reason: reason, engaged: engaged, biometricsEnabled: biometricsEnabled,
                     biometricsAvailable: biometricsAvailable, away: away, attemptsRemaining: attempts,
                     passcodeRequired: passcodeRequired,
                     visible: VisibleState(state: state, reason: reason, isEnabled: engaged,
                                           isBiometricsEnabled: biometricsEnabled,
                                           isBiometricsAvailable: biometricsAvailable, isAway: away,
                                           attemptsRemaining: attempts, isWarning: isWarning,
                                           isPasscodeRequired: passcodeRequired))
    }

    /// The visible state at `now` (create: no listener hears it).
    func visibleState(now: Int64) -> VisibleState {
        visibleState(now: now, isWarning: rules.isWarning(now: now))
    }

    /// Fills `s` field by field (in place: `s` is usually the host's own
    /// `out`) from what `settle` computed at one reading: the rules'
    /// report and the visible state's fields (nothing computed twice).
    @inline(always)
    private func writeSnapshot(to s: UnsafeMutablePointer<Snapshot>, report r: RulesReport, shown: Shown) {
        s.pointee.size = UInt32(MemoryLayout<Snapshot>.size)
        writeTimes(to: s, report: r)
        writeState(to: s, shown)
    }

    /// The report's fields, written as soon as they are computed (fewer
    /// values kept across the rest: BENCHMARKS.md "Profile").
    @inline(always)
    private func writeTimes(to s: UnsafeMutablePointer<Snapshot>, report r: RulesReport) {
        s.pointee.msUntilIdleLock = r.msUntilIdleLock
        s.pointee.isWarning = r.isWarning ? 1 : 0
        s.pointee.reserved1 = 0
        s.pointee.msUntilWarning = r.msUntilWarning
        s.pointee.msUntilRetry = r.msUntilRetry
        s.pointee.msUntilNextDeadline = r.msUntilNextDeadline
    }

    /// The rest, after `publish` (which gives `seq`).
    @inline(always)
    private func writeState(to s: UnsafeMutablePointer<Snapshot>, _ shown: Shown) {
        s.pointee.state = shown.state.rawValue
        s.pointee.seq = seq
        s.pointee.reason = shown.reason.rawValue
        s.pointee.isEnabled = shown.engaged ? 1 : 0
        s.pointee.isBiometricsEnabled = shown.biometricsEnabled ? 1 : 0
        s.pointee.isBiometricsAvailable = shown.biometricsAvailable ? 1 : 0
        s.pointee.isAway = shown.away ? 1 : 0
        s.pointee.attemptsRemaining = shown.attemptsRemaining
        s.pointee.lastActivity = rules.lastActivity
        s.pointee.isPasscodeRequired = shown.passcodeRequired ? 1 : 0
        s.pointee.reserved2 = 0
        s.pointee.lastAuthentication = rules.lastAuthentication
    }
}
