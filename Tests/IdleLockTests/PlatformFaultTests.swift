// SPDX-License-Identifier: MIT
// The platform layer while system calls fail (SystemCallFaults.swift): the
// fault plan itself (one thread's, handed to the threads it starts), the
// watcher's alarm and thread, and the timeout that stands in for a timer
// the system refused to arm. The store's faults are StoreFaultTests.swift.

import CIdleLock
import CSystem
import Foundation
import Testing
@testable import IdleLock

private func lastError() -> String { String(cString: idlelock_last_error()) }

/// A handle on the default clock with a passcode, unlocked, heard by `signal`.
private func watchedLock(idle: Int64, _ signal: LockSignal) -> OpaquePointer? {
    var cfg = Lock.config()
    cfg.idle_after_ms = idle
    cfg.background_after_ms = Int64.max
    cfg.lock_on_start = 0
    var h: OpaquePointer? = nil
    guard idlelock_create(&cfg, &h) == 0, idlelock_set_passcode(h, "1234", 4) == 0 else { return nil }
    signal.subscribe(h)
    return h
}

@Suite("Platform faults: the plan")
struct FaultPlanTests {
    @Test func aPlanFailsOnlyTheCallsItNamesInOrder() throws {
        let folder = TempFolder()
        #expect(FileManager.default.createFile(atPath: folder.store, contents: Data([1])))
        let fd = open(folder.store, O_RDWR)
        defer { close(fd) }
        let plan = SystemCallFaults(.fail(.fsync, EIO, after: 1, times: 2))
        let results = plan.run { (0..<4).map { _ in SystemCalls.fsync(fd) == 0 ? 0 : ilk_errno() } }
        #expect(results == [0, EIO, EIO, 0], "the 2nd and 3rd fail")
        #expect(plan.allHit)
        #expect(plan.count(of: .fsync) == 4)
        #expect(plan.trace == [.fsync, .fsync, .fsync, .fsync])
        #expect(SystemCalls.fsync(fd) == 0, "no plan outside run")
    }

    @Test func aShortFaultMovesFewerBytes() throws {
        let plan = SystemCallFaults(.short(.read, to: 3))
        let fd = open("/dev/zero", O_RDONLY)
        defer { close(fd) }
        var buffer = [UInt8](repeating: 1, count: 16)
        let n = plan.run { buffer.withUnsafeMutableBytes { SystemCalls.read(fd, $0.baseAddress!, 16) } }
        #expect(n == 3)
        #expect(buffer[0..<3] == [0, 0, 0] && buffer[3] == 1)
        #expect(plan.allHit)
    }

    /// A fault that no call reached is reported: a test cannot pass a
    /// branch it never took.
    @Test func aFaultNoCallReachedIsReported() {
        let plan = SystemCallFaults(.fail(.renameat, EIO), .fail(.poll, EINTR, times: .max))
        plan.run {}
        #expect(!plan.allHit)
    }

    /// The plan is the calling thread's: another thread's calls, made while
    /// it runs, are not failed (the tests run in parallel).
    @Test func aPlanBelongsToItsThread() throws {
        let folder = TempFolder()
        let plan = SystemCallFaults(.fail(.openat, EMFILE, times: .max))
        let otherDone = DispatchSemaphore(value: 0)
        final class Result: @unchecked Sendable { var status: Int32 = -1 }
        let other = Result()
        let path = folder.store
        plan.run {
            let thread = Thread {
                other.status = StoredLock(path, clock: FakeClock()).status
                otherDone.signal()
            }
            thread.start()
            #expect(otherDone.wait(timeout: .now() + 30) == .success)
            #expect(StoredLock(path + "2", clock: FakeClock()).status == IDLELOCK_ERR_STORAGE)
        }
        #expect(other.status == 0, "the other thread's create was not failed")
        #expect(plan.allHit)
    }
}

@Suite("Platform faults: the watcher", .serialized)
struct WatcherFaultTests {
    @Test(arguments: [(SystemCallFault.fail(.timerfd_create, EMFILE), "timerfd_create(CLOCK_BOOTTIME) failed (errno 24)"),
                      (.fail(.eventfd, ENFILE), "eventfd failed (errno 23)"),
                      (.fail(.pthread_create, EAGAIN), "pthread_create failed for the watcher (error 11)")])
    func aWatcherThatCannotStartSaysWhyAndTheHandleGoesOn(_ fault: SystemCallFault, _ message: String) throws {
        let signal = LockSignal()
        let h = try #require(watchedLock(idle: 60_000, signal))
        defer { idlelock_destroy(h) }
        let plan = SystemCallFaults(fault)
        #expect(plan.run { idlelock_watch_start(h) } == IDLELOCK_ERR_INTERNAL)
        #expect(lastError().contains(message), "\(lastError())")
        #expect(plan.allHit)
        if case .eventfd = fault.call {
            #expect(plan.trace.last == .close, "the timerfd made before it is closed")
        }
        var s = idlelock_snapshot()
        s.size = UInt32(MemoryLayout<idlelock_snapshot>.size)
        #expect(idlelock_snapshot_get(h, &s) == 0 && s.state == IDLELOCK_STATE_UNLOCKED)
        #expect(idlelock_watch_start(h) == 0, "a later start starts it")
        #expect(idlelock_watch_stop(h) == 0)
    }

