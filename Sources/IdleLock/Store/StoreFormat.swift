// SPDX-License-Identifier: MIT
// The store file's format, version 2 (docs/STORE_FORMAT.md): encoding,
// decoding (of version 2, and of version 1, which lacks the passcode
// policies' state) and the integrity check. Everything read is checked
// before it is used: a damaged, edited, foreign or future-version file is
// STORAGE.

import CSystem


/// The contents of a store file.
struct StoreImage {
    var generation: UInt64 = 0
    var maxAttempts: Int32
    var failedAttempts: Int32 = 0
    /// The latest lock saved by any process (nil: the latest was an unlock).
    var savedLock: LockReason? = nil
    /// Last activity saved by unlock, set_passcode and each lock.
    var savedActivity: Int64
    var bootID: [UInt8]
    /// Random at the store's creation; a store with another id is another
    /// sign-in (its session key differs).
    var sessionID: [UInt8]
    var passcode: PasscodeWrap
    var deviceWrap: KeyWrap? = nil
    /// The session key under the authenticator's secret (the biometric
    /// shortcut is on exactly when this is present).
    var biometricWrap: KeyWrap? = nil
    var secrets: [SealedRecord] = []

    /// Set when a wrong passcode reached the limit, or an attempt found the
    /// count already there. A count at the limit without it is the last
    /// attempt still being checked (or a process killed during that check:
    /// the next attempt is refused and sets it).
    var lockedOut = false
    /// The escalating delay of the latest wrong passcode: the clock reading
    /// it started at and its length (0, 0: none, or over and followed by
    /// an attempt).
    var retryStarted: Int64 = 0
    var retryPeriod: Int64 = 0
    /// (format 2) The last passcode entry by any process of the sign-in
    /// (an unlock, a re-authentication or a new passcode): its clock
    /// reading and the boot it was in (zeros: unknown), and the biometric
    /// unlocks since (0...1000). The passcode policies judge them.
    var passcodeEnteredAt: Int64 = 0
    var passcodeBootID: [UInt8] = [UInt8](repeating: 0, count: BootID.count)
    var biometricUses: Int32 = 0
    /// The size of the file this image was read from or written as (for
    /// the cheap look: a file of another size is re-read).
    var byteCount = 0

    /// No wrong attempt counts and no delay runs.
    mutating func clearAttempts() {
        failedAttempts = 0
        retryStarted = 0
        retryPeriod = 0
    }

    /// The session was opened at `now` in boot `boot` (a right passcode, a
    /// new one, the biometric shortcut): no attempt counts, no lock is
    /// saved, and that is the latest activity.
    mutating func recordOpened(at now: Int64, boot: [UInt8]) {
        clearAttempts()
        savedLock = nil
        savedActivity = now
        bootID = boot
    }
}

enum StoreFormat {
    static let magic: [UInt8] = Array("IDLELOCK".utf8)
    /// The version written; `decode` also reads version 1.
    static let version: UInt32 = 2
    static let flagDeviceKey: UInt32 = 1
    /// Offset of the generation counter (the cheap look: header, "The store").
    static let generationOffset = 16
    static let macBytes = 32
    static let sessionIDBytes = 16
    static let deviceCheckOffset = 120
    /// The fixed part of each version (before the records and the mac).
    private static let fixedBytesV1 = 412
    private static let fixedBytes = 460
    private static let recordFixedBytes = 32 + SodiumSizes.nonce + 4

    // MARK: - Encoding

