// One handle's view of its store (SPEC §6–§7): every durable step takes the
// store lock, re-reads the file, applies itself and replaces the file with
// the next generation. Between steps, a cheap look at the generation tells
// whether another process changed it.

import CSystem

enum StoreLook {
    /// Same generation as last seen.
    case unchanged
    /// The store file is absent: signed out elsewhere (or never created).
    /// Only absence is a sign-out: a store that is present but damaged
    /// throws STORAGE (`IdleLockError.isStoreDamage`).
    case gone
    /// Another process wrote it.
    case changed(StoreImage)
}

final class SessionStore {
    let files: StoreFiles
    let keys: StoreKeys
    /// Generation and size of the last image read or written here.
    private(set) var knownGeneration: UInt64 = 0
    private(set) var knownSize = 0
    /// The sign-in this handle belongs to (nil before one exists).
    private(set) var sessionID: [UInt8]? = nil

    init(files: StoreFiles, keys: StoreKeys) {
        self.files = files
        self.keys = keys
    }

    /// At create: remove stray temporary files and read the store, under
    /// the store lock.
    func load() throws(IdleLockError) -> StoreImage? {
        let image = try files.locked { () throws(IdleLockError) -> StoreImage? in
            files.removeStrayTemporaries()
            guard let bytes = try files.read() else { return nil }
            return try StoreFormat.decode(bytes, keys: keys)
        }
        remember(image)
        return image
    }

    /// The cheap look of SPEC §7: the generation and the session id in the
    /// file's first bytes, and its size; a full read only when one changed
    /// (or the first bytes are not a store's: the full read then says what
    /// is wrong). Damage that keeps the first bytes and the size (a flipped
    /// byte further in) is found by the next full read: every durable step
    /// makes one.
    func look() throws(IdleLockError) -> StoreLook {
        guard let first = try files.readPrefix(StoreFormat.lookBytes) else { return .gone }
        if first.size == knownSize, let identity = StoreFormat.identity(inPrefix: first.bytes),
           identity.generation == knownGeneration, let sessionID, identity.sessionID == sessionID {
            return .unchanged
        }
        guard let bytes = try files.read() else { return .gone }
        let image = try StoreFormat.decode(bytes, keys: keys)
        return .changed(image)
    }

    /// Whether `image` belongs to the sign-in this handle knows.
    func isOurs(_ image: StoreImage) -> Bool {
        guard let sessionID else { return false }
        return image.sessionID == sessionID
    }

    /// A durable step: under the store lock, re-read, let `apply` change the
    /// image, and replace the file when `apply` returns true. Returns the
    /// image as re-read (and written), or nil when the store is gone (then
    /// `apply` did not run). `apply` may throw to abandon the step. The
    /// caller must absorb the image (IdleLockHandle.absorb): it may carry
    /// other processes' changes.
    func update(_ apply: (inout StoreImage) throws(IdleLockError) -> Bool) throws(IdleLockError) -> StoreImage? {
        let image = try files.locked { () throws(IdleLockError) -> StoreImage? in
            guard let bytes = try files.read() else { return nil }
            var image = try StoreFormat.decode(bytes, keys: keys)
            guard try apply(&image) else { return image }
            image.generation &+= 1
            let encoded = try StoreFormat.encode(image, keys: keys)
            image.byteCount = encoded.count
            try files.replace(with: encoded)
            return image
        }
        return image
    }

    /// Creates the store for a first passcode. A store that another
    /// process created meanwhile (a race between two sign-ins) fails the
    /// step: nothing changes.
    func create(_ image: StoreImage) throws(IdleLockError) -> StoreImage {
        let written = try files.locked { () throws(IdleLockError) -> StoreImage in
            if let present = try files.read() {
                // Never written over: a damaged file is damage (decode says
                // how); a sound one is another sign-in.
                _ = try StoreFormat.decode(present, keys: keys)
                throw IdleLockError(.storage, "another process signed in with its own passcode meanwhile; nothing changed")
            }
            var image = image
            // A random start, so a new sign-in's generations do not retrace
            // an earlier one's (the look also compares the session id).
            var start: UInt64 = 0
            withUnsafeMutableBytes(of: &start) { randombytes_buf($0.baseAddress!, $0.count) }
            image.generation = start >> 1
            let encoded = try StoreFormat.encode(image, keys: keys)
            image.byteCount = encoded.count
            try files.replace(with: encoded)
            return image
        }
        remember(written)
        return written
    }

    /// Sign-out: deletes the store (the lock file stays).
    func remove() throws(IdleLockError) {
        try files.locked { () throws(IdleLockError) in try files.remove() }
        sessionID = nil
        knownGeneration = 0
        knownSize = 0
    }

    /// Forgets the sign-in (after seeing the store gone).
    func forget() {
        sessionID = nil
        knownGeneration = 0
        knownSize = 0
    }

    func remember(_ image: StoreImage?) {
        guard let image else { return }
        knownGeneration = image.generation
        knownSize = image.byteCount
        sessionID = image.sessionID
    }

    // MARK: - The device wrap

    /// Seals the session key (its first 32 bytes) under the device wrap key.
    func sealDeviceWrap(_ sessionKey: SecureBytes) throws(IdleLockError) -> KeyWrap? {
        guard let wrapKey = keys.wrapKey else { return nil }
        return try KeyWrap.seal(sessionKey, under: wrapKey, label: KeyWrap.deviceLabel)
    }

    /// Opens the device wrap into `into`; false when there is none or it
    /// does not open.
    func openDeviceWrap(_ wrap: KeyWrap?, into: SecureBytes) -> Bool {
        guard let wrap, let wrapKey = keys.wrapKey else { return false }
        return wrap.open(into: into, under: wrapKey, label: KeyWrap.deviceLabel)
    }
}
