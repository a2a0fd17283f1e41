// SPDX-License-Identifier: MIT
// The passcode policies (config 1.2): when the biometric shortcut is refused
// and only the passcode unlocks. After a restart of the device
// (`passcode_after_reboot`: iOS and Android ask for the passcode after a
// restart), once the last passcode entry is too old (`passcode_max_age_ms`:
// iOS asks for it after 156 hours without it), and after a number of
// biometric unlocks in a row (`biometric_max_uses`: KeePassXC's and
// Keepass2Android's quick unlock). A value type with no clock, part of
// LockRules; the handle keeps its state with the store.

/// The configured policies; all off by default.
struct PasscodePolicySettings: Equatable {
    /// `passcode_after_reboot`: the first unlock in a boot is by passcode.
    var afterReboot = false
    /// `passcode_max_age_ms`: 0 (off) or 1 h ... 30 days.
    var maxAge: Int64 = 0
    /// `biometric_max_uses`: 0 (off) or 1...1000.
    var biometricMaxUses: Int32 = 0
}

/// Why a policy asks for the passcode now.
enum PasscodeDemand: Equatable {
    /// No passcode entry is known in this boot (`passcode_after_reboot`).
    case afterReboot
    /// The last passcode entry is `passcode_max_age_ms` old, or its time is
    /// unknown on this clock (another boot, a clock step, an older store).
    case tooOld
    /// `biometric_max_uses` biometric unlocks in a row.
    case biometricUses
}

struct PasscodePolicy {
    let settings: PasscodePolicySettings
    /// A passcode was entered (an unlock or a new passcode) in this boot.
    private(set) var enteredThisBoot = false
    /// When, on this handle's clock; nil when not known on it (another
    /// boot, a clock step since, a store that does not record it).
    private(set) var enteredAt: Int64? = nil
    /// An entry a clock step made unknown: read back from the store it
    /// stays unknown (a step forgives nothing), until the next entry.
    private var distrusted: Int64? = nil
    /// A clock step this handle saw, not yet told to the store. Whatever
    /// this handle remembers of the entry (it may already hold it unknown),
    /// the entry the store records in this boot is marked unknown there
    /// (`PasscodePolicy.unknownEntry`): another process may have renewed it
    /// on the clock's old timeline, and every handle and process of the
    /// sign-in, and the next one to start, must take it as unknown too.
    private(set) var stepUntold = false
    /// Biometric unlocks since the last passcode entry, saturating at
    /// `PasscodePolicy.usesMax`.
    private(set) var biometricUses: Int32 = 0
    /// The first reading at which a policy asks for the passcode:
    /// `Int64.min` when one does now, `Int64.max` when none ever will
    /// (until the next change; a moment past INT64_MAX never comes, the
    /// clock stops there). Kept up to date by every change, so the question
    /// every call asks (`requiresPasscode`) is one comparison on every
    /// reading but the last.
    private(set) var requiredFrom: Int64
    /// At the reading INT64_MAX itself, `requiredFrom == Int64.max` means
    /// "from this reading" (an age that passes exactly then) only when
    /// this is set; otherwise it is "never".
    private var requiredAtTheEnd = false

    /// The largest count kept: the largest `biometric_max_uses`.
    static let usesMax: Int32 = 1_000

    init(_ settings: PasscodePolicySettings = PasscodePolicySettings()) {
        self.settings = settings
        requiredFrom = Int64.max
        (requiredFrom, requiredAtTheEnd) = computeRequiredFrom()
    }

    /// Every call asks this. `requiredFrom` is a moment that comes unless
    /// it is "never" (Int64.max with no policy asking, or an age that
    /// passes only after INT64_MAX): that is read only once the reading
    /// reached `requiredFrom`, so the hot calls, whose readings stay below
    /// it, load nothing more for it. Inlined whole: a call of a
    /// non-mutating method on this struct, stored in the handle's rules,
    /// is passed a copy of the struct (65 bytes on every call,
    /// BENCHMARKS.md "Profile").
    @inline(always)
    func requiresPasscode(now: Int64) -> Bool {
        now >= requiredFrom && (requiredFrom != Int64.max || requiredAtTheEnd)
    }

    /// The first policy that asks for the passcode at `now`, if any (for the
    /// message: reboot first, then the count, then the age).
    func demand(now: Int64) -> PasscodeDemand? {
        guard requiresPasscode(now: now) else { return nil }
        if settings.afterReboot && !enteredThisBoot { return .afterReboot }
        if settings.biometricMaxUses > 0 && biometricUses >= settings.biometricMaxUses { return .biometricUses }
        return .tooOld
    }