    static func encode(_ image: StoreImage, keys: StoreKeys) throws(IdleLockError) -> [UInt8] {
        var w = ByteWriter()
        w.bytes(magic)
        w.u32(version)
        w.u32(keys.deviceKeyed ? flagDeviceKey : 0)
        w.u64(image.generation)
        w.u64(image.passcode.opslimit)
        w.u64(image.passcode.memlimit)
        w.u32(UInt32(bitPattern: image.maxAttempts))
        w.u32(UInt32(bitPattern: image.failedAttempts))
        w.u32(image.savedLock == nil ? 0 : 1)
        w.u32(UInt32(bitPattern: image.savedLock?.rawValue ?? 0))
        w.u64(UInt64(bitPattern: image.savedActivity))
        w.bytes(image.bootID)
        w.u32(image.lockedOut ? 1 : 0)
        w.bytes(image.sessionID)
        w.bytes(keys.deviceCheck)
        w.bytes(image.passcode.salt)
        w.bytes(image.passcode.nonce)
        w.bytes(image.passcode.sealed)
        w.wrap(image.deviceWrap)
        w.wrap(image.biometricWrap)
        w.u64(UInt64(bitPattern: image.retryStarted))
        w.u64(UInt64(bitPattern: image.retryPeriod))
        w.u64(UInt64(bitPattern: image.passcodeEnteredAt))
        w.bytes(image.passcodeBootID)
        w.u32(UInt32(bitPattern: image.biometricUses))
        w.u32(UInt32(image.secrets.count))
        for record in image.secrets {
            w.bytes(record.id)
            w.bytes(record.nonce)
            w.u32(UInt32(record.valueCount))
            w.bytes(record.sealed)
        }
        var mac = try keys.mac(w.buffer)
        w.bytes(mac)
        mac.removeAll()
        return w.buffer
    }

    // MARK: - Decoding

    /// Offset of the session id; the cheap look reads up to its end.
    static let sessionIDOffset = 104
    static let lookBytes = sessionIDOffset + sessionIDBytes

    /// The generation and session id in a store's first `lookBytes` bytes,
    /// or nil when they are not a version-1 store's (a full read then says
    /// what is wrong). Both are needed: another sign-in's store can reach
    /// the same generation.
    static func identity(inPrefix prefix: [UInt8]) -> (generation: UInt64, sessionID: [UInt8])? {
        guard prefix.count >= lookBytes, Array(prefix[0..<8]) == magic else { return nil }
        var r = ByteReader(prefix)
        r.skip(8)
        let fileVersion = r.u32()
        guard fileVersion == version || fileVersion == 1, r.u32() & ~flagDeviceKey == 0 else { return nil }
        let generation = r.u64()
        return (generation, Array(prefix[sessionIDOffset..<lookBytes]))
    }

