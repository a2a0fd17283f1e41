// SPDX-License-Identifier: MIT
// A damaged, edited or foreign store is refused untouched, with a message
// that says what is wrong: every check of the format's decoder (a field
// out of range behind a valid integrity hash, as a writer holding the key
// could make it), and every file that is not the store's (a symbolic link,
// a FIFO, a folder at the path or at <store>.lock). The C suite
// test_store's damage area does the same through separate processes.

import CIdleLock
import CSystem
import Foundation
import Testing
@testable import IdleLock

private func lastError() -> String { String(cString: idlelock_last_error()) }

private func keys(_ deviceKey: [UInt8]?) throws -> StoreKeys {
    // Secure memory needs libsodium initialised (idlelock_create does it;
    // these tests may run before any handle is made).
    guard sodium_init() >= 0 else { throw IdleLockError(.internal, "sodium_init failed") }
    guard let deviceKey else { return try StoreKeys(deviceKey: nil) }
    let key = try SecureBytes.allocate(count: 32)
    deviceKey.withUnsafeBufferPointer { key.copy(from: $0.baseAddress!, count: 32) }
    return try StoreKeys(deviceKey: key)
}

/// A sound image: one secret, no wraps.
private func image(secrets: Int = 1) -> StoreImage {
    var image = StoreImage(maxAttempts: 5, savedActivity: 1_000, bootID: [UInt8](repeating: 7, count: BootID.count),
                           sessionID: [UInt8](repeating: 3, count: StoreFormat.sessionIDBytes),
                           passcode: PasscodeWrap(opslimit: 2, memlimit: 19 * 1024 * 1024,
                                                  salt: [UInt8](repeating: 1, count: 16),
                                                  nonce: [UInt8](repeating: 2, count: 24),
                                                  sealed: [UInt8](repeating: 4, count: 48)))
    for i in 0..<secrets {
        image.secrets.append(SealedRecord(id: [UInt8](repeating: UInt8(i), count: 32),
                                          nonce: [UInt8](repeating: 5, count: 24),
                                          sealed: [UInt8](repeating: 6, count: 20)))
    }
    return image
}

/// The offset of the first byte where `change` makes the encoding differ.
private func offset(of change: (inout StoreImage) -> Void, keys: StoreKeys) throws -> Int {
    let plain = try StoreFormat.encode(image(), keys: keys)
    var changed = image()
    change(&changed)
    let other = try StoreFormat.encode(changed, keys: keys)
    return try #require(plain.indices.first { plain[$0] != other[$0] })
}

/// `bytes` with `value` written as a little-endian u32 at `at`, and the
/// integrity hash made again.
private func edited(_ bytes: [UInt8], at: Int, u32 value: UInt32, keys: StoreKeys) throws -> [UInt8] {
    var body = Array(bytes.dropLast(StoreFormat.macBytes))
    for i in 0..<4 { body[at + i] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(i))) }
    return body + (try keys.mac(body))
}

private func decodeError(_ bytes: [UInt8], _ keys: StoreKeys) -> IdleLockError? {
    do throws(IdleLockError) {
        _ = try StoreFormat.decode(bytes, keys: keys)
        return nil
    } catch {
        return error
    }
}

/// The message `error` would carry (static parts joined).
private func message(_ error: IdleLockError?) -> String {
    guard let error else { return "no error" }
    return error.head.description + (error.value.map { "\($0)" } ?? "") + error.tail.description
}

@Suite("Store damage: the format")
struct StoreFormatDamageTests {
    @Test func aSoundImageDecodes() throws {
        let k = try keys(nil)
        let bytes = try StoreFormat.encode(image(), keys: k)
        #expect(decodeError(bytes, k) == nil)
    }

