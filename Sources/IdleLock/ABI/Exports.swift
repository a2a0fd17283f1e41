// SPDX-License-Identifier: MIT
// The C ABI: every function of include/idlelock.h, and nothing else. Each
// one validates its pointers and sizes, borrows the handle, calls one Swift
// method (which writes the snapshot into `out`, or into a local copy for a
// struct of another version's size) and maps the error to a status, through
// the machinery of CallBoundary.swift. No trap is reachable from here: a
// Swift trap would kill the host app.
//
// `@c @implementation` (SE-0495) makes the compiler check each signature
// against the hand-written header.

import CIdleLock
import CIdleLockSupport
import CSystem

// MARK: - Life cycle

@c @implementation
public func idlelock_config_init(_ cfg: UnsafeMutablePointer<idlelock_config>?, _ size: Int) -> Int32 {
    guard let cfg else { return fail("idlelock_config_init", .invalid("cfg is NULL")) }
    if ilk_config_size_matches(size) == 0 || unsigned(size) > UInt(ConfigLimits.structSizeMax) {
        return fail("idlelock_config_init", .invalid("size is ", shown(size), ", which matches no version of idlelock_config; pass sizeof(idlelock_config)"))
    }
    var defaults = LockConfig.defaults(size: UInt32(size))
    let raw = UnsafeMutableRawPointer(cfg)
    withUnsafeBytes(of: &defaults) { raw.copyMemory(from: $0.baseAddress!, byteCount: min(size, configSize)) }
    if size > configSize { (raw + configSize).initializeMemory(as: UInt8.self, repeating: 0, count: size - configSize) }
    return statusOK
}

@c @implementation
public func idlelock_create(_ cfg: UnsafePointer<idlelock_config>?,
                            _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    guard let out else { return fail("idlelock_create", .invalid("out is NULL")) }
    out.pointee = nil
    guard let cfg else { return fail("idlelock_create", .invalid("cfg is NULL")) }
    let raw = UnsafeRawPointer(cfg)
    let size = Int(raw.load(as: UInt32.self))
    // An earlier version's size, or at least this version's: a size inside
    // a field matches no header and would mix the caller's bytes with
    // defaults.
    if ilk_config_size_matches(size) == 0 || size > ConfigLimits.structSizeMax {
        return fail("idlelock_create", .invalid("cfg->size is ", Int64(size), ", which matches no version of idlelock_config; initialise it with idlelock_config_init(&cfg, sizeof cfg)"))
    }
    var offset = configSize
    while offset < size {
        if raw.load(fromByteOffset: offset, as: UInt8.self) != 0 {
            return fail("idlelock_create", .invalid("cfg has a non-zero byte at offset ", Int64(offset), ", past the fields this library knows: the host needs a newer libidlelock"))
        }
        offset += 1
    }
    // Read only the bytes the caller's size covers; fields an older host
    // does not know keep their defaults.
    var c = LockConfig.defaults(size: UInt32(size))
    withUnsafeMutableBytes(of: &c) { $0.baseAddress!.copyMemory(from: raw, byteCount: min(size, configSize)) }
    do {
        let config = try LockConfig(validating: c)
        let storePath = try c.store_path.map { (p) throws(IdleLockError) in try StorePath(validating: p) }
        let h = try IdleLockHandle.create(config, storePath: storePath, deviceKey: c.device_key)
        out.pointee = OpaquePointer(Unmanaged.passRetained(h).toOpaque())
        return statusOK
    } catch {
        return fail("idlelock_create", error)
    }
}

@c @implementation
public func idlelock_destroy(_ lock: OpaquePointer?) {
    guard let lock else { return }
    let unmanaged = Unmanaged<IdleLockHandle>.fromOpaque(UnsafeRawPointer(lock))
    unmanaged._withUnsafeGuaranteedRef { $0.destroy() }
    unmanaged.release()
}

@c @implementation
public func idlelock_watch_start(_ lock: OpaquePointer?) -> Int32 {
    guard let h = handle(lock) else { return fail("idlelock_watch_start", nullHandle) }
    do {
        try h.watchStart()
        return statusOK
    } catch {
        return fail("idlelock_watch_start", error)
    }
}

@c @implementation
public func idlelock_watch_stop(_ lock: OpaquePointer?) -> Int32 {
    guard let h = handle(lock) else { return fail("idlelock_watch_stop", nullHandle) }
    h.watchStop()
    return statusOK
}