    static func decode(_ bytes: [UInt8], keys: StoreKeys) throws(IdleLockError) -> StoreImage {
        guard bytes.count >= fixedBytesV1 + macBytes else {
            throw IdleLockError.damagedStore("the store file is ", Int64(bytes.count), " bytes, shorter than any libidlelock store (cut short?); it was left untouched")
        }
        guard Array(bytes[0..<8]) == magic else {
            throw IdleLockError.damagedStore("the store file is not a libidlelock store (bad magic); it was left untouched")
        }
        var r = ByteReader(bytes)
        r.skip(8)
        let fileVersion = r.u32()
        if fileVersion != version && fileVersion != 1 {
            throw IdleLockError.damagedStore("the store file has format version ", Int64(fileVersion), "; this libidlelock reads versions 1 and 2 (a newer library wrote it?); it was left untouched")
        }
        if fileVersion == version && bytes.count < fixedBytes + macBytes {
            throw IdleLockError.damagedStore("the store file is ", Int64(bytes.count), " bytes, shorter than any version-2 store (cut short?); it was left untouched")
        }
        let flags = r.u32()
        if flags & ~flagDeviceKey != 0 {
            throw IdleLockError.damagedStore("the store file has unknown flags; it was left untouched")
        }
        let storeKeyed = flags & flagDeviceKey != 0
        if storeKeyed && !keys.deviceKeyed {
            throw IdleLockError.damagedStore("the store was made with a device key; pass the same config.device_key")
        }
        if !storeKeyed && keys.deviceKeyed {
            throw IdleLockError.damagedStore("the store was made without a device key; it cannot be opened with config.device_key set")
        }
        let body = Array(bytes[0..<(bytes.count - macBytes)])
        let expected = try keys.mac(body)
        let stored = Array(bytes[(bytes.count - macBytes)...])
        let macOK = expected.withUnsafeBufferPointer { a in
            stored.withUnsafeBufferPointer { b in sodium_memcmp(a.baseAddress!, b.baseAddress!, macBytes) == 0 }
        }
        if !macOK {
            if storeKeyed {
                // Distinguish a wrong device key from damage (below).
                var check = ByteReader(bytes)
                check.skip(deviceCheckOffset)
                if !keys.matchesCheck(check.bytes(32)) {
                    throw IdleLockError.damagedStore("the device key does not match the one the store was made with")
                }
            }
            throw IdleLockError.damagedStore("the store file failed its integrity check (damaged or edited); it was left untouched")
        }
        var image = StoreImage(maxAttempts: 0, savedActivity: 0, bootID: [], sessionID: [],
                               passcode: PasscodeWrap(opslimit: 0, memlimit: 0, salt: [], nonce: [], sealed: []))
        image.byteCount = bytes.count
        image.generation = r.u64()
        let opslimit = r.u64()
        let memlimit = r.u64()
        if opslimit < ConfigLimits.kdfOpsMin || opslimit > ConfigLimits.kdfOpsMax
            || memlimit < ConfigLimits.kdfMemMin || memlimit > ConfigLimits.kdfMemMax {
            throw IdleLockError.damagedStore("the store file holds Argon2id limits out of range; it was left untouched")
        }
        image.maxAttempts = Int32(bitPattern: r.u32())
        image.failedAttempts = Int32(bitPattern: r.u32())
        if image.maxAttempts < 1 || image.maxAttempts > ConfigLimits.maxAttemptsMax
            || image.failedAttempts < 0 || image.failedAttempts > image.maxAttempts {
            throw IdleLockError.damagedStore("the store file holds an attempt limit or count out of range; it was left untouched")
        }
        let savedState = r.u32()
        let savedReason = r.u32()
        guard savedState <= 1, let reason = LockReason(rawValue: Int32(bitPattern: savedReason)) else {
            throw IdleLockError.damagedStore("the store file holds an unknown saved lock; it was left untouched")
        }
        image.savedLock = savedState == 1 ? reason : nil
        image.savedActivity = Int64(bitPattern: r.u64())
        image.bootID = r.bytes(BootID.count)
        switch r.u32() {
        case 0: image.lockedOut = false
        case 1: image.lockedOut = true
        default: throw IdleLockError.damagedStore("the store file has a bad lockout flag; it was left untouched")
        }
        if image.lockedOut && image.failedAttempts != image.maxAttempts {
            throw IdleLockError.damagedStore("the store file is locked out with a count below the limit; it was left untouched")
        }
        image.sessionID = r.bytes(sessionIDBytes)
        r.skip(32) // device check, verified through the MAC
        let salt = r.bytes(SodiumSizes.salt)
        let nonce = r.bytes(SodiumSizes.nonce)
        let sealed = r.bytes(SodiumSizes.key + SodiumSizes.tag)
        image.passcode = PasscodeWrap(opslimit: opslimit, memlimit: memlimit, salt: salt, nonce: nonce, sealed: sealed)
        image.deviceWrap = try r.wrap()
        image.biometricWrap = try r.wrap()
        image.retryStarted = Int64(bitPattern: r.u64())
        image.retryPeriod = Int64(bitPattern: r.u64())
        if image.retryPeriod < 0 || image.retryPeriod > ConfigLimits.delayMax {
            throw IdleLockError.damagedStore("the store file holds an escalating delay out of range; it was left untouched")
        }
        if fileVersion == 1 {
            // Version 1 records no passcode entry: read as one in another
            // boot followed by the most biometric unlocks, so every passcode
            // policy that is on asks for the passcode once (fail closed).
            image.biometricUses = PasscodePolicy.usesMax
        } else {
            image.passcodeEnteredAt = Int64(bitPattern: r.u64())
            image.passcodeBootID = r.bytes(BootID.count)
            let uses = r.u32()
            if uses > UInt32(PasscodePolicy.usesMax) {
                throw IdleLockError.damagedStore("the store file holds a biometric unlock count out of range; it was left untouched")
            }
            image.biometricUses = Int32(uses)
        }
        let count = Int(r.u32())
        if count > SecretLimits.count {
            throw IdleLockError.damagedStore("the store file claims more than 256 secrets; it was left untouched")
        }
        let end = bytes.count - macBytes
        for _ in 0..<count {
            guard r.offset + recordFixedBytes <= end else {
                throw IdleLockError.damagedStore("the store file is truncated inside a secret record; it was left untouched")
            }
            let id = r.bytes(32)
            let recordNonce = r.bytes(SodiumSizes.nonce)
            let length = Int(r.u32())
            guard length <= SecretLimits.valueMaxBytes, r.offset + length + SodiumSizes.tag <= end else {
                throw IdleLockError.damagedStore("the store file has a secret record of a bad length; it was left untouched")
            }
            image.secrets.append(SealedRecord(id: id, nonce: recordNonce, sealed: r.bytes(length + SodiumSizes.tag)))
        }
        if r.offset != end {
            throw IdleLockError.damagedStore("the store file has trailing bytes; it was left untouched")
        }
        return image
    }
}