    /// Regression: the watcher ignored a timer the system refused to arm,
    /// and slept with no deadline: an idle session stayed unlocked (and
    /// its listeners unaware) until some call came. Now the wait's timeout
    /// stands in for the timer.
    @Test func aTimerThatCannotBeArmedStillLocksOnTime() throws {
        let signal = LockSignal()
        let h = try #require(watchedLock(idle: 150, signal))
        defer { idlelock_destroy(h) }
        let plan = SystemCallFaults(.fail(.timerfd_settime, EINVAL, times: .max))
        #expect(plan.run { idlelock_watch_start(h) } == 0)
        #expect(signal.locked.wait(timeout: .now() + 10) == .success, "the watcher locked the idle session")
        #expect(signal.reason == IDLELOCK_REASON_IDLE)
        #expect(idlelock_watch_stop(h) == 0)
        #expect(plan.allHit, "the watcher thread ran under the plan")
    }

    /// Interrupted waits and a failed read of the timer: the watcher arms
    /// and waits again, and locks on time.
    @Test(arguments: [SystemCallFault.fail(.poll, EINTR, times: 3), .fail(.read, EIO)])
    func aWaitThatFailsIsWaitedAgain(_ fault: SystemCallFault) throws {
        let signal = LockSignal()
        let h = try #require(watchedLock(idle: 150, signal))
        defer { idlelock_destroy(h) }
        let plan = SystemCallFaults(fault)
        #expect(plan.run { idlelock_watch_start(h) } == 0)
        #expect(signal.locked.wait(timeout: .now() + 10) == .success)
        #expect(idlelock_watch_stop(h) == 0)
        #expect(plan.allHit)
    }
}

@Suite("Platform: the timeout that stands in for the timer")
struct AlarmTimeoutTests {
    @Test func theTimeoutIsTheTimeLeftNeverNegativeAndNoneWhenDisarmed() {
        #expect(AlarmRules.timeout(at: AlarmRules.disarmed, now: 5) == -1)
        #expect(AlarmRules.timeout(at: 1_150, now: 1_000) == 150)
        #expect(AlarmRules.timeout(at: 1_000, now: 1_000) == 0)
        #expect(AlarmRules.timeout(at: 900, now: 1_000) == 0, "a deadline past: at once")
        #expect(AlarmRules.timeout(at: Int64.max - 1, now: 0) == Int32.max, "at most 24.8 days")
        #expect(AlarmRules.timeout(at: Int64.max - 1, now: Int64.min) == Int32.max, "no overflow")
        #expect(AlarmRules.timeout(at: Int64.min, now: Int64.max) == 0, "no overflow")
    }

    @Test func aTimeoutEndsTheWaitAsTheDeadline() throws {
        let alarm = try WatcherAlarm.make()
        let start = SystemClock.milliseconds()
        let fired = alarm.sleep(timeoutMs: 30)
        #expect(fired, "the timeout is the deadline")
        #expect(SystemClock.milliseconds() - start >= 30)
        let plan = SystemCallFaults(.fail(.poll, EINTR))
        let interrupted = plan.run { alarm.sleep(timeoutMs: 30) }
        #expect(!interrupted, "an interrupted wait is not the deadline")
        #expect(plan.allHit)
    }

    @Test func aTimerTheSystemRefusesIsReported() throws {
        let alarm = try WatcherAlarm.make()
        let plan = SystemCallFaults(.fail(.timerfd_settime, EINVAL))
        let armed = plan.run { alarm.arm(at: SystemClock.milliseconds() + 10) }
        #expect(!armed)
        #expect(plan.allHit)
    }
}

@Suite("Platform faults: the plan's other calls")
struct FaultPlanCallTests {
    @Test func aWriteFailsAndAnUnmadeCallCountsNothing() throws {
        let folder = TempFolder()
        #expect(FileManager.default.createFile(atPath: folder.store, contents: nil))
        let fd = open(folder.store, O_WRONLY)
        defer { close(fd) }
        let plan = SystemCallFaults(.fail(.write, ENOSPC))
        var byte: UInt8 = 1
        let n = plan.run { SystemCalls.write(fd, &byte, 1) }
        #expect(n == -1 && errno == ENOSPC)
        #expect(plan.count(of: .write) == 1)
        #expect(plan.count(of: .poll) == 0)
        #expect(plan.allHit)
    }
}
