// SPDX-License-Identifier: MIT
// The configuration at the C boundary (header, "Types": idlelock_config):
// the defaults of `idlelock_config_init`, and the checks that turn a
// caller's `idlelock_config` (and its authenticator and delay schedule)
// into the validated Swift values of Handle/LockConfig.swift.

import CIdleLock
import CIdleLockSupport
import CSystem

/// `IDLELOCK_SAME_AS_IDLE`.
let sameAsIdle: Int64 = -1

extension LockConfig {
    /// The defaults written by `idlelock_config_init`.
    static func defaults(size: UInt32) -> idlelock_config {
        var c = idlelock_config()
        c.size = size
        c.lock_on_start = 1
        c.idle_after_ms = Millis.never
        c.background_after_ms = sameAsIdle
        c.inactive_after_ms = 30_000
        c.grace_ms = 1_500
        c.max_attempts = 5
        c.kdf_opslimit = UInt64(crypto_pwhash_opslimit_interactive())
        c.kdf_memlimit = UInt64(crypto_pwhash_memlimit_interactive())
        c.prompt_cap_ms = 120_000
        c.warn_before_ms = 0
        c.passcode_max_age_ms = 0
        c.passcode_after_reboot = 0
        c.biometric_max_uses = 0
        return c
    }

    /// Checks and copies an escalating-delay schedule: at most 32 steps,
    /// failed attempts strictly increasing within 1..max_attempts-1, delays
    /// 1..86400000 ms and non-decreasing.
    static func delaySteps(_ pointer: UnsafePointer<idlelock_delay_step>?, count: Int,
                           maxAttempts: Int32) throws(IdleLockError) -> [DelayStep] {
        guard let pointer else {
            if count != 0 { throw .invalid("config.delay_schedule is NULL but delay_schedule_len is ", Int64(clamping: UInt(bitPattern: count))) }
            return []
        }
        let n = UInt(bitPattern: count)
        if n == 0 || n > UInt(ConfigLimits.delayStepsMax) {
            throw .invalid("config.delay_schedule_len must be 1..32, got ", Int64(clamping: n))
        }
        var steps: [DelayStep] = []
        for i in 0..<Int(n) {
            let step = pointer[i]
            if step.reserved0 != 0 { throw .invalid("config.delay_schedule[", Int64(i), "].reserved0 must be 0") }
            if step.failed_attempts < 1 || step.failed_attempts >= maxAttempts {
                throw .invalid("config.delay_schedule[", Int64(i), "].failed_attempts must be 1..max_attempts-1 (a step at the limit would never apply)")
            }
            if step.delay_ms < 1 || step.delay_ms > ConfigLimits.delayMax {
                throw .invalid("config.delay_schedule[", Int64(i), "].delay_ms must be 1..86400000 (one day at most)")
            }
            if let last = steps.last {
                if step.failed_attempts <= last.failedAttempts {
                    throw .invalid("config.delay_schedule[", Int64(i), "].failed_attempts must be greater than the step before it")
                }
                if step.delay_ms < last.delay {
                    throw .invalid("config.delay_schedule[", Int64(i), "].delay_ms must not be shorter than the step before it")
                }
            }
            steps.append(DelayStep(failedAttempts: step.failed_attempts, delay: step.delay_ms))
        }
        return steps
    }

