// The host authenticator (SPEC §5): the caller's keystore callbacks, copied
// at create. The library calls them only with no internal lock held. What
// the host releases is key material for a wrap, never a yes/no.

import CIdleLock
import CIdleLockSupport
import CSystem

/// What `load_secret` gave.
enum AuthenticatorResult: Equatable {
    /// 32 bytes were written into the buffer.
    case released
    case failed
    case cancelled
    case unavailable
}

struct HostAuthenticator {
    private let context: UnsafeMutableRawPointer?
    private let isAvailableFunction: @convention(c) (UnsafeMutableRawPointer?) -> Int32
    private let storeFunction: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<UInt8>?, Int) -> Int32
    private let loadFunction: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?,
                                              UnsafeMutablePointer<UInt8>?, Int,
                                              UnsafeMutablePointer<Int>?) -> Int32
    private let deleteFunction: @convention(c) (UnsafeMutableRawPointer?) -> Int32
    /// `unlock_reason`, NUL-terminated, or nil.
    private let reason: [CChar]?

    static let secretBytes = 32

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
        context = a.ctx
        isAvailableFunction = isAvailable
        storeFunction = store
        loadFunction = load
        deleteFunction = delete
        if let unlockReason {
            let length = strnlen(unlockReason, ConfigLimits.unlockReasonMaxBytes + 1)
            var copy: [CChar] = []
            copy.reserveCapacity(length + 1)
            for i in 0..<length { copy.append(unlockReason[i]) }
            copy.append(0)
            reason = copy
        } else {
            reason = nil
        }
    }

    /// `is_available`: 1 means available; anything else does not.
    func isAvailable() -> Bool {
        isAvailableFunction(context) == 1
    }

    /// `store_secret` of the first 32 bytes of `secret`.
    func store(_ secret: SecureBytes) -> Bool {
        storeFunction(context, secret.base, HostAuthenticator.secretBytes) == 0
    }

    /// `load_secret` into `into` (32 bytes). Anything but a release of
    /// exactly 32 bytes is not a release, and leaves `into` wiped.
    func load(into: SecureBytes) -> AuthenticatorResult {
        var length = 0
        let code: Int32
        if let reason {
            code = reason.withUnsafeBufferPointer {
                loadFunction(context, $0.baseAddress, into.base, HostAuthenticator.secretBytes, &length)
            }
        } else {
            code = loadFunction(context, nil, into.base, HostAuthenticator.secretBytes, &length)
        }
        let result: AuthenticatorResult
        switch code {
        case 0: result = length == HostAuthenticator.secretBytes ? .released : .failed
        case 2: result = .cancelled
        case 3: result = .unavailable
        default: result = .failed
        }
        if result != .released { into.wipe() }
        return result
    }

    /// `delete_secret`; a failure is ignored (the wrap is forgotten anyway).
    func delete() {
        _ = deleteFunction(context)
    }

    /// The key of the biometric wrap: BLAKE2b-256 of the released secret,
    /// keyed with the device key when there is one.
    static func wrapKey(secret: SecureBytes, deviceKey: SecureBytes?) throws(IdleLockError) -> SecureBytes {
        let key = try SecureBytes.allocate(count: SodiumSizes.key)
        let rc = crypto_generichash(key.base, SodiumSizes.key, secret.base, UInt64(secretBytes),
                                    deviceKey.map { UnsafePointer($0.base) }, deviceKey?.count ?? 0)
        guard rc == 0 else { throw IdleLockError(.internal, "crypto_generichash failed while deriving the biometric wrap key") }
        return key
    }
}
