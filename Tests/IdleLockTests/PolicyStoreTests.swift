// SPDX-License-Identifier: MIT
// The passcode policies' state with the store (1.2): shared by the handles
// (processes) of one sign-in, kept across restarts, judged against the
// boot, and read from a version-1 store (which lacks it) fail closed.

import CIdleLock
import Foundation
import Testing
@testable import IdleLock

/// Offsets of the version-2 store (docs/STORE_FORMAT.md).
private enum Layout {
    static let version = 8
    static let passcodeEnteredAt = 408
    static let passcodeBootID = 416
    static let biometricUses = 452
    static let secretCountV2 = 456
    static let secretCountV1 = 408
}

/// Rewrites the store at `path` (made without a device key: its mac is an
/// unkeyed BLAKE2b) with `change` applied to its bytes before the mac.
private func rewrite(_ path: String, _ change: (inout [UInt8]) -> Void) throws {
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    var body = Array(bytes[0..<(bytes.count - 32)])
    change(&body)
    bytes = body + (try StoreKeys(deviceKey: nil).mac(body))
    try Data(bytes).write(to: URL(fileURLWithPath: path))
}

/// The same store as a version-1 file: the policies' 48 bytes left out.
private func downgradeToVersion1(_ path: String) throws {
    try rewrite(path) { body in
        body[Layout.version] = 1
        body.removeSubrange(Layout.passcodeEnteredAt..<Layout.secretCountV2)
    }
}

private func fileBytes(_ path: String) -> [UInt8] {
    (try? [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))) ?? []
}

private func lastError() -> String { String(cString: idlelock_last_error()) }

@Suite("Passcode policies with the store")
struct PolicyStoreTests {
    @Test func theStoreRecordsTheLastPasscodeEntryAndTheBiometricCount() {
        let folder = TempFolder()
        let clock = FakeClock(50_000)
        let a = PairLock(clock: clock, store: folder.store)
        a.setPasscode()
        var bytes = fileBytes(folder.store)
        #expect(bytes[Layout.version] == 2, "written as version 2")
        let at = bytes[Layout.passcodeEnteredAt..<(Layout.passcodeEnteredAt + 8)].reversed().reduce(Int64(0)) { $0 << 8 | Int64($1) }
        #expect(at == 50_000, "a new passcode is an entry")
        #expect(bytes[Layout.passcodeBootID..<Layout.biometricUses].contains { $0 != 0 }, "stamped with this boot")
        a.enable()
        a.lock()
        #expect(a.pairUnlock() == 0)
        a.lock()
        #expect(a.pairUnlock() == 0)
        bytes = fileBytes(folder.store)
        #expect(bytes[Layout.biometricUses] == 2)
        a.lock()
        clock.advance(1_000)
        #expect(a.unlock() == 0)
        bytes = fileBytes(folder.store)
        #expect(bytes[Layout.biometricUses] == 0, "a passcode entry resets the count")
    }

    @Test func theCountIsSharedByTheProcessesOfASignIn() {
        let folder = TempFolder()
        let clock = FakeClock()
        let app = PairLock(clock: clock, maxUses: 2, store: folder.store)
        app.setPasscode()
        app.enable()
        let widget = PairLock(clock: clock, maxUses: 2, store: folder.store)
        widget.kept = app.kept
        app.lock()
        #expect(app.pairUnlock() == 0)
        #expect(widget.snapshot().state == IDLELOCK_STATE_LOCKED, "locked from create: no device key")
        #expect(widget.pairUnlock() == 0, "the second use, counted on the app's first")
        #expect(widget.snapshot().is_passcode_required == 1)
        app.lock()
        #expect(app.beginUnlock().0 == IDLELOCK_ERR_LOCK_UNAVAILABLE, "the app sees the widget's use")
        #expect(lastError().contains("biometric_max_uses"))
        #expect(app.snapshot().is_passcode_required == 1)
        #expect(widget.unlock() == 0, "the passcode in one process")
        #expect(app.pairUnlock() == 0, "restarts the count for all")
    }