// MARK: - Events

@c @implementation
public func idlelock_start(_ lock: OpaquePointer?, _ out: UnsafeMutablePointer<idlelock_snapshot>?) -> Int32 {
    event("idlelock_start", lock, out, .start)
}

@c @implementation
public func idlelock_touch(_ lock: OpaquePointer?, _ out: UnsafeMutablePointer<idlelock_snapshot>?) -> Int32 {
    hotEvent("idlelock_touch", lock, out, .touch, .touch)
}

@c @implementation
public func idlelock_inactive(_ lock: OpaquePointer?, _ out: UnsafeMutablePointer<idlelock_snapshot>?) -> Int32 {
    event("idlelock_inactive", lock, out, .inactive)
}

@c @implementation
public func idlelock_background(_ lock: OpaquePointer?, _ out: UnsafeMutablePointer<idlelock_snapshot>?) -> Int32 {
    hotEvent("idlelock_background", lock, out, .background, .background)
}

@c @implementation
public func idlelock_foreground(_ lock: OpaquePointer?, _ out: UnsafeMutablePointer<idlelock_snapshot>?) -> Int32 {
    hotEvent("idlelock_foreground", lock, out, .foreground, .foreground)
}

@c @implementation
public func idlelock_check(_ lock: OpaquePointer?, _ out: UnsafeMutablePointer<idlelock_snapshot>?) -> Int32 {
    hotEvent("idlelock_check", lock, out, .check, .check)
}

@c @implementation
public func idlelock_lifecycle(_ lock: OpaquePointer?, _ platform: Int32, _ stateName: UnsafePointer<CChar>?,
                               _ out: UnsafeMutablePointer<idlelock_snapshot>?) -> Int32 {
    let function: StaticString = "idlelock_lifecycle"
    guard handle(lock) != nil else { return fail(function, nullHandle) }
    guard let which = LifecyclePlatform(rawValue: platform) else {
        // The valid ones, so no binding keeps a list of its own.
        let status = fail(function, .invalid("platform ", Int64(platform), " is not a platform this library knows; use one of "))
        for (n, known) in LifecyclePlatform.allCases.enumerated() {
            appendError(n == 0 ? "" : ", ")
            appendError(known.name)
            appendError(" (", Int64(known.rawValue))
            appendError(")")
        }
        return status
    }
    guard let stateName else { return fail(function, .invalid("state_name is NULL")) }
    let length = CStringLength.of(stateName, atMost: 65)
    guard let presence = LifecycleNames.event(platform: which, name: UnsafeRawBufferPointer(start: stateName, count: length)) else {
        let status = fail(function, .invalid("state_name is not a state of ", nil, which.name))
        var first = true
        LifecycleNames.forEachName(of: which) { name in
            appendError(first ? "; its states are " : ", ")
            appendError(name)
            first = false
        }
        appendError(" (the platform's own spelling, case-sensitive)")
        return status
    }
    return event(function, lock, out, .lifecycle(presence))
}

@c @implementation
public func idlelock_prompt_begin(_ lock: OpaquePointer?, _ token: UnsafeMutablePointer<UInt64>?) -> Int32 {
    guard let h = handle(lock) else { return fail("idlelock_prompt_begin", nullHandle) }
    guard let token else { return fail("idlelock_prompt_begin", .invalid("token is NULL")) }
    let (result, issued) = h.promptBegin()
    if let error = result.error { return fail("idlelock_prompt_begin", error) }
    token.pointee = issued
    return statusOK
}

@c @implementation
public func idlelock_prompt_end(_ lock: OpaquePointer?, _ token: UInt64) -> Int32 {
    guard let h = handle(lock) else { return fail("idlelock_prompt_end", nullHandle) }
    return plain("idlelock_prompt_end", h.promptEnd(token))
}

@c @implementation
public func idlelock_lock(_ lock: OpaquePointer?, _ out: UnsafeMutablePointer<idlelock_snapshot>?) -> Int32 {
    event("idlelock_lock", lock, out, .lockNow)
}

@c @implementation
public func idlelock_snapshot_get(_ lock: OpaquePointer?, _ out: UnsafeMutablePointer<idlelock_snapshot>?) -> Int32 {
    guard out != nil else { return fail("idlelock_snapshot_get", .invalid("out is NULL")) }
    return hotEvent("idlelock_snapshot_get", lock, out, .snapshot, .check)
}

// MARK: - Passcode