    /// Each field out of range, behind a valid hash.
    @Test func everyFieldOutOfRangeIsDamageThatSaysWhich() throws {
        let k = try keys(nil)
        let sound = try StoreFormat.encode(image(), keys: k)
        let ops = try offset(of: { $0.passcode.opslimit = 3 }, keys: k)
        let max = try offset(of: { $0.maxAttempts = 6 }, keys: k)
        let saved = try offset(of: { $0.savedLock = .manual }, keys: k)
        let lockedOut = try offset(of: { $0.lockedOut = true }, keys: k)
        let period = try offset(of: { $0.retryPeriod = 1 }, keys: k)
        let deviceWrap = try offset(of: { $0.deviceWrap = KeyWrap(nonce: [UInt8](repeating: 0, count: 24),
                                                                 sealed: [UInt8](repeating: 0, count: 48)) }, keys: k)
        let count = try offset(of: { $0.secrets.removeAll() }, keys: k)
        let cases: [(Int, UInt32, String)] = [
            (ops, 0, "Argon2id limits out of range"),
            (max, 0, "an attempt limit or count out of range"),
            (saved, 2, "an unknown saved lock"),
            (lockedOut, 2, "a bad lockout flag"),
            (lockedOut, 1, "locked out with a count below the limit"),
            (period + 4, 0x8000_0000, "an escalating delay out of range"),
            (deviceWrap, 2, "a bad key-wrap flag"),
            (count, 257, "claims more than 256 secrets"),
            (count, 2, "truncated inside a secret record"),
            (count + 4 + 32 + 24, 100_000, "a secret record of a bad length"),
        ]
        for (at, value, what) in cases {
            let error = decodeError(try edited(sound, at: at, u32: value, keys: k), k)
            #expect(error?.isStoreDamage == true, "\(what)")
            #expect(message(error).contains(what), "\(what): \(message(error))")
        }
        // Trailing bytes before the hash.
        var body = Array(sound.dropLast(StoreFormat.macBytes)) + [0]
        body += try k.mac(body)
        #expect(message(decodeError(body, k)).contains("trailing bytes"))
    }

    @Test func aFileThatIsNoStoreIsDamageBeforeItsHashIsChecked() throws {
        let k = try keys(nil)
        let sound = try StoreFormat.encode(image(), keys: k)
        var magic = sound
        magic[0] = UInt8(ascii: "X")
        #expect(message(decodeError(magic, k)).contains("bad magic"))
        #expect(message(decodeError(Array(sound.prefix(10)), k)).contains("shorter than any libidlelock store"))
        #expect(message(decodeError(Array(sound.prefix(412 + StoreFormat.macBytes)), k))
                .contains("shorter than any version-2 store"))
        var flags = sound
        flags[12] |= 4
        #expect(message(decodeError(flags, k)).contains("unknown flags"))
        let keyed = try keys([UInt8](repeating: 9, count: 32))
        #expect(message(decodeError(sound, keyed)).contains("made without a device key"))
    }

    /// The cheap look reads no identity from a prefix that is not a store's.
    @Test func aPrefixOfAnotherVersionOrFlagsHasNoIdentity() throws {
        let k = try keys(nil)
        let sound = try StoreFormat.encode(image(), keys: k)
        let prefix = Array(sound.prefix(StoreFormat.lookBytes))
        #expect(StoreFormat.identity(inPrefix: prefix) != nil)
        var version = prefix
        version[8] = 9
        #expect(StoreFormat.identity(inPrefix: version) == nil)
        var flags = prefix
        flags[12] = 6
        #expect(StoreFormat.identity(inPrefix: flags) == nil)
        #expect(StoreFormat.identity(inPrefix: Array(prefix.prefix(20))) == nil)
    }

    /// The reader never reads past its bytes: what is missing reads as
    /// zeros (decode checks sizes first; this is the floor under it).
    @Test func theReaderReadsZerosPastTheEnd() {
        var r = ByteReader([1, 2, 3])
        #expect(r.u32() == 0x0003_0201)
        #expect(r.bytes(2) == [0, 0])
        #expect(r.u64() == 0)
    }
}

