// SPDX-License-Identifier: MIT
// The watcher's alarm on Linux (glibc, musl, bionic): see WatcherAlarm.swift.
// Everything but Darwin compiles this file: the cross builds compile for
// bare-metal triples (os(none)) against a Linux C library's headers.

#if !(os(macOS) || os(iOS) || os(tvOS) || os(watchOS) || os(visionOS))
import CSystem

struct WatcherAlarm: ~Copyable {
    private let timerFD: Int32
    private let wakeFD: Int32

    private init(timerFD: Int32, wakeFD: Int32) {
        self.timerFD = timerFD
        self.wakeFD = wakeFD
    }

    /// A disarmed timerfd on CLOCK_BOOTTIME and a non-blocking eventfd.
    static func make() throws(IdleLockError) -> WatcherAlarm {
        let timer = SystemCalls.timerfd_create(CLOCK_BOOTTIME, Int32(TFD_CLOEXEC))
        guard timer >= 0 else {
            throw IdleLockError(.internal, "timerfd_create(CLOCK_BOOTTIME) failed (errno ", Errno.last.number, ")")
        }
        let wake = SystemCalls.eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        guard wake >= 0 else {
            let error = Errno.last
            SystemCalls.close(timer)
            throw IdleLockError(.internal, "eventfd failed (errno ", error.number, ")")
        }
        return WatcherAlarm(timerFD: timer, wakeFD: wake)
    }

    deinit {
        SystemCalls.close(timerFD)
        SystemCalls.close(wakeFD)
    }

    /// Wakes the waiting thread (from any thread). The write fails only
    /// when the counter is full (EAGAIN): a wake-up is pending then anyway.
    func wake() {
        var one: UInt64 = 1
        _ = SystemCalls.write(wakeFD, &one, 8)
    }

    /// Arms the timer for the absolute reading `at` ms of the clock
    /// (`AlarmRules.disarmed`: disarmed); false when the system refused.
    /// A time_t narrower than the reading's seconds (32-bit ARM's glibc: 68
    /// years after boot) holds its largest value instead.
    func arm(at: Int64) -> Bool {
        var spec = itimerspec()
        if at != AlarmRules.disarmed {
            let parts = ClockMath.timespecParts(atMilliseconds: at)
            spec.it_value.tv_sec = time_t(clamping: parts.seconds)
            spec.it_value.tv_nsec = Int(truncatingIfNeeded: parts.nanoseconds)
        }
        return SystemCalls.timerfd_settime(timerFD, Int32(TFD_TIMER_ABSTIME), &spec) == 0
    }

    /// Waits for the timer or a wake-up, or at most `timeoutMs` ms (-1: no
    /// limit); true when the deadline came (the timer fired, or the
    /// timeout passed). A failed or interrupted wait is false (the watcher
    /// arms again and waits again).
    func sleep(timeoutMs: Int32) -> Bool {
        var fds = (pollfd(fd: timerFD, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0))
        let ready = withUnsafeMutableBytes(of: &fds) {
            SystemCalls.poll($0.baseAddress!.assumingMemoryBound(to: pollfd.self), 2, timeoutMs)
        }
        if ready == 0 { return timeoutMs >= 0 }
        if ready < 0 { return false }
        // A failed read leaves the descriptor readable: the next wait
        // returns at once and reads again.
        var drained: UInt64 = 0
        if fds.1.revents != 0 { _ = SystemCalls.read(wakeFD, &drained, 8) }
        if fds.0.revents != 0 {
            _ = SystemCalls.read(timerFD, &drained, 8)
            return true
        }
        return false
    }
}
#endif