    @Test func aRestartInTheSameBootKeepsTheCountAndTheEntry() {
        let folder = TempFolder()
        let clock = FakeClock()
        var kept: [UInt8]? = nil
        do {
            let a = PairLock(clock: clock, maxUses: 1, store: folder.store)
            a.setPasscode()
            a.enable()
            a.lock()
            #expect(a.pairUnlock() == 0)
            #expect(a.snapshot().is_passcode_required == 1)
            kept = a.kept
        }
        let b = PairLock(clock: clock, maxUses: 1, store: folder.store)
        b.kept = kept
        #expect(b.snapshot().is_passcode_required == 1, "a restart is no way past biometric_max_uses")
        #expect(b.pairUnlock() == IDLELOCK_ERR_LOCK_UNAVAILABLE)
        let c = PairLock(clock: clock, afterReboot: 1, store: folder.store)
        c.kept = kept
        #expect(c.snapshot().is_passcode_required == 0, "the passcode was entered in this boot")
        #expect(c.pairUnlock() == 0)
    }

    /// A boot id that cannot be read is another boot (fail closed; header,
    /// "Passcode policies"): a process that could not read its own stamps
    /// zeros, which no boot matches, not even another unreadable one.
    @Test func aBootIdThatCannotBeReadIsAnotherBoot() throws {
        let zeros = [UInt8](repeating: 0, count: BootID.count)
        let current = BootID.current()
        #expect(!BootID.matches(zeros, zeros), "two unreadable ids are not one boot")
        #expect(!BootID.matches(zeros, current))
        #expect(!BootID.matches(current, zeros), "a process that cannot read its id is in no known boot")
        #expect(BootID.matches(current, current) == current.contains { $0 != 0 })
        let folder = TempFolder()
        let clock = FakeClock()
        var kept: [UInt8]? = nil
        do {
            let a = PairLock(clock: clock, store: folder.store)
            a.setPasscode()
            a.enable()
            kept = a.kept
        }
        // The entry as a process that could not read its boot id stamped it.
        try rewrite(folder.store) { body in
            for i in Layout.passcodeBootID..<Layout.biometricUses { body[i] = 0 }
        }
        let b = PairLock(clock: clock, afterReboot: 1, store: folder.store)
        b.kept = kept
        #expect(b.snapshot().is_passcode_required == 1)
        #expect(b.pairUnlock() == IDLELOCK_ERR_LOCK_UNAVAILABLE)
    }

    @Test func passcodeAfterRebootAsksForThePasscodeInANewBoot() throws {
        let folder = TempFolder()
        let clock = FakeClock()
        var kept: [UInt8]? = nil
        do {
            let a = PairLock(clock: clock, store: folder.store)
            a.setPasscode()
            a.enable()
            kept = a.kept
        }
        // The last entry as another boot stamped it.
        try rewrite(folder.store) { body in
            for i in Layout.passcodeBootID..<Layout.biometricUses { body[i] = UInt8(ascii: "0") }
        }
        let off = PairLock(clock: clock, store: folder.store)
        off.kept = kept
        #expect(off.snapshot().is_passcode_required == 0, "the policy is off in this config")
        let b = PairLock(clock: clock, afterReboot: 1, store: folder.store)
        b.kept = kept
        #expect(b.snapshot().is_passcode_required == 1)
        #expect(b.pairUnlock() == IDLELOCK_ERR_LOCK_UNAVAILABLE)
        #expect(lastError().contains("restarted"))
        #expect(b.unlock() == 0)
        #expect(b.snapshot().is_passcode_required == 0)
        b.lock()
        #expect(b.pairUnlock() == 0)
    }

