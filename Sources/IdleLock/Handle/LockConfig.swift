// SPDX-License-Identifier: MIT
// A handle's validated configuration, as Swift values. The ABI layer makes
// one from the host's `idlelock_config` (ABI/ConfigConversion.swift), which
// checks every field against the header's bounds (idlelock_config) first.

/// The caller's clock: `idlelock_clock_fn` and its context.
struct HostClock {
    let function: @convention(c) (UnsafeMutableRawPointer?) -> Int64
    let context: UnsafeMutableRawPointer?
}

/// A validated configuration. Pointers are copied: nothing here refers to
/// the caller's memory.
struct LockConfig {
    var timeouts: Timeouts
    var lockOnStart: Bool
    var maxAttempts: Int32
    var kdfOpslimit: UInt64
    var kdfMemlimit: UInt64
    var clock: HostClock?
    var hasDeviceKey: Bool
    var authenticator: HostAuthenticator?
    var delaySchedule: [DelayStep] = []
    /// The passcode policies (1.2).
    var policy = PasscodePolicySettings()
}