    /// Checks every field of `c` (the header's idlelock_config bounds). The
    /// message names the field and the value. `device_key` is checked for
    /// shape here and copied by the handle.
    init(validating c: idlelock_config) throws(IdleLockError) {
        if c.reserved0 != 0 {
            throw .invalid("config.reserved0 must be 0, got ", Int64(c.reserved0), "; initialise the config with idlelock_config_init")
        }
        if c.lock_on_start != 0 && c.lock_on_start != 1 {
            throw .invalid("config.lock_on_start must be 0 or 1, got ", Int64(c.lock_on_start))
        }
        if c.idle_after_ms <= 0 {
            throw .invalid("config.idle_after_ms must be > 0 or IDLELOCK_NEVER, got ", c.idle_after_ms)
        }
        if c.background_after_ms < 0 && c.background_after_ms != sameAsIdle {
            throw .invalid("config.background_after_ms must be >= 0, IDLELOCK_NEVER or IDLELOCK_SAME_AS_IDLE, got ", c.background_after_ms)
        }
        let background = c.background_after_ms == sameAsIdle ? c.idle_after_ms : c.background_after_ms
        if c.idle_after_ms == Millis.never && background == Millis.never {
            throw .invalid("config.idle_after_ms and config.background_after_ms are both IDLELOCK_NEVER: a lock that never times out is refused; set idle_after_ms (ms) or background_after_ms")
        }
        if c.inactive_after_ms < 0 {
            throw .invalid("config.inactive_after_ms must be >= 0 or IDLELOCK_NEVER, got ", c.inactive_after_ms)
        }
        if c.prompt_cap_ms < 0 || c.prompt_cap_ms > ConfigLimits.promptCapMax {
            throw .invalid("config.prompt_cap_ms must be 0..600000, got ", c.prompt_cap_ms)
        }
        if c.warn_before_ms < 0 || c.warn_before_ms == Millis.never
            || (c.warn_before_ms > 0 && c.warn_before_ms >= c.idle_after_ms) {
            throw .invalid("config.warn_before_ms must be 0 (off) or below idle_after_ms, got ", c.warn_before_ms)
        }
        if c.passcode_after_reboot != 0 && c.passcode_after_reboot != 1 {
            throw .invalid("config.passcode_after_reboot must be 0 or 1, got ", Int64(c.passcode_after_reboot))
        }
        if c.passcode_max_age_ms != 0
            && (c.passcode_max_age_ms < ConfigLimits.passcodeMaxAgeMin || c.passcode_max_age_ms > ConfigLimits.passcodeMaxAgeMax) {
            throw .invalid("config.passcode_max_age_ms must be 0 (off) or 3600000..2592000000 (1 hour .. 30 days), got ", c.passcode_max_age_ms)
        }
        if c.biometric_max_uses < 0 || c.biometric_max_uses > ConfigLimits.biometricMaxUsesMax {
            throw .invalid("config.biometric_max_uses must be 0 (off) or 1..1000, got ", Int64(c.biometric_max_uses))
        }
        if c.grace_ms < 0 || c.grace_ms > ConfigLimits.graceMax {
            throw .invalid("config.grace_ms must be 0..60000, got ", c.grace_ms)
        }
        if c.max_attempts < 1 || c.max_attempts > ConfigLimits.maxAttemptsMax {
            throw .invalid("config.max_attempts must be 1..100, got ", Int64(c.max_attempts))
        }
        if c.kdf_opslimit < ConfigLimits.kdfOpsMin || c.kdf_opslimit > ConfigLimits.kdfOpsMax {
            throw .invalid("config.kdf_opslimit must be 2..10 Argon2id passes, got ", Int64(clamping: c.kdf_opslimit))
        }
        if c.kdf_memlimit < ConfigLimits.kdfMemMin || c.kdf_memlimit > ConfigLimits.kdfMemMax {
            throw .invalid("config.kdf_memlimit must be 19922944..1073741824 bytes (19 MiB..1 GiB), got ", Int64(clamping: c.kdf_memlimit))
        }
        if c.store_path != nil && c.device_key == nil && c.lock_on_start == 0 {
            throw .invalid("config.lock_on_start is 0 with a store_path but no device_key: after a restart the session key can only be opened by the user; set lock_on_start to 1 or give a device_key")
        }
        if c.clock == nil && c.clock_ctx != nil {
            throw .invalid("config.clock_ctx is set but clock is NULL; set clock too, or clear clock_ctx")
        }
        if let reason = c.unlock_reason {
            let length = CStringLength.of(reason, atMost: ConfigLimits.unlockReasonMaxBytes + 1)
            if length > ConfigLimits.unlockReasonMaxBytes {
                throw .invalid("config.unlock_reason is longer than 512 bytes")
            }
            if UTF8Check.scalarCount(UnsafeRawBufferPointer(start: reason, count: length)) == nil {
                throw .invalid("config.unlock_reason is not valid UTF-8")
            }
        }
        let keyLength = Int64(clamping: UInt(bitPattern: c.device_key_len))
        if c.device_key == nil {
            if c.device_key_len != 0 {
                throw .invalid("config.device_key is NULL but device_key_len is ", keyLength, "; set both or neither")
            }
        } else if c.device_key_len != ConfigLimits.deviceKeyBytes {
            throw .invalid("config.device_key_len must be 32, got ", keyLength)
        }

        timeouts = Timeouts(idle: c.idle_after_ms, background: background,
                            inactive: c.inactive_after_ms, grace: c.grace_ms,
                            promptCap: c.prompt_cap_ms, warnBefore: c.warn_before_ms)
        lockOnStart = c.lock_on_start == 1
        maxAttempts = c.max_attempts
        kdfOpslimit = c.kdf_opslimit
        kdfMemlimit = c.kdf_memlimit
        clock = c.clock.map { HostClock(function: $0, context: c.clock_ctx) }
        hasDeviceKey = c.device_key != nil
        delaySchedule = try LockConfig.delaySteps(c.delay_schedule, count: c.delay_schedule_len,
                                                  maxAttempts: c.max_attempts)
        policy = PasscodePolicySettings(afterReboot: c.passcode_after_reboot == 1,
                                        maxAge: c.passcode_max_age_ms,
                                        biometricMaxUses: c.biometric_max_uses)
        authenticator = try c.authenticator.map { (a) throws(IdleLockError) in
            try HostAuthenticator(validating: a, unlockReason: c.unlock_reason)
        }
    }
}