    @Test func passcodeMaxAgeCountsAcrossARestart() {
        let folder = TempFolder()
        let clock = FakeClock()
        var kept: [UInt8]? = nil
        do {
            let a = PairLock(clock: clock, maxAge: 3_600_000, store: folder.store)
            a.setPasscode()
            a.enable()
            kept = a.kept
        }
        clock.advance(3_600_000 - 1)
        let b = PairLock(clock: clock, maxAge: 3_600_000, store: folder.store)
        b.kept = kept
        #expect(b.snapshot().is_passcode_required == 0)
        #expect(b.snapshot().ms_until_next_deadline == 1)
        #expect(b.pairUnlock() == 0)
        clock.advance(1)
        b.lock()
        #expect(b.pairUnlock() == IDLELOCK_ERR_LOCK_UNAVAILABLE)
        #expect(lastError().contains("passcode_max_age_ms"))
    }

    @Test func aVersion1StoreIsReadAndAsksForThePasscodeOnce() throws {
        let folder = TempFolder()
        let clock = FakeClock()
        var kept: [UInt8]? = nil
        do {
            let a = PairLock(clock: clock, store: folder.store)
            a.setPasscode()
            #expect(idlelock_secret_put(a.handle, "token", [1, 2, 3], 3) == 0)
            a.enable()
            kept = a.kept
        }
        try downgradeToVersion1(folder.store)
        let v1 = fileBytes(folder.store)
        #expect(v1[Layout.version] == 1 && v1[Layout.secretCountV1] == 1)
        // With no policy on, a version-1 store changes nothing.
        do {
            let plain = PairLock(clock: clock, store: folder.store)
            idlelock_start(plain.handle, nil) // a stored session hands out nothing before its start
            plain.kept = kept
            #expect(plain.snapshot().is_passcode_required == 0)
            #expect(plain.pairUnlock() == 0)
            var value = [UInt8](repeating: 0, count: 8)
            var length = value.count
            #expect(idlelock_secret_get(plain.handle, "token", &value, &length) == 0 && length == 3)
        }
        try downgradeToVersion1(folder.store)
        // With a policy on, it records no passcode entry: the passcode once.
        let b = PairLock(clock: clock, maxUses: 1_000, store: folder.store)
        b.kept = kept
        #expect(b.snapshot().is_passcode_required == 1)
        #expect(b.pairUnlock() == IDLELOCK_ERR_LOCK_UNAVAILABLE)
        #expect(b.unlock() == 0)
        #expect(fileBytes(folder.store)[Layout.version] == 2, "the next write upgrades it")
        b.lock()
        #expect(b.pairUnlock() == 0)
    }

    @Test func aCountOutOfRangeIsDamage() throws {
        let folder = TempFolder()
        do {
            let a = PairLock(store: folder.store)
            a.setPasscode()
        }
        try rewrite(folder.store) { body in
            body[Layout.biometricUses] = 0xE9 // 1001
            body[Layout.biometricUses + 1] = 0x03
        }
        let before = fileBytes(folder.store)
        var cfg = Lock.config()
        cfg.idle_after_ms = 60_000
        var h: OpaquePointer? = nil
        let rc = folder.store.withCString { p in
            cfg.store_path = p
            return idlelock_create(&cfg, &h)
        }
        #expect(rc == IDLELOCK_ERR_STORAGE && h == nil)
        #expect(lastError().contains("biometric unlock count"))
        #expect(fileBytes(folder.store) == before, "left untouched")
    }
}

@Suite("Biometric pair with a second handle on the store")
struct PairSecondHandleTests {
    /// An app with the shortcut on, locked, and a second process (a
    /// widget) on its store.
    private func appAndWidget(_ folder: TempFolder) -> (PairLock, PairLock) {
        let clock = FakeClock()
        let app = PairLock(clock: clock, store: folder.store)
        app.setPasscode()
        app.enable()
        app.lock()
        return (app, PairLock(clock: clock, store: folder.store))
    }

