// SPDX-License-Identifier: MIT
// The rollback mark kept in `<store>.lock` (docs/STORE_FORMAT.md, "The
// lock file"; docs/STORE.md, "Rollback"): the sign-in and the highest
// generation of its store that a process of this version has written or
// seen under the store lock. A store of that sign-in with a lower
// generation is an older copy put back (damage, STORAGE), in every process,
// also one started after the copy was put back.
//
// The lock file is never replaced (it carries the flock), so the mark is
// written in place: two slots of 80 bytes, each with its own integrity
// check (BLAKE2b-256, keyed with device subkey 4 when there is a device
// key), the newer one (by its sequence number) in force, and a write going
// to the other one, so a write cut short by a crash leaves the previous
// mark readable. Every write happens under the flock, after the store it
// describes is durable (renamed and its folder fsync'd), so the mark is
// never ahead of the store on disk: a store one generation ahead of it (a
// crash between the two writes, or a 1.2.0 writer, which keeps no mark) is
// taken and the mark raised. The mark is not fsync'd: after a power cut it
// may be behind the store, never ahead.
//
// What the mark cannot tell apart is treated as no mark at all, never as
// damage: an empty file (1.2.0 and earlier left it so; that is the upgrade
// path), a slot cut short, one failing its check (edited, or another device
// key), one of an unknown layout. Someone who can write the folder can
// empty the file anyway, so reading an edit as damage would protect nothing
// and would let a stray byte refuse a sound store. A slot of a later
// version is left for the library that wrote it: this one then neither
// reads nor writes the mark.

import CSystem

/// The sign-in and the highest generation of its store known to be
/// written; after a sign-out, one past the last one.
struct StoreMark: Equatable {
    var sessionID: [UInt8]
    var generation: UInt64
}

/// What `<store>.lock` holds.
enum MarkReading: Equatable {
    /// No mark this library can use: empty, cut short, failing its check.
    case none
    /// The mark in force, in `slot` (0 or 1), written as number `sequence`.
    case mark(StoreMark, slot: Int, sequence: UInt64)
    /// A slot of a later version: neither read nor written here.
    case newer

    var mark: StoreMark? {
        if case .mark(let mark, _, _) = self { return mark }
        return nil
    }
}

enum StoreMarkFormat {
    static let magic: [UInt8] = Array("IDLKMARK".utf8)
    static let version: UInt32 = 1
    static let slotBytes = 80
    static let slotCount = 2
    /// The most of the file that is read.
    static let fileBytes = slotBytes * slotCount
    /// The part of a slot the integrity check covers (before it).
    private static let bodyBytes = 48

    /// Reads the mark in force from the lock file's first bytes.
    static func read(_ bytes: [UInt8], keys: StoreKeys) -> MarkReading {
        var best: (mark: StoreMark, slot: Int, sequence: UInt64)? = nil
        for slot in 0..<slotCount {
            let start = slot * slotBytes
            guard bytes.count >= start + slotBytes else { break }
            let body = Array(bytes[start..<(start + bodyBytes)])
            guard Array(body[0..<8]) == magic else { continue }
            var r = ByteReader(body)
            r.skip(8)
            let slotVersion = r.u32()
            if slotVersion > version { return .newer }
            guard slotVersion == version, r.u32() == (keys.deviceKeyed ? 1 : 0) else { continue }
            guard let expected = keys.markMac(body) else { continue }
            let stored = Array(bytes[(start + bodyBytes)..<(start + slotBytes)])
            let macOK = expected.withUnsafeBufferPointer { a in
                stored.withUnsafeBufferPointer { b in sodium_memcmp(a.baseAddress!, b.baseAddress!, 32) == 0 }
            }
            guard macOK else { continue }
            let sequence = r.u64()
            let sessionID = r.bytes(StoreFormat.sessionIDBytes)
            let generation = r.u64()
            if let current = best, current.sequence >= sequence { continue }
            best = (StoreMark(sessionID: sessionID, generation: generation), slot, sequence)
        }
        guard let best else { return .none }
        return .mark(best.mark, slot: best.slot, sequence: best.sequence)
    }

    /// A sequence no history of writes reaches (they start at 1 and add
    /// one): a file that holds one was edited, and is numbered afresh.
    static let renumberFrom: UInt64 = 1 << 62

    /// The writes that put `mark` in force over `current`: one slot (the
    /// one not holding the mark in force, with the next sequence number),
    /// or, over a sequence from `renumberFrom` on, both (the other slot
    /// with 1, then the one in force with 2: a write cut short between
    /// them leaves a slot in force that is never ahead of the store). Empty
    /// when the file is a later version's, or libsodium fails.
    static func writes(_ mark: StoreMark, over current: MarkReading, keys: StoreKeys) -> [(slot: Int, bytes: [UInt8])] {
        switch current {
        case .newer:
            return []
        case .none:
            guard let bytes = slot(mark, sequence: 1, keys: keys) else { return [] }
            return [(0, bytes)]
        case .mark(_, let inForce, let number):
            if number >= renumberFrom {
                guard let first = slot(mark, sequence: 1, keys: keys),
                      let second = slot(mark, sequence: 2, keys: keys) else { return [] }
                return [(1 - inForce, first), (inForce, second)]
            }
            guard let bytes = slot(mark, sequence: number + 1, keys: keys) else { return [] }
            return [(1 - inForce, bytes)]
        }
    }

    /// One slot's 80 bytes.
    static func slot(_ mark: StoreMark, sequence: UInt64, keys: StoreKeys) -> [UInt8]? {
        var w = ByteWriter()
        w.bytes(magic)
        w.u32(version)
        w.u32(keys.deviceKeyed ? 1 : 0)
        w.u64(sequence)
        w.bytes(mark.sessionID)
        w.u64(mark.generation)
        guard let mac = keys.markMac(w.buffer) else { return nil }
        w.bytes(mac)
        return w.buffer
    }
}
