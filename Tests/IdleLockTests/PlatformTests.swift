// SPDX-License-Identifier: MIT
// The platform layer (Sources/IdleLock/Platform): the arithmetic every
// system shares (run here whatever the host), and the rules each system's
// implementation keeps, checked on this host's (Linux's timerfd, eventfd
// and poll; Darwin's kqueue when run on a Mac).

import Foundation
import Testing
@testable import IdleLock

/// The reading of `ticks` as a Darwin clock reads it, computed the long way
/// (128-bit), for comparison.
private func readingByHand(_ ticks: UInt64, _ timebase: ClockMath.Timebase) -> Int64 {
    let product = ticks.multipliedFullWidth(by: UInt64(timebase.numer))
    let divisor = UInt64(timebase.denom) * 1_000_000
    let (q, _) = divisor.dividingFullWidth(product)
    return Int64(q)
}

private let timebases = [
    ClockMath.Timebase(numer: 1, denom: 1),     // x86-64 Macs: ticks are ns
    ClockMath.Timebase(numer: 125, denom: 3),   // Apple silicon, iPhones: 24 MHz
    ClockMath.Timebase(numer: 3, denom: 125),   // a counter faster than 1 GHz
    ClockMath.Timebase(numer: 1_000_000, denom: 7),
]

@Suite("Platform: clock arithmetic")
struct ClockMathTests {
    @Test func aReadingIsTheFloorOfTheTicksInMilliseconds() {
        let ns = ClockMath.Timebase(numer: 1, denom: 1)
        #expect(ClockMath.milliseconds(ticks: 0, timebase: ns) == 0)
        #expect(ClockMath.milliseconds(ticks: 999_999, timebase: ns) == 0)
        #expect(ClockMath.milliseconds(ticks: 1_000_000, timebase: ns) == 1)
        let apple = ClockMath.Timebase(numer: 125, denom: 3)
        #expect(ClockMath.milliseconds(ticks: 24_000, timebase: apple) == 1, "24 MHz: 24 000 ticks a ms")
        #expect(ClockMath.milliseconds(ticks: 23_999, timebase: apple) == 0)
        #expect(ClockMath.milliseconds(ticks: 24_000 * 86_400_000, timebase: apple) == 86_400_000)
        var generator = SystemRandomNumberGenerator()
        for timebase in timebases {
            for _ in 0..<2_000 {
                let ticks = UInt64.random(in: 0...(UInt64.max / UInt64(timebase.numer)), using: &generator)
                #expect(ClockMath.milliseconds(ticks: ticks, timebase: timebase) == readingByHand(ticks, timebase))
            }
        }
    }

