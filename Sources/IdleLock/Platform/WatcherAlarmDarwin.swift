// SPDX-License-Identifier: MIT
// The watcher's alarm on Darwin (iOS): see WatcherAlarm.swift. One kqueue
// holds both events:
//   - the deadline: an EVFILT_TIMER on mach continuous time
//     (NOTE_MACH_CONTINUOUS_TIME: it keeps running while the device sleeps,
//     as the clock does), armed for an absolute tick (NOTE_ABSOLUTE |
//     NOTE_MACHTIME); should the kernel refuse an absolute deadline, for
//     the same tick as an interval from now. Either way it never fires
//     before the clock reads the deadline (ClockMath.ticks). An absolute
//     timer is one-shot: the kernel deletes it once it fired;
//   - the wake-up: an EVFILT_USER with EV_CLEAR, triggered with
//     NOTE_TRIGGER; the wait that returns it resets it.

#if os(macOS) || os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
import CSystem

struct WatcherAlarm: ~Copyable {
    private let queue: Int32
    private static let timerIdent: UInt = 1
    private static let wakeIdent: UInt = 2

    private init(queue: Int32) {
        self.queue = queue
    }

    /// A kqueue with the wake-up event registered and no timer.
    static func make() throws(IdleLockError) -> WatcherAlarm {
        let kq = SystemCalls.kqueue()
        guard kq >= 0 else {
            throw IdleLockError(.internal, "kqueue failed (errno ", Errno.last.number, ")")
        }
        let alarm = WatcherAlarm(queue: kq)
        var event = KernelEvent(ident: wakeIdent, filter: Int16(EVFILT_USER), flags: UInt16(EV_ADD | EV_CLEAR),
                                fflags: 0, data: 0, udata: nil)
        guard SystemCalls.kevent(kq, &event, 1, nil, 0, nil) == 0 else {
            throw IdleLockError(.internal, "kevent(EVFILT_USER) failed (errno ", Errno.last.number, ")")
        }
        return alarm
    }

    deinit {
        SystemCalls.close(queue)
    }

    /// Wakes the waiting thread (from any thread).
    func wake() {
        var event = KernelEvent(ident: WatcherAlarm.wakeIdent, filter: Int16(EVFILT_USER), flags: 0,
                                fflags: UInt32(NOTE_TRIGGER), data: 0, udata: nil)
        _ = SystemCalls.kevent(queue, &event, 1, nil, 0, nil)
    }

    /// Arms the timer for the absolute reading `at` ms of the clock
    /// (`AlarmRules.disarmed`: removes it); false when the system refused
    /// both an absolute and a relative timer.
    func arm(at: Int64) -> Bool {
        if at == AlarmRules.disarmed {
            var event = KernelEvent(ident: WatcherAlarm.timerIdent, filter: Int16(EVFILT_TIMER), flags: UInt16(EV_DELETE),
                                    fflags: 0, data: 0, udata: nil)
            _ = SystemCalls.kevent(queue, &event, 1, nil, 0, nil) // ENOENT: none armed, or it fired
            return true
        }
        let timebase = DarwinTimebase.current
        let deadline = ClockMath.ticks(atMilliseconds: at, timebase: timebase)
        var absolute = KernelEvent(ident: WatcherAlarm.timerIdent, filter: Int16(EVFILT_TIMER),
                                   flags: UInt16(EV_ADD | EV_ONESHOT),
                                   fflags: UInt32(NOTE_ABSOLUTE | NOTE_MACHTIME | NOTE_MACH_CONTINUOUS_TIME),
                                   data: Int(truncatingIfNeeded: deadline), udata: nil)
        if SystemCalls.kevent(queue, &absolute, 1, nil, 0, nil) == 0 { return true }
        let interval = ClockMath.ticksUntil(deadline, from: SystemCalls.mach_continuous_time())
        var relative = KernelEvent(ident: WatcherAlarm.timerIdent, filter: Int16(EVFILT_TIMER),
                                   flags: UInt16(EV_ADD | EV_ONESHOT),
                                   fflags: UInt32(NOTE_MACHTIME | NOTE_MACH_CONTINUOUS_TIME),
                                   data: Int(truncatingIfNeeded: interval), udata: nil)
        return SystemCalls.kevent(queue, &relative, 1, nil, 0, nil) == 0
    }

    /// Waits for the timer or a wake-up, or at most `timeoutMs` ms (-1: no
    /// limit); true when the deadline came (the timer fired, or the
    /// timeout passed). A failed or interrupted wait is false.
    func sleep(timeoutMs: Int32) -> Bool {
        var events = (KernelEvent(), KernelEvent())
        var limit = timespec(tv_sec: Int(timeoutMs / 1000), tv_nsec: Int(timeoutMs % 1000) * 1_000_000)
        let ready = withUnsafeMutableBytes(of: &events) { buffer in
            withUnsafePointer(to: &limit) { limit in
                SystemCalls.kevent(queue, nil, 0, buffer.baseAddress!.assumingMemoryBound(to: KernelEvent.self), 2,
                                   timeoutMs >= 0 ? limit : nil)
            }
        }
        if ready == 0 { return timeoutMs >= 0 }
        if ready < 0 { return false }
        let timer = Int16(EVFILT_TIMER)
        return events.0.filter == timer || (ready > 1 && events.1.filter == timer)
    }
}
#endif