@c @implementation
public func idlelock_set_passcode(_ lock: OpaquePointer?, _ utf8: UnsafePointer<CChar>?, _ len: Int) -> Int32 {
    guard let h = handle(lock) else { return fail("idlelock_set_passcode", nullHandle) }
    do {
        let passcode = try passcodeBytes(utf8, len, minScalars: 4)
        return plain("idlelock_set_passcode", h.setPasscode(passcode))
    } catch {
        return fail("idlelock_set_passcode", error)
    }
}

@c @implementation
public func idlelock_unlock(_ lock: OpaquePointer?, _ utf8: UnsafePointer<CChar>?, _ len: Int,
                            _ out: UnsafeMutablePointer<idlelock_snapshot>?) -> Int32 {
    guard let h = handle(lock) else { return fail("idlelock_unlock", nullHandle) }
    let passcode: UnsafeRawBufferPointer
    do {
        passcode = try passcodeBytes(utf8, len, minScalars: 1)
    } catch {
        return fail("idlelock_unlock", error)
    }
    return withOut("idlelock_unlock", lock, out) { _, target in h.unlock(passcode, into: target) }
}

// MARK: - Biometric shortcut

@c @implementation
public func idlelock_enable_biometrics(_ lock: OpaquePointer?) -> Int32 {
    guard let h = handle(lock) else { return fail("idlelock_enable_biometrics", nullHandle) }
    return plain("idlelock_enable_biometrics", h.enableBiometrics())
}

@c @implementation
public func idlelock_disable_biometrics(_ lock: OpaquePointer?) -> Int32 {
    guard let h = handle(lock) else { return fail("idlelock_disable_biometrics", nullHandle) }
    return plain("idlelock_disable_biometrics", h.disableBiometrics())
}

@c @implementation
public func idlelock_unlock_with_biometrics(_ lock: OpaquePointer?,
                                            _ out: UnsafeMutablePointer<idlelock_snapshot>?) -> Int32 {
    withOut("idlelock_unlock_with_biometrics", lock, out) { $0.unlockWithBiometrics(into: $1) }
}

// MARK: - The two-phase biometric pair (1.2)

@c @implementation
public func idlelock_biometric_begin(_ lock: OpaquePointer?, _ purpose: Int32, _ token: UnsafeMutablePointer<UInt64>?,
                                     _ secret: UnsafeMutablePointer<UInt8>?, _ secretLen: Int,
                                     _ out: UnsafeMutablePointer<idlelock_snapshot>?) -> Int32 {
    let function: StaticString = "idlelock_biometric_begin"
    guard lock != nil else { return fail(function, nullHandle) }
    guard let which = BiometricPurpose(rawValue: purpose) else {
        return fail(function, .invalid("purpose must be IDLELOCK_BIOMETRIC_UNLOCK (1) or IDLELOCK_BIOMETRIC_ENABLE (2), got ", Int64(purpose)))
    }
    guard let token else { return fail(function, .invalid("token is NULL")) }
    switch which {
    case .unlock:
        if secret != nil || secretLen != 0 {
            return fail(function, .invalid("secret must be NULL and secret_len 0 for IDLELOCK_BIOMETRIC_UNLOCK (the check releases the secret at finish), got secret_len ", shown(secretLen)))
        }
    case .enable:
        if secret == nil { return fail(function, .invalid("secret is NULL: IDLELOCK_BIOMETRIC_ENABLE writes the new 32-byte secret there")) }
        if unsigned(secretLen) != UInt(HostAuthenticator.secretBytes) {
            return fail(function, .invalid("secret_len must be 32 (IDLELOCK_AUTH_SECRET_BYTES) for IDLELOCK_BIOMETRIC_ENABLE, got ", shown(secretLen)))
        }
    }
    var issued: UInt64 = 0
    let status = withOut(function, lock, out) { h, target in
        let (result, fresh) = h.biometricBegin(which, secretOut: secret, into: target)
        issued = fresh
        return result
    }
    if status == statusOK { token.pointee = issued }
    return status
}