    @Test func aReadingSaturatesInsteadOfTrapping() {
        let apple = ClockMath.Timebase(numer: 125, denom: 3)
        #expect(ClockMath.milliseconds(ticks: UInt64.max, timebase: apple) == Int64.max)
        #expect(ClockMath.milliseconds(ticks: UInt64.max / 125 + 1, timebase: apple) == Int64.max)
        let ns = ClockMath.Timebase(numer: 1, denom: 1)
        #expect(ClockMath.milliseconds(ticks: UInt64.max, timebase: ns) == Int64(UInt64.max / 1_000_000))
        #expect(ClockMath.milliseconds(ticks: 5, timebase: ClockMath.Timebase(numer: 0, denom: 1)) == Int64.max,
                "an unreadable timebase reads as the far future")
        #expect(ClockMath.milliseconds(ticks: 5, timebase: ClockMath.Timebase(numer: 1, denom: 0)) == Int64.max)
    }

    @Test func theAlarmTickIsTheFirstWhoseReadingIsTheDeadline() {
        // Armed for ticks(ms), an alarm fires when the clock reads ms: never
        // a tick earlier (the reading there is ms - 1 or less). Every ms
        // whose ns * denom fits in 64 bits: with Apple's timebases (1/1,
        // 125/3) 97 years and more of uptime.
        var generator = SystemRandomNumberGenerator()
        for timebase in timebases {
            let largest = Int64.max / 1_000_000 / Int64(timebase.denom)
            var samples: [Int64] = [0, 1, 2, 999, 1_000, 86_400_000, largest]
            for _ in 0..<2_000 { samples.append(Int64.random(in: 0...largest, using: &generator)) }
            for ms in samples {
                let tick = ClockMath.ticks(atMilliseconds: ms, timebase: timebase)
                #expect(tick >= 0 && tick < Int64.max)
                #expect(ClockMath.milliseconds(ticks: UInt64(tick), timebase: timebase) == ms,
                        "the deadline's tick reads \(ms) (timebase \(timebase.numer)/\(timebase.denom))")
                if tick > 0 {
                    #expect(ClockMath.milliseconds(ticks: UInt64(tick - 1), timebase: timebase) < ms,
                            "the tick before reads earlier than \(ms)")
                }
            }
        }
    }

    @Test func theAlarmTickSaturates() {
        let apple = ClockMath.Timebase(numer: 125, denom: 3)
        #expect(ClockMath.ticks(atMilliseconds: 97 * 365 * 86_400_000, timebase: apple) < Int64.max,
                "97 years of uptime on a 24 MHz counter")
        for timebase in timebases {
            // Past what 64 bits hold: the largest tick, which never fires early.
            let beyond = Int64(UInt64.max / 1_000_000 / UInt64(timebase.denom)) + 1
            #expect(ClockMath.ticks(atMilliseconds: beyond, timebase: timebase) == Int64.max)
            #expect(ClockMath.ticks(atMilliseconds: Int64.max - 1, timebase: timebase) == Int64.max)
            #expect(ClockMath.ticks(atMilliseconds: -5, timebase: timebase) == 0, "a past reading: fire now")
        }
        #expect(ClockMath.ticks(atMilliseconds: 10, timebase: ClockMath.Timebase(numer: 0, denom: 3)) == Int64.max,
                "an unreadable timebase never fires early")
        #expect(ClockMath.ticksUntil(100, from: 40) == 60)
        #expect(ClockMath.ticksUntil(100, from: 100) == 0)
        #expect(ClockMath.ticksUntil(100, from: 1_000) == 0, "a deadline that has come: fire now")
        #expect(ClockMath.ticksUntil(Int64.max, from: 0) == Int64.max)
    }

    @Test func theLinuxAlarmsTimespecIsTheDeadline() {
        #expect(ClockMath.timespecParts(atMilliseconds: 1_500) == (1, 500_000_000))
        #expect(ClockMath.timespecParts(atMilliseconds: 999) == (0, 999_000_000))
        // it_value 0 would disarm a timerfd: a deadline at or before 0 is 1 ms.
        #expect(ClockMath.timespecParts(atMilliseconds: 0) == (0, 1_000_000))
        #expect(ClockMath.timespecParts(atMilliseconds: Int64.min) == (0, 1_000_000))
        let far = ClockMath.timespecParts(atMilliseconds: Int64.max - 1)
        #expect(far.seconds == (Int64.max - 1) / 1000 && far.nanoseconds == 806_000_000)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<1_000 {
            let ms = Int64.random(in: 1...Int64.max - 1, using: &generator)
            let parts = ClockMath.timespecParts(atMilliseconds: ms)
            #expect(parts.seconds * 1000 + parts.nanoseconds / 1_000_000 == ms)
        }
    }

    @Test func theSystemClockCountsForward() {
        let a = SystemClock.milliseconds()
        usleep(20_000)
        let b = SystemClock.milliseconds()
        #expect(a >= 0 && b >= a + 20, "20 ms of sleep: \(a) then \(b)")
    }
}

@Suite("Platform: the watcher's alarm rules")
struct AlarmRulesTests {
    @Test func theNextAlarmIsTheDeadlineOrNone() {
        #expect(AlarmRules.nextAlarm(now: 1_000, wait: Millis.never, lastFired: Int64.min) == AlarmRules.disarmed)
        #expect(AlarmRules.nextAlarm(now: 1_000, wait: 250, lastFired: Int64.min) == 1_250)
        #expect(AlarmRules.nextAlarm(now: 1_000, wait: 0, lastFired: Int64.min) == 1_000)
        #expect(AlarmRules.nextAlarm(now: Int64.max - 10, wait: 100, lastFired: Int64.min) == AlarmRules.disarmed,
                "a deadline at or past INT64_MAX never comes")
    }

    @Test func aDeadlineStillDueAfterItFiredMovesOnInsteadOfSpinning() {
        #expect(AlarmRules.nextAlarm(now: 1_000, wait: 0, lastFired: 1_000) == 1_001)
        #expect(AlarmRules.nextAlarm(now: 990, wait: 5, lastFired: 1_000) == 1_001, "a clock step backwards")
        #expect(AlarmRules.nextAlarm(now: 1_000, wait: 1, lastFired: 1_000) == 1_001)
        #expect(AlarmRules.nextAlarm(now: 1_000, wait: 2, lastFired: 1_000) == 1_002)
        #expect(AlarmRules.nextAlarm(now: 1_000, wait: Millis.never, lastFired: 1_000) == AlarmRules.disarmed)
    }
}