@Suite("Store damage: what is at the path")
struct StorePathDamageTests {
    /// A link, a FIFO or a folder at the store's path or at <store>.lock:
    /// refused at create, untouched, with what to do.
    @Test(arguments: [("", "symlink", "the store path is a symbolic link"),
                      ("", "fifo", "the store path is not a regular file"),
                      (".lock", "symlink", "<store_path>.lock is a symbolic link"),
                      (".lock", "fifo", "<store_path>.lock is not a regular file"),
                      (".lock", "folder", "cannot open the store's lock file <store_path>.lock (errno 21)")])
    func somethingElseAtThePathIsRefusedUntouched(_ suffix: String, _ kind: String, _ message: String) throws {
        let folder = TempFolder()
        let path = folder.store + suffix
        switch kind {
        case "symlink": try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "/dev/null")
        case "fifo": #expect(mkfifo(path, 0o600) == 0)
        default: try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        }
        let lock = StoredLock(folder.store, clock: FakeClock())
        #expect(lock.status == IDLELOCK_ERR_STORAGE)
        #expect(lastError().contains(message), "\(lastError())")
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        let type = attributes[.type] as? FileAttributeType
        #expect(type == (kind == "symlink" ? .typeSymbolicLink : kind == "fifo" ? .typeUnknown : .typeDirectory)
                || (kind == "fifo" && type != .typeRegular), "left as it was")
    }

    /// A store that is shorter than the look's bytes, and one that changes
    /// size while it is read: damage, never a store half read.
    @Test func aStoreShorterThanItsHeaderOrChangingSizeIsDamage() throws {
        let folder = TempFolder()
        let a = StoredLock(folder.store, clock: FakeClock())
        #expect(a.setPasscode("2468") == 0)
        let sound = try #require(FileManager.default.contents(atPath: folder.store))
        // The read of the whole store ends early (the mark's read takes two
        // preads, its slot and the end of the file; the store's is the
        // third).
        let plan = SystemCallFaults(.short(.pread, to: 0, after: 2))
        let b = plan.run { StoredLock(folder.store, clock: FakeClock()) }
        #expect(plan.allHit)
        #expect(b.status == IDLELOCK_ERR_STORAGE)
        #expect(lastError().contains("changed size while it was read"), "\(lastError())")
        // Cut to 10 bytes: the look reads what there is, the read says why.
        try Data(sound.prefix(10)).write(to: URL(fileURLWithPath: folder.store))
        #expect(a.unlock("2468") == IDLELOCK_ERR_STORAGE || a.snapshot().state == IDLELOCK_STATE_LOCKED)
        #expect(idlelock_require_unlocked(a.handle) != 0, "a damaged store locks the session")
        #expect(FileManager.default.contents(atPath: folder.store) == sound.prefix(10), "left untouched")
    }

    @Test(arguments: [(String(repeating: "a", count: 4001), "longer than 4000 bytes"),
                      ("/tmp/.", "names a folder"), ("/tmp/..", "names a folder"),
                      ("/tmp/", "names a folder"), ("", "is empty"),
                      ("/tmp/" + String(repeating: "n", count: 245), "is 245 bytes; at most 244")])
    func aBadStorePathIsRefused(_ path: String, _ message: String) {
        let lock = StoredLock(path, clock: FakeClock())
        #expect(lock.status == IDLELOCK_ERR_INVALID_ARGUMENT)
        #expect(lastError().contains(message))
    }

    @Test func aStorePathThatIsNotUTF8IsRefused() {
        var cfg = Lock.config()
        cfg.idle_after_ms = 60_000
        let path: [CChar] = [CChar(bitPattern: UInt8(ascii: "/")), CChar(bitPattern: 0xFF), 0]
        var h: OpaquePointer? = nil
        let rc = path.withUnsafeBufferPointer { p in
            cfg.store_path = p.baseAddress
            return idlelock_create(&cfg, &h)
        }
        #expect(rc == IDLELOCK_ERR_INVALID_ARGUMENT)
        #expect(lastError().contains("not valid UTF-8"))
    }

    /// A path in the root folder, and one with no folder (the current
    /// one), open the folder they name (here refused by a planned fault:
    /// nothing is created in / or in the tests' folder).
    @Test(arguments: ["/session.idlelock", "session.idlelock"])
    func theFolderOfAPathIsOpenedAsItIsNamed(_ path: String) {
        let plan = SystemCallFaults(.fail(.open, EACCES))
        let lock = plan.run { StoredLock(path, clock: FakeClock()) }
        #expect(plan.allHit)
        #expect(lock.status == IDLELOCK_ERR_STORAGE)
        #expect(lastError().contains("cannot open the store's folder (errno 13)"))
    }

    /// A cleanup tool that deletes <store>.lock again and again while a
    /// step takes the store lock: the step gives up after 8 replacements,
    /// and says what to stop. Here the fstat of the locked file fails each
    /// time (fstat#3, 5, ... 17 of an unlock: each is taken as a
    /// replacement).
    @Test func aLockFileReplacedAgainAndAgainStopsTheStep() {
        let folder = TempFolder()
        let a = StoredLock(folder.store, clock: FakeClock())
        #expect(a.setPasscode("2468") == 0)
        idlelock_lock(a.handle, nil)
        let plan = SystemCallFaults((1...8).map { SystemCallFault.fail(.fstat, EIO, after: 2 * $0) })
        #expect(plan.run { a.unlock("2468") } == IDLELOCK_ERR_STORAGE)
        #expect(plan.allHit, "\(plan.trace)")
        #expect(lastError().contains("<store_path>.lock was deleted or replaced 8 times"), "\(lastError())")
        #expect(a.snapshot().attempts_remaining == 5)
        #expect(a.unlock("2468") == 0)
    }
}
