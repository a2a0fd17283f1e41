// SPDX-License-Identifier: MIT
// The watcher's alarm (Handle/DeadlineWatcher.swift): a timer on the
// library's clock (SystemClock.swift) armed for an absolute reading, a
// wake-up any thread may send, and a wait for either.
//
//   Linux   a timerfd on CLOCK_BOOTTIME (glibc refuses CLOCK_BOOTTIME for
//           condition variables), an eventfd for the wake-up, poll(2) on
//           both: WatcherAlarmLinux.swift
//   Darwin  one kqueue: an EVFILT_TIMER on mach continuous time (which
//           counts sleep, as the clock does) and an EVFILT_USER for the
//           wake-up: WatcherAlarmDarwin.swift
//
// Each is a noncopyable `WatcherAlarm` with the same operations, and keeps
// the same rules (WatcherTests check them on the host's alarm):
//   make()      a disarmed alarm, or INTERNAL when the system refuses one;
//   arm(at:)    fire once the clock reads `at` ms, never before; arming
//               again replaces the deadline (a firing not yet waited for
//               is dropped); `AlarmRules.disarmed` disarms; false when the
//               system refused (then the wait's timeout stands in:
//               `AlarmRules.timeout`);
//   wake()      from any thread: ends the current wait, or the next one if
//               none is under way (a wake-up is never lost), and all
//               wake-ups sent before a wait end that one wait only;
//   sleep(timeoutMs:)  waits, at most `timeoutMs` ms (-1: no limit): true
//               when the deadline came (the timer, also with a wake-up, or
//               the timeout), false for a wake-up alone or a wait that
//               failed or was interrupted.
// What does not depend on the system (which reading to arm for) is
// `AlarmRules`, used by the watcher on every system.

enum AlarmRules {
    /// `arm(at:)`'s reading that disarms the alarm (no deadline).
    static let disarmed = Int64.max

    /// The reading to arm for: `wait` ms after `now` (`Millis.never`: no
    /// deadline), and always later than the deadline that fired last, so a
    /// deadline the handle still reports as due after its check (a clock
    /// step, a reading at the deadline's edge) re-arms 1 ms on instead of
    /// spinning.
    static func nextAlarm(now: Int64, wait: Int64, lastFired: Int64) -> Int64 {
        if wait == Millis.never { return disarmed }
        let at = Millis.add(now, wait)
        if at != disarmed && at <= lastFired { return Millis.add(lastFired, 1) }
        return at
    }

    /// The wait's timeout in ms when the timer could not be armed for `at`
    /// (a system that refused it): the time left from `now`, 0 when it has
    /// come, -1 (no limit) for `disarmed`. The timeout runs on the
    /// monotonic clock, which stops while the device sleeps: the wait then
    /// ends late, never early (and at most after Int32.max ms, 24.8 days,
    /// when the watcher arms again).
    static func timeout(at: Int64, now: Int64) -> Int32 {
        if at == disarmed { return -1 }
        let (left, overflow) = at.subtractingReportingOverflow(now)
        if overflow { return at > now ? Int32.max : 0 }
        return Int32(clamping: Swift.max(left, 0))
    }
}