/// Runs `body` on another thread after `delay` µs.
private func later(_ delay: UInt32, _ body: @escaping @Sendable () -> Void) -> Thread {
    let thread = Thread {
        usleep(delay)
        body()
    }
    thread.start()
    return thread
}

/// Whether an arm succeeded (an #expect over a noncopyable alarm's method
/// would need the alarm copyable).
private func armed(_ result: Bool) -> Bool { result }

/// A noncopyable alarm shared with a thread that wakes it.
private final class SharedAlarm: @unchecked Sendable {
    let alarm: WatcherAlarm
    init() throws { alarm = try WatcherAlarm.make() }
}

@Suite("Platform: the watcher's alarm on this host", .serialized)
struct WatcherAlarmTests {
    @Test func itFiresWhenTheClockReadsTheDeadlineAndNotBefore() throws {
        let alarm = try WatcherAlarm.make()
        for delay in [Int64(1), 15, 40] {
            let at = SystemClock.milliseconds() + delay
            #expect(armed(alarm.arm(at: at)))
            let fired = alarm.sleep(timeoutMs: -1)
            #expect(fired, "the deadline came")
            #expect(SystemClock.milliseconds() >= at, "never before the deadline")
        }
    }

    @Test func aDeadlineAlreadyPastFiresAtOnce() throws {
        let alarm = try WatcherAlarm.make()
        #expect(armed(alarm.arm(at: SystemClock.milliseconds() - 5_000)))
        let fired = alarm.sleep(timeoutMs: -1)
        #expect(fired)
        #expect(armed(alarm.arm(at: 0))) // before the clock's start
        let firedAgain = alarm.sleep(timeoutMs: -1)
        #expect(firedAgain)
    }

    @Test func aWakeUpBeforeTheWaitIsNotLostAndEndsOneWaitOnly() throws {
        let shared = try SharedAlarm()
        shared.alarm.wake()
        shared.alarm.wake()
        let fired = shared.alarm.sleep(timeoutMs: -1)
        #expect(!fired, "the wake-ups sent before the wait end it, as a wake-up")
        // Both were consumed: the next wait lasts until its own deadline.
        let at = SystemClock.milliseconds() + 30
        #expect(armed(shared.alarm.arm(at: at)))
        let firedAgain = shared.alarm.sleep(timeoutMs: -1)
        #expect(firedAgain, "the timer, not a left-over wake-up")
        #expect(SystemClock.milliseconds() >= at)
    }

    @Test func aWakeUpFromAnotherThreadEndsAWaitWithNoDeadline() throws {
        let shared = try SharedAlarm()
        #expect(armed(shared.alarm.arm(at: AlarmRules.disarmed)))
        let waker = later(30_000) { shared.alarm.wake() }
        let fired = shared.alarm.sleep(timeoutMs: -1)
        #expect(!fired, "woken, not fired")
        _ = waker
    }

    @Test func armingAgainReplacesTheDeadline() throws {
        let shared = try SharedAlarm()
        // Far, then near: the near one fires.
        #expect(armed(shared.alarm.arm(at: SystemClock.milliseconds() + 3_600_000)))
        let near = SystemClock.milliseconds() + 20
        #expect(armed(shared.alarm.arm(at: near)))
        let fired = shared.alarm.sleep(timeoutMs: -1)
        #expect(fired)
        #expect(SystemClock.milliseconds() >= near)
        // Near, then disarmed: nothing fires; only the wake-up ends the wait.
        #expect(armed(shared.alarm.arm(at: SystemClock.milliseconds() + 10)))
        #expect(armed(shared.alarm.arm(at: AlarmRules.disarmed)))
        let start = SystemClock.milliseconds()
        _ = later(150_000) { shared.alarm.wake() }
        let firedAgain = shared.alarm.sleep(timeoutMs: -1)
        #expect(!firedAgain, "the disarmed deadline did not fire")
        #expect(SystemClock.milliseconds() - start >= 150)
    }

