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
        let kq = kqueue()
        guard kq >= 0 else {
            throw IdleLockError(.internal, "kqueue failed (errno ", Int64(ilk_errno()), ")")
        }
        let alarm = WatcherAlarm(queue: kq)
        var event = kevent(ident: wakeIdent, filter: Int16(EVFILT_USER), flags: UInt16(EV_ADD | EV_CLEAR),
                           fflags: 0, data: 0, udata: nil)
        guard kevent(kq, &event, 1, nil, 0, nil) == 0 else {
            throw IdleLockError(.internal, "kevent(EVFILT_USER) failed (errno ", Int64(ilk_errno()), ")")
        }
        return alarm
    }

    deinit {
        close(queue)
    }

    /// Wakes the waiting thread (from any thread).
    func wake() {
        var event = kevent(ident: WatcherAlarm.wakeIdent, filter: Int16(EVFILT_USER), flags: 0,
                           fflags: UInt32(NOTE_TRIGGER), data: 0, udata: nil)
        _ = kevent(queue, &event, 1, nil, 0, nil)
    }

    /// Arms the timer for the absolute reading `at` ms of the clock
    /// (`AlarmRules.disarmed`: removes it).
    func arm(at: Int64) {
        if at == AlarmRules.disarmed {
            var event = kevent(ident: WatcherAlarm.timerIdent, filter: Int16(EVFILT_TIMER), flags: UInt16(EV_DELETE),
                               fflags: 0, data: 0, udata: nil)
            _ = kevent(queue, &event, 1, nil, 0, nil) // ENOENT: none armed, or it fired
            return
        }
        let timebase = DarwinTimebase.current
        let deadline = ClockMath.ticks(atMilliseconds: at, timebase: timebase)
        var absolute = kevent(ident: WatcherAlarm.timerIdent, filter: Int16(EVFILT_TIMER),
                              flags: UInt16(EV_ADD | EV_ONESHOT),
                              fflags: UInt32(NOTE_ABSOLUTE | NOTE_MACHTIME | NOTE_MACH_CONTINUOUS_TIME),
                              data: Int(truncatingIfNeeded: deadline), udata: nil)
        if kevent(queue, &absolute, 1, nil, 0, nil) == 0 { return }
        let interval = ClockMath.ticksUntil(deadline, from: mach_continuous_time())
        var relative = kevent(ident: WatcherAlarm.timerIdent, filter: Int16(EVFILT_TIMER),
                              flags: UInt16(EV_ADD | EV_ONESHOT),
                              fflags: UInt32(NOTE_MACHTIME | NOTE_MACH_CONTINUOUS_TIME),
                              data: Int(truncatingIfNeeded: interval), udata: nil)
        _ = kevent(queue, &relative, 1, nil, 0, nil)
    }

    /// Waits for the timer or a wake-up; true when the deadline came.
    func sleep() -> Bool {
        var events = (kevent(), kevent())
        let ready = withUnsafeMutableBytes(of: &events) {
            kevent(queue, nil, 0, $0.baseAddress!.assumingMemoryBound(to: kevent.self), 2, nil)
        }
        if ready <= 0 { return false }
        let timer = Int16(EVFILT_TIMER)
        return events.0.filter == timer || (ready > 1 && events.1.filter == timer)
    }
}
#endif
