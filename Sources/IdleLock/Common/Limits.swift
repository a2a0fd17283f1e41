// SPDX-License-Identifier: MIT
// The bounds of the header's idlelock_config fields: checked when a host's config
// is validated (ABI/ConfigConversion.swift) and, for what a store holds, when
// a store is read back (Store/StoreFormat.swift).

enum ConfigLimits {
    static let graceMax: Int64 = 60_000
    static let maxAttemptsMax: Int32 = 100
    /// OWASP Password Storage Cheat Sheet: Argon2id at least 19 MiB and 2
    /// passes.
    static let kdfOpsMin: UInt64 = 2
    static let kdfOpsMax: UInt64 = 10
    static let kdfMemMin: UInt64 = 19 * 1024 * 1024
    static let kdfMemMax: UInt64 = 1024 * 1024 * 1024
    static let unlockReasonMaxBytes = 512
    /// Longest `store_path` accepted (PATH_MAX less room for the suffixes
    /// `.lock` and `.tmp.<random>`).
    static let storePathMaxBytes = 4000
    /// Longest file name in `store_path` (after its last slash): a file
    /// name holds at most 255 bytes (NAME_MAX of ext4, f2fs, tmpfs, APFS),
    /// and the store's files beside it add `.lock` and `.tmp.` with 6
    /// random characters (11 bytes).
    static let storeNameMaxBytes = 244
    static let deviceKeyBytes = 32
    /// The largest struct size accepted: a guard against garbage sizes.
    static let structSizeMax = 4096
    static let promptCapMax: Int64 = 600_000
    static let delayStepsMax = 32
    /// One day: no "try again in 40 years".
    static let delayMax: Int64 = 86_400_000
    /// `passcode_max_age_ms`: 1 hour ... 30 days (iOS: 156 hours).
    static let passcodeMaxAgeMin: Int64 = 3_600_000
    static let passcodeMaxAgeMax: Int64 = 2_592_000_000
    /// `biometric_max_uses`: 1...1000 (0 is off).
    static let biometricMaxUsesMax: Int32 = 1_000
    /// `idlelock_require_recent_auth`'s `max_age_ms`: 1 ms ... 30 days.
    static let recentAuthMax: Int64 = 2_592_000_000
    /// Biometric requests open at once on one handle (the two-phase pair).
    static let biometricRequestsMax = 8
}
