// SPDX-License-Identifier: MIT
// The library's default clock: milliseconds since an arbitrary start that
// keep counting while the device sleeps, so a session idle across a
// suspend locks on wake (include/idlelock.h, "Types": the clock).
//
//   Linux (glibc, musl, bionic)  clock_gettime(CLOCK_BOOTTIME): the vDSO,
//                                no system call; inlined into every hot call
//   Darwin (iOS)                 mach_continuous_time(), in the units of
//                                mach_timebase_info (the same counter the
//                                watcher's kqueue timer follows, so the
//                                clock and the alarm agree to the tick)
//
// The arithmetic between the counter and milliseconds is `ClockMath`,
// shared by both and tested on every host.

import CSystem

enum SystemClock {
    /// The clock's reading in ms.
    @inline(__always)
    static func milliseconds() -> Int64 {
        #if os(macOS) || os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
        return ClockMath.milliseconds(ticks: SystemCalls.mach_continuous_time(), timebase: DarwinTimebase.current)
        #else
        var ts = timespec()
        SystemCalls.clock_gettime(CLOCK_BOOTTIME, &ts)
        return Int64(ts.tv_sec) &* 1000 &+ Int64(ts.tv_nsec / 1_000_000)
        #endif
    }
}

#if os(macOS) || os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
/// mach_timebase_info, read once: nanoseconds = ticks * numer / denom.
enum DarwinTimebase {
    static let current: ClockMath.Timebase = {
        var info = mach_timebase_info_data_t()
        if SystemCalls.mach_timebase_info(&info) != 0 { return ClockMath.Timebase(numer: 0, denom: 0) }
        return ClockMath.Timebase(numer: info.numer, denom: info.denom)
    }()
}
#endif

/// Conversions between a system counter and the library's milliseconds.
/// Pure functions: they run (and are tested) on every host, whatever
/// counter that host's clock reads. None traps: a result that does not fit
/// saturates.
enum ClockMath {
    /// A tick counter's rate: one tick is `numer / denom` nanoseconds.
    struct Timebase {
        var numer: UInt32
        var denom: UInt32
        var isValid: Bool { numer != 0 && denom != 0 }
    }

    /// The reading in ms of a counter at `ticks`: floor(ticks * numer /
    /// (denom * 10^6)). Saturates at Int64.max (after 194 years of a
    /// 24 MHz counter); an invalid timebase reads Int64.max too, which the
    /// rules treat as the far future (never earlier than a reading they
    /// saw).
    static func milliseconds(ticks: UInt64, timebase: Timebase) -> Int64 {
        guard timebase.isValid else { return Int64.max }
        let (scaled, overflow) = ticks.multipliedReportingOverflow(by: UInt64(timebase.numer))
        if overflow { return Int64.max }
        return Int64(clamping: scaled / UInt64(timebase.denom) / 1_000_000)
    }

    /// The first tick whose reading is at least `ms` (ms >= 0):
    /// ceil(ms * 10^6 * denom / numer). An alarm armed for this tick never
    /// fires before the clock reads `ms`. Saturates at Int64.max (the
    /// largest value a kevent's data holds).
    static func ticks(atMilliseconds ms: Int64, timebase: Timebase) -> Int64 {
        guard timebase.isValid else { return Int64.max }
        let wanted = UInt64(Swift.max(ms, 0))
        let (ns, overflowA) = wanted.multipliedReportingOverflow(by: 1_000_000)
        let (product, overflowB) = ns.multipliedReportingOverflow(by: UInt64(timebase.denom))
        if overflowA || overflowB { return Int64.max }
        let numer = UInt64(timebase.numer)
        let (quotient, remainder) = product.quotientAndRemainder(dividingBy: numer)
        return Int64(clamping: remainder == 0 ? quotient : quotient + 1)
    }

    /// The interval in ticks from `now` to `deadline` (0 when it has come):
    /// armed as an interval at `now` or later, it ends at `deadline` or
    /// later.
    static func ticksUntil(_ deadline: Int64, from now: UInt64) -> Int64 {
        let target = UInt64(Swift.max(deadline, 0))
        return target > now ? Int64(clamping: target - now) : 0
    }

    /// An absolute reading `ms` (>= 1 is used: a zero it_value disarms a
    /// timerfd) as the seconds and nanoseconds of a timespec on the same
    /// clock: what the Linux alarm arms.
    static func timespecParts(atMilliseconds ms: Int64) -> (seconds: Int64, nanoseconds: Int64) {
        let at = Swift.max(ms, 1)
        return (at / 1000, (at % 1000) * 1_000_000)
    }
}