/// Keys derived from the device key for the store: the integrity key, the
/// check value a store remembers, the key of the device wrap, and the key
/// of the rollback mark in `<store>.lock` (StoreMark.swift). Without a
/// device key the integrity hashes are unkeyed (they then detect damage,
/// not edits) and there is no device wrap.
final class StoreKeys {
    let deviceKeyed: Bool
    /// 32 bytes: the check value (zeros without a device key). Not secret.
    let deviceCheck: [UInt8]
    /// integrity key (32) + device wrap key (32) + mark key (32), or nil.
    private let keys: SecureBytes?

    private static let context: StaticString = "idlkstor"
    private static let checkLabel: StaticString = "idlelock device key check v1"

    init(deviceKey: SecureBytes?) throws(IdleLockError) {
        guard let deviceKey else {
            deviceKeyed = false
            deviceCheck = [UInt8](repeating: 0, count: 32)
            keys = nil
            return
        }
        let derived = try SecureBytes.allocate(count: 128)
        for (i, offset) in [(UInt64(1), 0), (UInt64(2), 32), (UInt64(3), 64), (UInt64(4), 96)] {
            let rc = StoreKeys.context.withUTF8Buffer { ctx in
                crypto_kdf_derive_from_key(derived.base + offset, 32, i,
                                           UnsafeRawPointer(ctx.baseAddress!).assumingMemoryBound(to: CChar.self),
                                           deviceKey.base)
            }
            guard rc == 0 else { throw IdleLockError(.internal, "crypto_kdf_derive_from_key failed") }
        }
        var check = [UInt8](repeating: 0, count: 32)
        check.withUnsafeMutableBufferPointer { out in
            StoreKeys.checkLabel.withUTF8Buffer { label in
                _ = crypto_generichash(out.baseAddress!, 32, label.baseAddress!, UInt64(label.count),
                                       derived.base + 32, 32)
            }
        }
        // Keep the integrity, device wrap and mark keys; drop the check key.
        let kept = try SecureBytes.allocate(count: 96)
        kept.copy(from: derived.base, count: 32)
        kept.copy(from: derived.base + 64, count: 32, at: 32)
        kept.copy(from: derived.base + 96, count: 32, at: 64)
        deviceKeyed = true
        deviceCheck = check
        keys = kept
    }

    /// The device wrap key, when a device key was given.
    var wrapKey: UnsafePointer<UInt8>? { keys.map { UnsafePointer($0.base + 32) } }

    func matchesCheck(_ value: [UInt8]) -> Bool {
        value.count == 32 && value.withUnsafeBufferPointer { a in
            deviceCheck.withUnsafeBufferPointer { b in sodium_memcmp(a.baseAddress!, b.baseAddress!, 32) == 0 }
        }
    }

