// SPDX-License-Identifier: MIT
// Sealed secrets (header, "Sealed secrets and the gate"): named byte strings kept only as ciphertext.
//
// A record is found by its id, a keyed BLAKE2b hash of the name under a
// subkey of the session key, so the name itself is never kept. The value is
// sealed with XChaCha20-Poly1305 IETF under the session key, with the id as
// associated data: a record cannot be moved to another name. Without the
// session key (wiped while locked) nothing here can be read or found.

import CSystem

/// Layout of the session key buffer: the AEAD key, then the id subkey.
enum SessionKeyLayout {
    static let aeadKey = 0
    static let idKey = SodiumSizes.key
    static let total = 2 * SodiumSizes.key
    /// `crypto_kdf_derive_from_key` context for the id subkey (8 bytes).
    static let idKeyContext: StaticString = "idlkname"
}

enum SecretLimits {
    static let nameMaxBytes = 64
    static let valueMaxBytes = 65_536
    static let count = 256
}

private let recordLabel: StaticString = "idlelock secret v1"
private let idBytes = 32

struct SealedRecord {
    var id: [UInt8]
    var nonce: [UInt8]
    /// value + tag.
    var sealed: [UInt8]

    var valueCount: Int { sealed.count - SodiumSizes.tag }
}

struct SecretVault {
    /// The sealed records; replaced wholesale when the store is re-read.
    var records: [SealedRecord] = []

    init(records: [SealedRecord] = []) {
        self.records = records
    }

    /// Fills the id subkey from the AEAD key (after a new or unwrapped key).
    static func deriveIdKey(in sessionKey: SecureBytes) throws(IdleLockError) {
        let rc = SessionKeyLayout.idKeyContext.withUTF8Buffer { ctx in
            crypto_kdf_derive_from_key(sessionKey.base + SessionKeyLayout.idKey, SodiumSizes.key, 1,
                                       UnsafeRawPointer(ctx.baseAddress!).assumingMemoryBound(to: CChar.self),
                                       sessionKey.base + SessionKeyLayout.aeadKey)
        }
        guard rc == 0 else { throw IdleLockError(.internal, "crypto_kdf_derive_from_key failed") }
    }

    private static func recordID(name: UnsafeRawBufferPointer, key: SecureBytes) -> [UInt8] {
        var id = [UInt8](repeating: 0, count: idBytes)
        id.withUnsafeMutableBufferPointer { out in
            _ = crypto_generichash(out.baseAddress!, idBytes,
                                   name.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt64(name.count),
                                   key.base + SessionKeyLayout.idKey, SodiumSizes.key)
        }
        return id
    }

    private func index(of id: [UInt8]) -> Int? {
        var i = 0
        while i < records.count {
            let same = records[i].id.withUnsafeBufferPointer { a in
                id.withUnsafeBufferPointer { b in sodium_memcmp(a.baseAddress, b.baseAddress, idBytes) == 0 }
            }
            if same { return i }
            i += 1
        }
        return nil
    }

    /// Seals `value` under `name`, replacing an earlier value.
    mutating func put(name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer,
                      key: SecureBytes) throws(IdleLockError) {
        let id = SecretVault.recordID(name: name, key: key)
        let existing = index(of: id)
        if existing == nil && records.count >= SecretLimits.count {
            throw IdleLockError(.noMemory, "the session already holds 256 secrets (the limit); remove one first")
        }
        var nonce = [UInt8](repeating: 0, count: SodiumSizes.nonce)
        nonce.withUnsafeMutableBytes { randombytes_buf($0.baseAddress!, $0.count) }
        var sealed = [UInt8](repeating: 0, count: value.count + SodiumSizes.tag)
        var sealedLength: UInt64 = 0
        // libsodium's parameters are nonnull: an empty value needs a pointer.
        var scratch: UInt8 = 0
        let rc = withUnsafePointer(to: &scratch) { empty in
            sealed.withUnsafeMutableBufferPointer { out in
                nonce.withUnsafeBufferPointer { npub in
                    id.withUnsafeBufferPointer { ad in
                        crypto_aead_xchacha20poly1305_ietf_encrypt(
                            out.baseAddress!, &sealedLength,
                            value.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? empty, UInt64(value.count),
                            ad.baseAddress!, UInt64(ad.count), nil, npub.baseAddress!,
                            key.base + SessionKeyLayout.aeadKey)
                    }
                }
            }
        }
        guard rc == 0, sealedLength == UInt64(sealed.count) else {
            throw IdleLockError(.internal, "crypto_aead_xchacha20poly1305_ietf_encrypt failed while sealing a secret")
        }
        let record = SealedRecord(id: id, nonce: nonce, sealed: sealed)
        if let existing {
            records[existing] = record
        } else {
            records.append(record)
        }
    }

    /// Opens `name`'s value straight into `buffer`, which holds `capacity`
    /// bytes. `size` receives the value's size once the record is found
    /// (also when the buffer is too small). Throws `NOT_FOUND`,
    /// `BUFFER_TOO_SMALL`, or `INTERNAL` when the record fails
    /// authentication.
    func get(name: UnsafeRawBufferPointer, into buffer: UnsafeMutableRawPointer?, capacity: Int,
             key: SecureBytes, size: inout Int) throws(IdleLockError) {
        let id = SecretVault.recordID(name: name, key: key)
        guard let i = index(of: id) else {
            throw IdleLockError(.notFound, "no secret has that name")
        }
        let record = records[i]
        size = record.valueCount
        guard capacity >= record.valueCount else {
            throw IdleLockError(.bufferTooSmall, "the buffer is too small; *len now holds the size needed")
        }
        // crypto_aead_*_decrypt writes nothing for an empty value, but needs a
        // valid pointer.
        var scratch: UInt8 = 0
        var openedLength: UInt64 = 0
        let rc = withUnsafeMutablePointer(to: &scratch) { scratchPointer in
            record.sealed.withUnsafeBufferPointer { c in
                record.nonce.withUnsafeBufferPointer { npub in
                    id.withUnsafeBufferPointer { ad in
                        crypto_aead_xchacha20poly1305_ietf_decrypt(
                            buffer?.assumingMemoryBound(to: UInt8.self) ?? scratchPointer, &openedLength, nil,
                            c.baseAddress!, UInt64(c.count), ad.baseAddress!, UInt64(ad.count),
                            npub.baseAddress!, key.base + SessionKeyLayout.aeadKey)
                    }
                }
            }
        }
        guard rc == 0 else {
            throw IdleLockError(.internal, "a sealed record failed authentication (memory corruption?)")
        }
    }

    /// Forgets `name`'s record.
    mutating func remove(name: UnsafeRawBufferPointer, key: SecureBytes) throws(IdleLockError) {
        guard let i = index(of: SecretVault.recordID(name: name, key: key)) else {
            throw IdleLockError(.notFound, "no secret has that name")
        }
        records.remove(at: i)
    }

    /// Forgets every record (sign-out).
    mutating func removeAll() {
        records.removeAll()
    }
}