extension StorePath {
    /// Checks `config.store_path` (UTF-8, 1...4000 bytes, naming a file,
    /// not a folder, whose name is at most 244 bytes) and splits it at its
    /// last slash. Only read during the call.
    init(validating cPath: UnsafePointer<CChar>) throws(IdleLockError) {
        let length = CStringLength.of(cPath, atMost: ConfigLimits.storePathMaxBytes + 1)
        if length == 0 { throw .invalid("config.store_path is empty") }
        if length > ConfigLimits.storePathMaxBytes {
            throw .invalid("config.store_path is longer than 4000 bytes")
        }
        let raw = UnsafeRawBufferPointer(start: cPath, count: length)
        if UTF8Check.scalarCount(raw) == nil { throw .invalid("config.store_path is not valid UTF-8") }
        var slash = -1
        for i in 0..<length where raw[i] == UInt8(ascii: "/") { slash = i }
        let name = Array(raw[(slash + 1)..<length])
        let dot = UInt8(ascii: ".")
        if name.isEmpty || name == [dot] || name == [dot, dot] {
            throw .invalid("config.store_path names a folder; give a file path such as /data/app/session.idlelock")
        }
        if name.count > ConfigLimits.storeNameMaxBytes {
            // Else the store's own files would not fit beside it: create
            // failed on `<name>.lock`, or every write on `<name>.tmp.XXXXXX`.
            throw .invalid("config.store_path's file name (after its last slash) is ", Int64(name.count), " bytes; at most 244, so that <name>.lock and <name>.tmp.XXXXXX fit in a 255-byte file name")
        }
        var folder: [UInt8]
        if slash < 0 {
            folder = [dot]
        } else if slash == 0 {
            folder = [UInt8(ascii: "/")]
        } else {
            folder = Array(raw[0..<slash])
        }
        folder.append(0)
        self.init(folder: folder, name: name)
    }
}

extension HostAuthenticator {
    /// Checks and copies the caller's struct: `size` must cover this
    /// version's fields (bytes past them must be zero), `reserved0` must be
    /// 0, and every callback must be set.
    init(validating pointer: UnsafePointer<idlelock_authenticator>,
         unlockReason: UnsafePointer<CChar>?) throws(IdleLockError) {
        let raw = UnsafeRawPointer(pointer)
        let size = Int(raw.load(as: UInt32.self))
        let known = MemoryLayout<idlelock_authenticator>.size
        if size < ilk_authenticator_size_v1() || size > ConfigLimits.structSizeMax {
            throw .invalid("config.authenticator->size is ", Int64(size), "; set it to sizeof(idlelock_authenticator)")
        }
        var offset = known
        while offset < size {
            if raw.load(fromByteOffset: offset, as: UInt8.self) != 0 {
                throw .invalid("config.authenticator has a non-zero byte at offset ", Int64(offset), ", past the fields this library knows")
            }
            offset += 1
        }
        // Only the bytes the caller's size covers (later fields stay zero).
        var a = idlelock_authenticator()
        withUnsafeMutableBytes(of: &a) { $0.baseAddress!.copyMemory(from: raw, byteCount: min(size, known)) }
        if a.reserved0 != 0 { throw .invalid("config.authenticator->reserved0 must be 0") }
        guard let isAvailable = a.is_available else { throw .invalid("config.authenticator->is_available is NULL") }
        guard let store = a.store_secret else { throw .invalid("config.authenticator->store_secret is NULL") }
        guard let load = a.load_secret else { throw .invalid("config.authenticator->load_secret is NULL") }
        guard let delete = a.delete_secret else { throw .invalid("config.authenticator->delete_secret is NULL") }
        var reason: [CChar]? = nil
        if let unlockReason {
            let length = CStringLength.of(unlockReason, atMost: ConfigLimits.unlockReasonMaxBytes + 1)
            var copy: [CChar] = []
            copy.reserveCapacity(length + 1)
            for i in 0..<length { copy.append(unlockReason[i]) }
            copy.append(0)
            reason = copy
        }
        self.init(context: a.ctx, isAvailable: isAvailable, store: store, load: load, delete: delete,
                  reason: reason)
    }
}