    /// A successful passcode entry at `now`: an unlock, a re-authentication
    /// or a new passcode.
    mutating func passcodeEntered(now: Int64) {
        enteredThisBoot = true
        enteredAt = now
        distrusted = nil
        stepUntold = false
        biometricUses = 0
        (requiredFrom, requiredAtTheEnd) = computeRequiredFrom()
    }

    /// A successful biometric unlock (or re-authentication).
    mutating func biometricUsed() {
        if biometricUses < PasscodePolicy.usesMax { biometricUses += 1 }
        (requiredFrom, requiredAtTheEnd) = computeRequiredFrom()
    }

    /// The clock stepped (a reading earlier than one already seen): the
    /// entry's age is unknown on this clock, whether the clock now reads
    /// before the entry or after it (a step back that lands after the entry
    /// would make it look younger than it is, re-opening an age that had
    /// closed). Fail closed: the entry counts as too old until the next one.
    /// Every step is to be told to the store (`stepUntold`), also one seen
    /// while this handle knows no entry.
    mutating func clockStepped() {
        stepUntold = true
        guard let at = enteredAt else { return }
        distrust(at)
    }

    /// `at`, an entry recorded before a clock step (this handle's, or the
    /// one the store held when the step was told to it), is never taken as
    /// a time on this clock again, even read back from a store that could
    /// not be told (best effort).
    mutating func distrust(_ at: Int64) {
        if enteredAt == at { enteredAt = nil }
        distrusted = at
        (requiredFrom, requiredAtTheEnd) = computeRequiredFrom()
    }

    /// The store was told of the step (or could not be: best effort).
    mutating func stepTold() {
        stepUntold = false
    }

    /// The entry time a store records for "an entry in this boot whose
    /// time is unknown" (a clock step was seen since): later than every
    /// reading but INT64_MAX itself, so every reader (1.2.0's included)
    /// takes it as an entry the clock reads earlier than: unknown, until
    /// the next entry. (A clock that reads INT64_MAX has stopped: the
    /// header asks for readings far from the int64_t limits.)
    static let unknownEntry = Int64.max

    /// The state as the store keeps it (shared by every process of the
    /// sign-in): the last passcode entry, whether it was in this boot, and
    /// the biometric unlocks since. An entry later than `latest` (the latest
    /// reading of this handle: its clock reads earlier than the entry, a
    /// step), or one a clock step made unknown here, is not a time on this
    /// clock, and stays unknown until the next entry (re-reading the same
    /// record once the clock has passed it forgives nothing). While a step
    /// this handle saw is not yet told to the store (`stepUntold`), the
    /// entry read is one the step makes unknown, whoever recorded it.
    mutating func adopt(enteredAt at: Int64, sameBoot: Bool, biometricUses uses: Int32, latest: Int64) {
        enteredThisBoot = sameBoot
        if sameBoot && (at > latest || stepUntold) { distrusted = at }
        enteredAt = sameBoot && at != distrusted ? at : nil
        biometricUses = Swift.min(Swift.max(uses, 0), PasscodePolicy.usesMax)
        (requiredFrom, requiredAtTheEnd) = computeRequiredFrom()
    }

    /// Sign-out: nothing is known of a passcode that no longer exists. A
    /// step not yet told to the store is still told (`stepUntold` stays): a
    /// store another process signs in with is on the same clock.
    mutating func forget() {
        enteredThisBoot = false
        enteredAt = nil
        distrusted = nil
        biometricUses = 0
        (requiredFrom, requiredAtTheEnd) = computeRequiredFrom()
    }

    /// `requiredFrom` and `requiredAtTheEnd`.
    private func computeRequiredFrom() -> (Int64, Bool) {
        if settings.afterReboot && !enteredThisBoot { return (Int64.min, false) }
        if settings.biometricMaxUses > 0 && biometricUses >= settings.biometricMaxUses { return (Int64.min, false) }
        guard settings.maxAge > 0 else { return (Int64.max, false) }
        guard let at = enteredAt else { return (Int64.min, false) }
        // "Passed" is elapsed >= maxAge (header, "Events and the decision
        // rules"): an end past INT64_MAX is never reached (saturating it to
        // INT64_MAX would ask for the passcode at that reading, when less
        // than maxAge has passed).
        let (end, overflow) = at.addingReportingOverflow(settings.maxAge)
        return overflow ? (Int64.max, false) : (end, end == Int64.max)
    }
}