@c @implementation
public func idlelock_biometric_finish(_ lock: OpaquePointer?, _ token: UInt64, _ result: Int32,
                                      _ secret: UnsafePointer<UInt8>?, _ secretLen: Int,
                                      _ out: UnsafeMutablePointer<idlelock_snapshot>?) -> Int32 {
    let function: StaticString = "idlelock_biometric_finish"
    guard lock != nil else { return fail(function, nullHandle) }
    let answer: AuthenticatorResult
    switch result {
    case 0: answer = .released
    case 1: answer = .failed
    case 2: answer = .cancelled
    case 3: answer = .unavailable
    default:
        return fail(function, .invalid("result must be an IDLELOCK_AUTH_* code (0..3), got ", Int64(result)))
    }
    if secret == nil && secretLen != 0 {
        return fail(function, .invalid("secret is NULL but secret_len is ", shown(secretLen)))
    }
    if answer == .released && secretLen != 0 && unsigned(secretLen) != UInt(HostAuthenticator.secretBytes) {
        return fail(function, .invalid("secret_len must be 32 (IDLELOCK_AUTH_SECRET_BYTES) when an unlock request passed (IDLELOCK_AUTH_OK), or 0 for an enable request, got ", shown(secretLen)))
    }
    if answer != .released && secretLen != 0 {
        return fail(function, .invalid("secret_len must be 0 with a result other than IDLELOCK_AUTH_OK (a check that failed, was cancelled or is unavailable releases no secret), got ", shown(secretLen)))
    }
    return withOut(function, lock, out) { h, target in
        h.biometricFinish(token, result: answer, secret: secretLen == 0 ? nil : secret, secretLength: secretLen, into: target)
    }
}

// MARK: - Sign-out

@c @implementation
public func idlelock_disable(_ lock: OpaquePointer?) -> Int32 {
    guard let h = handle(lock) else { return fail("idlelock_disable", nullHandle) }
    return plain("idlelock_disable", h.disable())
}

// MARK: - Listeners

@c @implementation
public func idlelock_subscribe(_ lock: OpaquePointer?, _ fn: idlelock_listener_fn?,
                               _ ctx: UnsafeMutableRawPointer?, _ token: UnsafeMutablePointer<UInt64>?) -> Int32 {
    guard let h = handle(lock) else { return fail("idlelock_subscribe", nullHandle) }
    guard let fn else { return fail("idlelock_subscribe", .invalid("fn is NULL")) }
    guard let token else { return fail("idlelock_subscribe", .invalid("token is NULL")) }
    do {
        // The host's function hears the handle's snapshot as this version's
        // C struct, on the library's stack, valid only during the call.
        token.pointee = try h.subscribe { snapshot in
            var c = idlelock_snapshot(snapshot)
            fn(ctx, &c)
        }
        return statusOK
    } catch {
        return fail("idlelock_subscribe", error)
    }
}

@c @implementation
public func idlelock_unsubscribe(_ lock: OpaquePointer?, _ token: UInt64) -> Int32 {
    guard let h = handle(lock) else { return fail("idlelock_unsubscribe", nullHandle) }
    do {
        try h.unsubscribe(token: token)
        return statusOK
    } catch {
        return fail("idlelock_unsubscribe", error)
    }
}

// MARK: - Secrets and the gate

@c @implementation
public func idlelock_secret_put(_ lock: OpaquePointer?, _ name: UnsafePointer<CChar>?,
                                _ data: UnsafePointer<UInt8>?, _ len: Int) -> Int32 {
    guard let h = handle(lock) else { return fail("idlelock_secret_put", nullHandle) }
    do throws(IdleLockError) {
        let key = try nameBytes(name)
        if unsigned(len) > UInt(SecretLimits.valueMaxBytes) {
            throw IdleLockError.invalid("the value is ", shown(len), " bytes; at most 65536 are allowed")
        }
        if data == nil && len != 0 { throw IdleLockError.invalid("data is NULL but len is ", shown(len)) }
        return plain("idlelock_secret_put", h.putSecret(name: key, value: UnsafeRawBufferPointer(start: data, count: len)))
    } catch {
        return fail("idlelock_secret_put", error)
    }
}

@c @implementation
public func idlelock_secret_get(_ lock: OpaquePointer?, _ name: UnsafePointer<CChar>?,
                                _ buf: UnsafeMutablePointer<UInt8>?, _ len: UnsafeMutablePointer<Int>?) -> Int32 {
    guard let h = handle(lock) else { return fail("idlelock_secret_get", nullHandle) }
    do throws(IdleLockError) {
        let key = try nameBytes(name)
        guard let len else { throw IdleLockError.invalid("len is NULL") }
        // A capacity past what any secret needs is clamped: only the first
        // 65536 bytes can ever be written.
        let capacity = Int(min(unsigned(len.pointee), UInt(SecretLimits.valueMaxBytes)))
        if buf == nil && len.pointee != 0 { throw IdleLockError.invalid("buf is NULL but *len is ", shown(len.pointee)) }
        var size = capacity
        let result = h.getSecret(name: key, into: UnsafeMutableRawPointer(buf), capacity: capacity, size: &size)
        if let error = result.error {
            if error.status == .bufferTooSmall { len.pointee = size }
            return fail("idlelock_secret_get", error)
        }
        len.pointee = size
        return statusOK
    } catch {
        return fail("idlelock_secret_get", error)
    }
}

