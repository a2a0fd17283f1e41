// SPDX-License-Identifier: MIT
// The watcher thread: the session locks on time with no host call. These
// run on the real default clock (CLOCK_BOOTTIME) with short timeouts; they
// assert that something happens, not how fast (the waits are generous
// bounds that turn a hang into a failure).

import CIdleLock
import Foundation
import Testing
@testable import IdleLock

/// A listener that signals when the session locks.
final class LockSignal: @unchecked Sendable {
    let locked = DispatchSemaphore(value: 0)
    var reason: Int32 = -1
    var onLock: ((OpaquePointer?) -> Void)? = nil
    var handle: OpaquePointer?
    var token: UInt64 = 0

    static let listener: idlelock_listener_fn = { ctx, snapshot in
        let me = Unmanaged<LockSignal>.fromOpaque(ctx!).takeUnretainedValue()
        if snapshot!.pointee.state != IDLELOCK_STATE_UNLOCKED {
            me.reason = snapshot!.pointee.reason
            me.onLock?(me.handle)
            me.locked.signal()
        }
    }

    func subscribe(_ handle: OpaquePointer?) {
        self.handle = handle
        _ = idlelock_subscribe(handle, LockSignal.listener, Unmanaged.passUnretained(self).toOpaque(), &token)
    }
}

/// A handle on the default clock.
private func realTimeLock(idle: Int64, background: Int64 = Int64.max, grace: Int64 = 0) -> OpaquePointer? {
    var cfg = Lock.config()
    cfg.idle_after_ms = idle
    cfg.background_after_ms = background
    cfg.grace_ms = grace
    cfg.lock_on_start = 0
    var h: OpaquePointer? = nil
    guard idlelock_create(&cfg, &h) == 0, idlelock_set_passcode(h, "1234", 4) == 0 else { return nil }
    return h
}

@Suite("Watcher", .serialized)
struct WatcherTests {
    @Test func theWatcherLocksAnIdleSessionWithNoHostCall() throws {
        let h = try #require(realTimeLock(idle: 150))
        defer { idlelock_destroy(h) }
        let signal = LockSignal()
        signal.subscribe(h)
        #expect(idlelock_watch_start(h) == 0)
        #expect(idlelock_watch_start(h) == 0, "starting it again does nothing")
        #expect(signal.locked.wait(timeout: .now() + 30) == .success)
        #expect(signal.reason == IDLELOCK_REASON_IDLE)
        #expect(idlelock_watch_stop(h) == 0)
        #expect(idlelock_watch_stop(h) == 0, "stopping it again does nothing")
    }

    @Test func aDeadlineThatMovesEarlierWakesTheWatcher() throws {
        // The watcher sleeps toward the idle deadline an hour away; the app
        // goes to the background with background_after_ms 0 and grace 0.
        let h = try #require(realTimeLock(idle: 3_600_000, background: 0, grace: 0))
        defer { idlelock_destroy(h) }
        let signal = LockSignal()
        signal.subscribe(h)
        #expect(idlelock_watch_start(h) == 0)
        usleep(50_000)
        #expect(idlelock_background(h, nil) == 0)
        #expect(signal.locked.wait(timeout: .now() + 30) == .success)
        #expect(signal.reason == IDLELOCK_REASON_BACKGROUNDED)
    }

    @Test func aListenerOnTheWatcherThreadMayStopItOrDestroyTheHandle() throws {
        let stopper = try #require(realTimeLock(idle: 100))
        let signal = LockSignal()
        signal.onLock = { h in _ = idlelock_watch_stop(h) }
        signal.subscribe(stopper)
        #expect(idlelock_watch_start(stopper) == 0)
        #expect(signal.locked.wait(timeout: .now() + 30) == .success)
        idlelock_destroy(stopper)

        let destroyed = try #require(realTimeLock(idle: 100))
        let last = LockSignal()
        last.onLock = { h in idlelock_destroy(h) }
        last.subscribe(destroyed)
        #expect(idlelock_watch_start(destroyed) == 0)
        #expect(last.locked.wait(timeout: .now() + 30) == .success)
        usleep(100_000) // the watcher thread ends and frees the handle
    }

    @Test func aCallerClockIsRefused() {
        let l = Lock()
        #expect(idlelock_watch_start(l.handle) == IDLELOCK_ERR_INVALID_ARGUMENT)
        #expect(String(cString: idlelock_last_error()).contains("clock"))
        #expect(idlelock_watch_start(nil) == IDLELOCK_ERR_INVALID_ARGUMENT)
        #expect(idlelock_watch_stop(l.handle) == 0)
    }
}
