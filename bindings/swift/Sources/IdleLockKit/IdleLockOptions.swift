// SPDX-License-Identifier: MIT
import CIdleLock

/// The creation options (`idlelock_config`): every field starts at the
/// library's own default (`idlelock_config_init`), and the library checks
/// the ranges at creation (``IdleLockError/invalidArgument(_:)`` names the
/// option and the value). Durations are milliseconds; ``never`` is
/// `IDLELOCK_NEVER`. idlelock.h's `idlelock_config` block is the reference
/// for each option.
public struct IdleLockOptions: Sendable {
    /// A timeout that never passes (`IDLELOCK_NEVER`).
    public static let never = Int64.max
    /// ``backgroundAfterMs`` only: the value of ``idleAfterMs``
    /// (`IDLELOCK_SAME_AS_IDLE`).
    public static let sameAsIdle: Int64 = -1

    /// One step of an escalating delay after wrong passcodes
    /// (`idlelock_delay_step`).
    public struct DelayStep: Sendable, Hashable {
        public var failedAttempts: Int32
        public var delayMs: Int64
        public init(failedAttempts: Int32, delayMs: Int64) {
            self.failedAttempts = failedAttempts
            self.delayMs = delayMs
        }
    }

    /// Apple's schedule for the device passcode (`idlelock_delay_schedule_ios`:
    /// 5 wrong: 1 minute, 6: 5 minutes, 7: 15 minutes, 9: 1 hour); use it
    /// with ``maxAttempts`` 10.
    public static var iosDelaySchedule: [DelayStep] {
        var steps: UnsafePointer<idlelock_delay_step>?
        var count = 0
        guard idlelock_delay_schedule_ios(&steps, &count) == IDLELOCK_OK, let steps else { return [] }
        return (0..<count).map { DelayStep(failedAttempts: steps[$0].failed_attempts, delayMs: steps[$0].delay_ms) }
    }

    /// Lock at the first ``IdleLockHandle/start()`` once a passcode is set.
    public var lockOnStart: Bool
    /// Lock after this long without ``IdleLockHandle/touch()``.
    public var idleAfterMs: Int64
    /// Lock when away (backgrounded) this long.
    public var backgroundAfterMs: Int64
    /// An absence that stayed inactive (never reached the background) locks
    /// after the longer of this and ``backgroundAfterMs``.
    public var inactiveAfterMs: Int64
    /// An absence this short is presence (a Face ID sheet); 0...60000.
    public var graceMs: Int64
    /// Wrong passcodes before the lockout; 1...100.
    public var maxAttempts: Int32
    /// Argon2id passes (2...10) and memory in bytes (19 MiB...1 GiB).
    public var kdfOpslimit: UInt64
    public var kdfMemlimit: UInt64
    /// The store file (UTF-8, in an existing folder: the app's Application
    /// Support, or an app group's container); `nil`: memory only.
    public var storePath: String?
    /// Milliseconds from a fixed origin, monotonic, counting sleep; `nil`:
    /// the system's (Darwin `mach_continuous_time`, Linux
    /// `CLOCK_BOOTTIME`). Called with the library's lock held: return at
    /// once, never call the lock.
    public var clock: (@Sendable () -> Int64)?
    /// Shown by the biometric prompt.
    public var unlockReason: String?
    /// 32 bytes from a hardware keystore, mixed into the passcode key.
    public var deviceKey: SecretBytes?
    /// How long prompts the app opens can defer the rules; also a
    /// biometric request's life.
    public var promptCapMs: Int64
    /// The idle warning opens this long before the idle lock (0: off).
    public var warnBeforeMs: Int64
    /// Escalating delays after wrong passcodes (empty: none).
    public var delaySchedule: [DelayStep]
    /// Biometric unlocks are refused once the last passcode entry is this
    /// old (0: off).
    public var passcodeMaxAgeMs: Int64
    /// With a store, the first unlock after a device restart needs the
    /// passcode.
    public var passcodeAfterReboot: Bool
    /// After this many biometric unlocks in a row the passcode is needed
    /// (0: off).
    public var biometricMaxUses: Int32

    /// The library's defaults: no timeout yet (set ``idleAfterMs`` or
    /// ``backgroundAfterMs``: a lock that never times out is refused).
    public init() {
        var c = idlelock_config()
        _ = idlelock_config_init(&c, MemoryLayout<idlelock_config>.size)
        lockOnStart = c.lock_on_start != 0
        idleAfterMs = c.idle_after_ms
        backgroundAfterMs = c.background_after_ms
        inactiveAfterMs = c.inactive_after_ms
        graceMs = c.grace_ms
        maxAttempts = c.max_attempts
        kdfOpslimit = c.kdf_opslimit
        kdfMemlimit = c.kdf_memlimit
        promptCapMs = c.prompt_cap_ms
        warnBeforeMs = c.warn_before_ms
        delaySchedule = []
        passcodeMaxAgeMs = c.passcode_max_age_ms
        passcodeAfterReboot = c.passcode_after_reboot != 0
        biometricMaxUses = c.biometric_max_uses
    }

    /// Calls `body` with the C config; its pointers are valid only there.
    func withConfig<T>(clock: idlelock_clock_fn?, clockContext: UnsafeMutableRawPointer?,
                       authenticator: UnsafePointer<idlelock_authenticator>?,
                       _ body: (UnsafePointer<idlelock_config>) -> T) -> T {
        var c = idlelock_config()
        _ = idlelock_config_init(&c, MemoryLayout<idlelock_config>.size)
        c.lock_on_start = lockOnStart ? 1 : 0
        c.idle_after_ms = idleAfterMs
        c.background_after_ms = backgroundAfterMs
        c.inactive_after_ms = inactiveAfterMs
        c.grace_ms = graceMs
        c.max_attempts = maxAttempts
        c.kdf_opslimit = kdfOpslimit
        c.kdf_memlimit = kdfMemlimit
        c.clock = clock
        c.clock_ctx = clockContext
        c.authenticator = authenticator
        c.prompt_cap_ms = promptCapMs
        c.warn_before_ms = warnBeforeMs
        c.passcode_max_age_ms = passcodeMaxAgeMs
        c.passcode_after_reboot = passcodeAfterReboot ? 1 : 0
        c.biometric_max_uses = biometricMaxUses
        let steps = delaySchedule.map { idlelock_delay_step(failed_attempts: $0.failedAttempts, reserved0: 0, delay_ms: $0.delayMs) }
        return steps.withUnsafeBufferPointer { stepBuffer in
            c.delay_schedule = steps.isEmpty ? nil : stepBuffer.baseAddress
            c.delay_schedule_len = steps.count
            return withOptionalCString(storePath) { path in
                c.store_path = path
                return withOptionalCString(unlockReason) { reason in
                    c.unlock_reason = reason
                    guard let deviceKey else { return body(&c) }
                    return deviceKey.withUnsafeBytes { key in
                        c.device_key = key.baseAddress?.assumingMemoryBound(to: UInt8.self)
                        c.device_key_len = key.count
                        return body(&c)
                    }
                }
            }
        }
    }
}

func withOptionalCString<T>(_ text: String?, _ body: (UnsafePointer<CChar>?) -> T) -> T {
    guard let text else { return body(nil) }
    return text.withCString { body($0) }
}