@c @implementation
public func idlelock_secret_remove(_ lock: OpaquePointer?, _ name: UnsafePointer<CChar>?) -> Int32 {
    guard let h = handle(lock) else { return fail("idlelock_secret_remove", nullHandle) }
    do {
        let key = try nameBytes(name)
        return plain("idlelock_secret_remove", h.removeSecret(name: key))
    } catch {
        return fail("idlelock_secret_remove", error)
    }
}

@c @implementation
public func idlelock_require_unlocked(_ lock: OpaquePointer?) -> Int32 {
    guard let lock else { return fail("idlelock_require_unlocked", nullHandle) }
    return plain("idlelock_require_unlocked", borrowing(lock) { $0.requireUnlocked() })
}

@c @implementation
public func idlelock_require_recent_auth(_ lock: OpaquePointer?, _ maxAge: Int64) -> Int32 {
    guard let lock else { return fail("idlelock_require_recent_auth", nullHandle) }
    if maxAge < 1 || maxAge > ConfigLimits.recentAuthMax {
        return fail("idlelock_require_recent_auth", .invalid("max_age_ms must be 1..2592000000 (30 days), got ", maxAge))
    }
    return plain("idlelock_require_recent_auth", borrowing(lock) { $0.requireRecentAuth(maxAge: maxAge) })
}

// MARK: - Escalating delays

/// The iOS-like preset (Apple Platform Security, "Escalating time delays
/// for passcode attempts"), allocated once and never freed: hosts keep the
/// pointer.
nonisolated(unsafe) private let iosDelaySchedule: UnsafeMutablePointer<idlelock_delay_step> = {
    let steps: [(Int32, Int64)] = [(5, 60_000), (6, 300_000), (7, 900_000), (9, 3_600_000)]
    let table = UnsafeMutablePointer<idlelock_delay_step>.allocate(capacity: steps.count)
    for (i, step) in steps.enumerated() {
        table[i] = idlelock_delay_step(failed_attempts: step.0, reserved0: 0, delay_ms: step.1)
    }
    return table
}()
private let iosDelayScheduleCount = 4

@c @implementation
public func idlelock_delay_schedule_ios(_ steps: UnsafeMutablePointer<UnsafePointer<idlelock_delay_step>?>?,
                                        _ len: UnsafeMutablePointer<Int>?) -> Int32 {
    guard let steps, let len else {
        return fail("idlelock_delay_schedule_ios", .invalid("steps or len is NULL"))
    }
    steps.pointee = UnsafePointer(iosDelaySchedule)
    len.pointee = iosDelayScheduleCount
    return statusOK
}

// MARK: - Errors and versions

private func cString(_ s: StaticString) -> UnsafePointer<CChar> {
    UnsafeRawPointer(s.utf8Start).assumingMemoryBound(to: CChar.self)
}

@c @implementation
public func idlelock_status_name(_ status: Int32) -> UnsafePointer<CChar>? {
    guard let known = Status(rawValue: status) else { return cString("IDLELOCK_ERR_UNKNOWN") }
    return cString(known.name)
}

@c @implementation
public func idlelock_last_error() -> UnsafePointer<CChar>? {
    ilk_error_get()
}

@c @implementation
public func idlelock_version() -> UnsafePointer<CChar>? {
    cString(Version.string)
}

@c @implementation
public func idlelock_version_number() -> Int32 {
    Version.number
}

@c @implementation
public func idlelock_config_size() -> Int {
    configSize
}

@c @implementation
public func idlelock_snapshot_size() -> Int {
    snapshotSize
}

@c @implementation
public func idlelock_authenticator_size() -> Int {
    MemoryLayout<idlelock_authenticator>.size
}

@c @implementation
public func idlelock_delay_step_size() -> Int {
    MemoryLayout<idlelock_delay_step>.size
}