    @Test func aFiringNotWaitedForIsDroppedWhenArmedAgain() throws {
        let shared = try SharedAlarm()
        #expect(armed(shared.alarm.arm(at: SystemClock.milliseconds() + 1)))
        usleep(20_000) // it fired; nobody waited
        let next = SystemClock.milliseconds() + 40
        #expect(armed(shared.alarm.arm(at: next)))
        let fired = shared.alarm.sleep(timeoutMs: -1)
        #expect(fired)
        #expect(SystemClock.milliseconds() >= next, "the old firing did not end the new wait")
    }
}

@Suite("Platform: threads, boot id, durable sync")
struct PlatformServicesTests {
    @Test func aStartedThreadKnowsItselfAndIsJoined() {
        final class Box: @unchecked Sendable {
            var sawItself = false
            var sawOther = true
            var thread = PlatformThread.current()
            let starter = PlatformThread.current()
        }
        let box = Box()
        let argument = Unmanaged.passRetained(box).toOpaque()
        let rc = PlatformThread.start({ raw in
            let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
            box.sawItself = PlatformThread.current().isCurrent
            box.sawOther = box.starter.isCurrent
            return nil
        }, argument, as: &box.thread)
        #expect(rc == 0)
        #expect(!box.thread.isCurrent, "the started thread is not the caller")
        box.thread.join()
        #expect(box.sawItself)
        #expect(!box.sawOther, "the starter is not the started thread")
        #expect(PlatformThread.current().isCurrent)
    }

    @Test func theBootIdIsThisBootsAndReadsTheSameTwice() throws {
        let id = BootID.current()
        #expect(id.count == BootID.count)
        #expect(id.contains { $0 != 0 }, "readable on this host")
        #expect(BootID.current() == id)
        #if os(Linux)
        let text = try String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8)
        #expect(Array(text.utf8.prefix(BootID.count)) == id)
        #endif
    }

    @Test func aBootIdIsWholeOrUnreadable() {
        let text = [UInt8](repeating: UInt8(ascii: "a"), count: BootID.count) + [0]
        #expect(BootID.isWhole(length: 36, text: text, terminated: false))
        #expect(!BootID.isWhole(length: 35, text: text, terminated: false), "a short read")
        #expect(!BootID.isWhole(length: -1, text: text, terminated: false), "a failed read")
        #expect(BootID.isWhole(length: 37, text: text, terminated: true), "sysctl's string and its NUL")
        #expect(!BootID.isWhole(length: 36, text: text, terminated: true), "no room for the NUL: cut")
        var unterminated = text
        unterminated[36] = UInt8(ascii: "b")
        #expect(!BootID.isWhole(length: 37, text: unterminated, terminated: true))
        #expect(!BootID.isWhole(length: 37, text: Array(text.prefix(36)), terminated: true))
    }

    @Test func aDurableSyncSucceedsOnAFileAndAFolderAndFailsOnABadDescriptor() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("idlelock-sync-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("f")
        try Data("x".utf8).write(to: file)
        let fd = open(file.path, O_RDWR)
        #expect(fd >= 0)
        #expect(DurableSync.sync(fd))
        close(fd)
        let dir = open(folder.path, O_RDONLY | O_DIRECTORY)
        #expect(dir >= 0)
        #expect(DurableSync.sync(dir))
        close(dir)
        #expect(!DurableSync.sync(-1))
        #expect(errno == EBADF)
    }

    @Test func onlyAnUnsupportedFullSyncFallsBackToFsync() {
        for unsupported in [ENOTSUP, EOPNOTSUPP, EINVAL, ENOTTY] {
            #expect(DurableSync.fallsBack(afterFullSyncError: unsupported))
        }
        // A sync that failed is never retried and trusted.
        for failed in [EIO, ENOSPC, EBADF, EINTR, EDQUOT, EROFS] {
            #expect(!DurableSync.fallsBack(afterFullSyncError: failed))
        }
    }
}