    /// BLAKE2b-256 of `body`, keyed with the integrity key when there is one.
    func mac(_ body: [UInt8]) throws(IdleLockError) -> [UInt8] {
        guard let out = StoreKeys.hash(body, key: keys.map { UnsafePointer($0.base) }) else {
            throw IdleLockError(.internal, "crypto_generichash failed over the store")
        }
        return out
    }

    /// BLAKE2b-256 of a mark slot's body, keyed with the mark key (device
    /// subkey 4) when there is one; nil only if libsodium fails.
    func markMac(_ body: [UInt8]) -> [UInt8]? {
        StoreKeys.hash(body, key: keys.map { UnsafePointer($0.base + 64) })
    }

    private static func hash(_ body: [UInt8], key: UnsafePointer<UInt8>?) -> [UInt8]? {
        var out = [UInt8](repeating: 0, count: 32)
        let rc = out.withUnsafeMutableBufferPointer { o in
            body.withUnsafeBufferPointer { b in
                crypto_generichash(o.baseAddress!, 32, b.baseAddress!, UInt64(b.count), key, key == nil ? 0 : 32)
            }
        }
        return rc == 0 ? out : nil
    }
}

// MARK: - Little-endian byte writer and reader

struct ByteWriter {
    private(set) var buffer: [UInt8] = []

    mutating func bytes(_ b: [UInt8]) { buffer.append(contentsOf: b) }
    mutating func zeros(_ n: Int) { buffer.append(contentsOf: [UInt8](repeating: 0, count: n)) }
    mutating func u32(_ v: UInt32) {
        for i in 0..<4 { buffer.append(UInt8(truncatingIfNeeded: v >> (8 * UInt32(i)))) }
    }
    mutating func u64(_ v: UInt64) {
        for i in 0..<8 { buffer.append(UInt8(truncatingIfNeeded: v >> (8 * UInt64(i)))) }
    }
    /// A present flag (0/1), then the nonce and the sealed key (zeros when
    /// absent).
    mutating func wrap(_ wrap: KeyWrap?) {
        if let wrap {
            u32(1)
            bytes(wrap.nonce)
            bytes(wrap.sealed)
        } else {
            u32(0)
            zeros(SodiumSizes.nonce + SodiumSizes.key + SodiumSizes.tag)
        }
    }
}

/// Reads within bounds the caller has checked (`decode` checks the fixed
/// part's size first and each record's before reading it).
struct ByteReader {
    private let data: [UInt8]
    private(set) var offset = 0

    init(_ data: [UInt8]) { self.data = data }

    mutating func skip(_ n: Int) { offset += n }
    mutating func bytes(_ n: Int) -> [UInt8] {
        let end = Swift.min(offset + n, data.count)
        let out = Array(data[Swift.min(offset, end)..<end])
        offset += n
        return out.count == n ? out : out + [UInt8](repeating: 0, count: n - out.count)
    }
    mutating func u32() -> UInt32 {
        var v: UInt32 = 0
        for (i, b) in bytes(4).enumerated() { v |= UInt32(b) << (8 * UInt32(i)) }
        return v
    }
    mutating func u64() -> UInt64 {
        var v: UInt64 = 0
        for (i, b) in bytes(8).enumerated() { v |= UInt64(b) << (8 * UInt64(i)) }
        return v
    }
    /// What `ByteWriter.wrap` wrote.
    mutating func wrap() throws(IdleLockError) -> KeyWrap? {
        let present = u32()
        let nonce = bytes(SodiumSizes.nonce)
        let sealed = bytes(SodiumSizes.key + SodiumSizes.tag)
        switch present {
        case 0: return nil
        case 1: return KeyWrap(nonce: nonce, sealed: sealed)
        default: throw IdleLockError.damagedStore("the store file has a bad key-wrap flag; it was left untouched")
        }
    }
}
