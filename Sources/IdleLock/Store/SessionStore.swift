// SPDX-License-Identifier: MIT
// One handle's view of its store (header, "The store"; docs/STORE.md):
// every durable step takes the store lock, re-reads the file, applies
// itself and replaces the file with the next generation. Between steps, a
// cheap look at the generation tells whether another process changed it.
//
// Rollback (docs/STORE.md, "Rollback"): a store of this handle's sign-in
// whose generation is lower than the highest this handle has seen, or than
// the mark in `<store>.lock` (StoreMark.swift), is an older copy put back:
// damage (STORAGE, the session locks), never state to adopt. The mark is
// raised under the store lock after every write (and whenever a read under
// the lock finds it behind the store), so a process that starts after a
// rollback of the store file alone catches it too.

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
    /// Generation and size of the last image read or written here. Within
    /// a sign-in the generation only rises, so this is also the highest
    /// one this handle has seen: the handle's own rollback mark.
    private(set) var knownGeneration: UInt64 = 0
    private(set) var knownSize = 0
    /// The sign-in this handle belongs to (nil before one exists).
    private(set) var sessionID: [UInt8]? = nil

    init(files: StoreFiles, keys: StoreKeys) {
        self.files = files
        self.keys = keys
    }

    /// At create: remove stray temporary files and read the store, under
    /// the store lock. An older copy of the sign-in the mark names is
    /// refused (STORAGE, the file left untouched); a store ahead of the
    /// mark (or one with no mark yet: 1.2.0 kept none) raises it.
    func load() throws(IdleLockError) -> StoreImage? {
        let image = try files.locked { () throws(IdleLockError) -> StoreImage? in
            files.removeStrayTemporaries()
            let mark = readMark()
            guard let bytes = try files.read() else { return nil }
            let image = try StoreFormat.decode(bytes, keys: keys)
            try checkNotRolledBack(image, mark: mark)
            raiseMark(to: image, over: mark)
            return image
        }
        remember(image)
        return image
    }

    /// The cheap look of the header's "The store": the generation and the
    /// session id in the file's first bytes, and its size; a full read only
    /// when one changed (or the first bytes are not a store's: the full
    /// read then says what is wrong). Damage that keeps the first bytes and
    /// the size (a flipped byte further in) is found by the next full read:
    /// every durable step makes one. Without the store lock: the mark is
    /// read before the store, so a writer that replaces the store and then
    /// raises the mark meanwhile is never taken for a rollback.
    func look() throws(IdleLockError) -> StoreLook {
        guard let first = try files.readPrefix(StoreFormat.lookBytes) else { return .gone }
        if first.size == knownSize, let identity = StoreFormat.identity(inPrefix: first.bytes),
           identity.generation == knownGeneration, let sessionID, identity.sessionID == sessionID {
            return .unchanged
        }
        let mark = readMark()
        guard let bytes = try files.read() else { return .gone }
        let image = try StoreFormat.decode(bytes, keys: keys)
        do throws(IdleLockError) {
            try checkNotRolledBack(image, mark: mark)
        } catch {
            // An older copy is judged again under the store lock, on the
            // lock file at the path, before the session is refused: the mark
            // read here may be a deleted lock file's, which this handle
            // still holds open (a cleanup tool deleted it, and another
            // process signed out and in anew with a new one).
            guard let again = try files.locked({ () throws(IdleLockError) -> StoreImage? in
                let mark = readMark()
                guard let bytes = try files.read() else { return nil }
                let image = try StoreFormat.decode(bytes, keys: keys)
                try checkNotRolledBack(image, mark: mark)
                return image
            }) else { return .gone }
            return .changed(again)
        }
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
    /// other processes' changes. An older copy put back is damage (`apply`
    /// does not run).
    func update(_ apply: (inout StoreImage) throws(IdleLockError) -> Bool) throws(IdleLockError) -> StoreImage? {
        let image = try files.locked { () throws(IdleLockError) -> StoreImage? in
            let mark = readMark()
            guard let bytes = try files.read() else { return nil }
            var image = try StoreFormat.decode(bytes, keys: keys)
            try checkNotRolledBack(image, mark: mark)
            guard try apply(&image) else {
                raiseMark(to: image, over: mark)
                return image
            }
            image.generation &+= 1
            let encoded = try StoreFormat.encode(image, keys: keys)
            image.byteCount = encoded.count
            // The mark only follows a store that is durable: after a power
            // cut a rename whose folder could not be synced may be undone,
            // and a mark ahead of the store would refuse it.
            if try files.replace(with: encoded) { raiseMark(to: image, over: mark) }
            return image
        }
        return image
    }

    /// Creates the store for a first passcode. A store that another
    /// process created meanwhile (a race between two sign-ins) fails the
    /// step: nothing changes. The mark then names the new sign-in.
    func create(_ image: StoreImage) throws(IdleLockError) -> StoreImage {
        let written = try files.locked { () throws(IdleLockError) -> StoreImage in
            if let present = try files.read() {
                // Never written over: a damaged file is damage (decode says
                // how); a sound one is another sign-in.
                _ = try StoreFormat.decode(present, keys: keys)
                throw IdleLockError(.storage, "another process signed in with its own passcode meanwhile; nothing changed")
            }
            let mark = readMark()
            var image = image
            image.generation = SessionStore.firstGeneration(over: mark)
            let encoded = try StoreFormat.encode(image, keys: keys)
            image.byteCount = encoded.count
            if try files.replace(with: encoded) { raiseMark(to: image, over: mark) }
            return image
        }
        remember(written)
        return written
    }

    /// The generation a new sign-in starts at: one past the mark, whichever
    /// sign-in it names, so that generations never restart across sign-ins
    /// and every copy of every earlier sign-in is older than the mark
    /// (docs/STORE.md, "Rollback"). With no mark this library can read, a
    /// random start in the lower half of the range (there is nothing to
    /// continue; the look also compares the session id).
    static func firstGeneration(over mark: MarkReading) -> UInt64 {
        if let inForce = mark.mark { return inForce.generation &+ (inForce.generation < UInt64.max ? 1 : 0) }
        var start: UInt64 = 0
        withUnsafeMutableBytes(of: &start) { randombytes_buf($0.baseAddress!, $0.count) }
        return start >> 1
    }

    /// Sign-out: deletes the store (the lock file stays), and moves the
    /// mark one past the sign-in's last generation, so that no copy of the
    /// store, the latest included, signs it in again. Works whatever the
    /// file holds (damage included).
    func remove() throws(IdleLockError) {
        try files.locked { () throws(IdleLockError) in
            let mark = readMark()
            var retired: StoreMark? = nil
            if let sessionID { retired = StoreMark(sessionID: sessionID, generation: knownGeneration) }
            // What is at the path now (read, not checked: a damaged file
            // goes too); its sign-in and generation, when it names one.
            if let first = try? files.readPrefix(StoreFormat.lookBytes),
               let identity = StoreFormat.identity(inPrefix: first.bytes) {
                if let seen = retired, seen.sessionID == identity.sessionID {
                    retired?.generation = Swift.max(seen.generation, identity.generation)
                } else {
                    retired = StoreMark(sessionID: identity.sessionID, generation: identity.generation)
                }
            }
            try files.remove()
            guard var last = retired else { return }
            // Generations never go back across sign-ins: the mark only rises.
            if let inForce = mark.mark { last.generation = Swift.max(last.generation, inForce.generation) }
            if last.generation < UInt64.max { last.generation += 1 }
            writeMark(last, over: mark)
        }
        forget()
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

    // MARK: - Rollback

    private func readMark() -> MarkReading {
        StoreMarkFormat.read(files.readMark(), keys: keys)
    }

    /// An older copy put back: its generation is lower than the highest
    /// this handle has seen of its sign-in, or than the mark, whichever
    /// sign-in the mark names (generations continue across sign-ins:
    /// `firstGeneration`), so a copy of an earlier sign-in is caught too.
    private func checkNotRolledBack(_ image: StoreImage, mark: MarkReading) throws(IdleLockError) {
        var highest: UInt64 = 0
        if let sessionID, image.sessionID == sessionID { highest = knownGeneration }
        if let inForce = mark.mark { highest = Swift.max(highest, inForce.generation) }
        if image.generation < highest {
            throw IdleLockError.damagedStore("the store file is an older copy than one already written (put back from a backup or a copy, of this sign-in or an earlier one?); it was left untouched; put the latest copy back, or sign out (idlelock_disable deletes it)")
        }
    }

    /// Raises the mark to `image` when it is behind (another sign-in's, an
    /// older generation, none). Call with the store lock held, once `image`
    /// is on disk (it passed `checkNotRolledBack`, so it is never below the
    /// mark). Best effort: a mark left behind only narrows what a later
    /// rollback check catches.
    private func raiseMark(to image: StoreImage, over mark: MarkReading) {
        if let inForce = mark.mark, inForce.sessionID == image.sessionID, inForce.generation >= image.generation {
            return
        }
        writeMark(StoreMark(sessionID: image.sessionID, generation: image.generation), over: mark)
    }

    private func writeMark(_ mark: StoreMark, over current: MarkReading) {
        for write in StoreMarkFormat.writes(mark, over: current, keys: keys) {
            guard files.writeMark(slot: write.slot, write.bytes) else { return }
        }
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
