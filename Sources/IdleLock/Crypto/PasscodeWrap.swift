// SPDX-License-Identifier: MIT
// The passcode wrap of the header's "Passcode": Argon2id derives a key from the passcode
// (then keyed BLAKE2b with the device key, when one is given), and that key
// seals the session key with XChaCha20-Poly1305. A wrong passcode is one
// whose key does not open the wrap. All of it is libsodium.

import CSystem

/// Sizes from libsodium.
enum SodiumSizes {
    static let key = 32                  // crypto_aead_xchacha20poly1305_ietf_KEYBYTES
    static let nonce = 24                // crypto_aead_xchacha20poly1305_ietf_NPUBBYTES
    static let tag = 16                  // crypto_aead_xchacha20poly1305_ietf_ABYTES
    static let salt = 16                 // crypto_pwhash_SALTBYTES
}

/// Associated data of the wrap: binds the ciphertext to its purpose.
private let wrapLabel: StaticString = "idlelock wrap v1: session key under passcode key"

/// A session key sealed under a passcode key. Nothing in it is secret.
struct PasscodeWrap {
    var opslimit: UInt64
    var memlimit: UInt64
    var salt: [UInt8]
    var nonce: [UInt8]
    /// The sealed session key: key + tag bytes.
    var sealed: [UInt8]

    /// Derives a fresh passcode key (new random salt) and seals the first
    /// `SodiumSizes.key` bytes of `sessionKey` under it.
    static func seal(sessionKey: SecureBytes, passcode: UnsafeRawBufferPointer,
                     opslimit: UInt64, memlimit: UInt64,
                     deviceKey: SecureBytes?) throws(IdleLockError) -> PasscodeWrap {
        var salt = [UInt8](repeating: 0, count: SodiumSizes.salt)
        salt.withUnsafeMutableBytes { randombytes_buf($0.baseAddress!, $0.count) }
        var nonce = [UInt8](repeating: 0, count: SodiumSizes.nonce)
        nonce.withUnsafeMutableBytes { randombytes_buf($0.baseAddress!, $0.count) }
        let key = try deriveKey(passcode: passcode, salt: salt, opslimit: opslimit,
                                memlimit: memlimit, deviceKey: deviceKey)
        var sealed = [UInt8](repeating: 0, count: SodiumSizes.key + SodiumSizes.tag)
        var sealedLength: UInt64 = 0
        let rc = sealed.withUnsafeMutableBufferPointer { out in
            nonce.withUnsafeBufferPointer { npub in
                wrapLabel.withUTF8Buffer { ad in
                    crypto_aead_xchacha20poly1305_ietf_encrypt(
                        out.baseAddress!, &sealedLength,
                        sessionKey.base, UInt64(SodiumSizes.key),
                        ad.baseAddress!, UInt64(ad.count),
                        nil, npub.baseAddress!, key.base)
                }
            }
        }
        guard rc == 0, sealedLength == UInt64(sealed.count) else {
            throw IdleLockError(.internal, "crypto_aead_xchacha20poly1305_ietf_encrypt failed while wrapping the session key")
        }
        return PasscodeWrap(opslimit: opslimit, memlimit: memlimit, salt: salt, nonce: nonce, sealed: sealed)
    }

    /// Derives the key for `passcode` and tries to open the wrap into
    /// `into` (its first `SodiumSizes.key` bytes). Returns false for a wrong
    /// passcode; `into` is then wiped.
    func open(passcode: UnsafeRawBufferPointer, deviceKey: SecureBytes?,
              into: SecureBytes) throws(IdleLockError) -> Bool {
        let key = try PasscodeWrap.deriveKey(passcode: passcode, salt: salt, opslimit: opslimit,
                                             memlimit: memlimit, deviceKey: deviceKey)
        var openedLength: UInt64 = 0
        let rc = sealed.withUnsafeBufferPointer { c in
            nonce.withUnsafeBufferPointer { npub in
                wrapLabel.withUTF8Buffer { ad in
                    crypto_aead_xchacha20poly1305_ietf_decrypt(
                        into.base, &openedLength, nil,
                        c.baseAddress!, UInt64(c.count),
                        ad.baseAddress!, UInt64(ad.count),
                        npub.baseAddress!, key.base)
                }
            }
        }
        if rc != 0 || openedLength != UInt64(SodiumSizes.key) {
            into.wipe()
            return false
        }
        return true
    }

    /// Argon2id (`crypto_pwhash`, ALG_ARGON2ID13) into secure memory, then,
    /// with a device key, `crypto_generichash` keyed with it.
    private static func deriveKey(passcode: UnsafeRawBufferPointer, salt: [UInt8],
                                  opslimit: UInt64, memlimit: UInt64,
                                  deviceKey: SecureBytes?) throws(IdleLockError) -> SecureBytes {
        let key = try SecureBytes.allocate(count: SodiumSizes.key)
        let rc = salt.withUnsafeBufferPointer { s in
            crypto_pwhash(key.base, UInt64(SodiumSizes.key),
                          passcode.baseAddress!.assumingMemoryBound(to: CChar.self),
                          UInt64(passcode.count), s.baseAddress!,
                          opslimit, Int(memlimit), crypto_pwhash_ALG_ARGON2ID13)
        }
        guard rc == 0 else {
            throw IdleLockError(.noMemory, "Argon2id (crypto_pwhash) could not allocate kdf_memlimit bytes; free memory or lower kdf_memlimit")
        }
        guard let deviceKey else { return key }
        let keyed = try SecureBytes.allocate(count: SodiumSizes.key)
        let hrc = crypto_generichash(keyed.base, SodiumSizes.key, key.base, UInt64(SodiumSizes.key),
                                     deviceKey.base, deviceKey.count)
        guard hrc == 0 else {
            throw IdleLockError(.internal, "crypto_generichash failed while mixing in the device key")
        }
        return keyed
    }
}
