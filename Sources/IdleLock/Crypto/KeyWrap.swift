// SPDX-License-Identifier: MIT
// A wrap of the session key under a 32-byte key (the device wrap key, the
// authenticator's secret): XChaCha20-Poly1305 IETF with a label as
// associated data, so a wrap made for one purpose never opens for another.

import CSystem

struct KeyWrap: Equatable {
    var nonce: [UInt8]
    /// The 32-byte session key + tag.
    var sealed: [UInt8]

    static let deviceLabel: StaticString = "idlelock wrap v1: session key under device key"
    static let biometricLabel: StaticString = "idlelock wrap v1: session key under authenticator secret"

    /// Seals the first 32 bytes of `sessionKey` under `key` (32 bytes).
    static func seal(_ sessionKey: SecureBytes, under key: UnsafePointer<UInt8>,
                     label: StaticString) throws(IdleLockError) -> KeyWrap {
        var nonce = [UInt8](repeating: 0, count: SodiumSizes.nonce)
        nonce.withUnsafeMutableBytes { randombytes_buf($0.baseAddress!, $0.count) }
        var sealed = [UInt8](repeating: 0, count: SodiumSizes.key + SodiumSizes.tag)
        var length: UInt64 = 0
        let rc = sealed.withUnsafeMutableBufferPointer { out in
            nonce.withUnsafeBufferPointer { npub in
                label.withUTF8Buffer { ad in
                    crypto_aead_xchacha20poly1305_ietf_encrypt(out.baseAddress!, &length, sessionKey.base,
                                                               UInt64(SodiumSizes.key), ad.baseAddress!,
                                                               UInt64(ad.count), nil, npub.baseAddress!, key)
                }
            }
        }
        guard rc == 0 else { throw IdleLockError(.internal, "crypto_aead_xchacha20poly1305_ietf_encrypt failed while wrapping the session key") }
        return KeyWrap(nonce: nonce, sealed: sealed)
    }

    /// Opens the wrap into the first 32 bytes of `into`; false (and `into`
    /// wiped) when it does not open under `key`.
    func open(into: SecureBytes, under key: UnsafePointer<UInt8>, label: StaticString) -> Bool {
        var length: UInt64 = 0
        let rc = sealed.withUnsafeBufferPointer { c in
            nonce.withUnsafeBufferPointer { npub in
                label.withUTF8Buffer { ad in
                    crypto_aead_xchacha20poly1305_ietf_decrypt(into.base, &length, nil, c.baseAddress!,
                                                               UInt64(c.count), ad.baseAddress!, UInt64(ad.count),
                                                               npub.baseAddress!, key)
                }
            }
        }
        if rc != 0 || length != UInt64(SodiumSizes.key) {
            into.wipe()
            return false
        }
        return true
    }
}