    @Test func anotherProcessesNewPasscodeRefusesAnEnableBegunBeforeIt() {
        let folder = TempFolder()
        let clock = FakeClock()
        let app = PairLock(clock: clock, store: folder.store, deviceKey: [UInt8](repeating: 3, count: 32),
                           lockOnStart: 0)
        app.setPasscode()
        let widget = PairLock(clock: clock, store: folder.store, deviceKey: [UInt8](repeating: 3, count: 32),
                              lockOnStart: 0)
        idlelock_start(widget.handle, nil)
        let (rc, token, _) = app.beginEnable()
        #expect(rc == 0)
        #expect(widget.setPasscode("97531") == 0, "the other process changes the passcode meanwhile")
        #expect(app.finish(token) == IDLELOCK_ERR_SESSION_LOCKED)
        #expect(app.snapshot().is_biometrics_enabled == 0)
        #expect(widget.snapshot().is_biometrics_enabled == 0, "the store's shortcut stayed off")
    }

    @Test func anotherProcessesSignOutVoidsAnUnlockInFlight() {
        let folder = TempFolder()
        let (app, widget) = appAndWidget(folder)
        let (rc, token) = app.beginUnlock()
        #expect(rc == 0)
        #expect(idlelock_disable(widget.handle) == 0, "signed out in the other process")
        let status = app.finish(token, secret: app.kept)
        #expect(status != 0)
        #expect(app.snapshot().is_enabled == 0, "this process saw the sign-out")
        #expect(app.beginUnlock().0 == IDLELOCK_ERR_NO_PASSCODE)
    }

    @Test func anotherProcessesLockoutWinsOverAFinishedUnlock() {
        let folder = TempFolder()
        let (app, widget) = appAndWidget(folder)
        let (rc, token) = app.beginUnlock()
        #expect(rc == 0)
        for _ in 0..<5 { _ = widget.unlock("0000") }
        #expect(widget.snapshot().state == IDLELOCK_STATE_LOCKED_OUT)
        #expect(app.finish(token, secret: app.kept) == IDLELOCK_ERR_LOCKED_OUT)
        #expect(app.snapshot().state == IDLELOCK_STATE_LOCKED_OUT)
    }
}

@Suite("Biometric pair and store faults")
struct PairStoreFaultTests {
    /// Regression: a begin whose judging locked the session, the lock's
    /// save failing, returned STORAGE and no token, yet left its request
    /// open: a place of the eight taken for good.
    @Test func aBeginThatFailsLeavesNoRequestOpen() {
        let folder = TempFolder()
        let key = [UInt8](repeating: 5, count: 32)
        let l = PairLock(store: folder.store, deviceKey: key, lockOnStart: 0)
        l.setPasscode()
        l.enable()
        l.clock.advance(60_000) // the idle deadline: the begin's judging locks
        var token: UInt64 = 0
        let rename = SystemCallFaults(.fail(.renameat, EIO))
        #expect(rename.run { idlelock_biometric_begin(l.handle, IDLELOCK_BIOMETRIC_UNLOCK, &token, nil, 0, nil) }
                == IDLELOCK_ERR_STORAGE)
        #expect(rename.allHit)
        #expect(token == 0)
        #expect(l.snapshot().state == IDLELOCK_STATE_LOCKED)
        for i in 0..<IDLELOCK_BIOMETRIC_REQUESTS_MAX {
            #expect(l.beginUnlock().0 == 0, "request \(i)")
        }
    }

    /// The same for a prompt: one opened by a begin that returned STORAGE
    /// (and no token) is not left open.
    @Test func aPromptBeginThatFailsLeavesNoPromptOpen() {
        let folder = TempFolder()
        let l = PairLock(store: folder.store, deviceKey: [UInt8](repeating: 5, count: 32), lockOnStart: 0)
        l.setPasscode()
        l.clock.advance(60_000)
        let handle = Unmanaged<IdleLockHandle>.fromOpaque(UnsafeRawPointer(l.handle!)).takeUnretainedValue()
        var token: UInt64 = 0
        let rename = SystemCallFaults(.fail(.renameat, EIO))
        #expect(rename.run { idlelock_prompt_begin(l.handle, &token) } == IDLELOCK_ERR_STORAGE)
        #expect(rename.allHit)
        #expect(token == 0)
        handle.mutex.lock()
        let open = handle.rules.shield.open.count
        handle.mutex.unlock()
        #expect(open == 0)
    }
}
