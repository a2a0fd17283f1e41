// SPDX-License-Identifier: MIT
// The host authenticator (header, "Biometric shortcut"): the caller's keystore callbacks, copied
// at create. The library calls them only with no internal lock held. What
// the host releases is key material for a wrap, never a yes/no.

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
    /// The callbacks' types: `idlelock_authenticator`'s fields.
    typealias IsAvailableFunction = @convention(c) (UnsafeMutableRawPointer?) -> Int32
    typealias StoreFunction = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<UInt8>?, Int) -> Int32
    typealias LoadFunction = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?,
                                             UnsafeMutablePointer<UInt8>?, Int,
                                             UnsafeMutablePointer<Int>?) -> Int32
    typealias DeleteFunction = @convention(c) (UnsafeMutableRawPointer?) -> Int32

    private let context: UnsafeMutableRawPointer?
    private let isAvailableFunction: IsAvailableFunction
    private let storeFunction: StoreFunction
    private let loadFunction: LoadFunction
    private let deleteFunction: DeleteFunction
    /// `unlock_reason`, NUL-terminated, or nil.
    private let reason: [CChar]?

    static let secretBytes = 32

    /// The callbacks of a checked `idlelock_authenticator` (the ABI layer
    /// validates the host's struct: ABI/ConfigConversion.swift) and a copy
    /// of `unlock_reason` (NUL-terminated), or nil.
    init(context: UnsafeMutableRawPointer?, isAvailable: IsAvailableFunction, store: StoreFunction,
         load: LoadFunction, delete: DeleteFunction, reason: [CChar]?) {
        self.context = context
        isAvailableFunction = isAvailable
        storeFunction = store
        loadFunction = load
        deleteFunction = delete
        self.reason = reason
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
